"""Bugs the random-catalogue cross-check found, each kept fixed."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillproof.checks.enc.state import SymState
from skillproof.model import loader

from crosskit import Harness
from randcat import load_random


SAVED = Path(__file__).parent / "fixtures" / "randcat-regression-traces.json"


def run_saved(case: str):
    """Compare interpreter and encoder on the trace that showed the bug, as the random generator drew it then
    (written out in fixtures/, so that a later change to the generator does not lose the case), asked with
    every pair of cards, both directions and every lock count — whatever the run that found it drew."""
    import itertools

    from crosskit import prepare_trace, trace_disagreement
    from skillproof.model.interp import trace as TR
    from skillproof.model.interp.play import run as play_run
    from skillproof.model import vocab as V
    saved = json.loads(SAVED.read_text(encoding="utf-8"))[case]
    _, cat = load_random(saved["catalogue_seed"])
    h = Harness(cat)
    prepared = prepare_trace(h, TR.Trace.from_dict(saved["trace"]))
    assert prepared is not None                         # the saved trace is compared, not skipped
    for x, y, d, lc in itertools.product(cat.cards, cat.cards, V.DIRECTIONS, range(3)):
        diff = trace_disagreement(h, *prepared, x, y, d, lc)
        if diff:
            return f"{case}: interpreter vs z3 differ on {diff} (actual={x} declared={y} dir={d} locks={lc})"
    return None


BASE = """
[[card]]
id = "K0"
name = "甲"
windows = { main = "turn" }
[[character]]
id = "c0"
name = "零"
hidden = false
female = false
skills = ["S0"]
[[skill]]
id = "S0"
name = "技"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "G0"
to = "self"
[[skill.gives]]
grant = "G1"
to = "self"
[[grant]]
id = "G0"
name = "授零"
kinds = ["ConvertCardSkill"]
lifetime = "turn"
params = { X = "card" }
convert = { from = "X", to = ["K0"], must = false }
"""


def test_a_parameter_name_has_one_type_in_a_catalogue():
    g1 = '[[grant]]\nid = "G1"\nname = "授一"\nkinds = ["CannotPlayCard"]\nlifetime = "turn"\n' \
         'params = { X = "bool" }\nban = { all = "X" }\n'
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load(texts={"c.toml": BASE + g1})
    msg = str(e.value)
    assert "c.toml:" in msg and "parameter 'X' is a bool here but a card in G0" in msg
    ok = g1.replace('X = "bool"', 'Y = "bool"').replace('all = "X"', 'all = "Y"')
    loader.load(texts={"c.toml": BASE + ok})


def test_the_symbolic_table_has_at_least_min_seats():
    cat = loader.load(texts={"c.toml": "[rules]\nseats = 5\nmin_seats = 4\n" + BASE.split("[[skill.gives]]")[0]
                             .replace('kinds = ["TriggeredSkill"]', 'kinds = ["TriggeredSkill"]\n')})
    assert SymState(cat, n=3).n == 4 and SymState(cat, n=9).n == 5


def test_another_seats_initial_one_turn_skill_is_gone_after_the_turn_end():
    """randcat seed 20261207036: a character's initial OneTurnSkill (KD001) gives after the turn end in
    the encoder's trace, but the interpreter dropped it (seat 1 does not hold a live 技S6)."""
    bad = run_saved("another_seats_one_turn")
    assert bad is None, bad


