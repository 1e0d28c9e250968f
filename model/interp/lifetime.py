"""Lifetimes: what the end of a turn releases and removes (note L84-85, server phase/NextTurn.kt).

Twin: ``checks/enc/lifetime.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import State
from .core import live_kinds


def turn_end(cat: Catalogue, state: State) -> State:
    """note L84-85: invalidated skills are released at turn end; one-turn skills are lost.
    Server (phase/NextTurn.kt): InvalidSkill.reset, then OneTurnSkill.reset — in ``rules.turn_end``
    order. Use counts reset too."""
    out = state.copy()
    for step in cat.rules.turn_end:
        for s in out.seats:
            if step == "restore_invalid":
                s.invalidated = False
                for inst in s.skills:
                    inst.invalid = False
            elif step == "drop_one_turn":
                s.skills = [i for i in s.skills if "OneTurnSkill" not in live_kinds(cat, i)]
    for s in out.seats:
        for inst in s.skills:
            inst.used = False
    return out
