"""One seat of the symbolic table seen as the encoders' symbolic state: the skill decisions of a game step
(conversion, bans, receive must / cannot, the send rules in force, the draw-count fold, an ActiveSkill usable now,
a state-reading trigger) are the existing encoders' (``enc_*``), asked on a *view* — a ``SymState`` whose slots are
the seat's concrete skill list and whose attributes are the step's table values — rather than written a third
time. The encoders speak of seat 0 ("the player"): the view numbers the seats from the one it looks from
(seat ``s`` is the view's 0, ``s + 1`` its 1, …), which no rule can tell (the language has no seat numbers).

This module is the one place the game's modules take the question encoders (checks/enc/draw.py, plays.py,
receive.py, send.py, usable.py, windows.py) and the symbolic state (state.py) from — but ``enc_fires``, which the
game's trigger dispatch finds beside it in fires.py (fires.py imports this module; this one does not import it).
"""
from __future__ import annotations

import z3

from skillproof.model import vocab as V
from skillproof.model.state import Seat

from .draw import enc_draw_count  # noqa: F401
from .plays import enc_can_play, enc_card_usable  # noqa: F401
from .receive import CANNOT, FREE, MUST, enc_receive  # noqa: F401
from .send import enc_send_allowed  # noqa: F401
from .state import Codes, Ctx, Labelled, Moment, Slot, SymState, WCODE, _compile  # noqa: F401
from .usable import enc_skill_usable_now  # noqa: F401
from .windows import enc_actor_ok, enc_in_window  # noqa: F401
from .table import FIVE, HAS, SymTable, held
from .val import AND, EQ, NONE, OR, fold, is_c, z, zb
from .state import stored_seat_attr

_CODES: dict = {}


def codes_of(cat) -> Codes:
    c = _CODES.get(id(cat))
    if c is None or c[0] is not cat:
        c = _CODES[id(cat)] = (cat, Codes(cat))
    return c[1]


def wcode(window) -> int:
    return NONE if window is None else WCODE[window]


def _param_value(C: Codes, ptype: str, v):
    if ptype == "bool":
        return z(bool(v))
    if ptype == "set<card>":
        s = set(v or ())
        return {k: z(c in s) for k, c in enumerate(C.cards)}
    if ptype == "card":
        return z(C.card.get(v, NONE))
    if ptype == "colour":
        return z(C.colour.get(v, NONE))
    return z(int(v) if isinstance(v, int) else 0)


def live_kinds_of(cat, inst) -> frozenset:
    """The kinds an entry of a skill list has now: only those of its InvalidSkill shell while wrapped (note L84)."""
    return frozenset({"InvalidSkill", "Skill"}) if inst.invalid else cat.skills[inst.rule].closure


class SeatView(SymState):
    """The table of ``tab`` seen from ``seat`` (the encoders' seat 0). ``rotate=False``: seats as they are (the
    result passes and the compilation of conditions that bind their own players)."""

    def __init__(self, cat, tab: SymTable, seat: int = 0, rotate: bool = True, extra_globals: dict | None = None,
                 insts: list | None = None):
        """``insts``: the seat's skill list seen as these entries only (one copy of a skill held twice: fires)."""
        if insts is not None:
            self.__dict__["insts"] = list(insts)
        self.cat = cat
        self.codes = codes_of(cat)
        self.tab = tab
        n = tab.n
        self.n = n
        self.base = seat if rotate else 0
        self.order = [(self.base + i) % n for i in range(n)]
        self.p = f"v{id(self)}_"
        self.extra_globals = dict(extra_globals or {})
        self.T = 1
        self.P = 0
        self.G = 0
        self.plays = []
        self.unknowns = {}
        self._terms = {}
        self.extra = []

    def __getattr__(self, name):
        """The view's attributes are made when an encoder first reads them (most read a few)."""
        make = _LAZY.get(name)
        if make is None:
            raise AttributeError(name)
        v = make(self)
        self.__dict__[name] = v
        return v

    # -------------------------------------------------------------------------------- seats and slots
    def rot(self, seat):
        """A seat value of the table as the view numbers it."""
        if seat is None:
            return NONE
        n = self.n
        if is_c(seat):
            return NONE if seat == NONE else (seat - self.base) % n
        if self.base == 0:
            return seat
        return z3.If(seat == NONE, NONE, z3.If(seat >= self.base, seat - self.base, seat + (n - self.base)))

    def real(self, s: int) -> int:
        return self.order[s]

    def _slot(self, i: int, inst) -> Slot:
        C = self.codes
        r = self.cat.skills[inst.rule]
        params = {p: _param_value(C, t, inst.args.get(p)) for p, t in r.params.items()}
        used = bool(inst.used) if is_c(inst.used) else inst.used     # a term: which copy fired is the table's (fires)
        # present: a consumed copy of a skill held twice may be gone under a condition (table.SymSkillInst)
        return Slot(i, not r.is_grant, z(held(inst)), z(C.rule[inst.rule]), (inst.rule,), z(used), params)

    def rule_is(self, slot: Slot, rid: str):
        inst = self.insts[slot.index]
        return z(AND(inst.rule == rid, held(inst)))

    def wrapped(self, slot: Slot):
        return z3.BoolVal(bool(self.insts[slot.index].invalid))

    def invalid(self, slot: Slot, seat: int = 0):
        return z3.BoolVal(bool(self.insts[slot.index].invalid))

    def live_rule(self, slot: Slot, rid: str, kind: str):
        inst = self.insts[slot.index]
        return z(AND(inst.rule == rid and kind in live_kinds_of(self.cat, inst), held(inst)))

    def live(self, slot: Slot, kind: str):
        inst = self.insts[slot.index]
        return z(AND(kind in live_kinds_of(self.cat, inst), held(inst)))

    def owner_at(self, t):
        return self.turn

    def sender_of_turn(self, t):
        return self.turn_sender

    def unknown(self, key: str, kind: str = "bool"):
        return z3.BoolVal(bool(self.tab.unknowns.get(key, False)))

    def globals_(self) -> dict:
        g = {"message": dict(enumerate(self.msg[c] for c in V.COLOURS)), "message_dir": self.message_dir,
             "message_lockable": self.lockable}
        g.update(self.extra_globals)
        return g

    def seat_attr(self, s: int, name: str, ctx: Ctx):
        """Twin of interp.core.player_attr, on the step's table."""
        if name == "my_turn" and ctx.turn is not None:
            return z3.BoolVal(ctx.turn == s) if isinstance(ctx.turn, int) else ctx.turn == s
        seat = self.tab.seats[self.real(s)]
        ch = self.cat.characters.get(seat.character)
        stored = stored_seat_attr(self, s, name)
        if stored is not None:
            return stored
        if name == "hidden":
            return z3.BoolVal(bool(ch and ch.hidden))
        if name == "female":
            return self.face_up[s] if ch is not None and ch.female else z3.BoolVal(False)
        if name == "male":
            return self.face_up[s] if not (ch is not None and ch.female) else z3.BoolVal(False)
        if name == "my_turn":
            return self.turn == s
        if name == "is_sender":
            return self.sender == s
        if name == "in_front":
            return self.in_front == s
        if name == "dying":
            return self.dying == s
        if name == "played":
            return {self.codes.card[c]: z3.BoolVal(True) for c in seat.played if c in self.codes.card}
        if name == "in_winners":
            return ctx.winners[s] if ctx.winners else z3.BoolVal(False)
        if name == "in_declared":
            return ctx.declared[s] if ctx.declared else z3.BoolVal(False)
        raise ValueError(f"no attribute {name}")


