"""What effects do to the table, symbolically: twin of ``model/interp/ops.py`` (each op as the server does it:
model/effects.py ``OPS``).

An effect is done op by op under a *path condition* (``SymDoing.pc``): an op's ``if``, a declined ``may``, the
alternative ``choose`` took are conditions here, not branches, so every write to the table is guarded by the
condition under which the interpreter would have made it, and every failure is recorded with the condition under
which it happens. Decisions are read through ``decide(path, key)`` (the template's choices: constants, or holes).
An amount that is an expression is a value; a repeated op (``n`` cards) is unrolled to ``REPEAT_CAP`` copies when
its count is not a constant (a template hole reaches it), with the count bounded there (a labelled constraint).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from skillproof.model.effects import EACH, INTO_HAND, IT, bindings, op_player_args, place_of, static_n, walk

from .table import CLASSES, HAS, K, SymTable, enc_has_colour, enc_next_alive, enc_would_make_three
from .val import ADD, AND, EQ, GE, GT, ITE, LT, MAX, MIN, NE, NONE, NOT, OR, SUB, is_c, pick
from .cond import class_set, compile_defined
from .view import codes_of

REPEAT_CAP = 6
DIR_CODE = {"up": 0, "left": 1, "right": 2}

#: the classes each colour filter admits (written from the colours, as model/effects.py COLOUR_FILTERS says)
_COLS = {i: set(c.split("_")) for i, c in enumerate(CLASSES)}
FILTER_CODES = {
    "black": tuple(i for i in range(K) if "black" in _COLS[i]),
    "pure_black": tuple(i for i in range(K) if _COLS[i] == {"black"}),
    "non_black": tuple(i for i in range(K) if "black" not in _COLS[i]),
    "red": tuple(i for i in range(K) if "red" in _COLS[i]),
    "blue": tuple(i for i in range(K) if "blue" in _COLS[i]),
    "red_or_blue": tuple(i for i in range(K) if _COLS[i] & {"red", "blue"}),
    "two_colours": tuple(i for i in range(K) if len(_COLS[i]) > 1),
}


def valid_class(cls):
    if is_c(cls):
        return 0 <= cls < K
    return AND(GE(cls, 0), LT(cls, K))


def enc_admits(tab: SymTable, colour, cls):
    """Twin of ops.admits: the colour filter admits a card of class ``cls`` (``shares_message`` /
    ``outside_message`` read the travelling message)."""
    if colour in (None, "any"):
        return valid_class(cls)
    if colour == "shares_message":
        return OR([AND(enc_has_colour(cls, c), enc_has_colour(tab.message, c)) for c in ("red", "blue", "black")])
    if colour == "outside_message":
        return OR([AND(enc_has_colour(cls, c), NOT(enc_has_colour(tab.message, c))) for c in ("red", "blue", "black")])
    codes = FILTER_CODES.get(colour, ())
    if is_c(cls):
        return cls in codes
    return OR([EQ(cls, k) for k in codes])


@dataclass
class SymDoing:
    """One effect being done (twin of ops.Doing)."""
    cat: object
    tab: SymTable
    actor: int
    roles: dict                       # player word -> seat value (NONE: not there)
    decide: object                    # (path, key) -> value
    words: dict = field(default_factory=dict)
    pc: object = True
    raised: list = field(default_factory=list)       # (present, kind, roles)
    errors: list = field(default_factory=list)       # (label, condition under which it fails)
    cancelled: object = False
    ends_turn: object = False
    sent: tuple | None = None         # (present, fields) of the last send_message done
    killed: list = field(default_factory=list)       # (seat value, condition)
    bounds: list = field(default_factory=list)       # (label, condition): a repeated op's count within REPEAT_CAP
    done: list = field(default_factory=list)         # (condition, entry): the ops done (enc_done_entry)
    grants: list = field(default_factory=list)       # (condition, grant id, to, the seat it names) of the grant ops done
    path: str = ""
    by_skill: bool = False            # the effect is a skill's (AddMessageCardEvent.bySkill)
    params: dict = field(default_factory=dict)       # twin of Doing.params (cond.params_of values)

    def fail(self, label: str, cond=True) -> None:
        c = AND(self.pc, cond)
        if c is not False:
            self.errors.append((label, c))

    # ---------------------------------------------------------------------------------- players
    def seat_of(self, word):
        """Twin of Doing.seat_of: a seat value, NONE where the word names nobody."""
        if word is None:
            return NONE
        if word in self.roles:
            return self.roles[word]
        for side in ("_left", "_right"):
            if isinstance(word, str) and word.endswith(side):
                base = self.roles.get(word[:-len(side)], NONE)
                if is_c(base) and base == NONE:
                    return NONE
                return ITE(EQ(base, NONE), NONE, enc_next_alive(self.tab, base, side[1:]))
        return NONE

    def seats_of(self, word) -> list:
        """Twin of Doing.seats_of: [(seat value, condition)]; ``all`` / ``others``: the living players in the game
        from the actor on."""
        n = self.tab.n
        if word in ("all", "others"):
            out = []
            for i in range(n):
                s = (self.actor + i) % n
                if word == "others" and s == self.actor:
                    continue
                seat = self.tab.seats[s]
                out.append((s, AND(seat.alive, NOT(seat.lost))))
            return out
        s = self.seat_of(word)
        if is_c(s) and s == NONE:
            return []
        return [(s, NE(s, NONE))]

    def _read(self, node, extra: dict | None = None):
        players = {k: v for k, v in self.roles.items()}
        players.setdefault("self", self.actor)
        return compile_defined(self.cat, codes_of(self.cat), self.tab, node, players, self.params, False,
                               {**self.words, **(extra or {})})

    def amount(self, v):
        """Twin of Doing.amount: an integer, or an expression's value (at least 0); unreadable: a failure, 0."""
        if isinstance(v, int):
            return v
        value, defined = self._read(v)
        self.fail("an effect's amount can be read", NOT(defined))
        return ITE(defined, MAX(0, value), 0)

    def holds(self, cond):
        """Twin of Doing.holds."""
        if cond is None:
            return True
        value, defined = self._read(cond)
        self.fail("an effect's condition can be read", NOT(defined))
        return AND(defined, value)

    def under(self, cond):
        """Run the next writes under ``cond`` too: returns the old path condition (restore with ``self.pc = old``)."""
        old = self.pc
        self.pc = AND(old, cond)
        return old

    def decision(self, key: str, default):
        return self.decide(self.path, key, default)

    def raise_(self, kind: str, roles: dict, when=True, words: dict | None = None) -> None:
        c = AND(self.pc, when)
        if c is not False:
            self.raised.append((c, kind, dict(roles), dict(words or {})))


