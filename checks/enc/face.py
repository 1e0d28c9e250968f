"""Faces in the timed model, symbolically: twin of ``model/interp/face.py``.

A skill used turns its holder's role: face up when its cost says so (``flips`` — server e.g. skill/TouTian.kt:
``g.playerSetRoleFaceUp(r, true)`` before the effect), else as its effect turns its own role unconditionally (a
top-level ``flip`` op on ``self``, neither ``may`` nor ``if`` — server e.g. skill/HuanRi.kt:
``g.playerSetRoleFaceUp(askWhom, false)``); the effect comes after the cost.

The symbolic trace holds the player's uses as the ``used`` flag of each slot (skills used in the question's turn), and
its witness puts them after every other event of the trace (``checks/enc/witness.py``). So the player's face at those
events is the one before the uses (``SymState.pre_face_up`` / ``pre_ever``: the table's at the start, or the new
role's after a replacement), and at the question it is what the uses left, in an order the witness picks: no use
that turns it — the same; only uses that turn it up — up; only down — down; both — either (up then down, or down
then up). Once face up is ever face up.
"""
from __future__ import annotations

import z3

from ..terms import And, Or


def face_of_use(cat, rid) -> bool | None:
    """Twin of interp.face.use_face: the face a use of ``rid`` leaves its holder in (True up, False down), or None."""
    rule = cat.skills.get(rid) if isinstance(rid, str) else None
    if rule is None:
        return None
    turns = [op.args.get("face", "up") == "up" for op in rule.do
             if op.op == "flip" and not op.may and op.cond is None
             and op.args.get("what", "role") == "role" and op.args.get("who", "self") == "self"]
    if turns:
        return turns[-1]
    return True if rule.flips else None


def enc_used_turning(S, up: bool):
    """The player used, this turn, a skill whose use leaves her role face ``up`` (a slot present, used, holding it)."""
    terms = [And(sl.present, sl.used, S.rule_is(sl, r)) for sl in S.slots for r in sl.candidates
             if face_of_use(S.cat, r) is up]
    return Or(terms) if terms else z3.BoolVal(False)


def enc_use_faces(S, add) -> None:
    """Named constraints: the player's face and ever-face-up at the question from those before the uses (twin of
    interp.trace.Runner.turn_face over the uses the witness puts last). Nothing when no skill she may hold turns
    her role (``SymState.turning``: the two are then the same terms)."""
    if not S.turning:
        return
    rules = tuple(sorted({r for sl in S.slots for r in sl.candidates if face_of_use(S.cat, r) is not None}))
    up, down = enc_used_turning(S, True), enc_used_turning(S, False)
    now, pre = S.face_up[0], S.pre_face_up
    add("the player's face after her uses", rules, And(
        z3.Implies(And(z3.Not(up), z3.Not(down)), now == pre),
        z3.Implies(And(up, z3.Not(down)), now),
        z3.Implies(And(down, z3.Not(up)), z3.Not(now))))
    add("the player's ever face up after her uses", rules, S.ever[0] == Or(S.pre_ever, up))
