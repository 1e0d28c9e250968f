"""What the ``triggers`` family reasons about: triggered skills as data — the events they answer (``on``), the events
their effects raise (``do``), the table resources their effects and guards touch — and a small z3 model of the
moment an event is dealt, over which guards and effect conditions are compiled with the project's expression
compiler (``checks.enc.state._compile``, the z3 twin's).

* ``raises``: the events an effect raises, op by op, as the interpreter of whole games does them
  (``model/interp/ops.py``: ``discard`` raises ``discard``, ``give`` / ``take`` raise ``give_card``, ``put_message`` and
  a ``remove_message`` into another area raise ``add_message``, ``kill`` raises ``die``; ``send_message`` is followed by
  the ``send`` of the message, ``receive`` by its ``receive``; a skill that acts as a card raises ``use_card`` and
  ``card_resolved``), each with the players of the raised event in the raising rule's words.
* ``accesses``: what an op changes or reads (a player's hand, message area, role face, the travelling message, the
  card being used …) — two effects commute unless they touch one resource and one of them changes it (adding to a
  hand and adding to it again commute; taking a card out of it and adding one do not: the first may leave the second
  nothing, or give it a card to take).
* ``World`` / ``Frame`` / ``Event`` / ``bind``: the moment an event is offered to a skill, in z3 — up to five seats of
  distinct characters (shared by every frame), each frame a fresh copy of the table's changing facts (alive, faces,
  hands, message areas, the message); an event's players are seats, its values z3 terms; a rule's guard and its ops'
  conditions compile against a frame with its holder and the event bound. The facts every state of the game keeps
  (``model/interp/snapshot.py``: a public role is face up, message counts that add up, a living player has an
  identity) and the event's own (the dead victim of ``die``, the living receiver of ``receive``, a message of one or
  two colours) hold; nothing about how the game got there is asserted (game-level reachability is the
  interpreter's, not this model's), so what is unsatisfiable here is unsatisfiable in every game.

Imports of the z3 twin stay in this one module (``checks.enc.state``).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import z3

from skillproof.checks import z3signals  # noqa: F401 — z3 leaves the signals to Python, and stops on them

from skillproof.model import effects as EF
from skillproof.model import events as EV
from skillproof.model import expr as E
from skillproof.model import vocab as V
from skillproof.model.state import Seat

from .enc.state import Codes, Ctx, _compile        # the project's expression compiler (z3 twin)
from .terms import And, Eq, Not, Or, check as _check
from .enc.state import stored_seat_attr

SEATS = 5                    # seats of the model: a holder, an event's two players and two chosen ones
TIMEOUT_MS = 2000


# ================================================================================== ops, walked with their context
@dataclass(frozen=True)
class OpAt:
    """One op of a ``do`` tree with what leads to it: the conditions of the ``choose`` ops around it and its own
    (``conds``), whether some op on the way may be declined or is one alternative of a choice (``optional``)."""
    op: object               # model.catalogue.DoOp
    path: str
    conds: tuple
    optional: bool


def ops_at(ops, prefix: str = "", conds: tuple = (), optional: bool = False):
    for i, o in enumerate(ops):
        path = f"{prefix}{i}"
        here = conds + ((o.cond,) if o.cond is not None else ())
        opt = optional or o.may
        yield OpAt(o, path, here, opt)
        for a, alt in enumerate(o.options):
            yield from ops_at(alt, f"{path}.{a}.", here, True)


# ================================================================================== events an effect raises
@dataclass(frozen=True)
class Raise:
    kind: str                # the event kind (model.events)
    roles: tuple             # ((role, player word), …): the raised event's players in the raising rule's words
    words: tuple             # ((word, value), …): the raised event's values known from the op
    at: OpAt | None          # the op (None: the rule itself, e.g. a skill acting as a card)


def _pw(v):
    return v if isinstance(v, str) else None


def raises(src, is_skill: bool) -> list:
    """The events the effect of ``src`` (a rule or a card) raises, op by op (model/interp/ops.py)."""
    out = []
    for at in ops_at(getattr(src, "do", ()) or ()):
        o, a = at.op, at.op.args
        if o.op == "discard":
            out.append(Raise("discard", (("discarder", _pw(a.get("who", "self"))),), (), at))
        elif o.op == "give":
            out.append(Raise("give_card", (("giver", _pw(a.get("from", "self"))), ("taker", _pw(a.get("to")))), (), at))
        elif o.op == "take":
            out.append(Raise("give_card", (("giver", _pw(a.get("from"))), ("taker", _pw(a.get("to", "self")))), (), at))
        elif o.op == "put_message" or (o.op == "remove_message" and a.get("to") == "area"):
            out.append(Raise("add_message", (), (("by_skill", is_skill),), at))
        elif o.op == "kill":
            out.append(Raise("die", (("victim", _pw(a.get("who", "self"))),), (), at))
        elif o.op == "send_message":
            out.append(Raise("send", (("sender", _pw(a.get("by", "self"))),), (), at))
        elif o.op == "receive":
            out.append(Raise("receive", (("receiver", _pw(a.get("who", "self"))),), (), at))
    plays = getattr(src, "plays", None)
    if plays is not None:
        for kind in ("use_card", "card_resolved"):
            out.append(Raise(kind, (("user", "self"),), (("real_card", False),), None))
    return out


def grants_of(src) -> list:
    """(grant id, OpAt) of every ``grant`` op of an effect."""
    return [(at.op.args.get("grant"), at) for at in ops_at(getattr(src, "do", ()) or ()) if at.op.op == "grant"]


# ================================================================================== resources
#: resource -> (zh, en): what an effect may change or read
RESOURCES = {
    "hand": ("手牌", "hand"), "area": ("情报区", "message area"), "face": ("角色牌的朝向", "role card's face"),
    "alive": ("存活", "being alive"), "identity": ("身份", "identity"), "locked": ("被锁定", "being locked"),
    "message": ("传递中的情报", "the travelling message"), "message_face": ("情报的朝向", "the message's face"),
    "front": ("情报在谁面前", "whom the message is in front of"), "dir": ("传递方向", "the message's direction"),
    "card_valid": ("正在使用的牌是否有效", "whether the card being used is still valid"),
    "skills": ("技能", "skills"), "phase": ("阶段", "the phase"), "role": ("角色", "role"),
}
#: resources that belong to a player (the others are the table's)
PLAYER_RESOURCES = {"hand", "area", "face", "alive", "identity", "locked", "skills", "role"}
ATTR_RESOURCE = {"alive": "alive", "face_up": "face", "ever_face_up": "face", "female": "face", "male": "face",
                 "hand_count": "hand", "hand_empty": "hand", "red_messages": "area", "blue_messages": "area",
                 "black_messages": "area", "true_messages": "area", "non_black_messages": "area",
                 "identity": "identity", "locked": "locked", "in_front": "front", "dying": "area"}
WORD_RESOURCE = {"card_valid": "card_valid", "message_face_up": "message_face", "message_in_area": "area"}


@dataclass(frozen=True)
class Access:
    res: str
    who: str | None          # a player word of the rule (None: the table's; "all" / "others": every player)
    mode: str                # add | remove | set | read
    value: object = None     # set: the value set, when one constant
    at: OpAt | None = None   # the op (None: the guard)


def _op_accesses(at: OpAt) -> list:
    o, a = at.op, at.op.args
    A = lambda res, who, mode, value=None: Access(res, _pw(who) if who is not None else None, mode, value, at)  # noqa
    k = o.op
    if k == "draw":
        return [A("hand", a.get("who", "self"), "add")]
    if k == "discard":
        return [A("hand", a.get("who", "self"), "remove")]
    if k == "give":
        return [A("hand", a.get("from", "self"), "remove"), A("hand", a.get("to"), "add")]
    if k == "take":
        return [A("hand", a.get("from"), "remove"), A("hand", a.get("to", "self"), "add")]
    if k == "show":
        what = a.get("what", "hand_card")
        if what in ("hand", "hand_card"):
            return [A("hand", a.get("who", "self"), "read")]
        if what == "message":
            return [A("message", None, "read")]
        if what == "identity":
            return [A("identity", a.get("who", "self"), "read")]
        return []
    if k == "put_message":
        out = [A("area", a.get("to", "self"), "add")]
        if a.get("three", "allowed") != "allowed":
            out.append(A("area", a.get("to", "self"), "read"))
        src = a.get("from", "hand")
        if src == "hand":
            out.append(A("hand", a.get("of", "self"), "remove"))
        elif src == "message":
            out += [A("message", None, "remove"), A("front", None, "set")]
        elif src == "message_area":
            out.append(A("area", a.get("of", "self"), "remove"))
        return out
    if k == "remove_message":
        out = [A("area", a.get("whose", "self"), "remove")]
        to = a.get("to", "discard_pile")
        if to == "hand":
            out.append(A("hand", a.get("by", "self"), "add"))
        elif to == "area":
            out.append(A("area", a.get("into"), "add"))
            if a.get("three", "allowed") != "allowed":
                out.append(A("area", a.get("into"), "read"))
        return out
    if k == "flip":
        if a.get("what", "role") == "message":
            return [A("message_face", None, "set", a.get("face", "up"))]
        return [A("face", a.get("who", "self"), "set", a.get("face", "up"))]
    if k == "move_message":
        return [A("front", None, "set")]
    if k == "redirect":
        return [A("dir", None, "set", a.get("dir"))]
    if k == "lock":
        return [A("locked", a.get("who", "self"), "set", True)]
    if k == "replace_message":
        out = [A("message", None, "set")]
        if a.get("from", "hand") == "hand":
            out.append(A("hand", a.get("of", "self"), "remove"))
        elif a.get("from") == "message_area":
            out.append(A("area", a.get("of", "self"), "remove"))
        return out
    if k == "take_message":
        out = [A("message", None, "remove"), A("front", None, "set")]
        if a.get("to", "discard_pile") == "hand":
            out.append(A("hand", a.get("by", "self"), "add"))
        return out
    if k == "send_message":
        out = [A("message", None, "set")]
        src = a.get("from", "hand")
        if src == "hand":
            out.append(A("hand", a.get("of") or a.get("by", "self"), "remove"))
        elif src == "message_area":
            out.append(A("area", a.get("of") or a.get("by", "self"), "remove"))
        return out
    if k == "cancel":
        return [A("card_valid", None, "set", False)]
    if k == "grant":
        return [A("skills", a.get("to") or "self", "add")]
    if k in ("end_turn", "skip"):
        return [A("phase", None, "set")]
    if k == "swap":
        res = {"identity": "identity", "hand": "hand", "messages": "area", "role": "role"}[a.get("what")]
        return [A(res, a.get("a", "self"), "set"), A(res, a.get("b"), "set")]
    if k == "take_identity":
        return [A("identity", a.get("from"), "set"), A("identity", a.get("to", "self"), "set")]
    if k == "receive":
        out = [A("front", None, "set"), A("phase", None, "set")]
        if a.get("three", "allowed") == "to_hand":
            out += [A("area", a.get("who", "self"), "read"), A("message", None, "remove"), A("hand", a.get("by", "self"), "add")]
        return out
    if k == "kill":
        return [A("alive", a.get("who", "self"), "set", False)]
    return []


def expr_reads(node, at: OpAt | None = None) -> list:
    """What an expression reads: (resource, player word) of each attribute, the message, the event's values."""
    out = []
    if node is None:
        return out
    bound = set()
    for n in E.walk(node):
        if isinstance(n, E.Quant):
            bound.add(n.var)
        if isinstance(n, E.Attr):
            res = ATTR_RESOURCE.get(n.name)
            if res is None:
                continue
            who = n.obj.name if isinstance(n.obj, E.Var) else None
            if who in bound or who is None:
                who = "all"
            out.append(Access(res, who, "read", None, at))
        elif isinstance(n, E.Var):
            if n.role == "global" and n.name == "message":
                out.append(Access("message", None, "read", None, at))
            elif n.role == "event" and n.name in WORD_RESOURCE:
                who = "receiver" if n.name == "message_in_area" else None
                out.append(Access(WORD_RESOURCE[n.name], who, "read", None, at))
    return out