def enc_run_ops(d: SymDoing, ops, prefix: str = "") -> None:
    """Twin of ops.run_ops."""
    if not prefix:
        for name, typ in bindings(ops).items():
            d.words.setdefault(name, class_set(NONE) if typ.startswith("set<") else 0)
    for i, op in enumerate(ops):
        d.path = f"{prefix}{i}"
        h = d.holds(op.cond)
        if op.may:
            h = AND(h, NOT(d.decision("skip", False)))
        if h is False:
            continue
        fn = OP_FUNCS.get(op.op)
        if fn is None:
            continue
        old = d.under(h)
        if d.pc is not False:
            d.done.append((d.pc, enc_done_entry(d, op)))
            fn(d, op)
        d.pc = old


def enc_done_entry(d: SymDoing, op) -> dict:
    """Twin of ops.done_entry: an op done (under the path condition it is recorded with), its player arguments as
    [(seat value, condition)] (``SymDoing.seats_of``), and the dying player of the moment (the template's)."""
    seats = {name: d.seats_of(op.args.get(name, default)) for name, default in op_player_args(op)
             if op.args.get(name, default) is not None}
    only = op.args.get("card")
    return {"op": op.op, "path": d.path, "seats": seats, "face": op.args.get("face"), "grant": op.args.get("grant"),
            "colour": op.args.get("colour"), "cards": (only,) if isinstance(only, str) else tuple(only or ()),
            "place": place_of(op), "dying": d.tab.dying, "n": static_n(op)}


def enc_into_hand_entry(d: SymDoing, by) -> dict:
    """Twin of ops.into_hand_entry: the card a ``three = to_hand`` op puts into ``by``'s hand instead (recorded under
    the condition that it does)."""
    return {"op": INTO_HAND, "path": d.path, "seats": {"who": [(by, True)]}, "face": None, "grant": None,
            "colour": None, "cards": (), "place": None, "dying": d.tab.dying, "n": 1}


