"""The table as state: what the cards on the table are, read the way the server counts them.

A message card has one to three colours; the server's deck (card/Deck.kt) holds seven *colour classes* of
message card. A player's message area is held here exactly, as a count per class, and the five counts the
condition language reads (``red_messages`` … ``non_black_messages``, model.vocab) are read off it the way the
server counts (CountColors.kt, card/Card.kt ``count`` / ``countTrueCard``): a card counts once for each colour
it has, and is a *true* message when it has red or blue. A hand is a number of cards: which card types and
colours a hand holds is chosen when a card leaves it (a play names its type, a send its colours) — the deck is
shuffled, so any card may have been drawn.

The z3 twin is ``checks/enc/table.py`` (same names).
"""
from __future__ import annotations

#: the colour classes of message cards, and the server deck's count of each (card/Deck.kt)
CLASSES = ("black", "red", "blue", "red_black", "blue_black", "red_blue", "red_blue_black")
DECK = {"black": 42, "red": 30, "blue": 30, "red_black": 15, "blue_black": 15, "red_blue": 7, "red_blue_black": 4}
COLOURS_OF = {c: frozenset(c.split("_")) for c in CLASSES}
CLASS_OF = {v: k for k, v in COLOURS_OF.items()}
#: the class names in words (zh, en)
CLASS_WORDS = {"black": ("黑色", "black"), "red": ("红色", "red"), "blue": ("蓝色", "blue"),
               "red_black": ("红黑双色", "red-black"), "blue_black": ("蓝黑双色", "blue-black"),
               "red_blue": ("红蓝双色", "red-blue"), "red_blue_black": ("三色", "red-blue-black")}

#: the five counts of the vocabulary, as the server computes them from a message area
COUNT_FIELDS = ("red_messages", "blue_messages", "black_messages", "true_messages", "non_black_messages")


def class_of(colours) -> str | None:
    """The class of a card with these colours (None: no message card has them)."""
    return CLASS_OF.get(frozenset(colours))


#: per class, whether a card of it counts in each of the five counts (COUNT_FIELDS order)
_COUNTS_IN = {c: ("red" in col, "blue" in col, "black" in col, bool(col & {"red", "blue"}), "black" not in col)
              for c, col in COLOURS_OF.items()}


def counts(area: dict) -> dict:
    """The five counts of an area (class -> number of cards): CountColors / Iterable<Card>.count(colour) /
    countTrueCard. (One pass over the area: the interpreter reads the counts at every step.)"""
    red = blue = black = true = non_black = 0
    for c, n in area.items():
        r, b, k, t, nb = _COUNTS_IN[c]
        if r:
            red += n
        if b:
            blue += n
        if k:
            black += n
        if t:
            true += n
        if nb:
            non_black += n
    return {"red_messages": red, "blue_messages": blue, "black_messages": black, "true_messages": true,
            "non_black_messages": non_black}


def counts_are_area(five: dict, area: dict) -> bool:
    """The five counts written beside a message area are that area's — or all none (then the area alone is the
    table: a setup may write either, or both when they agree). GameRunner.setup_errors refuses a seat where not."""
    return not any(five.values()) or five == counts(area)


def area_of(seat) -> dict:
    """A seat's message area (class -> count): its ``area`` when the state holds one, else the canonical area
    with its five counts (``decompose``), else None."""
    if seat.area is not None:
        return dict(seat.area)
    return decompose({f: getattr(seat, f) for f in COUNT_FIELDS})


def decompose(five: dict) -> dict | None:
    """An area whose counts are ``five`` (the fewest cards: single colours first, then pairs), or None when no
    area has them (e.g. more red messages than true ones). Every reachable state decomposes."""
    r, b, k = five["red_messages"], five["blue_messages"], five["black_messages"]
    t, nb = five["true_messages"], five["non_black_messages"]
    if min(r, b, k, t, nb) < 0:
        return None
    # cards with no black: red, blue, red_blue (nb of them); cards with black: black, red_black, blue_black,
    # red_blue_black (k of them). Try every count of the two-coloured non-black and three-coloured cards.
    for rbk in range(0, min(r, b, k) + 1):
        for rb in range(0, min(r, b, nb) + 1):
            for rk in range(0, min(r - rb - rbk, k - rbk) + 1):
                red = r - rb - rbk - rk
                for bk in range(0, min(b - rb - rbk, k - rbk - rk) + 1):
                    blue = b - rb - rbk - bk
                    black = k - rk - bk - rbk
                    area = {"black": black, "red": red, "blue": blue, "red_black": rk, "blue_black": bk,
                            "red_blue": rb, "red_blue_black": rbk}
                    if min(area.values()) >= 0 and counts(area) == five:
                        return {c: n for c, n in area.items() if n}
    return None


def set_area(seat, area: dict) -> None:
    """Give a seat this message area, and the five counts read off it."""
    seat.area = tuple(sorted((c, n) for c, n in area.items() if n))
    for f, v in counts(area).items():
        setattr(seat, f, v)


def add_message(seat, cls: str, n: int = 1) -> None:
    """A card of class ``cls`` enters (n > 0) or leaves (n < 0) the seat's message area."""
    area = area_of(seat) or {}
    area[cls] = area.get(cls, 0) + n
    set_area(seat, area)


def would_make_three(seat, cls: str) -> bool:
    """Would a card of class ``cls`` give the seat three messages of one of the card's colours (server
    Player.checkThreeSameMessageCard: only the colours of the card that comes in count)?"""
    c = counts(area_of(seat) or {})
    col = COLOURS_OF[cls]
    return ("red" in col and c["red_messages"] + 1 >= 3 or "blue" in col and c["blue_messages"] + 1 >= 3
            or "black" in col and c["black_messages"] + 1 >= 3)


def next_alive(state, seat: int, direction: str) -> int:
    """The nearest living player on ``seat``'s left or right, the seat itself excluded — or the seat itself when
    nobody else lives, alive or not (server Player.getNextLeftAlivePlayer / getNextRightAlivePlayer walk the
    other seats and stop back at their own; left is the lower seat, as MessageMoveNext walks)."""
    n = len(state.seats)
    step = -1 if direction == "left" else 1
    i = seat
    for _ in range(n - 1):
        i = (i + step) % n
        if state.seats[i].alive:
            return i
    return seat


def from_turn(state, seats) -> list:
    """``seats`` in seat order starting at the turn player (server Game.sortedFrom(…, whoseTurn.location))."""
    n = len(state.seats)
    return sorted(seats, key=lambda s: (s - state.turn) % n)
