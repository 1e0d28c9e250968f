"""Using an ActiveSkill now, symbolically: twin of ``model/interp/usable.py`` (``spent``,
``skill_usable_now``).
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from .core import holds
from .state import WCODE, SymState
from .windows import enc_in_window


def enc_spent(S: SymState, slot, rid: str):
    """Twin of interpreter.spent: the slot's skill has a usage limit (turn or game) and was used this turn."""
    return slot.used if S.cat.skills[rid].limit != "none" else z3.BoolVal(False)


def enc_skill_usable_now(S: SymState, rid: str, seat: int = 0):
    """Twin of interpreter.skill_usable_now: seat ``seat`` may use the ActiveSkill ``rid`` at the question's
    moment (live, not spent, window and actor, the window's condition). Other seats hold their role's skills
    (unused: only the player's uses are in the state)."""
    r = S.cat.skills[rid]
    m = S.q

    def cond_at(ctx):
        out = []
        for w in ("fight", "dying"):
            c = getattr(r, w)
            if c is not None:
                out.append(z3.Implies(S.now == WCODE[w], S.compile(c, ctx)))
        return And(out) if out else z3.BoolVal(True)
    if seat == 0:
        return Or([And(live, z3.Not(enc_spent(S, sl, rid)), enc_in_window(S, m, 0, r.windows), cond_at(S.ctx(0, sl)))
                      for sl, live in holds(S, rid, "ActiveSkill")] or [z3.BoolVal(False)])
    owners = [c for c in S.cat.owners(rid) if c in S.chars_other]
    if not owners:                  # a grant (its parameters unknown here) or a role no other seat has
        return z3.BoolVal(False)
    held = Or([S.char[seat] == S.codes.char[c] for c in owners])
    return And(S.present[seat], held, z3.Not(S.inv[seat]) if r.initial else z3.BoolVal(True),
                  enc_in_window(S, m, seat, r.windows), cond_at(S.ctx(seat)))
