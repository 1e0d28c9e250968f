"""Sending the message, symbolically: twin of ``model/interp/send.py`` (note L129, server
SendMessageSkill.kt).
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from .core import memo
from .state import NONE, SymState


@memo
def enc_send_in_force(S: SymState, group: str):
    """Twin of interpreter.send_in_force (note L129: later overrides earlier; server lastOrNull)."""
    out = z3.IntVal(NONE)
    for slot in S.slots:
        out = z3.If(S.live(slot, group), slot.index, out)
    return out


def enc_default_send(S: SymState, group: str, d, lc):
    if group == "SendMessageDirectionSkill":
        return d == S.message_dir
    if group == "SendMessageCanLockSkill":
        return And(lc <= 1, Or(lc == 0, S.lockable))
    return z3.BoolVal(True)


@memo
def enc_send_allowed(S: SymState, group: str, d, lc):
    """Twin of interpreter.send_allowed."""
    out = enc_default_send(S, group, d, lc)
    for slot in S.slots:
        for rid in S.rules_with(slot, group):
            r = S.cat.skills[rid]
            if r.send is None:
                continue
            rule = S.compile(r.send.rule, S.ctx(0, slot, dir=d, lock_count=lc))
            out = z3.If(S.live_rule(slot, rid, group), rule, out)
    return out
