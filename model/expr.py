"""The catalogue's condition language: lexer, parser, AST and type checker.

Parsed by us — never ``eval``. One AST; the reference interpreter (``model.interp``) evaluates it on
concrete states and the z3 encoder (``checks.enc``) compiles it to terms, both walking the same nodes.
Grammar: see docs/catalogue-format.md § Expressions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import limits as L
from . import vocab as V
from .msg import Msg, as_msg
from .names import describe_char, echo, hint


class ExprError(Exception):
    """A parse or type error; ``col`` is the 0-based column in the expression text. ``text`` holds the
    message in both languages (model.msg); ``msg`` and ``str(e)`` are it in the run's language."""

    def __init__(self, msg, col: int = 0):
        self.text: Msg = as_msg(msg)
        super().__init__(self.text)
        self.col = col

    @property
    def msg(self) -> str:
        return self.text.render()


#: type names for people (the types of model.vocab)
_TYPE = {V.BOOL: ("真假值", "bool"), V.INT: ("整数", "int"), V.CARD: ("牌", "card"), V.COLOUR: ("颜色", "colour"),
         V.DIRECTION: ("方向", "direction"), V.CHARACTER: ("角色", "character"), V.PLAYER: ("玩家", "player"),
         "any": ("任意值", "any")}


def type_word(t: str) -> Msg:
    """A type of the condition language for people: "bool" / "真假值", "set<card>" / "牌的集合"."""
    if t in _TYPE:
        return Msg(*_TYPE[t])
    el = V.elem_of(t)
    if el is not None:
        zh = "集合" if el == "any" else _TYPE.get(el, (el, el))[0] + "的集合"
        return Msg("{zh}", "{en}", zh=zh, en=t)
    return Msg("{t}", "{t}", t=t)


#: what the contexts are, for people (where an expression stands)
_CONTEXT_ZH = {"fight": "'fight' 条件", "dying": "'dying' 条件", "main": "'main' 条件", "remind": "提醒条件 'remind'", "when": "'when' 条件", "where": "'where' 条件",
               "receive": "接收规则", "send": "传出规则", "draw": "摸牌规则", "effect": "胜负效果",
               "question": "问题", "fires": "'fires' 条件", "on": "触发条件 'on.when'",
               "do": "效果操作 'do'"}


def _ctx(c: str) -> Msg:
    return Msg("{zh}", "a {en} expression", zh=_CONTEXT_ZH.get(c, f"'{c}' 表达式"), en=c)


# ----------------------------------------------------------------------------------------------- AST
@dataclass(eq=False)
class Node:
    col: int = field(default=0, kw_only=True)
    type: str = field(default="", kw_only=True)


@dataclass(eq=False)
class Lit(Node):
    value: object            # bool or int


@dataclass(eq=False)
class Unknown(Node):
    key: str = ""            # stable key of this unknown (rule id / field / index), set by the loader


@dataclass(eq=False)
class Const(Node):
    value: str               # a card id, character id, colour or direction


@dataclass(eq=False)
class Var(Node):
    """A reference resolved by the type checker to one of: player attr of a bound player, a global, a
    parameter, or a bound player itself."""
    name: str
    role: str = ""           # 'player' (a bound player), 'global', 'param', 'self_only', 'event' (a value of the event)


@dataclass(eq=False)
class Attr(Node):
    obj: Node
    name: str


@dataclass(eq=False)
class Unary(Node):
    op: str                  # 'not' | '-'
    arg: Node


@dataclass(eq=False)
class Bin(Node):
    op: str                  # and or == != < <= > >= + - * in notin
    left: Node
    right: Node


@dataclass(eq=False)
class If(Node):
    cond: Node
    then: Node
    other: Node


@dataclass(eq=False)
class SetLit(Node):
    items: list


@dataclass(eq=False)
class Quant(Node):
    kind: str                # any | all | count
    var: str
    body: Node


@dataclass(eq=False)
class Lambda:
    """``p: body`` — a predicate over one player, used by effects (each / pick / winners_add …)."""
    var: str
    body: Node


# --------------------------------------------------------------------------------------------- lexer
_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<int>\d+)
  | (?P<op>==|!=|<=|>=|[<>+\-*(){},.:])
  | (?P<name>[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]*)