def accesses(src) -> list:
    """What the effect of ``src`` changes and reads, op by op (its conditions and amounts read too)."""
    out = []
    for at in ops_at(getattr(src, "do", ()) or ()):
        out += _op_accesses(at)
        for c in at.op.cond and (at.op.cond,) or ():
            out += expr_reads(c, at)
        for key in ("n", "up_to", "where"):
            v = at.op.args.get(key)
            if isinstance(v, E.Node):
                out += expr_reads(v, at)
    return out


def conflict(a: Access, b: Access) -> bool:
    """Do two accesses of one resource (by aliasable players) fail to commute?"""
    if a.res != b.res:
        return False
    modes = {a.mode, b.mode}
    if modes == {"read"}:
        return False
    if "read" in modes:
        return True
    if modes in ({"add"}, {"remove"}):
        return False
    if modes == {"set"} and a.value is not None and a.value == b.value:
        return False
    return True


# ================================================================================== the z3 model
def player_words(src, on: tuple = ()) -> set:
    """Every player word the rule's guards and effect name (arguments, conditions, amounts)."""
    out = set()
    for o in on:
        out |= _node_players(o.when)
    for at in ops_at(getattr(src, "do", ()) or ()):
        for arg in EF.OPS[at.op.op].args:
            if arg.type == EF.PLAYER and isinstance(at.op.args.get(arg.name), str):
                out.add(at.op.args[arg.name])
        if at.op.cond is not None:
            out |= _node_players(at.op.cond)
        for key in ("n", "up_to", "where"):
            v = at.op.args.get(key)
            if isinstance(v, E.Node):
                out |= _node_players(v)
    return out - set(EF.PLAYER_SETS)


