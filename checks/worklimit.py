"""Budgets in work, the wall clock only a safety net (issue 27): a z3 call is bounded by a resource limit (``rlimit``:
the same on every machine, however loaded) and by a time limit that only guards. An *unknown* the resource limit gave
is a verdict's input like any other (the same everywhere); an *unknown* the clock gave is not — it is never read as
"unsat" or "not satisfiable" (a dropped preference, another witness, a silent "no finding"): the caller stops with
``TimeSpent`` and says "inconclusive: time budget spent"."""
from __future__ import annotations

import z3
from z3 import z3core as _core

from .terms import _raw


class TimeSpent(Exception):
    """A z3 call was stopped by the wall clock (the safety net) before its work budget: no verdict on it."""


_GET_STATS, _STATS_INC, _STATS_DEC = (_raw(_core.Z3_solver_get_statistics), _raw(_core.Z3_stats_inc_ref),
                                      _raw(_core.Z3_stats_dec_ref))
_STATS_SIZE, _STATS_KEY, _STATS_IS_UINT = (_raw(_core.Z3_stats_size), _raw(_core.Z3_stats_get_key),
                                           _raw(_core.Z3_stats_is_uint))
_STATS_UINT, _STATS_DOUBLE = _raw(_core.Z3_stats_get_uint_value), _raw(_core.Z3_stats_get_double_value)
_RLIMIT_KEY = b"rlimit count"


def rlimit_count(s) -> int:
    """The resource units z3 has counted (for the solver's whole context: a call's is the difference). For a
    ``z3.Solver`` the statistics are read through z3's C calls directly (the same calls as ``s.statistics()``
    and its ``get_key_value``, without a Python wrapper and an error check per key); anything else (an
    ``Optimize``) through z3's Python layer."""
    if type(s) is not z3.Solver:
        st = s.statistics()
        return int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0
    r = s.ctx.ref()
    st = _GET_STATS(r, s.solver)
    _STATS_INC(r, st)
    try:
        for i in range(_STATS_SIZE(r, st)):
            if _STATS_KEY(r, st, i) == _RLIMIT_KEY:
                return int(_STATS_UINT(r, st, i) if _STATS_IS_UINT(r, st, i) else _STATS_DOUBLE(r, st, i))
        return 0
    finally:
        _STATS_DEC(r, st)


def by_clock(s, r, used: int, rlimit: int) -> bool:
    """Did the clock (not the work budget ``rlimit``, 0 = none, nor the logic) make ``r`` unknown?"""
    return r == z3.unknown and s.reason_unknown() in ("timeout", "canceled") and (not rlimit or used < rlimit)


def check(s, *assumptions, rlimit: int = 0, run=None, seen=None, message: str = ""):
    """``s.check(*assumptions)`` (or ``run(s, *assumptions)``); TimeSpent(message) when the clock stopped it.
    ``seen(used)``, if given, is told the work the call counted (z3 counts for its whole context: the call's is the
    difference). With no work budget (``rlimit`` 0) and no ``seen``, the work is not counted: any unknown the clock
    gave is the clock's then (``by_clock``), and reading z3's statistics twice a call was ~5 % of a lane's CPU."""
    counted = seen is not None or bool(rlimit)
    before = rlimit_count(s) if counted else 0
    r = run(s, *assumptions) if run is not None else s.check(*assumptions)
    used = rlimit_count(s) - before if counted else 0
    if seen is not None:
        seen(used)
    if by_clock(s, r, used, rlimit):
        raise TimeSpent(message) if message else TimeSpent()
    return r
