"""Whether two conditions of the catalogue mean the same, for ``diff``'s comparison of rule data (``diff_rules``):
two guards that read differently but decide alike wherever the event can be dealt are one guard (a 如归 test that
the holder is not the turn player, dropped because the next test — the turn player alive — already excludes it when
the holder is the one who died).

The conditions are compiled to z3 over *any* table: each player a free value, each player attribute an uninterpreted
function of the player (``alive(p)``, ``true_messages(p)``), each value of the event or parameter a free constant,
card and character names distinct constants. What the table is then is constrained only by what the catalogue says
always holds: the event's ``holds`` (``model.events``: the dead player of ``die`` is not alive) and who the holder is
(``whose``: ``self`` is the event's principal, ``other`` is not). Two conditions equal on every such table are equal
on every real one. Anything the compiler does not know (``unknown``, quantifiers over players, sets but a literal
one) makes the answer "not shown equal": the comparison then stays the textual one, and the change is named.
"""
from __future__ import annotations

import z3

from skillproof.model import expr as E
from skillproof.model.events import EVENT_KINDS

#: milliseconds the solver may take for one question
TIMEOUT_MS = 2000
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
            return self.fun(n.name, z3.BoolSort() if t == "bool" else z3.IntSort())(obj)
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


def same_condition(a, b, event: str | None = None, whose: tuple = ("any",)) -> bool:
    """Whether conditions ``a`` and ``b`` (typed ASTs; None: no condition, i.e. true) are equal on every table where
    ``event`` is dealt to a holder ``whose`` (without ``event``: on every table) — see the module. False when that is
    not shown (not compiled, the solver unsure, or a table where they differ)."""
    kind = EVENT_KINDS.get(event) if event else None
    enc = _Enc(set(kind.role_names) if kind is not None else set())
    try:
        za = enc.enc(a, "bool") if a is not None else z3.BoolVal(True)
        zb = enc.enc(b, "bool") if b is not None else z3.BoolVal(True)
        facts = _facts(enc, event, tuple(whose or ("any",)))
    except (_NotCompiled, E.ExprError, z3.Z3Exception, ValueError, TypeError):
        return False
    if not (z3.is_bool(za) and z3.is_bool(zb)):
        return False
    s = z3.Solver()
    s.set("timeout", TIMEOUT_MS)
    s.add(*facts)
    s.add(za != zb)
    return s.check() == z3.unsat
