"""Faces in the timed model: how a skill used in a trace turns its holder's role card.

A 'use' event of the timed model (``model/interp/trace.py``) turns its holder

- face **up** when the skill's cost is to turn the role face up (``flips`` in the catalogue: 翻开此角色牌 —
  server e.g. skill/TouTian.kt executeProtocol → ``g.playerSetRoleFaceUp(r, true)`` before the effect);
- face **down** (or up) when the skill's effect turns its own role unconditionally (a top-level ``flip`` op of its
  ``do``, on ``self``, neither ``may`` nor ``if`` — server e.g. skill/HuanRi.kt: after its holder's 调包 / 破译 it
  calls ``g.playerSetRoleFaceUp(askWhom, false)`` without asking). The effect comes after the cost, so it wins.

A ``flip`` that is a choice (``may``), conditional (``if``), inside a ``choose``, of another player or of the message is
not a face change of the timed model (a whole game, ``model/interp/game.py``, does every op as it is).

Twin: ``checks/enc/face.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import State


def use_face(cat: Catalogue, rid) -> bool | None:
    """The face a use of skill ``rid`` leaves its holder's role in (True up, False down), None: it does not turn it."""
    rule = cat.skills.get(rid) if isinstance(rid, str) else None
    if rule is None:
        return None
    out = True if rule.flips else None
    for op in rule.do:
        a = op.args
        if op.op == "flip" and not op.may and op.cond is None and a.get("what", "role") == "role" \
                and a.get("who", "self") == "self":
            out = a.get("face", "up") == "up"
    return out


def turns_face(cat: Catalogue, rid) -> bool:
    """A use of ``rid`` turns its holder's role (``use_face`` is not None)."""
    return use_face(cat, rid) is not None


def apply_use_face(cat: Catalogue, st: State, seat: int, rid: str) -> None:
    """Seat ``seat`` used ``rid``: its role turns as ``use_face`` says (face up once is ever face up)."""
    up = use_face(cat, rid)
    if up is None:
        return
    s = st.seats[seat]
    s.face_up = up
    if up:
        s.ever_face_up = True
