"""Grant sites: who hands out which skill to whom. Every ``….skills += X(…)`` and ``InvalidSkill.deal(p)``
inside a skill or card class, the receiver (self, all or one target), the constructor arguments that are
literals (with constructor defaults), skills that remove themselves (consumed), and the shapes not read."""
from __future__ import annotations

from .cards import CardTable
from .classes import _Cls, _param_type, _spread_add
from .report import _FREE
from .server import _EMPTY_FUNS, _LIST_FUNS, COLOUR_CONSTS, COLOUR_ENUM
from .syntax import (_X, _Arg, _conjuncts, _const, _descendants, _fn_params, _if_parts, _ir, _kid, _kids,
                     _local_value, _short, _t, _type_name, _unparen, _value_args)


class GrantSites(CardTable):
    """Reads the sites the walk collected; ``_gives`` needs ``rule_cls`` and ``is_grant`` from ``run``."""

    def _granted_classes(self) -> set:
        out = set()
        for kind, node, ctx in self.sites:
            c = self._site_grant(kind, node, ctx)
            if c is not None:
                out.add(id(c))
        return out

    def _site_grant(self, kind, node, ctx):
        if kind == "add":
            added = _added(node)
            x = _ir(added) if added is not None else None
            if x is not None and x.k == "call" and x.a[0].k == "name":
                c = self.resolve(x.a[0].a[0], ctx.cls)
                if c is not None and c.concrete and self.is_skill(c):
                    return c
            return None
        callee = node.named_children[0]
        recv = callee.named_children[0]
        c = self.resolve(_type_name(recv) if recv.type == "user_type" else _t(recv).split(".")[-1], ctx.cls)
        if c is not None and "InvalidSkill" in self.kinds(c):
            return c
        return None

    def _unread_assignments(self):
        """`p.skills = …` building a skill object in a shape other than `+=`: said, not silently skipped."""
        for node, ctx in self.assigns:
            right = node.child_by_field_name("right")
            enclosing = set()
            c = ctx.cls
            while c is not None:
                enclosing.add(id(c))
                c = c.outer
            for call in _descendants(right, "call_expression"):
                callee = call.named_children[0] if call.named_children else None
                if callee is None or callee.type != "identifier":
                    continue
                k = self.resolve(_t(callee), ctx.cls)
                if k is not None and k.concrete and self.is_skill(k) and id(k) not in enclosing:
                    self.note("site", k.name, ctx.cls.src.at(node) if ctx.cls else "?",
                              f"`{_short(node)}` hands out {k.name} in a shape the extractor does not read "
                              "(only `….skills += X(…)` and `InvalidSkill.deal(…)`); not written")
                    break

    def _consumed(self) -> set:
        out = set()
        for node, ctx in self.removals:
            c = ctx.cls
            if c is not None and self.is_skill(c):
                out.add(c.name)
        return out

    def _giver(self, ctx):
        """('rule', id) or ('card', id) of the skill or card that hands a grant out at this place."""
        c = ctx.cls
        while c is not None:
            if c.concrete and self.is_skill(c) and c.name in self.rule_cls and self.rule_cls[c.name] is c:
                return ("rule", c.name)
            if c.concrete and self.is_card(c):
                for cid, card in self.cards.items():
                    if card["cls"] is c:
                        return ("card", cid)
                return None
            c = c.outer
        return None

    def _gives(self) -> dict:
        gives: dict[tuple, list] = {}
        for kind, node, ctx in self.sites:
            g = self._site_grant(kind, node, ctx)
            src = ctx.cls.src if ctx.cls is not None else None
            where = src.at(node) if src else "?"
            if g is None:
                if kind == "add":
                    self.note("site", "?", where, f"`{_short(node)}` adds something that is not a known skill "
                              "class; not written")
                continue
            giver = self._giver(ctx)
            if giver is None:
                self.note("site", g.name, where, "handed out outside any skill or card class; not written")
                continue
            if self.is_grant.get(id(g)) is not True:
                self.note("site", g.name, where, f"{g.name} is an initial skill, not a grant; this site "
                          "is not written")
                continue
            if kind == "add":
                recv = node.child_by_field_name("left").named_children[0]
                call = _added(node)
            else:
                va = _kid(node, "value_arguments")
                vargs = _kids(va, "value_argument") if va is not None else []
                if len(vargs) != 1:
                    self.note("site", g.name, where, f"`{_short(node)}`: expected one player argument; not written")
                    continue
                recv = vargs[0].named_children[-1]
                call = None
            to, why = self._who(recv, ctx, 0)
            if why:
                self.note("to", giver[1], where, why)
            args = self._site_args(g, call, giver[1], where) if call is not None else {}
            give = {"grant": g.name, "to": to, "args": args, "where": where}
            lst = gives.setdefault(giver, [])
            if any(x["grant"] == give["grant"] and x["to"] == to and x["args"] == args for x in lst):
                continue                         # the same grant handed out the same way on another path
            lst.append(give)
            self.note("when", giver[1], where, f"gives {g.name} (to {to}): the condition and how often per "
                      "turn are not analysed — when = unknown, per_turn left at 1")
        return gives

    def _who(self, recv, ctx, depth):
        """Who receives a grant: 'self', 'all', 'others' (one player chosen at run time, never the giver: the
        function refuses relative seat 0) or 'target' (one player, the giver included), with a reason when the
        receiver's shape was not understood."""
        to, why = self._who_raw(recv, ctx, depth)
        if to == "target" and ctx.funcs and _refuses_self_target(ctx.funcs[-1][0]):
            return "others", why
        return to, why

    def _who_raw(self, recv, ctx, depth):
        x = _unparen(_ir(recv))
        if depth < 3 and self._equals_owner(recv, ctx, depth):
            return "self", None
        if x.k == "nav" and x.a[0].k == "this":
            name = x.a[1]
        elif x.k == "name":
            name = x.a[0]
        else:
            return "target", f"receiver `{_short(recv)}` not understood; 'target' (any one player) written"
        for sc in reversed(ctx.scopes):
            if sc[0] == "lambda":
                params = sc[2] or ("it",)
                if name in params:
                    cx = _ir(sc[1]).a[0]
                    coll = cx.a[0] if cx.k == "nav" else None
                    if coll is not None and cx.a[1] in ("forEach", "onEach") and _ends_with_players(coll):
                        return "all", None
                    return "target", None
            elif sc[0] == "for" and sc[1] == name:
                return ("all" if _ends_with_players(_ir(sc[2])) else "target"), None
        if ctx.funcs:
            fn, owner = ctx.funcs[-1]
            ps = _fn_params(fn)
            if name in [p[0] for p in ps]:
                mods = _t(_kid(fn, "modifiers")).split()
                first_player = next((p[0] for p in ps if p[1] == "Player"), None)
                if owner is not None and "override" in mods and first_player == name and \
                        (self.is_skill(owner) or self.is_card(owner)):
                    return "self", None
                return "target", None
        c = ctx.cls
        if c is not None and depth < 3 and name in [p.name for p in c.params] and not self.is_skill(c):
            i = [p.name for p in c.params].index(name)
            results = set()
            for node, cctx in c.src.calls.get(c.name, []):
                args = _value_args(_kid(node, "value_arguments"))
                a = next((a for a in args if a.name == name), None)
                if a is None and i < len(args) and args[i].name is None:
                    a = args[i]
                if a is None:
                    continue
                results.add(self._who(a.node, cctx, depth + 1)[0])
            if len(results) == 1:
                return results.pop(), None
        return "target", None

    def _equals_owner(self, node, ctx, depth) -> bool:
        """Whether ``node`` stands in the then-branch of an ``if`` whose condition requires it to be the
        owner: ``if (… && r === node) { … node … }`` with ``r`` the owner."""
        text = " ".join(_t(node).split())
        child, up = node, node.parent
        while up is not None and up.type not in ("function_declaration", "class_body", "lambda_literal"):
            if up.type == "if_expression":
                cond, branches = _if_parts(up)
                if cond is not None and branches and branches[0] == child:
                    for conj in _conjuncts(_ir(cond)):
                        if conj.k == "bin" and conj.a[0] in ("===", "=="):
                            for a, b in ((conj.a[1], conj.a[2]), (conj.a[2], conj.a[1])):
                                if " ".join(_t(a.n).split()) == text and b.k == "name" and \
                                        self._who(b.n, ctx, 3)[0] == "self":
                                    return True
            child, up = up, up.parent
        return False

    def _site_args(self, g: _Cls, call, giver, where) -> dict:
        x = _ir(call)
        args = x.a[1] if x.k == "call" else []
        out = {}
        ps = g.params
        bound: dict[str, _Arg] = {}
        for i, a in enumerate(args):
            if a.name is not None:
                bound[a.name] = a
            elif i < len(ps):
                bound[ps[i].name] = a
        for p in ps:
            ptype = _param_type(p)
            if ptype is None:
                continue
            if p.name in bound:
                v = self._literal(bound[p.name].x, ptype, g)
                if v is _FREE:
                    self.note("args", giver, where, f"{g.name}.{p.name} is not a literal at this site "
                              f"(`{_short(bound[p.name].node)}`); left free")
                    continue
                out[p.name] = v
            elif p.default is not None:
                v = self._literal(_ir(p.default), ptype, g)
                if v is _FREE:
                    self.note("args", giver, where, f"{g.name}.{p.name} takes its default "
                              f"`{_short(p.default)}`, which is not a literal; left free")
                    continue
                out[p.name] = v
        return out

    def _literal(self, x: _X, ptype: str, ctx: _Cls):
        x = _unparen(x)
        if ptype == "bool":
            return x.a[0] if x.k == "lit" and isinstance(x.a[0], bool) else _FREE
        if ptype == "int":
            return x.a[0] if x.k == "lit" and not isinstance(x.a[0], bool) else _FREE
        if ptype == "colour":
            c = _const(x, COLOUR_ENUM, COLOUR_CONSTS)
            return c if c is not None else _FREE
        if ptype == "card":
            c = self._card_const(x)
            return c if c is not None else _FREE
        if ptype == "set<card>":
            if x.k == "call" and x.a[0].k == "name" and x.a[0].a[0] in _EMPTY_FUNS | _LIST_FUNS:
                items = [self._card_const(a.x) for a in x.a[1]]
                if all(i is not None for i in items) and not any(a.spread for a in x.a[1]):
                    return items
            return _FREE
        return _FREE


