"""The effect reader's expressions and calls (mixed into ``effects_read._Walker``): the value of an expression, the
server's idioms turned into ops (``draw``, ``playerDiscardCard``, a card moved from a hand or an area, a grant, an
event raised, a state copied with another face or holder …), a state class of the rule's file followed, a function
of the class inlined, a card-resolution lambda walked."""
from __future__ import annotations

import re

from .. import events as EV
from .conds import negate
from .syntax import _X, _code, _fn_params, _ir, _kid, _lambda_parts, _t, _unparen
from .effect_values import (END_TURN, OLD_RAISED, RAISED, RESOLUTION_STATES, _Stop, _V, _callee_last,
                            _descendants_calls, _note, _num)


def _hand_count(word: str) -> str:
    """How many cards a player of the moment holds, in the condition language."""
    return "hand_count" if word == "self" else f"{word}.hand_count"


#: ``Y.deleteCard(id)!!`` / ``Y.deleteMessageCard(id)!!``: a card taken out of a hand or an area, as an argument
_DELETED = re.compile(r"[\w!.]+\.delete(Message)?Card\([^()]*\)(!!)?")


class _Calls:
    def _value(self, n, env, cond, returning=False):
        """Walk an expression that may do something (a call, a state built, a lambda); its value."""
        owner = self.key[1]
        nm = self._norm(owner)
        if n is None:
            return None
        t = n.type
        if t in ("parenthesized_expression",) or t in ("unary_expression", "postfix_expression") and \
                _t(n).endswith("!!"):
            kids = _code(n)
            return self._value(kids[0], env, cond, returning) if kids else None
        if nm.dropped(n):
            return None
        if t == "if_expression" and len([b for b in _code(n) if b != n.child_by_field_name("condition")]) == 2:
            c_node = n.child_by_field_name("condition")
            branches = [b for b in _code(n) if b != c_node]
            valid = self._valid_test(c_node, env) if c_node is not None else None
            if valid is not None and len(branches) == 2:
                self._branch_value(branches[0 if valid else 1], env, cond)
                # the cancelled card's branch only finishes the card (the fight round goes on from the player the
                # message is in front of: the engine's rule, JieHuo.kt / WuDao.kt); anything else there is a rule
                # the catalogue does not say — the construct is partly read, so a change there is named (UNR001)
                other = branches[1 if valid else 0]
                done, _ = self._collect(lambda: self._branch_value(other, dict(env), []))
                if any(not (o.get("op") == "ask_from" and o.get("who") == "front") for o in done):
                    self._miss(owner, other, "a cancelled card's branch does more than finish the card")
                return None
            if len(branches) == 2 and c_node is not None and self._answer_test(c_node, env):
                alts = [self._collect(lambda b=b: self._branch_value(b, env, []))[0] for b in branches]
                real = [a for a in alts if a]
                if len(real) == 1 and alts[0]:
                    cond = cond + self._answer_needs(c_node, env)
                if real:
                    op = {"op": "choose", "of": real}
                    if len(real) == 1:
                        op["may"] = True
                    self._op(op, cond, n)
                return None
            hidden = self._hidden_test(c_node, env) if len(branches) == 2 and c_node is not None else None
            if hidden is not None:
                self._hidden_choice(hidden, branches[0], branches[1], env, cond, n)
                return None
            if len(branches) == 2 and c_node is not None:
                c = self._cond_u(c_node, env)
                self._branch_value(branches[0], env, cond + [c])
                self._branch_value(branches[1], env, cond + [negate(c)])
                return None
        if t == "call_expression":
            return self._call(n, env, cond, returning)
        if t == "lambda_literal":
            return _V("lambda", node=n, env=dict(env))
        if t == "annotated_lambda":
            lam = _kid(n, "lambda_literal")
            return _V("lambda", node=lam, env=dict(env)) if lam is not None else None
        if t in ("indexing_expression", "index_expression"):
            if "targetPlayerId" in _t(n) or "getAbstractLocation" in _t(n):
                return self._chosen_player()
            base = self._term_node(n.named_children[0], env) if n.named_children else None
            if base is not None and base.sort == "cardval":
                return base
            return _V("opaque")
        if t == "as_expression":
            kids = _code(n)
            if kids:
                typ = _t(kids[-1]).split(".")[-1].rstrip("?")
                base = self._term_node(kids[0], env)
                if kids[0].type in ("index_expression", "indexing_expression") and kids[0].named_children:
                    arr = self._term_node(kids[0].named_children[0], env)
                    if arr is not None and arr.sort == "args":
                        key = _t(kids[0])
                        if key not in self.arg_words:
                            # a player, a card id the client chose, or a yes / no the client answered (which of two
                            # things the card does: ``if (isSkill) … else …`` is the user's choice between them)
                            self.arg_words[key] = self._chosen_player() if typ == "Player" else \
                                _V("answer") if typ == "Boolean" and self.mode == "card" else _V("choice", typ)
                        return self.arg_words[key]
                if base is not None and base.sort in ("args",):
                    return _V("opaque")
                if base is not None and base.sort == "state":
                    return _V("fsmobj", typ, cls=typ)
                if re.search(r"\bfsm\b", _t(kids[0])):
                    return _V("fsmobj", typ, cls=typ)
                return base
            return None
        if t == "this_expression":
            return _V("this")
        v = self._term_node(n, env)
        if v is None and t not in ("identifier", "navigation_expression", "string_literal", "number_literal",
                                   "boolean_literal", "null_literal", "check_expression", "is_expression",
                                   "binary_expression", "in_expression", "equality_expression",
                                   "comparison_expression", "conjunction_expression", "disjunction_expression",
                                   "prefix_expression", "callable_reference"):
            if not self._pure(n):
                self._miss(owner, n)
        return v

    def _valid_test(self, node, env):
        """``valid`` / ``!valid`` of a card's resolution (was it cancelled?): True / False; else None. Only the
        branch where the card is valid does anything: the other finishes the card."""
        m = re.fullmatch(r"\s*(!?)\s*(\w+)\s*", _t(node))
        if m and env.get(m.group(2)) is not None and env[m.group(2)].sort == "valid":
            return not m.group(1)
        return None

    def _branch_value(self, b, env, cond):
        stmts = self._stmts(b)
        try:
            for s in stmts[:-1]:
                cond = self._stmt(s, dict(env), cond)
            if stmts:
                self._value(stmts[-1], env, cond, returning=True)
        except _Stop:
            pass

    def _pure(self, n) -> bool:
        from .normal import _QUERY
        for c in _descendants_calls(n):
            name = _callee_last(c)
            if name and not _QUERY.match(name) and name not in ("listOf", "setOf", "mutableListOf", "arrayListOf",
                                                                "emptyList", "Pair", "ResolveResult", "copy") and \
                    not self._query_fun(name):
                return False
        return True

    def _query_fun(self, name: str) -> bool:
        """Whether every function the sources declare by ``name`` is one expression that changes nothing (``fun
        f(…) = …`` whose calls are queries): a query by what it does, whatever its name — a helper renamed from
        ``hasX`` to ``sharesX`` reads the same. An open, abstract or overriding declaration is not (another body
        may run)."""
        ex = getattr(self, "ex", None)
        if ex is None or not hasattr(ex, "_functions"):
            return False
        cache = ex.__dict__.setdefault("_query_funs", {})
        if name not in cache:
            from .helpers import _expr_body
            cache[name] = False                         # (a function calling itself is no query)
            fds = [fd for _src, fd, n, _owner in ex._functions() if n == name]
            ok = bool(fds)
            for fd in fds:
                head = _t(fd)[:max(0, _t(fd).find("("))]
                body = _expr_body(fd)
                if body is None or re.search(r"\b(?:open|abstract|override)\b", head) or not self._pure(body):
                    ok = False
                    break
            cache[name] = ok
        return cache[name]

    def _term_node(self, n, env):
        try:
            return self._term(_ir(n), env)
        except RecursionError:                                  # pragma: no cover
            return None

    def _term(self, x: _X, env):
        """The walk's value of a side-effect-free expression."""
        x = _unparen(x)
        if x.k == "name":
            v = env.get(x.a[0])
            if v is not None:
                return v
            if x.a[0] in ("fsm",):
                return _V("fsmobj", "fsm")
            return None
        if x.k == "this":
            return _V("this")
        if x.k == "nav":
            o = self._term(x.a[0], env)
            m = x.a[1]
            if o is None:
                if _t(x.n).endswith(".fsm") or m == "fsm":
                    return _V("state")
                return None
            if o.sort == "game" and m == "fsm":
                return _V("state")
            if o.sort in ("self", "player") and m == "game":
                return _V("game")
            if m == "messageCard" and o.sort in ("event", "fsmobj", "state"):
                return _V("mcard", "")
            if o.sort in ("cardval", "choice") and m == "id":
                return o
            if o.sort == "event":
                if m in self.fields:
                    return _V("self", "self") if self.fields[m] == "self" else _V("player", self.fields[m])
                if m in ("nextFsm", "currentFsm"):
                    return _V("state")
                return _V("eventval", m)
            if o.sort == "fsmobj":
                if m in ("whoseTurn",):
                    return _V("player", "turn_player") if "turn_player" in self.players else _V("opaque")
                if m == "inFrontOfWhom":
                    return self._role_word(("front", "receiver", "target"))
                if m == "sender":
                    return self._role_word(("sender",))
                if m == "askWhom":
                    return _V("self", "self")
                if m in self.fields:
                    return _V("player", self.fields[m])
                return _V("fsmval", m, node=x.n)
            if o.sort == "this":
                return env.get(m)
            if o.sort == "answer":
                return _V("answer", m)
            return None
        if x.k == "call":
            callee = x.a[0]
            if callee.k == "nav":
                card = self._card_source(callee, env, x)
                if card is not None:
                    return card
            if callee.k == "nav" and callee.a[1] in ("getNextLeftAlivePlayer", "getNextRightAlivePlayer"):
                o = self._term(callee.a[0], env)
                if o is not None and o.sort in ("self", "player") and "_" not in o.text:
                    word = o.text + ("_left" if "Left" in callee.a[1] else "_right")
                    if word in self.players:
                        return _V("player", word)
            return None
        return None

    def _card_source(self, callee, env, call=None):
        """A card (or cards) taken from somewhere: ``X.cards.random()``, ``X.findCard(id)``, ``X.cards.filter {…}``
        (a hand), ``X.findMessageCard(id)`` / ``X.messageCards.find { it.id == id }`` (a message area),
        ``g.deck.draw(n)`` (the deck). A card of an area found by an id the client chose keeps that choice
        (``link``): what ``canUse`` checks of the card holds for the op that moves the card in ``execute``."""
        m = callee.a[1]
        base = _unparen(callee.a[0])
        if m in ("findCard",):
            o = self._term(base, env)
            if o is not None and o.sort in ("self", "player", "each"):
                v = _V("cardval", "hand:" + o.text)
                v.found = True
                return v
        if m in ("findMessageCard",):
            o = self._term(base, env)
            if o is not None and o.sort in ("self", "player", "each"):
                v = _V("cardval", "seen:" + o.text)
                if call is not None and len(call.a[1]) == 1:
                    v.link = self._chosen_card(self._term(call.a[1][0].x, env))
                    if v.link is None:                   # an id of the answer: the op taking that id out moves it
                        v.byid = "".join(_t(call.a[1][0].node).split())
                return v
        if base.k == "nav" and base.a[1] == "messageCards" and m in ("find", "first", "firstOrNull", "single",
                                                                     "singleOrNull") and call is not None:
            o = self._term(base.a[0], env)
            mm = re.fullmatch(r"\{\s*(?:(\w+)\s*->)?\s*(\w+)\.id\s*==\s*(\w+)\s*\}",
                              re.sub(r"\s+", " ", _t(call.a[2].n if hasattr(call.a[2], "n") else call.a[2]))
                              if call.a[2] is not None else "")
            if o is not None and o.sort in ("self", "player", "each") and mm and (mm.group(1) or "it") == mm.group(2):
                v = _V("cardval", "seen:" + o.text)
                v.link = self._chosen_card(env.get(mm.group(3)))
                return v
        if base.k == "nav" and base.a[1] == "cards" and m in ("random", "randomOrNull", "first", "firstOrNull", "last",
                                                              "filter", "toList", "shuffled", "take", "find"):
            o = self._term(base.a[0], env)
            if o is not None and o.sort in ("self", "player", "each"):
                v = _V("cardval", "hand:" + o.text)
                v.found = m in ("random", "randomOrNull", "first", "firstOrNull", "last", "find")   # one card
                if m == "toList" and call is not None and not call.a[1]:
                    v.count, v.how = _hand_count(o.text), "all"      # a copy of the whole hand
                return v
        if base.k == "nav" and base.a[1] == "deck" and m in ("draw", "peek"):
            v = _V("cardval", "deck:")
            if m == "draw" and call is not None and len(call.a[1]) == 1:
                v.count = self._amount(call.a[1][0].x, env)   # how many cards are taken off the deck's top
            return v
        return None

    def _player_list(self, x, env, with_conds=False):
        """The players of ``listOf(a, b)`` (or of ``g.sortedFrom(listOf(a, b), seat)``: the same players in seat order
        from someone — each does the same, so the order says nothing the ops do not), as player values; else None."""
        x = _unparen(x)
        if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] == "sortedFrom" and x.a[1]:
            x = _unparen(x.a[1][0].x)
        if x.k == "name" and x.a[0] in env and env[x.a[0]].sort == "plist":
            v = env[x.a[0]]                                   # the players the client chose (``effect_lists``), or
            if v.conds is not None and any(v.conds):          # a list the rule built: each under its condition
                return None if not with_conds else list(zip(v.link, v.conds))
            return list(v.link) if not with_conds else [(w, []) for w in v.link]
        if not (x.k == "call" and x.a[0].k == "name" and x.a[0].a[0] in ("listOf", "arrayOf", "mutableListOf")
                and x.a[1] and x.a[2] is None):
            return None
        out = self._player_args(x, env)
        if out is None:
            return None
        return out if not with_conds else [(w, []) for w in out]

    def _player_args(self, x, env):
        """The players a list call's arguments name (``listOf(a, b)``), or None when one is not a player of the
        moment (or is spread)."""
        out = []
        for a in x.a[1]:
            v = self._term(a.x, env)
            if v is None or v.sort not in ("self", "player") or a.spread:
                return None
            out.append(v)
        return out

    def _built_list(self, value, env):
        """``arrayListOf(a, b)`` (``mutableListOf``, ``listOf``) of players of the moment, kept in a local the rule
        adds to (``if (event.sender.alive) players.add(event.sender)``): a ``plist`` with each player's condition."""
        x = _unparen(_ir(value))
        if not (x.k == "call" and x.a[0].k == "name" and x.a[0].a[0] in ("arrayListOf", "mutableListOf", "listOf")
                and x.a[2] is None):
            return None
        out = self._player_args(x, env)
        if out is None:
            return None
        lst = _V("plist")
        lst.link, lst.conds = out, [[] for _ in out]
        return lst

    def _list_add(self, s, env, cond) -> bool:
        """``X.add(p)`` on a list of players the rule built (``_built_list``): p joins it under the conditions on the
        path here; False when the statement is not that."""
        m = re.fullmatch(r"(\w+)\s*\.\s*add\s*\((.*)\)", " ".join(_t(s).split()), re.S)
        if not m or m.group(1) not in env or env[m.group(1)].sort != "plist" or env[m.group(1)].conds is None:
            return False
        x = _ir(s)
        if x.k != "call" or len(x.a[1]) != 1 or x.a[2] is not None:
            return False
        v = self._term(x.a[1][0].x, env)
        if v is None or v.sort not in ("self", "player"):
            return False
        lst = env[m.group(1)]
        new = _V("plist")
        new.link, new.conds = [*lst.link, v], [*lst.conds, list(cond)]
        env[m.group(1)] = new
        return True

    @staticmethod
    def _chosen_card(v):
        """The client's choice a card id stands for (``args[i] as Int``), or None."""
        return v if v is not None and v.sort == "choice" else None

    def _role_word(self, prefs):
        for p in prefs:
            if p in self.players:
                return _V("player", p)
        return _V("opaque")

    def _chosen_player(self):
        if self.mode in ("active", "card") and "target" not in self.chosen:
            word = "target"
        else:
            word = next((w for w in ("chosen", "chosen2") if w not in self.chosen), None)
            if word is None:
                return _V("opaque")
        self.chosen.append(word)
        return _V("player", word)

    # ----------------------------------------------------------------------------------------------- calls
    def _lambda_with(self, lam, value, env: dict, cond) -> None:
        """Read a lambda's body with its parameter (or ``it``) bound to ``value``; a stop inside ends only it."""
        params, stmts = _lambda_parts(lam)
        self.walked.add(id(lam))
        inner = dict(env)
        inner[params[0] if params else "it"] = value
        try:
            self._block(stmts, inner, cond)
        except _Stop:
            pass

    def _call(self, n, env, cond, returning):
        owner = self.key[1]
        kids = n.named_children
        callee = kids[0] if kids else None
        if callee is None:
            return None
        last = _callee_last(n)
        x = _ir(n)
        args = x.a[1] if x.k == "call" else []
        lam = x.a[2] if x.k == "call" else None
        recv = _unparen(x.a[0].a[0]) if x.k == "call" and x.a[0].k == "nav" else None
        rv = self._term(recv, env) if recv is not None else None
        early = self._term(x, env)
        if early is not None and early.sort in ("cardval", "player", "self"):
            return early
        # timers: a time-out or a robot's move
        if last in ("post", "postTask", "schedule", "newTimeout") and recv is not None and \
                _t(recv.n).split(".")[-1] in ("GameExecutor", "executor"):
            return None
        if last in ("send", "sendErrorMessage", "tryContinueResolveProtocol", "incrSeq", "notifyAll"):
            return None
        if last == "findEvent" and self.mode == "trigger":
            return self._find_event(n, x, env, cond)
        if last == "canSendCard":
            # the engine's check of a send (Player.canSendCard, the send rules every send_message op obeys): no step
            # of the effect; its arguments are not compared with the send's, so the construct is not read whole
            self._miss(owner, n, "the send's check (canSendCard)")
            return _V("opaque")
        # the ops
        if last == "draw" and rv is not None and rv.sort in ("self", "player", "each") and len(args) == 1:
            self._op({"op": "draw", "who": rv.text, "n": self._amount(args[0].x, env)}, cond, n)
            return _V("cards")
        if last == "playerDiscardCard" and args:
            who = self._term(args[0].x, env)
            if who is not None and who.sort in ("self", "player", "each"):
                count = self._card_count(args[1:], env)
                op = {"op": "discard", "who": who.text}
                if count is None:
                    op["which"] = "all"
                elif count != 1:
                    op["n"] = count
                self._op(op, cond, n)
                return None
        if last == "playerSetRoleFaceUp" and len(args) == 2:
            who = self._term(args[0].x, env)
            val = _t(args[1].node)
            if who is not None and who.sort in ("self", "player", "each") and val in ("true", "false"):
                self._op({"op": "flip", "who": who.text, "face": "up" if val == "true" else "down"}, cond, n)
                return None
        if last in ("addSkillUseCount", "resetSkillUseCount", "subtractSkillUseCount"):
            if rv is not None and rv.sort in ("self", "player"):
                self.rd.used = self.rd.used or last == "addSkillUseCount"
                if rv.sort != "self":
                    # a use counted on another player than the skill's owner (whose count it is is read: the
                    # owner's limit no longer holds, the other's skills are limited)
                    self._op({"op": "prose", "note": f"a use counted on {rv.text}, not the skill's owner"}, cond, n)
                return None
        if last == "deleteCard" and rv is not None and rv.sort in ("self", "player", "each"):
            if self.mode == "card" and len(args) == 1 and _t(args[0].node) == "id":
                if rv.sort == "self":
                    self.used_left = True
                    return None                              # the card used leaves its user's hand (the engine's own)
                # the card used taken out of another player's hand: it stays in its user's hand — a rule of the
                # card's, read so that a change of whose hand it leaves is named
                self._op({"op": "prose", "note": f"the card used is taken out of {rv.text}'s hand, not its "
                                                 f"user's"}, cond, n)
                return None
            a0 = _unparen(args[0].x) if len(args) == 1 else None
            held = env.get(a0.a[0].a[0]) if a0 is not None and a0.k == "nav" and a0.a[1] == "id" and \
                a0.a[0].k == "name" else None
            if held is not None and held.sort == "cardval" and held.text.startswith("hand:") and \
                    held.text != "hand:" + rv.text:
                # a card found in one hand taken out of another: the ops that move it say where it was found, so
                # this removal is not read (the construct is partly read: a change of whose hand is named)
                self._miss(owner, n, "a card taken out of a hand it was not found in")
            for v in env.values():                           # the cards found in that hand are taken out of it
                if v is not None and getattr(v, "sort", None) == "cardval" and v.text == "hand:" + rv.text:
                    v.found = False
            return _V("cardval", "hand:" + rv.text)
        if last == "clear" and recv is not None and recv.k == "nav" and recv.a[1] == "cards" and not args:
            whose = self._term(recv.a[0], env)
            if whose is not None and any(v.sort == "cardval" and v.how == "all" and v.text == "hand:" + whose.text
                                         for v in env.values()):
                return None                                  # the hand copied into a local is emptied: the local
                #                                              holds the cards taken (they move where it goes)
        if last == "List" and x.k == "call" and x.a[0].k == "call" and x.a[0].a[0].k == "name" and not args and \
                len(x.a[0].a[1]) == 1 and lam is not None:   # List(n) { … }: the grammar reads List(n) as the callee
            args = x.a[0].a[1]
            params, stmts = _lambda_parts(lam)
            if len(stmts) > 1 and re.fullmatch(r"\w+", _t(stmts[-1]).strip()):
                # List(n) { val card = X.findCard(id); if (card == null) return …; if (<its colour>) return …; card }:
                # the checks of each card picked (a colour kept on the card as for one card), nothing else done
                lenv = dict(env)
                before, n_missed = len(self.rd.ops), len(self.rd.untranslated)
                try:
                    c2 = cond
                    for st in stmts[:-1]:
                        c2 = self._stmt(st, lenv, c2)
                    if c2 != cond:
                        raise _Stop()                        # a condition the cards put on what follows: not this
                    v = lenv.get(_t(stmts[-1]))
                except _Stop:
                    v = None
                if len(self.rd.ops) == before and len(self.rd.untranslated) == n_missed and v is not None and \
                        v.sort == "cardval" and v.text.startswith("hand:"):
                    out = _V("cardval", v.text)
                    out.count, out.filt, out.found = self._amount(args[0].x, env), v.filt, v.found
                    return out
                del self.rd.ops[before:], self.rd.lines[before:], self.rd.untranslated[n_missed:]
            if len(stmts) == 1:
                v = self._value(stmts[0], dict(env), cond)
                if v is not None and v.sort == "cardval" and v.text.startswith("hand:"):
                    out = _V("cardval", v.text)              # List(n) { X.deleteCard(X.cards.random().id)!! }
                    out.count = self._amount(args[0].x, env)
                    out.how = "random" if re.search(r"\.random(OrNull)?\(\)", _t(stmts[0])) else None
                    return out
        if last == "deleteMessageCard" and rv is not None and rv.sort in ("self", "player", "each"):
            op = {"op": "remove_message", "whose": rv.text}
            chosen = self._chosen_card(self._term(args[0].x, env)) if len(args) == 1 else None
            if chosen is not None and chosen.filt:
                op["colour"] = chosen.filt                   # what canUse checked of the card the client named
            if chosen is not None:
                chosen.src = "area:" + rv.text
                op["_card"] = chosen                         # (dropped again if the card is then sent: _send)
            held = self._term(args[0].x, env) if len(args) == 1 else None
            if len(args) == 1 and (held is None or held.sort != "cardval"):
                ident = "".join(_t(args[0].node).split())    # the card found by that id in that area, or its own id
                own = env.get(ident[:-3]) if ident.endswith(".id") else None
                found = [own] if isinstance(own, _V) and own.sort == "cardval" and own.text == "seen:" + rv.text else \
                    [v for v in env.values() if isinstance(v, _V) and v.sort == "cardval" and v.byid == ident
                     and v.text == "seen:" + rv.text]
                if len(found) == 1 and found[0].filt and "colour" not in op:
                    op["colour"] = found[0].filt             # what the card was checked to be before it moved
            if held is not None and held.sort == "cardval" and held.filt and held.text == "seen:" + rv.text and \
                    "colour" not in op:
                op["colour"] = held.filt                     # (the card itself: its colour checked before it moved)
            if held is not None and held.sort == "cardval" and held.where:
                op["where"] = held.where                     # what the card was checked to be before it moved
                held.where = None
            if held is not None and held.sort == "cardval" and held.text.startswith("seen:") and held.named is None:
                # a message card the rule holds: the ops after it read its colours by the name ``as`` gives it
                taken = sum(1 for o in self.rd.ops if o.get("as"))
                held.named = op["as"] = "gone" if not taken else f"gone{taken + 1}"
            self._op(op, cond, n)
            return _V("cardval", "area:" + rv.text)
        if last in ("remove", "removeAll") and recv is not None and recv.k == "nav" and recv.a[1] == "cards" \
                and len(args) == 1:
            whose = self._term(recv.a[0], env)
            a0 = _unparen(args[0].x)
            while a0.k == "call" and a0.a[0].k == "nav" and a0.a[0].a[1] in ("toSet", "toList"):
                a0 = _unparen(a0.a[0].a[0])
            if whose is not None and whose.sort in ("self", "player", "each") and a0.k == "name":
                old = env.get(a0.a[0])
                v = _V("cardval", "hand:" + whose.text)
                v.filt = old.filt if old is not None else None
                env[a0.a[0]] = v
                return None
        if last == "discard" and recv is not None and _t(recv.n).endswith("deck") and len(args) == 1:
            c = self._term(args[0].x, env)
            if c is None and _DELETED.fullmatch(_t(args[0].node).replace(" ", "")):
                c = self._value(args[0].node, env, cond)     # deck.discard(Y.deleteMessageCard(id)!!): its remove
            if c is not None and c.sort == "cardval" and c.text.startswith("hand:"):
                op = {"op": "discard", "who": c.text[5:]}
                if c.filt:
                    op["colour"] = c.filt
                self._op(op, cond, n)
            return None
        if last in ("add", "addAll") and recv is not None and recv.k == "nav" and recv.a[1] in ("cards",
                                                                                                 "messageCards"):
            whose = self._term(recv.a[0], env)
            src = self._term(args[0].x, env) if args else None
            if src is None and len(args) == 1 and _DELETED.fullmatch(_t(args[0].node).replace(" ", "")):
                src = self._value(args[0].node, env, cond)   # X.cards.add(Y.deleteCard(id)!!): a card of Y's hand
            if whose is not None and whose.sort in ("self", "player", "each"):
                if src is not None and getattr(src, "found", False):
                    # a card found in a hand put into another hand or an area while still in the first: the op read
                    # says it moved, the code copies it — not read
                    self._miss(owner, n, "a card put somewhere while still in the hand it was found in")
                if recv.a[1] == "cards":
                    frm = src.text.split(":", 1) if src is not None and src.sort == "cardval" else None
                    if frm and frm[0] == "hand" and frm[1] != whose.text:
                        op = {"op": "give", "from": frm[1], "to": whose.text} if whose.text != "self" else \
                            {"op": "take", "from": frm[1]}              # into the actor's own hand: a take
                        if src.filt:
                            op["colour"] = src.filt
                        if src.count is not None and last == "addAll":
                            op["n"] = src.count
                        if src.how == "random":
                            op["which"] = "random"
                        self._op(op, cond, n)
                    elif frm and frm[0] == "deck":
                        op = {"op": "draw", "who": whose.text}
                        if src.count is not None and src.count != 1 and last == "addAll":
                            op["n"] = src.count
                        self._op(op, cond, n)
                    elif frm and frm[0] in ("area", "seen"):
                        self._retarget_remove(to="hand", by=whose.text)
                    else:
                        self._op({"op": "prose", "note": "a card goes into a hand"}, cond, n, read=False)
                    return None
                frm = src.text.split(":", 1) if src is not None and src.sort == "cardval" else None
                op = {"op": "put_message", "to": whose.text}
                if src is not None and src.filt:
                    op["colour"] = src.filt
                if frm and frm[0] == "hand":
                    op.update({"from": "hand", "of": frm[1]})
                elif frm and frm[0] in ("area", "seen"):
                    self._retarget_remove(to="area", into=whose.text)
                    return None
                elif frm and frm[0] == "deck":
                    op["from"] = "deck_top"
                    if src.count is not None and src.count != 1 and last == "addAll":
                        op["n"] = src.count                  # the cards drawn off the deck, all put there
                elif src is not None and src.sort == "mcard":
                    op["from"] = "message"
                else:
                    self._op({"op": "prose", "note": "a card goes into a message area"}, cond, n, read=False)
                    return None
                self._op(op, cond, n)
                return None
        if last == "deal" and recv is not None and _t(recv.n).split(".")[-1] == "InvalidSkill" and len(args) == 1:
            who = self._term(args[0].x, env)
            if who is not None and who.sort in ("self", "player", "each") and self._gives("InvalidSkill"):
                self._op({"op": "grant", "grant": "InvalidSkill", "to": who.text}, cond, n)
                return None
        if last == "addEvent" and len(args) == 1 and args[0].x.k == "call" and args[0].x.a[0].k == "name":
            cls = args[0].x.a[0].a[0]
            kind = RAISED.get(cls)
            if kind is not None:
                self._raise(kind, args[0].x.a[1], env, cond, n)
                return None
        if last == "discard" and recv is not None and _t(recv.n).endswith("deck"):
            return None                                      # into the discard pile (the removal said where)
        if last == "draw" and recv is not None and _t(recv.n).endswith("deck"):
            v = _V("cardval", "deck:")
            if len(args) == 1:
                v.count = self._amount(args[0].x, env)      # how many cards are taken off the deck's top
            return v
        if last in ("resolve", "continueResolve"):
            if args:
                self._value(args[0].node, env, cond, returning=True)
            return None
        if last == "ResolveResult" and args:
            self._value(args[0].node, env, cond, returning=True)
            return None
        if last == "forEach" and lam is not None and recv is not None:
            listed = self._player_list(recv, env, with_conds=True)
            if listed is not None:                           # listOf(a, b).forEach { … }: once for each of them
                for w, c in listed:
                    self._lambda_with(lam, w, env, cond + [x for x in c if x not in cond])
                return None
            who = self._players_set(recv.n, env)
            if who is not None:
                self._lambda_with(lam, _V("each", who), env, cond)
                return None
        if last in ("let", "also") and lam is not None and rv is not None:
            self._lambda_with(lam, rv, env, cond)
            return rv if last == "also" else None
        if last == "copy" and rv is not None and rv.sort in ("fsmobj", "state", "event"):
            self._copy(args, env, cond, n)
            return rv
        # a state built: of the rule's own file, or the engine's. ``ExecuteX(a, b) { … }`` — the last argument
        # given as a trailing lambda — is the call ``ExecuteX(a, b, { … })``
        if x.k == "call" and x.a[0].k == "call" and x.a[0].a[0].k == "name" and not x.a[1] and x.a[2] is not None \
                and x.a[0].a[2] is None:
            x, args, lam = x.a[0], x.a[0].a[1], x.a[2]
        if x.k == "call" and x.a[0].k == "name":
            name = x.a[0].a[0]
            cls = self.ex.resolve(name, owner)
            if cls is not None and cls.src is self.c.src and cls is not self.c and not self.ex.is_skill(cls):
                return self._state(cls, args, lam, env, cond, n)
            if name in RESOLUTION_STATES:
                for a in args:
                    if a.name == "discardAfterResolve":
                        if _t(a.node) == "false":
                            self._op({"op": "prose", "note": "the card stays in play after it resolves"}, cond, n)
                        continue
                    v = self._value(a.node, env, cond) if a.node.type in ("lambda_literal", "annotated_lambda",
                                                                          "call_expression") else \
                        self._term(a.x, env)
                    if v is not None and v.sort == "lambda":
                        self._lambda(v, cond)
                if lam is not None:
                    self._lambda(_V("lambda", node=lam, env=dict(env)), cond)
                return _V("state")
            if name in OLD_RAISED:
                self._raise(OLD_RAISED[name], args, env, cond, n, old=True)
                for a in args:
                    if a.node.type == "call_expression":
                        self._value(a.node, env, cond, returning=True)
                return _V("state")
            if name == "MainPhaseIdle" and len(args) == 1:
                return _V("state")                       # back to the main phase of the same player: it goes on
            if name in END_TURN:
                self._op({"op": "end_turn"}, cond, n)
                return _V("state")
            if name == "OnSendCard" and self._send(args, env, cond, n):
                return _V("state")
            if name in ("FightPhaseIdle", "SendPhaseIdle", "MainPhaseIdle", "SendPhaseStart", "ReceivePhase",
                        "OnChooseReceiveCard", "OnSendCard", "MessageMoveNext", "StartWaitForChengQing",
                        "WaitForChengQing", "ReceivePhaseIdle", "OnReceiveCard", "CheckWin"):
                self._op({"op": "prose", "note": f"goes on to {name}"}, cond, n, read=False)
                return _V("state")
            # a function of the rule's class or its companion, inlined
            fd, fowner = self._local_fn(name, owner, len(args))
            if fd is not None:
                return self._inline(fowner, fd, args, lam, env, cond)
        if x.k == "call" and x.a[0].k == "nav" and recv is not None:
            head = _t(recv.n).split(".")[-1]
            if head in ("Companion", self.c.name) or (rv is not None and rv.sort == "this"):
                fd, fowner = self._local_fn(x.a[0].a[1], owner, len(args))
                if fd is not None:
                    return self._inline(fowner, fd, args, lam, env, cond)
            if rv is not None and rv.sort == "lambda" and x.a[0].a[1] == "invoke":
                self._lambda(rv, cond)
                return None
        if x.k == "call" and x.a[0].k == "name" and x.a[0].a[0] in env and env[x.a[0].a[0]].sort == "eventval" \
                and env[x.a[0].a[0]].text == "resolveFunc":
            return None                                  # the card resolves as it would have
        if x.k == "call" and x.a[0].k == "name" and x.a[0].a[0] in env and env[x.a[0].a[0]].sort == "lambda":
            self._lambda(env[x.a[0].a[0]], cond)
            return None
        if self._pure(n):
            return self._term(x, env)
        self._miss(owner, n)
        self._op({"op": "prose", "note": _note(n)}, cond, n, read=False)
        return None

    #: OnSendCard's parameters, in order (phase/OnSendCard.kt): the turn's player, the sender, the card, its direction,
    #: the first player it goes to, the players locked, its face, and two of the engine's bookkeeping flags
    _SEND_PARAMS = ("whoseTurn", "sender", "messageCard", "dir", "targetPlayer", "lockedPlayers", "isMessageCardFaceUp",
                    "needRemoveCard", "needNotify")

    def _send(self, args, env, cond, n) -> bool:
        """``OnSendCard(…)`` built by a rule: a message sent otherwise than by the send phase's own hand card
        (``send_message``): who sends (``by``), where the card comes from (a hand, a message area it was just taken out
        of, the deck top) with the colour the rule checked of it, its face, and the player locked when the rule names
        one. Its direction and first stop are the sender's to choose; anything else there (a direction the rule fixes, a
        player it names) is not said by the op, so the construct is marked partly read."""
        got = {}
        for i, a in enumerate(args):
            name = a.name or (self._SEND_PARAMS[i] if i < len(self._SEND_PARAMS) else None)
            if name is None:
                return False
            got[name] = a
        if "sender" not in got or "messageCard" not in got:
            return False
        who = self._term(got["sender"].x, env)
        if who is None or who.sort not in ("self", "player"):
            return False
        op = {"op": "send_message", "by": self._self_word(who)}
        card = self._term(got["messageCard"].x, env)
        frm = card.text.split(":", 1) if card is not None and card.sort == "cardval" else None
        src = card.src.split(":", 1) if card is not None and card.sort == "choice" and card.src else None
        if frm and frm[0] == "hand":
            op.update({"from": "hand", "of": frm[1]})
        elif frm and frm[0] == "deck":
            op["from"] = "deck_top"
        elif frm and frm[0] in ("area", "seen") or src and src[0] == "area":
            op.update({"from": "message_area", "of": (frm or src)[1]})
            self._drop_removal(card)
        else:
            self._miss(self.key[1], got["messageCard"].node, "the card sent")
        if card is not None and card.filt:
            op["colour"] = card.filt
        face = got.get("isMessageCardFaceUp")
        if face is not None:
            v = _t(face.node)
            if v == "true":
                op["face"] = "up"
            elif v != "false":
                self._miss(self.key[1], face.node, "the face of the message sent")
        lock = got.get("lockedPlayers")
        if lock is not None:
            lx = _unparen(lock.x)
            if lx.k == "call" and lx.a[0].k == "name" and lx.a[0].a[0] == "listOf" and len(lx.a[1]) == 1:
                lw = self._term(lx.a[1][0].x, env)
                if lw is not None and lw.sort in ("self", "player"):
                    op["lock"] = self._self_word(lw)
                else:
                    self._miss(self.key[1], lock.node, "the player locked")
            elif self._term(lx, env) is None:   # the players the sender chose are the op's default; a list not read
                self._miss(self.key[1], lock.node, "the players locked")     # (none, a fixed one): partly read
        for key in ("dir", "targetPlayer"):
            a = got.get(key)
            v = self._term(a.x, env) if a is not None else None
            if a is not None and (v is None or v.sort not in ("answer", "choice", "player")) and \
                    not re.fullmatch(r"[\w.]*\.(direction|cardDir)", _t(a.node)):
                self._miss(self.key[1], a.node, "the send's " + key)
        self._op(op, cond, n)
        return True

    def _self_word(self, v) -> str:
        """A player word, ``turn_player`` read as ``self`` where the use was checked to be the turn player's own."""
        if v.sort == "self" or v.text == "turn_player" and getattr(self, "turn_is_self", False):
            return "self"
        return v.text

    def _drop_removal(self, card):
        """The message-area removal of a card that is sent next: said by ``send_message``'s ``from``."""
        for i in range(len(self.rd.ops) - 1, -1, -1):
            op = self.rd.ops[i]
            if op.get("op") == "remove_message" and op.get("_card") is card:
                del self.rd.ops[i]
                del self.rd.lines[i]
                return

    def _local_fn(self, name, owner, arity):
        for cls in [owner, self.c] + [k for k in self.c.nested if k.kind == "companion"] + \
                [k for k in owner.nested if k.kind == "companion"] + ([owner.outer] if owner.outer else []):
            for fd in cls.functions(name):
                ps = _fn_params(fd)
                if id(fd) in self.stack:
                    continue
                if len(ps) == arity or (len(ps) > arity and name != "execute"):
                    return fd, cls
        return None, None

    def _inline(self, fowner, fd, args, lam, env, cond):
        inner = {k: v for k, v in env.items() if v.sort not in ("answer", "answerer")}
        ps = _fn_params(fd)
        for i, (pname, _tname, _targs) in enumerate(ps):
            a = next((a for a in args if a.name == pname), None)
            if a is None and i < len(args) and args[i].name is None:
                a = args[i]
            if a is not None:
                inner[pname] = self._term(a.x, env) or self._value(a.node, env, cond) or _V("opaque")
            else:
                inner[pname] = _V("opaque")
        return self._walk_fn(fowner, fd, inner, cond)

    def _state(self, cls, args, lam, env, cond, n):
        """A state class of the rule's file built as the next state: its properties bound, ``resolve`` and
        ``resolveProtocol`` walked."""
        inner = {}
        for i, p in enumerate(cls.params):
            a = next((a for a in args if a.name == p.name), None)
            if a is None and i < len(args) and args[i].name is None:
                a = args[i]
            v = (self._term(a.x, env) or self._value(a.node, env, cond)) if a is not None else None
            if a is None and lam is not None and i == len(cls.params) - 1 == len(args):
                v = _V("lambda", node=lam, env=dict(env))      # the last property given as a trailing lambda
            inner[p.name] = v or _V("opaque")
        saved, self.in_entry = self.in_entry, False
        try:
            self._state_fns(cls, inner, cond)
        finally:
            self.in_entry = saved
        # a lambda handed to the state that its functions never ran as an effect (a test of a card, ``{ card ->
        # card.colors.any { … } }``, applied by ``cards.any(check)`` or ``filter(check)``): what it decides is not
        # read, so the construct that wrote it is not read whole (a change of the lambda is named, UNR001)
        if self.key is not None and any(v.sort == "lambda" and v.node is not None and id(v.node) not in self.walked
                                        for v in inner.values()):
            self.rd.reads[self.key[0]] = False
        return _V("state")

    def _state_fns(self, cls, inner, cond):
        for fname in ("resolve", "resolveProtocol"):
            for fd in cls.functions(fname):
                env2 = dict(inner)
                for i, (pname, tname, _) in enumerate(_fn_params(fd)):
                    env2[pname] = _V("answerer") if tname == "Player" else _V("answer") if tname in (
                        "GeneratedMessage", "GeneratedMessageV3", "Message") or (fname == "resolveProtocol" and i == 1) \
                        else _V("opaque")
                self._walk_fn(cls, fd, env2, cond)
        return _V("state")

    def _lambda(self, v, cond):
        saved, self.in_entry = self.in_entry, False
        try:
            self._lambda_walk(v, cond)
        finally:
            self.in_entry = saved

    def _lambda_walk(self, v, cond):
        params, stmts = _lambda_parts(v.node)
        self.walked.add(id(v.node))
        env = dict(v.env or {})
        for p in params:
            env[p] = _V("valid") if p == "valid" else _V("opaque")
        try:
            self._branch_value_stmts(stmts, env, cond)
        except _Stop:
            pass

    def _branch_value_stmts(self, stmts, env, cond):
        for s in stmts[:-1]:
            cond = self._stmt(s, env, cond)
        if stmts:
            last = stmts[-1]
            if last.type in ("if_expression",) and len([b for b in _code(last)
                                                        if b != last.child_by_field_name("condition")]) == 2:
                self._value(last, env, cond, returning=True)
            else:
                self._stmt(last, env, cond)

    def _copy(self, args, env, cond, n):
        for a in args:
            if a.name == "isMessageCardFaceUp":
                self._message_face(a.node, env, cond, n)
            elif a.name == "valid" and _t(a.node) == "false":
                self._op({"op": "cancel"}, cond, n)
            elif a.name == "inFrontOfWhom":
                who = self._term(a.x, env)
                if who is not None and who.sort in ("self", "player"):
                    self._op({"op": "move_message", "to": who.text}, cond, n)
                else:
                    self._op({"op": "prose", "note": "the message moves"}, cond, n, read=False)
                    self._miss(self.key[1], a.node)
            elif a.name in ("resolveFunc",) and a.node.type in ("lambda_literal", "annotated_lambda"):
                lam = a.node if a.node.type == "lambda_literal" else _kid(a.node, "lambda_literal")
                if lam is not None:
                    self._lambda(_V("lambda", node=lam, env=dict(env)), cond)
            elif a.name in ("whoseFightTurn",):
                who = self._term(a.x, env)
                if who is not None and who.sort in ("self", "player"):
                    self._op({"op": "ask_from", "who": who.text}, cond, n)
                else:
                    self._op({"op": "prose", "note": "the fight round goes on from another player"}, cond, n,
                             read=False)
            else:
                self._op({"op": "prose", "note": f"the state's {a.name or 'value'} changes"}, cond, n, read=False)
                self._miss(self.key[1], a.node)

    def _message_face(self, node, env, cond, where):
        v = _t(node)
        if v in ("true", "false"):
            self._op({"op": "flip", "what": "message", "face": "up" if v == "true" else "down"}, cond, where)
            return
        c = self._cond_u(node, env)
        if c.startswith("unknown") or c == "unknown":
            self._op({"op": "choose", "of": [[{"op": "flip", "what": "message", "face": "up"}],
                                             [{"op": "flip", "what": "message", "face": "down"}]]}, cond, where)
            return
        self._op({"op": "flip", "what": "message", "face": "up"}, cond + [c], where)
        self._op({"op": "flip", "what": "message", "face": "down"}, cond + [negate(c)], where)

    def _grant(self, cls_name, who, cond, node):
        """``p.skills += X(…)``: a grant handed out (its site, with its arguments, is the extractor's ``gives``)."""
        c = self.ex.resolve(cls_name, self.key[1])
        if c is None or not self.ex.is_skill(c):
            self._miss(self.key[1], node, "a skill class not found")
            return
        self._op({"op": "grant", "grant": c.name, "to": who}, cond, node)

    def _raise(self, kind_key, args, env, cond, n, old=False):
        """An event raised (``addEvent(GiveCardEvent(whoseTurn, from, to))``, or an old state standing for one):
        ``raise`` with the event's principal, read through the event class's constructor."""
        kind = EV.EVENT_KINDS[kind_key]
        if not self._answered(kind_key):
            return                                  # no trigger of this revision answers it: raising it changes nothing
        op = {"op": "raise", "event": kind_key}
        role = kind.role(kind.principal) if kind.principal else None
        if role is not None:
            cls = self.ex.resolve(kind.server if not old else next(
                (k for k, v in OLD_RAISED.items() if v == kind_key), kind.server), self.c)
            names = [p.name for p in cls.params] if cls is not None else []
            a = next((a for a in args if a.name == role.server), None)
            if a is None and role.server in names and names.index(role.server) < len(args):
                a = args[names.index(role.server)]
            who = self._term(a.x, env) if a is not None else None
            if who is not None and who.sort in ("self", "player", "each"):
                op["who"] = who.text
            else:
                self._miss(self.key[1], n, "whose event")
        self._op(op, cond, n)

    def _answered(self, kind_key) -> bool:
        """Whether any code of this revision listens for the event ``kind_key``: tests the game's state or an event
        against its class (``findEvent<GiveCardEvent>``, ``fsm as? OnGiveCard``, ``is OnGiveCard``) outside the file
        declaring it."""
        cache = self.ex.__dict__.setdefault("_answered_events", {})
        if kind_key not in cache:
            names = {EV.EVENT_KINDS[kind_key].server} | {k for k, v in OLD_RAISED.items() if v == kind_key}
            pat = re.compile(rb"(?:\bas\??\s+|\bis\s+|<\s*)(?:" + b"|".join(re.escape(x.encode()) for x in sorted(names))
                             + rb")\b(?!\s*\()")
            decl = re.compile(rb"\bclass\s+(?:" + b"|".join(re.escape(x.encode()) for x in sorted(names)) + rb")\b")
            cache[kind_key] = any(pat.search(src.data) and not decl.search(src.data) for src in self.ex.srcs)
        return cache[kind_key]

    def _retarget_remove(self, to, by=None, into=None):
        for op in reversed(self.rd.ops):
            if op["op"] == "remove_message":
                op["to"] = to
                if by is not None and by != "self":
                    op["by"] = by
                if into is not None:
                    op["into"] = into
                return

    def _card_count(self, cards, env):
        """How many cards a discard takes: one per card argument, a spread list's size when known; None: all."""
        if len(cards) == 1 and cards[0].spread or len(cards) == 1 and _t(cards[0].node).endswith(
                (".toList()", ".cards")):
            txt = _t(cards[0].node)
            if re.search(r"\.cards(\.toList\(\))?(\.toTypedArray\(\))?$", txt):
                return None
            if self.answer_count is not None and self.answer_count.sort in ("int",):
                return _num(self.answer_count.text)
            return "unknown"
        return len(cards)

    def _amount(self, x: _X, env):
        tr = self._translator(env, "do")
        t = tr.int(x)
        text = t.text
        if tr.missed:
            self._miss(self.key[1], x.n)
        try:
            return int(text)
        except ValueError:
            return text

    def _gives(self, grant: str) -> bool:
        return True

    # --------------------------------------------------------------------------------------------- triggers
