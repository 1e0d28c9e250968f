"""One validation of option values, shared by the command line and the configuration.

``RANGES`` holds, for every numeric option, its type and bounds; the configuration's JSON Schema
(``config.KEYS``) takes its ``minimum`` / ``maximum`` from here, ``config.validate`` and the command line's
argparse types (``arg_type``) both call ``problem``, so ``--jobs 0`` and ``jobs = 0`` are refused with the
same words (the name as written where it was written: ``--jobs`` / ``'jobs'``). Numbers must be finite:
``nan``, ``inf`` and ``1e309`` (which reads as infinity) are refused, as is an empty string for a file.
"""
from __future__ import annotations

import argparse
import math

from .model.msg import Msg

#: option -> (type, lowest, lowest is excluded, highest); bounds far above any real use, and within what
#: z3 takes (its timeout and rlimit are unsigned 32-bit: milliseconds and resource units)
RANGES: dict[str, tuple[type, float, bool, float]] = {
    "timeout": (float, 0, True, 1_000_000),            # seconds per question
    "time-budget": (float, 0, True, 1_000_000_000),    # seconds for the whole run
    "rlimit": (int, 0, False, 4_000_000_000),
    "max-seats": (int, 1, False, 9),                   # [rules] seats is at most 9
    "max-turns": (int, 1, False, 4),
    "max-grants": (int, 0, False, 8),
    "jobs": (int, 1, False, 64),
    "max-undecided-increase": (int, 0, False, 1_000_000),
    "per-decision": (int, 0, False, 1_000_000),
    "undecided-baseline": (int, 0, False, 1_000_000),
    "seats": (int, 1, False, 9),
    "grants": (int, 0, False, 8),
}


def schema_of(key: str) -> dict:
    """The JSON Schema of an option's value (the configuration's)."""
    typ, lo, excl, hi = RANGES[key]
    s = {"type": "integer" if typ is int else "number", "maximum": hi}
    s["exclusiveMinimum" if excl else "minimum"] = lo
    return s


def problem(key: str, v, name: str | None = None) -> Msg | None:
    """What is wrong with ``v`` as the value of option ``key`` (``name``: how the option is written where
    ``v`` was given, default ``'key'``), or None."""
    typ, lo, excl, hi = RANGES[key]
    name = name or f"'{key}'"
    secs = key in ("timeout", "time-budget")
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (typ is int and not isinstance(v, int)):
        return Msg("{k} 必须是{zt}", "{k} must be {et}", k=name,
                   zt=("整数" if typ is int else "数") + ("（秒数）" if secs else ""),
                   et=("an integer" if typ is int else "a number") + (" of seconds" if secs else ""))
    if isinstance(v, float) and not math.isfinite(v):
        return Msg("{k} 必须是有限的数，不能是 {v}", "{k} must be a finite number, not {v}", k=name, v=v)
    if v < lo or (excl and v == lo):
        return Msg("{k} 必须{zc} {lo}", "{k} must be {ec} {lo}", k=name, lo=_num(lo),
                   zc="大于" if excl else "至少是", ec="greater than" if excl else "at least")
    if v > hi:
        return Msg("{k} 最多是 {hi}，不能是 {v}", "{k} must be at most {hi}, not {v}", k=name, hi=_num(hi), v=_num(v))
    return None


def _num(x) -> str:
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e16:
        x = int(x)
    return f"{x:,}" if isinstance(x, int) else f"{x:g}"


def arg_type(key: str, flag: str):
    """An argparse ``type=`` for option ``key`` written ``flag``: the number, or a usage error saying what is
    wrong (in the run's language, the same words as the configuration's)."""
    typ = RANGES[key][0]

    def convert(text: str):
        try:
            v = typ(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(str(problem(key, "", flag))) from None
        why = problem(key, v, flag)
        if why is not None:
            raise argparse.ArgumentTypeError(str(why))
        return v
    convert.__name__ = "int" if typ is int else "float"
    return convert


def nonempty_file(flag: str):
    """An argparse ``type=`` for a file to write: not empty, not too long, no NUL."""
    from .model.catfiles import path_problem

    def convert(text: str) -> str:
        why = path_problem(text)
        if why is not None:
            raise argparse.ArgumentTypeError(str(why))
        return text
    convert.__name__ = "file"
    return convert
