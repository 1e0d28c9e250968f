"""Receiving the message: must, cannot or may the player the message is in front of receive it (note
L117-119, server MustReceiveMessage.kt).

Twin: ``checks/enc/receive.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import State
from .core import env_of, evaluate, live_kinds


def receive(cat: Catalogue, state: State, seat: int) -> str:
    """'must', 'cannot' or 'free': may the player the message is in front of decline / accept it?

    note L117-119: MustReceiveMessage — this turn must receive / cannot receive.
    Server (MustReceiveMessage.kt): the sender and every locked player must receive; when must and
    cannot both hold, must wins (``rules.must_beats_cannot``).
    """
    must, cannot = receive_parts(cat, state, seat)
    if must and cannot:
        return "must" if cat.rules.must_beats_cannot else "cannot"
    return "must" if must else ("cannot" if cannot else "free")


def receive_parts(cat: Catalogue, state: State, seat: int) -> tuple[bool, bool]:
    """(must, cannot) before they are reconciled: which obligations hold at once."""
    s = state.seats[seat]
    mr = cat.rules.must_receive                       # server mustReceiveMessage: the sender and locked players
    must = ("sender" in mr and state.sender == seat) or ("turn" in mr and state.turn == seat) or \
        ("locked" in mr and s.locked)
    cannot = False
    for inst in s.skills:
        rule = cat.skills[inst.rule]
        if "MustReceiveMessage" not in live_kinds(cat, inst) or rule.receive is None:
            continue
        env = env_of(cat, state, seat, inst)
        must = must or bool(evaluate(rule.receive.must, env))
        cannot = cannot or bool(evaluate(rule.receive.cannot, env))
    return must, cannot
