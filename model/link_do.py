"""The loader's reading of ``do`` — what a rule or a card does, as a list of effect operations (vocabulary:
``model.effects``). Mixed into the linker (``model/link.py``): every problem is recorded with its file, line and
key (``do[2].n``: the third op's amount), in both languages, and every value's type is checked before it is used
(the schema-driven fuzz throws anything at it).
"""
from __future__ import annotations

from . import effects as X
from . import expr as E
from . import limits as L
from . import vocab as V
from .catalogue import DoOp, Loc
from .errtext import in_expr, type_name
from .locate import line_of
from .msg import Msg
from .names import hint, quoted


def _q(v):
    return quoted(v)


def _one_of(values) -> Msg:
    vals = [str(v) for v in values]
    return Msg("（可选：{zh}）", " (one of {en})", zh="、".join(f"'{v}'" for v in vals), en=", ".join(vals))


class DoLinker:
    """``do = [ { op = …, … }, … ]`` or ``[[skill.do]]`` / ``[[card.do]]``."""

    def _do_list(self, F, path, v, owner, on: tuple, params: dict) -> tuple:
        dp = path + (X.KEY,)
        items = v
        if not isinstance(items, list) or not items:
            self.err(F[0], F[1], dp, "do", Msg("'do' 必须是效果操作表的非空列表：`do = [{{ op = \"draw\", n = 1 }}]` 或 [[…do]]",
                                               "'do' must be a non-empty list of op tables: do = [{{ op = \"draw\", n = 1 }}] "
                                               "or [[…do]]"))
            return ()
        ctx = _Ctx(owner, X.players_of(on), dict(X.words_of(on)), params, [0])
        ops = self._do_ops(F, dp, items, ctx, "do", 1)
        return ops if ops is not None else ()

    def _do_ops(self, F, dp, items, ctx, label, depth):
        out = []
        ok = True
        for i, ov in enumerate(items):
            ctx.count[0] += 1
            if ctx.count[0] > L.EFFECT_OPS_PER_RULE:
                self.err(F[0], F[1], dp, "do", Msg("'do' 有超过 {limit} 个操作（上限）", "'do' has more than {limit} ops (the limit)",
                                                   limit=L.EFFECT_OPS_PER_RULE))
                return None
            one = self._do_op(F, dp + (i,), ov, ctx, f"{label}[{i}]", depth)
            if one is None:
                ok = False
            else:
                out.append(one)
        return tuple(out) if ok else None

    def _do_op(self, F, op_path, ov, ctx, key, depth):
        if not isinstance(ov, dict):
            self.err(F[0], F[1], op_path, key, Msg("'{k}' 必须是表 `{{ op = …, … }}`，不能是{t}", "{k} must be a table "
                                                   "{{ op = …, … }}, not {t}", k=key, t=type_name(ov)))
            return None
        name = ov.get("op")
        if "op" not in ov:
            self.err(F[0], F[1], op_path, f"{key}.op", Msg("'{k}' 缺少必需的键 'op'（哪一种操作）{one}",
                                                          "{k} is missing required key 'op' (which operation){one}", k=key,
                                                          one=_one_of(X.OPS)))
            return None
        if not isinstance(name, str) or name not in X.OPS:
            self.err(F[0], F[1], op_path + ("op",), f"{key}.op",
                     Msg("未知的效果操作 {v}{dym}", "unknown effect op {v}{dym}",
                         v=_q(name) if isinstance(name, str) else type_name(name),
                         dym=(hint(name, X.OPS) if isinstance(name, str) else "") or _one_of(X.OPS)))
            return None
        spec = X.OPS[name]
        allowed = set(X.COMMON) | set(spec.arg_names)
        ok = True
        for k in ov:
            if k not in allowed:
                self.err(F[0], F[1], op_path + (k,), f"{key}.{k}",
                         Msg("操作 '{op}' 中有未知的键 {k}{dym}", "unknown key {k} in op {op}{dym}", op=name, k=_q(k),
                             dym=hint(k, sorted(allowed)) if isinstance(k, str) else ""))
                ok = False
        args = {}
        options = ()
        for a in spec.args:
            akey = f"{key}.{a.name}"
            if a.name not in ov:
                if a.required:
                    self.err(F[0], F[1], op_path, akey, Msg("操作 '{op}' 缺少必需的键 '{a}'（{what}）",
                                                            "op {op} is missing required key '{a}' ({what_en})",
                                                            op=name, a=a.name, what=a.zh, what_en=a.en))
                    ok = False
                elif a.default is not None:
                    args[a.name] = a.default
                continue
            val = ov[a.name]
            sub = ctx
            if a.type == X.BODY and name == "each":          # the player of the turn is a word of the loop's ops
                sub = _Ctx(ctx.owner, ctx.players + (X.EACH, X.EACH + "_left", X.EACH + "_right"), ctx.words,
                           ctx.params, ctx.count)
            got = self._do_arg(F, op_path + (a.name,), akey, a, val, sub, depth)
            if got is _BAD:
                ok = False
            elif a.type == X.OPTIONS:
                options = got
            elif a.type == X.BODY:
                options = (got,)
            else:
                args[a.name] = got
        cond = None
        if "if" in ov:
            cond = self._do_expr(F, op_path + ("if",), f"{key}.if", ov["if"], ctx, V.BOOL)
            ok = ok and cond is not None
        may = ov.get("may", False)
        note = ov.get("note", "")
        if not isinstance(may, bool):
            self.err(F[0], F[1], op_path + ("may",), f"{key}.may", Msg("'{k}.may' 必须是 'true' 或 'false'，不能是{t}",
                                                                      "{k}.may must be true or false, not {t}", k=key, t=type_name(may)))
            ok = False
        if not isinstance(note, str):
            self.err(F[0], F[1], op_path + ("note",), f"{key}.note", Msg("'{k}.note' 必须是字符串，不能是{t}",
                                                                        "{k}.note must be a string, not {t}", k=key, t=type_name(note)))
            ok = False
        if name == "choose" and ok and len(options) == 1 and may is not True:
            self.err(F[0], F[1], op_path + ("of",), f"{key}.of",
                     Msg("'choose' 只有一个可选项：那是可做可不做的一组操作，要写 'may = true'（或再加一个可选项）",
                         "choose has a single alternative: that is an optional group, write may = true (or add an alternative)"))
            ok = False
        if not ok:
            return None
        bound = args.get("as")
        if isinstance(bound, str):              # what the op moved, readable by the ops after it (not by its own keys)
            ctx.words[bound] = X.BINDS[name]
        return DoOp(name, args, cond, Loc(F[0], line_of(F[1], op_path)), may, note if isinstance(note, str) else "", options)

    def _do_arg(self, F, ap, akey, a, val, ctx, depth):
        t = a.type
        if t == X.PLAYER:
            names = ctx.players + X.PLAYER_SETS
            if not isinstance(val, str) or val not in names:
                self.err(F[0], F[1], ap, akey,
                         Msg("{k} 必须是这里的一名角色，不能是 {v}{dym}", "{k} must be a player of this moment, not {v}{dym}",
                             k=akey, v=_q(val) if isinstance(val, str) else type_name(val),
                             dym=(hint(val, names) if isinstance(val, str) else "") or _one_of(names)))
                return _BAD
            return val
        if t == "enum":
            if not isinstance(val, str) or val not in a.choices:
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须是 {zh}，不能是 {v}{dym}", "{k} must be {en}, not {v}{dym}",
                                                   k=akey, zh="、".join(f"'{c}'" for c in a.choices), en=", ".join(a.choices),
                                                   v=_q(val) if isinstance(val, str) else type_name(val),
                                                   dym=hint(val, a.choices) if isinstance(val, str) else ""))
                return _BAD
            return val
        if t == X.AMOUNT:
            if isinstance(val, bool) or not isinstance(val, (int, str)):
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须是非负整数或整数表达式，不能是{t}",
                                                   "{k} must be a non-negative integer or an integer expression, not {t}",
                                                   k=akey, t=type_name(val)))
                return _BAD
            if isinstance(val, int):
                if not 0 <= val <= 100:
                    self.err(F[0], F[1], ap, akey, Msg("{k} 必须在 0 到 100 之间，不能是 {v}", "{k} must be between 0 and 100, not {v}",
                                                       k=akey, v=val))
                    return _BAD
                return val
            node = self._do_expr(F, ap, akey, val, ctx, V.INT)
            if node is None:
                return _BAD
            fixed = _constant_int(node)
            if fixed is not None and not 0 <= fixed <= 100:
                # an amount that reads nothing of the game is a number written another way ("0 - 5", "100 * 100"):
                # held to the range a literal is held to
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须在 0 到 100 之间，不能是 {v}（{e} 的值）",
                                                   "{k} must be between 0 and 100, not {v} (the value of {e})",
                                                   k=akey, v=f"{fixed:,}", e=quoted(val)))
                return _BAD
            return node
        if t == X.BOOL:
            if not isinstance(val, bool):
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须是 'true' 或 'false'，不能是{t}", "{k} must be true or false, not {t}",
                                                   k=akey, t=type_name(val)))
                return _BAD
            return val
        if t == X.TEXT:
            if not isinstance(val, str) or not val.strip():
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须是非空字符串", "{k} must be a non-empty string", k=akey))
                return _BAD
            return val
        if t == X.PHASE:
            if not isinstance(val, str) or val not in X.PHASES:
                self.err(F[0], F[1], ap, akey, Msg("未知的阶段 {v}{dym}", "unknown phase {v}{dym}",
                                                   v=_q(val) if isinstance(val, str) else type_name(val),
                                                   dym=(hint(val, X.PHASES) if isinstance(val, str) else "") or _one_of(X.PHASES)))
                return _BAD
            return val
        if t == X.CARDS:
            vals = [val] if isinstance(val, str) else val
            if not isinstance(vals, list) or not vals or not all(isinstance(c, str) for c in vals):
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须是一张牌或牌的非空列表，不能是{t}",
                                                   "{k} must be a card or a non-empty list of cards, not {t}", k=akey,
                                                   t=type_name(val)))
                return _BAD
            for c in vals:
                if c not in self.cards:
                    self.err(F[0], F[1], ap, akey, Msg("未知的牌 {v}{dym}", "unknown card {v}{dym}", v=_q(c),
                                                       dym=self._dym_card(c)))
                    return _BAD
            return tuple(vals)
        if t == X.GRANT:
            sites = [g.grant for g in ctx.owner.gives]
            if not isinstance(val, str) or val not in sites:
                self.err(F[0], F[1], ap, akey,
                         Msg("{k} 要写这条规则自己的某个 [[…gives]] 给出的技能，不能是 {v}{dym}",
                             "{k} names a grant one of this rule's own [[…gives]] sites hands out, not {v}{dym}",
                             k=akey, v=_q(val) if isinstance(val, str) else type_name(val),
                             dym=(hint(val, sites) if isinstance(val, str) and sites else "") or
                             (_one_of(sorted(set(sites))) if sites else Msg("（这条规则没有 [[…gives]]）",
                                                                            " (this rule has no [[…gives]])"))))
                return _BAD
            return val
        if t == X.NAME:
            taken = set(ctx.players) | set(X.PLAYER_SETS) | set(ctx.words) | set(ctx.params) | set(V.GLOBALS) | {X.IT}
            if not isinstance(val, str) or not _is_name(val):
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须是小写字母开头、由小写字母、数字和 '_' 组成的名字，不能是 {v}",
                                                   "{k} must be a name of lower-case letters, digits and '_' starting with "
                                                   "a letter, not {v}", k=akey,
                                                   v=_q(val) if isinstance(val, str) else type_name(val)))
                return _BAD
            if val in taken or val in _RESERVED or self.universe.const_type(val) is not None:
                self.err(F[0], F[1], ap, akey, Msg("{k} 的名字 {v} 已经有别的意思（一名角色、一个值、一个参数或已记下的名字）",
                                                   "{k}: the name {v} already means something here (a player, a value, a "
                                                   "parameter or a name given before)", k=akey, v=_q(val)))
                return _BAD
            return val
        if t == X.COND:
            words = dict(ctx.words)
            words[X.IT] = V.set_of(V.COLOUR)
            sub = _Ctx(ctx.owner, ctx.players, words, ctx.params, ctx.count)
            node = self._do_expr(F, ap, akey, val, sub, V.BOOL)
            return _BAD if node is None else node
        if t == X.BODY:
            if depth >= X.DEPTH:
                self.err(F[0], F[1], ap, akey, Msg("'choose' 和循环嵌套超过 {d} 层（上限）", "choose and loops are nested more "
                                                   "than {d} deep (the limit)", d=X.DEPTH))
                return _BAD
            if not isinstance(val, list) or not val:
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须是操作表的非空列表：`do = [{{ op = \"draw\" }}]`",
                                                   "{k} must be a non-empty list of op tables: do = [{{ op = \"draw\" }}]",
                                                   k=akey))
                return _BAD
            got = self._do_ops(F, ap, val, ctx, akey, depth + 1)
            return _BAD if got is None else got
        if t == X.OPTIONS:
            if depth >= X.DEPTH:
                self.err(F[0], F[1], ap, akey, Msg("'choose' 嵌套超过 {d} 层（上限）", "choose is nested more than {d} deep "
                                                   "(the limit)", d=X.DEPTH))
                return _BAD
            if not isinstance(val, list) or len(val) < 1 or not all(isinstance(x, list) and x for x in val):
                self.err(F[0], F[1], ap, akey, Msg("{k} 必须是可选项的非空列表，每项是非空的操作表列表："
                                                   "`of = [[{{ op = \"draw\" }}], [{{ op = \"discard\" }}]]`"
                                                   "（只有一项时是可做可不做的一组操作，要写 'may = true'）",
                                                   "{k} must be a non-empty list of alternatives, each a non-empty list "
                                                   "of op tables: of = [[{{ op = \"draw\" }}], [{{ op = \"discard\" }}]] "
                                                   "(a single one is an optional group: write may = true)",
                                                   k=akey))
                return _BAD
            alts = []
            for j, alt in enumerate(val):
                got = self._do_ops(F, ap + (j,), alt, ctx, f"{akey}[{j}]", depth + 1)
                if got is None:
                    return _BAD
                alts.append(got)
            return tuple(alts)
        raise AssertionError(t)                 # pragma: no cover — every type of model.effects is read above

    def _requires(self, F, path, text, params: dict):
        """``requires = "…"``: what the server checks before an ActiveSkill or a card is used — a condition over the
        user (``self``) and the players of its window and its choices (``target``, ``chosen``)."""
        ctx = _Ctx(None, X.players_of(()), X.words_of(()), params, [0])
        return self._do_expr(F, path + (X.REQUIRES,), X.REQUIRES, text, ctx, V.BOOL)

    def _do_expr(self, F, ap, akey, text, ctx, want):
        if not isinstance(text, str):
            self.err(F[0], F[1], ap, akey, Msg("'{k}' 必须是表达式字符串，不能是{t}", "{k} must be an expression string, not {t}",
                                               k=akey, t=type_name(text)))
            return None
        try:
            node = E.parse(text)
            E.check(node, E.Scope("do", self.universe, dict(ctx.params), ctx.players, ctx.words), want)
        except E.ExprError as ex:
            self.err(F[0], F[1], ap, akey, in_expr(text, ex))
            return None
        return node


