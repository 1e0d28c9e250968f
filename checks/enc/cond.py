"""Conditions of the catalogue read on the symbolic table, folding as it goes: the game encoder's compilation of an
expression (twin of ``model/interp/core.py`` ``evaluate`` / ``player_attr``, as ``checks/enc/state.py`` ``_compile``
is for a question's state).

A value is a constant where the table's values it reads are constants, a z3 term where a hole reaches it; a set
(the message's colours, a set parameter, ``played``, a set literal) is a dict code -> membership value. The game's
templates read conditions at every step (guards, op conditions, targets, sites' ``when``, the result passes):
building z3 terms for what is known would cost more than all the rest of the encoding.
"""
from __future__ import annotations

from skillproof.model import expr as E
from skillproof.model import vocab as V

from .table import FIVE, HAS, SymTable
from .val import ADD, AND, EQ, GE, GT, ITE, LE, LT, MUL, NE, NONE, NOT, OR, SUB, is_c, pick

import z3


class Env:
    """What a condition reads besides the table (twin of interp.core.Env)."""
    __slots__ = ("cat", "codes", "tab", "players", "params", "globals", "used", "winners", "declared")

    def __init__(self, cat, codes, tab: SymTable, players: dict, params=None, globals_=None, used=False,
                 winners=None, declared=None):
        self.cat, self.codes, self.tab = cat, codes, tab
        self.players = players
        self.params = params or {}
        self.globals = globals_ or {}
        self.used = used
        self.winners, self.declared = winners, declared

    def bind(self, var, seat) -> "Env":
        return Env(self.cat, self.codes, self.tab, {**self.players, var: seat}, self.params, self.globals, self.used,
                   self.winners, self.declared)


def message_set(tab: SymTable) -> dict:
    """The travelling message's colours as a set value (colour code -> membership)."""
    return class_set(tab.message)


def class_set(m) -> dict:
    """The colours of a card of class ``m`` (a class code, NONE: no card) as a set value (colour code -> membership)."""
    out = {}
    for i, c in enumerate(V.COLOURS):
        ks = HAS.get(c, ())
        out[i] = (m in ks) if is_c(m) else OR([EQ(m, k) for k in ks])
    return out


def table_globals(tab: SymTable) -> dict:
    return {"message": message_set(tab), "message_dir": tab.message_dir, "message_lockable": tab.lockable}


def _as_int(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, z3.BoolRef):
        return z3.If(v, z3.IntVal(1), z3.IntVal(0))
    return v


def _member(x, sv: dict):
    if is_c(x):
        return sv.get(x, False)
    return OR([AND(EQ(x, c), b) for c, b in sv.items()])


def attr(env: Env, seat: int, name: str):
    """Twin of interp.core.player_attr for a concrete seat."""
    tab = env.tab
    s = tab.seats[seat]
    ch = env.cat.characters.get(s.character)
    if name == "alive":
        return s.alive
    if name == "face_up":
        return s.face_up
    if name == "ever_face_up":
        return s.ever
    if name == "locked":
        return s.locked
    if name == "identity":
        return s.identity
    if name == "character":
        return env.codes.char.get(s.character, NONE)
    if name == "hand_count":
        return s.hand
    if name in FIVE:
        return s.count(name)
    if name == "hand_empty":
        return EQ(s.hand, 0)
    if name == "hidden":
        return bool(ch and ch.hidden)
    if name == "female":
        return s.face_up if ch is not None and ch.female else False
    if name == "male":
        return s.face_up if not (ch is not None and ch.female) else False
    if name == "my_turn":
        return tab.turn == seat
    if name == "is_sender":
        return tab.sender == seat
    if name == "in_front":
        return EQ(tab.in_front, seat)
    if name == "dying":
        return tab.dying == seat
    if name == "played":
        return {env.codes.card[c]: True for c in s.played if c in env.codes.card}
    if name == "in_winners":
        return env.winners[seat] if env.winners else False
    if name == "in_declared":
        return env.declared[seat] if env.declared else False
    raise ValueError(f"no attribute {name}")


