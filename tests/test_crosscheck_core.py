"""The twin's slot lookups (``checks/enc/core.py``: ``holds``, ``slot_is``, ``card_var``), compared with the interpreter.

The families ask with them — which slots may hold a rule (``holds``: the conflict pairs, the override and order checks),
whether the conversion that fires or the send skill in force is a given rule (``slot_is``: unreachable and kinds), a card
variable's range (``card_var``) — but no decision of the cross-check was built of them, so a mistake in them changed
nothing it compared (benchmarks/mutate_interpreter.py: 15 of enc.core's 42 mutants survived every file). Here, on random
states of the shipped catalogue and of ``fixtures/crosscheck_extra`` (a stream of their own):

- ``holds(S, rid)`` — some slot holds the rule, wrapped or not — is "the player's list has it", and
  ``holds(S, rid, kind)`` is "… and that copy has the kind now" (``interp.core.live_kinds``), for every rule of the
  catalogue (those no slot can hold included);
- ``slot_is(S, via, rid)`` for the conversion that fires (``enc_conversion``'s ``via``) is "the interpreter's
  ``conversion(...).via`` is a copy of ``rid``", and for the send skill in force of each group (``enc_send_in_force``)
  "``send_in_force`` names a copy of ``rid``" — every conversion or send rule, and a rule no slot holds;
- ``card_var``'s bound admits exactly the card codes (the interpreter's card types), none one past either end.
"""
from __future__ import annotations

import os
import random

import pytest
import z3

from skillproof.checks.enc.conversion import enc_conversion
from skillproof.checks.enc.core import card_var, holds, slot_is
from skillproof.checks.enc.send import enc_send_in_force
from skillproof.checks.enc.state import SymState
from skillproof.checks.enc.witness import assignment
from skillproof.model import loader
from skillproof.model.interp.conversion import conversion
from skillproof.model.interp.core import live_kinds
from skillproof.model.interp.send import send_in_force
from skillproof.model.kinds import SEND_GROUPS

from crosskit import focused_cards
from randstate import hot_cards, interesting_characters, random_state
from test_crosscheck import N_STATES, SEED

EXTRA = os.path.join(os.path.dirname(__file__), "fixtures", "crosscheck_extra")
N_CORE = int(os.environ.get("SKILLPROOF_CROSSCHECK_CORE_STATES", max(20, N_STATES // 200)))


def _kind(r):
    """A kind the rule has (its own, not a parent's when it has one): what ``holds(S, rid, kind)`` is asked with."""
    return sorted(r.kinds)[0] if getattr(r, "kinds", None) else sorted(r.closure)[0]


class CoreHarness:
    def __init__(self, cat, n=3, G=2):
        self.cat = cat
        self.S = S = SymState(cat, n=n, G=G)
        self.X, self.Y = z3.Int("c_actual"), z3.Int("c_declared")
        held = {rid for sl in S.slots for rid in sl.candidates}
        # every rule the slots may hold, and the catalogue's others (no slot holds them: every lookup is false)
        self.rules = sorted(cat.skills)
        self.terms = {}
        for rid in self.rules:
            r = cat.skills[rid]
            self.terms[f"holds:{rid}"] = z3.Or([t for _, t in holds(S, rid)] or [z3.BoolVal(False)])
            self.terms[f"holds_kind:{rid}"] = z3.Or([t for _, t in holds(S, rid, _kind(r))] or [z3.BoolVal(False)])
        _, via = enc_conversion(S, self.X, self.Y)
        self.convs = sorted(r for r in cat.skills if "ConvertCardSkill" in cat.skills[r].closure)
        not_held = [r for r in self.rules if r not in held][:3]
        for rid in self.convs + not_held:
            self.terms[f"via_is:{rid}"] = slot_is(S, via, rid)
        self.senders = {g: sorted(r for r in cat.skills if g in cat.skills[r].closure) + not_held for g in SEND_GROUPS}
        for g, rids in self.senders.items():
            force = enc_send_in_force(S, g)
            for rid in rids:
                self.terms[f"force_is:{g}:{rid}"] = slot_is(S, force, rid)
        self.unknown_keys = sorted(S.unknowns)
        self.solver = z3.Solver()

    def interp(self, st, x, y) -> dict:
        cat, mine = self.cat, st.seats[0].skills
        out = {}
        for rid in self.rules:
            r = cat.skills[rid]
            out[f"holds:{rid}"] = any(i.rule == rid for i in mine)
            out[f"holds_kind:{rid}"] = any(i.rule == rid and _kind(r) in live_kinds(cat, i) for i in mine)
        via = conversion(cat, st, 0, x, y).via
        for rid in self.convs + [k.split(":", 1)[1] for k in self.terms if k.startswith("via_is:")
                                 and k.split(":", 1)[1] not in self.convs]:
            out[f"via_is:{rid}"] = via is not None and mine[via].rule == rid
        for g, rids in self.senders.items():
            force = send_in_force(cat, st, 0, g)
            for rid in rids:
                out[f"force_is:{g}:{rid}"] = force is not None and mine[force].rule == rid
        return out

    def z3(self, st, x, y) -> dict:
        S, C, s = self.S, self.S.codes, self.solver
        s.push()
        s.add(assignment(S, st))
        s.add(self.X == C.card[x], self.Y == C.card[y])
        assert s.check() == z3.sat
        m = s.model()
        out = {k: z3.is_true(m.eval(t, model_completion=True)) for k, t in self.terms.items()}
        s.pop()
        return out


@pytest.mark.parametrize("which", ["shipped", "extra"])
def test_slot_lookups_are_the_interpreters(which):
    cat = loader.load() if which == "shipped" else loader.load([EXTRA])
    h = CoreHarness(cat)
    rng = random.Random(f"{SEED}-core-{which}")
    hot, interesting = hot_cards(cat), interesting_characters(cat)
    seen = {"holds": set(), "via_is": set(), "force_is": set()}
    for k in range(N_CORE):
        st = random_state(rng, cat, n_max=h.S.n, g_max=h.S.G, unknown_keys=h.unknown_keys, hot=hot,
                          interesting=interesting)
        x, y = focused_cards(rng, cat, st, hot)
        a, b = h.interp(st, x, y), h.z3(st, x, y)
        diff = {key: (a[key], b[key]) for key in a if a[key] != b[key]}
        assert not diff, (f"{which} state #{k}: interpreter vs z3 differ on {diff}\nactual={x} declared={y}\n"
                          f"state={st.to_dict()}")
        for key, v in a.items():
            if v:
                seen[key.split(":", 1)[0].replace("holds_kind", "holds")].add(key)
    # the comparison met each lookup true somewhere (it is not comparing falses) — the send skills in force where the
    # catalogue has send skills (the extra one has none)
    if not any(g in cat.skills[r].closure for g, rids in h.senders.items() for r in rids):
        seen.pop("force_is")
    assert all(seen.values()), {k: len(v) for k, v in seen.items()}


def test_a_card_variable_ranges_over_the_card_codes():
    for cat in (loader.load(), loader.load([EXTRA])):
        S = SymState(cat, n=2)
        codes = sorted(S.codes.card.values())
        assert codes == list(range(len(cat.cards)))
        v, bound = card_var(S, "core_card")
        s = z3.Solver()
        s.add(bound)
        for code in range(-2, len(codes) + 2):
            s.push()
            s.add(v == code)
            assert (s.check() == z3.sat) == (code in codes), code
            s.pop()
