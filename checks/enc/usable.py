"""Using an ActiveSkill now, symbolically: twin of ``model/interp/usable.py`` (``spent``,
``skill_usable_now``, ``requires_met``).
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from skillproof.model import expr as E
from skillproof.model.turn import COND_WINDOWS

from .cond import _free_players, compile_on
from .core import holds
from .val import AND, EQ, NONE, NOT, is_c
from .state import WCODE, SymState
from .windows import enc_in_window


def enc_spent(S: SymState, slot, rid: str):
    """Twin of interp.usable.spent: the slot's skill has a usage limit (turn or game) and was used this turn."""
    return slot.used if S.cat.skills[rid].limit != "none" else z3.BoolVal(False)


def unconditional(r, w: str) -> bool:
    """The rule's condition for window ``w`` says nothing: ``main`` left at its default, plainly true. The encoders
    leave it out (the same meaning without a term of its own, so the solver's terms, and the witnesses it picks,
    are those of a catalogue without the key)."""
    c = getattr(r, w, None)
    return w == "main" and isinstance(c, E.Lit) and c.value is True


def _cond_at(S: SymState, r, ctx):
    """The rule's condition for the window of the question's moment (none in a window without one)."""
    out = []
    for w in COND_WINDOWS:
        c = getattr(r, w)
        if c is not None and not unconditional(r, w):
            out.append(z3.Implies(S.now == WCODE[w], S.compile(c, ctx)))
    return And(out) if out else z3.BoolVal(True)


def enc_slot_usable_now(S: SymState, slot, rid: str):
    """The player's slot holds the ActiveSkill ``rid`` and she may use it at the question's moment: live, not spent,
    a window and actor it names, its condition there (interpreter.skill_usable_now for that entry)."""
    r = S.cat.skills[rid]
    return And(S.live_rule(slot, rid, "ActiveSkill"), z3.Not(enc_spent(S, slot, rid)),
               enc_in_window(S, S.q, 0, r.windows), _cond_at(S, r, S.ctx(0, slot)))


def enc_skill_usable_now(S: SymState, rid: str, seat: int = 0):
    """Twin of interp.usable.skill_usable_now: seat ``seat`` may use the ActiveSkill ``rid`` at the question's
    moment (live, not spent, window and actor, the window's condition). Other seats hold their role's skills
    (unused: only the player's uses are in the state)."""
    r = S.cat.skills[rid]
    m = S.q
    cond_at = lambda ctx: _cond_at(S, r, ctx)      # noqa: E731
    if seat == 0:
        return Or([enc_slot_usable_now(S, sl, rid) for sl, _ in holds(S, rid, "ActiveSkill")] or [z3.BoolVal(False)])
    owners = [c for c in S.cat.owners(rid) if c in S.chars_other]
    if not owners:                  # a grant (its parameters unknown here) or a role no other seat has
        return z3.BoolVal(False)
    held = Or([S.char[seat] == S.codes.char[c] for c in owners])
    return And(S.present[seat], held, z3.Not(S.inv[seat]) if r.initial else z3.BoolVal(True),
                  enc_in_window(S, m, seat, r.windows), cond_at(S.ctx(seat)))


def enc_requires_met(cat, codes, tab, seat: int, node, players: dict, n: int, params: dict | None = None, used=False):
    """Twin of interp.usable.requires_met: the use meets ``requires`` — every player of the use the condition reads
    (``requires_reads``: target, chosen) is a seat (NONE or absent: none named, the use refused), and the condition
    holds on the table with ``players`` bound (cond.compile_on), the entry's ``used`` and arguments."""
    if node is None:
        return True
    need = []
    for name in sorted(x for x in _free_players(node) if x in ("target", "chosen")):
        v = players.get(name, NONE)
        if is_c(v):
            if not (isinstance(v, int) and 0 <= v < n):
                return False
        else:
            need.append(AND(NOT(EQ(v, NONE)), v >= 0, v < n))
    return AND(need + [compile_on(cat, codes, tab, node, {**players, "self": seat}, params, used)])
