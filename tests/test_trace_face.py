"""Faces in the timed model (model/interp/face.py and its twin checks/enc/face.py): a skill used turns its holder's
role — face up when its cost says so (``flips``: server skill/TouTian.kt, ``g.playerSetRoleFaceUp(r, true)``), face
down when its effect turns its own role unconditionally (a ``flip`` op on ``self``: skill/HuanRi.kt,
``g.playerSetRoleFaceUp(askWhom, false)`` after its holder's 调包 / 破译). Both twins on the same traces: the
interpreter's face after each, the encoder's legality and decisions pinned to it, and no other face at the
question for the encoder."""
from __future__ import annotations

import pytest
import z3

from skillproof.checks.enc.witness import trace_assignment
from skillproof.model import loader
from skillproof.model.interp.face import use_faces
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Event, Trace
from skillproof.model.state import Seat, SkillInst, State

from crosskit import Harness, trace_disagreement


@pytest.fixture(scope="module")
def cat():
    return loader.load()


@pytest.fixture(scope="module")
def h(cat):
    return Harness(cat)


def test_which_uses_turn_the_role(cat):
    assert use_faces(cat, "TouTian") == (True, {True}, True)           # flips = true: the cost
    assert use_faces(cat, "HuanRi") == (False, {False}, False)         # do = [{ op = "flip", face = "down" }]
    assert use_faces(cat, "JieDaoShaRen") == (True, {True, False}, True)   # up, then face down again if he likes
    assert use_faces(cat, "MuQiangWei") == (None, {None, False}, False)    # a flip down it may decline
    assert use_faces(cat, "QiangLing") == (None, {None}, False)


def _trace(cat, uses, face_up=False, ever=False, window="fight") -> Trace:
    me = Seat(character="zheng_wen_xian", face_up=face_up, ever_face_up=ever, identity="red",
              skills=[SkillInst("TouTian"), SkillInst("HuanRi")])
    other = Seat(character="wang_tian_xiang", identity="blue", skills=[SkillInst("JinBi")])
    setup = State(seats=[me, other], turn=0)
    events = [Event("turn", seat=0), Event("window", window=window, in_front=0 if window == "fight" else None)]
    return Trace(setup, events + [Event("use", seat=0, rule=r) for r in uses])


@pytest.mark.parametrize("uses, face, ever", [
    ([], False, False),
    (["TouTian"], True, True),                          # 偷天 turns him face up
    (["HuanRi"], False, False),
    (["TouTian", "HuanRi"], False, True),               # … and 换日 face down again: 偷天 can be used again
    (["HuanRi", "TouTian"], True, True),
])
def test_both_twins_turn_the_role_alike(cat, h, uses, face, ever):
    tr = _trace(cat, uses)
    r = run(cat, tr)
    assert r.legal, r.errors
    me = r.state.seats[0]
    assert (me.face_up, me.ever_face_up) == (face, ever)
    eqs = trace_assignment(h.S, tr, r)
    assert trace_disagreement(h, r, eqs, "Jie_Huo", "Jie_Huo", "left", 0) == {}
    assert h.interp_decisions(r.state, "Jie_Huo", "Jie_Huo", "left", 0)["usable_now:TouTian"] is (not face)
    # the encoder allows no other face at the question for the same uses (the pinned face swapped: unsat) — but
    # where they turn it both ways: the symbolic trace holds the uses as flags, in the order its witness picks
    S = h.S
    swapped = [e for e in eqs if not (e.eq(S.face_up[0] == face))] + [S.face_up[0] == (not face)]
    s = z3.Solver()
    s.add(swapped + [h.reach])
    both = len({use_faces(cat, x)[0] for x in uses} - {None}) == 2
    assert s.check() == (z3.sat if both else z3.unsat)


def test_a_face_down_role_used_twice_in_one_fight_phase(cat, h):
    """The symbolic search finds 偷天 used and usable again: 换日 turned him face down after the use."""
    S = h.S
    s = z3.Solver()
    s.add(h.reach)
    used = [z3.And(sl.present, sl.used, S.rule_is(sl, "TouTian")) for sl in S.slots if "TouTian" in sl.candidates]
    s.add(z3.Or(used), h.terms["usable_now:TouTian"])
    assert s.check() == z3.sat
    from skillproof.checks.enc.witness import witness
    st = witness(S, s.model())
    r = run(cat, st.trace)
    assert r.legal, r.errors
    rules = [e.rule for e in st.trace.events if e.kind == "use"]
    assert "TouTian" in rules and any(use_faces(cat, x)[0] is False for x in rules)
    assert rules.index("TouTian") < max(i for i, x in enumerate(rules) if use_faces(cat, x)[0] is False)
    assert not r.state.seats[0].face_up and r.state.seats[0].ever_face_up


@pytest.mark.parametrize("chosen, face, legal", [
    (None, True, True),                   # every choice declined: face up (the cost)
    (False, False, True),                 # the black branch, turned face down again (JieDaoShaRen.kt)
    (True, True, True),
])
def test_a_use_that_may_turn_the_role_down_again(cat, h, chosen, face, legal):
    me = Seat(character="shang_yu", face_up=False, ever_face_up=False, identity="red",
              skills=[SkillInst("JieDaoShaRen")])
    other = Seat(character="wang_tian_xiang", identity="blue", skills=[SkillInst("JinBi")])
    tr = Trace(State(seats=[me, other], turn=0), [Event("turn", seat=0), Event("window", window="fight", in_front=0),
                                                  Event("use", seat=0, rule="JieDaoShaRen", face_up=chosen)])
    r = run(cat, tr)
    assert r.legal is legal, r.errors
    assert (r.state.seats[0].face_up, r.state.seats[0].ever_face_up) == (face, True)
    eqs = trace_assignment(h.S, tr, r)
    assert trace_disagreement(h, r, eqs, "Jie_Huo", "Jie_Huo", "left", 0) == {}


def test_a_use_cannot_leave_a_face_its_rule_never_does(cat):
    tr = _trace(cat, [])
    tr.events.append(Event("use", seat=0, rule="HuanRi", face_up=True))
    r = run(cat, tr)
    assert [x.en for _, x in r.errors] == ["using 换日 does not leave the role face up"]
    assert not r.state.seats[0].face_up and not any(i.used for i in r.state.seats[0].skills)   # the use failed
