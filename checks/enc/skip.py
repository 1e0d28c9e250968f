"""Skipping, symbolically: twin of ``model/interp/skip.py`` (note L94-97, server CannotPlayCard.kt).
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from .bans import enc_banned, enc_banned_all
from .core import memo
from .state import SymState


@memo
def enc_skills_gone(S: SymState):
    """No live ActiveSkill and no unwrapped initial skill (server: !skills.any{isInitial || Active}; twin of
    interpreter._skills_gone). Unwrapped as ``S.wrapped`` says: a grant marked initial that came after the
    seat's invalidation is not wrapped (InvalidSkill.deal wraps what is in the list then) and still counts."""
    keep = []
    for slot in S.slots:
        keep.append(S.live(slot, "ActiveSkill"))
        init = [r for r in slot.candidates if S.cat.skills[r].initial]
        if init:
            keep.append(And(slot.present, z3.Not(S.wrapped(slot)), Or([S.rule_is(slot, r) for r in init])))
    return z3.Not(Or(keep)) if keep else z3.BoolVal(True)


def _usable(S: SymState, which: str):
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "ActiveSkill"):
            r = S.cat.skills[rid]
            cond = getattr(r, which)
            if cond is None:
                continue
            terms.append(And(S.live_rule(slot, rid, "ActiveSkill"), S.compile(cond, S.ctx(0, slot))))
    return Or(terms) if terms else z3.BoolVal(False)


@memo
def enc_skip_fight(S: SymState):
    """Twin of interpreter.skip_fight (note L94-97; server cannotPlayCardAndSkillForFightPhase)."""
    return _enc_skip(S, "fight")


@memo
def enc_skip_dying(S: SymState):
    """Twin of interpreter.skip_dying (server cannotPlayCardAndSkillForChengQing)."""
    return _enc_skip(S, "dying")


def _enc_skip(S: SymState, phase: str):
    """Twin of interpreter._skip: the ingredients ``rules.skip_<phase>`` names."""
    parts = getattr(S.cat.rules, f"skip_{phase}")
    cannot_play = Or(enc_banned_all(S), S.ints["hand_count"][0] == 0)
    if "can_use" in parts:
        has_skill = _usable(S, phase)
    else:
        non_main = [And(S.live(slot, "ActiveSkill"), z3.Not(S.live(slot, "MainPhaseSkill"))) for slot in S.slots]
        has_skill = Or(non_main) if non_main else z3.BoolVal(False)
    no_skill = And(S.ever[0], z3.Not(has_skill))
    if "skills_gone" in parts:
        no_skill = Or(enc_skills_gone(S), no_skill)
    return And(cannot_play, no_skill)


def _cards_playable_in(S: SymState, phase: str):
    return Or([z3.Not(enc_banned(S, z3.IntVal(k))) for k, c in S.cards.items() if phase in c.phases]
              or [z3.BoolVal(False)])


@memo
def enc_could_act_fight(S: SymState):
    return Or(_usable(S, "fight"), And(S.ints["hand_count"][0] > 0, _cards_playable_in(S, "fight")))


@memo
def enc_could_act_dying(S: SymState):
    return Or(_usable(S, "dying"), And(S.ints["hand_count"][0] > 0, _cards_playable_in(S, "dying")))
