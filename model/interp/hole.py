"""Holes: the values of a game trace a search leaves open (``checks/realise.py`` fills them with the z3 twin).

A *template* is a game trace (model/interp/game.py) some of whose values are ``Hole``s: a seat's hand size or
message area at the start, a message card's colours, the physical card a player plays, an effect's decision. The
interpreter cannot run a template; the z3 twin (``checks/enc/game.py``) makes each hole a variable of its domain
and says which values make the game legal. Data only: nothing here knows about z3.

Where a template may leave a value open: in the setup, a seat's ``hand_count``, its message area per colour class
(``area`` as class -> count pairs or a dict, each count a value or a hole), ``face_up``, ``ever_face_up``,
``identity``, ``task``, ``alive``; in the events, a send's ``colours`` (its colour class), ``arrow``, ``lockable``,
``dir``, ``to``, ``locks`` (a set of seats), ``face_up``; a play's ``actual`` card and ``target``; a use's
``target``; the ``chosen`` / ``chosen2`` players and the decisions (``choices``) of a resolve, use or fire — per op
path a table ``{"alt": …, "cls": …, "skip": …}`` whose values may be holes, or ``AUTO`` for "every decision of the
effect is a hole"; a draw's ``n``. The kinds of the events, who acts, the windows, the players the message windows
name and the gives' sites are the template's *skeleton*: never holes.
"""
from __future__ import annotations

from dataclasses import dataclass

#: hole types and what their values are
TYPES = {"int": "a small non-negative integer (``domain``: (lo, hi))", "bool": "true or false",
         "seat": "a seat number", "class": "a colour class of message card (model/interp/table.py CLASSES)",
         "dir": "up, left or right", "card": "a card id", "identity": "red, blue, black or none",
         "task": "a secret task or None", "alt": "an alternative of a choose op (``domain``: how many)",
         "seats": "a set of seats, e.g. the players a message locks (``domain``: the seats it may hold)"}

#: an event's ``choices`` may be this: every decision its effect takes is a hole
AUTO = "holes"


@dataclass(frozen=True)
class Hole:
    name: str                 # unique within a template
    type: str                 # a key of TYPES
    domain: tuple = ()        # the values it may take (empty: every value of its type)

    def __repr__(self) -> str:
        return f"?{self.name}"


def is_hole(v) -> bool:
    return isinstance(v, Hole)


def values(h: Hole, n: int, cards, classes, tasks) -> tuple:
    """Every value hole ``h`` may take, as a trace writes it, at a table of ``n`` seats (``cards``: the catalogue's
    card ids; ``classes`` / ``tasks``: the colour classes and secret tasks). ``int``: ``domain`` is (lo, hi), both
    included; ``alt``: the alternatives' indices, or how many there are; an empty domain: every value of the type
    (a seat: a seat number; an int: 0 to 20; a task and a card: None too)."""
    d = tuple(h.domain)
    t = h.type
    if t == "int":
        lo, hi = (d[0], d[1]) if len(d) == 2 else (min(d), max(d)) if d else (0, 20)
        return tuple(range(lo, hi + 1))
    if t == "alt":
        if len(d) == 1 and isinstance(d[0], int):
            return tuple(range(d[0]))
        return d or tuple(range(8))
    if d:
        return d
    return {"bool": (True, False), "seat": tuple(range(n)), "class": tuple(classes), "dir": ("up", "left", "right"),
            "card": (None,) + tuple(cards), "identity": ("red", "blue", "black", "none"),
            "task": (None,) + tuple(tasks), "seats": tuple(range(n))}[t]


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
