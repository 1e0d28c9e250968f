"""Whether two conditions of the catalogue mean the same, for ``diff``'s comparison of rule data (``diff_rules``):
two guards that read differently but decide alike wherever the event can be dealt are one guard (a 如归 test that
the holder is not the turn player, dropped because the next test — the turn player alive — already excludes it when
the holder is the one who died).

The conditions are compiled to z3 over *any* table: each player a free value, each player attribute an uninterpreted
function of the player (``alive(p)``, ``true_messages(p)``), each value of the event or parameter a free constant,
card and character names distinct constants. What the table is then is constrained only by what the catalogue says
always holds: the event's ``holds`` (``model.events``: the dead player of ``die`` is not alive) and who the holder is
(``whose``: ``self`` is the event's principal, ``other`` is not), and that a player's count (cards in hand, messages
of a colour) is never negative. Two conditions equal on every such table are equal
on every real one. Anything the compiler does not know (``unknown``, quantifiers over players, sets but a literal
one) makes the answer "not shown equal": the comparison then stays the textual one, and the change is named.
"""
from __future__ import annotations

import re

import z3

from skillproof.checks import worklimit as W
from skillproof.model import expr as E
from skillproof.model import vocab as V
from skillproof.model.events import EVENT_KINDS

#: z3 resource units one comparison may spend: its budget in work, so that whether two conditions are shown the same
#: does not depend on the machine's load (spent: not shown the same, on every machine)
RLIMIT = 20_000_000
#: milliseconds one comparison may take: only the outer safety net — running into it raises TimeSpent (the command
#: is inconclusive, exit 3), never a different "same" / "changed"
TIMEOUT_MS = 60_000


TimeSpent = W.TimeSpent          # a comparison ran into the wall clock's safety net: no verdict on it
#: the types a value is compiled for (a truth value; a number, or a name of a card, colour, direction or character,
#: each an integer); a set or anything else is not compiled
_SCALARS = ("bool", "int", "card", "colour", "direction", "character")


class _NotCompiled(Exception):
    pass


class _Enc:
    def __init__(self, players: set):
        self.players = set(players)
        self.consts: dict = {}
        self.funs: dict = {}
        self.vars: dict = {}
        self.counts: list = []                      # the counts read (``_facts``: each at least 0)

    def player(self, name: str):
        return self.var(("player", name), z3.IntSort())

    def var(self, key, sort):
        if key not in self.vars:
            self.vars[key] = z3.Const(f"{key[0]}:{key[1]}", sort)
        return self.vars[key]

    def const(self, value: str):
        if value not in self.consts:
            self.consts[value] = z3.IntVal(1_000_000 + len(self.consts))
        return self.consts[value]

    def fun(self, name: str, sort):
        key = (name, str(sort))
        if key not in self.funs:
            self.funs[key] = z3.Function(f"{name}:{sort}", z3.IntSort(), sort)
        return self.funs[key]

    def enc(self, n, want: str | None = None):
        t = getattr(n, "type", "") or want or ""
        if isinstance(n, E.Lit):
            if isinstance(n.value, bool):
                return z3.BoolVal(n.value)
            return z3.IntVal(int(n.value))
        if isinstance(n, E.Const):
            return self.const(n.value)
        if isinstance(n, E.Var):
            if n.name in self.players or n.name == "self" or t == "player":
                return self.player(n.name)
            sort = z3.BoolSort() if t == "bool" else z3.IntSort()
            if t not in _SCALARS:
                raise _NotCompiled(n.name)
            return self.var((t, n.name), sort)
        if isinstance(n, E.Attr):
            if t not in _SCALARS:
                raise _NotCompiled(n.name)
            obj = self.enc(n.obj, "player")
            got = self.fun(n.name, z3.BoolSort() if t == "bool" else z3.IntSort())(obj)
            if t == "int" and n.name in V.PLAYER_ATTRS:
                self.counts.append(got)             # a player's count (cards, messages): never negative
            return got
        if isinstance(n, E.Unary):
            if n.op == "not":
                return z3.Not(self.enc(n.arg, "bool"))
            if n.op == "-":
                return -self.enc(n.arg, "int")
            raise _NotCompiled(n.op)
        if isinstance(n, E.If):
            return z3.If(self.enc(n.cond, "bool"), self.enc(n.then, want), self.enc(n.other, want))
        if isinstance(n, E.Bin):
            op = n.op
            if op in ("and", "or"):
                a, b = self.enc(n.left, "bool"), self.enc(n.right, "bool")
                return z3.And(a, b) if op == "and" else z3.Or(a, b)
            if op in ("in", "notin"):
                if not isinstance(n.right, E.SetLit):
                    raise _NotCompiled(op)
                x = self.enc(n.left, getattr(n.left, "type", "") or None)
                got = z3.Or([x == self.enc(i, getattr(i, "type", "") or None) for i in n.right.items]) \
                    if n.right.items else z3.BoolVal(False)
                return got if op == "in" else z3.Not(got)
            if op in ("==", "!="):
                lt = getattr(n.left, "type", "") or getattr(n.right, "type", "") or None
                a, b = self.enc(n.left, lt), self.enc(n.right, lt)
                if a.sort() != b.sort():
                    raise _NotCompiled(op)
                return a == b if op == "==" else a != b
            a, b = self.enc(n.left, "int"), self.enc(n.right, "int")
            if not (a.sort() == b.sort() == z3.IntSort()):
                raise _NotCompiled(op)
            if op == "<":
                return a < b
            if op == "<=":
                return a <= b
            if op == ">":
                return a > b
            if op == ">=":
                return a >= b
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            raise _NotCompiled(op)
        raise _NotCompiled(type(n).__name__)


