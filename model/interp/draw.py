"""The draw phase: how many cards a player draws (note L143-145, server ChangeDrawCardCountSkill.kt).

Twin: ``checks/enc/draw.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import State
from .core import env_of, evaluate, live_kinds


def draw_count(cat: Catalogue, state: State, seat: int) -> int:
    """Cards drawn in the draw phase.

    note L143-145: ChangeDrawCardCountSkill changes the count. Server
    (ChangeDrawCardCountSkill.kt getDrawCardCountEachTurn): a fold over the skill list in order,
    starting at the configured base; face-down roles are not skipped.
    """
    count = cat.rules.draw_base
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        if "ChangeDrawCardCountSkill" in live_kinds(cat, inst) and rule.draw is not None:
            count = int(evaluate(rule.draw, env_of(cat, state, seat, inst, count=count)))
    return count
