"""Triggered skills, symbolically: twin of ``model/interp/fires.py``.
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from .core import memo
from .state import NONE, WCODE, SymState


@memo
def enc_fires(S: SymState, rid: str):
    """Twin of interp.fires.fires: a live slot holding ``rid``, the window one of its ``fires.at`` (untimed:
    any), its ``fires.when`` true on the player."""
    r = S.cat.skills[rid]
    if r.fires is None:
        return z3.BoolVal(False)
    win = Or([S.now == NONE] + [S.now == WCODE[w] for w in r.fires.at])
    terms = [And(slot.present, S.rule_is(slot, rid), z3.Not(S.invalid(slot)),
                    S.compile(r.fires.when, S.ctx(0, slot))) for slot in S.slots if rid in slot.candidates]
    return And(win, Or(terms)) if terms else z3.BoolVal(False)
