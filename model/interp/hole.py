"""Holes: the values of a game trace a search leaves open (``checks/realise.py`` fills them with the z3 twin).

A *template* is a game trace (model/interp/game.py) some of whose values are ``Hole``s: a seat's hand size or
message area at the start, a message card's colours, the physical card a player plays, an effect's decision. The
interpreter cannot run a template; the z3 twin (``checks/enc/game.py``) makes each hole a variable of its domain
and says which values make the game legal. Data only: nothing here knows about z3.
"""
from __future__ import annotations

from dataclasses import dataclass

#: hole types and what their values are
TYPES = {"int": "a small non-negative integer (``domain``: (lo, hi))", "bool": "true or false",
         "seat": "a seat number", "class": "a colour class of message card (model/interp/table.py CLASSES)",
         "dir": "up, left or right", "card": "a card id", "identity": "red, blue, black or none",
         "task": "a secret task or None", "alt": "an alternative of a choose op (``domain``: how many)"}


@dataclass(frozen=True)
class Hole:
    name: str                 # unique within a template
    type: str                 # a key of TYPES
    domain: tuple = ()        # the values it may take (empty: every value of its type)

    def __repr__(self) -> str:
        return f"?{self.name}"


def is_hole(v) -> bool:
    return isinstance(v, Hole)
