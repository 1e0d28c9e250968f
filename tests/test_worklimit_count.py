"""checks/worklimit.py: the work a z3 call counted, read through z3's C calls, is z3's own statistic; a call with
neither a work budget nor a ``seen`` hook reads no statistics at all, and the verdicts stay those of z3's check."""
from __future__ import annotations

import pytest
import z3

from skillproof.checks import worklimit as W


def _python_count(s) -> int:
    st = s.statistics()
    return int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0


def _hard(s):
    xs = [z3.Int(f"wl_x{i}") for i in range(8)]
    s.add(z3.Distinct(xs), *[z3.And(x >= 0, x < 7) for x in xs])      # 8 pigeons, 7 holes: unsat, some work
    return xs


def test_the_count_is_z3s_statistic_after_every_call():
    s = z3.Solver()
    x = z3.Int("wl_x")
    assert W.rlimit_count(s) == _python_count(s)
    s.add(x > 3, x * x < 1000)
    for extra in (x > 5, x < 30, x == 17):
        s.add(extra)
        s.check()
        got = W.rlimit_count(s)
        assert got == _python_count(s) and got > 0


def test_an_optimiser_is_counted_through_z3s_python_layer():
    o = z3.Optimize()
    x = z3.Int("wl_y")
    o.add(x > 2)
    o.minimize(x)
    assert o.check() == z3.sat
    assert W.rlimit_count(o) == _python_count(o) > 0


def test_no_budget_and_no_hook_reads_no_statistics(monkeypatch):
    s = z3.Solver()
    _hard(s)
    monkeypatch.setattr(W, "rlimit_count", lambda s: pytest.fail("statistics read"))
    assert W.check(s) == z3.unsat
    p = z3.Bool("wl_p")
    assert W.check(s, p) == z3.unsat


def test_a_budget_or_a_hook_counts_the_calls_work():
    s = z3.Solver()
    _hard(s)
    seen = []
    assert W.check(s, rlimit=0, seen=seen.append) == z3.unsat
    assert len(seen) == 1 and seen[0] > 0
    s2 = z3.Solver()
    s2.set("rlimit", 50)
    _hard(s2)
    r = W.check(s2, rlimit=50)                      # the work budget, not the clock: an unknown, not TimeSpent
    assert r == z3.unknown


def test_an_unknown_the_clock_gave_is_time_spent_without_a_budget(monkeypatch):
    s = z3.Solver()
    _hard(s)
    monkeypatch.setattr(s, "check", lambda *a: z3.unknown)
    monkeypatch.setattr(s, "reason_unknown", lambda: "timeout")
    with pytest.raises(W.TimeSpent, match="spent here"):
        W.check(s, message="spent here")