def test_a_use_of_the_players_dropped_one_turn_skill_is_not_an_event_of_the_symbolic_trace():
    """randcat seed 20261207059, trace #6: seat 0's initial S4 is also a OneTurnSkill (KD001); the turn end
    drops it and a later 'use' of it fails in the interpreter ("seat 0 holds no unused S4"). The encoder
    drops it too (S4 held in the next turn is unsat against the trace) — the symbolic trace simply has no
    'use' events, only the used flag of each skill held at the question, so a failed use is not compared."""
    import z3

    from skillproof.checks.enc.witness import trace_assignment
    from skillproof.model.interp import trace as TR
    from skillproof.model.interp.play import run as play_run
    from skillproof.model.state import SkillInst

    import crosskit

    from skillproof.model.state import Seat, State

    seed = 20261207059
    _, cat = load_random(seed)
    h = Harness(cat)
    # the trace the random generator drew for this catalogue (written out, so that a change to the
    # generator does not lose the case)
    def seat(ch, identity, rules, **kw):
        return Seat(ch, face_up=True, ever_face_up=True, identity=identity,
                    skills=[SkillInst(r) for r in rules], **kw)
    setup = State([seat("c3", "blue", ["S7", "S8", "S4", "S1"], red_messages=3, blue_messages=3,
                        black_messages=1, true_messages=6, non_black_messages=6),
                   seat("c0", "red", ["S3", "S4", "S2", "S1"], hand_count=3, blue_messages=1,
                        black_messages=1, true_messages=1, non_black_messages=1)],
                  turn=0, unknowns={"S3.gives0.when#0": True})
    E = TR.Event
    tr = TR.Trace(setup, [
        E("turn", seat=1), E("window", window="main"), E("window", window="send_start"),
        E("window", window="send", in_front=0, sender=0), E("give", seat=0, giver=1, site="S3#0"),
        E("window", window="fight", in_front=0, sender=0), E("window", window="receive", in_front=1, sender=0),
        E("give", seat=0, giver=1, site="S3#0"), E("window", window="turn_end"),
        E("turn", seat=0), E("window", window="main"), E("use", seat=0, rule="S4")])
    run = play_run(cat, tr)
    assert run.errors == [(11, f"use: seat 0 holds no unused {cat.name_of('S4')}")]
    assert crosskit.unmodelled_events(h.S, tr, run) == {11}
    # without the failed use: legal on both sides, and every decision agrees
    tr.events = [e for e in tr.events if e.kind != "use"]
    run = play_run(cat, tr)
    assert run.legal and "S4" not in [i.rule for i in run.state.seats[0].skills]
    eqs = trace_assignment(h.S, tr, run)
    for x in cat.cards:
        a = h.interp_decisions(run.state, x, "K0", "left", 1)
        a["legal"] = True
        assert h.z3_decisions(run.state, x, "K0", "left", 1, eqs=eqs, legal=True) == a
    # and the encoder does not keep S4: held in the trace's second turn, the trace is unreachable
    st = run.state.copy()
    st.seats[0].skills.insert(2, SkillInst("S4"))
    s = z3.Solver()
    s.add(*trace_assignment(h.S, tr, TR.Run(st, [], run.turns, run.moments)), h.reach)
    assert s.check() == z3.unsat


def test_a_grant_marked_initial_after_the_invalidation_keeps_the_skills_of_the_seat():
    """randcat seed 20261207096, trace #12: seat 0 is invalidated, then handed G3 (a grant marked initial).
    InvalidSkill.deal (server skill/Skill.kt) wraps only what is in the list then, so G3 stays an unwrapped
    initial skill and the server's skills-gone test (!skills.any{isInitialSkill || ActiveSkill}) is false:
    a hidden, never face-up player is asked in 争夺阶段 / 濒死求澄清. The encoder read every initial-marked
    slot as wrapped by the invalidation (skip_fight / skip_dying true)."""
    bad = run_saved("initial_after_invalidation")
    assert bad is None, bad


def test_a_sites_where_is_read_at_the_moment_of_handing_out():
    """randcat seed 20261208018, trace #21: S2 hands out G1 at 传递阶段开始时 where "any(p: p.in_front)"
    — no message is in front of anyone yet, so the interpreter (interp.trace.give_errors → args_errors, on the
    state at that event) refuses the grant. The encoder read the site's 'where' at the question's moment
    (a message in front of seat 2) and called the trace legal; it now reads it at the give's moment, as it
    already read the site's 'when'."""
    bad = run_saved("where_at_hand_out")
    assert bad is None, bad