def _n(d: SymDoing, op):
    """Twin of ops._n: the amount, or with ``up_to`` the decision ``n`` between the two."""
    lo = d.amount(op.args.get("n", 1))
    if op.args.get("up_to") is None:
        return lo
    hi = d.amount(op.args["up_to"])
    k = d.decision("n", lo)
    bad = OR(LT(k, lo), GT(k, hi))
    d.fail("the number picked is within its bounds", bad)
    return ITE(bad, lo, k)


def _bind(d: SymDoing, op, value, when=True) -> None:
    """Twin of ops._bind: ``as`` names what the op moved (where it is done: the path condition and ``when``)."""
    name = op.args.get("as")
    if not isinstance(name, str):
        return
    c = AND(d.pc, when)
    if c is False:
        return
    old = d.words.get(name)
    if isinstance(value, dict):
        old = old if isinstance(old, dict) else class_set(NONE)
        d.words[name] = {k: ITE(c, value.get(k, False), old.get(k, False)) for k in sorted(set(value) | set(old))}
    else:
        d.words[name] = ITE(c, value, 0 if old is None else old)


def _times(d: SymDoing, n, label: str) -> list:
    """The iterations of ``for _ in range(n)`` as conditions (a constant count: exactly; else up to REPEAT_CAP)."""
    if is_c(n):
        return [True] * max(0, n)
    d.bounds.append((label, OR(NOT(d.pc), n <= REPEAT_CAP)))
    return [LT(i, n) for i in range(REPEAT_CAP)]


def op_draw(d: SymDoing, op) -> None:
    """Player.draw(n) (twin of ops.op_draw: whatever ``from`` says, the hand grows alike)."""
    for s, g in d.seats_of(op.args.get("who", "self")):
        k = _n(d, op)
        d.tab.update(s, "hand", lambda h: ADD(h, k), AND(d.pc, g))


def op_discard(d: SymDoing, op) -> None:
    """Game.playerDiscardCard (DiscardCardEvent); ``as``: the number discarded."""
    total = 0
    for s, g in d.seats_of(op.args.get("who", "self")):
        hand = d.tab.at(s, lambda x: x.hand, 0)
        k = hand if op.args.get("which") == "all" else MIN(_n(d, op), hand)
        d.tab.update(s, "hand", lambda h: SUB(h, k), AND(d.pc, g))
        d.raise_("discard", {"discarder": s}, AND(g, NE(k, 0)))
        total = ADD(total, ITE(g, k, 0))
    _bind(d, op, total)


def _move_cards(d: SymDoing, frm, to, n, g=True):
    """Twin of ops._move_cards; returns the number moved (0 where it is not done)."""
    bad = OR(EQ(frm, NONE), EQ(to, NONE))
    d.fail("a player of the give is there", AND(g, bad))
    ok = AND(d.pc, g, NOT(bad))
    if ok is False:
        return 0
    k = MIN(n, d.tab.at(frm, lambda x: x.hand, 0))
    d.tab.update(frm, "hand", lambda h: SUB(h, k), ok)
    d.tab.update(to, "hand", lambda h: ADD(h, k), ok)
    d.raise_("give_card", {"giver": frm, "taker": to}, AND(g, NOT(bad), NE(k, 0)))
    return ITE(AND(g, NOT(bad)), k, 0)


def op_give(d: SymDoing, op) -> None:
    """A card moves from one hand to another (GiveCardEvent); ``as``: the number given."""
    total = 0
    for to, g in d.seats_of(op.args.get("to")):
        total = ADD(total, _move_cards(d, d.seat_of(op.args.get("from", "self")), to, _n(d, op), g))
    _bind(d, op, total)


def op_take(d: SymDoing, op) -> None:
    """A card moves from another player's hand into the actor's (or ``to``'s); ``as``: the number taken."""
    total = 0
    for frm, g in d.seats_of(op.args.get("from")):
        total = ADD(total, _move_cards(d, frm, d.seat_of(op.args.get("to", "self")), _n(d, op), g))
    _bind(d, op, total)


