"""Receiving the message, symbolically: twin of ``model/interp/receive.py`` (note L117-119, server
MustReceiveMessage.kt).
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from .core import holds, memo
from .state import SymState


FREE, MUST, CANNOT = 0, 1, 2


RECEIVE_NAMES = {FREE: "free", MUST: "must", CANNOT: "cannot"}


@memo
def enc_receive_parts(S: SymState):
    mr = S.cat.rules.must_receive
    must = Or([t for k, t in (("sender", S.sender == 0), ("turn", S.turn == 0), ("locked", S.locked[0]))
                  if k in mr] or [z3.BoolVal(False)])
    cannot = z3.BoolVal(False)
    for slot in S.slots:
        for rid in S.rules_with(slot, "MustReceiveMessage"):
            r = S.cat.skills[rid]
            if r.receive is None:
                continue
            live = S.live_rule(slot, rid, "MustReceiveMessage")
            ctx = S.ctx(0, slot)
            must = Or(must, And(live, S.compile(r.receive.must, ctx)))
            cannot = Or(cannot, And(live, S.compile(r.receive.cannot, ctx)))
    return must, cannot


@memo
def enc_receive(S: SymState):
    """Twin of interpreter.receive: FREE / MUST / CANNOT (note L117-119; server: sender and locked
    players must receive; must wins over cannot when ``rules.must_beats_cannot``)."""
    must, cannot = enc_receive_parts(S)
    both = MUST if S.cat.rules.must_beats_cannot else CANNOT
    return z3.If(And(must, cannot), both, z3.If(must, MUST, z3.If(cannot, CANNOT, FREE)))


def receive_rule_parts(S: SymState, rid: str):
    """[(live, must, cannot)] for every slot that may hold the MustReceiveMessage rule ``rid``: whether
    it is there and in force, and its two conditions read in that slot."""
    r = S.cat.skills[rid]
    if r.receive is None:
        return []
    out = []
    for sl, live in holds(S, rid, "MustReceiveMessage"):
        c = S.ctx(0, sl)
        out.append((live, S.compile(r.receive.must, c), S.compile(r.receive.cannot, c)))
    return out
