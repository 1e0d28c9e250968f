"""Bans, symbolically: twin of ``model/interp/bans.py`` (note L97, L101; server CannotPlayCard.kt).
"""
from __future__ import annotations

import z3

from skillproof.model.catalogue import Ref, Rule

from ..terms import And, Or
from .core import memo
from .state import SymState, _set_member


def enc_ban_all(S, r: Rule, slot):
    b = r.ban.all
    return slot.params[b.value] if isinstance(b, Ref) else z3.BoolVal(b)


def enc_ban_has(S, r: Rule, slot, declared):
    c = r.ban.cards
    if isinstance(c, Ref):
        return _set_member(declared, slot.params[c.value])
    return Or([declared == S.codes.card[x.value] for x in c] or [z3.BoolVal(False)])


@memo
def enc_banned(S: SymState, declared):
    """Twin of interp.bans.banned (note L101; server cannotPlayCard looks at the declared type)."""
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "CannotPlayCard"):
            r = S.cat.skills[rid]
            if r.ban is None:
                continue
            terms.append(And(S.live_rule(slot, rid, "CannotPlayCard"),
                                Or(enc_ban_all(S, r, slot), enc_ban_has(S, r, slot, declared))))
    return Or(terms) if terms else z3.BoolVal(False)


def enc_banned_by(S: SymState, declared, sites):
    """Twin of interp.bans.banned_by: banned by a grant slot handed out at one of ``sites`` (site ids)."""
    codes = [S.codes.site[x] for x in sorted(sites) if x in S.codes.site]
    terms = []
    for slot in S.slots:
        if slot.initial_slot or not codes:
            continue
        for rid in S.rules_with(slot, "CannotPlayCard"):
            r = S.cat.skills[rid]
            if r.ban is None:
                continue
            terms.append(And(S.live_rule(slot, rid, "CannotPlayCard"), Or([slot.site == c for c in codes]),
                             Or(enc_ban_all(S, r, slot), enc_ban_has(S, r, slot, declared))))
    return Or(terms) if terms else z3.BoolVal(False)


@memo
def enc_banned_all(S: SymState):
    terms = []
    for slot in S.slots:
        for rid in S.rules_with(slot, "CannotPlayCard"):
            r = S.cat.skills[rid]
            if r.ban is not None:
                terms.append(And(S.live_rule(slot, rid, "CannotPlayCard"), enc_ban_all(S, r, slot)))
    return Or(terms) if terms else z3.BoolVal(False)