def _node_players(node) -> set:
    bound = {n.var for n in E.walk(node) if isinstance(n, E.Quant)}
    return {n.name for n in E.walk(node) if isinstance(n, E.Var) and n.role == "player" and n.name not in bound}


_PREP: dict = {}


def prep(node):
    """The expression as the z3 twin's compiler reads it: an event's values are read as globals of the frame (the
    compiler knows globals, not events), and the holder's ``played`` as the global ``__played``."""
    key = id(node)
    got = _PREP.get(key)
    if got is not None and got[0] is node:
        return got[1]
    out = copy.deepcopy(node)
    for n in E.walk(out):
        if isinstance(n, E.Var) and n.role == "event":
            n.role = "global"
        elif isinstance(n, E.Attr) and n.name == "played":
            n.__class__ = E.Var
            del n.obj
            n.name, n.role = "__played", "global"
    _PREP[key] = (node, out)
    return out


def reads_character(src, on: tuple = ()) -> bool:
    """Does any guard or effect expression of the rule name a character (``p.character == …``)?"""
    nodes = [o.when for o in on]
    for at in ops_at(getattr(src, "do", ()) or ()):
        nodes += list(at.conds)
        for key in ("n", "up_to", "where"):
            if isinstance(at.op.args.get(key), E.Node):
                nodes.append(at.op.args[key])
    return any(isinstance(n, E.Attr) and n.name == "character" or isinstance(n, E.Const) and n.type == V.CHARACTER
               for node in nodes for n in E.walk(node))


