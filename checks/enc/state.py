"""The symbolic game the z3 twin reasons about: a bounded trace seen from seat 0 ("the player").

A ``SymState`` is the moment a question is asked — the window of the turn (``now``), up to ``n`` seats
with symbolic characters and attributes, the player's skill list as ``L`` initial slots (fixed by the
character) followed by ``G`` grant slots in acquisition order — together with the bounded trace of
events that led there, each event carrying its symbolic *moment*: its step in the trace, the turn
(``0 … T-1``; ``T-1`` is the turn of the question) and the window it happened in (``model.turn``).
The events are the grants the player received (one per grant slot), one invalidation per seat, and
the player's role replacement (后来人). ``checks.enc.trace`` states which traces are legal (the twin of
``model.interp.trace.run``); ``checks.enc`` decides questions on the moment (the twin of
``model.interp``). Expressions of the catalogue compile here (``compile``), read at the moment of
the question or, for a gives site's ``when``, at the moment of its event.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3
from ..terms import And, Eq, Implies, Ite, Not, Or

from skillproof.model import expr as E
from skillproof.model import turn as TW
from skillproof.model import vocab as V
from skillproof.model.catalogue import Catalogue, Give
from skillproof.model.state import Seat

NONE = -1          # "no seat" / "no slot" / "any card" / "no window"

#: window codes: a window's code is its position in the turn (model.turn), dying comes last (it has no
#: position of its own: a dying window is timed at the window it interrupts)
WCODES = TW.ordered() + [w for w in TW.WINDOWS if TW.WINDOWS[w].position < 0]
WCODE = {w: i for i, w in enumerate(WCODES)}
DYING = WCODE["dying"]
assert all(WCODE[w] == TW.position(w) for w in TW.ordered())


def wpos(w):
    """The position (order in the turn) of window code ``w`` (a z3 Int): the code itself."""
    return w


def w_in(w, ids) -> object:
    return Or([Eq(w, WCODE[i]) for i in ids] or [z3.BoolVal(False)])


@dataclass
class Moment:
    """When a trace event happened: its step in the trace, turn and window; and the facts of that
    moment an expression can read (the player the message is in front of, the dying player)."""
    name: str
    present: object                  # z3 Bool: the event is in the trace
    step: object                     # z3 Int: position in the trace (distinct among present events)
    t: object                        # z3 Int: turn index, 0 … T-1
    w: object                        # z3 Int: window code (WCODE)
    intr: object                     # z3 Int: window code a dying window interrupts (else NONE)
    front: object                    # z3 Int: the seat the message is in front of (NONE when none)
    dy: object                       # z3 Int: the dying seat (NONE unless w is dying)

    @staticmethod
    def make(name: str, present, prefix: str) -> "Moment":
        I = z3.Int
        return Moment(name, present, I(f"{prefix}{name}_step"), I(f"{prefix}{name}_turn"),
                      I(f"{prefix}{name}_window"), I(f"{prefix}{name}_interrupted"),
                      I(f"{prefix}{name}_in_front"), I(f"{prefix}{name}_dying"))

    def pos(self):
        """Position in the turn: the window's, or for a dying window the interrupted window's."""
        if "_pos" not in self.__dict__:
            self.__dict__["_pos"] = Ite(self.w == DYING, self.intr, self.w)
        return self.__dict__["_pos"]

    def message_live(self):
        """A message is in front of someone (a message window, or a dying window interrupting one)."""
        return Or(w_in(self.w, TW.MESSAGE_WINDOWS),
                     And(self.w == DYING, w_in(self.intr, TW.MESSAGE_WINDOWS)))

    def before(self, other: "Moment"):
        """This event comes earlier in the trace than ``other``."""
        return self.step < other.step


class Codes:
    """Integer codes of the enum domains of one catalogue."""

    def __init__(self, cat: Catalogue):
        self.cards = list(cat.cards)
        self.card = {c: i for i, c in enumerate(self.cards)}
        self.chars = list(cat.characters)
        self.char = {c: i for i, c in enumerate(self.chars)}
        self.colours = list(V.COLOURS)
        self.colour = {c: i for i, c in enumerate(self.colours)}
        self.dirs = list(V.DIRECTIONS)
        self.dir = {d: i for i, d in enumerate(self.dirs)}
        self.rules = list(cat.skills)
        self.rule = {r: i for i, r in enumerate(self.rules)}
        self.windows = WCODES
        self.sites: list[tuple[str, Give]] = []
        for src in list(cat.skills.values()) + list(cat.cards.values()):
            for g in src.gives:
                self.sites.append((f"{g.giver}#{g.index}", g))
        self.site = {s: i for i, (s, _) in enumerate(self.sites)}

    @classmethod
    def union(cls, *cats) -> "Codes":
        """Codes shared by several catalogues (for questions about two versions at once): every id of
        each, in first-seen order, so that one symbolic state can be read under each version."""
        c = cls(cats[0])
        for other in cats[1:]:
            o = cls(other)
            for attr, idx in (("cards", "card"), ("chars", "char"), ("rules", "rule")):
                lst = getattr(c, attr)
                for x in getattr(o, attr):
                    if x not in getattr(c, idx):
                        getattr(c, idx)[x] = len(lst)
                        lst.append(x)
            for sid, g in o.sites:
                if sid not in c.site:
                    c.site[sid] = len(c.sites)
                    c.sites.append((sid, g))
        return c

    def restricted(self, cards) -> "Codes":
        """The same codes with the card types cut to ``cards`` (numbered afresh, in that order): a sliced
        symbolic state's domain of card types (``model.symmetry.Symmetry.card_slice``). A lookup of a card
        type outside it fails loudly (KeyError) rather than meaning another card."""
        import copy
        c = copy.copy(self)
        c.cards = list(cards)
        c.card = {x: i for i, x in enumerate(c.cards)}
        return c

    def domain(self, t: str) -> list:
        return {V.CARD: self.cards, V.CHARACTER: self.chars, V.COLOUR: self.colours,
                V.DIRECTION: self.dirs}[t]

    def code(self, t: str, value: str) -> int:
        return {V.CARD: self.card, V.CHARACTER: self.char, V.COLOUR: self.colour, V.DIRECTION: self.dir}[t][value]

    def name(self, t: str, code: int) -> str:
        return self.domain(t)[code]


@dataclass
class Slot:
    """One entry of the player's skill list."""
    index: int
    initial_slot: bool
    present: object                 # z3 Bool
    rule: object                     # z3 Int (a rule code)
    candidates: tuple               # rule ids this slot may hold
    used: object                     # z3 Bool
    params: dict = field(default_factory=dict)    # name -> z3 value (Int / Bool / dict code->Bool)
    giver: object = None             # z3 Int seat (grant slots)
    site: object = None              # z3 Int site code (grant slots)
    m: Moment | None = None          # grant slots: when it was handed out