def _facts(enc: _Enc, event: str | None, whose: tuple) -> list:
    """What always holds where a guard of ``event`` is read, for a holder ``whose`` (see the module)."""
    kind = EVENT_KINDS.get(event) if event else None
    if kind is None:
        return []
    out = []
    me = enc.player("self")
    principal = kind.principal
    if whose == ("self",) and principal:
        out.append(me == enc.player(principal))
    elif whose == ("other",) and principal:
        out.append(me != enc.player(principal))
    elif whose and all(w in kind.role_names for w in whose):
        out.append(z3.Or([me == enc.player(w) for w in whose]))
    for text in kind.holds:
        out.append(enc.enc(E.parse(text), "bool"))
    return out


def _counts(enc: _Enc) -> list:
    """Every player's count the conditions read is at least 0 (``x > 0`` is ``not (x == 0)`` for a count)."""
    return [c >= 0 for c in enc.counts]


def same_condition(a, b, event: str | None = None, whose: tuple = ("any",), alive: bool = False) -> bool:
    """Whether conditions ``a`` and ``b`` (typed ASTs; None: no condition, i.e. true) are equal on every table where
    ``event`` is dealt to a holder ``whose`` (without ``event``: on every table) — see the module —, and where the
    holder is alive when ``alive`` (an initial skill, no BeforeDieSkill: ``model.events.dispatched`` asks it only
    then). False when that is not shown (not compiled, the solver unsure, or a table where they differ)."""
    kind = EVENT_KINDS.get(event) if event else None
    enc = _Enc(set(kind.role_names) if kind is not None else set())
    try:
        za = enc.enc(a, "bool") if a is not None else z3.BoolVal(True)
        zb = enc.enc(b, "bool") if b is not None else z3.BoolVal(True)
        facts = _facts(enc, event, tuple(whose or ("any",)))
        if alive:
            facts.append(enc.fun("alive", z3.BoolSort())(enc.player("self")))
    except (_NotCompiled, E.ExprError, z3.Z3Exception, ValueError, TypeError):
        return False
    if not (z3.is_bool(za) and z3.is_bool(zb)):
        return False
    s = z3.Solver()
    s.set("rlimit", RLIMIT)
    s.set("timeout", TIMEOUT_MS)
    s.add(*facts)
    s.add(*_counts(enc))
    s.add(za != zb)
    r = W.check(s, rlimit=RLIMIT, message=f"inconclusive: time budget spent ({TIMEOUT_MS} ms comparing two conditions)")
    return r == z3.unsat


# ----------------------------------------------------------------------- one skill of a kind, first or last
#: ``skills.firstOrNull { it is K }`` and its kin: which of a player's skills of kind ``K`` the engine asks
_PICK = re.compile(r"\b(firstOrNull|lastOrNull|find|findLast|first|last)\s*\{\s*(?:(\w+)\s*->\s*)?(\w+)\s+is\s+"
                   r"(\w+)\s*\}")
_FIRST = {"firstOrNull": "oneOrNull", "find": "oneOrNull", "lastOrNull": "oneOrNull", "findLast": "oneOrNull",
          "first": "one", "last": "one"}


