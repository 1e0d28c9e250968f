"""The table as symbolic state: twin of ``model/interp/table.py``.

A seat's message area is a count per colour class (seven values, ``CLASSES`` order); the five counts the
condition language reads are sums over the classes that have a colour (server CountColors.kt, card/Card.kt
``count`` / ``countTrueCard``: a card counts once for each colour it has; a *true* message has red or blue). A hand
is a count. Each value is a constant or a z3 term (checks/enc/val.py); the skill lists, the window and who sits
where are the skeleton's and stay concrete.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from skillproof.model.interp.table import CLASSES          # the vocabulary of colour classes (data), shared
from skillproof.model.state import SkillInst, fast_replace

from .val import ADD, AND, EQ, GE, ITE, NONE, NOT, OR, SUM, is_c, pick

K = len(CLASSES)


@dataclass
class SymSkillInst(SkillInst):
    """An entry of a seat's skill list in the twin, ``gone`` under a condition. A consumed skill leaves its holder's
    list once used (interp GameRunner.on_use: ``consumed``, the server's ``filterNot``); of a skill held twice, which
    copy a ``use`` takes is the first one not used yet — a condition of the template's holes once a ``fire`` marked a
    copy under its guard (enc.fires.enc_fire_ok). The list itself is the skeleton's and stays concrete, so that copy
    stays in it, ``gone`` when its condition holds: it is no longer held, asked or usable (``held``)."""
    gone: object = field(default=False, compare=False)


def held(inst):
    """The condition that the skill-list entry is still held (not a consumed copy gone: ``SymSkillInst``)."""
    return NOT(getattr(inst, "gone", False))


def gone_under(inst, c) -> SymSkillInst:
    """The entry, gone when ``c`` holds (as well as where it was gone already)."""
    return SymSkillInst(**{f.name: getattr(inst, f.name) for f in fields(SkillInst)},
                        gone=OR(getattr(inst, "gone", False), c))

CODE = {c: i for i, c in enumerate(CLASSES)}
#: per colour, the class codes that carry it (a class is its colours joined by "_")
HAS = {col: tuple(i for i, c in enumerate(CLASSES) if col in c.split("_")) for col in ("red", "blue", "black")}
TRUE = tuple(sorted(set(HAS["red"]) | set(HAS["blue"])))
NON_BLACK = tuple(i for i in range(K) if i not in HAS["black"])
FIVE = ("red_messages", "blue_messages", "black_messages", "true_messages", "non_black_messages")


_IDX = {"red_messages": HAS["red"], "blue_messages": HAS["blue"], "black_messages": HAS["black"],
        "true_messages": TRUE, "non_black_messages": NON_BLACK}


def enc_class_of(colours) -> int:
    """Twin of table.class_of for a concrete list of colours: its class code, or NONE when no card has them."""
    cs = set(colours or ())
    for i, c in enumerate(CLASSES):
        if set(c.split("_")) == cs and len(cs) == len(c.split("_")):
            return i
    return NONE


def colours_of_code(k: int) -> list:
    return sorted(CLASSES[k].split("_")) if 0 <= k < K else []


def enc_counts(area: list) -> dict:
    """Twin of table.counts: the five counts of an area (a value per class code)."""
    return {"red_messages": SUM(area[i] for i in HAS["red"]), "blue_messages": SUM(area[i] for i in HAS["blue"]),
            "black_messages": SUM(area[i] for i in HAS["black"]), "true_messages": SUM(area[i] for i in TRUE),
            "non_black_messages": SUM(area[i] for i in NON_BLACK)}


def enc_counts_are_area(five: dict, area: list):
    """Twin of table.counts_are_area: the five counts written beside an area (values, FIVE keys) are all none or
    that area's (a value per class code, constants or terms)."""
    none = AND([EQ(five[f], 0) for f in FIVE])
    if none is True:                              # none written (the realiser's open areas): no term is built
        return True
    got = enc_counts(area)
    return OR(none, AND([EQ(five[f], got[f]) for f in FIVE]))


def enc_has_colour(cls, col: str):
    """A card of class ``cls`` (a code value) has colour ``col``."""
    if is_c(cls):
        return cls in HAS[col]
    return OR([EQ(cls, i) for i in HAS[col]])


def enc_decompose(five: dict) -> list | None:
    """Twin of table.decompose for concrete counts: the fewest-cards area with these counts, as the interpreter
    reads an area it was not given (three-coloured cards fewest, then red-blue, red-black, blue-black, each as few
    as can be), or None. Searched over the counts of the cards with two or three colours."""
    r, b, k = five["red_messages"], five["blue_messages"], five["black_messages"]
    t, nb = five["true_messages"], five["non_black_messages"]
    if min(r, b, k, t, nb) < 0:
        return None
    for rbk in range(min(r, b, k) + 1):
        for rb in range(min(r, b, nb) + 1):
            for rk in range(min(r - rb - rbk, k - rbk) + 1):
                for bk in range(min(b - rb - rbk, k - rbk - rk) + 1):
                    area = [0] * K
                    area[CODE["red_blue_black"]], area[CODE["red_blue"]] = rbk, rb
                    area[CODE["red_black"]], area[CODE["blue_black"]] = rk, bk
                    area[CODE["red"]] = r - rb - rbk - rk
                    area[CODE["blue"]] = b - rb - rbk - bk
                    area[CODE["black"]] = k - rk - bk - rbk
                    if min(area) >= 0 and enc_counts(area) == five:
                        return area
    return None


@dataclass
class SymSeat:
    """One seat: its character and skill list (concrete), its table values (constants or terms)."""
    character: str
    skills: list                      # of SkillInst (concrete: the skeleton decides them)
    hand: object
    area: list                        # value per class code
    face_up: object
    ever: object
    alive: object
    lost: object
    locked: object
    identity: object                  # V.COLOURS code
    task: object                      # win.TASKS code, NONE: none
    invalidated: bool = False
    played: frozenset = frozenset()
    _sums: dict = field(default_factory=dict, repr=False, compare=False)    # count's last sums

    def copy(self) -> "SymSeat":
        return fast_replace(self, skills=[fast_replace(k, args=dict(k.args)) for k in self.skills],
                            area=list(self.area), _sums=dict(self._sums))

    def count(self, f: str):
        """One of the five counts (FIVE) of this seat's area (the last sum kept while the area's values it adds are
        the very same: the win and dying checks read the counts at every step)."""
        parts = [self.area[i] for i in _IDX[f]]
        memo = self._sums.get(f)
        if memo is not None and all(a is b for a, b in zip(memo[0], parts)):
            return memo[1]
        v = SUM(parts)
        self._sums[f] = (parts, v)
        return v

    def in_game(self):
        """Not out of the game (lost)."""
        return ITE(self.lost, False, True)


@dataclass
class SymTable:
    """The state of a game trace at one step (twin of model.state.State as model/interp/game.py moves it)."""
    seats: list
    turn: int = 0
    window: str | None = None
    interrupted: str | None = None
    sender: int | None = None
    dying: int | None = None
    turn_sender: int | None = None
    in_front: object = NONE           # a seat value, NONE: nobody
    message: object = NONE            # the travelling message's class code, NONE: none
    message_dir: object = NONE        # its arrow (direction code)
    lockable: object = False
    dir_sent: object = NONE           # the direction it was sent in (direction code), NONE: not sent
    message_face_up: object = False
    message_sent: bool = False
    message_received: bool = False
    ended: object = False             # the game is over (winners set)
    declared: list = field(default_factory=list)
    winners: list = field(default_factory=list)
    unknowns: dict = field(default_factory=dict)

    def copy(self) -> "SymTable":
        return fast_replace(self, seats=[s.copy() for s in self.seats], declared=list(self.declared),
                            winners=list(self.winners))

    @property
    def n(self) -> int:
        return len(self.seats)

    def sender_of_turn(self) -> int:
        """Twin of State.sender_of_turn."""
        if self.turn_sender is not None:
            return self.turn_sender
        return self.sender if self.sender is not None else self.turn

    def at(self, seat, get, default=None):
        """``get(seats[seat])`` for a (maybe symbolic) seat value; NONE / out of range: ``default``."""
        if is_c(seat):
            return get(self.seats[seat]) if 0 <= seat < self.n else default
        return pick(seat, [get(s) for s in self.seats], default)

    def update(self, seat, attr: str, value_of, when=True) -> None:
        """Set ``attr`` of the seat ``seat`` (a maybe symbolic seat value) to ``value_of(old)`` where ``when`` holds."""
        for i, s in enumerate(self.seats):
            c = AND(when, EQ(seat, i))
            if c is False:
                continue
            old = getattr(s, attr)
            setattr(s, attr, ITE(c, value_of(old), old))

    def update_area(self, seat, cls, delta, when=True) -> None:
        """Twin of table.add_message: a card of class ``cls`` (a maybe symbolic code) enters (delta > 0) or leaves
        the area of ``seat``."""
        for i, s in enumerate(self.seats):
            c = AND(when, EQ(seat, i))
            if c is False:
                continue
            for k in range(K):
                ck = AND(c, EQ(cls, k))
                if ck is False:
                    continue
                s.area[k] = ITE(ck, ADD(s.area[k], delta), s.area[k])


def enc_would_make_three(seat: SymSeat, cls):
    """Twin of table.would_make_three: a card of class ``cls`` coming in would give the seat three messages of one
    of the card's own colours (Player.checkThreeSameMessageCard)."""
    return OR([AND(enc_has_colour(cls, col), GE(ADD(seat.count(f"{col}_messages"), 1), 3))
               for col in ("red", "blue", "black")])


def enc_next_alive(tab: SymTable, seat, direction: str):
    """Twin of table.next_alive: the nearest living player on ``seat``'s left (lower seat) or right, the seat itself
    excluded; the seat itself when nobody else lives (Player.getNextLeftAlivePlayer / getNextRightAlivePlayer).
    ``seat`` may be symbolic (NONE when it is no seat)."""
    n = tab.n
    step = -1 if direction == "left" else 1

    def from_(s0: int):
        out = s0                                 # nobody else alive: the walk stops back at the seat itself
        for d in range(n - 1, 0, -1):            # the nearest wins: built from the farthest in
            j = (s0 + step * d) % n
            out = ITE(tab.seats[j].alive, j, out)
        return out
    if is_c(seat):
        return from_(seat) if 0 <= seat < n else NONE
    return pick(seat, [from_(s) for s in range(n)], NONE)


def order_from(tab: SymTable, start: int) -> list:
    """Twin of table.from_turn: the seats in seat order from ``start``."""
    n = tab.n
    return [(start + d) % n for d in range(n)]


def new_seat(character: str, skills: list, hand, area, face_up, ever, alive, identity, task, lost=False,
             locked=False) -> SymSeat:
    return SymSeat(character, [SkillInst(i.rule, dict(i.args), i.invalid, i.used, i.giver, i.site, i.turns_ago, i.at)
                               for i in skills], hand, list(area), face_up, ever, alive, lost, locked, identity, task)


__all__ = ["CLASSES", "CODE", "FIVE", "K", "SymSeat", "SymTable", "enc_class_of", "enc_counts", "enc_counts_are_area",
           "enc_decompose",
           "enc_has_colour", "enc_next_alive", "enc_would_make_three", "order_from", "new_seat", "colours_of_code"]
