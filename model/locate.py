"""Line numbers for TOML keys.

``tomllib`` gives values but no positions. This scanner walks the text once, tracking strings, comments
and bracket depth, and records the line of every table header and every ``key =`` that starts a line at
depth 0, under its concrete path: ``("skill", 3, "convert")`` is the ``convert`` key of the fourth
``[[skill]]``. Keys inside inline tables share the line of the key that opens them.
"""
from __future__ import annotations

import re

_BARE = re.compile(r"[A-Za-z0-9_\-]+")


def _split_key(s: str) -> list[str] | None:
    """Split a dotted TOML key (bare or quoted parts); None if it is not a key."""
    parts, i = [], 0
    s = s.strip()
    while i < len(s):
        if s[i] in "\"'":
            q = s[i]
            j = s.find(q, i + 1)
            if j < 0:
                return None
            parts.append(s[i + 1:j])
            i = j + 1
        else:
            m = _BARE.match(s, i)
            if not m:
                return None
            parts.append(m.group())
            i = m.end()
        while i < len(s) and s[i] in " \t":
            i += 1
        if i < len(s):
            if s[i] != ".":
                return None
            i += 1
            while i < len(s) and s[i] in " \t":
                i += 1
    return parts or None


def _logical_lines(text: str, comments: list | None = None):
    """Yield (line_no, line_text) for lines that start outside any string or bracket; every comment (outside
    strings) is appended to ``comments`` as (line_no, text from '#'), when a list is given."""
    depth = 0
    in_str: str | None = None       # the closing delimiter of the string we are in
    line_no = 1
    start_ok = True
    line_start = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if in_str:
            if in_str in ('"', '"""') and ch == "\\":
                i += 2
                continue
            if text.startswith(in_str, i):
                i += len(in_str)
                in_str = None
                continue
            if ch == "\n":
                if len(in_str) == 1:      # an unterminated one-line string: let tomllib complain
                    in_str = None
                line_no += 1
                line_start = i + 1
                start_ok = depth == 0 and in_str is None
                i += 1
                continue
            i += 1
            continue
        if ch == "\n":
            eol = i
            if start_ok:
                yield line_no, text[line_start:eol]
            line_no += 1
            line_start = i + 1
            start_ok = depth == 0
            i += 1
            continue
        if ch == "#":
            j = text.find("\n", i)
            if comments is not None:
                comments.append((line_no, text[i:n if j < 0 else j]))
            i = n if j < 0 else j
            continue
        for d in ('"""', "'''", '"', "'"):
            if text.startswith(d, i):
                in_str = d
                i += len(d)
                break
        else:
            # brackets count only inside values: a header line's [ ] are balanced on the line itself
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth = max(0, depth - 1)
            i += 1
    if start_ok and line_start < n:
        yield line_no, text[line_start:]


def locate(text: str) -> dict[tuple, int]:
    """Map concrete key paths to 1-based line numbers."""
    locs: dict[tuple, int] = {}
    counters: dict[tuple, int] = {}      # array path -> index of its last element
    current: tuple = ()
    for line_no, raw in _logical_lines(text):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("[["):
            end = s.find("]]")
            parts = _split_key(s[2:end]) if end > 0 else None
            if not parts:
                continue
            base = _resolve(parts[:-1], counters)
            arr = base + (parts[-1],)
            idx = counters.get(arr, -1) + 1
            counters[arr] = idx
            current = arr + (idx,)
            locs[current] = line_no
            continue
        if s.startswith("["):
            end = s.find("]")
            parts = _split_key(s[1:end]) if end > 0 else None
            if not parts:
                continue
            current = _resolve(parts, counters)
            locs.setdefault(current, line_no)
            continue
        eq = _find_eq(s)
        if eq < 0:
            continue
        parts = _split_key(s[:eq])
        if not parts:
            continue
        for k in range(1, len(parts) + 1):
            locs.setdefault(current + tuple(parts[:k]), line_no)
    return locs


def _find_eq(s: str) -> int:
    in_q = None
    for i, ch in enumerate(s):
        if in_q:
            if ch == in_q:
                in_q = None
        elif ch in "\"'":
            in_q = ch
        elif ch == "=":
            return i
    return -1


def _resolve(parts: list[str], counters: dict) -> tuple:
    """A header's dotted name as a concrete path (arrays resolve to their last element)."""
    path: tuple = ()
    for p in parts:
        path = path + (p,)
        if path in counters:
            path = path + (counters[path],)
    return path


def line_of(locs: dict, path: tuple) -> int:
    """The line of ``path``, or of its closest located ancestor (1 if none)."""
    p = tuple(path)
    while p:
        if p in locs:
            return locs[p]
        p = p[:-1]
    return 1


def toml_error_line(message: str, text: str) -> int:
    """The line a ``tomllib.TOMLDecodeError`` message points at ('at line N' or 'at end of document')."""
    import re as _re
    m = _re.search(r"line (\d+)", message)
    if m:
        return int(m.group(1))
    if "end of document" in message:
        return max(1, text.count("\n") + (0 if text.endswith("\n") or not text else 1))
    return 1


def comments(text: str) -> list[tuple[int, str]]:
    """(line, text from '#') of every comment of a TOML text, strings skipped."""
    out: list = []
    for _ in _logical_lines(text, out):
        pass
    return out
