"""One catalogue entry per skill class: its kinds, name, initial flag, lifetime and parameters (grants),
consumed, conversion (ConvertCardSkill's constructor arguments) and ban (CannotPlayCard), with the rule
methods translated by ``bodies``."""
from __future__ import annotations

from .. import expr as E
from .. import kinds as K
from .. import vocab as V
from .bodies import RuleBodies
from .classes import _Cls, _param_type
from .server import _LIST_FUNS, CARD_ENUM, SEND_METHODS
from .effect_keys import EffectKeys
from .effects_read import EffectReader
from .triggers import TriggerEvents
from .syntax import _X, _descendants, _fn_expr, _fn_params, _ir, _short, _t, _value_args


class RuleEntries(RuleBodies, TriggerEvents, EffectReader, EffectKeys):
    """``_rule`` builds the entry of one skill class (a dict ``write`` turns into TOML)."""

    def _own_ids(self) -> dict:
        """skillId key -> how many skill classes declare it as their own (counted once: linear in the source)."""
        cache = self.__dict__.get("_own_id_counts")
        if cache is None or cache[0] != len(self.rule_cls):
            counts: dict = {}
            for o in self.rule_cls.values():
                k, own = self._skill_id(o)
                if k is not None and own:
                    counts[k] = counts.get(k, 0) + 1
            cache = self.__dict__["_own_id_counts"] = (len(self.rule_cls), counts)
        return cache[1]

    def _older_dead_owner(self, entries: dict) -> None:
        """An older code form of the trigger dispatch (before BeforeDieSkill, 2023-10 … 11): ``dealListeningSkill``
        asks a dead player's initial skills too when it runs for a death (its ``includingDead`` flag). An initial
        triggered skill that answers only its own holder's death is then what BeforeDieSkill says in later code: it
        is written with that kind (a note says why), so the catalogue means what the code of its revision does."""
        import re
        rule = getattr(self, "engine", {}).get("trigger.dead_owner")
        m = re.search(r"in the die phase: ([^;]*)", rule.value) if rule is not None and isinstance(rule.value, str) \
            else None
        if m is None or "initial" not in [x.strip() for x in m.group(1).split(",")]:
            return
        for rid, e in entries.items():
            on = e.get("on") or []
            closure = K.closure(e["kinds"])
            if e.get("grant") or e.get("initial") is not True or "TriggeredSkill" not in closure or \
                    "BeforeDieSkill" in closure or not on or any(o.get("event") != "die" for o in on):
                continue
            if not any("victim" in ([o["whose"]] if isinstance(o.get("whose"), str) else o.get("whose") or [])
                       for o in on):
                continue
            e["kinds"] = self.minimal_kinds(e["kinds"] + ["BeforeDieSkill"])
            if "closure" in e:
                e["closure"] = K.closure(e["kinds"])
            by = rule.where or "the trigger dispatch"
            self.note("kinds", rid, e["where"], f"answers its holder's own death, and {by} asks a dead player's "
                      "initial skills in the die phase: written as a BeforeDieSkill (the later code's kind for it)",
                      undecided=False)

    def _rule(self, c: _Cls, grant: bool, gives: list) -> dict:
        rid = c.name
        kinds = self.kinds(c)
        closure = K.closure(kinds)
        e: dict = {"id": rid, "grant": grant, "kinds": kinds, "where": c.at(), "cls": c, "gives": gives}
        # name
        key, own = self._skill_id(c)
        shared = key is not None and self._own_ids().get(key, 0) > 1
        zh = self.skill_names.get(key) if key is not None and own and not shared else None
        if grant:
            outer = c.outer
            okey = self._skill_id(outer)[0] if outer is not None and self.is_skill(outer) else None
            oname = self.skill_names.get(okey) if okey else None
            e["name"] = f"{oname}·{rid}" if oname else (zh or rid)
        else:
            if zh is None:
                self.note("name", rid, c.at(), "no skillId of its own naming it in an enum; the class name is "
                          "used as its name")
            e["name"] = zh or rid
        # initial
        marker = self.initial_marker()
        owner, init = self.prop(c, "isInitialSkill") if marker[0] == "property" else (None, None)
        x = _ir(init) if init is not None else None
        if marker[0] == "class":
            e["initial"] = marker[1] in self.ancestors(c)
        elif marker[0] == "none":
            e["initial"] = not grant                     # no such notion in this code: every skill is wrapped
        elif x is not None and x.k == "lit" and isinstance(x.a[0], bool):
            e["initial"] = x.a[0]
        else:
            e["initial"] = not grant
            self.note("initial", rid, c.at(), "isInitialSkill is not a literal in the class or its superclasses; "
                      f"written as {str(not grant).lower()} (the default of a {'grant' if grant else 'skill'})")
        if grant:
            if "OneTurnSkill" in closure or "InvalidSkill" in closure:
                e["lifetime"] = "turn"
            elif rid in self.consumed:
                e["lifetime"] = "until_fired"
            else:
                e["lifetime"] = "permanent"
            params = {}
            for p in c.params:
                pt = _param_type(p)
                if pt is None:
                    if "InvalidSkill" not in closure:
                        self.note("params", rid, c.at(), f"constructor parameter {p.name}: {_t(p.type_node)} has "
                                  "no catalogue type; not modelled", undecided=False)
                    continue
                if p.name in E.KEYWORDS or p.name in V.PLAYER_ATTRS or p.name in V.GLOBALS or p.name == "self":
                    self.note("params", rid, c.at(), f"parameter name {p.name} is reserved in the catalogue; "
                              "not modelled")
                    continue
                params[p.name] = pt
            e["params"] = params
        if rid in self.consumed:
            e["consumed"] = True
        P = e.get("params", {})
        if "ConvertCardSkill" in closure:
            e["convert"] = self._convert(c, P)
        if "CannotPlayCard" in closure:
            e["ban"] = self._ban(c, e)
        hard = getattr(self, "cannot_ids", {}).get((key or ("", ""))[1]) if key and own else None
        if hard and "MustReceiveMessage" not in closure:      # the receive handler refuses its holders
            kinds = e["kinds"] = self.minimal_kinds(kinds + ["MustReceiveMessage"])
            closure = K.closure(kinds)
            e["receive"] = {"must": "false", "cannot": "true"}
            self.note("receive", rid, hard, f"the receive handler refuses to let holders of {rid} receive "
                      "(findSkill): written as a MustReceiveMessage that cannot receive", undecided=False)
        elif "MustReceiveMessage" in closure:
            e["receive"] = {k: self._method_expr(c, m, "receive", V.BOOL, f"receive.{k}", P)
                            for k, m in (("must", "mustReceive"), ("cannot", "cannotReceive"))}
        sends = [k for k in SEND_METHODS if k in closure]
        if sends:
            if len(sends) > 1:
                self.note("send", rid, c.at(), f"belongs to several send groups ({', '.join(sends)}); the rule "
                          "is not split per group — unknown")
                e["send"] = "unknown"
            else:
                e["send"] = self._method_expr(c, SEND_METHODS[sends[0]], "send", V.BOOL, "send", P)
        if "ChangeDrawCardCountSkill" in closure:
            e["draw"] = self._method_expr(c, self.kind_method("ChangeDrawCardCountSkill", "changeDrawCardCount"),
                                          "draw", V.INT, "draw", P)
        for kind, key, method in (("WinSkill", "win", "checkWin"), ("ChangeGameResultSkill", "result",
                                                                    "changeGameResult")):
            if kind in closure:
                method = self.kind_method(kind, method)
                _o, fd = self.func(c, method)
                table = "grant" if grant else "skill"
                self.note("effects", rid, self._at(fd, c), f"{method} is not analysed: one [[{table}.{key}]] "
                          "effect with every part unknown is written")
                e[key] = True
        if "ActiveSkill" in closure:
            self._active(c, e, P)
        if "TriggeredSkill" in closure:
            on = self._trigger_events(c)
            if on:
                e["on"] = on
        mode = "trigger" if "TriggeredSkill" in closure else "active" if "ActiveSkill" in closure else None
        if mode is not None:
            rd = self._read_effect(c, mode, e.get("on"), params=e.get("params"))
            if mode == "trigger" and not e.get("on") and rd.when_kinds:      # an older code form: a state read
                e["on"] = [{"event": k} for k in rd.when_kinds]
            e["closure"] = closure
            e["key_lines"] = self._effect_keys(e, rd, "skill")
            if mode == "trigger" and e.get("on") and not any("unknown" in (o.get("when") or "") for o in e["on"]):
                self.report[:] = [i for i in self.report if not (i.kind == "trigger" and i.subject == c.name and
                                                                 "is not translated: when = unknown" in i.message)]
        return e

    def _at(self, node, c: _Cls) -> str:
        return c.src.at(node) if node is not None else c.at()

    def _convert(self, c: _Cls, P) -> dict:
        for x in self.super_chain(c):
            for name, va, _spec in x.supers:
                if name != "ConvertCardSkill" or va is None:
                    continue
                if x is not c:
                    self.note("convert", c.name, x.at(), f"conversion arguments come from superclass {x.name}")
                base = self.resolve("ConvertCardSkill", x)
                args = _value_args(va)
                return self._convert_args(c, x.src.at(va), args, base, P)
        self.note("convert", c.name, c.at(), "no ConvertCardSkill(…) constructor call found; from = any, to = every "
                  "card, must = false written")
        return {"from": "any", "to": list(self.cards), "must": False}

    def _convert_args(self, c, where, args, base, P) -> dict:
        roles = ["from", "to", "must"]
        if base is not None and len(base.params) == 3:
            names = [p.name for p in base.params]
            types = [_param_type(p) for p in base.params]
            roles, cards = [], 0
            for t in types:                      # (A, B, must): the first card is the source, the next the target(s)
                if t in ("card", "set<card>"):
                    roles.append("from" if cards == 0 and t == "card" else "to")
                    cards += 1
                else:
                    roles.append("must" if t == "bool" else None)
        else:
            names = roles
        bound = {}
        for i, a in enumerate(args):
            r = roles[names.index(a.name)] if a.name in names else (roles[i] if i < len(roles) else None)
            if r:
                bound[r] = a
        out = {}
        a = bound.get("from")
        if a is not None and a.x.k == "null":
            out["from"] = "any"
        elif a is not None and self._card_ref(a.x, P, "card"):
            out["from"] = self._card_ref(a.x, P, "card")
        else:
            self.note("convert", c.name, where, f"source card `{_short(a.node) if a else '?'}` not decided; "
                      "from = any written")
            out["from"] = "any"
        a = bound.get("to")
        tos = None
        if a is not None and a.x.k == "call" and a.x.a[0].k == "name" and a.x.a[0].a[0] in _LIST_FUNS:
            refs = [self._card_ref(i.x, P, "card") for i in a.x.a[1]]
            if refs and all(refs):
                tos = refs
        elif a is not None and self._card_ref(a.x, P, "card"):      # one card B (the form until 2023-10-09)
            tos = [self._card_ref(a.x, P, "card")]
        if tos is None:
            self.note("convert", c.name, where, f"target cards `{_short(a.node) if a else '?'}` not decided; every "
                      "card written")
            tos = list(self.cards)
        out["to"] = tos
        a = bound.get("must")
        if a is not None and a.x.k == "lit" and isinstance(a.x.a[0], bool):
            out["must"] = a.x.a[0]
        else:
            self.note("convert", c.name, where, f"must `{_short(a.node) if a else '?'}` is not a literal; "
                      "false written")
            out["must"] = False
        return out

    def _card_ref(self, x: _X, P, ptype):
        cid = self._card_const(x)
        if cid:
            return cid
        if x.k == "name" and P.get(x.a[0]) == ptype:
            return x.a[0]
        return None

    def _ban(self, c: _Cls, e: dict) -> dict:
        P = e.get("params", {})
        sets = [n for n, t in P.items() if t == "set<card>"]
        bools = [n for n, t in P.items() if t == "bool"]
        used = self._ban_reads(c, set(P))
        if used is not None and len(sets) == 1 and len(bools) > 1:
            for b in [b for b in bools if b not in used]:       # e.g. a forbidAllSkill the ban never reads
                del P[b]
                self.note("params", c.name, c.at(), f"constructor parameter {b} is not read by the ban "
                          f"({'/'.join(sorted(used))}); not modelled", undecided=False)
            bools = [b for b in bools if b in used]
        if len(sets) == 1 and len(bools) <= 1:
            return {"cards": sets[0], "all": bools[0] if bools else False}
        if not e["grant"]:
            return {"cards": [], "all": False}
        self.note("ban", c.name, c.at(), "the banned cards are not constructor parameters; free parameters "
                  "cards / all_cards written")
        P.setdefault("cards", "set<card>")
        P.setdefault("all_cards", "bool")
        return {"cards": "cards", "all": "all_cards"}

    def _ban_reads(self, c: _Cls, params: set):
        """The constructor parameters the class's ban test reads: the one-expression function taking a card
        type (``fun cannotPlayCard(cardType: card_type) = forbidAllCard || cardType in this.cardType``);
        None when there is no such function."""
        for x in self.super_chain(c):
            for fd in x.members("function_declaration"):
                ps = _fn_params(fd)
                body = _fn_expr(fd)
                if body is None or len(ps) != 1 or ps[0][1] != CARD_ENUM:
                    continue
                shadow = ps[0][0]
                out = set()
                for n in _descendants(body, "identifier", "navigation_expression"):
                    if n.type == "navigation_expression":
                        kids = n.named_children
                        if len(kids) == 2 and kids[0].type == "this_expression" and _t(kids[1]) in params:
                            out.add(_t(kids[1]))
                    elif _t(n) in params and _t(n) != shadow and not _is_member_name(n):
                        out.add(_t(n))
                return out
        return None


def _is_member_name(n) -> bool:
    """``n`` is the member part of ``a.n`` (not a variable of its own)."""
    p = n.parent
    return p is not None and p.type == "navigation_expression" and p.named_children and p.named_children[-1] == n \
        and p.named_children[0] != n