class World:
    """The seats: which are at the table and their characters, shared by every frame of one question.

    ``exact``: each seat holds a character of the catalogue, no two the same (what a chain of skills held by one
    character each needs). Otherwise a seat is only what the guards can tell characters apart by — hidden or not,
    female or not — among the combinations the characters have (and a holder's among its holders'): fewer facts, and
    weaker ones, so that what is unsatisfiable there is unsatisfiable with exact seats too (a guard naming a character
    needs exact seats: the caller says so, ``reads_character``)."""

    def __init__(self, cat, codes: Codes, chars: list, tag: str = "", exact: bool = True):
        self.cat, self.codes = cat, codes
        self.chars = list(chars)
        self.exact = exact
        self.n = max(1, min(SEATS, cat.rules.seats, max(len(self.chars), 1)))
        self.tag = tag
        p = f"{tag}w."
        self.present = [z3.BoolVal(True)] + [z3.Bool(f"{p}present{s}") for s in range(1, self.n)]
        self.char = [z3.Int(f"{p}char{s}") for s in range(self.n)]
        self.facts = []
        for s in range(2, self.n):
            self.facts.append(z3.Implies(self.present[s], self.present[s - 1]))
        need = min(max(cat.rules.min_seats, 1), self.n)
        if need > 1:
            self.facts.append(self.present[need - 1])
        # per seat: is its character hidden, female (one Boolean each)
        self.hidden_b = [z3.Bool(f"{p}hidden{s}") for s in range(self.n)]
        self.female_b = [z3.Bool(f"{p}female{s}") for s in range(self.n)]
        self.k = 0
        self._in: dict = {}
        if not exact:
            combos = self._combos(self.chars)
            for s in range(self.n):
                self.facts.append(self._combo_is(s, combos))
            return
        ids = sorted(codes.char[c] for c in self.chars)
        contiguous = ids == list(range(ids[0], ids[-1] + 1)) if ids else False
        for s in range(self.n):
            if contiguous:
                self.facts.append(And(self.char[s] >= ids[0], self.char[s] <= ids[-1]))
            else:
                self.facts.append(Or([Eq(self.char[s], i) for i in ids]))
        self.facts.append(z3.Distinct(*self.char))
        hid = [codes.char[c] for c in self.chars if cat.characters[c].hidden]
        fem = [codes.char[c] for c in self.chars if cat.characters[c].female]
        for s in range(self.n):
            self.facts.append(self.hidden_b[s] == Or([Eq(self.char[s], i) for i in hid] or [z3.BoolVal(False)]))
            self.facts.append(self.female_b[s] == Or([Eq(self.char[s], i) for i in fem] or [z3.BoolVal(False)]))

    def _combos(self, chars) -> list:
        return sorted({(self.cat.characters[c].hidden, self.cat.characters[c].female) for c in chars})

    def _combo_is(self, s: int, combos):
        return Or([And(self.hidden_b[s] if h else Not(self.hidden_b[s]), self.female_b[s] if f else Not(self.female_b[s]))
                   for h, f in combos] or [z3.BoolVal(False)])

    def char_in(self, s, chars) -> object:
        chars = set(chars) & set(self.chars)
        if not chars:
            return z3.BoolVal(False)
        if len(chars) == len(self.chars):
            return z3.BoolVal(True)
        key = tuple(sorted(chars))
        per = self._in.get(key)
        if per is None:
            if self.exact:
                ids = sorted(self.codes.char[c] for c in chars)
                per = [Or([Eq(self.char[t], i) for i in ids]) for t in range(self.n)]
            else:
                combos = self._combos(chars)
                per = [self._combo_is(t, combos) for t in range(self.n)]
            self._in[key] = per
        if isinstance(s, int):
            return per[s]
        return Or([And(Eq(s, t), per[t]) for t in range(self.n)])

    def seat(self, name: str, facts: list):
        v = z3.Int(f"{self.tag}{name}.{self.k}")
        self.k += 1
        facts.append(Or([And(Eq(v, s), self.present[s]) for s in range(self.n)]))
        return v

    def hidden(self, s: int):
        return self.hidden_b[s]

    def female(self, s: int):
        return self.female_b[s]


