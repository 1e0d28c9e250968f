"""Rule methods → condition-language expressions: ``canUse``, ``mustReceive``/``cannotReceive``, the send-group
checks and ``changeDrawCardCount`` translated when their body is one expression over the documented
vocabulary (what is not becomes ``unknown`` and is reported), and whether ``executeProtocol`` accepts the
濒死求澄清 game states (``dying``)."""
from __future__ import annotations

import re
from contextlib import contextmanager

from .. import expr as E
from .. import kinds as K
from .. import vocab as V
from .cards import CardTable
from .classes import _Cls
from .server import (_LIST_FUNS, ACTOR_FIELDS, COLOUR_CONSTS, COLOUR_ENUM, DIRECTION_CONSTS, DIRECTION_ENUM,
                     DYING_PHASES, NEGATED_PLAYER_PROPS, PHASE_WINDOWS, PLAYER_PROPS,
                     SKILL_EXTRA_WINDOWS)
from .helpers import colour_arg_count_term, colour_count_term
from .syntax import (_TYPE_NODES, _X, _const, _descendants, _fn_expr, _fn_params, _ir, _kid, _lambda_parts,
                     _name_of, _short, _single_lambda, _t, _type_name)


class RuleBodies(CardTable):
    """Translates rule methods (``_translate`` runs a ``_Translator`` over a method body)."""

    def _method_expr(self, c: _Cls, method: str, context: str, want: str, what: str, params) -> str:
        owner, fd = self.func(c, method)
        if fd is None:
            self.note(what.split(".")[0], c.name, c.at(), f"no {method} found in the class or its superclasses — "
                      "unknown")
            return "unknown"
        return self._translate(owner, fd, context, want, c.name, what, params)

    def _translate(self, owner: _Cls, fd, context, want, rid, what, params) -> str:
        where = owner.src.at(fd)
        body = _fn_expr(fd)
        name = _name_of(fd)
        if body is None:
            self.note(what.split(".")[0], rid, where, f"{name} is not a single expression — unknown")
            return "unknown"
        tr = _Translator(self, context, _fn_params(fd), owner, params)
        text = tr.top(_ir(body), want)
        try:
            node = E.parse(text)
            E.check(node, E.Scope(context, self.universe, dict(params)), want)
        except E.ExprError as ex:
            self.note(what.split(".")[0], rid, where, f"{name}: the translation `{text}` does not check "
                      f"({ex.text.render('en')}) — unknown")     # the extraction report is English
            return "unknown"
        if tr.missed:
            if want == V.BOOL and _only_unknown(node):       # `not unknown or unknown`: nothing was read
                text = "unknown"
            parts = "; ".join(f"`{_short(n, 70)}`" for n in tr.missed[:4])
            more = f" (+{len(tr.missed) - 4} more)" if len(tr.missed) > 4 else ""
            self.note(what.split(".")[0], rid, where, f"{name}: not translated: {parts}{more} → `{text}`")
        return text

    def _active(self, c: _Cls, e: dict, P):
        closure = K.closure(e["kinds"])
        owner, fd = self.func(c, "canUse")
        if "MainPhaseSkill" not in closure and (fd is None or _kid(fd, "function_body") is None):
            owner2, fd2 = self.func(c, "executeProtocol")
            if fd2 is not None and self._phase_types(fd2, owner2, 0) == {"MainPhaseIdle"}:
                # no canUse, and executeProtocol refuses every game state but the main phase: what the server later
                # named a MainPhaseSkill (`if (r !== (g.fsm as? MainPhaseIdle)?.player) return` in older code)
                e["kinds"] = self.minimal_kinds(list(e["kinds"]) + ["MainPhaseSkill"])
                closure = K.closure(e["kinds"])
                self.note("kinds", c.name, owner2.src.at(fd2), "no canUse, and executeProtocol accepts only "
                          "MainPhaseIdle: written as a MainPhaseSkill (used in the main phase by the turn player)",
                          undecided=False)
        if "MainPhaseSkill" in closure:
            if owner is c and fd is not None:
                body = _fn_expr(fd)
                if body is None or _t(body) != "false":
                    self.note("fight", c.name, c.src.at(fd), "a MainPhaseSkill overriding canUse; a MainPhaseSkill "
                              "takes no 'fight', so it is not written", undecided=False)
        elif fd is None:
            self.note("fight", c.name, c.at(), "no canUse found — unknown")
            e["fight"] = "unknown"
        else:
            e["fight"] = self._translate(owner, fd, "fight", V.BOOL, c.name, "fight", P)
        # dying: which game states executeProtocol accepts
        owner, fd = self.func(c, "executeProtocol")
        if fd is None:
            self.note("dying", c.name, c.at(), "no executeProtocol found; whether it can be used while someone "
                      "is dying is unknown")
            e["dying"] = "unknown"
            return
        types = self._phase_types(fd, owner, 0)
        if types & DYING_PHASES:
            self.note("dying", c.name, owner.src.at(fd), f"executeProtocol accepts {', '.join(sorted(types & DYING_PHASES))} "
                      "(someone dying); the condition is not analysed — unknown")
            e["dying"] = "unknown"
        elif types:
            e["dying"] = "false"
        else:
            self.note("dying", c.name, owner.src.at(fd), "executeProtocol names no game state; whether it can be "
                      "used while someone is dying is unknown")
            e["dying"] = "unknown"
        self._skill_windows(c, e, fd, owner, types)

    def _skill_windows(self, c: _Cls, e: dict, fd, owner: _Cls, types: set):
        """An ActiveSkill whose executeProtocol accepts a window the catalogue's default windows of an ActiveSkill do
        not hold (传递阶段开始时, 传递阶段: the defaults are 出牌阶段 for a MainPhaseSkill, else 争夺阶段 / 濒死求澄清
        where its condition is not plainly false — model.link.default_windows): its ``windows``, each with the actor
        read as a card's (``_actors``), beside the default ones its conditions give. Without it the skill is used in
        no window at all and nothing it does or hands out is reachable."""
        wins = {PHASE_WINDOWS[t] for t in types if PHASE_WINDOWS.get(t) in SKILL_EXTRA_WINDOWS}
        if not wins:
            return
        out = self._actors(c.name, fd, owner, sorted(wins), "executeProtocol")
        if "MainPhaseSkill" in K.closure(e["kinds"]) or "main" in e:
            out["main"] = "turn"
        for key in ("fight", "dying"):
            if e.get(key, "false") != "false":
                out[key] = "anyone"
        e["windows"] = out

    def _actors(self, rid: str, fd, owner: _Cls, wins: list, method: str) -> dict:
        """Each window with its actor (model.turn): the window's own, unless it is one player the game state names
        (``ACTOR_FIELDS``) and ``fd`` (with the companion function it calls) never reads that field — then whoever
        is asked may act there, "anyone"."""
        from skillproof.model import turn as T
        out = {w: T.WINDOWS[w].actor for w in wins}
        read = None
        for w in wins:
            fields = ACTOR_FIELDS.get(w)
            if not fields:
                continue
            if read is None:
                read = self._user_compared(fd, owner)
            if not fields & read:
                # the game state is tested but never the player it gives the window to: whoever is asked may act
                out[w] = "anyone"
                self.note("windows", rid, owner.src.at(fd), f"{method} accepts {T.WINDOWS[w].fsm} without reading "
                          f"{' / '.join(sorted(fields))}: anyone may use it there", undecided=False)
        return out

    def _user_compared(self, fd, owner: _Cls) -> set:
        """The fields of a game state the user (the function's Player parameter) is compared with, ``r !== (g.fsm as?
        MainPhaseIdle)?.whoseTurn``, ``fsm.inFrontOfWhom == r`` — in ``fd`` and the companion function it calls."""
        out = set()
        for f2, _ in self._reached(fd, owner):
            users = [name for name, tname, _ in _fn_params(f2) if tname == "Player"][:1]
            if not users:
                continue
            u = re.escape(users[0])
            one = re.compile(rf"(?s)\A\s*{u}\s*(?:===|!==|==|!=)\s*.*?\??\.\s*(\w+)\s*\Z")
            other = re.compile(rf"(?s)\A.*?\??\.\s*(\w+)\s*(?:===|!==|==|!=)\s*{u}\s*\Z")
            for n in _descendants(f2, "binary_expression", "equality_expression"):
                m = one.match(_t(n)) or other.match(_t(n))
                if m:
                    out.add(m.group(1))
        return out

    def _card_windows(self, cid: str, c: _Cls) -> dict | None:
        """Where a card may be used: the game states its ``canUse`` accepts (``g.fsm as? MainPhaseIdle``,
        ``fsm is WaitForChengQing`` …, one level into a companion's function as 截获's), each the window it
        stands at with that window's actor (model.turn: main and send_start the turn player, send the player
        the message is in front of, fight and dying everyone asked in turn). None, with a note, when canUse
        names no game state: the card is written without windows (KD007 then says so)."""
        from skillproof.model import turn as T
        owner, fd = self.func(c, "canUse")
        if fd is None:
            self.note("windows", cid, c.at(), "no canUse found: the card's windows are not written")
            return None
        types = self._phase_types(fd, owner, 0)
        wins = sorted({PHASE_WINDOWS[t] for t in types if t in PHASE_WINDOWS}, key=lambda w: (T.position(w) < 0, T.position(w)))
        if not wins:
            self.note("windows", cid, owner.src.at(fd), "canUse names no game state a card is used in: the card's "
                      "windows are not written")
            return None
        return self._actors(cid, fd, owner, wins, "canUse")

    def _reached(self, fd, owner: _Cls, depth=0):
        """``fd`` with its owner, then the functions it calls as ``Type.function(…)`` (a companion's function, as
        截获's and 威逼's shared checks), one level deep."""
        yield fd, owner
        if depth:
            return
        for n in _descendants(fd, "call_expression"):
            x = _ir(n)
            while x.k == "un":
                x = x.a[1]
            if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[0].k == "name":
                tc = self.resolve(x.a[0].a[0].a[0], owner)
                if tc is not None:
                    for comp in [tc] + [c for c in tc.nested if c.kind == "companion"]:
                        for f2 in comp.functions(x.a[0].a[1]):
                            yield f2, tc

    def _phase_types(self, fd, owner: _Cls, depth) -> set:
        out = set()
        for f2, _ in self._reached(fd, owner, depth):
            for n in _descendants(f2, "as_expression", "is_expression", "type_test"):
                if n.type == "type_test":
                    out.add(_type_name(_kid(n, *_TYPE_NODES)))
                else:
                    r = n.child_by_field_name("right")
                    if r is not None:
                        out.add(_type_name(r))
        return {t for t in out if t and t[:1].isupper()} & self._phase_names()

    def _phase_names(self) -> set:
        if not hasattr(self, "_phases"):
            self._phases = {c.name for c in self.classes if "Fsm" in self.ancestors(c)} | DYING_PHASES
        return self._phases


