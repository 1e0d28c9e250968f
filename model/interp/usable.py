"""Using an ActiveSkill now: its usage limit (``spent``), the window, actor and condition of the moment
(``skill_usable_now``), its 出牌阶段 / 争夺阶段 / 濒死求澄清 condition (``usable``).

Twin: ``checks/enc/usable.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import SkillInst, State
from ..turn import COND_WINDOWS
from .core import env_of, evaluate, live_kinds
from .windows import in_window


def spent(cat: Catalogue, inst: SkillInst) -> bool:
    """A skill with a usage limit (``limit`` turn or game) already used this turn: it cannot be used again
    (server: executeProtocol refuses a second use, ``getSkillUseCount(skillId) > 0`` — 禁闭, 交际 …; a
    limit of once a game is known here only within the turn, the one the ``used`` flag covers)."""
    return cat.skills[inst.rule].limit != "none" and inst.used


def skill_usable_now(cat: Catalogue, state: State, seat: int, inst: SkillInst) -> bool:
    """May ``seat`` use the ActiveSkill ``inst`` at the state's moment: live, not ``spent``, a window and
    actor it names, and its condition there (出牌阶段: ``main``, 争夺阶段: ``fight``, 濒死求澄清: ``dying``;
    elsewhere none)."""
    rule = cat.skills[inst.rule]
    if "ActiveSkill" not in live_kinds(cat, inst) or spent(cat, inst) or \
            not in_window(state, seat, rule.windows):
        return False
    cond = getattr(rule, state.window) if state.window in COND_WINDOWS else None
    return cond is None or bool(evaluate(cond, env_of(cat, state, seat, inst)))


def usable(cat, state, seat, inst, when: str) -> bool:
    """A live ActiveSkill whose ``main`` / ``fight`` / ``dying`` condition holds now."""
    cond = getattr(cat.skills[inst.rule], when)
    return "ActiveSkill" in live_kinds(cat, inst) and cond is not None and \
        bool(evaluate(cond, env_of(cat, state, seat, inst)))
