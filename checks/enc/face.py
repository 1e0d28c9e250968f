"""Faces in the timed model, symbolically: twin of ``model/interp/face.py``.

A skill used turns its holder's role as the catalogue says (``Rule.use_faces``: its cost ``flips`` face up — server
e.g. skill/TouTian.kt —, its effect's ``flip`` of its own role surely — skill/HuanRi.kt face down — or perhaps —
skill/JieDaoShaRen.kt, face down again if he likes).

The symbolic trace holds the player's uses as the ``used`` flag of each slot (skills used in the question's turn), and
its witness puts them after every other event of the trace (``checks/enc/witness.py``). So the player's face at those
events is the one before the uses (``SymState.pre_face_up`` / ``pre_ever``: the table's at the start, or the new
role's after a replacement), and at the question it is what the uses left, in an order and with choices the witness
picks (``witness_uses``):

- face up (down) at the question: a used skill may leave it so (put last), or every used skill may leave it as it
  was and it was so before;
- ever face up at the question: it was before, it is now, a used skill surely turned it up, or one may leave it up
  and another, used after it, face down.
"""
from __future__ import annotations

import z3

from ..terms import And, Or


def face_of_use(cat, rid) -> tuple:
    """Twin of interp.face.use_faces: (face when every choice declines, the faces it may leave, surely up on the way);
    None stands for "as it was"."""
    rule = cat.skills.get(rid) if isinstance(rid, str) else None
    return rule.use_faces if rule is not None else (None, frozenset({None}), False)


def _used(S, sl, pred):
    """The slot holds a skill used this turn whose faces meet ``pred`` (a term; False when none of its candidates)."""
    return Or([And(sl.present, sl.used, S.rule_is(sl, r)) for r in sl.candidates if pred(face_of_use(S.cat, r))]
              or [z3.BoolVal(False)])


def enc_use_faces(S, add) -> None:
    """Named constraints: the player's face and ever-face-up at the question from those before her uses (twin of
    interp.trace.Runner.turn_face over the uses the witness puts last). Nothing when no skill she may hold turns
    her role (``SymState.turning``: the two are then the same terms)."""
    if not S.turning:
        return
    rules = tuple(sorted({r for sl in S.slots for r in sl.candidates if face_of_use(S.cat, r)[1] != {None}}))
    now, pre = S.face_up[0], S.pre_face_up
    leaves_up = Or([_used(S, sl, lambda f: True in f[1]) for sl in S.slots])
    leaves_down = Or([_used(S, sl, lambda f: False in f[1]) for sl in S.slots])
    keeps = z3.Not(Or([_used(S, sl, lambda f: None not in f[1]) for sl in S.slots]))
    add("the player's face after her uses", rules, And(
        z3.Implies(now, Or(leaves_up, And(pre, keeps))),
        z3.Implies(z3.Not(now), Or(leaves_down, And(z3.Not(pre), keeps)))))
    sure = Or([_used(S, sl, lambda f: f[2]) for sl in S.slots])
    up_then_down = Or([And(_used(S, a, lambda f: True in f[1]), _used(S, b, lambda f: False in f[1]))
                       for a in S.slots for b in S.slots if a is not b])
    ever = S.ever[0]
    add("the player's ever face up after her uses", rules, And(
        z3.Implies(Or(S.pre_ever, sure, now), ever),
        z3.Implies(ever, Or(S.pre_ever, sure, now, up_then_down))))


def witness_uses(cat, uses: list, final: bool, ever: bool, pre: bool, pre_ever: bool) -> list:
    """[(rule, face_up chosen or None)] — the player's uses (rule ids) in the order the trace shows them, with the
    choices that bring her role from (``pre``, ``pre_ever``) to (``final``, ``ever``): those that turn no role first;
    where it was never up before, is not now and no use surely turned it up, yet is ever up, one that may leave it up
    (leaving it so) and then one face down; else one that may leave the final face last (leaving it so)."""
    f = {r: face_of_use(cat, r) for r in uses}
    plain = [(r, None) for r in uses if f[r][1] == {None}]
    rest = [r for r in uses if f[r][1] != {None}]
    sure = any(f[r][2] for r in rest)
    if ever and not (pre_ever or final or sure):
        up = next((r for r in rest if True in f[r][1]), None)
        down = next((r for r in rest if r != up and False in f[r][1]), None)
        if up is not None and down is not None:
            others = [r for r in rest if r not in (up, down)]
            pick = lambda r, face: face if len(f[r][1]) > 1 else None       # noqa: E731
            return plain + [(r, None) for r in others] + [(up, pick(up, True)), (down, pick(down, False))]
    last = next((r for r in rest if final in f[r][1]), None)
    if last is None:
        return plain + [(r, None) for r in rest]             # each leaves it as it was (keeps)
    others = [r for r in rest if r != last]
    return plain + [(r, None) for r in others] + [(last, final if len(f[last][1]) > 1 else None)]
