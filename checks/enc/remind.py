"""The end-of-出牌阶段 reminder, symbolically: twin of ``model/interp/remind.py`` (``reminds``, ``usable_at_end``,
``remind_parts``) — design note L89, server handler/EndMainPhaseTos.kt and ``MainPhaseSkill.mainPhaseNeedNotify``.
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from .bans import enc_banned
from .core import memo
from .state import SymState
from .usable import enc_slot_usable_now


def enc_reminds_for(S: SymState, slot, rid: str):
    """Twin of interpreter.reminds_for: the player's slot holds the MainPhaseSkill ``rid``, live (an InvalidSkill is
    no MainPhaseSkill), and its ``remind`` condition holds."""
    r = S.cat.skills[rid]
    if r.remind is None:
        return z3.BoolVal(False)
    return And(S.live_rule(slot, rid, "MainPhaseSkill"), S.compile(r.remind, S.ctx(0, slot)))


@memo
def enc_reminds(S: SymState, already: bool = False):
    """Twin of interpreter.reminds for the player (seat 0): ``(remind, {rule: prompts})`` — whether ending 出牌阶段
    prompts at all, and for each MainPhaseSkill rule a slot may hold, whether an entry of it prompts (the
    interpreter's ``skills`` are the rules whose term is true, in the list's order). ``already``: the prompt was
    shown this turn (mainPhaseAlreadyNotify): none."""
    per: dict[str, list] = {}
    for slot in S.slots:
        for rid in S.rules_with(slot, "MainPhaseSkill"):
            per.setdefault(rid, []).append(enc_reminds_for(S, slot, rid))
    if already:
        return z3.BoolVal(False), {rid: z3.BoolVal(False) for rid in per}
    terms = {rid: Or(ts) for rid, ts in per.items()}
    return Or(list(terms.values()) or [z3.BoolVal(False)]), terms


def enc_usable_at_end(S: SymState, slot, rid: str):
    """Twin of interpreter.usable_at_end for the player's slot: usable now (enc_slot_usable_now) and, for a skill
    that acts as cards and consults its user's bans, some card it acts as not banned."""
    r = S.cat.skills[rid]
    now = enc_slot_usable_now(S, slot, rid)
    p = r.plays
    if p is not None and p.checks_bans and p.bans_of == "user":
        now = And(now, Or([z3.Not(enc_banned(S, z3.IntVal(S.codes.card[c]))) for c in p.cards]))
    return now


@memo
def enc_remind_parts(S: SymState):
    """Twin of interpreter.remind_parts: ``{rule: (prompts, usable)}`` for each MainPhaseSkill rule a slot of the
    player may hold (a rule she does not hold: both false)."""
    per: dict[str, tuple[list, list]] = {}
    for slot in S.slots:
        for rid in S.rules_with(slot, "MainPhaseSkill"):
            rem, use = per.setdefault(rid, ([], []))
            rem.append(enc_reminds_for(S, slot, rid))
            use.append(enc_usable_at_end(S, slot, rid))
    return {rid: (Or(rem), Or(use)) for rid, (rem, use) in per.items()}
