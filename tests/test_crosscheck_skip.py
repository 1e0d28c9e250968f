"""Skipping a player with no skill at all (``checks/enc/skip.py`` against ``model/interp/skip.py``), under every
``[rules] skip_fight`` / ``skip_dying`` the loader accepts.

The other cross-checks seat the player with some skill or grant slot (every character of the shipped and extra
catalogues has skills, and their symbolic states have grant slots), so the twin's answers for a list with no slot
at all — "every skill is gone" is then true, "some skill that is not a MainPhaseSkill" false — were compared by
nothing (benchmarks/mutate_interpreter.py: enc.skip #4 and #24, those two answers flipped, survived every file). A
character with ``skills = []`` is a real shape (the loader accepts it; a family fixture's 路人 is one), and the
families ask about such a player with a symbolic state of no grant slots. Here the player is one, the symbolic state
has no slot, and the skip and could-act decisions of both phases are compared on random tables (hand, faces,
moment) for each combination of the skip ingredients — the default ones and the others.
"""
from __future__ import annotations

import itertools
import random

import pytest
import z3

from skillproof.checks.enc.skip import enc_could_act_dying, enc_could_act_fight, enc_skip_dying, enc_skip_fight
from skillproof.checks.enc.state import SymState
from skillproof.checks.enc.witness import assignment
from skillproof.model import loader
from skillproof.model.interp.skip import could_act_dying, could_act_fight, skills_gone, skip_dying, skip_fight

from randstate import random_state
from test_crosscheck import SEED

CATALOGUE = """
[rules]
skip_fight = {fight}
skip_dying = {dying}

[[card]]
id = "F"
name = "争"
phases = ["fight"]
[[card]]
id = "D"
name = "救"
phases = ["dying", "main"]

[[character]]
id = "bare"
name = "白板"
hidden = true
female = false
skills = []
[[character]]
id = "bare2"
name = "路人"
hidden = false
female = true
skills = []
"""

#: every subset of the skip ingredients, as the catalogue writes it
SUBSETS = [list(c) for k in range(3) for c in itertools.combinations(("skills_gone", "can_use"), k)]
DECISIONS = {"skip_fight": (skip_fight, enc_skip_fight), "skip_dying": (skip_dying, enc_skip_dying),
             "could_fight": (could_act_fight, enc_could_act_fight),
             "could_dying": (could_act_dying, enc_could_act_dying)}
N_STATES = 24


def _load(tmp_path, fight, dying):
    p = tmp_path / f"skip-{'_'.join(fight) or 'none'}-{'_'.join(dying) or 'none'}.toml"
    p.write_text(CATALOGUE.format(fight=repr(fight).replace("'", '"'), dying=repr(dying).replace("'", '"')),
                 encoding="utf-8")
    return loader.load([str(p)])


@pytest.mark.parametrize("fight", SUBSETS, ids=lambda s: "+".join(s) or "none")
def test_a_player_with_no_skill_is_skipped_as_the_interpreter_says(tmp_path, fight):
    seen = {k: set() for k in DECISIONS}
    for dying in SUBSETS:
        cat = _load(tmp_path, fight, dying)
        assert set(cat.rules.skip_fight) == set(fight) and set(cat.rules.skip_dying) == set(dying)
        S = SymState(cat, n=3, G=0, chars_me=["bare", "bare2"])
        assert S.slots == []                        # the shape this file is for: no slot at all
        terms = {k: enc(S) for k, (_, enc) in DECISIONS.items()}
        solver = z3.Solver()
        rng = random.Random(f"{SEED}-skip-{fight}-{dying}")
        for k in range(N_STATES):
            st = random_state(rng, cat, n_max=3, g_max=0)
            assert skills_gone(cat, st, 0)          # nothing in the list: every skill is gone
            want = {key: interp(cat, st, 0) for key, (interp, _) in DECISIONS.items()}
            solver.push()
            solver.add(assignment(S, st))
            assert solver.check() == z3.sat
            m = solver.model()
            got = {key: z3.is_true(m.eval(t, model_completion=True)) for key, t in terms.items()}
            solver.pop()
            assert got == want, (f"skip_fight={fight} skip_dying={dying} state #{k}: interpreter {want}, z3 {got}\n"
                                 f"state={st.to_dict()}")
            for key, v in want.items():
                seen[key].add(v)
    # the random tables reached both answers of every decision (a compared constant tells nothing)
    assert all(v == {True, False} for v in seen.values()), seen