#: words a name given by ``as`` may not be: the condition language's keywords and the attributes a bare name reads
_RESERVED = frozenset({"and", "or", "not", "if", "then", "else", "true", "false", "unknown", "any", "all", "count",
                       "in"}) | frozenset(V.PLAYER_ATTRS) | frozenset(V.SELF_ONLY) | frozenset(V.EFFECT_ATTRS)


def _is_name(v: str) -> bool:
    return bool(v) and len(v) <= 64 and v[0].isascii() and v[0].islower() and v[0].isalpha() and all(
        c.isascii() and (c.islower() or c.isdigit() or c == "_") for c in v)


class _Bad:
    pass


_BAD = _Bad()


class _Ctx:
    __slots__ = ("owner", "players", "words", "params", "count")

    def __init__(self, owner, players, words, params, count):
        self.owner, self.players, self.words, self.params, self.count = owner, players, words, params, count


def _constant_int(node):
    """The value of an integer expression that reads nothing of the game (literals, + - *, unary -, an if over
    constant conditions), else None. Iterative: the tree may be as deep as the limits allow."""
    from . import expr as E
    values: dict = {}
    stack = [(node, False)]
    while stack:
        n, seen = stack.pop()
        if isinstance(n, E.Lit):
            values[id(n)] = n.value
            continue
        if isinstance(n, E.Unary):
            kids = [n.arg]
        elif isinstance(n, E.Bin) and n.op in ("+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "and", "or"):
            kids = [n.left, n.right]
        elif isinstance(n, E.If):
            kids = [n.cond, n.then, n.other]
        else:
            return None
        if not seen:
            stack.append((n, True))
            stack.extend((k, False) for k in kids)
            continue
        vals = [values.get(id(k)) for k in kids]
        if any(v is None for v in vals):
            return None
        if isinstance(n, E.Unary):
            values[id(n)] = (not vals[0]) if n.op == "not" else -vals[0]
        elif isinstance(n, E.If):
            values[id(n)] = vals[1] if vals[0] else vals[2]
        else:
            a, b = vals
            values[id(n)] = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "==": lambda: a == b,
                             "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b,
                             ">=": lambda: a >= b, "and": lambda: a and b, "or": lambda: a or b}[n.op]()
    v = values.get(id(node))
    return v if isinstance(v, int) and not isinstance(v, bool) else None