""", re.VERBOSE)
KEYWORDS = {"and", "or", "not", "in", "if", "then", "else", "true", "false", "unknown", "any", "all", "count"}


@dataclass
class Tok:
    kind: str      # int op name kw end
    text: str
    col: int


def tokenize(text: str) -> list[Tok]:
    out, i = [], 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m:
            raise ExprError(Msg("意外的字符 {c}", "unexpected character {c}", c=describe_char(text[i])), i)
        kind = m.lastgroup
        if kind != "ws":
            t = m.group()
            if kind == "int" and (len(t) > L.NUMBER_CHARS or int(t) > L.INT_MAX):
                raise ExprError(Msg("数 {n} 太大（上限是 {max:,}）", "the number {n} is too large (the limit is {max:,})",
                                    n=echo(t, 20), max=L.INT_MAX), i)
            if kind == "name" and t in KEYWORDS:
                kind = "kw"
            out.append(Tok(kind, t, i))
        i = m.end()
    out.append(Tok("end", "", len(text)))
    return out


# -------------------------------------------------------------------------------------------- parser
class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = tokenize(text)
        self.i = 0
        self.nesting = 0

    def _nest(self, col: int):
        """One level deeper (a parenthesis, a branch, a quantifier, a set, a 'not' or '-'): the
        recursion is bounded, so no input can exhaust the stack."""
        self.nesting += 1
        if self.nesting > L.EXPR_NESTING:
            raise ExprError(Msg("嵌套超过 {n} 层（括号、'if'、量词、集合、'not' 和 '-' 都算一层）；把条件拆开",
                                "nested more than {n} levels deep (parentheses, if, quantifiers, "
                                "sets, not and '-' count); split the condition", n=L.EXPR_NESTING), col)

    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def take(self) -> Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def at(self, *texts) -> bool:
        return self.tok.kind in ("op", "kw") and self.tok.text in texts

    def expect(self, text: str) -> Tok:
        if not self.at(text):
            raise ExprError(Msg("这里应是 '{t}'，却是{f}", "expected '{t}', found {f}", t=text, f=_found(self.tok)),
                            self.tok.col)
        return self.take()

    def parse(self) -> Node:
        e = self.expr()
        if self.tok.kind != "end":
            raise ExprError(Msg("完整的表达式之后多出 '{t}'", "unexpected '{t}' after a complete expression",
                                t=echo(self.tok.text)), self.tok.col)
        return e

    def expr(self) -> Node:
        self._nest(self.tok.col)
        try:
            return self._expr()
        finally:
            self.nesting -= 1

    def _expr(self) -> Node:
        if self.at("if"):
            col = self.take().col
            c = self.expr()
            self.expect("then")
            a = self.expr()
            self.expect("else")
            b = self.expr()
            return If(c, a, b, col=col)
        return self.or_()

    def or_(self) -> Node:
        e = self.and_()
        while self.at("or"):
            col = self.take().col
            e = Bin("or", e, self.and_(), col=col)
        return e

    def and_(self) -> Node:
        e = self.not_()
        while self.at("and"):
            col = self.take().col
            e = Bin("and", e, self.not_(), col=col)
        return e

    def not_(self) -> Node:
        if self.at("not"):
            col = self.take().col
            self._nest(col)
            try:
                return Unary("not", self.not_(), col=col)
            finally:
                self.nesting -= 1
        return self.cmp()

    def cmp(self) -> Node:
        e = self.sum()
        if self.at("==", "!=", "<", "<=", ">", ">=", "in"):
            t = self.take()
            return Bin(t.text, e, self.sum(), col=t.col)
        if self.at("not") and self.toks[self.i + 1].text == "in":
            col = self.take().col
            self.take()
            return Bin("notin", e, self.sum(), col=col)
        return e

    def sum(self) -> Node:
        e = self.prod()
        while self.at("+", "-"):
            t = self.take()
            e = Bin(t.text, e, self.prod(), col=t.col)
        return e

    def prod(self) -> Node:
        e = self.unary()
        while self.at("*"):
            t = self.take()
            e = Bin("*", e, self.unary(), col=t.col)
        return e

    def unary(self) -> Node:
        if self.at("-"):
            col = self.take().col
            self._nest(col)
            try:
                return Unary("-", self.unary(), col=col)
            finally:
                self.nesting -= 1
        return self.post()

    def post(self) -> Node:
        e = self.atom()
        while self.at("."):
            self.take()
            t = self.take()
            if t.kind != "name":
                raise ExprError(Msg("'.' 之后应是属性名，却是{f}", "expected an attribute name after '.', found {f}",
                                    f=_found(t)), t.col)
            e = Attr(e, t.text, col=t.col)
        return e

    def atom(self) -> Node:
        t = self.tok
        if t.kind == "int":
            self.take()
            return Lit(int(t.text), col=t.col)
        if t.kind == "kw" and t.text in ("true", "false"):
            self.take()
            return Lit(t.text == "true", col=t.col)
        if t.kind == "kw" and t.text == "unknown":
            self.take()
            return Unknown(col=t.col)
        if t.kind == "kw" and t.text == "count" and self.toks[self.i + 1].text != "(":
            self.take()                       # the draw rules' running count, not the quantifier
            return Var("count", col=t.col)
        if t.kind == "kw" and t.text in ("any", "all", "count"):
            self.take()
            self.expect("(")
            v = self.take()
            if v.kind != "name":
                raise ExprError(Msg("'{q}(' 之后应是变量名，却是{f}", "expected a variable name after '{q}(', found {f}",
                                    q=t.text, f=_found(v)), v.col)
            self.expect(":")
            body = self.expr()
            self.expect(")")
            return Quant(t.text, v.text, body, col=t.col)
        if t.kind == "name":
            self.take()
            return Var(t.text, col=t.col)
        if self.at("("):
            self.take()
            e = self.expr()
            self.expect(")")
            return e
        if self.at("{"):
            col = self.take().col
            items = []
            if not self.at("}"):
                items.append(self.expr())
                while self.at(","):
                    self.take()
                    items.append(self.expr())
            self.expect("}")
            return SetLit(items, col=col)
        raise ExprError(Msg("这里应是一个值，却是{f}", "expected a value, found {f}", f=_found(t)), t.col)


def parse(text: str) -> Node:
    if not isinstance(text, str):
        raise ExprError(Msg("表达式必须是字符串", "an expression must be a string"))
    if len(text) > L.EXPR_CHARS:
        raise ExprError(Msg("表达式长 {n:,} 个字符，上限是 {limit:,}",
                            "the expression is {n:,} characters long; the limit is {limit:,}",
                            n=len(text), limit=L.EXPR_CHARS), L.EXPR_CHARS)
    if not text.strip():
        raise ExprError(Msg("表达式是空的", "empty expression"))
    node = _Parser(text).parse()
    deep = _too_deep(node, L.EXPR_DEPTH)
    if deep is not None:
        raise ExprError(Msg("表达式超过 {n} 层（'and'、'or'、'+' 或比较连成一串时，每一项加一层）；把它拆开",
                            "the expression is more than {n} levels deep (a chain of and, or, + or "
                            "comparisons adds a level per term); split it", n=L.EXPR_DEPTH), deep.col)
    return node


def _children(n) -> list:
    if isinstance(n, Attr):
        return [n.obj]
    if isinstance(n, Unary):
        return [n.arg]
    if isinstance(n, Bin):
        return [n.left, n.right]
    if isinstance(n, If):
        return [n.cond, n.then, n.other]
    if isinstance(n, SetLit):
        return list(n.items)
    if isinstance(n, Quant):
        return [n.body]
    return []


def _too_deep(node, limit: int):
    """The first node deeper than ``limit`` (iteratively: the tree may be deep), or None."""
    stack = [(node, 1)]
    while stack:
        n, d = stack.pop()
        if d > limit:
            return n
        stack.extend((c, d + 1) for c in _children(n))
    return None


def parse_lambda(text: str) -> Lambda:
    """``"p: body"``"""
    m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*:", text)
    if not m:
        raise ExprError(Msg("应写成 '变量: 条件'，例如 'q: q.identity == none'",
                            "expected 'VAR: condition', e.g. 'q: q.identity == none'"), 0)
    body_text = text[m.end():]
    try:
        body = parse(body_text)
    except ExprError as e:
        raise ExprError(e.text, e.col + m.end()) from None
    _shift(body, m.end())
    return Lambda(m.group(1), body)


def _shift(node, by: int):
    for n in walk(node):
        n.col += by


def conjuncts(node) -> list:
    """The conjuncts of a condition (``a and b and c``), in order; [] for none."""
    if node is None:
        return []
    if isinstance(node, Bin) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]


def walk(node):
    """Every node of an expression, pre-order (iteratively)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(_children(n)))


