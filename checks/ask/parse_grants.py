"""Grant references in a question: ``under 变则通``, ``变则通(A=截获, B=破译)``, ``变则通 declares 截获→破译``,
``强令's ban on 截获``, ``under 不能出牌 from 强令`` — the grants a name stands for, the gives sites they may come
from, and the parameters given, checked against the grants' parameter types. A part of ``parser.Parser``."""
from __future__ import annotations

from skillproof.model import vocab as V
from skillproof.model.msg import Msg
from skillproof.model.names import nearest

from .lexer import Tok
from .parse_atoms import Words
from .syntax import GrantRef

#: words after a grant that start the rest of a ``which G declarations …`` question, not a declaration
PARAM_WORDS = {"declaration", "declarations", "parameters", "parameter", "params", "args", "arguments", "values",
               "bans", "let", "lets", "allow", "allows", "make", "makes", "so", "that", "where", "under", "宣言"}


class GrantParser(Words):
    """Grant references and their parameters."""

    def _grantish(self, t: Tok) -> bool:
        """Whether the word names something that hands out a skill (a grant, a skill or card with gives)."""
        r = self.resolve(t, ("rule",))
        if r is not None:
            rule = self.cat.skills[r[1]]
            return rule.is_grant or bool(rule.gives)
        c = self.resolve(t, ("card",))
        if c is not None:
            nxt = self.peek()
            return bool(self.cat.cards[c[1]].gives) and not (nxt.kind == "word" and nxt.kw in ("as", "banned", "is"))
        return False

    def grantref(self) -> GrantRef:
        self.skip_fillers()
        t = self.tok
        r = self.resolve(t, ("rule", "card"))
        if r is None:
            self.name_error(t, Msg("技能、给出的技能或牌", "skill, grant or card"), ("rule", "card"))
        kind, ident = r
        self.take()
        cat = self.cat
        if kind == "card":
            sites = tuple(cat.cards[ident].gives)
            if not sites:
                self.error(Msg("牌{n}不给出任何技能", "the card {n} hands out no skill", n=cat.cards[ident].name), t)
            grants = tuple(dict.fromkeys(g.grant for g in sites))
        else:
            rule = cat.skills[ident]
            if rule.is_grant:
                grants = (ident,)
                sites = tuple(cat.sites(ident))
                if not sites:
                    self.error(Msg("目录中没有任何东西给出{n}", "nothing in the catalogue hands out {n}", n=rule.name), t)
            elif rule.gives:
                sites = tuple(rule.gives)
                grants = tuple(dict.fromkeys(g.grant for g in sites))
            else:
                self.error(Msg("{n}不给出任何技能；要说玩家持有它，写 'with {t}'",
                               "{n} hands out no skill; to say the player holds it, write 'with {t}'", n=rule.name,
                               t=t.text), t)
        # optional: 'from GIVER'
        args_pos: list = []
        args_named: dict = {}
        if self.at_op("("):
            self.args(args_pos, args_named)
        sizes: dict = {}
        declared = self._declaration(kind, ident, grants, sites, args_pos, sizes)
        if self.at("from"):
            ft = self.peek()
            fr = self.resolve(ft, ("rule", "card"))
            if fr is not None and kind == "rule" and cat.skills[ident].is_grant:
                self.take()
                self.take()
                sites = tuple(s for s in sites if s.giver == fr[1])
                if not sites:
                    self.error(Msg("{a}不给出{b}", "{a} does not hand out {b}", a=cat.name_of(fr[1]),
                                   b=cat.skills[ident].name), ft)
                if not declared:                        # 不能出牌 from 强令 declares more than 2 cards
                    self._declaration(kind, ident, grants, sites, args_pos, sizes)
        by_self = False
        if self.at("from") and self.self_word_at(self.i + 1):   # under 信鸽联络 from herself
            self.take()
            self.take()
            by_self = True
        while self.at("is", "active", "in", "filler") and self.at("is", "active", "filler") or \
                (self.at("in") and self.peek().text.lower() == "effect"):
            if self.at("in"):
                self.take()
            self.take()
        invalid_sites = tuple(g for g in sites if g.grant == "InvalidSkill")
        invalid_option = bool(invalid_sites)
        grants = tuple(g for g in grants if g != "InvalidSkill")
        sites = tuple(s for s in sites if s.grant != "InvalidSkill")
        args = self.bind_args(t, grants, sites, args_pos, args_named)
        if args:
            keep = tuple(g for g in grants if all(p in cat.skills[g].params for p in args))
            if keep:
                grants = keep
                sites = tuple(s for s in sites if s.grant in grants)
            invalid_option = False
        if sizes or by_self:
            grants = tuple(g for g in grants if all(p in cat.skills[g].params for p in sizes))
            sites = tuple(s for s in sites if s.grant in grants)
            invalid_option = invalid_option and by_self and not sizes      # 对自己发动先发制人: her own invalidation
        if not grants and not invalid_option:
            self.error(Msg("{n}不给出玩家可以持有的技能", "{n} hands out nothing a player holds", n=cat.name_of(ident)), t)
        return GrantRef(ident, grants, sites, args, invalid_option, invalid_sites if invalid_option else (),
                        sizes, by_self)

    def _declaration(self, kind, ident, grants, sites, args_pos, sizes) -> bool:
        """An optional ``declares`` / ``banned`` part: values (into ``args_pos``) or a size ("more than 2 cards",
        into ``sizes``). Whether there was one."""
        self.skip_fillers()
        nxt = self.peek()
        valueish = nxt.kw == "from" or (nxt.kind == "op" and nxt.text in ("{", "?")) or \
            self.resolve(nxt, ("card",)) is not None or nxt.kind == "num" or nxt.text.lower() in V.COLOURS
        if self.resolve(self.tok, ("card",)) and self.peek().kind == "arrow":
            self.declargs(args_pos)                     # 变则通宣言截获→调包: the declaration, with no 'declares'
            return True
        if (self.at("declares") or self.at("banned")) and self._size_at(self.i + 1):
            st = self.take()                                # 强令 declares more than 2 cards
            sizes[self._set_param(grants if kind == "rule" and self.cat.skills[ident].is_grant else
                                  tuple(dict.fromkeys(g.grant for g in sites)), st)] = self.comparison()
            self.take()                                     # cards
            return True
        if (self.at("declares") and not (self.peek().kind == "word" and self.peek().text.lower() in PARAM_WORDS)) \
                or (self.at("banned") and valueish):
            self.take()
            if self.at("from"):
                self.take()
            self.declargs(args_pos)
            return True
        return False

    def _size_at(self, j: int) -> bool:
        """A comparison and 'cards' at token ``j`` (fillers skipped): "more than 2 cards", "at most 2 cards", "3 cards"."""
        j = self._skipf(j)
        t = self.toks[j]
        if t.kind == "num":
            return self.toks[j + 1].kw == "cards" or self.toks[j + 1].text.lower() == "card"
        if t.kind == "op" and t.text in ("==", "=", "!=", "<", "<=", ">", ">="):
            j += 1
        elif t.kw in ("more", "less"):
            j += 1
            if self.toks[j].kw == "than":
                j += 1
        elif t.kw == "at" and self.toks[j + 1].kw in ("least", "most"):
            j += 2
        elif t.kw == "exactly":
            j += 1
        else:
            return False
        return self.toks[j].kind == "num" and self.toks[j + 1].kw == "cards"

    def _set_param(self, grants, t: Tok) -> str:
        """The one set<card> parameter of the grants a size is about."""
        ps = sorted({p for g in grants for p, ty in self.cat.skills[g].params.items() if ty == "set<card>"})
        if len(ps) != 1:
            names = [self.cat.name_of(g) for g in grants]
            self.error(Msg("'{t} N cards' 需要一个以一组牌为参数的给出技能；{zn}{zh}",
                           "'{t} N cards' needs a grant with one set of cards as parameter; {en} {eh}", t=t.text,
                           zn="、".join(names), en=", ".join(names),
                           zh="没有这样的参数" if not ps else "有不止一个这样的参数",
                           eh="has none" if not ps else "has several"), t)
        return ps[0]

    def args(self, pos: list, named: dict):
        self.take()                                   # (
        while True:
            t = self.tok
            if t.kind == "word" and self.peek().kind == "op" and self.peek().text in ("=", "=="):
                self.take()
                self.take()
                named[t.text] = (self.value(), t)
            elif self.at_op(")"):
                self.take()
                return
            else:
                v = self.value()
                if self.at_op("→") or self.at("to"):
                    self.take()
                    w = self.value()
                    pos.append((("arrow", v, w), t))
                else:
                    pos.append((v, t))
            if self.at_op(","):
                self.take()
                continue
            if self.at_op(")"):
                self.take()
                return
            self.error(Msg("参数中这里应是 ',' 或 ')'，却是{f}", "expected ',' or ')' in the parameters, found {f}",
                           f=self.found()))

    def declargs(self, pos: list):
        self.skip_fillers()
        t = self.tok
        v = self.value()
        if self.at_op("→") or self.at("to"):
            self.take()
            pos.append((("arrow", v, self.value()), t))
            return
        vals = [v]
        while (self.at_op(",") or self.at("and", "or")) and self.resolve(self.peek(), ("card",)):
            self.take()
            vals.append(self.value())
        if len(vals) == 1:
            pos.append((v, t))
        else:
            pos.append((("set", tuple(x[1] for x in vals if x and x[0] == "card")), t))

    def value(self):
        self.skip_fillers()
        t = self.tok
        if self.at_op("?"):
            self.take()
            return None
        if self.at_op("{"):
            self.take()
            items = []
            while not self.at_op("}"):
                items.append(self.card(allow_unknown=False))
                if self.at_op(","):
                    self.take()
                elif not self.at_op("}"):
                    self.error(Msg("牌的集合中这里应是 ',' 或 '}}'，却是{f}", "expected ',' or '}}' in a set of cards, found {f}",
                                   f=self.found()))
            self.take()
            return ("set", tuple(items))
        if t.kind == "num":
            self.take()
            return ("int", int(t.text))
        if self.at("true") or t.text.lower() in ("yes", "true"):
            self.take()
            return ("bool", True)
        if self.at("false") or t.text.lower() in ("no", "false"):
            self.take()
            return ("bool", False)
        if t.text.lower() in V.COLOURS:
            self.take()
            return ("colour", t.text.lower())
        r = self.resolve(t, ("card",))
        if r is None:
            self.name_error(t, Msg("牌（或参数值）", "card (or parameter value)"), ("card",))
        self.take()
        return ("card", r[1])

    def bind_args(self, t: Tok, grants, sites, pos, named) -> dict:
        """Parameters given → {param: value} checked against the grants' parameter types."""
        cat = self.cat
        if not pos and not named:
            return {}
        params: dict = {}
        for g in grants:
            for p, ty in cat.skills[g].params.items():
                params.setdefault(p, ty)
        if not params:
            self.error(Msg("{n}不带参数", "{n} takes no parameters", n=cat.name_of(grants[0]) if grants else t.text), t)
        fixed = set()
        for s in sites:
            fixed |= set(s.args)
        out: dict = {}
        for name, (v, nt) in named.items():
            p = next((x for x in params if x.lower() == name.lower()), None)
            if p is None:
                sug = nearest(name, list(params))
                self.error(Msg("没有参数 '{p}'——{n}的参数是 {zp}{zs}", "no parameter '{p}' — {n} takes {ep}{es}", p=name,
                               n=cat.name_of(grants[0]), zp="、".join(f"'{x}'" for x in params), ep=", ".join(params),
                               zs=f"（你是不是想写 '{sug}'？）" if sug else "", es=f" (did you mean {sug}?)" if sug else ""),
                           nt)
            out[p] = self._typed(p, params[p], v, nt)
        free = [p for p in params if p not in fixed and p not in out]
        for v, nt in pos:
            if isinstance(v, tuple) and v and v[0] == "arrow":
                src, dst = self._convert_params(grants, nt)
                out[src] = self._typed(src, params[src], v[1], nt)
                out[dst] = self._typed(dst, params[dst], v[2], nt)
                free = [p for p in free if p not in (src, dst)]
                continue
            if not free:      # the giver fixes them all: a value given anyway must agree with it
                free = [x for x in params if x not in out]
            if not free:
                self.error(Msg("参数太多：{n}的参数是 {zp}", "too many parameters: {n} takes {ep}", n=cat.name_of(grants[0]),
                               zp="、".join(f"'{x}'" for x in params), ep=", ".join(params)), nt)
            p = free.pop(0)
            out[p] = self._typed(p, params[p], v, nt)
        return {k: v for k, v in out.items() if v is not None}

    def _convert_params(self, grants, t: Tok):
        for g in grants:
            conv = self.cat.skills[g].convert
            if conv and conv.source.kind == "param" and conv.targets and conv.targets[0].kind == "param":
                return conv.source.value, conv.targets[0].value
        self.error(Msg("'X→Y' 需要一个来源和目标都是参数的转化类给出技能",
                       "'X→Y' needs a conversion grant whose source and target are parameters"), t)

    def _typed(self, p: str, ty: str, v, t: Tok):
        if v is None:
            return None
        kind = v[0]
        if ty == "card" and kind == "card":
            return v
        if ty == "set<card>" and kind in ("card", "set"):
            return ("set", (v[1],) if kind == "card" else v[1])
        if ty == "bool" and kind == "bool":
            return v
        if ty == "int" and kind == "int":
            return v
        if ty == "colour" and kind == "colour":
            return v
        self.error(Msg("参数 '{p}' 是 '{ty}'，不是 '{k}'", "parameter {p} is a {ty}, not a {k}", p=p, ty=ty, k=kind), t)