class Frame:
    """The table's changing facts at one moment (duck-typing ``SymState`` for ``_compile``)."""

    def __init__(self, world: World, tag: str):
        self.world, self.cat, self.codes, self.n, self.present = world, world.cat, world.codes, world.n, world.present
        self.char = world.char
        p = f"{world.tag}{tag}."
        B, I = z3.Bool, z3.Int
        rng = range(self.n)
        self.alive = [B(f"{p}alive{s}") for s in rng]
        self.face_up = [B(f"{p}face_up{s}") for s in rng]
        self.ever = [B(f"{p}ever{s}") for s in rng]
        self.locked = [B(f"{p}locked{s}") for s in rng]
        self.ident = [I(f"{p}identity{s}") for s in rng]
        self.ints = {f: [I(f"{p}{f}{s}") for s in rng] for f in Seat.INT_FIELDS}
        self.turn, self.sender, self.front, self.dying = I(f"{p}turn"), I(f"{p}sender"), I(f"{p}front"), I(f"{p}dying")
        self.msg = {c: (B(f"{p}message_{c}") if c in V.MESSAGE_COLOURS else z3.BoolVal(False)) for c in V.COLOURS}
        self.message_dir, self.lockable = I(f"{p}message_dir"), B(f"{p}lockable")
        self.played = {i: B(f"{p}played{i}") for i in range(len(self.codes.cards))}
        self.unknowns: dict = {}
        self.p = p
        none = self.codes.colour["none"]
        f = self.facts = []
        for s in rng:
            f.append(z3.Implies(self.face_up[s], self.ever[s]))
            f.append(z3.Implies(z3.Not(world.hidden(s)), self.face_up[s]))
            f.append(And(self.ident[s] >= 0, self.ident[s] < len(self.codes.colours)))
            f.append(z3.Implies(self.alive[s], self.ident[s] != none))
            for name, (lo, hi) in V.INT_BOUNDS.items():
                if name in self.ints:
                    f.append(And(self.ints[name][s] >= lo, self.ints[name][s] <= hi))
            r, b, t = self.ints["red_messages"][s], self.ints["blue_messages"][s], self.ints["true_messages"][s]
            f += [r <= t, b <= t, t <= r + b, self.ints["non_black_messages"][s] <= t]
        f.append(And(self.message_dir >= 0, self.message_dir < len(self.codes.dirs)))
        f.append(Or([And(self.alive[s], self.present[s]) for s in rng]))

    #: the attributes (of the arrays above) each resource is made of
    _RES_ATTRS = {"hand": ("hand_count",), "area": ("red_messages", "blue_messages", "black_messages", "true_messages",
                                                    "non_black_messages"),
                  "face": ("face_up", "ever"), "alive": ("alive",), "identity": ("ident",), "locked": ("locked",)}

    def same_as(self, other: "Frame", changed: set):
        """``other`` is this frame after an effect that changed the resources ``changed``: every other fact of the
        table is the same in both."""
        eq = []
        for res, attrs in self._RES_ATTRS.items():
            if res in changed:
                continue
            for a in attrs:
                mine = self.ints[a] if a in self.ints else getattr(self, a)
                theirs = other.ints[a] if a in other.ints else getattr(other, a)
                eq += [x == y for x, y in zip(mine, theirs)]
        if "message" not in changed:
            eq += [self.msg[c] == other.msg[c] for c in V.MESSAGE_COLOURS]
        if "front" not in changed:
            eq.append(self.front == other.front)
        if "dir" not in changed:
            eq.append(self.message_dir == other.message_dir)
        eq += [self.turn == other.turn, self.sender == other.sender, self.dying == other.dying,
               self.lockable == other.lockable]
        eq += [self.played[i] == other.played[i] for i in self.played]
        return And(*eq)

    def message_colours(self):
        return z3.Sum([z3.If(self.msg[c], 1, 0) for c in V.MESSAGE_COLOURS])

    def globals_(self) -> dict:
        return {"message": dict(enumerate(self.msg[c] for c in V.COLOURS)), "message_dir": self.message_dir,
                "message_lockable": self.lockable, "__played": dict(self.played)}

    # ---- SymState's interface, as _compile uses it
    def seat_attr(self, s: int, name: str, ctx):
        stored = stored_seat_attr(self, s, name)
        if stored is not None:
            return stored
        if name == "hidden":
            return self.world.hidden(s)
        if name == "female":
            return And(self.face_up[s], self.world.female(s))
        if name == "male":
            return And(self.face_up[s], z3.Not(self.world.female(s)))
        if name == "my_turn":
            return self.turn == s
        if name == "is_sender":
            return self.sender == s
        if name == "in_front":
            return self.front == s
        if name == "dying":
            return self.dying == s
        raise ValueError(f"no attribute {name}")

    def unknown(self, key: str, kind: str = "bool"):
        if key not in self.unknowns:
            self.unknowns[key] = z3.Bool(f"{self.p}unknown[{key}]") if kind == "bool" else z3.Int(f"{self.p}unknown[{key}]")
        return self.unknowns[key]