def op_show(d: SymDoing, op) -> None:
    """Shown cards change nothing on the table."""


def _cls(d: SymDoing, op, g=True):
    """Twin of ops._cls: the decision's class, and the condition that it is one the op allows (else a failure)."""
    cls = d.decision("cls", NONE)
    valid = valid_class(cls)
    d.fail("the event says which colours the card has", AND(g, NOT(valid)))
    adm = enc_admits(d.tab, op.args.get("colour"), cls)
    d.fail("a card of these colours is allowed", AND(g, valid, NOT(adm)))
    ok = _where_ok(d, op, cls, AND(g, valid, adm))
    return cls, AND(valid, adm, ok)


def _where_ok(d: SymDoing, op, cls, g=True):
    """Twin of ops._where_ok: the condition ``where`` on the card (its colours as ``it``), a failure where it does
    not hold (or cannot be read)."""
    where = op.args.get("where")
    if where is None:
        return True
    value, defined = d._read(where, {IT: class_set(cls)})
    d.fail("the card's condition can be read", AND(g, NOT(defined)))
    d.fail("the card meets the op's condition", AND(g, defined, NOT(value)))
    return AND(defined, value)


def _into_area(d: SymDoing, op, to, cls, by, g) -> None:
    """Twin of ops._into_area (Player.checkThreeSameMessageCard)."""
    three = op.args.get("three", "allowed")
    goes = g
    if three != "allowed":
        w3 = d.tab.at(to, lambda s: enc_would_make_three(s, cls), False)
        if three == "forbidden":
            d.fail("it does not give him three of a colour", AND(g, w3))
        else:
            d.tab.update(by, "hand", lambda h: ADD(h, 1), AND(d.pc, g, w3, NE(by, NONE)))
            d.done.append((AND(d.pc, g, w3, NE(by, NONE)), enc_into_hand_entry(d, by)))
        goes = AND(g, NOT(w3))
    d.tab.update_area(to, cls, 1, AND(d.pc, goes))
    d.raise_("add_message", {}, goes, {"by_skill": d.by_skill})


def op_put_message(d: SymDoing, op) -> None:
    """Player.messageCards.add (AddMessageCardEvent)."""
    src = op.args.get("from", "hand")
    tab = d.tab
    for to, g in d.seats_of(op.args.get("to", "self")):
        for it in _times(d, _n(d, op), "a repeated put_message within the bound"):
            gi = AND(g, it)
            if gi is False:
                continue
            if src == "message":
                none = EQ(tab.message, NONE)
                d.fail("a message is travelling", AND(gi, none))
                gi = AND(gi, NOT(none))
                cls = tab.message
                gi = AND(gi, _where_ok(d, op, cls, gi))
                tab.message = ITE(AND(d.pc, gi), NONE, tab.message)
                tab.in_front = ITE(AND(d.pc, gi), NONE, tab.in_front)
            else:
                cls, ok = _cls(d, op, gi)
                gi = AND(gi, ok)
                of = d.seat_of(op.args.get("of", "self")) if src in ("hand", "message_area") else NONE
                if src == "hand":
                    lacks = OR(EQ(of, NONE), LT(tab.at(of, lambda s: s.hand, 0), 1))
                    d.fail("he has a hand card", AND(gi, lacks))
                    gi = AND(gi, NOT(lacks))
                    tab.update(of, "hand", lambda h: SUB(h, 1), AND(d.pc, gi))
                elif src == "message_area":
                    lacks = OR(EQ(of, NONE), LT(tab.at(of, lambda s: pick(cls, s.area, 0), 0), 1))
                    d.fail("his area has such a message", AND(gi, lacks))
                    gi = AND(gi, NOT(lacks))
                    tab.update_area(of, cls, -1, AND(d.pc, gi))
            _into_area(d, op, to, cls, d.seat_of(op.args.get("by", "self")), gi)
            _bind(d, op, class_set(cls), gi)


