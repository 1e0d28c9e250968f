"""Using an ActiveSkill now: its usage limit (``spent``), the window, actor and condition of the moment
(``skill_usable_now``), its 出牌阶段 / 争夺阶段 / 濒死求澄清 condition (``usable``), and what the server checks
before it lets a card or an ActiveSkill be used (``requires_met``).

Twin: ``checks/enc/usable.py``.
"""
from __future__ import annotations

from .. import expr as E
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


#: the players a use names itself (its target, the player its effect chooses): a ``requires`` reading one of them
#: refuses a use that names none (the server's handler finds no such player and refuses the request)
USE_PLAYERS = ("target", "chosen")


def requires_reads(node) -> frozenset:
    """The players of the use (``USE_PLAYERS``) a ``requires`` condition reads."""
    if node is None:
        return frozenset()
    return frozenset(x.name for x in E.walk(node)
                     if isinstance(x, E.Var) and x.role == "player" and x.name in USE_PLAYERS)


#: the window's players a ``requires`` may read (interp.game.window_players): a question about a use binds none of them
WINDOW_PLAYERS = frozenset(f"{k}{side}" for k in ("turn_player", "sender", "front", "dying")
                           for side in ("", "_left", "_right"))


def requires_unplayered(node) -> list:
    """The conjuncts of a ``requires`` that read no player of the use (``USE_PLAYERS``) nor of the window
    (``WINDOW_PLAYERS``): what the server checks of the user and the table whoever the use names — 移花接木's message
    on some living player (skill/YiHuaJieMu.kt:35), ``not face_up``, ``not used``. A question whether a skill may be
    used (``use S``) asks them as well as its window's condition. Twin: checks/enc/usable (the same conjuncts)."""
    skip = USE_PLAYERS + tuple(WINDOW_PLAYERS)
    return [c for c in E.conjuncts(node)
            if not any(isinstance(x, E.Var) and x.name in skip for x in E.walk(c))]


def requires_met(cat: Catalogue, state: State, seat: int, node, players: dict, inst: SkillInst | None = None) -> bool:
    """Does a use by ``seat`` meet ``requires`` (docs/catalogue-format.md, *requires*: what a card's ``canUse`` or a
    skill's ``executeProtocol`` checks before its first effect — server card/WeiBi.kt:149 ``target != self``,
    skill/JinBi.kt:30 ``not used``, card/MiLing.kt:48 the target's hand): ``players`` are the use's own (``target``,
    ``chosen``: -1 or absent for none) and the window's; a use that names none of the players the condition reads
    fails it; the skill's entry gives ``used`` and its arguments. Twin: ``checks/enc/usable.enc_requires_met``."""
    if node is None:
        return True
    n = len(state.seats)
    for name in requires_reads(node):
        v = players.get(name, -1)
        if not (isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n):
            return False
    env = env_of(cat, state, seat, inst)
    for name, v in players.items():
        env = env.bind(name, v)
    return bool(evaluate(node, env))
