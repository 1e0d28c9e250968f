"""Who may act in which window of the turn (model.turn): an actor of a window (``actor_ok``), a table of
windows and actors (``in_window``) and the moment a decision is taken (``at_decision``).

Twin: ``checks/enc/windows.py``.
"""
from __future__ import annotations

from ..state import State


def actor_ok(state: State, seat: int, actor: str) -> bool:
    """May ``seat`` act as ``actor`` (model.turn.ACTORS) in the state's window?"""
    if actor == "turn":
        return state.turn == seat
    if actor == "others":
        return state.turn != seat
    if actor == "anyone":
        return True
    if actor == "in_front":
        return state.in_front == seat
    if actor == "not_in_front":
        return state.in_front != seat
    if actor == "sender":                           # who sends this turn's message (密令 may pick another)
        return state.sender_of_turn() == seat
    if actor == "dying_player":
        return state.dying == seat
    return False                                    # nobody


def in_window(state: State, seat: int, windows: dict) -> bool:
    """Is the state's window one of ``windows`` (window -> actor), with ``seat`` its actor there, alive?
    An untimed state (window None) is every window. A dead player acts in no window (server: MainPhaseIdle
    ends a dead turn player's turn, FightPhaseIdle passes over a dead whoseFightTurn, WaitNextForChengQing asks
    the living only)."""
    if state.window is None:
        return True
    actor = windows.get(state.window)
    return actor is not None and state.seats[seat].alive and actor_ok(state, seat, actor)


def at_decision(state: State, decision: str, seat: int = 0) -> bool:
    """Is the state at a moment where ``decision`` is taken by ``seat`` (model.turn.DECISION_WINDOWS)?
    An untimed state is every moment."""
    from ..turn import DECISION_WINDOWS
    if state.window is None or decision not in DECISION_WINDOWS:
        return True
    wins, actor = DECISION_WINDOWS[decision]
    # a dead player takes no decision (server: a dead player in front of the message is passed over)
    return state.window in wins and actor_ok(state, seat, actor) and state.seats[seat].alive