def op_remove_message(d: SymDoing, op) -> None:
    """Player.deleteMessageCard."""
    tab = d.tab
    whom = d.seats_of(op.args.get("whose", "self"))
    d.fail("whose message to take out: somebody there", NOT(OR([g for _, g in whom])))
    for whose, g in whom:
        for it in _times(d, _n(d, op), "a repeated remove_message within the bound"):
            gi = AND(g, it)
            if gi is False:
                continue
            cls, ok = _cls(d, op, gi)
            gi = AND(gi, ok)
            lacks = LT(tab.at(whose, lambda s: pick(cls, s.area, 0), 0), 1)
            d.fail("his area has such a message", AND(gi, lacks))
            gi = AND(gi, NOT(lacks))
            tab.update_area(whose, cls, -1, AND(d.pc, gi))
            _bind(d, op, class_set(cls), gi)
            to = op.args.get("to", "discard_pile")
            if to == "hand":                   # into the hand of ``by`` (nobody there: no hand takes it)
                by = d.seat_of(op.args.get("by", "self"))
                tab.update(by, "hand", lambda h: ADD(h, 1), AND(d.pc, gi))
            elif to == "area":
                into = d.seat_of(op.args.get("into"))
                _into_area(d, op, into, cls, NONE, AND(gi, NE(into, NONE)))


def op_flip(d: SymDoing, op) -> None:
    """Player.roleFaceUp / the message card's face."""
    up = op.args.get("face", "up") == "up"
    if op.args.get("what", "role") == "message":
        d.tab.message_face_up = ITE(d.pc, up, d.tab.message_face_up)
        return
    for s, g in d.seats_of(op.args.get("who", "self")):
        d.tab.update(s, "face_up", lambda v: up, AND(d.pc, g))
        if up:
            d.tab.update(s, "ever", lambda v: True, AND(d.pc, g))


def op_move_message(d: SymDoing, op) -> None:
    """The message stops in front of another player (JieHuo, WuDao)."""
    tab = d.tab
    to = d.seat_of(op.args.get("to"))
    none = OR(EQ(tab.in_front, NONE), EQ(tab.message, NONE))
    d.fail("a message is travelling", none)
    bad = OR(EQ(to, NONE), NOT(tab.at(to, lambda s: s.alive, False)))
    d.fail("the message can go there", AND(NOT(none), bad))
    tab.in_front = ITE(AND(d.pc, NOT(none), NOT(bad)), to, tab.in_front)


def op_redirect(d: SymDoing, op) -> None:
    """SendPhaseIdle.dir."""
    new = op.args.get("dir")
    cur = d.tab.dir_sent
    if new == "reverse":
        val = ITE(EQ(cur, DIR_CODE["left"]), DIR_CODE["right"], ITE(EQ(cur, DIR_CODE["right"]), DIR_CODE["left"], cur))
    else:
        val = DIR_CODE.get(new, NONE)
    d.tab.dir_sent = ITE(d.pc, val, cur)


def op_lock(d: SymDoing, op) -> None:
    """SendPhaseIdle.lockedPlayers."""
    for s, g in d.seats_of(op.args.get("who", "self")):
        d.tab.update(s, "locked", lambda v: True, AND(d.pc, g))


def op_replace_message(d: SymDoing, op) -> None:
    """SendPhaseIdle.messageCard = another card: a hand card (DiaoBao), a card of a message area (MiaoShou)."""
    tab = d.tab
    none = EQ(tab.message, NONE)
    d.fail("a message is travelling", none)
    g = NOT(none)
    cls, ok = _cls(d, op, g)
    g = AND(g, ok)
    src = op.args.get("from", "hand")
    if src == "hand":
        of = d.seat_of(op.args.get("of", "self"))
        lacks = OR(EQ(of, NONE), LT(tab.at(of, lambda s: s.hand, 0), 1))
        d.fail("he has a hand card", AND(g, lacks))
        g = AND(g, NOT(lacks))
        tab.update(of, "hand", lambda h: SUB(h, 1), AND(d.pc, g))
    elif src == "message_area":
        of = d.seat_of(op.args.get("of", "self"))
        lacks = OR(EQ(of, NONE), LT(tab.at(of, lambda s: pick(cls, s.area, 0), 0), 1))
        d.fail("his area has such a message", AND(g, lacks))
        g = AND(g, NOT(lacks))
        tab.update_area(of, cls, -1, AND(d.pc, g))
    tab.message = ITE(AND(d.pc, g), cls, tab.message)
    tab.message_face_up = ITE(AND(d.pc, g), op.args.get("face", "down") == "up", tab.message_face_up)
    _bind(d, op, class_set(cls), g)


