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
from .errtext import SEE_LIMITS, toml_syntax
from .msg import Msg
from .names import echo, shown  # noqa: F401  (shown: re-exported)

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


def prescan(text: str) -> tuple[int, Msg] | None:
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
                return line, Msg("数组或内联表嵌套超过 {n} 层（上限）",
                                 "arrays or inline tables nested more than {n} levels deep (the limit)", n=L.TOML_DEPTH)
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "bare":
            tok = m.group()
            if _NUMBER.match(tok):
                digits = sum(c.isalnum() for c in tok)
                if digits > L.NUMBER_CHARS:
                    return line, Msg("{digits:,} 位的数（'{tok}'）；上限是 {n} 位、±{max:,}",
                                     "a number of {digits:,} digits ({tok}); the limit is {n} digits and ±{max:,}",
                                     digits=digits, tok=echo(tok, 20), n=L.NUMBER_CHARS, max=L.INT_MAX)
            elif tok.count(".") >= L.TOML_DEPTH:
                return line, Msg("带点的键嵌套超过 {n} 层（上限）", "a dotted key nested more than {n} levels deep (the limit)",
                                 n=L.TOML_DEPTH)
    return None


def loads(text: str) -> tuple[dict | None, tuple[int, Msg] | None]:
    """(data, None), or (None, (line, message)) when the text is not TOML or goes over a limit."""
    over = prescan(text)
    if over:
        return None, over
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        return None, (toml_error_line(msg, text), toml_syntax(msg))
    except (RecursionError, ValueError, MemoryError, OverflowError) as e:
        # the scan above keeps tomllib within its limits; this is a last resort, never a traceback
        return None, (1, Msg("在上限之内读不了这个 TOML（'{e}'）{see}", "cannot read this TOML within the limits ({e});{see}",
                             e=type(e).__name__, see=SEE_LIMITS))


NAME_KEYS = {"id", "name", "aliases", "grant", "skills", "kinds"}


def check_values(data: dict, locs: dict) -> list[tuple[int, str, Msg]]:
    """(line, key, message) for every value over a limit: key and string lengths, integer range, array
    and table sizes, nesting. Walks the data iteratively."""
    out: list[tuple[int, str, str]] = []
    stack: list[tuple[object, tuple, str]] = [(data, (), "")]
    while stack:
        v, path, key = stack.pop()
        if len(path) > 2 * L.TOML_DEPTH:
            out.append((line_of(locs, path), key, Msg("表嵌套超过 {n} 层", "tables nested more than {n} levels deep",
                                                      n=2 * L.TOML_DEPTH)))
            continue
        if isinstance(v, dict):
            if len(v) > L.LIST_ITEMS:
                out.append((line_of(locs, path), key, Msg("表有 {n:,} 个键，上限是 {limit:,}",
                                                          "a table of {n:,} keys; the limit is {limit:,}",
                                                          n=len(v), limit=L.LIST_ITEMS)))
                continue
            for k, x in v.items():
                if len(k) > L.NAME_CHARS:
                    out.append((line_of(locs, path + (k,)), shown(k, 30),
                                Msg("键有 {n:,} 个字符，上限是 {limit}", "a key of {n:,} characters; the limit is {limit}",
                                    n=len(k), limit=L.NAME_CHARS)))
                    continue
                stack.append((x, path + (k,), k))
        elif isinstance(v, list):
            if len(v) > L.LIST_ITEMS:
                out.append((line_of(locs, path), key, Msg("'{key}' 有 {n:,} 项，上限是 {limit:,}",
                                                          "'{key}' has {n:,} items; the limit is {limit:,}",
                                                          key=key, n=len(v), limit=L.LIST_ITEMS)))
                continue
            stack.extend((x, path + (i,), key) for i, x in enumerate(v))
        elif isinstance(v, str):
            cap = L.NAME_CHARS if key in NAME_KEYS else L.STRING_CHARS
            if len(v) > cap:
                out.append((line_of(locs, path), key,
                            Msg("'{key}' 长 {n:,} 个字符（'{v}'）；上限是 {cap:,}",
                                "'{key}' is {n:,} characters long ({v}); the limit is {cap:,}",
                                key=key, n=len(v), v=echo(v, 20), cap=cap)))
        elif isinstance(v, int) and not isinstance(v, bool):
            if abs(v) > L.INT_MAX:
                out.append((line_of(locs, path), key,
                            Msg("'{key}' = {v} 超出范围；整数须在 ±{max:,} 之内",
                                "'{key}' = {v} is out of range; integers lie within ±{max:,}",
                                key=key, v=echo(v, 20), max=L.INT_MAX)))
    return sorted(out, key=lambda x: (x[0], x[1], x[2].render("en")))
