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


_TOKENS = re.compile(r'''
    (?P<mstr>"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*(?:"""["]{0,2}|\Z) | \'\'\'[\s\S]*?(?:\'\'\'[\']{0,2}|\Z))
  | "[^"\\\n]*(?:\\.[^"\\\n]*)*"? | '[^'\n]*'?
  | (?P<comment>\#[^\n]*)
  | (?P<open>[\[{]) | (?P<close>[\]}])
  | (?P<nl>\n)
''', re.VERBOSE)


def _logical_lines(text: str, comments: list | None = None):
    """Yield (line_no, line_text) for lines that start outside any string or bracket; every comment (outside
    strings) is appended to ``comments`` as (line_no, text from '#'), when a list is given.

    One regular-expression pass over strings, comments, brackets and newlines (the rest is skipped in
    bulk), so a file of megabytes is scanned in well under a second."""
    depth = 0
    line_no = 1
    start_ok = True
    line_start = 0
    n = len(text)
    for m in _TOKENS.finditer(text):
        kind = m.lastgroup
        if kind == "nl":
            if start_ok:
                yield line_no, text[line_start:m.start()]
            line_no += 1
            line_start = m.end()
            start_ok = depth == 0
        elif kind == "comment":
            if comments is not None:
                comments.append((line_no, m.group()))
        elif kind == "mstr":
            k = m.group().count("\n")
            if k:                       # the next line starts inside the string
                line_no += k
                line_start = m.start() + m.group().rfind("\n") + 1
                start_ok = False
        elif kind == "open":
            # brackets count only inside values: a header line's [ ] are balanced on the line itself
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
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


_EQ = re.compile(r"[\"'=]")


def _find_eq(s: str) -> int:
    """The first '=' outside quotes, or -1."""
    i = 0
    while True:
        m = _EQ.search(s, i)
        if not m:
            return -1
        if m.group() == "=":
            return m.start()
        j = s.find(m.group(), m.end())
        if j < 0:
            return -1
        i = j + 1


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