def op_take_message(d: SymDoing, op) -> None:
    """Twin of ops.op_take_message: the travelling message leaves the fight, into a hand or the discard pile."""
    tab = d.tab
    none = OR(EQ(tab.in_front, NONE), EQ(tab.message, NONE))
    d.fail("a message is travelling", none)
    ok = AND(d.pc, NOT(none))
    if op.args.get("to", "discard_pile") == "hand":
        by = d.seat_of(op.args.get("by", "self"))
        tab.update(by, "hand", lambda h: ADD(h, 1), AND(ok, NE(by, NONE)))
    tab.message = ITE(ok, NONE, tab.message)
    tab.in_front = ITE(ok, NONE, tab.in_front)


def op_send_message(d: SymDoing, op) -> None:
    """The send with a message card from elsewhere: the send event that follows names the card. ``sent`` holds the
    last one done: who sends (``by``), whose card (``of``), where from (a condition per source) and its face."""
    src = op.args.get("from", "hand")
    of = d.seat_of(op.args.get("of", "self"))
    if src == "hand":                     # twin of ops.op_send_message: a hand of nobody is no hand to send from
        d.fail("whose hand card is sent: somebody there", EQ(of, NONE))
        if d.pc is False or (is_c(of) and of == NONE):
            return
    new = {"by": d.seat_of(op.args.get("by", "self")), "of": of,
           "from": {src: True}, "face_up": op.args.get("face", "down") == "up",
           # twin of ops.op_send_message's ``lock``: the message is sent locked on the player it names (冷血训练)
           "locks_one": op.args.get("lock") is not None, "lock": d.seat_of(op.args.get("lock"))}
    if d.sent is None:
        d.sent = (d.pc, new)
        return
    old_p, old = d.sent
    pc = d.pc
    merged = {k: ITE(pc, new[k], old[k]) for k in ("by", "of", "face_up", "locks_one", "lock")}
    merged["from"] = {x: OR(AND(pc, x == src), AND(NOT(pc), old["from"].get(x, False)))
                      for x in sorted(set(old["from"]) | {src})}
    d.sent = (OR(old_p, pc), merged)


def op_cancel(d: SymDoing, op) -> None:
    """UseCardEvent.valid = false."""
    d.cancelled = OR(d.cancelled, d.pc)


def op_grant(d: SymDoing, op) -> None:
    """skills.add(grant): the give event of the rule's own site follows (the skeleton's)."""
    to = op.args.get("to")
    d.grants.append((d.pc, op.args.get("grant"), to, d.seat_of(to) if to not in ("all", "others") else NONE))


def op_end_turn(d: SymDoing, op) -> None:
    d.ends_turn = OR(d.ends_turn, d.pc)


def op_skip(d: SymDoing, op) -> None:
    """The FSM goes past a phase: the next window of the trace is after it."""


def op_swap(d: SymDoing, op) -> None:
    """Two players' identities, hands or message areas change hands."""
    tab = d.tab
    a, b = d.seat_of(op.args.get("a", "self")), d.seat_of(op.args.get("b"))
    bad = OR(EQ(a, NONE), EQ(b, NONE))
    d.fail("a player of the swap is there", bad)
    ok = AND(d.pc, NOT(bad))
    what = op.args.get("what")
    attrs = {"identity": ("identity", "task"), "hand": ("hand",)}.get(what, ())
    for attr in attrs:
        va, vb = tab.at(a, lambda s: getattr(s, attr), 0), tab.at(b, lambda s: getattr(s, attr), 0)
        for j, s in enumerate(tab.seats):
            old = getattr(s, attr)
            setattr(s, attr, ITE(AND(ok, EQ(a, j)), vb, ITE(AND(ok, EQ(b, j)), va, old)))
    if what == "messages":
        aa = [tab.at(a, lambda s: s.area[k], 0) for k in range(K)]
        ab = [tab.at(b, lambda s: s.area[k], 0) for k in range(K)]
        for j, s in enumerate(tab.seats):
            s.area = [ITE(AND(ok, EQ(a, j)), ab[k], ITE(AND(ok, EQ(b, j)), aa[k], s.area[k])) for k in range(K)]