class _T:
    """A translated piece: its sort, its text in the catalogue language and its precedence."""
    __slots__ = ("sort", "text", "prec")

    def __init__(self, sort, text, prec=9):
        self.sort, self.text, self.prec = sort, text, prec


#: a second Player parameter named for its role in the turn → the vocabulary attribute saying the owner is it
_ROLE_PARAMS = {"whoseTurn": "my_turn", "sender": "is_sender"}

# precedence levels of the catalogue language (higher binds tighter)
_IF, _OR, _AND, _NOT, _CMP, _SUM, _PROD, _NEG, _ATOM = range(1, 10)
_UNKNOWN_B = "unknown"


def _wrap(t: _T, prec: int) -> str:
    return f"({t.text})" if t.prec < prec else t.text


class _Translator:
    """Kotlin expression → catalogue expression, over the documented vocabulary only. Pieces it cannot
    translate become ``unknown`` where a bool or int stands (recorded in ``missed``)."""

    def never_counted(self) -> bool:
        """Whether the owner's own use count (``getSkillUseCount(skillId)``) is one no code of the revision ever adds
        to (``normal.counters``): then it reads 0 always."""
        from .normal import counters, _key_text
        ex = self.ex
        if getattr(ex, "_counters", None) is None:
            trees = {id(s.data): s.tree for s in getattr(ex, "srcs", ()) if s.tree is not None}
            files = {s.rel: s.data for s in getattr(ex, "srcs", ()) if s.tree is not None}
            try:
                ex._counters = counters(files, lambda d: trees[id(d)]) if files else {}
            except Exception:                                   # pragma: no cover - nothing known
                ex._counters = {}
        written = ex._counters.get(("counter", "getSkillUseCount"))
        node = getattr(self.owner, "node", None)
        if written is None or node is None or not node.named_children:
            return False
        key = _key_text(b"skillId", self.owner.src.data, node.named_children[-1])
        return key is not None and key not in written

    def __init__(self, ex: RuleBodies, context: str, fparams: list, owner: _Cls, params: dict):
        self.ex, self.context, self.owner = ex, context, owner
        self.missed: list = []
        self.env: dict[str, _T] = {}
        self.bound: list[str] = []              # player variables bound by quantifiers, innermost last
        self.reserved = set(params) | E.KEYWORDS | set(V.PLAYER_ATTRS) | set(V.GLOBALS) | {"self"}
        for name, tname, targs in fparams:
            if tname == "Player":
                if not any(t.sort == "self" for t in self.env.values()):
                    self.env[name] = _T("self", "self")
                elif name in _ROLE_PARAMS:                  # checkSendCard(player, whoseTurn, …)
                    self.env[name] = _T("role", _ROLE_PARAMS[name])
            elif tname == "Game":
                self.env[name] = _T("game", "")
            elif tname.endswith("Phase") or tname.endswith("PhaseIdle") or tname.endswith("Idle"):
                self.env[name] = _T("phase", name)
            elif tname == "Int" and context == "draw":
                self.env[name] = _T("int", "count")
            elif tname == DIRECTION_ENUM and context == "send":
                self.env[name] = _T("dir", "dir")
            elif tname == "Card" and context == "send":
                self.env[name] = _T("mcard", "")
            elif tname in ("List", "Collection") and targs == ["Player"] and context == "send":
                self.env[name] = _T("locks", "")
        for p, t in params.items():
            self.env.setdefault(p, _T({"card": "card", "bool": "bool", "int": "int", "colour": "colour"}.get(t, t),
                                      p))

    # entry points ----------------------------------------------------------------------------
    def top(self, x: _X, want: str) -> str:
        t = self.bool(x) if want == V.BOOL else self.int(x)
        return t.text

    @contextmanager
    def _binding(self, name: str, t: _T):
        """Inside the with-block ``name`` stands for ``t``; its outer meaning, if any, comes back after."""
        saved = self.env.get(name)
        self.env[name] = t
        try:
            yield
        finally:
            if saved is None:
                self.env.pop(name, None)
            else:
                self.env[name] = saved

    def _miss(self, x: _X, sort: str) -> _T:
        self.missed.append(x.n)
        return _T(sort, _UNKNOWN_B)

    def bool(self, x: _X) -> _T:
        k = x.k
        if k == "paren":
            return self.bool(x.a[0])
        if k == "un" and x.a[0] == "!":
            a = self.bool(x.a[1])
            if a.text == "true":
                return _T("bool", "false")
            if a.text == "false":
                return _T("bool", "true")
            if a.prec == _NOT and a.text.startswith("not ") and a.text.count("not ") == 1 and \
                    re.fullmatch(r"not [\w.]+", a.text):
                return _T("bool", a.text[4:], _ATOM)          # ``!p.isPublicRole``: not (not p.hidden) is p.hidden
            return _T("bool", f"not {_wrap(a, _NOT)}", _NOT)
        if k == "bin" and x.a[0] in ("&&", "||"):
            l, r = self.bool(x.a[1]), self.bool(x.a[2])
            if x.a[0] == "&&":
                return _T("bool", f"{_wrap(l, _AND)} and {_wrap(r, _AND)}", _AND)
            return _T("bool", f"{_wrap(l, _OR)} or {_wrap(r, _OR)}", _OR)
        if k == "if":
            c, a, b = self.bool(x.a[0]), self.bool(x.a[1]), self.bool(x.a[2])
            return _T("bool", f"if {c.text} then {a.text} else {_wrap(b, _IF)}", _IF)
        t = self.tx(x)
        if t is not None and t.sort == "bool":
            return t
        if k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "none" and not x.a[1] and x.a[2] is not None:
            # `l.none { p }` not read as itself: `!l.any { p }`, read as that is
            a = self.bool(_X("call", x.n, _X("nav", x.a[0].n, x.a[0].a[0], "any"), x.a[1], x.a[2]))
            return _T("bool", f"not {_wrap(a, _NOT)}", _NOT)
        return self._miss(x, "bool")

    def int(self, x: _X) -> _T:
        k = x.k
        if k == "paren":
            return self.int(x.a[0])
        if k == "if":
            c, a, b = self.bool(x.a[0]), self.int(x.a[1]), self.int(x.a[2])
            return _T("int", f"if {c.text} then {a.text} else {_wrap(b, _IF)}", _IF)
        if k == "bin" and x.a[0] in ("+", "-"):
            l, r = self.int(x.a[1]), self.int(x.a[2])
            return _T("int", f"{_wrap(l, _SUM)} {x.a[0]} {_wrap(r, _SUM + 1)}", _SUM)
        if k == "un" and x.a[0] == "-":
            a = self.int(x.a[1])
            return _T("int", f"-{_wrap(a, _NEG)}", _NEG)
        t = self.tx(x)
        if t is not None and t.sort == "int":
            return t
        return self._miss(x, "int")

    # leaves and comparisons --------------------------------------------------------------------
    def tx(self, x: _X) -> _T | None:
        k = x.k
        if k == "paren":
            t = self.tx(x.a[0])
            return _T(t.sort, f"({t.text})" if t.prec < _ATOM else t.text) if t else None
        if k == "lit":
            v = x.a[0]
            if isinstance(v, bool):
                return _T("bool", "true" if v else "false")
            return _T("int", str(v)) if v >= 0 else _T("int", str(v), _NEG)
        if k == "name":
            n = x.a[0]
            if n in self.env:
                return self.env[n]
            if n in COLOUR_CONSTS:
                return _T("colour", COLOUR_CONSTS[n])
            if n in DIRECTION_CONSTS:
                return _T("dir", DIRECTION_CONSTS[n])
            if n in self.ex.cards:
                return _T("card", n)
            if n in self.ex.char_names:
                return _T("charconst", n)
            return None
        if k == "str":
            return _T("str", x.a[0])
        if k in ("un", "bin", "if") and (x.a[0] in ("!", "&&", "||") or k == "if"):
            return self.bool(x) if k != "if" else None
        if k == "nav":
            return self._nav(x)
        if k == "call":
            return self._call(x)
        if k == "bin":
            return self._bin(x)
        if k == "in":
            neg, l, r = x.a
            lt, rt = self.tx(l), self.tx(r)
            if lt is not None and rt is not None and lt.sort == "colour" and rt.sort == "colours":
                return _T("bool", f"{_wrap(lt, _SUM)} {'not in' if neg else 'in'} {rt.text}", _CMP)
            if lt is not None and lt.sort == "character" and r.k == "call" and r.a[0].k == "name" and \
                    r.a[0].a[0] in _LIST_FUNS and r.a[2] is None:
                items = [self.tx(a.x) for a in r.a[1]]
                if items and all(i is not None and i.sort == "charconst" for i in items):
                    return _T("bool", f"{lt.text} {'not in' if neg else 'in'} {{{', '.join(i.text for i in items)}}}",
                              _CMP)
            return None
        return None

    def _nav(self, x: _X) -> _T | None:
        obj, m = x.a
        c = _const(x, COLOUR_ENUM, COLOUR_CONSTS)
        if c is not None:
            return _T("colour", c)
        d = _const(x, DIRECTION_ENUM, DIRECTION_CONSTS)
        if d is not None:
            return _T("dir", d)
        cid = self.ex._card_const(x)
        if cid is not None:
            return _T("card", cid)
        o = self.tx(obj)
        if o is None:
            return None
        if o.sort in ("self", "player"):
            pre = "" if o.sort == "self" else o.text + "."
            if m in PLAYER_PROPS:
                return _T("bool", pre + PLAYER_PROPS[m])
            if m in NEGATED_PLAYER_PROPS:
                return _T("bool", f"not {pre}{NEGATED_PLAYER_PROPS[m]}", _NOT)
            if m == "identity":
                return _T("colour", pre + "identity")
            if m == "cards":
                return _T("hand", pre)
            if m == "messageCards":
                return _T("msgs", pre)
            if m == "roleName":
                return _T("rolename", pre)
            if m == "role":
                return _T("character", pre + "character")
            if m == "game":
                return _T("game", "")
            return None
        if o.sort == "game" and m == "players":
            return _T("players", "")
        if o.sort == "phase":
            if m == "inFrontOfWhom":
                return _T("self", "self") if self.context == "receive" else _T("role", "in_front")
            if m == "whoseTurn":
                return _T("role", "my_turn")
            if m == "sender":
                return _T("role", "is_sender")
            if m == "messageCard":
                return _T("mcard", "")
            return None
        if o.sort == "mcard":
            if m == "colors" and self.context in ("fight", "receive", "send"):
                return _T("colours", "message")
            if m == "direction":
                return _T("dir", "message_dir")
            return None
        if o.sort == "hand" and m == "size":
            return _T("int", o.text + "hand_count")
        if o.sort == "msgs" and m == "size":
            # a message holds black or it does not: the area's size is the sum of the two counts (a red-black message
            # is a true message and a black one: true_messages + black_messages would count it twice)
            return _T("int", f"{o.text}black_messages + {o.text}non_black_messages", _SUM)
        if o.sort == "locks" and m == "size" and self.context == "send":
            return _T("int", "lock_count")
        return None

    def _call(self, x: _X) -> _T | None:
        callee, args, lam = x.a
        if callee.k != "nav":
            return None
        obj, fn = callee.a
        if fn == "let" and lam is not None and not args:
            o = self.tx(obj)
            one = _single_lambda(lam)
            if o is None or one is None:
                return None
            name, stmt = one
            with self._binding(name, o):
                body = _ir(stmt)
                t = self.tx(body)
                if t is None or t.sort not in ("bool", "int"):
                    t = self.bool(body) if t is None else t
                return t
        o = self.tx(obj)
        if o is None:
            return None
        if o.sort == "hand" and not args and lam is None:
            if fn == "isEmpty":
                return _T("bool", o.text + "hand_empty")
            if fn == "isNotEmpty":
                return _T("bool", f"not {o.text}hand_empty", _NOT)
        if o.sort == "players" and fn in ("any", "all", "none", "count"):
            return self._quant(fn, args, lam)
        if o.sort == "rolename" and fn in ("endsWith", "startsWith", "contains") and len(args) == 1 \
                and args[0].x.k == "str" and lam is None:
            lit = args[0].x.a[0]
            test = {"endsWith": str.endswith, "startsWith": str.startswith, "contains": str.__contains__}[fn]
            return self._characters(o.text, [c for c, n in self.ex.char_names.items() if test(n, lit)])
        if o.sort == "locks" and not args and lam is None and self.context == "send":
            if fn == "isEmpty":
                return _T("bool", "lock_count == 0", _CMP)
            if fn == "isNotEmpty":
                return _T("bool", "lock_count > 0", _CMP)
        if o.sort == "msgs":
            if fn in ("isEmpty", "isNotEmpty") and not args and lam is None:
                # every message has a colour: red or blue (a true message) or black, so the area holds none exactly
                # when it holds no true and no black message
                return _T("bool", f"{o.text}true_messages + {o.text}black_messages "
                                  f"{'==' if fn == 'isEmpty' else '>'} 0", _CMP)
            if fn == "count" and len(args) == 1 and lam is None:
                c = _const(args[0].x, COLOUR_ENUM, COLOUR_CONSTS)
                if c in ("red", "blue", "black"):
                    term = colour_arg_count_term(self.ex, fn, c)      # the helper read by its body (helpers.py)
                    if term:
                        return _T("int", f"{o.text}{term}")
                    if term == "":                                    # no definition in the sources
                        return _T("int", f"{o.text}{c}_messages")
                    return None
            if not args and lam is None and fn not in ("isEmpty", "isNotEmpty"):
                term = colour_count_term(self.ex, fn)     # a counting helper, read by its body (helpers.py)
                if term:
                    return _T("int", o.text + term)
                if term == "" and fn == "countTrueCard":   # no definition in the sources: the server's meaning
                    return _T("int", o.text + "true_messages")
            if fn == "any" and not args and lam is not None and "non_black_messages" in V.PLAYER_ATTRS:
                params, stmts = _lambda_parts(lam)
                var = params[0] if params else "it"
                if len(stmts) == 1 and _is_not_black(_ir(stmts[0]), var):
                    return _T("bool", f"{o.text}non_black_messages > 0", _CMP)
            if fn in ("all", "none") and not args and lam is not None and "non_black_messages" in V.PLAYER_ATTRS:
                # every message black (none not black): no non-black message — `any { !it.isBlack() }` negated
                params, stmts = _lambda_parts(lam)
                var = params[0] if params else "it"
                test = _is_not_black if fn == "none" else _is_black
                if len(stmts) == 1 and test(_ir(stmts[0]), var):
                    return _T("bool", f"{o.text}non_black_messages == 0", _CMP)
        if o.sort == "self" and fn == "getSkillUseCount" and len(args) == 1:
            a = args[0].x
            if (a.k == "name" and a.a[0] == "skillId"):
                return _T("int", "0") if self.never_counted() else _T("usecount", "")
        if o.sort == "mcard" and not args and lam is None and self.context in ("fight", "receive", "send"):
            if fn == "isBlack":
                return _T("bool", "black in message", _CMP)
            if fn == "canLock" and self.context == "send":
                return _T("bool", "message_lockable")
        if o.sort == "colours" and fn == "contains" and len(args) == 1:
            a = self.tx(args[0].x)
            if a is not None and a.sort == "colour":
                return _T("bool", f"{a.text} in {o.text}", _CMP)
        return None

    def _quant(self, fn, args, lam) -> _T | None:
        """``players.any { … }`` / ``players.any(::f)`` → ``any(p: …)`` (all, none, count likewise)."""
        if lam is not None and not args:
            one = _single_lambda(lam)
            if one is None:
                return None
            name, body = one[0], _ir(one[1])
        elif lam is None and len(args) == 1 and args[0].x.k == "ref":
            fname = args[0].x.a[0].split("::")[-1]
            _o, fd = self.ex.func(self.owner, fname)
            ps = _fn_params(fd) if fd is not None else []
            expr = _fn_expr(fd) if fd is not None else None
            if expr is None or len(ps) != 1:
                return None
            name, body = ps[0][0], _ir(expr)
        else:
            return None
        var = next(v for v in ("p", "q", "p2", "q2", "p3") if v not in self.reserved and v not in self.bound)
        with self._binding(name, _T("player", var)):
            self.bound.append(var)
            try:
                b = self.bool(body)
            finally:
                self.bound.pop()
        if fn == "count":
            return _T("int", f"count({var}: {b.text})")
        q = "all" if fn == "all" else "any"
        t = f"{q}({var}: {b.text})"
        return _T("bool", f"not {t}", _NOT) if fn == "none" else _T("bool", t)

    def _characters(self, attr: str, ids: list) -> _T:
        if not ids:
            return _T("bool", "false")
        if len(ids) == 1:
            return _T("bool", f"{attr}character == {ids[0]}", _CMP)
        return _T("bool", f"{attr}character in {{{', '.join(ids)}}}", _CMP)

    def _bin(self, x: _X) -> _T | None:
        op, l, r = x.a
        if op in ("==", "!=", "===", "!=="):
            lt, rt = self.tx(l), self.tx(r)
            if lt is not None and rt is not None and {lt.sort, rt.sort} == {"rolename", "str"}:
                pre = lt.text if lt.sort == "rolename" else rt.text
                lit = rt.text if rt.sort == "str" else lt.text
                t = self._characters(pre, [c for c, n in self.ex.char_names.items() if n == lit])
                return _T("bool", f"not {_wrap(t, _NOT)}", _NOT) if op in ("!=", "!==") else t
            if lt is None or rt is None:
                return None
            neg = op in ("!=", "!==")
            sorts = {lt.sort, rt.sort}
            if sorts == {"self", "role"}:
                role = lt if lt.sort == "role" else rt
                return _T("bool", f"not {role.text}", _NOT) if neg else _T("bool", role.text)
            if sorts == {"self"}:
                return _T("bool", "false" if neg else "true")
            if "usecount" in sorts:
                other = rt if lt.sort == "usecount" else lt
                if other.sort == "int" and other.text == "0":
                    return _T("bool", "used") if neg else _T("bool", "not used", _NOT)
                return None
            if "character" in sorts and "charconst" in sorts:
                return _T("bool", f"{lt.text} {'!=' if neg else '=='} {rt.text}", _CMP)
            if lt.sort == rt.sort == "int" and lt.text.isdigit() and rt.text.isdigit():
                return _T("bool", "true" if (lt.text == rt.text) != neg else "false")    # two numbers compared
            if lt.sort == rt.sort and lt.sort in ("int", "colour", "dir", "bool", "card"):
                return _T("bool", f"{_wrap(lt, _SUM)} {'!=' if neg else '=='} {_wrap(rt, _SUM)}", _CMP)
            return None
        if op in ("<", "<=", ">", ">="):
            lt, rt = self.tx(l), self.tx(r)
            if lt is not None and rt is not None and "usecount" in (lt.sort, rt.sort):
                uses_left = lt.sort == "usecount"
                other = rt if uses_left else lt
                if other.sort == "int" and other.text in ("0", "1"):
                    o = op if uses_left else {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
                    n = int(other.text)
                    if (o, n) in ((">", 0), (">=", 1)):
                        return _T("bool", "used")
                    if (o, n) in (("<", 1), ("<=", 0)):
                        return _T("bool", "not used", _NOT)
                return None
            lt, rt = self.int(l), self.int(r)
            return _T("bool", f"{_wrap(lt, _SUM)} {op} {_wrap(rt, _SUM)}", _CMP)
        if op in ("+", "-"):
            return self.int(x)
        if op == "*":
            lt, rt = self.tx(l), self.tx(r)
            if lt is not None and rt is not None and lt.sort == rt.sort == "int" and \
                    (lt.text.isdigit() or rt.text.isdigit()):
                return _T("int", f"{_wrap(lt, _PROD)} * {_wrap(rt, _PROD + 1)}", _PROD)
            return None
        return None


def _is_not_black(x: _X, var: str) -> bool:
    """``!v.isBlack()``"""
    if x.k != "un" or x.a[0] != "!":
        return False
    c = x.a[1]
    return c.k == "call" and c.a[0].k == "nav" and c.a[0].a[1] == "isBlack" and not c.a[1] and \
        c.a[0].a[0].k == "name" and c.a[0].a[0].a[0] == var


def _is_black(x: _X, var: str) -> bool:
    """``v.isBlack()``"""
    return x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "isBlack" and not x.a[1] and \
        x.a[0].a[0].k == "name" and x.a[0].a[0].a[0] == var


def _only_unknown(node) -> bool:
    """Whether a translated condition is built of ``unknown`` and boolean connectives only (then the whole
    condition is unknown: writing ``not unknown or unknown`` would state a tautology the code does not)."""
    leaves = [n for n in E.walk(node) if not isinstance(n, (E.Unary, E.Bin, E.If))]
    return all(isinstance(n, E.Unknown) for n in leaves) and \
        all(n.op in ("and", "or", "not") for n in E.walk(node) if isinstance(n, (E.Unary, E.Bin)))

