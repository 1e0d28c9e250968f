"""Holes: the values of a game-trace *template* left open (data only — no solver here).

A template is a game trace (``Trace(setup, events, table=True)``) in which some values are ``Hole``s instead of
values: in the setup, a seat's ``hand_count``, its message area per colour class (``area`` as a dict class ->
count or hole), ``face_up``, ``ever_face_up``, ``identity``, ``task``, ``alive``; in the events, a send's
``colours`` (its colour class), ``arrow``, ``lockable``, ``dir``, ``to``, ``locks``, ``face_up``; a play's ``actual``
card and ``target``; a use's ``target``; the ``chosen`` / ``chosen2`` players and the decisions (``choices``) of
a resolve, use or fire — per op path a table ``{"alt": …, "cls": …, "skip": …}`` whose values may be holes, or
``AUTO`` for "every decision of the effect is a hole"; a draw's ``n``. The kinds of the events, who acts, the
windows, the players the message windows name and the gives' sites are the template's *skeleton*: never holes.

The z3 side (checks/enc/game.py ``GameEncoding``) makes one solver variable per hole and, from a model, fills the
template into a concrete game trace (``fill``), which the interpreter (model/interp/game.py) runs.
"""
from __future__ import annotations

from dataclasses import dataclass

#: the types a hole may have: a seat (None: no player), an integer, a truth value, a message card's colour class
#: (model/interp/table.py CLASSES), a direction (up, left, right), an identity colour, a secret task (None: none),
#: a card type (None: none), a set of seats
TYPES = ("seat", "int", "bool", "cls", "dir", "identity", "task", "card", "seats")

#: an event's ``choices`` may be this: every decision its effect takes is a hole
AUTO = "holes"


@dataclass(frozen=True)
class Hole:
    name: str                 # unique in its template
    type: str                 # one of TYPES
    domain: tuple             # the values it may take (as a trace writes them); seats: the seats the set may hold

    def __post_init__(self):
        if self.type not in TYPES:
            raise ValueError(f"hole {self.name}: no type {self.type!r}")


def is_hole(v) -> bool:
    return isinstance(v, Hole)


def holes_of(trace) -> list:
    """Every hole of a template, in order: the setup's seat by seat, then the events'."""
    out: list = []

    def add(v):
        if isinstance(v, Hole):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                add(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                add(x)
    for s in trace.setup.seats:
        for f in ("hand_count", "face_up", "ever_face_up", "identity", "task", "alive", "area"):
            add(getattr(s, f))
    for ev in trace.events:
        for f in ("target", "actual", "chosen", "chosen2", "choices", "n", "colours", "arrow", "lockable", "dir",
                  "to", "locks", "face_up"):
            add(getattr(ev, f))
    return out
