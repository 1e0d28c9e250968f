"""A bad question: the located error every part of `skillproof ask` raises, and the display width
its caret is drawn with."""
from __future__ import annotations

import unicodedata


class QueryError(Exception):
    """A bad query: ``col``/``end`` are 0-based offsets of the offending word in the query text."""

    def __init__(self, msg: str, col: int = 0, end: int | None = None):
        super().__init__(msg)
        self.msg = msg
        self.col = col
        self.end = end if end is not None else col + 1

    def line(self, text: str | None = None) -> str:
        """One located line: ``query:1:COL: message``."""
        word = ""
        if text is not None and 0 <= self.col < len(text):
            word = f" (at '{text[self.col:self.end].strip() or text[self.col]}')"
        return f"query:1:{self.col + 1}: {self.msg}{word}"

    def caret(self, text: str, prefix: str = "") -> list[str]:
        """The query and a caret under the offending word (East Asian wide characters count double)."""
        pad = display_width(text[:self.col])
        width = max(1, display_width(text[self.col:self.end]))
        return [prefix + text, prefix + " " * pad + "^" * width]


def display_width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in s)
