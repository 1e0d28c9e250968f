"""Who may act in which window, symbolically: twin of ``model/interp/windows.py`` (``actor_ok``,
``in_window``, ``at_decision``) at a symbolic moment.
"""
from __future__ import annotations

import z3

from ..terms import And, Eq, Or
from .core import memo
from .state import NONE, WCODE, Moment, SymState, w_in


@memo
def enc_actor_ok(S: SymState, m: Moment, seat, actor: str):
    """Twin of interp.windows.actor_ok: may ``seat`` act as ``actor`` (model.turn.ACTORS) at moment ``m``?"""
    if actor == "turn":
        return Eq(S.owner_at(m.t), seat)
    if actor == "others":
        return S.owner_at(m.t) != seat
    if actor == "anyone":
        return z3.BoolVal(True)
    if actor == "in_front":
        return Eq(m.front, seat)
    if actor == "not_in_front":
        return m.front != seat
    if actor == "sender":                   # who sends this turn's message (interp.windows.actor_ok)
        return S.sender_of_turn(m.t) == seat
    if actor == "dying_player":
        return m.dy == seat
    return z3.BoolVal(False)


@memo
def enc_in_window(S: SymState, m: Moment, seat, windows: dict):
    """Twin of interp.windows.in_window: the window of moment ``m`` is one of ``windows`` with ``seat`` its actor,
    alive (an untimed moment, window NONE, is every window; a dead player acts in no window)."""
    terms = [And(Eq(m.w, WCODE[w]), enc_actor_ok(S, m, seat, actor)) for w, actor in windows.items()]
    return Or([Eq(m.w, NONE)] + ([And(enc_seat_alive(S, seat), Or(terms))] if terms else []))


def enc_seat_alive(S: SymState, seat):
    """``seat`` (a number or a seat term) is alive in ``S``."""
    if isinstance(seat, int):
        return S.alive[seat]
    if z3.is_int_value(seat):
        return S.alive[seat.as_long()]
    return Or([And(Eq(seat, i), a) for i, a in enumerate(S.alive)])


def enc_at_decision(S: SymState, decision: str, seat=0):
    """The moment of the question is where ``decision`` is taken by ``seat`` (model.turn.DECISION_WINDOWS)
    — twin of interp.windows.at_decision."""
    from skillproof.model.turn import DECISION_WINDOWS
    wins, actor = DECISION_WINDOWS[decision]
    alive = S.alive[seat] if isinstance(seat, int) else z3.BoolVal(True)
    return And(w_in(S.now, wins), enc_actor_ok(S, S.q, seat, actor), alive)