#: 'play' events of the player a symbolic trace holds (cards used this turn, as declared)
PLAYS = 1


@dataclass
class PlaySlot:
    """A card the player used this turn: its declared type and when (a 'play' event of the trace)."""
    present: object                  # z3 Bool
    card: object                     # z3 Int (a card code)
    m: Moment


def reads_played(cat) -> bool:
    """Whether an expression of the catalogue reads 'played' (only a triggered skill's 'fires' may)."""
    return any(r.fires is not None and node_reads_played(r.fires.when) for r in cat.skills.values())


def node_reads_played(node) -> bool:
    return any(isinstance(x, E.Attr) and x.name == "played" for x in E.walk(node))


@dataclass
class Labelled:
    label: str
    rules: tuple                     # catalogue ids (rules, cards, characters) behind the constraint
    expr: object


def stored_seat_attr(st, s: int, name: str):
    """The seat attributes every symbolic state keeps as a term per seat (alive, faces, lock, identity, role, the
    counts, an empty hand) — SymState, the game's SeatView and the triggers' state alike; None for the others."""
    lists = {"alive": st.alive, "face_up": st.face_up, "ever_face_up": st.ever, "locked": st.locked,
             "identity": st.ident, "character": st.char}
    if name in lists:
        return lists[name][s]
    if name in Seat.INT_FIELDS:
        return st.ints[name][s]
    if name == "hand_empty":
        return st.ints["hand_count"][s] == 0
    return None


