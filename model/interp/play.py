"""Running a trace, whichever kind it is: the timed model's (model/interp/trace.py ``Runner``) or a whole game's
(``Trace.table``: model/interp/game.py ``GameRunner``, the table's events and rules too). Every witness, scenario
file and replay goes through ``run``."""
from __future__ import annotations

from ..catalogue import Catalogue
from .game import GameRunner
from .trace import Run, Runner, Trace


def run(cat: Catalogue, trace: Trace) -> Run:
    """Execute ``trace`` event by event; every event is checked against the window it happens in. The clauses of
    ``Runner`` are the transition relation of the timed model (the encoder's ``reachability`` states each as a
    constraint on a symbolic trace, named alike in its comments); a game trace runs through ``GameRunner``."""
    return (GameRunner if trace.table else Runner)(cat, trace).run()


def state_after(cat: Catalogue, trace: Trace, k: int):
    """The table after the first ``k`` events of ``trace``, as the run holds it at that moment of the game — not as a
    game that ended there: nothing the end of a run settles (a dead player's cards discarded after his death's
    triggers, owed draws, the win check of a game's last moment) is done. A question's givens read "before" or "as
    he dies" are read here; the encoder's twin is its state after event ``k - 1`` (checks/enc/game.GameEncoding.at),
    which is never closed either (YiXin fires on his death with his hand still held: phase/AfterDieGiveCard.kt
    discards it after the PlayerDieEvent was dealt)."""
    r = (GameRunner if trace.table else Runner)(cat, Trace(trace.setup, list(trace.events[:k]), trace.table))
    r.steps()
    return r.st
