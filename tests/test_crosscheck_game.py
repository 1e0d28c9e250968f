"""The law for whole games: the z3 twin of the game interpreter (checks/enc/game.py) accepts exactly the game traces
the interpreter (model/interp/game.py) accepts.

SKILLPROOF_CROSSCHECK_GAMES random game traces (default 10,000; seed SKILLPROOF_CROSSCHECK_GAME_SEED) are played by
tests/randgame.py — half on the shipped catalogue, half on random catalogues that say what their rules and cards do
(tests/randcat.py ``effects=True``, 20 traces each) — most of them with one value changed to another of its domain (mutants:
mostly illegal), and each is compared on the pinned fast path (every hole of its template pinned: ground, decided
while it is encoded). Two tests, so that pytest-xdist runs them side by side with the rest of the suite. Smaller
samples go through the solver: holes as variables pinned by equations (sat exactly when legal), and templates with
holes left open whose model's ``fill`` the interpreter accepts. Every disagreement found is kept below as a trace
in tests/fixtures/games/, run through both twins.
"""
from __future__ import annotations

import glob
import json
import os

import pytest
import z3

from skillproof.checks.enc.game import GameEncoding
from skillproof.model import loader
from skillproof.model.interp.hole import Hole
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Trace

import gamekit as GK
from randcat import load_random

N_GAMES = int(os.environ.get("SKILLPROOF_CROSSCHECK_GAMES", "10000"))
SEED = int(os.environ.get("SKILLPROOF_CROSSCHECK_GAME_SEED", "20261202"))
N_SHIPPED = (N_GAMES + 1) // 2
N_RANDOM = N_GAMES - N_SHIPPED
#: random catalogues of the random-catalogue share, and traces on each
N_CATALOGUES = max(1, N_RANDOM // 20)
N_SOLVER = int(os.environ.get("SKILLPROOF_CROSSCHECK_GAME_SOLVER", "40"))
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "games")


def _fail(t: GK.Tally, label: str) -> None:
    if t.disagreements:
        pytest.fail(f"{t.summary(label)}\n\n" + "\n\n".join(t.disagreements[:3]))


def test_shipped_catalogue_games_match():
    t = GK.run_pinned(loader.load(), N_SHIPPED, SEED, "shipped")
    _fail(t, "shipped")
    print(t.summary("shipped"))
    assert t.compared == N_SHIPPED
    # both sides of legality, in earnest
    assert 0.2 * t.compared < t.legal < 0.8 * t.compared, t.summary("shipped")
    if N_SHIPPED >= 1000:
        for kind in ("send", "play", "resolve", "fire", "use", "give", "die", "draw"):
            assert t.kinds.get(kind, 0) > 0, (kind, t.kinds)


