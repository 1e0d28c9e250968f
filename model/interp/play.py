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