# -------------------------------------------------------------------------------------- type checker
@dataclass
class Universe:
    """Constants an expression may name."""
    cards: frozenset
    characters: frozenset

    def const_type(self, name: str) -> str | None:
        if name in self.cards:
            return V.CARD
        if name in self.characters:
            return V.CHARACTER
        if name in V.COLOURS:
            return V.COLOUR
        if name in V.DIRECTIONS:
            return V.DIRECTION
        return None


@dataclass
class Scope:
    context: str
    universe: Universe
    params: dict = field(default_factory=dict)          # name -> type
    players: tuple = ("self",)                          # bound player variables
    event: dict = field(default_factory=dict)           # a trigger's guard: the event's values, name -> type

    def bind(self, var: str) -> "Scope":
        return Scope(self.context, self.universe, self.params, self.players + (var,), self.event)


def check(node: Node, scope: Scope, want: str | None = None) -> Node:
    """Type-check ``node`` in ``scope`` (annotating ``node.type``), optionally requiring type ``want``."""
    t = _check(node, scope)
    if want is not None and not _compatible(t, want):
        raise ExprError(Msg("这里应是{w}表达式，这个是{t}", "expected a {we} expression, this is a {te}",
                            w=type_word(want), t=type_word(t), we=want, te=t), node.col)
    return node