def test_random_catalogue_games_match():
    total = GK.Tally()
    per = max(1, N_RANDOM // N_CATALOGUES)
    for i in range(N_CATALOGUES):
        seed = SEED * 1000 + i
        text, cat = load_random(seed, effects=True, must_fire=True)
        n = per if i < N_CATALOGUES - 1 else N_RANDOM - per * (N_CATALOGUES - 1)
        t = GK.run_pinned(cat, n, seed, f"random catalogue {seed}")
        if t.disagreements:
            pytest.fail(f"{t.summary('random')}\nthe catalogue (randcat.random_catalogue({seed}, effects=True, must_fire=True)):\n"
                        f"{text}\n\n" + "\n\n".join(t.disagreements[:2]))
        total.add(t)
    print(total.summary("random catalogues"))
    assert total.compared == N_RANDOM
    if N_RANDOM >= 200:
        assert 0.1 * total.compared < total.legal < 0.9 * total.compared, total.summary("random")


def test_solver_agrees_with_holes_as_variables():
    """The template's holes as solver variables, pinned by equations: sat exactly when the interpreter accepts."""
    t = GK.run_symbolic(loader.load(), N_SOLVER, SEED + 1, "shipped, symbolic")
    _fail(t, "symbolic")
    text, cat = load_random(SEED * 1000 + 999, effects=True)
    t2 = GK.run_symbolic(cat, N_SOLVER // 2, SEED + 2, "random catalogue, symbolic")
    _fail(t2, "symbolic, random catalogue")
    assert t.compared == N_SOLVER
    if N_SOLVER >= 10:          # both sides of legality (a handful, as the mutation benchmark's --games 300 runs, may not)
        assert 0 < t.legal < t.compared, t.summary("symbolic")


def test_templates_fill_into_accepted_traces():
    """Holes left open (and every decision of some effects): the solver finds a filling and the interpreter accepts
    it."""
    t = GK.run_fill(loader.load(), N_SOLVER, SEED + 3, "shipped, fill")
    _fail(t, "fill")
    assert t.compared == N_SOLVER and t.legal == t.compared
    text, cat = load_random(SEED * 1000 + 998, effects=True)
    t2 = GK.run_fill(cat, N_SOLVER // 2, SEED + 4, "random catalogue, fill")
    _fail(t2, "fill, random catalogue")


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(FIXTURES, "*.json"))), ids=os.path.basename)
def test_regression_traces(path):
    """Traces on which the twins once disagreed (or one of them crashed): both give the expected verdict now."""
    d = json.load(open(path, encoding="utf-8"))
    expect = d.pop("expect")
    if expect.get("catalogue_text"):
        cat = loader.load(texts={"fixture.toml": expect["catalogue_text"]})
    elif expect.get("catalogue_seed"):
        cat = load_random(expect["catalogue_seed"], effects=True)[1]
    else:
        cat = loader.load()
    tr = Trace.from_dict(d)
    r = run(cat, tr)
    assert r.legal == expect["legal"], (expect, r.errors)
    g = GK.pinned_verdict(cat, tr)
    assert g.verdict() == expect["legal"], [lab.label for lab in g.legal]


def test_skeleton_realised_through_holes():
    """A caller's skeleton: the events fixed, the send's card and first stop, a play's target and the table's hands
    left open — the solver fills them, and the game it gives is one the interpreter accepts; pinning the final state
    (the receiver has a red message) is a question about the game."""
    cat = loader.load()
    from skillproof.model.state import Seat, SkillInst, State
    from skillproof.model.interp.trace import Event
    from skillproof.model.interp.table import CLASSES
    chars = [c for c, ch in cat.characters.items() if not ch.hidden][:3]
    seats = []
    for i, c in enumerate(chars):
        s = Seat(character=c, identity=("red", "blue", "black")[i], task=(None, None, "killer")[i], face_up=True,
                 ever_face_up=True, hand_count=Hole(f"hand{i}", "int", tuple(range(4))))
        s.skills = [SkillInst(r) for r in cat.characters[c].skills]
        s.area = {}
        seats.append(s)
    events = [Event("turn", seat=0), Event("draw"), Event("window", window="main"),
              Event("window", window="send_start"),
              Event("send", seat=0, colours=Hole("card", "class", CLASSES), arrow=Hole("arrow", "dir", ("up", "left", "right")),
                    lockable=False, dir=Hole("dir", "dir", ("up", "left", "right")), to=Hole("to", "seat", (1, 2)),
                    locks=[]),
              Event("window", window="fight", in_front=1),
              Event("window", window="receive", in_front=1)]
    g = GameEncoding(cat, Trace(State(seats=seats), events, True))
    s = z3.Solver()
    s.add(g.legal_expr())
    receiver = g.final.seats[1]
    from skillproof.checks.enc.val import z
    s.add(z(receiver.count("red_messages")) >= 1)
    assert s.check() == z3.sat
    filled = g.fill(s.model())
    r = run(cat, filled)
    assert r.legal, r.errors
    assert r.state.seats[1].red_messages >= 1
    # and the holes that cannot be: seat 0 never receives what it sends itself
    s2 = z3.Solver()
    s2.add(g.legal_expr())
    s2.add(g.vars["to"] == 0)
    assert s2.check() == z3.unsat
