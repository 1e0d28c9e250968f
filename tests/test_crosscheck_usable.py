"""May a seat use an ActiveSkill now (``checks/enc/usable.enc_skill_usable_now`` against
``model/interp/usable.skill_usable_now``) — at every seat, not only the player's, and for conditions written plainly.

The main cross-check asks it of the player (seat 0) only, and every compared catalogue writes each window condition as
an expression or leaves it at its default, so two parts of the twin were compared by nothing
(benchmarks/mutate_interpreter.py enc.usable): another seat's use — what the bans family asks of a card's owner or
target (its role's skills, unused; a rule no role of the other seats holds is never usable there; #33 #35–#41 survived) —
and ``unconditional``, which leaves out only a ``main`` condition that is plainly true (#7 #8: a plainly false one
left out too survived). Here, on random tables of the shipped catalogue and of ``fixtures/crosscheck_usable.toml``
(``main = "false"``, ``fight = "true"``, a role's skill that is not initial, a role the other seats may not be), for
every ActiveSkill and every seat: the twin's term is the interpreter's "some copy of it the seat holds may be used now".
The other seats hold their role's whole list, unused (what the twin assumes of them); the player's list is the random
one.
"""
from __future__ import annotations

import os
import random

import pytest
import z3

from skillproof.checks.enc.state import SymState
from skillproof.checks.enc.usable import enc_skill_usable_now
from skillproof.checks.enc.witness import assignment
from skillproof.model import loader
from skillproof.model.interp.usable import skill_usable_now
from skillproof.model.state import SkillInst

from randstate import hot_cards, interesting_characters, random_state
from test_crosscheck import SEED

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "crosscheck_usable.toml")
N_USABLE = int(os.environ.get("SKILLPROOF_CROSSCHECK_USABLE_STATES", 40))


def _whole_lists(cat, st):
    """The other seats hold their role's whole list, unused, wrapped where the seat is invalidated."""
    for s in st.seats[1:]:
        s.skills = [SkillInst(r, invalid=s.invalidated and cat.skills[r].initial)
                    for r in cat.characters[s.character].skills]
    return st


def _compare(cat, chars_other, label, n_states):
    S = SymState(cat, n=3, G=2, chars_other=chars_other)
    active = sorted(r.id for r in cat.skills.values() if r.has("ActiveSkill"))
    terms = {(rid, q): enc_skill_usable_now(S, rid, q) for rid in active for q in range(S.n)}
    solver = z3.Solver()
    rng = random.Random(f"{SEED}-usable-{label}")
    hot = hot_cards(cat)
    interesting = [c for c in interesting_characters(cat) if c in chars_other] or list(chars_other)
    seen = set()
    for k in range(n_states):
        st = random_state(rng, cat, n_max=S.n, g_max=S.G, chars=chars_other, unknown_keys=sorted(S.unknowns),
                          hot=hot, interesting=interesting)
        if rng.random() < 0.5:                      # a moment with a condition more often
            st.window, st.interrupted = rng.choice(["main", "fight"]), None
        st = _whole_lists(cat, st)
        want = {(rid, q): q < len(st.seats) and any(i.rule == rid and skill_usable_now(cat, st, q, i)
                                                    for i in st.seats[q].skills)
                for rid, q in terms}
        solver.push()
        solver.add(assignment(S, st))
        assert solver.check() == z3.sat
        m = solver.model()
        got = {key: z3.is_true(m.eval(t, model_completion=True)) for key, t in terms.items()}
        solver.pop()
        diff = {key: (want[key], got[key]) for key in want if want[key] != got[key]}
        assert not diff, f"{label} state #{k}: (rule, seat): (interpreter, z3) {diff}\nstate={st.to_dict()}"
        seen |= {(q > 0, v) for (_, q), v in want.items()}
    return seen


@pytest.mark.parametrize("which", ["shipped", "fixture"])
def test_every_seats_use_of_an_active_skill_is_the_interpreters(which):
    cat = loader.load() if which == "shipped" else loader.load([FIXTURE])
    chars = sorted(cat.characters)
    # in the fixture the other seats may be every role but one holding an ActiveSkill no other role holds (独客): that
    # skill is then held by no role of theirs
    lone = [c for c in chars if any(cat.skills[r].has("ActiveSkill") and cat.owners(r) == [c]
                                    for r in cat.characters[c].skills)][:1]
    assert lone or which == "shipped"
    others = [c for c in chars if c not in lone] if which == "fixture" else chars
    seen = _compare(cat, others, which, N_USABLE)
    # the player and the other seats were each found able and unable to use some skill
    assert seen == {(False, True), (False, False), (True, True), (True, False)}, seen
