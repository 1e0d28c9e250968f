"""Triggered skills: does a TriggeredSkill's effect happen now, as far as its ``fires`` says.

Twin: ``checks/enc/fires.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import State
from .core import env_of, evaluate


def fires(cat: Catalogue, state: State, seat: int, rule_id: str) -> dict:
    """Does the effect of the TriggeredSkill ``rule_id`` the player holds happen now, as far as its ``fires``
    says: a live instance, the window one of ``fires.at`` (an untimed state: any), ``fires.when`` true on
    its holder (``used``: it fired already this turn)."""
    rule = cat.skills[rule_id]
    if rule.fires is None:
        return {"fires": False}
    for inst in state.seats[seat].skills:
        if inst.rule != rule_id or inst.invalid:
            continue
        if state.window is not None and state.window not in rule.fires.at:
            continue
        if evaluate(rule.fires.when, env_of(cat, state, seat, inst)):
            return {"fires": True}
    return {"fires": False}