@dataclass
class Event:
    """One event in one frame: its kind, its players (seats) and values (z3 terms), and the facts it brings."""
    kind: object             # model.events.EventKind
    roles: dict
    words: dict
    facts: list = field(default_factory=list)      # of (label, term)


def cards_with_target(cat) -> tuple:
    """(cards used on a target, cards used on nobody) of the catalogue (``[[card]] target``)."""
    yes = [c.id for c in cat.cards.values() if c.target is not None and c.target.who != "none"]
    return yes, [c for c in cat.cards if c not in yes]


def event(world: World, frame: Frame, key: str, tag: str, known: dict | None = None) -> Event:
    """The event ``key`` dealt at ``frame``: its players as seats, its values, and what the event itself says of them."""
    kind = EV.EVENT_KINDS[key]
    facts: list = []
    roles = {r: world.seat(f"{tag}.{r}", facts) for r in kind.role_names}
    for r, v in (known or {}).get("roles", {}).items():
        if r in roles and v is not None:
            facts.append(roles[r] == v)
    C = frame.codes
    words = {}
    for w in kind.words:
        if w.type == V.BOOL:
            words[w.name] = z3.Bool(f"{world.tag}{tag}.{w.name}")
        else:
            words[w.name] = z3.Int(f"{world.tag}{tag}.{w.name}")
    for w, v in (known or {}).get("words", {}).items():
        if w in words:
            facts.append(words[w] == v)
    ev = [("event", And(*facts) if facts else z3.BoolVal(True))]
    F = []
    al = frame.alive
    at = lambda s: _at(al, s)      # noqa: E731
    F.append(frame.turn == roles["turn_player"])
    if "sender" in roles:
        F.append(frame.sender == roles["sender"])
    front = roles.get("front", roles.get("receiver"))
    if front is not None:
        F.append(frame.front == front)
    if "card" in words:
        F.append(And(words["card"] >= 0, words["card"] < len(C.cards)))
        yes, no = cards_with_target(world.cat)
        is_yes = Or([Eq(words["card"], C.card[c]) for c in yes if c in C.card]) if yes else z3.BoolVal(False)
        F.append(z3.Implies(words["real_card"], words["has_target"] == is_yes))
        # a card used that is no physical card is one a skill acts as (``plays``)
        virtual = sorted({c for r in world.cat.skills.values() if r.plays for c in r.plays.cards if c in C.card})
        F.append(z3.Or(words["real_card"], Or([Eq(words["card"], C.card[c]) for c in virtual] or [z3.BoolVal(False)])))
    if "dir" in words:
        F.append(And(words["dir"] >= 0, words["dir"] < len(C.dirs)))
    if "message_colours" in words:
        F.append(words["message_colours"] == frame.message_colours())
    if key in ("send", "move", "choose_receive", "receive", "receive_phase"):
        F.append(frame.message_colours() >= 1)
        F.append(frame.message_colours() <= 2)
    if key == "die":
        F.append(z3.Not(at(roles["victim"])))
    elif key in ("move", "choose_receive"):
        F.append(at(roles["front"]))
    elif key in ("receive", "receive_phase"):
        F.append(at(roles["receiver"]))
    elif key == "send":
        F.append(at(roles["sender"]))
    elif key == "use_card":
        F.append(at(roles["user"]))
    elif key == "send_phase_start":
        F.append(at(roles["turn_player"]))
    return Event(kind, roles, words, ev + [("event_facts", And(*F))])