class SymState:
    def __init__(self, cat: Catalogue, n: int = 2, G: int = 1, *, chars_me=None, chars_other=None,
                 grants=None, prefix: str = "", codes: Codes | None = None, turns: int = 2,
                 lost: bool = False, inv_seats=None, plays: int | None = None):
        self.cat = cat
        self.codes = codes or Codes(cat)
        C = self.codes
        # the card types of this state's domain, by code, in catalogue order: the catalogue's card types the codes
        # hold (a sliced state's codes hold fewer, Codes.restricted; codes shared by two versions, Codes.union,
        # hold the other version's too, which are not of this catalogue)
        self.cards = {C.card[c]: card for c, card in cat.cards.items() if c in C.card}
        # never fewer seats than the fewest players a game has ([rules] min_seats): a smaller table is no game,
        # and its witness would not replay in the interpreter
        self.n = max(1, min(max(n, cat.rules.min_seats), cat.rules.seats))
        self.G = G
        self.T = max(1, turns)
        self.p = prefix
        self.chars_me = list(chars_me) if chars_me is not None else list(cat.characters)
        self.chars_other = list(chars_other) if chars_other is not None else list(cat.characters)
        self.chars_set = frozenset(self.chars_me)     # (for Context.query_for's test: does this state serve?)
        if grants is None:
            grants = [r.id for r in cat.grants if cat.sites(r.id)]
        self.grant_set = frozenset(grants)
        # grants the player's list can hold (an InvalidSkill is not held: it wraps, see inv / inv_m)
        self.grant_ids = [g for g in grants if g in cat.skills and "InvalidSkill" not in cat.skills[g].closure
                          and cat.skills[g].lifetime != "resolution"]
        # roles the player may have had before a role replacement (holders of a role-replacing skill)
        self.chars_old = [c for c in self.chars_me
                          if any(cat.skills[r].replaces_role for r in cat.characters[c].skills if r in cat.skills)]
        p = self.p
        rng = range(self.n)
        B, I = z3.Bool, z3.Int
        self.present = [z3.BoolVal(True)] + [B(f"{p}present_{s}") for s in range(1, self.n)]
        self.char = [I(f"{p}char_{s}") for s in rng]
        self.alive = [B(f"{p}alive_{s}") for s in rng]
        self.face_up = [B(f"{p}face_up_{s}") for s in rng]
        self.ever = [B(f"{p}ever_face_up_{s}") for s in rng]
        self.locked = [B(f"{p}locked_{s}") for s in rng]
        # the seats whose invalidation the trace may hold (None: every seat); a question about the player
        # alone leaves the others' out — an invalidation elsewhere only stops gives, never enables one
        self.inv_seats = tuple(range(self.n)) if inv_seats is None else tuple(s for s in inv_seats if s < self.n)
        self.inv = [B(f"{p}invalidated_{s}") if s in self.inv_seats else z3.BoolVal(False) for s in rng]
        self.ident = [I(f"{p}identity_{s}") for s in rng]
        self.ints = {f: [I(f"{p}{f}_{s}") for s in rng] for f in Seat.INT_FIELDS}
        self.turn = I(f"{p}turn")
        self.sender = I(f"{p}sender")
        self.in_front = I(f"{p}in_front")
        self.dying = I(f"{p}dying")
        self.msg = {c: (B(f"{p}message_{c}") if c in V.MESSAGE_COLOURS else z3.BoolVal(False))
                    for c in V.COLOURS}
        self.message_dir = I(f"{p}message_dir")
        self.lockable = B(f"{p}message_lockable")
        # ---- time: the turns of the trace and the moment of the question
        T = self.T
        self.owner = [I(f"{p}turn_owner_{t}") for t in range(T - 1)] + [self.turn]
        self.sender_t = [I(f"{p}sender_of_turn_{t}") for t in range(T)]
        self.start = I(f"{p}first_turn")          # the trace starts at this turn index (0 … T-1)
        self.now = I(f"{p}window")                 # window code of the question (WCODE)
        self.intr = I(f"{p}interrupted")           # now == dying: the window it interrupts
        # cards the player used this turn ('play' events: what 'played' reads), one slot each: when the
        # catalogue reads 'played' (a triggered skill's 'fires') or the caller asks for them (a question's)
        self.P = plays if plays is not None else (PLAYS if reads_played(cat) else 0)
        self.steps = G + self.n + 2 + self.P       # bound of trace steps (events + the question)
        self.q = Moment("question", z3.BoolVal(True), z3.IntVal(self.steps), z3.IntVal(T - 1), self.now,
                        self.intr, self.in_front, self.dying)
        # ---- trace events other than the player's grants: one invalidation per seat, the player's
        # role replacement (后来人)
        self.inv_ev = [B(f"{p}invalidation_{s}_happened") if s in self.inv_seats else z3.BoolVal(False)
                       for s in rng]
        self.inv_m = [Moment.make(f"invalidation_{s}", self.inv_ev[s], p) for s in rng]
        self.inv_giver = [I(f"{p}invalidation_{s}_giver") for s in rng]
        self.inv_site = [I(f"{p}invalidation_{s}_site") for s in rng]
        self.repl = B(f"{p}replaced") if self.chars_old else z3.BoolVal(False)
        self.repl_m = Moment.make("replacement", self.repl, p)
        self.old_char = I(f"{p}old_char")
        self.old_face_up = B(f"{p}old_face_up")
        self.old_ever = B(f"{p}old_ever_face_up")
        self.unknowns: dict[str, object] = {}
        self._terms: dict = {}                     # memoised terms (pure functions of the state)
        self.extra: list = []          # side constraints created while encoding (e.g. pick domains)
        # ---- the player's skill list: initial slots, then grant slots
        self.L = max((len(cat.characters[c].skills) for c in self.chars_me), default=0)
        self.slots: list[Slot] = []
        for j in range(self.L):
            cands = tuple(sorted({cat.characters[c].skills[j] for c in self.chars_me
                                  if j < len(cat.characters[c].skills)}))
            self.slots.append(Slot(j, True, B(f"{p}slot{j}_present"), I(f"{p}slot{j}_rule"), cands,
                                   B(f"{p}slot{j}_used")))
        self.param_types: dict[str, str] = {}
        for gid in self.grant_ids:
            for pn, pt in cat.skills[gid].params.items():
                self.param_types.setdefault(pn, pt)
        for i in range(G):
            self.slots.append(self._grant_slot(self.L + i, f"grant{i}"))
        # a grant the player received and lost when its role was replaced (后来人): an event of the trace
        # whose effect is gone by the question (asked for only where it matters)
        self.lost = self._grant_slot(-1, "lost") if lost else None
        self.plays = [PlaySlot(B(f"{p}play{k}_present"), I(f"{p}play{k}_card"),
                               Moment.make(f"play{k}", B(f"{p}play{k}_present"), p)) for k in range(self.P)]
        # the player's face before this turn's uses turn it (checks/enc/face.py: the uses come after every other event
        # of the trace): terms of its own only when a skill her list may hold turns it, else the question's
        self.turning = any(cat.skills[r].use_faces[1] != {None} for sl in self.slots for r in sl.candidates)
        if self.turning:
            self.pre_face_up, self.pre_ever = B(f"{p}face_up_before_uses"), B(f"{p}ever_face_up_before_uses")
        else:
            self.pre_face_up, self.pre_ever = self.face_up[0], self.ever[0]

    def _grant_slot(self, k: int, name: str) -> Slot:
        p, C = self.p, self.codes
        B, I = z3.Bool, z3.Int
        params = {}
        for pn, pt in sorted(self.param_types.items()):
            nm = f"{p}{name}_{pn}"
            if pt == "bool":
                params[pn] = B(nm)
            elif pt == "set<card>":
                params[pn] = {c: B(f"{nm}_{C.cards[c]}") for c in range(len(C.cards))}
            else:
                params[pn] = I(nm)
        present = B(f"{p}{name}_present")
        return Slot(k, False, present, I(f"{p}{name}_rule"), tuple(self.grant_ids), B(f"{p}{name}_used"),
                    params, I(f"{p}{name}_giver"), I(f"{p}{name}_site"), Moment.make(name, present, p))

    # ------------------------------------------------------------------------------ rule lookups
    def rule_is(self, slot: Slot, rid: str):
        return Eq(slot.rule, self.codes.rule[rid])

    def wrapped(self, slot: Slot):
        """The seat's invalidation wraps this slot: note L82, every skill marked initial that is in the
        list when the InvalidSkill is dealt (server InvalidSkill.deal) — initial slots always, a grant
        slot (a grant wrongly marked initial) only when it came before the invalidation."""
        if slot.initial_slot:
            return self.inv[0]
        return And(self.inv[0], slot.m.before(self.inv_m[0]))

    def invalid(self, slot: Slot, seat: int = 0):
        """Wrapped in an InvalidSkill: the seat is invalidated and the rule is initial (note L82)."""
        key = ("invalid", slot.index)
        if key not in self._terms:
            init = [rid for rid in slot.candidates if self.cat.skills[rid].initial]
            self._terms[key] = And(self.wrapped(slot), Or([self.rule_is(slot, r) for r in init])) \
                if init else z3.BoolVal(False)
        return self._terms[key]

    def live_rule(self, slot: Slot, rid: str, kind: str):
        """Slot holds ``rid`` and it currently has ``kind`` (present, not wrapped)."""
        r = self.cat.skills[rid]
        if kind not in r.closure:
            return z3.BoolVal(False)
        key = ("live", slot.index, rid)
        if key not in self._terms:
            conds = [slot.present, self.rule_is(slot, rid)]
            if r.initial:
                conds.append(Not(self.wrapped(slot)))
            self._terms[key] = And(conds)
        return self._terms[key]

    def live(self, slot: Slot, kind: str):
        return Or([self.live_rule(slot, r, kind) for r in slot.candidates] or [z3.BoolVal(False)])

    def rules_with(self, slot: Slot, kind: str) -> list[str]:
        return [r for r in slot.candidates if kind in self.cat.skills[r].closure]

    # -------------------------------------------------------------------------------- attributes
    def owner_at(self, t):
        """Whose turn turn index ``t`` (a z3 Int) is."""
        cache = self.__dict__.setdefault("_owner_at", {})
        key = t.get_id() if isinstance(t, z3.AstRef) else ("int", t)
        if key not in cache:
            out = self.owner[-1]
            for i in range(self.T - 2, -1, -1):
                out = Ite(Eq(t, i), self.owner[i], out)
            cache[key] = (t, out)           # (t kept alive: its id stays its own)
        return cache[key][1]

    def sender_of_turn(self, t):
        """Who sends turn ``t``'s message (a z3 Int turn index)."""
        out = self.sender_t[-1]
        for i in range(self.T - 2, -1, -1):
            out = Ite(Eq(t, i), self.sender_t[i], out)
        return out

    def sender_at(self, m: Moment):
        """Who sent the message in front of someone at moment ``m`` (NONE when none is travelling)."""
        out = self.sender_t[-1]
        for i in range(self.T - 2, -1, -1):
            out = Ite(Eq(m.t, i), self.sender_t[i], out)
        return Ite(m.message_live(), out, NONE)

    def old_role(self, s: int, m: Moment | None):
        """At moment ``m``, seat ``s`` still had its role from before a replacement."""
        if m is None or s != 0:
            return z3.BoolVal(False)
        return And(self.repl, m.step <= self.repl_m.step)

    def seat_attr(self, s: int, name: str, ctx: "Ctx"):
        cat = self.cat
        m = ctx.moment
        if name == "my_turn" and ctx.turn is not None and m is None:
            return ctx.turn == s if not isinstance(ctx.turn, int) else z3.BoolVal(ctx.turn == s)
        if m is not None:
            if name == "my_turn":
                return self.owner_at(m.t) == s
            if name == "is_sender":
                return self.sender_at(m) == s
            if name == "in_front":
                return m.front == s
            if name == "dying":
                return m.dy == s
            if s == 0 and name in ("character", "face_up", "ever_face_up", "hidden", "female", "male"):
                old = self.old_role(0, m)
                return Ite(old, self._old_attr(name), self._pre_attr(name, ctx))
        stored = stored_seat_attr(self, s, name)
        if stored is not None:
            return stored
        if name == "hidden":
            return self._char_in(s, [c for c in cat.characters.values() if c.hidden])
        if name == "female":
            return And(self.face_up[s], self._char_in(s, [c for c in cat.characters.values() if c.female]))
        if name == "male":
            return And(self.face_up[s], Not(self._char_in(s, [c for c in cat.characters.values() if c.female])))
        if name == "my_turn":
            return self.turn == s
        if name == "is_sender":
            return self.sender == s
        if name == "in_front":
            return self.in_front == s
        if name == "dying":
            return self.dying == s
        if name == "played":             # the player's cards used this turn; another seat's are not traced
            if s != 0:
                return {}
            return {c: Or([And(pl.present, pl.card == c) for pl in self.plays] or [z3.BoolVal(False)])
                    for c in range(len(self.codes.cards))}
        if name == "in_winners":
            return ctx.winners[s]
        if name == "in_declared":
            return ctx.declared[s]
        raise Uncompilable(f"no attribute {name}")

    def _pre_attr(self, name: str, ctx: "Ctx"):
        """The player's attribute at an event of the trace (after a replacement, if any): before this turn's uses, so
        her face is the one they found (checks/enc/face.py)."""
        if name == "face_up":
            return self.pre_face_up
        if name == "ever_face_up":
            return self.pre_ever
        if name in ("female", "male"):
            fem = self._char_in(0, [c for c in self.cat.characters.values() if c.female])
            return And(self.pre_face_up, fem if name == "female" else Not(fem))
        return self.seat_attr(0, name, ctx.at(None))

    def _old_attr(self, name: str):
        """Seat 0's attribute as the role it had before a replacement."""
        cat = self.cat
        is_ = lambda pred: Or([self.old_char == self.codes.char[c] for c in self.chars_old   # noqa: E731
                                  if pred(cat.characters[c])] or [z3.BoolVal(False)])
        if name == "character":
            return self.old_char
        if name in ("face_up", "ever_face_up"):
            return self.old_face_up if name == "face_up" else Or(self.old_face_up, self.old_ever)
        if name == "hidden":
            return is_(lambda c: c.hidden)
        if name == "female":
            return And(self.old_face_up, is_(lambda c: c.female))
        return And(self.old_face_up, Not(is_(lambda c: c.female)))

    def _char_in(self, s: int, chars):
        cands = self.chars_me if s == 0 else self.chars_other
        ids = {c.id for c in chars} & set(cands)
        return Or([Eq(self.char[s], self.codes.char[c]) for c in sorted(ids)] or [z3.BoolVal(False)])

    def unknown(self, key: str, kind: str = "bool"):
        if key not in self.unknowns:
            self.unknowns[key] = z3.Bool(f"{self.p}unknown[{key}]") if kind == "bool" else z3.Int(f"{self.p}unknown[{key}]")
        return self.unknowns[key]

    def globals_(self) -> dict:
        return {"message": dict(enumerate(self.msg[c] for c in V.COLOURS)), "message_dir": self.message_dir,
                "message_lockable": self.lockable}

    # ------------------------------------------------------------------------------ compilation
    def compile(self, node, ctx: "Ctx"):
        return _compile(node, ctx)

    def ctx(self, seat=0, slot: Slot | None = None, **globals_) -> "Ctx":
        g = self.globals_()
        g.update(globals_)
        return Ctx(self, {"self": seat}, dict(slot.params) if slot else {}, g,
                   slot.used if slot is not None else z3.BoolVal(False))


