"""The language of a run: Chinese (``zh``, the default, for designers) or English (``en``).

One language per run: the command line sets it once (``--lang`` or ``lang`` in the configuration) and
everything that writes for people — report formats, witness narrations, `ask`/`explain`/`replay` answers —
reads it here. Names of the catalogue (characters, skills, cards) are proper nouns and stay as the catalogue
writes them in both languages. Machine formats (JSON, SARIF fields, baselines) do not depend on it.
"""
from __future__ import annotations

import contextlib
import contextvars

LANGS = ("zh", "en")
DEFAULT = "zh"

_CURRENT: contextvars.ContextVar[str] = contextvars.ContextVar("skillproof_lang", default=DEFAULT)


def current() -> str:
    """The run's language: "zh" or "en"."""
    return _CURRENT.get()


def is_en() -> bool:
    return _CURRENT.get() == "en"


def pick(zh: str, en: str) -> str:
    """``zh`` or ``en``, whichever is the run's language."""
    return en if _CURRENT.get() == "en" else zh


@contextlib.contextmanager
def using(lang: str | None):
    """Run the block in ``lang`` (None: leave the language as it is)."""
    if lang is None:
        yield
        return
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    token = _CURRENT.set(lang)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def yes_no(v: bool) -> str:
    """A boolean for people: 是/否 or yes/no, never True/False."""
    return pick("是" if v else "否", "yes" if v else "no")


#: names of grant parameters for people (others — A, B, … of the skill text — are shown as written)
PARAMS = {"all_cards": ("所有牌", "all cards"), "cards": ("牌", "cards"), "card": ("牌", "card"),
          "color": ("颜色", "colour")}


def param_name(k: str) -> str:
    zh, en = PARAMS.get(k, (k, k))
    return pick(zh, en)
