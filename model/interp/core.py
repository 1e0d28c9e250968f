"""The interpreter's shared core: evaluating the catalogue's expressions on a concrete state (``Env``,
``evaluate``, the player attributes of model.vocab), the kinds an entry of a skill list has right now
(``live_kinds``) and the value of a rule's reference (``ref_value``). Every decision area builds on it.

Twin: ``checks/enc/state.py`` (the symbolic state and ``compile``) and ``checks/enc/core.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import expr as E
from ..catalogue import Catalogue, Ref
from ..state import SkillInst, State


@dataclass
class Env:
    cat: Catalogue
    state: State
    players: dict                          # bound variable -> seat index ("self" always bound)
    params: dict = field(default_factory=dict)
    globals: dict = field(default_factory=dict)
    used: bool = False
    winners: frozenset = frozenset()
    declared: frozenset = frozenset()

    def bind(self, var: str, seat: int) -> "Env":
        return Env(self.cat, self.state, {**self.players, var: seat}, self.params, self.globals, self.used,
                   self.winners, self.declared)


def player_attr(env: Env, seat: int, name: str):
    """A player attribute of the documented vocabulary (model.vocab.PLAYER_ATTRS)."""
    st = env.state
    s = st.seats[seat]
    ch = env.cat.characters.get(s.character)
    if name == "female":
        return s.face_up and bool(ch and ch.female)           # server isFemale: face up and female
    if name == "male":
        return s.face_up and not bool(ch and ch.female)
    if name == "hidden":
        return bool(ch and ch.hidden)
    if name == "hand_empty":
        return s.hand_count == 0
    if name == "my_turn":
        return st.turn == seat
    if name == "is_sender":
        return st.sender == seat
    if name == "in_front":
        return st.in_front == seat
    if name == "dying":
        return st.dying == seat
    if name == "in_winners":
        return seat in env.winners
    if name == "in_declared":
        return seat in env.declared
    return getattr(s, name)


def evaluate(node, env: Env):
    """Evaluate a type-checked expression on a concrete state."""
    if isinstance(node, E.Lit):
        return node.value
    if isinstance(node, E.Unknown):
        return env.state.unknowns.get(node.key, False)
    if isinstance(node, E.Const):
        return node.value
    if isinstance(node, E.Var):
        if node.role == "player":
            return env.players[node.name]
        if node.role == "param":
            v = env.params[node.name]
            return frozenset(v) if isinstance(v, (list, tuple, set)) else v
        if node.role == "event":                    # a value of the event a trigger answers (model.events)
            v = env.globals[node.name]
            return frozenset(v) if isinstance(v, (list, tuple, set)) else v
        if node.role == "global":
            v = env.globals[node.name]
            return frozenset(v) if isinstance(v, (list, tuple, set)) else v
        raise ValueError(f"unresolved name {node.name}")
    if isinstance(node, E.Attr):
        seat = evaluate(node.obj, env)
        if node.name == "used":
            return env.used
        return player_attr(env, seat, node.name)
    if isinstance(node, E.Unary):
        v = evaluate(node.arg, env)
        return (not v) if node.op == "not" else -v
    if isinstance(node, E.Bin):
        op = node.op
        if op == "and":
            return bool(evaluate(node.left, env)) and bool(evaluate(node.right, env))
        if op == "or":
            return bool(evaluate(node.left, env)) or bool(evaluate(node.right, env))
        a, b = evaluate(node.left, env), evaluate(node.right, env)
        if op == "in":
            return a in b
        if op == "notin":
            return a not in b
        return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b, "+": lambda: a + b, "-": lambda: a - b,
                "*": lambda: a * b}[op]()
    if isinstance(node, E.If):
        return evaluate(node.then, env) if evaluate(node.cond, env) else evaluate(node.other, env)
    if isinstance(node, E.SetLit):
        return frozenset(evaluate(i, env) for i in node.items)
    if isinstance(node, E.Quant):
        vals = [evaluate(node.body, env.bind(node.var, i)) for i in range(len(env.state.seats))]
        if node.kind == "any":
            return any(vals)
        if node.kind == "all":
            return all(vals)
        return sum(1 for v in vals if v)
    raise ValueError(f"cannot evaluate {type(node).__name__}")


def env_of(cat, state, seat, inst: SkillInst | None = None, **globals_) -> Env:
    g = {"message": state.message, "message_dir": state.message_dir,
         "message_lockable": state.message_lockable}
    g.update(globals_)
    return Env(cat, state, {"self": seat}, dict(inst.args) if inst else {}, g,
               used=bool(inst and inst.used))


def live_kinds(cat: Catalogue, inst: SkillInst) -> frozenset:
    """The kinds an entry of the skill list has right now: none while wrapped in an InvalidSkill.

    note L84: "InvalidSkill … 是某个isInitialSkill=true的技能被无效后套了一个壳" — the shell is only an
    InvalidSkill (note L92: not Active, not Triggered), so the wrapped rule's kinds are gone.
    """
    if inst.invalid:
        return frozenset({"InvalidSkill", "Skill"})
    return cat.skills[inst.rule].closure


def ref_value(ref: Ref, inst: SkillInst):
    if ref.kind == "any":
        return None
    if ref.kind == "card":
        return ref.value
    return inst.args.get(ref.value)