def test_the_players_initial_one_turn_skill_gives_before_the_turn_end_that_drops_it():
    """randcat seed 20261209141, trace #34: seat 0's initial S2 is a MustReceiveMessage (a OneTurnSkill,
    KD001); it hands out G0 in the first turn and is dropped at that turn's end. The encoder's giver test
    for the player read "the initial slot is present at the question" and called the legal trace
    unreachable; it now reads "held then, and survived the turn ends before that moment" (the seat-0 twin
    of _one_turn_kept)."""
    bad = run_saved("own_one_turn_gives_before_drop")
    assert bad is None, bad


def test_a_grant_the_player_holds_hands_out_grants():
    """randcat seed 20261209000, trace #18: 牌K0 gives seat 0 the grant G0, whose own [[grant.gives]] then
    hands out G0 again at 传递阶段开始时. The interpreter (interp.trace.give_errors: the giver "holds a live G0")
    accepts it, as the server would any skill object in the list; the encoder only knew role skills as
    givers and called the legal trace unreachable. It now reads a grant giver from the player's earlier grant
    slots (other seats' grants are outside the symbolic state)."""
    bad = run_saved("held_grant_gives")
    assert bad is None, bad


ONE_TURN_NOT_INITIAL = """
[[card]]
id = "K0"
name = "甲"
windows = { main = "turn", send = "anyone" }
[[character]]
id = "c0"
name = "零"
hidden = false
female = false
skills = ["S0"]
[[character]]
id = "c1"
name = "一"
hidden = false
female = true
skills = ["S0", "S1"]
[[skill]]
id = "S0"
name = "一回"
kinds = ["ActiveSkill", "OneTurnSkill"]
initial = false
windows = { send = "anyone", main = "turn" }
[[skill.gives]]
grant = "G0"
to = "target"
[[skill]]
id = "S1"
name = "平"
kinds = ["ChangeDrawCardCountSkill"]
draw = "count + 1"
[[grant]]
id = "G0"
name = "减"
kinds = ["ChangeDrawCardCountSkill"]
lifetime = "permanent"
draw = "count - 1"
"""


@pytest.mark.parametrize("case", ["another seat gives after the drop", "the player gives before the drop",
                                  "the player gives after the drop"])
def test_a_one_turn_role_skill_not_marked_initial_is_dropped_at_the_turn_end(case):
    """randcat seed 30, an ActiveSkill's give (tests/randactive.py): a character's skill that is a OneTurnSkill
    but ``initial = false`` is dropped at the first turn end (interpreter.turn_end drops every OneTurnSkill of
    the list). The encoder kept such a skill for every moment of the trace (enc_trace._one_turn_kept and the
    player's branch of _owns knew only initial one-turn skills, KD001): another seat giving from it after the
    turn end was legal there, and the player giving from it before the end that drops it was unreachable."""
    from crosskit import prepare_trace, trace_disagreement
    from skillproof.model.interp import trace as TR
    from skillproof.model.state import Seat, SkillInst, State

    cat = loader.load(texts={"c.toml": ONE_TURN_NOT_INITIAL})
    h = Harness(cat)
    E = TR.Event
    events, legal = {
        "another seat gives after the drop": ([E("turn", seat=1), E("window", window="turn_end"), E("turn", seat=0),
                                              E("window", window="send", in_front=0, sender=0),
                                              E("give", seat=0, giver=1, site="S0#0")], False),
        "the player gives before the drop": ([E("turn", seat=0), E("window", window="main"),
                                             E("give", seat=0, giver=0, site="S0#0"), E("window", window="turn_end"),
                                             E("turn", seat=1), E("window", window="main")], True),
        "the player gives after the drop": ([E("turn", seat=1), E("window", window="turn_end"), E("turn", seat=0),
                                            E("window", window="main"), E("give", seat=0, giver=0, site="S0#0")],
                                           False),
    }[case]
    seats = [Seat(c, face_up=True, ever_face_up=True, identity="red",
                  skills=[SkillInst(r) for r in cat.characters[c].skills]) for c in ("c1", "c0")]
    prepared = prepare_trace(h, TR.Trace(State(seats, turn=0), events))
    assert prepared is not None
    run, eqs = prepared
    assert run.legal is legal
    for x in cat.cards:
        diff = trace_disagreement(h, run, eqs, x, x, "left", 0)
        assert not diff, diff
