"""What effects do to the table: the meaning of each op of the catalogue's ``do`` (model/effects.py), on a state.

An effect is done op by op, in order (Forge's sub-abilities): each op's condition ``if`` is read first (false: the
op is left out); an op marked ``may`` is the actor's choice; ``choose`` takes one alternative. Decisions the player
takes — which alternative, which colour of card goes where, declining a ``may`` — are the *choices* of the event
that does the effect (a ``resolve`` of a card, a ``use`` of an ActiveSkill, a ``fire`` of a TriggeredSkill): a
table from each deciding op's *path* in the ``do`` tree — its index, and for an op inside an alternative of
``choose`` the choose's path, the alternative and the index (``"1"``, ``"1.0.2"``) — to that op's decision
(``{"alt": 0}``, ``{"cls": "black"}``, ``{"skip": true}``). The path is the same in both twins. A hand is a number of cards: which card types a player gives
or discards is not tracked (model/interp/table.py).

Each op cites the server behaviour it mirrors (model/effects.py ``OPS``). ``prose`` changes nothing here: the
rule's text says what the vocabulary cannot, and an event whose effect has a prose op is marked so.

The z3 twin is ``checks/enc/ops.py`` (same names).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..effects import EACH, INTO_HAND, IT, bindings, op_player_args, place_of, static_n, walk
from ..reason import Reason
from .core import Env, evaluate
from .table import CLASSES, COLOURS_OF, add_message, area_of, class_of, next_alive, would_make_three

#: which colour classes a colour filter of an op admits (model/effects.py COLOUR_FILTERS)
FILTER = {
    "any": CLASSES,
    "black": tuple(c for c in CLASSES if "black" in COLOURS_OF[c]),
    "pure_black": ("black",),
    "non_black": tuple(c for c in CLASSES if "black" not in COLOURS_OF[c]),
    "red": tuple(c for c in CLASSES if "red" in COLOURS_OF[c]),
    "blue": tuple(c for c in CLASSES if "blue" in COLOURS_OF[c]),
    "red_or_blue": tuple(c for c in CLASSES if COLOURS_OF[c] & {"red", "blue"}),
    "two_colours": tuple(c for c in CLASSES if len(COLOURS_OF[c]) >= 2),
}


def admits(st, colour: str | None, cls: str) -> bool:
    """Does the colour filter admit a card of class ``cls`` (``shares_message`` / ``outside_message`` read the
    travelling message's colours)?"""
    if colour in (None, "any"):
        return cls in CLASSES
    if colour == "shares_message":
        return bool(COLOURS_OF[cls] & set(st.message))
    if colour == "outside_message":
        return bool(COLOURS_OF[cls] - set(st.message))
    return cls in FILTER.get(colour, ())


@dataclass
class Doing:
    """One effect being done: who does it, the players its words name, the event's values, its decisions."""
    cat: object
    st: object
    actor: int
    roles: dict                          # player word -> seat (self, target, sender, front, … chosen)
    choices: dict                        # the event's decisions: op path -> decision table
    words: dict = field(default_factory=dict)       # the event's values (card, dir …)
    raised: list = field(default_factory=list)      # (event kind, roles[, values]) the effect raises
    grants: list = field(default_factory=list)      # (grant id, to-word, the seat it names or None) handed out
    cancelled: bool = False              # a ``cancel`` op cancelled the card being used
    ends_turn: bool = False
    sent: dict | None = None             # a ``send_message`` op sent the message: its parameters
    prose: bool = False                  # some op done is in words only
    killed: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    done: list = field(default_factory=list)        # the ops done, in order (``done_entry``)

    path: str = ""                       # the path of the op being done
    by_skill: bool = False               # the effect is a skill's (not a card's): AddMessageCardEvent.bySkill
    params: dict = field(default_factory=dict)      # the parameters of the skill-list entry doing it (a grant's)

    def decision(self) -> dict | None:
        c = self.choices.get(self.path)
        return c if isinstance(c, dict) else None

    def fail(self, zh: str, en: str) -> None:
        self.errors.append(Reason(zh, en))

    # ---------------------------------------------------------------------------------- players
    def seat_of(self, word) -> int | None:
        """The seat a player word names now (None: nobody — the word is not bound, or not a seat)."""
        if not isinstance(word, str):
            return None
        n = len(self.st.seats)
        ok = lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n   # noqa: E731
        if word in self.roles:
            return self.roles[word] if ok(self.roles[word]) else None
        for side in ("_left", "_right"):
            if word.endswith(side):
                base = self.roles.get(word[:-len(side)])
                return next_alive(self.st, base, side[1:]) if ok(base) else None
        return None

    def seats_of(self, word) -> list:
        """``all`` / ``others``: the living players from the actor on (others: but the actor); else one seat."""
        n = len(self.st.seats)
        if word in ("all", "others"):
            order = [(self.actor + i) % n for i in range(n)]
            return [s for s in order if self.st.seats[s].alive and not self.st.seats[s].lost
                    and (word == "all" or s != self.actor)]
        s = self.seat_of(word)
        return [] if s is None else [s]

    def env(self, extra: dict | None = None):
        n = len(self.st.seats)
        players = {k: v for k, v in self.roles.items() if isinstance(v, int) and 0 <= v < n}
        players.setdefault("self", self.actor)
        g = {"message": self.st.message, "message_dir": self.st.message_dir,
             "message_lockable": self.st.message_lockable, **self.words, **(extra or {})}
        return Env(self.cat, self.st, players, dict(self.params), g)

    def amount(self, v) -> int:
        if isinstance(v, int):
            return v
        try:
            return max(0, int(evaluate(v, self.env())))
        except (KeyError, TypeError):
            self.fail("效果的数量读不出", "the effect's amount cannot be read")
            return 0

    def holds(self, cond) -> bool:
        if cond is None:
            return True
        try:
            return bool(evaluate(cond, self.env()))
        except (KeyError, TypeError):
            self.fail("效果的条件读不出", "the effect's condition cannot be read")
            return False


def run_ops(d: Doing, ops, prefix: str = "") -> None:
    """Do the ops in order (see the module's docstring); ``prefix`` is the path of the list. The names ops give
    what they moved (``as``) hold 0 / no colour until the op is done."""
    if not prefix:
        for name, typ in bindings(ops).items():
            d.words.setdefault(name, frozenset() if typ.startswith("set<") else 0)
    for i, op in enumerate(ops):
        d.path = f"{prefix}{i}"
        if not d.holds(op.cond):
            continue
        if op.may and (d.decision() or {}).get("skip"):
            continue
        fn = OP_FUNCS.get(op.op)
        if fn is not None:
            d.done.append(done_entry(d, op))
            fn(d, op)


def done_entry(d: Doing, op) -> dict:
    """What an op done says, read as it starts: its key and path, the seats each of its player arguments names
    (``effects.op_player_args``: whom it is done to or for), its face (``flip``), colour filter, card filter and grant,
    where a message taken out of an area goes (``effects.place_of``), and the dying player of the moment — what ask's effect claims read (checks/ask/table.py). Twin: enc.ops.enc_done_entry."""
    seats = {name: tuple(d.seats_of(op.args.get(name, default))) for name, default in op_player_args(op)
             if op.args.get(name, default) is not None}
    only = op.args.get("card")
    return {"op": op.op, "path": d.path, "seats": seats, "face": op.args.get("face"), "grant": op.args.get("grant"),
            "colour": op.args.get("colour"), "cards": (only,) if isinstance(only, str) else tuple(only or ()),
            "place": place_of(op), "dying": d.st.dying, "n": static_n(op)}


def into_hand_entry(d: Doing, by: int) -> dict:
    """The card an op with ``three = to_hand`` puts into ``by``'s hand instead of an area (card/LiYou.kt joinIntoHand:
    r.cards.addAll): an op done of its own, ``into_hand`` (``effects.INTO_HAND``) — what 利诱能让使用者获得手牌吗 reads.
    Twin: enc.ops.enc_into_hand_entry."""
    return {"op": INTO_HAND, "path": d.path, "seats": {"who": (by,)}, "face": None, "grant": None, "colour": None,
            "cards": (), "place": None, "dying": d.st.dying, "n": 1}


def _n(d: Doing, op) -> int:
    """The op's amount; with ``up_to`` the actor's pick between ``n`` and ``up_to`` (the decision ``n``; ``n`` when
    the event does not say)."""
    lo = d.amount(op.args.get("n", 1))
    if op.args.get("up_to") is None:
        return lo
    hi = d.amount(op.args["up_to"])
    k = (d.decision() or {}).get("n", lo)
    if not isinstance(k, int) or isinstance(k, bool) or not lo <= k <= hi:
        d.fail("所选的张数不在允许的范围内", "the number picked is not within its bounds")
        return lo
    return k


def _bind(d: Doing, op, value) -> None:
    """``as``: the op names what it moved for the ops after it."""
    name = op.args.get("as")
    if isinstance(name, str):
        d.words[name] = value


def op_draw(d: Doing, op) -> None:
    """Player.draw(n): cards into the hand — from the deck top, or (``from``) the card the rule answers (JiuJi2) or
    the card the effect just discarded (HuoXin): the deck and the discard pile are not on the table, so alike."""
    for s in d.seats_of(op.args.get("who", "self")):
        d.st.seats[s].hand_count += _n(d, op)


def op_discard(d: Doing, op) -> None:
    """Game.playerDiscardCard (DiscardCardEvent): from the hand to the discard pile — all of it, or n cards (as many
    as he has). ``as``: the number discarded."""
    total = 0
    for s in d.seats_of(op.args.get("who", "self")):
        seat = d.st.seats[s]
        k = seat.hand_count if op.args.get("which") == "all" else min(_n(d, op), seat.hand_count)
        seat.hand_count -= k
        total += k
        if k:
            d.raised.append(("discard", {"discarder": s}))
    _bind(d, op, total)


def _move_cards(d: Doing, frm: int | None, to: int | None, n: int) -> int:
    if frm is None or to is None:
        d.fail("交牌的一方不在场", "a player of the give is not there")
        return 0
    k = min(n, d.st.seats[frm].hand_count)
    d.st.seats[frm].hand_count -= k
    d.st.seats[to].hand_count += k
    if k:
        d.raised.append(("give_card", {"giver": frm, "taker": to}))
    return k


def op_give(d: Doing, op) -> None:
    """A card moves from one hand to another (GiveCardEvent). ``as``: the number given."""
    total = 0
    for to in d.seats_of(op.args.get("to")):
        total += _move_cards(d, d.seat_of(op.args.get("from", "self")), to, _n(d, op))
    _bind(d, op, total)


def op_take(d: Doing, op) -> None:
    """A card moves from another player's hand into the actor's (or ``to``'s). ``as``: the number taken."""
    total = 0
    for frm in d.seats_of(op.args.get("from")):
        total += _move_cards(d, frm, d.seat_of(op.args.get("to", "self")), _n(d, op))
    _bind(d, op, total)


def op_show(d: Doing, op) -> None:
    """Shown cards change nothing on the table."""


def _cls(d: Doing, op, what: str) -> str | None:
    c = d.decision()
    cls = (c or {}).get("cls")
    if cls not in CLASSES:
        d.fail(f"{what}：经过没有说是什么颜色的牌", f"{what}: the event does not say which colours the card has")
        return None
    if not admits(d.st, op.args.get("colour"), cls):
        d.fail(f"{what}：这种颜色的牌不符合要求", f"{what}: a card of these colours is not allowed")
        return None
    return cls if _where_ok(d, op, cls, what) else None


def _where_ok(d: Doing, op, cls: str, what: str) -> bool:
    """``where``: the card the op moves (its colours as ``it``) meets the op's condition."""
    where = op.args.get("where")
    if where is None:
        return True
    try:
        ok = bool(evaluate(where, d.env({IT: COLOURS_OF[cls]})))
    except (KeyError, TypeError):
        d.fail(f"{what}：这张牌的条件读不出", f"{what}: the card's condition cannot be read")
        return False
    if not ok:
        d.fail(f"{what}：这张牌不满足操作的条件", f"{what}: the card does not meet the op's condition")
    return ok


def _into_area(d: Doing, op, to: int, cls: str, by: int | None) -> None:
    """A card enters ``to``'s message area, with the op's three-of-a-colour rule (Player.checkThreeSameMessageCard)."""
    three = op.args.get("three", "allowed")
    if three != "allowed" and would_make_three(d.st.seats[to], cls):
        if three == "forbidden":
            d.fail("这会让其凑满三张同色情报，不能放", "that would give him three of a colour: not allowed")
            return
        if by is not None and 0 <= by < len(d.st.seats):
            d.st.seats[by].hand_count += 1                # three = to_hand: into a hand instead
            d.done.append(into_hand_entry(d, by))
        return
    add_message(d.st.seats[to], cls)
    d.raised.append(("add_message", {}, {"by_skill": d.by_skill}))


def op_put_message(d: Doing, op) -> None:
    """Player.messageCards.add (AddMessageCardEvent): from a hand, the deck top, the travelling message, a message
    area or the card used."""
    src = op.args.get("from", "hand")
    for to in d.seats_of(op.args.get("to", "self")):
        for _ in range(_n(d, op)):
            if src == "message":
                if not d.st.message:
                    d.fail("没有正在传递的情报", "no message is travelling")
                    return
                cls = class_of(d.st.message)
                if cls is not None and not _where_ok(d, op, cls, "置入情报区"):
                    return
                d.st.message = frozenset()
                d.st.in_front = None
            else:
                cls = _cls(d, op, "置入情报区")
                if cls is None:
                    return
                of = d.seat_of(op.args.get("of", "self")) if src in ("hand", "message_area") else None
                if src in ("hand", "message_area") and of is None:
                    d.fail("牌从谁那里来：不在场", "whose card it is: nobody there")
                    return
                if src == "hand":
                    if d.st.seats[of].hand_count < 1:
                        d.fail(f"座位{of}没有手牌", f"seat {of} has no hand card")
                        return
                    d.st.seats[of].hand_count -= 1
                elif src == "message_area":
                    if (area_of(d.st.seats[of]) or {}).get(cls, 0) < 1:
                        d.fail(f"座位{of}的情报区没有这种颜色的情报", f"seat {of} has no such message")
                        return
                    add_message(d.st.seats[of], cls, -1)
            _into_area(d, op, to, cls, d.seat_of(op.args.get("by", "self")))
            _bind(d, op, COLOURS_OF[cls])


def op_remove_message(d: Doing, op) -> None:
    """Player.deleteMessageCard: a message leaves an area, to the discard pile, a hand or another area."""
    whom = d.seats_of(op.args.get("whose", "self"))
    if not whom:
        d.fail("移除谁的情报：不在场", "whose message to take out: nobody there")
    for whose in whom:
        for _ in range(_n(d, op)):
            cls = _cls(d, op, "移除情报")
            if cls is None:
                return
            if (area_of(d.st.seats[whose]) or {}).get(cls, 0) < 1:
                d.fail(f"座位{whose}的情报区没有这种颜色的情报", f"seat {whose} has no such message")
                return
            add_message(d.st.seats[whose], cls, -1)
            _bind(d, op, COLOURS_OF[cls])
            to = op.args.get("to", "discard_pile")
            by = d.seat_of(op.args.get("by", "self"))
            if to == "hand" and by is not None:
                d.st.seats[by].hand_count += 1
            elif to == "area":
                into = d.seat_of(op.args.get("into"))
                if into is not None:
                    _into_area(d, op, into, cls, None)


def op_flip(d: Doing, op) -> None:
    """Player.roleFaceUp / the message card's face (SendPhaseIdle.isMessageCardFaceUp)."""
    up = op.args.get("face", "up") == "up"
    if op.args.get("what", "role") == "message":
        d.st.message_face_up = up
        return
    for s in d.seats_of(op.args.get("who", "self")):
        d.st.seats[s].face_up = up
        if up:
            d.st.seats[s].ever_face_up = True


def op_move_message(d: Doing, op) -> None:
    """The message stops in front of another player (JieHuo, WuDao)."""
    to = d.seat_of(op.args.get("to"))
    if d.st.in_front is None or not d.st.message:
        d.fail("没有正在传递的情报", "no message is travelling")
        return
    if to is None or not d.st.seats[to].alive:
        d.fail("情报不能移到那里", "the message cannot go there")
        return
    d.st.in_front = to


def op_redirect(d: Doing, op) -> None:
    """SendPhaseIdle.dir: where the message goes next."""
    new = op.args.get("dir")
    cur = d.st.message_dir_sent
    if new == "reverse":
        new = {"left": "right", "right": "left"}.get(cur, cur)
    d.st.message_dir_sent = new


def op_lock(d: Doing, op) -> None:
    """SendPhaseIdle.lockedPlayers."""
    for s in d.seats_of(op.args.get("who", "self")):
        d.st.seats[s].locked = True


def op_replace_message(d: Doing, op) -> None:
    """SendPhaseIdle.messageCard = another card — a hand card (DiaoBao), a card of a message area (MiaoShou:
    deleteMessageCard) — the old one to the discard pile."""
    if not d.st.message:
        d.fail("没有正在传递的情报", "no message is travelling")
        return
    cls = _cls(d, op, "替换情报")
    if cls is None:
        return
    src = op.args.get("from", "hand")
    if src in ("hand", "message_area"):
        of = d.seat_of(op.args.get("of", "self"))
        if src == "hand":
            if of is None or d.st.seats[of].hand_count < 1:
                d.fail(f"座位{of}没有手牌", f"seat {of} has no hand card")
                return
            d.st.seats[of].hand_count -= 1
        else:
            if of is None or (area_of(d.st.seats[of]) or {}).get(cls, 0) < 1:
                d.fail(f"座位{of}的情报区没有这种颜色的情报", f"seat {of} has no such message")
                return
            add_message(d.st.seats[of], cls, -1)
    d.st.message = COLOURS_OF[cls]
    d.st.message_face_up = op.args.get("face", "down") == "up"
    _bind(d, op, COLOURS_OF[cls])


def op_take_message(d: Doing, op) -> None:
    """The travelling message leaves the fight — into a hand (DingLun, SouJi: r.cards.add(messageCard)) or the
    discard pile (MiaoShou, YingBianZiRu: deck.discard(messageCard)): nobody receives it."""
    if d.st.in_front is None or not d.st.message:
        d.fail("没有正在传递的情报", "no message is travelling")
        return
    if op.args.get("to", "discard_pile") == "hand":
        by = d.seat_of(op.args.get("by", "self"))
        if by is not None:
            d.st.seats[by].hand_count += 1
    d.st.message = frozenset()
    d.st.in_front = None


def op_send_message(d: Doing, op) -> None:
    """The send, with a message card from elsewhere than a free pick of the hand (欲擒故纵, 冷血训练, 密令): the
    send event that follows names its colours, direction and first stop; here the card leaves its source."""
    of = d.seat_of(op.args.get("of", "self"))
    if of is None and op.args.get("from", "hand") == "hand":
        d.fail("传出谁的手牌：不在场", "whose hand card is sent: nobody there")     # (not the sender's own by default)
        return
    d.sent = {"by": d.seat_of(op.args.get("by", "self")), "from": op.args.get("from", "hand"),
              "of": of, "colour": op.args.get("colour"), "face": op.args.get("face", "down")}
    if op.args.get("lock") is not None:      # the message is sent locked on the player it names (冷血训练: lockPlayer)
        d.sent["lock"] = d.seat_of(op.args["lock"])


def op_cancel(d: Doing, op) -> None:
    """UseCardEvent.valid = false: the card being used does nothing."""
    d.cancelled = True


def op_grant(d: Doing, op) -> None:
    """skills.add(grant): the give event of the rule's own site follows (model/interp/trace.py ``give``)."""
    to = op.args.get("to")
    d.grants.append((op.args.get("grant"), to, d.seat_of(to) if to not in ("all", "others") else None))


def op_end_turn(d: Doing, op) -> None:
    d.ends_turn = True


def op_skip(d: Doing, op) -> None:
    """The FSM goes past a phase: the next window of the trace is after it."""


def op_swap(d: Doing, op) -> None:
    """Two players' identities, hands or message areas change hands (roles: not modelled)."""
    a, b = d.seat_of(op.args.get("a", "self")), d.seat_of(op.args.get("b"))
    if a is None or b is None:
        d.fail("交换的一方不在场", "a player of the swap is not there")
        return
    sa, sb = d.st.seats[a], d.st.seats[b]
    what = op.args.get("what")
    if what == "identity":
        sa.identity, sb.identity = sb.identity, sa.identity
        sa.task, sb.task = sb.task, sa.task
    elif what == "hand":
        sa.hand_count, sb.hand_count = sb.hand_count, sa.hand_count
    elif what == "messages":
        from .table import set_area
        aa, ab = area_of(sa) or {}, area_of(sb) or {}
        set_area(sa, ab)
        set_area(sb, aa)
    else:
        d.prose = True


def op_take_identity(d: Doing, op) -> None:
    """ChengZhi: the taker gets the other's identity and secret task; the other has none left."""
    frm, to = d.seat_of(op.args.get("from")), d.seat_of(op.args.get("to", "self"))
    if frm is None or to is None:
        d.fail("拿走身份的一方不在场", "a player of the identity change is not there")
        return
    d.st.seats[to].identity, d.st.seats[to].task = d.st.seats[frm].identity, d.st.seats[frm].task
    d.st.seats[frm].identity, d.st.seats[frm].task = "none", None


def op_receive(d: Doing, op) -> None:
    """The player receives the message now: it stops in front of him and he must take it (the trace's next
    window is 接收阶段 with it in front of him). ``three = to_hand``: when it would give him three messages of one
    colour (Player.checkThreeSameMessageCard) it goes into ``by``'s hand instead and the turn ends (DingLun:
    NextTurn)."""
    s = d.seat_of(op.args.get("who", "self"))
    if s is None or d.st.in_front is None:
        d.fail("没有正在传递的情报", "no message is travelling")
        return
    cls = class_of(d.st.message)
    if op.args.get("three", "allowed") == "to_hand" and cls is not None and would_make_three(d.st.seats[s], cls):
        by = d.seat_of(op.args.get("by", "self"))
        if by is not None:
            d.st.seats[by].hand_count += 1
            d.done.append(into_hand_entry(d, by))
        d.st.message = frozenset()
        d.st.in_front = None
        d.ends_turn = True
        return
    d.st.in_front = s


def op_kill(d: Doing, op) -> None:
    """The player dies at once (no 澄清 is asked for)."""
    for s in d.seats_of(op.args.get("who", "self")):
        d.killed.append(s)


def op_choose(d: Doing, op) -> None:
    """The chooser picks one alternative (a free decision): the first when the event does not say."""
    here = d.path
    alt = (d.decision() or {}).get("alt", 0)
    if not isinstance(alt, int) or isinstance(alt, bool) or not 0 <= alt < len(op.options):
        d.fail("选择其一：没有这一项", "choose: no such alternative")
        return
    run_ops(d, op.options[alt], f"{here}.{alt}.")


_UNBOUND = object()


def op_each(d: Doing, op) -> None:
    """A loop over the living players from the actor on (``all`` / ``others``), the list taken as it starts: the ops
    of ``do`` with the player of the turn as ``each``; their decisions at ``<path>.<seat>.<index>``."""
    here = d.path
    old = d.roles.get(EACH, _UNBOUND)
    for s in d.seats_of(op.args.get("who", "all")):
        d.roles[EACH] = s
        run_ops(d, op.options[0], f"{here}.{s}.")
    if old is _UNBOUND:
        d.roles.pop(EACH, None)
    else:
        d.roles[EACH] = old


def op_repeat(d: Doing, op) -> None:
    """The ops of ``do`` as many times as the amount (or the actor's pick up to ``up_to``): the k-th time's
    decisions at ``<path>.<k>.<index>``."""
    here = d.path
    for k in range(_n(d, op)):
        run_ops(d, op.options[0], f"{here}.{k}.")


def op_prose(d: Doing, op) -> None:
    d.prose = True


OP_FUNCS = {name[3:]: fn for name, fn in dict(globals()).items() if name.startswith("op_") and callable(fn)}


def has_prose(ops) -> bool:
    return any(o.op == "prose" for o in walk(ops))
