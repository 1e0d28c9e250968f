"""Skipping: is a player passed over in 争夺阶段 or when asked to rescue a dying player (note L94-97, server
CannotPlayCard.kt), and could they have acted there (``could_act``: the ground truth the skip checks compare).

Twin: ``checks/enc/skip.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import State
from .bans import banned, banned_all
from .core import live_kinds
from .usable import usable


def _may_play_cards(cat, state, seat) -> bool:
    """note L97: a player may play cards when they hold cards and not every card is banned."""
    return state.seats[seat].hand_count > 0 and not banned_all(cat, state, seat)


def skills_gone(cat, state, seat) -> bool:
    """Server: ``!skills.any { it.isInitialSkill || it is ActiveSkill }`` — every initial skill is
    invalidated (an InvalidSkill is not initial) and no live ActiveSkill was granted."""
    for inst in state.seats[seat].skills:
        live = live_kinds(cat, inst)
        if "ActiveSkill" in live:
            return False
        if not inst.invalid and cat.skills[inst.rule].initial:
            return False
    return True


def skip_fight(cat: Catalogue, state: State, seat: int) -> bool:
    """Is ``seat`` skipped in 争夺阶段?

    note L94-97: skipped when the player cannot possibly use a skill and cannot possibly play a card;
    may use a skill = has an ActiveSkill whose canUse allows 争夺阶段, or is a hidden role never face up;
    may play = holds cards and not all cards are banned.
    Server (CannotPlayCard.kt cannotPlayCardAndSkillForFightPhase) goes further: a player whose initial
    skills are all invalidated (and who has no granted ActiveSkill) counts as having no skill even when
    never face up; "hidden and never face up" is tested as ``!hasEverFaceUp``.
    """
    return _skip(cat, state, seat, "fight")


def _skip(cat: Catalogue, state: State, seat: int, phase: str) -> bool:
    """The skip predicate of ``phase`` with the ingredients ``rules.skip_fight`` / ``rules.skip_dying`` name:
    ``skills_gone`` (a player whose skills are all gone is skipped even if never face up) and ``can_use``
    (the skill test asks the phase's condition, else any ActiveSkill that is not a MainPhaseSkill counts)."""
    if _may_play_cards(cat, state, seat):
        return False
    s = state.seats[seat]
    parts = getattr(cat.rules, f"skip_{phase}")
    if "skills_gone" in parts and skills_gone(cat, state, seat):
        return True
    if not s.ever_face_up:
        return False
    if "can_use" in parts:
        return not any(usable(cat, state, seat, inst, phase) for inst in s.skills)
    return not any("ActiveSkill" in live_kinds(cat, i) and "MainPhaseSkill" not in live_kinds(cat, i)
                   for i in s.skills)


def skip_dying(cat: Catalogue, state: State, seat: int) -> bool:
    """Is ``seat`` skipped when asked to rescue a dying player (濒死求澄清)?

    note L94-97 as for 争夺阶段. Server (cannotPlayCardAndSkillForChengQing): the skill test is only
    "has an ActiveSkill that is not a MainPhaseSkill" — its canUse is not consulted.
    """
    return _skip(cat, state, seat, "dying")


def could_act(cat: Catalogue, state: State, seat: int, phase: str) -> bool:
    """Ground truth for the skip checks in ``phase`` ("fight": 争夺阶段, "dying": 濒死求澄清): some live
    ActiveSkill is usable then, or the player holds cards and some card type playable then is not
    banned for them."""
    s = state.seats[seat]
    if any(usable(cat, state, seat, inst, phase) for inst in s.skills):
        return True
    return s.hand_count > 0 and any(
        phase in c.phases and not banned(cat, state, seat, c.id) for c in cat.cards.values())


def could_act_fight(cat: Catalogue, state: State, seat: int) -> bool:
    return could_act(cat, state, seat, "fight")


def could_act_dying(cat: Catalogue, state: State, seat: int) -> bool:
    return could_act(cat, state, seat, "dying")
