"""Messages in both languages: an error is made once and shown in the run's language when it is shown.

``Msg(zh, en, **args)`` holds two templates (``str.format`` syntax) and the values they share; nothing is
rendered when the message is made. ``str(msg)`` renders it in the run's language (``model.lang``) at that
moment — values that are messages themselves in the same language — and ``msg.render("en")`` in a given
one. So an error raised before the run's language is known (a configuration error, read before the
configuration can say ``lang``) is shown in the run's language when it is printed, and an error made while
one language was set renders right under another.

Messages compare, hash and sort by their English text, then their Chinese: sorting a list of errors keeps
the order it had when errors were English only.
"""
from __future__ import annotations

from .lang import current


class Msg:
    """A message in Chinese and English: two ``str.format`` templates over the same ``args`` (literal braces
    doubled; text the user wrote always goes in ``args``, never in a template)."""

    __slots__ = ("zh", "en", "args")

    def __init__(self, zh: str, en: str | None = None, /, **args):
        self.zh = zh
        self.en = zh if en is None else en
        self.args = args

    def render(self, lang: str | None = None) -> str:
        """The text in ``lang`` ("zh" / "en"; None: the run's language)."""
        lang = lang or current()
        tmpl = self.en if lang == "en" else self.zh
        return tmpl.format(**{k: render(v, lang) if isinstance(v, Msg) else v for k, v in self.args.items()})

    def __str__(self) -> str:
        return self.render()

    def __format__(self, spec: str) -> str:
        return format(self.render(), spec)

    def __repr__(self) -> str:
        return f"Msg({self.render('zh')!r}, {self.render('en')!r})"

    def __add__(self, other) -> "Msg":
        return Msg("{a}{b}", "{a}{b}", a=self, b=other)

    def __radd__(self, other) -> "Msg":
        return Msg("{a}{b}", "{a}{b}", a=other, b=self)

    def __bool__(self) -> bool:
        return bool(self.render("en") or self.render("zh"))

    def _key(self) -> tuple:
        return (self.render("en"), self.render("zh"))

    def __eq__(self, other) -> bool:
        if isinstance(other, Msg):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __lt__(self, other) -> bool:
        return self._key() < as_msg(other)._key()


def as_msg(x) -> Msg:
    """``x`` as a message: a plain string (a value echoed, an OS message) is the same in both languages."""
    return x if isinstance(x, Msg) else Msg("{s}", "{s}", s="" if x is None else str(x))


def render(x, lang: str | None = None) -> str:
    """A message or a plain string, in ``lang`` (None: the run's language)."""
    return x.render(lang) if isinstance(x, Msg) else str(x)


def join(items, zh_sep: str = "、", en_sep: str = ", ") -> Msg:
    """Messages (or strings) joined: 、 in Chinese, ", " in English."""
    items = list(items)
    args = {f"i{k}": v for k, v in enumerate(items)}
    return Msg(zh_sep.join("{i%d}" % k for k in range(len(items))),
               en_sep.join("{i%d}" % k for k in range(len(items))), **args)


EMPTY = Msg("", "")


def count(n: int, zh_unit: str, en_word: str, en_plural: str | None = None) -> Msg:
    """``3 个错误`` / ``3 errors`` (``1 error``)."""
    en = en_word if n == 1 else (en_plural or en_word + "s")
    return Msg("{n:,} " + zh_unit, "{n:,} " + en, n=n)