def fcompile(n, env: Env):
    """The value of expression ``n`` (see the module's docstring)."""
    if isinstance(n, E.Lit):
        return n.value
    if isinstance(n, E.Unknown):
        return bool(env.tab.unknowns.get(n.key, False))
    if isinstance(n, E.Const):
        return env.codes.code(n.type, n.value)
    if isinstance(n, E.Var):
        if n.role == "player":
            return env.players[n.name]
        if n.role == "param":
            return env.params[n.name]
        return env.globals[n.name]
    if isinstance(n, E.Attr):
        if n.name == "used":
            return env.used
        who = fcompile(n.obj, env)
        if is_c(who):
            return attr(env, who, n.name)
        vals = [attr(env, s, n.name) for s in range(env.tab.n)]
        if isinstance(vals[0], dict):
            keys = set().union(*vals)
            return {k: pick(who, [v.get(k, False) for v in vals], False) for k in keys}
        return pick(who, vals, vals[-1])
    if isinstance(n, E.Unary):
        a = fcompile(n.arg, env)
        return NOT(a) if n.op == "not" else SUB(0, _as_int(a))
    if isinstance(n, E.Bin):
        op = n.op
        if op in ("in", "notin"):
            m = _member(fcompile(n.left, env), fcompile(n.right, env))
            return m if op == "in" else NOT(m)
        a, b = fcompile(n.left, env), fcompile(n.right, env)
        if op == "and":
            return AND(a, b)
        if op == "or":
            return OR(a, b)
        if isinstance(a, dict) or isinstance(b, dict):
            keys = set(a) | set(b)
            eq = AND([EQ(a.get(k, False), b.get(k, False)) for k in keys])
            return eq if op == "==" else NOT(eq)
        if op == "==":
            return EQ(a, b)
        if op == "!=":
            return NE(a, b)
        a, b = _as_int(a), _as_int(b)
        return {"<": LT, "<=": LE, ">": GT, ">=": GE, "+": ADD, "-": SUB, "*": MUL}[op](a, b)
    if isinstance(n, E.If):
        return ITE(fcompile(n.cond, env), fcompile(n.then, env), fcompile(n.other, env))
    if isinstance(n, E.SetLit):
        items = [fcompile(i, env) for i in n.items]
        out: dict = {}
        et = V.elem_of(n.type)
        dom = range(len(env.codes.domain(et))) if et else ()
        for it in items:
            if is_c(it):
                out[it] = True
        sym = [it for it in items if not is_c(it)]
        if sym:
            for c in dom:
                out[c] = OR([out.get(c, False)] + [EQ(it, c) for it in sym])
        return out
    if isinstance(n, E.Quant):
        vals = [fcompile(n.body, env.bind(n.var, s)) for s in range(env.tab.n)]
        if n.kind == "any":
            return OR(vals)
        if n.kind == "all":
            return AND(vals)
        out = 0
        for v in vals:
            out = ADD(out, ITE(v, 1, 0))
        return out
    raise ValueError(f"cannot compile {type(n).__name__}")


def params_of(cat, codes, inst) -> dict:
    """A skill-list entry's parameters as values (twin of env_of's ``inst.args``)."""
    r = cat.skills[inst.rule]
    out = {}
    for p, t in r.params.items():
        v = inst.args.get(p)
        if t == "bool":
            out[p] = bool(v)
        elif t == "set<card>":
            out[p] = {codes.card[c]: True for c in (v or ()) if c in codes.card}
        elif t == "card":
            out[p] = codes.card.get(v, NONE)
        elif t == "colour":
            out[p] = codes.colour.get(v, NONE)
        else:
            out[p] = v if isinstance(v, int) else 0
    return out


