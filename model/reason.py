"""Reasons in both languages: why a trace is illegal, why a state cannot be reached, why a witness does not
replay (``model.interp.trace``, ``model.interp``, ``checks.context.replay_problems``).

A reason is made while the interpreter runs, before anything knows where it will be shown, and one run may
show it in both languages (a finding keeps its ``message`` in Chinese and its ``message_en`` in English; an
INT001 finding quotes the interpreter's reasons in each). So a ``Reason`` is a ``str`` — the text in the
language that was the run's when it was made (``model.lang``), so that it prints, joins, compares and is
written to JSON like any string — which also keeps both texts, ``.zh`` and ``.en``. ``zh(x)`` / ``en(x)``
read one of them from a reason or from a plain string (the same in both languages); ``both(fn)`` makes a
reason of a function that writes in the run's language (``lang.pick``) by calling it once in each.

The words are the rule book's and the narration's (``model.narrate_*``): 座位, 回合, 时机 and the windows'
names (出牌阶段, 争夺阶段, …), 给出 / 给出处, 持有, 生效, 被无效, 情报, 传出者, 濒死, 面朝上 / 面朝下. Names are
the catalogue's in both languages; values are never Python reprs.
"""
from __future__ import annotations

from .lang import current, using
from .names import escape, shown
from .turn import WINDOW_EN, WINDOWS


class Reason(str):
    """A reason in Chinese and English; as a ``str``, the text in the language of the run that made it."""

    zh: str
    en: str

    def __new__(cls, zh: str, en: str):
        self = super().__new__(cls, en if current() == "en" else zh)
        self.zh, self.en = str(zh), str(en)
        return self

    def in_lang(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh

    def __reduce__(self):                   # pickled across the check's lane processes: both texts kept
        return (_remake, (str(self), self.zh, self.en))

    def __repr__(self) -> str:
        return f"Reason({self.zh!r}, {self.en!r})"


def _remake(text: str, zh_: str, en_: str) -> Reason:
    r = str.__new__(Reason, text)
    r.zh, r.en = zh_, en_
    return r


def text(x, lang: str) -> str:
    """``x`` in ``lang``: a reason's text in that language, any other value as it prints."""
    return x.in_lang(lang) if isinstance(x, Reason) else str(x)


def zh(x) -> str:
    return text(x, "zh")


def en(x) -> str:
    return text(x, "en")


def both(fn, *args, **kw) -> Reason:
    """A reason of ``fn(*args, **kw)``, a function that writes in the run's language: called once in each."""
    with using("zh"):
        z = fn(*args, **kw)
    with using("en"):
        e = fn(*args, **kw)
    return Reason(z, e)


def join(items, zh_sep: str = "；", en_sep: str = "; ") -> Reason:
    """Reasons (or strings) joined: ``；`` in Chinese, ``; `` in English."""
    items = list(items)
    return Reason(zh_sep.join(zh(x) for x in items), en_sep.join(en(x) for x in items))


def window(wid) -> Reason:
    """A window in a sentence: 争夺阶段 / the fight phase (an unknown id as it is written)."""
    if wid not in WINDOWS:
        s = escape(str(wid))
        return Reason(s, s)
    return Reason(WINDOWS[wid].zh, "the dying window (asking for rescue)" if wid == "dying" else "the " + WINDOW_EN[wid])


def during(wid) -> Reason:
    """When something happens, by its window: 争夺阶段 / in the fight phase, at the start of the send phase (the
    Chinese sentence puts 在 before it where it needs one)."""
    w = window(wid)
    return Reason(w.zh, ("at " if wid == "send_start" else "in ") + w.en)


def windows(wids) -> Reason:
    """Several windows, as ``during`` says one: 出牌阶段、争夺阶段 / in the main phase or the fight phase."""
    ws = [during(w) for w in wids]
    if len(ws) == 1:
        return ws[0]
    return Reason("、".join(w.zh for w in ws), ", ".join(w.en for w in ws[:-1]) + " or " + ws[-1].en)


def at_event(k: int, n: int, why) -> Reason:
    """A reason of a trace's run (``Run.errors``) with where it arose: the table at the start (``k`` = -1), event
    ``k``, or the end of the trace (``k`` = ``n``, its number of events)."""
    where = (Reason("开局的牌桌", "the table at the start") if k < 0 else
             Reason("结尾", "at the end") if k >= n else Reason(f"事件{k}", f"event {k}"))
    return Reason(f"{where.zh}：{zh(why)}", f"{where.en}: {en(why)}")


def echoed(v) -> str:
    """A value the input named that the catalogue does not know (an unknown id): as written, escaped, short."""
    return shown(v if isinstance(v, str) else str(v), 60)
