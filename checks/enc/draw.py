"""The draw phase, symbolically: twin of ``model/interp/draw.py`` (note L143-145, server
ChangeDrawCardCountSkill.kt).
"""
from __future__ import annotations

import z3

from .core import memo
from .state import SymState, _as_int


@memo
def enc_draw_count(S: SymState):
    """Twin of interpreter.draw_count (note L143-145; server fold over the skill list)."""
    count = z3.IntVal(S.cat.rules.draw_base)
    for slot in S.slots:
        for rid in S.rules_with(slot, "ChangeDrawCardCountSkill"):
            r = S.cat.skills[rid]
            if r.draw is None:
                continue
            new = _as_int(S.compile(r.draw, S.ctx(0, slot, count=count)))
            count = z3.If(S.live_rule(slot, rid, "ChangeDrawCardCountSkill"), new, count)
    return count
