"""The end-of-出牌阶段 reminder: which of the turn player's MainPhaseSkills make the client prompt when he ends
出牌阶段 (``reminds``), and which of them he could still use at that moment (``usable_at_end``: the ground truth
the reminder checks compare with).

Design note L89: "MainPhaseSkill，仅在出牌阶段可以使用的技能，这种技能如果没有使用，直接点结束出牌阶段，会弹提示".
Server handler/EndMainPhaseTos.kt: ``!game.mainPhaseAlreadyNotify && r.skills.any { it is MainPhaseSkill &&
it.mainPhaseNeedNotify(r) }`` — then the flag is set, the prompt is sent and the phase does not end; the next
click ends it (the flag is reset only at the next turn: phase/NextTurn.kt). skill/Skill.kt's default
``mainPhaseNeedNotify(r) = r.getSkillUseCount(skillId) == 0``; a rule's ``remind`` condition is its override.
An invalidated skill is an InvalidSkill, not a MainPhaseSkill (note L92): it never prompts.

Twin: ``checks/enc/remind.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import SkillInst, State
from .bans import banned
from .core import env_of, evaluate, live_kinds
from .usable import skill_usable_now


def reminds_for(cat: Catalogue, state: State, seat: int, inst: SkillInst) -> bool:
    """Does the entry ``inst`` of ``seat``'s list make the client prompt? A live MainPhaseSkill (not wrapped in an
    InvalidSkill) whose ``remind`` condition holds for its holder (server ``it is MainPhaseSkill &&
    it.mainPhaseNeedNotify(r)``)."""
    if "MainPhaseSkill" not in live_kinds(cat, inst):
        return False
    cond = cat.skills[inst.rule].remind
    return cond is not None and bool(evaluate(cond, env_of(cat, state, seat, inst)))


def reminds(cat: Catalogue, state: State, seat: int, already: bool = False) -> dict:
    """What ending 出牌阶段 does for ``seat``: ``skills`` — the rules of the entries that prompt, in the list's order
    (each rule once); ``remind`` — whether the client prompts at all. ``already``: the prompt was shown this turn
    (``mainPhaseAlreadyNotify``): the phase then ends without one."""
    if already:
        return {"remind": False, "skills": []}
    out: list[str] = []
    for inst in state.seats[seat].skills:
        if reminds_for(cat, state, seat, inst) and inst.rule not in out:
            out.append(inst.rule)
    return {"remind": bool(out), "skills": out}


def usable_at_end(cat: Catalogue, state: State, seat: int, inst: SkillInst) -> bool:
    """Could ``seat`` still use the ActiveSkill ``inst`` at the state's moment? ``skill_usable_now`` (live, not
    spent, its window and actor, its ``main`` condition in 出牌阶段) and, for a skill that puts a card's effect into
    play and consults its user's bans (``plays`` with ``checks_bans``, ``bans_of = "user"``), some card it acts as
    is not banned for him."""
    if not skill_usable_now(cat, state, seat, inst):
        return False
    p = cat.skills[inst.rule].plays
    if p is not None and p.checks_bans and p.bans_of == "user":
        return any(not banned(cat, state, seat, c) for c in p.cards)
    return True


def remind_parts(cat: Catalogue, state: State, seat: int) -> dict:
    """Per MainPhaseSkill rule ``seat`` holds (in list order): whether it prompts and whether it is usable now —
    what the reminder checks compare (``{rule: {"remind": bool, "usable": bool}}``)."""
    out: dict[str, dict] = {}
    for inst in state.seats[seat].skills:
        if not cat.skills[inst.rule].has("MainPhaseSkill"):
            continue
        cur = out.setdefault(inst.rule, {"remind": False, "usable": False})
        cur["remind"] = cur["remind"] or reminds_for(cat, state, seat, inst)
        cur["usable"] = cur["usable"] or usable_at_end(cat, state, seat, inst)
    return out