def compile_on(cat, codes, tab: SymTable, node, players: dict, params: dict | None = None, used=False,
               globals_: dict | None = None):
    """A condition read on the table with ``players`` bound (twin of evaluate on env_of + bind); the table's message
    globals unless ``globals_`` replaces them."""
    g = table_globals(tab) if globals_ is None else globals_
    return fcompile(node, Env(cat, codes, tab, dict(players), params, g, used))


def _free_players(node, bound=frozenset()) -> set:
    """The player variables no quantifier of the node binds, the globals / event values it reads (as
    ``("g", name)``) and the parameters (as ``("p", name)``)."""
    if isinstance(node, E.Var):
        if node.role in ("global", "event"):
            return {("g", node.name)}
        if node.role == "param":
            return {("p", node.name)}
        return {node.name} if node.role == "player" and node.name not in bound else set()
    if isinstance(node, E.Quant):
        return _free_players(node.body, bound | {node.var})
    out: set = set()
    for ch in _children(node):
        out |= _free_players(ch, bound)
    return out


def _children(node) -> list:
    if isinstance(node, E.Attr):
        return [node.obj]
    if isinstance(node, E.Unary):
        return [node.arg]
    if isinstance(node, E.Bin):
        return [node.left, node.right]
    if isinstance(node, E.If):
        return [node.cond, node.then, node.other]
    if isinstance(node, E.SetLit):
        return list(node.items)
    if isinstance(node, E.Quant):
        return [node.body]
    return []


def compile_defined(cat, codes, tab: SymTable, node, players: dict, params: dict | None = None, used=False,
                    words: dict | None = None):
    """(value, defined) of a condition whose players may be missing: a player whose value is NONE is not bound (the
    interpreter's environment leaves it out and reading it raises — KeyError, which its callers turn into "false" or
    an error). ``defined`` is where evaluation, short-circuiting as the interpreter's ``and`` / ``or`` / ``if`` do,
    never reads a missing player. The globals are the table's message ones and the event's ``words``."""
    free = _free_players(node)
    g = table_globals(tab)
    g.update(words or {})
    ps, maybe = {}, {}
    for k, v in players.items():
        if is_c(v) and v == NONE:
            continue
        ps[k] = v
        if not is_c(v):
            maybe[k] = NE(v, NONE)
    params = dict(params or {})
    for k in free:
        if isinstance(k, tuple) and k[0] == "p":   # a parameter the instance does not have (a card's effect has
            if k[1] not in params:                 # none: interp ops.Doing.params): reading it raises in the interpreter
                params[k[1]] = 0
                maybe[k] = False
        elif isinstance(k, tuple):         # a value the event does not carry: reading it raises too
            if k[1] not in g:
                g[k[1]] = 0
                maybe[k] = False
        elif k not in ps:
            ps[k] = 0                      # read only where ``defined`` is false
            maybe[k] = False
    env = Env(cat, codes, tab, ps, params, g, used)
    value = fcompile(node, env)
    if not (free & set(maybe)):
        return value, True

    def D(n, e, local=frozenset()):
        if not (_free_players(n, local) & set(maybe)):
            return True
        if isinstance(n, E.Var):
            if n.role in ("global", "event"):
                return maybe.get(("g", n.name), True)
            if n.role == "param":
                return maybe.get(("p", n.name), True)
            return maybe.get(n.name, True) if n.name not in local else True
        if isinstance(n, E.Bin) and n.op == "and":
            return AND(D(n.left, e, local), OR(NOT(fcompile(n.left, e)), D(n.right, e, local)))
        if isinstance(n, E.Bin) and n.op == "or":
            return AND(D(n.left, e, local), OR(fcompile(n.left, e), D(n.right, e, local)))
        if isinstance(n, E.If):
            return AND(D(n.cond, e, local), ITE(fcompile(n.cond, e), D(n.then, e, local), D(n.other, e, local)))
        if isinstance(n, E.Quant):
            return AND([D(n.body, e.bind(n.var, s), local | {n.var}) for s in range(tab.n)])
        return AND([D(ch, e, local) for ch in _children(n)])
    return value, D(node, env)