def _compatible(t: str, want: str) -> bool:
    if t == want or t == "any":
        return True
    return t == "set<any>" and want.startswith("set<")


def _attr_type(name: str, scope: Scope, col: int, on_self: bool) -> str:
    if name in V.PLAYER_ATTRS:
        return V.PLAYER_ATTRS[name][0]
    _, effects_ok = V.CONTEXTS[scope.context]
    if name in V.EFFECT_ATTRS:
        if not effects_ok:
            raise ExprError(Msg("'{n}' 只能用在胜负效果（'win' / 'result'）中", "'{n}' is only available in win/result effects",
                                n=name), col)
        return V.EFFECT_ATTRS[name][0]
    if name in V.SELF_ONLY:
        if not on_self:
            raise ExprError(Msg("'{n}' 只能用在 'self' 上", "'{n}' is only available on self", n=name), col)
        where = V.SELF_ONLY_CONTEXTS.get(name)
        if where is not None and scope.context not in where:
            raise ExprError(Msg("'{n}' 只在问题的 'where' 和触发技能的 'fires'、'on' 中可知，不能用在{c}中",
                                "'{n}' is only known in a question's 'where' and a triggered skill's 'fires' and 'on', "
                                "not in {c}", n=name, c=_ctx(scope.context)), col)
        return V.SELF_ONLY[name][0]
    cands = list(V.PLAYER_ATTRS) + (list(V.EFFECT_ATTRS) if effects_ok else []) + list(V.SELF_ONLY)
    raise ExprError(Msg("未知的玩家属性 {n}{dym}", "unknown player attribute {n}{dym}", n=_q(name),
                        dym=hint(name, cands)), col)


def _q(name: str) -> Msg:
    return Msg("'{n}'", "'{n}'", n=echo(name))


def _found(t) -> Msg:
    """What the parser found instead: the token quoted, or the end of the expression."""
    if not t.text:
        return Msg("表达式的结尾", "'end of expression'")
    return Msg(" '{t}'", "'{t}'", t=echo(t.text))


def _check(n: Node, scope: Scope) -> str:
    t = _check_inner(n, scope)
    n.type = t
    return t