def _at(arr, s):
    if isinstance(s, int):
        return arr[s]
    out = arr[-1]
    for t in range(len(arr) - 2, -1, -1):
        out = z3.If(s == t, arr[t], out)
    return out


def holder_chars(cat, rule, playable) -> list:
    """The characters that may hold ``rule``: its owners; for a grant, the owners of the skills that hand it to
    themselves, or anyone (a card's grant, a grant to other players)."""
    if not rule.is_grant:
        return [c for c in playable if rule.id in cat.characters[c].skills]
    out = set()
    for g in cat.sites(rule.id):
        if g.giver_is_card or g.to != "self":
            return list(playable)
        out |= set(cat.owners(g.giver))
    return [c for c in playable if c in out]


@dataclass
class Bound:
    """A rule bound at an event in a frame: its holder, the players and values its words read, its z3 context."""
    rule: object
    on: object
    frame: Frame
    ev: Event
    holder: object
    players: dict
    ctx: Ctx
    facts: list              # of (label, term): holder, dispatch, whose
    used: object

    def compile(self, node):
        return _compile(prep(node), self.ctx)

    def guard(self):
        return self.compile(self.on.when)

    def conds(self, at: OpAt):
        return And(*[self.compile(c) for c in at.conds]) if at.conds else z3.BoolVal(True)

    def seat_of(self, word):
        return self.players.get(word) if isinstance(word, str) else None


