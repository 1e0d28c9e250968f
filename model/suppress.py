"""Inline suppressions: ``# skillproof: ignore[CODE] reason`` next to a rule's table.

The comment stands in the comment block right above a ``[[skill]]`` / ``[[grant]]`` / ``[[card]]`` /
``[[character]]`` header (or above one of its sub-tables), on the header line, or anywhere inside the
table; it accepts findings of the named checks (``BN001``) or one finding (``BN001-44634e9b2f``) that
involve that rule. A reason is required. TOML drops comments, so they are read from the text here; which
codes exist is for the checks to say (``checks/suppress.py``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .locate import _logical_lines, _split_key, comments
from .msg import Msg
from .names import echo

ENTRY_TABLES = ("skill", "grant", "card", "character")
_MARK = re.compile(r"#\s*skillproof\s*:\s*(\S.*)$")
_IGNORE = re.compile(r"ignore\s*(?:\[([^\]]*)\])?\s*(.*)$")
_CODE = re.compile(r"^[A-Z]{2,}[0-9]{3}(-[0-9a-f]{10})?$")


@dataclass(frozen=True)
class Suppression:
    codes: tuple              # check codes ("BN001") or finding ids ("BN001-44634e9b2f")
    reason: str
    rule: str                 # the id of the rule, card or character whose table it stands next to
    file: str
    line: int


def _headers(text: str) -> list[tuple[int, tuple | None]]:
    """(line, owning entry (table, index) or None) of every table header, in order."""
    out = []
    counts: dict[str, int] = {}
    current = None
    for no, raw in _logical_lines(text):
        s = raw.strip()
        if not s.startswith("["):
            continue
        arr = s.startswith("[[")
        end = s.find("]]" if arr else "]")
        parts = _split_key(s[2 if arr else 1:end]) if end > 0 else None
        if not parts:
            continue
        if arr and len(parts) == 1 and parts[0] in ENTRY_TABLES:
            counts[parts[0]] = counts.get(parts[0], -1) + 1
            current = (parts[0], counts[parts[0]])
        elif not (current and parts[0] == current[0] and len(parts) > 1):
            current = None                  # [rules], [meta], …: no rule owns what follows
        out.append((no, current))
    return out


def _content_lines(text: str) -> list[int]:
    return [no for no, raw in _logical_lines(text) if raw.strip() and not raw.strip().startswith("#")]


def scan(name: str, text: str, data: dict):
    """(suppressions, problems) of one file; a problem is (line, message)."""
    marks = [(no, m.group(1).strip()) for no, c in comments(text) for m in [_MARK.match(c)] if m]
    if not marks:
        return [], []
    headers = _headers(text)
    content = _content_lines(text)
    out, problems = [], []
    for no, body in marks:
        m = _IGNORE.match(body)
        if not m:
            problems.append((no, Msg("未知的 skillproof 注释 '{b}'：写成 `# skillproof: ignore[CODE] 理由`",
                                     "unknown skillproof comment '{b}': write `# skillproof: ignore[CODE] reason`",
                                     b=echo(body))))
            continue
        raw_codes, reason = m.group(1), m.group(2).strip()
        if raw_codes is None or not raw_codes.strip():
            problems.append((no, Msg("写出它接受的检查：`# skillproof: ignore[BN001] 理由`",
                                     "name the checks it accepts: `# skillproof: ignore[BN001] reason`")))
            continue
        codes = tuple(c.strip() for c in raw_codes.split(",") if c.strip())
        bad = [c for c in codes if not _CODE.match(c)]
        if bad:
            problems.append((no, Msg("'{c}' 不是检查代码或问题编号（例如 'BN001' 或 'BN001-44634e9b2f'）",
                                     "'{c}' is not a check code or finding id (e.g. BN001 or BN001-44634e9b2f)",
                                     c=echo(bad[0]))))
            continue
        if not reason:
            problems.append((no, Msg("'ignore[{c}]' 后面需要理由：说明为什么接受这个问题",
                                     "ignore[{c}] needs a reason after it: say why the finding is accepted",
                                     c=echo(", ".join(codes)))))
            continue
        nxt = next((c for c in content if c >= no), None)
        owner = next((o for ln, o in headers if ln == nxt), "none") if nxt is not None else "none"
        if owner == "none":                  # not right above a header: the table it stands in
            owner = None
            for ln, o in headers:
                if ln > no:
                    break
                owner = o
        entry = None
        if owner is not None:
            arr = data.get(owner[0])
            if isinstance(arr, list) and owner[1] < len(arr) and isinstance(arr[owner[1]], dict):
                entry = arr[owner[1]].get("id")
        if not isinstance(entry, str) or not entry:
            problems.append((no, Msg("'skillproof: ignore' 注释必须写在规则的表旁边（带 id 的 [[skill]]、[[grant]]、"
                                     "[[card]] 或 [[character]]）",
                                     "a skillproof: ignore comment must stand next to a rule's table ([[skill]], "
                                     "[[grant]], [[card]] or [[character]] with an id)")))
            continue
        out.append(Suppression(codes, reason, entry, name, no))
    return out, problems
