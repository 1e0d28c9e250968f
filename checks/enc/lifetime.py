"""Lifetimes, symbolically: twin of ``model/interp/lifetime.py`` (``turn_end``, note L84-85, server
phase/NextTurn.kt) — what survives a turn end for the player's list, and over the turn ends of a trace.
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from .core import memo
from .state import Moment, SymState


@memo
def enc_turn_end_survivors(S: SymState):
    """Twin of interp.lifetime.turn_end for the player's list: per slot, (still present, still wrapped,
    still a OneTurnSkill) after the ``rules.turn_end`` steps."""
    out = []
    for slot in S.slots:
        present = slot.present
        wrapped = S.invalid(slot)
        one_turn = Or([S.rule_is(slot, r) for r in slot.candidates
                          if "OneTurnSkill" in S.cat.skills[r].closure] or [z3.BoolVal(False)])
        for step in S.cat.rules.turn_end:
            if step == "restore_invalid":
                wrapped = z3.BoolVal(False)
            else:
                present = And(present, z3.Not(And(one_turn, z3.Not(wrapped))))
        out.append((present, wrapped, And(present, one_turn)))
    return out


def survives_turn_ends(S: SymState, rules: list, t_first, wrapped_by_inv, t_last=None):
    """Twin of interp.lifetime.turn_end over the turn ends between turn ``t_first`` and the question (or, with
    ``t_last``, the ends before turn ``t_last``): a skill that is a OneTurnSkill is dropped at each end unless
    wrapped by an invalidation at that moment. ``wrapped_by_inv`` says whether the seat's invalidation wraps
    it at all (it came after the skill)."""
    steps = list(S.cat.rules.turn_end)
    if "drop_one_turn" not in steps or not any("OneTurnSkill" in S.cat.skills[r].closure for r, _ in rules):
        return z3.BoolVal(True)
    drop_first = "restore_invalid" not in steps or steps.index("drop_one_turn") < steps.index("restore_invalid")
    ev = S.inv_m[0]
    out = []
    for e in range(S.T - 1):              # the end of turn e, when e >= t_first
        if "restore_invalid" not in steps:
            wrapped = And(S.inv_ev[0], ev.t <= e)
        else:
            wrapped = And(S.inv_ev[0], ev.t == e, z3.BoolVal(drop_first))
        keep = []
        for r, is_rule in rules:
            rule = S.cat.skills[r]
            if "OneTurnSkill" not in rule.closure:
                keep.append(is_rule)
            elif rule.initial:
                keep.append(And(is_rule, wrapped, wrapped_by_inv))
        within = e >= t_first if t_last is None else And(e >= t_first, e < t_last)
        out.append(z3.Implies(within, Or(keep) if keep else z3.BoolVal(False)))
    return And(out)


def one_turn_kept(S: SymState, g: int, skill: str, m: Moment):
    """A role skill that is also a OneTurnSkill (a generated kind marked initial, KD001, or a skill marked
    ``initial = false``) is dropped at the first turn end (twin of interp.lifetime.turn_end): held at ``m`` only
    in the trace's first turn — or, for an initial one, in the next, when [rules] turn_end drops before it
    restores and the skill was wrapped (the seat invalidated in the first turn) when that turn ended (a skill
    not initial is never wrapped). One invalidation per seat: never past two ends."""
    r = S.cat.skills[skill]
    if "OneTurnSkill" not in r.closure:
        return z3.BoolVal(True)
    te = list(S.cat.rules.turn_end)
    kept = m.t == S.start
    if r.initial and te.index("drop_one_turn") < te.index("restore_invalid"):
        ev = S.inv_m[g]
        kept = Or(kept, And(m.t == S.start + 1, S.inv_ev[g], ev.t == S.start))
    return kept