def _seats(v):
    return [v.tab.seats[r] for r in v.order]


def _ints(v):
    seats = _seats(v)
    out = {"hand_count": [z(s.hand) for s in seats]}
    for f in FIVE:
        out[f] = [z(s.count(f)) for s in seats]
    return out


def _msg(v):
    m = v.tab.message
    return {c: (zb(_has(m, c)) if c in V.MESSAGE_COLOURS else z3.BoolVal(False)) for c in V.COLOURS}


_LAZY = {
    "cards": lambda v: {v.codes.card[c]: card for c, card in v.cat.cards.items()},
    "present": lambda v: [z3.BoolVal(True)] * v.n,
    "alive": lambda v: [zb(s.alive) for s in _seats(v)],
    "face_up": lambda v: [zb(s.face_up) for s in _seats(v)],
    "ever": lambda v: [zb(s.ever) for s in _seats(v)],
    "locked": lambda v: [zb(s.locked) for s in _seats(v)],
    "ident": lambda v: [z(s.identity) for s in _seats(v)],
    "char": lambda v: [z(v.codes.char.get(s.character, NONE)) for s in _seats(v)],
    "ints": _ints,
    "inv": lambda v: [zb(bool(s.invalidated)) for s in _seats(v)],
    "turn": lambda v: z(v.rot(v.tab.turn)),
    "sender": lambda v: z(v.rot(v.tab.sender)),
    "in_front": lambda v: z(v.rot(v.tab.in_front)),
    "dying": lambda v: z(v.rot(v.tab.dying)),
    "turn_sender": lambda v: z(v.rot(v.tab.sender_of_turn())),
    "msg": _msg,
    "message_dir": lambda v: z(v.tab.message_dir),
    "lockable": lambda v: zb(v.tab.lockable),
    "now": lambda v: z(wcode(v.tab.window)),
    "intr": lambda v: z(wcode(v.tab.interrupted)),
    "q": lambda v: Moment("now", z3.BoolVal(True), z(0), z(0), v.now, v.intr, v.in_front, v.dying),
    "chars_me": lambda v: list(v.cat.characters),
    "chars_other": lambda v: list(v.cat.characters),
    "insts": lambda v: list(v.tab.seats[v.order[0]].skills),
    "slots": lambda v: [v._slot(i, inst) for i, inst in enumerate(v.insts)],
    "L": lambda v: len(v.insts),
}


def _has(m, colour: str):
    """The message (a class code value) has ``colour``."""
    ks = HAS[colour]
    if is_c(m):
        return m in ks
    from .val import OR
    return OR([EQ(m, k) for k in ks])


def inst_params(cat, inst) -> dict:
    C = codes_of(cat)
    r = cat.skills[inst.rule]
    return {p: _param_value(C, t, inst.args.get(p)) for p, t in r.params.items()}


def ask(term):
    """An encoder's term, folded (a constant when the step is ground)."""
    return fold(term)


#: what the game's modules take from here: the view, and the encoders they ask on it (re-exported)
__all__ = ["SeatView", "ask", "codes_of", "wcode", "inst_params", "live_kinds_of", "Labelled", "Ctx", "_compile",
           "enc_actor_ok", "enc_can_play", "enc_card_usable", "enc_draw_count", "enc_in_window",
           "enc_receive", "enc_send_allowed", "enc_skill_usable_now", "FREE", "MUST", "CANNOT"]