def _added(node):
    """The skill expression an ``add`` site hands out: the right side of ``p.skills += X(…)``, or ``x`` of
    ``p.skills = arrayOf(*p.skills, x)``; a local variable is read through its ``val x = X(…)``."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    op = node.child_by_field_name("operator")
    e = right if op is not None and _t(op) == "+=" else _spread_add(left, right)
    if e is not None and e.type == "identifier":
        e = _local_value(node, _t(e)) or e
    return e


def _refuses_self_target(fn) -> bool:
    """The function refuses its user as the target: ``if (message.targetPlayerId == 0) { …; return }`` (or
    ``it == 0`` over ``targetPlayerIdList``) — in the protocol, relative seat 0 is the player himself."""
    for n in _descendants(fn, "if_expression"):
        cond, branches = _if_parts(n)
        if cond is None or not branches or not any(True for _ in _descendants(branches[0], "return_expression")):
            continue
        x = _unparen(_ir(cond))
        if x.k != "bin" or x.a[0] != "==" or _t(x.a[2].n) != "0":
            continue
        left = _t(x.a[1].n)
        if left.endswith("targetPlayerId"):
            return True
        if left == "it":
            up = n.parent
            while up is not None and up != fn:
                if up.type == "call_expression" and "targetPlayerIdList" in _t(up.named_children[0]):
                    return True
                up = up.parent
    return False


def _ends_with_players(x: _X) -> bool:
    x = _unparen(x)
    return (x.k == "nav" and x.a[1] == "players") or (x.k == "name" and x.a[0] == "players")