def _check_inner(n: Node, scope: Scope) -> str:
    if isinstance(n, Lit):
        return V.BOOL if isinstance(n.value, bool) else V.INT
    if isinstance(n, Unknown):
        return "any"
    if isinstance(n, Var):
        name = n.name
        if name in scope.players:
            n.role = "player"
            return V.PLAYER
        if name in scope.params:
            n.role = "param"
            return scope.params[name]
        if name in scope.event:
            n.role = "event"
            return scope.event[name]
        allowed, effects_ok = V.CONTEXTS[scope.context]
        if name in V.GLOBALS:
            if name not in allowed:
                raise ExprError(Msg("'{n}' 不能用在{c}中", "'{n}' is not available in {c}", n=name,
                                    c=_ctx(scope.context)), n.col)
            n.role = "global"
            return V.GLOBALS[name][0]
        ct = scope.universe.const_type(name)
        if ct is not None:
            # replace in place: a Var naming a constant becomes a Const
            n.__class__ = Const
            n.value = name
            del n.name
            del n.role
            return ct
        if name in V.PLAYER_ATTRS or name in V.SELF_ONLY or (effects_ok and name in V.EFFECT_ATTRS):
            t = _attr_type(name, scope, n.col, on_self=True)
            obj = Var("self", col=n.col, type=V.PLAYER, role="player")
            n.__class__ = Attr
            n.obj = obj
            n.name = name
            del n.role
            return t
        cands = (list(scope.players) + list(scope.params) + sorted(scope.event) + sorted(allowed) + list(V.PLAYER_ATTRS) + list(V.SELF_ONLY)
                 + sorted(scope.universe.cards) + sorted(scope.universe.characters)
                 + list(V.COLOURS) + list(V.DIRECTIONS))
        raise ExprError(Msg("未知的名字 {n}{dym}", "unknown name {n}{dym}", n=_q(name), dym=hint(name, cands)), n.col)
    if isinstance(n, Attr):
        ot = _check(n.obj, scope)
        if ot != V.PLAYER:
            raise ExprError(Msg("只有玩家才有属性；这个是{t}", "only players have attributes; this is a {te}",
                                t=type_word(ot), te=ot), n.col)
        on_self = isinstance(n.obj, Var) and n.obj.name == "self"
        return _attr_type(n.name, scope, n.col, on_self)
    if isinstance(n, Unary):
        t = _check(n.arg, scope)
        want = V.BOOL if n.op == "not" else V.INT
        if not _compatible(t, want):
            raise ExprError(Msg("'{op}' 需要{w}，这里是{g}", "'{op}' needs a {we}, got a {ge}", op=n.op,
                                w=type_word(want), g=type_word(t), we=want, ge=t), n.col)
        return want
    if isinstance(n, Bin):
        lt, rt = _check(n.left, scope), _check(n.right, scope)
        op = n.op
        if op in ("and", "or"):
            for side, t in ((n.left, lt), (n.right, rt)):
                if not _compatible(t, V.BOOL):
                    raise ExprError(Msg("'{op}' 两边需要真假值，这里是{g}", "'{op}' needs bool operands, got a {ge}",
                                        op=op, g=type_word(t), ge=t), side.col)
            return V.BOOL
        if op in ("+", "-", "*", "<", "<=", ">", ">="):
            for side, t in ((n.left, lt), (n.right, rt)):
                if not _compatible(t, V.INT):
                    raise ExprError(Msg("'{op}' 两边需要整数，这里是{g}", "'{op}' needs int operands, got a {ge}",
                                        op=op, g=type_word(t), ge=t), side.col)
            if op == "*" and not (isinstance(n.left, Lit) or isinstance(n.right, Lit)):
                raise ExprError(Msg("'*' 的一边必须是常数", "'*' needs a constant on one side"), n.col)
            return V.INT if op in "+-*" else V.BOOL
        if op in ("==", "!="):
            if not (_compatible(lt, rt) or _compatible(rt, lt)):
                raise ExprError(Msg("不能比较{l}和{r}", "cannot compare a {le} with a {re}", l=type_word(lt),
                                    r=type_word(rt), le=lt, re=rt), n.col)
            return V.BOOL
        if op in ("in", "notin"):
            et = V.elem_of(rt) if rt != "any" else "any"
            if et is None:
                raise ExprError(Msg("'in' 的右边需要集合，这里是{r}", "'in' needs a set on the right, got a {re}",
                                    r=type_word(rt), re=rt), n.right.col)
            if et not in ("any",) and not _compatible(lt, et):
                raise ExprError(Msg("不能在{e}的集合中找{l}", "cannot look for a {le} in a set of {ee}", l=type_word(lt),
                                    e=type_word(et), le=lt, ee=et), n.col)
            return V.BOOL
        raise ExprError(Msg("未知的运算符 '{op}'", "unknown operator {op}", op=op), n.col)
    if isinstance(n, If):
        ct = _check(n.cond, scope)
        if not _compatible(ct, V.BOOL):
            raise ExprError(Msg("'if' 需要真假值条件，这里是{g}", "'if' needs a bool condition, got a {ge}",
                                g=type_word(ct), ge=ct), n.cond.col)
        at, bt = _check(n.then, scope), _check(n.other, scope)
        if not (_compatible(at, bt) or _compatible(bt, at)):
            raise ExprError(Msg("'then' 是{a}，'else' 却是{b}", "'then' is a {ae} but 'else' is a {be}",
                                a=type_word(at), b=type_word(bt), ae=at, be=bt), n.col)
        return at if at != "any" else bt
    if isinstance(n, SetLit):
        ts = [_check(it, scope) for it in n.items]
        known = [t for t in ts if t != "any"]
        if not known:
            return "set<any>"
        for it, t in zip(n.items, ts):
            if t != "any" and t != known[0]:
                raise ExprError(Msg("集合中混有{a}和{b}", "a set mixes {ae} and {be}", a=type_word(known[0]),
                                    b=type_word(t), ae=known[0], be=t), it.col)
            if t.startswith("set<") or t in (V.BOOL, V.INT, V.PLAYER):
                raise ExprError(Msg("集合只装牌、颜色、方向或角色，不能装{g}",
                                    "sets hold cards, colours, directions or characters, not {ge}",
                                    g=type_word(t), ge=t), it.col)
        return V.set_of(known[0])
    if isinstance(n, Quant):
        _, effects_ok = V.CONTEXTS[scope.context]
        if n.var in scope.players or n.var in scope.params or n.var in scope.event:
            raise ExprError(Msg("{v} 已经用过了", "{v} is already bound", v=_q(n.var)), n.col)
        bt = _check(n.body, scope.bind(n.var))
        if not _compatible(bt, V.BOOL):
            raise ExprError(Msg("'{k}(…)' 需要真假值条件，这里是{g}", "'{k}(…)' needs a bool condition, got a {ge}",
                                k=n.kind, g=type_word(bt), ge=bt), n.body.col)
        return V.INT if n.kind == "count" else V.BOOL
    raise ExprError(Msg("不支持的表达式节点 '{t}'", "unsupported expression node {t}", t=type(n).__name__), n.col)


