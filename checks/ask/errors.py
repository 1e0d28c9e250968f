"""A bad question: the located error every part of `skillproof ask` raises, and the display width
its caret is drawn with."""
from __future__ import annotations

import unicodedata

from skillproof.model.msg import Msg, as_msg


def at_word(word: str) -> Msg:
    """" (at 'word')" / "（位置：'word'）": the word an error points at."""
    return Msg("（位置：'{w}'）", " (at '{w}')", w=word)


class QueryError(Exception):
    """A bad query: ``col``/``end`` are 0-based offsets of the offending word in the query text. The message
    is kept in both languages (``text``, a model.msg.Msg); ``msg``, ``str(e)`` and ``line()`` give it in the
    run's language when they are called, ``line(text, "en")`` in English."""

    def __init__(self, msg, col: int = 0, end: int | None = None):
        self.text: Msg = as_msg(msg)
        super().__init__(self.text)
        self.col = col
        self.end = end if end is not None else col + 1
        self.nearest: str | None = None     # the nearest phrasing the language accepts (repair.py), if any

    @property
    def msg(self) -> str:
        return self.text.render()

    def line(self, text: str | None = None, lang: str | None = None) -> str:
        """One located line: ``query:1:COL: message (at 'word')`` (``（位置：'word'）`` in Chinese)."""
        word = Msg("", "")
        if text is not None and 0 <= self.col < len(text):
            word = at_word(text[self.col:self.end].strip() or text[self.col])
        return f"query:1:{self.col + 1}: {self.text.render(lang)}{word.render(lang)}"

    def caret(self, text: str, prefix: str = "") -> list[str]:
        """The query and a caret under the offending word (East Asian wide characters count double)."""
        pad = display_width(text[:self.col])
        width = max(1, display_width(text[self.col:self.end]))
        return [prefix + text, prefix + " " * pad + "^" * width]


def display_width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in s)
