"""One order for statements whose order decides nothing, in the clauses the engine readers write (``wins``): two
appends to *different* collections of players (``declare += killer`` beside ``win += killer``) stand in one order,
whichever the code writes first — neither reads what the other writes, so the two orders decide the same winners.

Only adjacent clauses move, and only past each other: an append to the same collection, a removal from it, a
replacement (``win := …``), the end of the game or a pass stays where it is, and so does an append whose player or
condition reads either collection (``if declaredWinner.isNotEmpty()``) — there the order is a rule. The result is a
stable sort by collection within each run of movable clauses: the order of the appends to one collection is kept.
"""
from __future__ import annotations

import re

#: an append to or a removal from the declared winners or the winners, with its condition
_APPEND = re.compile(r"(declare|win) (\+=|-=) (.*?)(?: if (.*))?\Z", re.S)
#: the names under which the server's code reads the two collections (``declaredWinner``, ``winners``)
_READS = re.compile(r"declare\w*|winners?\b|winner\w*", re.I)


def _movable(clause: str):
    """(collection, op) of an append whose player and condition read neither collection; None otherwise."""
    m = _APPEND.match(clause)
    if m is None:
        return None
    if _READS.search(m.group(3)) or (m.group(4) and _READS.search(m.group(4))):
        return None
    return m.group(1), m.group(2)


def commute_appends(clauses: list) -> list:
    """``clauses`` with each run of adjacent movable appends (see the module) sorted by collection, stably."""
    out: list = []
    run: list = []

    def flush():
        # appends and removals of one collection keep their order; different collections commute
        if len({c for c, _op, _x in run}) > 1:
            run.sort(key=lambda t: t[0])
        out.extend(x for _c, _op, x in run)
        run.clear()

    for c in clauses:
        mv = _movable(c) if isinstance(c, str) else None
        if mv is None:
            flush()
            out.append(c)
        else:
            run.append((mv[0], mv[1], c))
    flush()
    return out