def to_text(n) -> str:
    """Render an AST back to the expression language (canonical spacing)."""
    if isinstance(n, Lambda):
        return f"{n.var}: {to_text(n.body)}"
    if isinstance(n, Lit):
        return ("true" if n.value else "false") if isinstance(n.value, bool) else str(n.value)
    if isinstance(n, Unknown):
        return "unknown"
    if isinstance(n, Const):
        return n.value
    if isinstance(n, Var):
        return n.name
    if isinstance(n, Attr):
        if isinstance(n.obj, Var) and n.obj.name == "self":
            return n.name
        return f"{to_text(n.obj)}.{n.name}"
    if isinstance(n, Unary):
        return f"not {_paren(n.arg)}" if n.op == "not" else f"-{_paren(n.arg)}"
    if isinstance(n, Bin):
        op = "not in" if n.op == "notin" else n.op
        return f"{_paren(n.left)} {op} {_paren(n.right)}"
    if isinstance(n, If):
        return f"if {to_text(n.cond)} then {to_text(n.then)} else {to_text(n.other)}"
    if isinstance(n, SetLit):
        return "{" + ", ".join(to_text(i) for i in n.items) + "}"
    if isinstance(n, Quant):
        return f"{n.kind}({n.var}: {to_text(n.body)})"
    return "?"


def _paren(n) -> str:
    s = to_text(n)
    return f"({s})" if isinstance(n, (Bin, If)) else s
