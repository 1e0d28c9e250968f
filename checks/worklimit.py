"""Budgets in work, the wall clock only a safety net (issue 27): a z3 call is bounded by a resource limit (``rlimit``:
the same on every machine, however loaded) and by a time limit that only guards. An *unknown* the resource limit gave
is a verdict's input like any other (the same everywhere); an *unknown* the clock gave is not — it is never read as
"unsat" or "not satisfiable" (a dropped preference, another witness, a silent "no finding"): the caller stops with
``TimeSpent`` and says "inconclusive: time budget spent"."""
from __future__ import annotations

import z3


class TimeSpent(Exception):
    """A z3 call was stopped by the wall clock (the safety net) before its work budget: no verdict on it."""


def rlimit_count(s) -> int:
    """The resource units z3 has counted (for the solver's whole context: a call's is the difference)."""
    st = s.statistics()
    return int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0


def by_clock(s, r, used: int, rlimit: int) -> bool:
    """Did the clock (not the work budget ``rlimit``, 0 = none, nor the logic) make ``r`` unknown?"""
    return r == z3.unknown and s.reason_unknown() in ("timeout", "canceled") and (not rlimit or used < rlimit)


def check(s, *assumptions, rlimit: int = 0, run=None, seen=None, message: str = ""):
    """``s.check(*assumptions)`` (or ``run(s, *assumptions)``); TimeSpent(message) when the clock stopped it.
    ``seen(used)``, if given, is told the work the call counted (z3 counts for its whole context: the call's is the
    difference)."""
    before = rlimit_count(s)
    r = run(s, *assumptions) if run is not None else s.check(*assumptions)
    used = rlimit_count(s) - before
    if seen is not None:
        seen(used)
    if by_clock(s, r, used, rlimit):
        raise TimeSpent(message) if message else TimeSpent()
    return r
