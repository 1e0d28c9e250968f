"""Faces in the timed model: how a skill used in a trace turns its holder's role card.

A 'use' event of the timed model (``model/interp/trace.py``) turns its holder as the catalogue says
(``Rule.use_faces``):

- face **up** when the skill's cost is to turn the role face up (``flips``: 翻开此角色牌 — server e.g.
  skill/TouTian.kt executeProtocol → ``g.playerSetRoleFaceUp(r, true)`` before the effect);
- as its effect turns its own role: surely where a top-level ``flip`` op on ``self`` is neither ``may`` nor ``if``
  (skill/HuanRi.kt: after its holder's 调包 / 破译, ``g.playerSetRoleFaceUp(askWhom, false)`` without asking),
  perhaps where it is a choice, conditional or inside a ``choose`` (skill/JieDaoShaRen.kt: face down again on the
  black branch, if he likes). Where the use may leave more than one face, the event's ``face_up`` says which (none
  said: every choice declined).

Once face up is ever face up. A whole game (``model/interp/game.py``) turns faces by its own events instead.

Twin: ``checks/enc/face.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..reason import Reason
from ..state import State

#: a use that turns no role
UNTURNED = (None, frozenset({None}), False)


def use_faces(cat: Catalogue, rid) -> tuple:
    """(the face a use of ``rid`` leaves when every choice declines, every face it may leave, whether it surely turns
    the role face up on the way) — ``Rule.use_faces``; None stands for "as it was"."""
    rule = cat.skills.get(rid) if isinstance(rid, str) else None
    return rule.use_faces if rule is not None else UNTURNED


def turns(cat: Catalogue, rid) -> bool:
    """A use of ``rid`` may turn its holder's role."""
    return use_faces(cat, rid)[1] != frozenset({None})


def face_errors(cat: Catalogue, st: State, seat: int, rid, chosen) -> Reason | str:
    """Why the use cannot leave the role as ``chosen`` says (a ``Reason``; '' when it can, or nothing is said)."""
    if chosen is None:
        return ""
    _, may, _ = use_faces(cat, rid)
    can = {x for x in may if x is not None} | ({st.seats[seat].face_up} if None in may else set())
    if chosen not in can:
        name = cat.name_of(rid) if isinstance(rid, str) else str(rid)
        zh, en = ("面朝上", "face up") if chosen else ("面朝下", "face down")
        return Reason(f"发动{name}不会让角色牌{zh}", f"using {name} does not leave the role {en}")
    return ""


def apply_use_face(cat: Catalogue, st: State, seat: int, rid, chosen=None) -> None:
    """Seat ``seat`` used ``rid``: its role turns as ``use_faces`` says, ``chosen`` picking among the faces it may leave
    (checked by ``face_errors``); face up once is ever face up."""
    default, _, sure = use_faces(cat, rid)
    face = chosen if chosen is not None else default
    s = st.seats[seat]
    if face is not None and face != s.face_up:      # turned (else left as it was)
        s.face_up = face
        s.ever_face_up = s.ever_face_up or face
    if sure:                                         # turned face up on the way (the cost)
        s.ever_face_up = True
