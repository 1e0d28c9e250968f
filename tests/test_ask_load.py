"""A table question's answer does not depend on the machine's load (issue 27): the search is bounded in work (a
number of templates, a z3 resource limit per call), and the wall clock (--timeout) is only the outer safety net —
running into it answers "inconclusive: time budget spent" (exit 3), never another yes / no or another game.

The machine's load is played by a fake clock: ``time.perf_counter`` made to run fast (a busy machine) or slow."""
from __future__ import annotations

import itertools
import time

import pytest

from skillproof.checks import ask as Q
from skillproof.checks.ask import table as TB
from skillproof.model import loader

QUESTION = "搅局者能获胜吗"          # yes, found in the 7th game template tried (about 1 s)


@pytest.fixture(scope="module")
def cat():
    return loader.load(None)


@pytest.fixture(scope="module")
def idle(cat):
    return Q.Session(cat).ask(QUESTION)


def _clock(step: float):
    """A clock that moves ``step`` seconds each time it is read, from the real one's start."""
    start = time.perf_counter()
    ticks = itertools.count()
    return lambda: start + step * next(ticks)


def test_a_slow_clock_gives_the_same_answer_and_game(cat, idle, monkeypatch):
    """Each reading of the clock half a second later (a loaded machine, within a generous --timeout): the same answer
    after the same templates, and the same game, as on an idle machine — asked second in the process (each table
    question has a fresh z3 context: z3 orders its search by what its context has made before)."""
    assert idle.answer == "yes" and idle.bounds["templates"] > 2
    monkeypatch.setattr(time, "perf_counter", _clock(0.5))
    res = Q.Session(cat, timeout_ms=10_000_000).ask(QUESTION)
    assert (res.answer, res.bounds["templates"]) == (idle.answer, idle.bounds["templates"])
    assert res.witness == idle.witness


def test_a_busy_machine_answers_time_spent_never_a_partial_search(cat, idle, monkeypatch):
    """Each reading of the clock a second later, --timeout 2 s: the safety net stops the search before the
    template that has the game. The answer is "inconclusive: time budget spent" — not "no game within the bound" of
    the templates it had time for."""
    monkeypatch.setattr(time, "perf_counter", _clock(1.0))
    res = Q.Session(cat, timeout_ms=2000).ask(QUESTION)
    assert res.answer == "unknown"
    assert res.reason.startswith("inconclusive: time budget spent")
    assert res.bounds.get("out_of_time") is True and "templates" not in res.bounds


def test_who_wins_on_a_busy_machine_claims_no_list(cat, monkeypatch):
    """谁会赢 shares the time out among the identities: one stopped by the clock makes the whole answer time spent,
    not a list that lacks it."""
    monkeypatch.setattr(time, "perf_counter", _clock(1.0))
    res = Q.Session(cat, timeout_ms=2000).ask("谁会赢？")
    assert res.answer == "unknown" and res.values == []
    assert res.reason.startswith("inconclusive: time budget spent")


def test_the_work_limit_is_not_the_time_limit(cat, monkeypatch):
    """A solver call that spends its resource limit (deterministic) is an unknown template the search goes past —
    the same on every machine — not the safety net."""
    monkeypatch.setattr(TB, "CALL_RLIMIT", 1)
    res = Q.Session(cat).ask(QUESTION)
    assert res.bounds.get("out_of_time") is False
    assert res.answer == "unknown" and "time budget" not in res.reason


# ------------------------------------------------------------------ diff: are two conditions the same?
def _pair():
    from skillproof.model import expr as E
    return E.parse("self.alive and turn_player.alive"), E.parse("turn_player.alive and self.alive")


def test_two_conditions_compared_in_work_not_time(monkeypatch):
    """diff's comparison of two conditions: its budget is a resource limit (spent: "not shown the same", on every
    machine); the wall clock stopping it raises TimeSpent (the command inconclusive), never a "changed"."""
    from skillproof.checks import diff_meaning as D
    a, b = _pair()
    assert D.same_condition(a, b)
    monkeypatch.setattr(D, "RLIMIT", 1)
    assert not D.same_condition(a, b)                # the work budget: deterministic

    class Slow(D.z3.Solver):                         # a machine so busy the clock stops every call
        def check(self, *a):
            return D.z3.unknown

        def reason_unknown(self):
            return "timeout"
    monkeypatch.setattr(D, "RLIMIT", 10**9)
    monkeypatch.setattr(D.z3, "Solver", Slow)
    with pytest.raises(D.TimeSpent):
        D.same_condition(a, b)


# ------------------------------------------------------------------ the timed model and check's queries
def test_a_witness_is_never_made_less_plain_by_the_clock(monkeypatch):
    """Making a witness plain keeps each preference the solver allows; a preference the *clock* stopped is not read
    as refused (another, less plain game on a busy machine): the answer is "inconclusive: time budget spent"."""
    from skillproof.checks import worklimit as W
    from test_ask_time import TIMED
    cat = loader.load(texts={"timed.toml": TIMED})
    assert Q.Session(cat).ask("can 李 play 甲 as 乙").answer == "yes"
    monkeypatch.setattr(W, "by_clock", lambda s, r, used, rlimit: True)     # every call stopped by the clock
    res = Q.Session(cat).ask("can 李 play 甲 as 乙")
    assert res.answer == "unknown" and res.witness is None
    assert res.reason.startswith("inconclusive: time budget spent")


def test_checks_minimisation_never_reads_the_clock_as_unsat(monkeypatch):
    """check's queries (checks/solve.py): the minimisation stopped by the clock gives unknown (an INC001), not a model
    with more seats or grants than an idle machine's."""
    from skillproof.checks import worklimit as W
    from skillproof.checks.solve import Query
    from test_ask_time import TIMED
    cat = loader.load(texts={"timed.toml": TIMED})
    q = Query(cat, n=3, G=1)
    assert q.find(TB.z3.BoolVal(True)).status == "sat"
    monkeypatch.setattr(W, "by_clock", lambda s, r, used, rlimit: True)
    a = Query(cat, n=3, G=1).find(TB.z3.BoolVal(True))
    assert a.status == "unknown" and "time budget spent" in a.reason