def bind(world: World, frame: Frame, ev: Event, rule, on, tag: str, chars: list, dispatch: bool = True,
         holder=None) -> Bound:
    """``rule`` answering ``ev`` through its ``on`` entry, held by a seat of the world (``holder``, or a new one)."""
    facts: list = []
    side: list = []
    h = holder if holder is not None else world.seat(f"{tag}.self", side)
    players = {"self": h, **ev.roles}
    words = player_words(rule, (on,))
    for w in sorted(words):
        if w in players:
            continue
        base = next((w[:-len(s)] for s in EF.SIDES if w.endswith(s)), None)
        v = world.seat(f"{tag}.{w}", side)
        if base is not None and base in players:
            side.append(v != players[base])
            side.append(_at(frame.alive, v))
        players[w] = v
    holds = world.char_in(h, chars)
    facts.append(("holder", holds))
    if dispatch and not EV.dispatched(False, rule.has("BeforeDieSkill"), rule.initial):
        facts.append(("dispatch", _at(frame.alive, h)))     # a dead holder's initial skill is not asked
    facts.append(("whose", _whose(on, ev, h)))
    params = {}
    for pn, pt in rule.params.items():
        nm = f"{world.tag}{tag}.param.{pn}"
        if pt == "bool":
            params[pn] = z3.Bool(nm)
        elif pt == "set<card>":
            params[pn] = {c: z3.Bool(f"{nm}.{c}") for c in range(len(frame.codes.cards))}
        else:
            params[pn] = z3.Int(nm)
            dom = {"card": len(frame.codes.cards), "colour": len(frame.codes.colours)}.get(pt)
            side.append(params[pn] >= 0)
            if dom is not None:
                side.append(params[pn] < dom)
    used = z3.Bool(f"{world.tag}{tag}.used")
    g = frame.globals_()
    g.update(ev.words)
    for name, typ in EF.bindings(getattr(rule, "do", ()) or ()).items():    # what an op moved: any value (``as``)
        nm = f"{world.tag}{tag}.as.{name}"
        g[name] = {c: z3.Bool(f"{nm}.{c}") for c in range(len(frame.codes.colours))} if typ.startswith("set<") \
            else z3.Int(nm)
    ctx = Ctx(frame, players, params, g, used)
    facts.insert(0, ("frame", And(*side) if side else z3.BoolVal(True)))
    return Bound(rule, on, frame, ev, h, players, ctx, facts, used)


def _whose(on, ev: Event, h):
    kind = ev.kind
    if on.whose == ("any",):
        return z3.BoolVal(True)
    if on.whose in (("self",), ("other",)):
        p = ev.roles.get(kind.principal) if kind.principal else None
        if p is None:
            return z3.BoolVal(on.whose == ("other",))
        return (h == p) if on.whose == ("self",) else (h != p)
    return Or([h == ev.roles[r] for r in on.whose if r in ev.roles])


class Solver:
    """A z3 solver over one world, with labelled facts (an unsatisfiable question names the facts that make it so)."""

    def __init__(self, world: World, timeout_ms: int = TIMEOUT_MS):
        self.s = z3.Solver()
        self.s.set("timeout", timeout_ms)
        self.s.set("smt.arith.solver", 2)      # the simplex solver: quicker on these small questions
        self.world = world
        self.s.add(*world.facts)
        self._label_vars: list = []
        self.last_model = None          # the model of the last satisfiable question (without a core)

    def add(self, *terms):
        self.s.add(*terms)

    def check(self, labelled=(), extra=(), core: bool = False) -> tuple:
        """(status — 'sat' / 'unsat' / 'unknown' — , with ``core``: the labels of an unsatisfiable core)."""
        self.s.push()
        try:
            for t in extra:
                self.s.add(t)
            if not core:
                self.s.add(*[t for _, t in labelled])
                r = self.s.check()
                self.last_model = self.s.model() if r == z3.sat else None
                return ("sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"), []
            assumptions = []
            for i, (label, term) in enumerate(labelled):
                while len(self._label_vars) <= i:
                    self._label_vars.append(z3.Bool(f"{self.world.tag}label{len(self._label_vars)}"))
                b = self._label_vars[i]
                self.s.add(Or(Not(b), term))
                assumptions.append(b)
            r = _check(self.s, *assumptions)
            if r == z3.unsat:
                names = {str(b): labelled[i][0] for i, b in enumerate(assumptions)}
                return "unsat", sorted({names[str(b)] for b in self.s.unsat_core()})
            return ("sat" if r == z3.sat else "unknown"), []
        finally:
            self.s.pop()