@dataclass
class Ctx:
    S: SymState
    players: dict                       # var -> int seat or z3 Int
    params: dict
    globals: dict
    used: object
    winners: list = field(default_factory=list)
    declared: list = field(default_factory=list)
    moment: Moment | None = None        # read the state as it was at this trace event (None: now)
    turn: object = None                 # whose turn 'my_turn' reads (a result pass's turn; None: now)

    def bind(self, var, seat) -> "Ctx":
        return Ctx(self.S, {**self.players, var: seat}, self.params, self.globals, self.used, self.winners,
                   self.declared, self.moment, self.turn)

    def at(self, moment: Moment | None) -> "Ctx":
        return Ctx(self.S, self.players, self.params, self.globals, self.used, self.winners, self.declared,
                   moment, self.turn)


def _set_member(x, sv: dict):
    if isinstance(x, int):
        return sv.get(x, z3.BoolVal(False))
    if z3.is_int_value(x):
        return sv.get(x.as_long(), z3.BoolVal(False))
    return Or([Eq(x, c) if z3.is_true(b) else And(Eq(x, c), b) for c, b in sv.items()] or [z3.BoolVal(False)])


def _compile(n, ctx: Ctx):
    S = ctx.S
    if isinstance(n, E.Lit):
        return z3.BoolVal(n.value) if isinstance(n.value, bool) else z3.IntVal(n.value)
    if isinstance(n, E.Unknown):
        return S.unknown(n.key)
    if isinstance(n, E.Const):
        return z3.IntVal(S.codes.code(n.type, n.value))
    if isinstance(n, E.Var):
        if n.role == "player":
            return ctx.players[n.name]
        if n.role == "param":
            return ctx.params[n.name]
        if n.role in ("global", "event"):          # an event's values ride with the globals
            return ctx.globals[n.name]
        raise Uncompilable(n)
    if isinstance(n, E.Attr):
        who = _compile(n.obj, ctx)
        if n.name == "used":
            return ctx.used
        if isinstance(who, int):
            return S.seat_attr(who, n.name, ctx)
        if z3.is_int_value(who):
            return S.seat_attr(who.as_long(), n.name, ctx)
        out = S.seat_attr(S.n - 1, n.name, ctx)
        for s in range(S.n - 2, -1, -1):
            out = Ite(who == s, S.seat_attr(s, n.name, ctx), out)
        return out
    if isinstance(n, E.Unary):
        a = _compile(n.arg, ctx)
        return Not(a) if n.op == "not" else -a
    if isinstance(n, E.Bin):
        op = n.op
        if op in ("in", "notin"):
            x = _compile(n.left, ctx)
            sv = _compile(n.right, ctx)
            m = _set_member(x, sv)
            return m if op == "in" else Not(m)
        a, b = _compile(n.left, ctx), _compile(n.right, ctx)
        if isinstance(a, dict) or isinstance(b, dict):       # set equality
            keys = set(a) | set(b)
            eq = And([a.get(k, z3.BoolVal(False)) == b.get(k, z3.BoolVal(False)) for k in keys])
            return eq if op == "==" else Not(eq)
        if op in ("+", "-", "*", "<", "<=", ">", ">="):
            a, b = _as_int(a), _as_int(b)
        return {"and": lambda: And(a, b), "or": lambda: Or(a, b), "==": lambda: a == b,
                "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b,
                ">=": lambda: a >= b, "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b}[op]()
    if isinstance(n, E.If):
        return Ite(_compile(n.cond, ctx), _compile(n.then, ctx), _compile(n.other, ctx))
    if isinstance(n, E.SetLit):
        items = [_compile(i, ctx) for i in n.items]
        if not items:
            return {}
        if all(z3.is_int_value(it) for it in items):     # a set of constants: name its members only
            return {it.as_long(): z3.BoolVal(True) for it in items}
        et = V.elem_of(n.type)
        dom = range(len(S.codes.domain(et))) if et else []
        out = {}
        for c in dom:
            b = Or([(it == c) if not isinstance(it, int) else z3.BoolVal(it == c) for it in items])
            b = z3.simplify(b)
            if not z3.is_false(b):
                out[c] = b
        return out
    if isinstance(n, E.Quant):
        terms = [(S.present[s], _compile(n.body, ctx.bind(n.var, s))) for s in range(S.n)]
        if n.kind == "any":
            return Or([And(p, b) for p, b in terms])
        if n.kind == "all":
            return And([Implies(p, b) for p, b in terms])
        return z3.Sum([Ite(And(p, b), 1, 0) for p, b in terms])
    raise Uncompilable(n)


class Uncompilable(ValueError):
    """A catalogue value the encoder has no term for (a rule's text where an expression belongs, …): the gate reports
    it as inconclusive, naming the code it came from, never as an internal error."""

    def __init__(self, value):
        self.value = value
        super().__init__(f"cannot compile {type(value).__name__}: {str(value)[:80]}")


def _as_int(v):
    return Ite(v, 1, 0) if z3.is_bool(v) else v