def op_take_identity(d: SymDoing, op) -> None:
    """ChengZhi: the taker gets the other's identity and secret task; the other has none left."""
    from .win import NOID
    tab = d.tab
    frm, to = d.seat_of(op.args.get("from")), d.seat_of(op.args.get("to", "self"))
    bad = OR(EQ(frm, NONE), EQ(to, NONE))
    d.fail("a player of the identity change is there", bad)
    ok = AND(d.pc, NOT(bad))
    fi, ft = tab.at(frm, lambda s: s.identity, 0), tab.at(frm, lambda s: s.task, NONE)
    tab.update(to, "identity", lambda v: fi, ok)
    tab.update(to, "task", lambda v: ft, ok)
    tab.update(frm, "identity", lambda v: NOID, ok)
    tab.update(frm, "task", lambda v: NONE, ok)


def op_receive(d: SymDoing, op) -> None:
    """The player receives the message now; ``three = to_hand``: into ``by``'s hand instead when it would give him
    three of a colour, and the turn ends (twin of ops.op_receive)."""
    tab = d.tab
    s = d.seat_of(op.args.get("who", "self"))
    bad = OR(EQ(s, NONE), EQ(tab.in_front, NONE))
    d.fail("a message is travelling", bad)
    ok = AND(d.pc, NOT(bad))
    if op.args.get("three", "allowed") == "to_hand":
        w3 = AND(NE(tab.message, NONE), tab.at(s, lambda x: enc_would_make_three(x, tab.message), False))
        by = d.seat_of(op.args.get("by", "self"))
        tab.update(by, "hand", lambda h: ADD(h, 1), AND(ok, w3, NE(by, NONE)))
        d.done.append((AND(ok, w3, NE(by, NONE)), enc_into_hand_entry(d, by)))
        tab.message = ITE(AND(ok, w3), NONE, tab.message)
        tab.in_front = ITE(AND(ok, w3), NONE, ITE(ok, s, tab.in_front))
        d.ends_turn = OR(d.ends_turn, AND(ok, w3))
        return
    tab.in_front = ITE(ok, s, tab.in_front)


def op_kill(d: SymDoing, op) -> None:
    """The player dies at once."""
    for s, g in d.seats_of(op.args.get("who", "self")):
        c = AND(d.pc, g)
        if c is not False:
            d.killed.append((s, c))


def op_choose(d: SymDoing, op) -> None:
    """The chooser picks one alternative."""
    here = d.path
    alt = d.decision("alt", 0)
    n = len(op.options)
    valid = (isinstance(alt, int) and 0 <= alt < n) if is_c(alt) else AND(GE(alt, 0), LT(alt, n))
    d.fail("choose: the alternative is one of them", NOT(valid))
    for i, opts in enumerate(op.options):
        c = EQ(alt, i)
        if c is False:
            continue
        old = d.under(c)
        if d.pc is not False:
            enc_run_ops(d, opts, f"{here}.{i}.")
        d.pc = old


def op_each(d: SymDoing, op) -> None:
    """Twin of ops.op_each: every seat from the actor on, where it is a living player in the game as the loop starts."""
    here = d.path
    old = d.roles.get(EACH)
    for s, g in d.seats_of(op.args.get("who", "all")):
        d.roles[EACH] = s
        prev = d.under(g)
        if d.pc is not False:
            enc_run_ops(d, op.options[0], f"{here}.{s}.")
        d.pc = prev
    if old is None:
        d.roles.pop(EACH, None)
    else:
        d.roles[EACH] = old


def op_repeat(d: SymDoing, op) -> None:
    """Twin of ops.op_repeat: unrolled (up to REPEAT_CAP times where the count is not a constant)."""
    here = d.path
    n = _n(d, op)
    for k, it in enumerate(_times(d, n, "a repeated group of ops within the bound")):
        prev = d.under(it)
        if d.pc is not False:
            enc_run_ops(d, op.options[0], f"{here}.{k}.")
        d.pc = prev


def op_prose(d: SymDoing, op) -> None:
    """In words only: nothing on the table."""


OP_FUNCS = {name[3:]: fn for name, fn in dict(globals()).items() if name.startswith("op_") and callable(fn)}

__all__ = ["SymDoing", "enc_run_ops", "enc_admits", "OP_FUNCS", "REPEAT_CAP", "HAS"]