def _ops(ops):
    for o in ops or ():
        yield o
        for alt in getattr(o, "options", ()) or ():
            yield from _ops(alt)
        for v in (getattr(o, "args", None) or {}).values():
            if isinstance(v, (list, tuple)) and v and hasattr(v[0], "op"):
                yield from _ops(v)


def _swaps_roles(cat) -> bool:
    """Whether some rule or card exchanges two players' roles (a player may then hold another character's skills
    beside his grants)."""
    for src in list(cat.skills.values()) + list(cat.cards.values()):
        for o in _ops(getattr(src, "do", ()) or ()):
            if getattr(o, "op", "") == "swap" and str((o.args or {}).get("what", "")) == "role":
                return True
    return False


def holders(cat, rule_id: str, seen=frozenset()):
    """The characters a player holding ``rule_id`` can be (a set of ids), or None: any player (a grant handed to
    another player, by a card, or not followed)."""
    r = cat.skills.get(rule_id)
    if r is None or rule_id in seen:
        return None
    if not r.is_grant:
        return None if cat.sites(rule_id) else set(cat.owners(rule_id))   # (a skill also handed out: anyone)
    out: set = set()
    for g in cat.sites(rule_id):
        if g.to != "self" or g.giver_is_card:
            return None
        h = holders(cat, g.giver, seen | {rule_id})
        if h is None:
            return None
        out |= h
    return out


def at_most_one(cat, kind: str) -> bool:
    """Whether no player can ever hold two different skills of kind ``kind`` (a server interface name) at once in
    catalogue ``cat``: each skill of the kind held by characters no other such skill can be held by (a grant followed
    to whom it is handed: to its giver's holders only), no grant of the kind with parameters (two copies could then
    differ), and no rule exchanging roles."""
    rules = [r for r in cat.skills.values() if kind in (r.kinds or ())]
    if len(rules) <= 1 and not any(r.params for r in rules):
        return True
    if _swaps_roles(cat) or any(r.params and r.is_grant for r in rules):
        return False
    hs = [holders(cat, r.id) for r in rules]
    if any(h is None for h in hs):
        return False
    for i in range(len(hs)):
        for j in range(i + 1, len(hs)):
            if hs[i] & hs[j]:
                return False
    if any(len([s for s in c.skills if s in {r.id for r in rules}]) > 1 for c in cat.characters.values()):
        return False
    return True


def _pick_form(text: str, kinds_one: set) -> str:
    """``text`` with each pick of a player's skill of a kind no player can hold two of written one way (the first
    and the last of at most one are the same skill)."""
    def sub(m):
        var, it, kind = m.group(2), m.group(3), m.group(4)
        if kind not in kinds_one or (var and var != it) or (not var and it != "it"):
            return m.group(0)
        return f"{_FIRST[m.group(1)]}{{it is {kind}}}"
    return _PICK.sub(sub, text)


def same_engine_value(base, head, base_cat, head_cat) -> bool:
    """Whether two values of a named engine rule (tuples of clauses, as the engine readers write them) decide alike
    under what both catalogues guarantee: they differ only in which of a player's skills of a kind the engine picks
    (the first or the last) where no player can hold two of that kind in either catalogue."""
    if not (isinstance(base, tuple) and isinstance(head, tuple)) or base_cat is None or head_cat is None:
        return False
    if not all(isinstance(x, str) for x in base + head):
        return False
    kinds = {m.group(4) for x in base + head for m in _PICK.finditer(x)}
    one = {k for k in kinds if at_most_one(base_cat, k) and at_most_one(head_cat, k)}
    if not one:
        return False
    a = tuple(_pick_form(x, one) for x in base)
    b = tuple(_pick_form(x, one) for x in head)
    return a == b


def same_key(key: str, a, b, alive: bool = False) -> bool:
    """Whether a rule's ``on`` (the events and guards) or ``requires`` reads alike in meaning in two versions (each
    guard ``same_condition`` under its event, where the holder is alive when ``alive``; everything else of an entry
    equal), for the comparisons that would otherwise compare their text (``diff_untold``)."""
    if key == "requires":
        return a is not None and b is not None and same_condition(a, b)
    if key != "on" or not isinstance(a, (list, tuple)) or not isinstance(b, (list, tuple)) or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if (x.event, tuple(x.whose), x.once, x.guard_prose) != (y.event, tuple(y.whose), y.once, y.guard_prose):
            return False
        if not same_condition(x.when, y.when, x.event, tuple(x.whose), alive):
            return False
    return True
