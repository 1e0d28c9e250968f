"""TOML text to data within the input limits (``model.limits``), with the line of every problem.

``tomllib`` recurses on nested arrays and inline tables and converts integer literals with ``int()``, so
a file nested a few hundred levels deep or holding a number of thousands of digits makes it raise
``RecursionError`` / ``ValueError``. The text is scanned first (one regular-expression pass: strings and
comments skipped, bracket depth, dotted-key depth, number length), then parsed, then every value is
checked against the limits — iteratively, since the data may be deep.
"""
from __future__ import annotations

import re
import tomllib

from . import limits as L
from .locate import line_of, toml_error_line
from .names import shown

_SCAN = re.compile(r'''
    (?P<mstr>"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""|\'\'\'[\s\S]*?\'\'\')
  | (?P<str>"[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\n]*')
  | (?P<open_str>"""[\s\S]*|\'\'\'[\s\S]*|["'][^\n]*)
  | (?P<comment>\#[^\n]*)
  | (?P<open>[\[{])
  | (?P<close>[\]}])
  | (?P<nl>\n)
  | (?P<bare>[A-Za-z0-9_+\-.:]+)
''', re.VERBOSE)
_NUMBER = re.compile(r"[+-]?[0-9]")


def prescan(text: str) -> tuple[int, str] | None:
    """(line, message) of the first place where the text goes over a structural limit, else None."""
    depth = 0
    line = 1
    for m in _SCAN.finditer(text):
        kind = m.lastgroup
        if kind == "nl":
            line += 1
        elif kind in ("mstr", "open_str"):
            line += m.group().count("\n")
        elif kind == "open":
            depth += 1
            if depth > L.TOML_DEPTH:
                return line, (f"arrays or inline tables nested more than {L.TOML_DEPTH} levels deep "
                              f"(the limit)")
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "bare":
            tok = m.group()
            if _NUMBER.match(tok):
                digits = sum(c.isalnum() for c in tok)
                if digits > L.NUMBER_CHARS:
                    return line, (f"a number of {digits:,} digits ({shown(tok, 20)}); the limit is "
                                  f"{L.NUMBER_CHARS} digits and ±{L.INT_MAX:,}")
            elif tok.count(".") >= L.TOML_DEPTH:
                return line, f"a dotted key nested more than {L.TOML_DEPTH} levels deep (the limit)"
    return None


def loads(text: str) -> tuple[dict | None, tuple[int, str] | None]:
    """(data, None), or (None, (line, message)) when the text is not TOML or goes over a limit."""
    over = prescan(text)
    if over:
        return None, over
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        return None, (toml_error_line(msg, text), f"TOML syntax error: {msg}")
    except (RecursionError, ValueError, MemoryError, OverflowError) as e:
        # the scan above keeps tomllib within its limits; this is a last resort, never a traceback
        return None, (1, f"cannot read this TOML within the limits ({type(e).__name__}); "
                         f"see docs/catalogue-format.md § Limits")


NAME_KEYS = {"id", "name", "aliases", "grant", "skills", "kinds"}


def check_values(data: dict, locs: dict) -> list[tuple[int, str, str]]:
    """(line, key, message) for every value over a limit: key and string lengths, integer range, array
    and table sizes, nesting. Walks the data iteratively."""
    out: list[tuple[int, str, str]] = []
    stack: list[tuple[object, tuple, str]] = [(data, (), "")]
    while stack:
        v, path, key = stack.pop()
        if len(path) > 2 * L.TOML_DEPTH:
            out.append((line_of(locs, path), key, f"tables nested more than {2 * L.TOML_DEPTH} levels deep"))
            continue
        if isinstance(v, dict):
            if len(v) > L.LIST_ITEMS:
                out.append((line_of(locs, path), key, f"a table of {len(v):,} keys; the limit is {L.LIST_ITEMS:,}"))
                continue
            for k, x in v.items():
                if len(k) > L.NAME_CHARS:
                    out.append((line_of(locs, path + (k,)), shown(k, 30),
                                f"a key of {len(k):,} characters; the limit is {L.NAME_CHARS}"))
                    continue
                stack.append((x, path + (k,), k))
        elif isinstance(v, list):
            if len(v) > L.LIST_ITEMS:
                out.append((line_of(locs, path), key, f"'{key}' has {len(v):,} items; the limit is {L.LIST_ITEMS:,}"))
                continue
            stack.extend((x, path + (i,), key) for i, x in enumerate(v))
        elif isinstance(v, str):
            cap = L.NAME_CHARS if key in NAME_KEYS else L.STRING_CHARS
            if len(v) > cap:
                out.append((line_of(locs, path), key,
                            f"'{key}' is {len(v):,} characters long ({shown(v, 20)}); the limit is {cap:,}"))
        elif isinstance(v, int) and not isinstance(v, bool):
            if abs(v) > L.INT_MAX:
                out.append((line_of(locs, path), key,
                            f"'{key}' = {shown(v, 20)} is out of range; integers lie within ±{L.INT_MAX:,}"))
    return sorted(out)
