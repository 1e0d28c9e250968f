"""Sending the message, symbolically: twin of ``model/interp/send.py`` (note L129, server
SendMessageSkill.kt).
"""
from __future__ import annotations

import z3

from skillproof.model import expr as E
from skillproof.model.catalogue import SEND_DEFAULT_KEYS, Rules

from ..terms import And, Or

from .core import memo
from .state import NONE, SymState


@memo
def enc_send_in_force(S: SymState, group: str):
    """Twin of interp.send.send_in_force (note L129: later overrides earlier; server lastOrNull)."""
    out = z3.IntVal(NONE)
    for slot in S.slots:
        out = z3.If(S.live(slot, group), slot.index, out)
    return out


@memo
def enc_has_card_to_send(S: SymState):
    """Twin of interp.send.has_card_to_send: the player (seat 0) has something to send — a hand card, or a live
    ActiveSkill sending from elsewhere than the hand (冷血训练: the deck's top; server phase/SendPhaseStart.kt)."""
    from skillproof.model.effects import sends_from_elsewhere
    terms = [S.ints["hand_count"][0] > 0]
    for sl in S.slots:
        terms += [S.live_rule(sl, rid, "ActiveSkill") for rid in sl.candidates
                  if rid in S.cat.skills and sends_from_elsewhere(S.cat.skills[rid].do)]
    return z3.Or(terms)


def enc_default_send(S: SymState, group: str, d, lc):
    """Twin of interp.send.default_send: the group's default rule of [rules] (``send_dir`` / ``send_lock``)."""
    key = SEND_DEFAULT_KEYS.get(group)
    if key is None:
        return z3.BoolVal(True)
    node = getattr(S.cat.rules, key)
    if E.to_text(node) == _DEFAULT_TEXT[key]:      # the catalogue's default (the server's rule), built as it always
        return d == S.message_dir if key == "send_dir" else And(lc <= 1, Or(lc == 0, S.lockable))  # was: same terms
    return S.compile(node, S.ctx(0, None, dir=d, lock_count=lc))                   # in the same order, same witnesses


#: the default send rules' text (catalogue.Rules), which the lines above build directly
_DEFAULT_TEXT = {k: E.to_text(getattr(Rules(), k)) for k in SEND_DEFAULT_KEYS.values()}


@memo
def enc_send_allowed(S: SymState, group: str, d, lc):
    """Twin of interp.send.send_allowed."""
    out = enc_default_send(S, group, d, lc)
    for slot in S.slots:
        for rid in S.rules_with(slot, group):
            r = S.cat.skills[rid]
            if r.send is None:
                continue
            rule = S.compile(r.send.rule, S.ctx(0, slot, dir=d, lock_count=lc))
            out = z3.If(S.live_rule(slot, rid, group), rule, out)
    return out
