"""What a rule or a card does, read from its Kotlin: the catalogue's ``do`` ops, its use conditions (``requires``),
a trigger's guard (``on.when``), ``limit`` and ``flips``.

A walk over the statements of the rule's entry points — a TriggeredSkill's ``execute``, an ActiveSkill's
``executeProtocol``, a card's ``canUse`` and ``execute`` — following what they hand control to: a function of the
same class or its companion (inlined, its parameters bound to the arguments), a state class of the rule's own file
built as the next state (``ExecuteX(fsm, r, target)``: its ``resolve`` and ``resolveProtocol``, its properties bound
to the constructor's arguments), a lambda handed to the engine's card resolution (``resolveFunc``). Each statement is

* left out when it is no rule (the normal form's list, ``normal._Norm``: logging, client messages, sequence numbers,
  time-outs, robot branches and timers);
* a guard (``if (c) return``, ``c || return``): before the first effect it is a condition of the use (``requires``)
  or of the trigger (``when``); after it, the ops that follow carry it in their ``if``;
* a branch: the ops of each side carry its condition;
* an op when it is one of the server's idioms (``draw``, ``playerDiscardCard``, ``playerSetRoleFaceUp``,
  ``messageCards.add``, ``deleteMessageCard``, a hand card moved, ``valid = false``, a grant, ``addEvent``, a state
  copied with another face, holder or direction …), its amounts and players translated (``conds``);
* else it is not translated: a ``prose`` op names it and the construct holding it is marked *partly read*.

Every walked construct (file, class path, member) is recorded with whether all of it was read (``reads``): the gate
treats a change of a construct read whole on both sides as read — equal translations mean no rule change — and
the rest as it did before (UNR001). Deterministic: the walk follows source order only."""
from __future__ import annotations

import re

from .. import effects as X
from .. import events as EV
from .bodies import _T
from .conds import CondTranslator, _atomic, conj, negate
from .normal import FORWARD, _Norm
from .syntax import _code, _conjuncts, _fn_params, _stmts, _ir, _kid, _lambda_parts, _name_of, _short, _t, _unparen
from .effect_calls import _Calls
from .effect_lists import _Lists
from .refusals import HANDLERS as _HANDLERS, _is_refusal as _refuses
from .server import PHASE_WINDOWS
from .effect_values import (MAY, STATE_EVENTS, _BANS, _FUN, _MAX_DEPTH, _PROTO_NAMES, _WINDOW, _WINDOW_ACTOR, Reading,
                            _callee_last, _Filt, _Stop, _V)


#: the windows whose players are asked in turn (model.turn: their actor is "anyone", each living player being asked
#: in seat order): a game state of one, and the field naming the player it asks now
_ASKED_IN_TURN = ((re.compile(r"(\bis|\bas\?)\s*FightPhaseIdle\b"), "whoseFightTurn"),
                  (re.compile(r"(\bis|\bas\?)\s*WaitN?e?x?t?ForChengQing\b"), "askWhom"))


#: a comparison with a number other than 0 (an answer's size or value; 0 is the protocol's "none")
#: or with a constant of the game (a colour, a direction, a card type: ``message.color != Red``)
_ANSWER_NUMBER = re.compile(r"(==|!=|<=|>=|<|>)\s*[1-9]\d*\b|\b[1-9]\d*\s*(==|!=|<=|>=|<|>)|"
                            r"(==|!=|\bin)\s*(\w+\.)*(Red|Blue|Black|Left|Right|Up|[A-Z][a-z]+(_[A-Z][a-z]+)+)\b")


def _asks_in_turn(text: str) -> bool:
    """Whether a card's ``canUse`` that accepts a window whose players are asked in turn (争夺阶段, 濒死求澄清) tests
    that the user is the player asked now (``r !== fsm.whoseFightTurn``, ``r !== fsm.askWhom``): the catalogue's
    windows say "anyone, asked in turn" — a canUse without that test lets anyone use the card at any moment, which
    its windows do not say (the construct is then not read whole: a change there is named, UNR001)."""
    return all(field in text for state, field in _ASKED_IN_TURN if state.search(text))


#: the field naming the player a game state asks to act (a card's window actor, model.turn: the turn player in 出牌阶段
#: and at the send's start, the player the message is in front of in 传递阶段, each player asked in turn in 争夺阶段
#: and 濒死求澄清)
_ACTOR_FIELD = {"MainPhaseIdle": "whoseTurn", "SendPhaseStart": "whoseTurn", "SendPhaseIdle": "inFrontOfWhom",
                "FightPhaseIdle": "whoseFightTurn", "WaitForChengQing": "askWhom", "WaitNextForChengQing": "askWhom"}
#: the fields an ActiveSkill's own actor test may read (its windows are the catalogue's: ``in_front`` in 争夺阶段,
#: ``dying_player`` in 濒死求澄清 beside the actors of the cards' windows)
_SKILL_ACTOR_FIELDS = frozenset(_ACTOR_FIELD.values()) | {"whoDie"}


_USED_LEFT = re.compile(rb"\.deleteCard\(\s*id\s*\)")


def _cards_remove_used(ex) -> bool:
    """Whether the code's cards take the card used out of its user's hand themselves (``r.deleteCard(id)``): then a
    card that never does keeps it in the hand."""
    got = ex.__dict__.get("_cards_remove_used")
    if got is None:
        got = ex.__dict__["_cards_remove_used"] = any(
            _USED_LEFT.search(src.data) for src in getattr(ex, "srcs", ()) if src.rel.startswith("card/"))
    return got


def _cards_test_bans(ex) -> bool:
    """Whether the code's cards test their user's bans in their own ``canUse`` (``r.cannotPlayCard(type)``; the older
    ban lists ``jinBiPlayer`` …): then a card's canUse without that test is one the catalogue's bans do not describe."""
    got = ex.__dict__.get("_cards_test_bans")
    if got is None:
        pat = re.compile(rb"\.cannotPlayCard\(\s*type\s*\)|\b(diaoHuLiShanPlayers|jinBiPlayer|qiangLingTypes)\b")
        got = ex.__dict__["_cards_test_bans"] = any(
            pat.search(src.data) for src in getattr(ex, "srcs", ()) if src.rel.startswith("card/"))
    return got


class EffectReader:
    """Mixed into the extractor: ``_read_effect`` walks one skill or card class (needs ClassIndex, RuleBodies)."""

    def _read_effect(self, c, mode: str, on: list | None = None, cid: str | None = None, params=None) -> Reading:
        """``mode``: trigger | active | card. ``on``: the trigger's entries (their ``when`` is filled in). ``params``:
        the rule's parameters (its constructor's, name -> catalogue type), read by name where the code reads them."""
        w = _Walker(self, c, mode, on or [], cid)
        w.params = {k: t for k, t in (params or {}).items() if t in _PARAM_SORTS}
        try:
            w.run()
        except RecursionError:                                   # pragma: no cover - deep code
            w.rd.untranslated.append((c.at(), "too deep"))
            for k in w.rd.reads:
                w.rd.reads[k] = False
        return w.rd


#: colour tests of a card (its text without blanks): the filter the card has when the test holds, and when it fails
_COLOUR_TESTS = [(r"(?:\w+\.)*Red!in(\w+)\.colors&&(?:\w+\.)*Blue!in\1\.colors", ("pure_black", "red_or_blue")),
                 (r"(\w+)\.isPureBlack\(\)", ("pure_black", "red_or_blue")),
                 (r"(\w+)\.isBlack\(\)", ("black", "non_black")),
                 (r"(\w+)\.colors\.contains\((?:\w+\.)*Black\)", ("black", "non_black")),
                 (r"(?:\w+\.)*Black(?:in)(\w+)\.colors", ("black", "non_black")),
                 (r"(\w+)\.colors\.size==2", ("two_colours", None)),
                 (r"(\w+)\.colors\.contains\((?:\w+\.)*Red\)", ("red", None)),
                 (r"(?:\w+\.)*Red(?:in)(\w+)\.colors", ("red", None)),
                 (r"(\w+)\.colors\.contains\((?:\w+\.)*Blue\)", ("blue", None)),
                 (r"(?:\w+\.)*Blue(?:in)(\w+)\.colors", ("blue", None))]


#: expressions whose value is a test (a local holding one is read where it is tested)
_BOOL_EXPRS = frozenset({"equality_expression", "comparison_expression", "conjunction_expression",
                         "disjunction_expression", "prefix_expression", "in_expression", "is_expression",
                         "check_expression", "call_expression", "navigation_expression", "parenthesized_expression"})


def _colours_in(x, out: set) -> None:
    """The ids of the colour filters ``x`` (ops, nested) holds (``_Filt``), into ``out``."""
    if isinstance(x, dict):
        for v in x.values():
            if isinstance(v, _Filt):
                out.add(id(v))
            else:
                _colours_in(v, out)
    elif isinstance(x, list):
        for v in x:
            _colours_in(v, out)


def _plain_colours(x) -> None:
    """Every colour filter of ``x`` (ops, nested) as a plain string."""
    if isinstance(x, dict):
        for k, v in x.items():
            if isinstance(v, _Filt):
                x[k] = str(v)
            else:
                _plain_colours(v)
    elif isinstance(x, list):
        for v in x:
            _plain_colours(v)


def _strip_not(text: str):
    """A condition's text without blanks and its leading ``!`` (and one pair of parentheses): (text, negated)."""
    txt = re.sub(r"\s+", "", text)
    neg = False
    while txt.startswith("!"):
        neg, txt = not neg, txt[1:]
    if txt.startswith("(") and txt.endswith(")"):
        txt = txt[1:-1]
        while txt.startswith("!"):
            neg, txt = not neg, txt[1:]
    return txt, neg


def _colour_test(txt: str, neg: bool, tests) -> tuple | None:
    """(the local tested, its colour filter when the test holds, when it fails) of a colour test's text."""
    for pat, (yes, no) in tests:
        m = re.fullmatch(pat, txt)
        if m:
            return (m.group(1), no, yes) if neg else (m.group(1), yes, no)
    return None


def _handler_checks(ex) -> dict:
    """What the handlers of cards check of the cards they hand to a card's ``execute``: card id -> {index in
    ``args`` -> colour filter}. A handler names its card (``r.canUseCardTypes(Yu_Qin_Gu_Zong, card)``) and calls
    ``card.execute(game, r, a0, a1, …)``; each guard before that call (``if (test) { …; return }``, ``test || return``)
    that tests the colours of one of ``a0, a1, …`` (``Red !in m.colors && Blue !in m.colors``, ``m.isBlack()``) is what
    the card's ``args[i]`` holds. Read once per extraction."""
    if "_handler_checks" in ex.__dict__:
        return ex._handler_checks
    from .syntax import _descendants
    out: dict = {}
    for src, fd, _name, _owner in ex._functions():
        if not src.rel.startswith("handler/"):
            continue
        cid, call = None, None
        for n in _descendants(fd, "call_expression"):
            x = _ir(n)
            if x.k != "call" or x.a[0].k != "nav":
                continue
            if x.a[0].a[1] == "canUseCardTypes" and x.a[1]:
                cid = ex._card_const(_unparen(x.a[1][0].x)) or cid
            elif x.a[0].a[1] == "execute" and len(x.a[1]) > 2 and call is None:
                call = (n, [_t(a.node).strip() for a in x.a[1][2:]])
        if cid is None or call is None:
            continue
        body = _kid(fd, "function_body")
        stmts = _stmts(_kid(body, "block")) if body is not None and _kid(body, "block") is not None else []
        found: dict = {}
        for st in stmts:
            if st.start_byte <= call[0].start_byte < st.end_byte:
                break
            test, stop_when = None, True
            if st.type == "if_expression":
                cn = st.child_by_field_name("condition")
                branches = [b for b in _code(st) if b != cn]
                if cn is not None and len(branches) == 1 and re.search(r"\breturn\b", _t(branches[0])):
                    test = cn
            elif st.type == "binary_expression" and _t(st.child_by_field_name("operator")) == "||" and \
                    len(_code(st)) == 2 and _code(st)[1].type == "return_expression":
                test, stop_when = _code(st)[0], False
            if test is None:
                continue
            txt, neg = _strip_not(_t(test))
            got = _colour_test(txt, neg, _COLOUR_TESTS)
            if got is None or got[0] not in call[1]:
                continue
            f = got[2] if stop_when else got[1]          # the colour it has when play goes on
            if f is not None:
                found[call[1].index(got[0])] = f
        if found:
            out.setdefault(cid, {}).update(found)
    ex._handler_checks = out
    return out


#: the catalogue types of a rule's parameters the walk reads by name (a colour the grant was handed: 江湖令's)
_PARAM_SORTS = ("colour",)


class _Walker(_Calls, _Lists):
    params: dict = {}

    def __init__(self, ex, c, mode, on, cid):
        self.ex, self.c, self.mode, self.on, self.cid = ex, c, mode, on, cid
        self.ban_seen = False          # a card's canUse tested the user's bans on it (``r.cannotPlayCard(type)``)
        self.rd = Reading()
        self.started = False           # an effect happened: guards now condition the ops that follow
        self.stack: list = []          # functions being walked (no recursion)
        self.walked: set = set()       # the lambdas whose bodies were read (ids of their nodes)
        self.chosen: list = []         # player words handed out to the client's choices
        self.norms: dict = {}
        self.key = None                # the construct being walked
        self.kind = None               # the trigger's event kind (for its players)
        self.fields: dict = {}
        self.words: dict = {}
        self.players = X.players_of(())
        self.when_parts: list = []
        self.answer_count = None       # how many cards the client's answer must name (a check of its size)
        self.pending_where: list = []  # checks of held message cards (``_card_where``) no op has taken up yet
        self.pending_filt: list = []   # colour checks of cards (``_card_check``): (filter, key, owner, node)
        self.answer_filts: dict = {}   # (state class, a boolean field of the answer, its value) -> (a card's local, the
                                       # colour it must have when the answer chooses that value): ``if (!c.isBlack()
                                       # && !message.f) return null`` — choosing not ``f`` needs a black card
        self.answer_needs: dict = {}   # (state class, a boolean field of the answer) -> what the state refuses it
                                       # without (``if (message.show && !c) return null``: ``show`` needs ``c``)
        self.arg_words: dict = {}      # a card's ``args[i]``: the player or choice it stands for
        self.turn_is_self = False      # the use was checked to be the turn player's (``r !== fsm.whoseTurn``)
        self.window = None             # a card's canUse in a branch on the game state: the window it stands at
        self.in_entry = True           # walking the entry point (not a state the client answers in): its guards
                                       # before the first effect are the use's (or trigger's) conditions

    # ------------------------------------------------------------------------------------------ entries
    def run(self):
        self._run()
        for v, key, owner, node in self.pending_where:
            if v.where is not None:              # checked, but no op moved the card: the check is not read
                self.key = key
                self._miss(owner, node, "a check of a card no op moves")
        taken = set()
        _colours_in(self.rd.ops, taken)
        for f, key, owner, node in self.pending_filt:
            if id(f) not in taken:               # a card's colour checked, but no op moving a card says so: not read
                self.key = key
                self._miss(owner, node, "a check of a card's colour no op takes up")
        _plain_colours(self.rd.ops)

    def _run(self):
        ex, c = self.ex, self.c
        if self.mode == "trigger":
            owner, fd = ex.func(c, "execute")
            if fd is None:
                return
            self._walk_fn(owner, fd, self._params(fd, {"Game": _V("game"), "Player": _V("self", "self")}))
            for i, parts in enumerate(self.when_parts):
                extra = self.rd.conds if i == len(self.when_parts) - 1 else []
                self.rd.whens.append(conj(list(parts) + list(extra)))
            if not self.when_parts:            # a guard with no event to hang on: nowhere to write it
                for k in self.rd.cond_keys:
                    self.rd.reads[k] = False
            self.rd.conds, self.rd.cond_lines, self.rd.cond_keys = [], [], []
            if "ActiveSkill" in ex.ancestors(c) | {k for k in ex.kinds(c)}:     # used as well as triggered
                self.mode, self.started, self.in_entry = "active", False, True
                self.kind, self.fields, self.words, self.players = None, {}, {}, X.players_of(())
                self._run()
        elif self.mode == "active":
            owner, fd = ex.func(c, "executeProtocol")
            if fd is None:
                return
            env = self._params(fd, {"Game": _V("game"), "Player": _V("self", "self")})
            ps = _fn_params(fd)
            if len(ps) >= 3:
                env[ps[2][0]] = _V("answer")            # executeProtocol(g, r, message): the client's message
            self._walk_fn(owner, fd, env)
        else:
            for i, f in sorted(_handler_checks(ex).get(self.cid, {}).items()):
                v = _V("choice", "Card")             # what the card's handler checked of the card it hands on
                v.filt = f
                self.arg_words[f"args[{i}]"] = v
            for name in ("canUse", "execute"):
                for owner, fd in self._own_funcs(c, name):
                    env = self._params(fd, {"Game": _V("game"), "Player": _V("self", "self")})
                    self.ban_seen = False
                    self.used_left = False
                    self._walk_fn(owner, fd, env)
                    if name == "execute" and not self.used_left and _cards_remove_used(ex) and \
                            not _USED_LEFT.search(owner.src.data):
                        # the card used never taken out of its user's hand — neither on the walk of its execute nor
                        # anywhere in its file (a helper the walk does not follow: 误导's onUseCard) — where the code's
                        # cards take it out (``r.deleteCard(id)``): it stays in the hand, a rule of the card's
                        saved, self.key = self.key, ((owner.src.rel, self._path(owner), "execute"), owner)
                        self._op({"op": "prose", "note": "the card used stays in its user's hand"}, [], fd)
                        self.key = saved
                    if name == "canUse":
                        self.started = False
                        if not self.ban_seen and owner is c and _cards_test_bans(ex):
                            # no test of the user's bans on this card (``r.cannotPlayCard(type)``) where the code's
                            # cards test them: the catalogue's bans hold of every card, so a canUse without it is not
                            # read whole (its loss is named)
                            self.rd.reads[(owner.src.rel, self._path(owner), "canUse")] = False

    def _own_funcs(self, c, name):
        """The class's own function (or the nearest superclass's) of that name, with the one that takes the
        most parameters first when it is overloaded."""
        for x in self.ex.super_chain(c):
            fds = x.functions(name)
            if fds:
                return [(x, fds[0])]
        return []

    def _params(self, fd, by_type: dict) -> dict:
        env = self._fn_params_env(fd, by_type)
        for k, t in self.params.items():
            env.setdefault(k, _V(t, k))                  # the rule's own parameter (``this.color``)
        return env

    def _fn_params_env(self, fd, by_type: dict) -> dict:
        env = {}
        taken = set()
        for name, tname, _targs in _fn_params(fd):
            v = by_type.get(tname)
            if v is not None and (tname not in taken or tname == "Player" and False):
                env[name] = v
                taken.add(tname)
            elif tname == "Player":
                env[name] = _V("opaque")
            else:
                env[name] = _V("args" if tname == "Any" else "opaque")
        return env

    # -------------------------------------------------------------------------------------- constructs
    def _path(self, cls) -> str:
        parts = []
        x = cls
        while x is not None:
            parts.append(x.name if x.kind != "companion" or x.name != "Companion" else "Companion")
            x = x.outer
        return ".".join(reversed(parts))

    def _walk_fn(self, owner, fd, env, cond=()):
        key = (owner.src.rel, self._path(owner), _name_of(fd))
        if id(fd) in self.stack or len(self.stack) >= _MAX_DEPTH:
            self._miss(owner, fd, "a call into itself or too deep")
            return None
        saved_key = self.key
        self.key = (key, owner)
        self.rd.reads.setdefault(key, True)
        self.stack.append(id(fd))
        try:
            body = _kid(fd, "function_body")
            if body is None:
                return None
            kids = _code(body)
            if "=" in {ch.type for ch in body.children if not ch.is_named} and len(kids) == 1:
                if self._returned_checks(kids[0], env, list(cond)):
                    return None
                return self._value(kids[0], env, list(cond), returning=True)
            block = _kid(body, "block")
            try:
                self._block(_code(block) if block is not None else [], env, list(cond))
            except _Stop:
                pass
            return None
        finally:
            self.stack.pop()
            self.key = saved_key
            if self.mode == "card" and _name_of(fd) == "canUse" and not _asks_in_turn(_t(fd)):
                self.rd.reads[key] = False

    def _robot_member(self, name: str) -> bool:
        """A member no rule reads: every read of it stands in a file that holds no rule or in a robot helper."""
        cache = self.ex.__dict__.setdefault("_robot_members", {})
        if name not in cache:
            from .normal import _NOT_RULE_MEMBER
            from .unread import is_rule_file
            pat = re.compile(rb"(?<![\w])" + re.escape(name.encode()) + rb"(?![\w])")
            ok = bool(re.fullmatch(r"[a-z]\w*", name))
            for src in self.ex.srcs if ok else []:
                if name.encode() not in src.data or not is_rule_file(src.rel):
                    continue
                funs = [(f.start(), f.group(1).decode()) for f in _FUN.finditer(src.data)]
                for m in pat.finditer(src.data):
                    before, after = src.data[max(0, m.start() - 12):m.start()], src.data[m.end():m.end() + 4]
                    if re.search(rb"\b(val|var|fun)\s+(\w+\.)?\Z", before) or \
                            re.match(rb"\s*(\+\+|--|[-+*/]?=(?!=))", after):
                        continue
                    enclosing = next((n for pos, n in reversed(funs) if pos < m.start()), "")
                    if enclosing and _NOT_RULE_MEMBER.match(enclosing):
                        continue
                    ok = False
                    break
                if not ok:
                    break
            cache[name] = ok
        return cache[name]

    def _norm(self, owner) -> _Norm:
        nm = self.norms.get(id(owner.src))
        if nm is None:
            nm = self.norms[id(owner.src)] = _Norm(owner.src.data, frozenset())
        return nm

    def _miss(self, owner, node, why=""):
        """A statement not translated: the construct is partly read, and a prose op says so."""
        if self.key is not None:
            self.rd.reads[self.key[0]] = False
        where = owner.src.at(node)
        text = _short(node, 60)
        self.rd.untranslated.append((where, why or text))

    # ------------------------------------------------------------------------------------------ statements
    def _block(self, stmts, env, cond):
        """Walk a block: its declarations stay inside, what it assigns to a name from outside is seen after it."""
        inner = dict(env)
        try:
            for i, s in enumerate(stmts):
                s = self._null_return(s, stmts[i + 1] if i + 1 < len(stmts) else None, inner)
                cond = self._stmt(s, inner, cond)
        finally:
            for k in env:
                if inner.get(k) is not env[k] and inner.get(k) is not None:
                    env[k] = inner[k]

    def _null_return(self, s, nxt, env):
        """``if (x != null) return A`` then ``return null`` (``x`` a name) is ``x ?: return null`` then ``return A``,
        and is read as that is: the jump ``A`` (the statement after it is never reached). Any other statement: itself."""
        if s.type != "if_expression" or nxt is None or nxt.type not in ("jump_expression", "return_expression") or \
                not re.fullmatch(r"return(\s+null)?", _t(nxt).strip()):
            return s
        c_node = s.child_by_field_name("condition")
        branches = [b for b in _code(s) if b != c_node]
        if c_node is None or len(branches) != 1:
            return s
        m = re.fullmatch(r"\s*(\w+)\s*!=\s*null\s*|\s*null\s*!=\s*(\w+)\s*", _t(c_node))
        if not m:
            return s
        then = [branches[0]] if branches[0].type in ("jump_expression", "return_expression") else \
            self._stmts(branches[0])
        if len(then) != 1 or then[0].type not in ("jump_expression", "return_expression") or \
                not re.match(r"return\b", _t(then[0])):
            return s
        return then[0]

    def _stmt(self, s, env, cond):
        """Walk one statement; returns the condition the statements after it run under."""
        owner = self.key[1]
        nm = self._norm(owner)
        t = s.type
        if t in ("line_comment", "block_comment", "multiline_comment"):
            return cond
        if self._no_rule(s, owner):
            return cond
        if t == "if_expression":
            return self._if(s, env, cond)
        if t == "when_expression":
            return self._when(s, env, cond)
        if t in ("return_expression", "throw_expression"):
            kids = _code(s)
            if kids and t == "return_expression" and not self._returned_checks(kids[0], env, cond):
                self._value(kids[0], env, cond, returning=True)
            raise _Stop()
        if t == "jump_expression":
            word = _t(s).split("@")[0].split()[0] if _t(s) else ""
            if word.startswith("return"):
                kids = [k for k in _code(s) if k.type != "label"]
                if kids and not self._returned_checks(kids[-1], env, cond):
                    self._value(kids[-1], env, cond, returning=True)
            raise _Stop()
        if t == "binary_expression":
            op = _t(s.child_by_field_name("operator")) if s.child_by_field_name("operator") else ""
            kids = _code(s)
            if op in ("||", "&&") and len(kids) == 2 and kids[1].type in ("return_expression", "jump_expression",
                                                                          "throw_expression"):
                return self._check_guard(kids[0], env, cond, op == "||", s, kids[1])
            if op == "?:" and len(kids) == 2 and kids[1].type in ("return_expression", "jump_expression",
                                                                   "throw_expression"):
                self._value(kids[0], env, cond)
                return cond
        if t == "property_declaration":
            return self._decl(s, env, cond)
        if t in ("for_statement",):
            return self._for(s, env, cond)
        if t == "while_statement" and self._drain(s, env, cond):
            return cond
        if t == "assignment":
            self._assign(s, env, cond)
            return cond
        if t in ("postfix_expression", "unary_expression"):
            target = _code(s)[0] if _code(s) else None
            if target is not None and self._robot_member(_t(target).split(".")[-1]):
                return cond
            self._miss(owner, s)
            return cond
        if t == "call_expression" and self._list_add(s, env, cond):
            return cond
        self._value(s, env, cond)
        return cond

    def _protocol(self, s) -> bool:
        """A statement of the client protocol only: a sequence number or a time-out set or kept."""
        if s.type == "assignment":
            left = s.child_by_field_name("left")
            return left is not None and bool(_PROTO_NAMES.fullmatch(_t(left).split(".")[-1]))
        if s.type == "property_declaration":
            vd = _kid(s, "variable_declaration")
            return vd is not None and bool(_PROTO_NAMES.fullmatch(_t(_kid(vd, "identifier"))))
        return False

    def _returned_checks(self, node, env, cond) -> bool:
        """``return a && b`` ending a card's or an ActiveSkill's ``canUse`` (before any effect): each operand is a check
        the use must pass, as ``a || return false`` would be — a call (the shared check of a companion) walked, any
        other test read as a guard, and one not read leaves the construct partly read. False (nothing done) for any
        other returned value."""
        if self.mode not in ("card", "active") or not self.in_entry or self.started or \
                not self.key or self.key[0][2] != "canUse":
            return False
        parts = _conjuncts(_ir(node))
        if len(parts) < 2 or any(p.n is None for p in parts):
            return False
        for p in parts:
            n = p.n
            if n.type == "call_expression" and not re.search(r"(?<![\w.])\w+\s*\.\s*cannotPlayCard\s*\(", _t(n)):
                self._value(n, env, cond, returning=True)
                continue
            cond = self._check_guard(n, env, cond, True, n, None)
        return True

    def _check_guard(self, node, env, cond, must_hold: bool, stmt, jump):
        """A test the use must pass (``node || jump``, ``must_hold``) or must fail (``node && jump``): a check of the
        card, its colour or where it is, or of the client's answer, is read by its own reader; any other test is a
        guard on what follows (``_guard``; ``jump``'s value, if any, happens otherwise). The conditions after it."""
        if self._card_check(node, env, not must_hold) or self._card_colour(node, env) is None and \
                self._card_where(node, env, not must_hold):
            return cond
        c = self._cond(node, env)
        if self._is_answer_check(node, env):
            return cond
        if c is None:
            c = self._beyond_window(node, env, refused_if_true=not must_hold)
        if c is None:
            return cond
        return self._guard(c if must_hold else negate(c), cond, stmt, env, jump)

    def _guard(self, keep: str, cond, node, env, jump):
        """``keep`` must hold for what follows; the jump's own value (a state returned) happens otherwise (none: the
        use refused, ``false`` returned)."""
        kids = [k for k in _code(jump) if k.type != "label"] if jump is not None else []
        if kids:
            self._value(kids[-1], env, cond + [negate(keep)], returning=True)
        if not self.started and self.in_entry and self.window is not None:
            if re.search(r"(?<![\w.])target\b", keep) and "unknown" not in keep:
                self.rd.target_when.setdefault(self.window, []).append(keep)     # the target, in this window only
                self.rd.target_lines.append(self.key[1].src.at(node))
            else:
                self._miss(self.key[1], node, "a check in one window only")
            return cond
        if not self.started and self.in_entry:
            self.rd.conds.append(keep)
            self.rd.cond_lines.append(self.key[1].src.at(node))
            self.rd.cond_keys.append(self.key[0])
            return cond
        return cond + [keep]

    def _if(self, s, env, cond):
        owner = self.key[1]
        nm = self._norm(owner)
        c_node = s.child_by_field_name("condition")
        branches = [b for b in _code(s) if b != c_node]
        if c_node is not None:
            m = re.fullmatch(r"\s*(!?)\s*(\w+)\s*", _t(c_node))
            v = env.get(m.group(2)) if m else None
            if v is not None and v.sort == "boolexpr" and (not m.group(1) or len(branches) == 2):
                c_node = v.node                         # the test the local holds, read here
                if m.group(1):
                    branches = branches[::-1]            # if (!t) a else b: if (t) b else a
        if c_node is not None and len(branches) == 1:
            then = self._stmts(branches[0])
            if len(then) == 1 and re.match(r"\s*(\w+)\s*\.\s*add\s*\(", _t(then[0])) and \
                    env.get(re.match(r"\s*(\w+)", _t(then[0])).group(1)) is not None and \
                    env[re.match(r"\s*(\w+)", _t(then[0])).group(1)].sort == "plist":
                c = self._cond(c_node, env)              # ``if (c) players.add(p)``: p joins the list when c holds
                if c is not None and self._list_add(then[0], env, cond + [c]):
                    return cond
        if self.mode == "card" and self.in_entry and not self.started and c_node is not None:
            got = self._window_branch(s, c_node, branches, env, cond)
            if got is not None:
                return got
        if c_node is not None and len(branches) == 2 and self._jumps(branches[0]) and \
                not self._answer_test(c_node, env) and self._valid_test(c_node, env) is None and \
                nm.robot_test(c_node) is None:
            # if (c) { …; return } else { rest }: the guard ``if (c) return`` with the rest after it
            cond = self._if_parts(s, c_node, branches[:1], env, cond)
            for st in self._stmts(branches[1]):
                cond = self._stmt(st, env, cond)
            return cond
        return self._if_parts(s, c_node, branches, env, cond)

    def _window_test(self, node, env):
        """``fsm is X`` of the game state, X a state a card's window stands at: (the local, X, the window); else None."""
        m = re.fullmatch(r"\s*(\w+)\s+is\s+(\w+)\s*", _t(node))
        if not m or m.group(2) not in PHASE_WINDOWS:
            return None
        v = env.get(m.group(1))
        if v is None and m.group(1) != "fsm" or v is not None and v.sort not in ("state", "fsmobj", "opaque"):
            return None
        return m.group(1), m.group(2), PHASE_WINDOWS[m.group(2)]

    def _window_branch(self, s, c_node, branches, env, cond):
        """A card's ``canUse`` before any effect: ``if (fsm is X) { checks } else …`` — the checks of the branch hold in
        X's window only (its target's: ``target.when``); ``if (a || b) return false`` is two guards; ``if (fsm is X && c)
        return false`` a check in X's window. None when it is none of these."""
        x = _unparen(_ir(c_node))
        w = self._window_test(c_node, env)
        if w is not None and self.window is None:
            name, cls, win = w
            env_t = dict(env)
            env_t[name] = _V("fsmobj", cls, cls=cls)
            self.window = win
            try:
                self._block(self._stmts(branches[0]), env_t, cond)
            except _Stop:
                self._miss(self.key[1], c_node, "a window's branch that ends the check")
            finally:
                self.window = None
            if len(branches) > 1:
                try:
                    for st in self._stmts(branches[1]):
                        cond = self._stmt(st, env, cond)
                except _Stop:
                    if not self._jumps(branches[1]):
                        raise                        # (the last else refuses every other window: the card's windows)
            return cond
        if len(branches) != 1 or not self._jumps(branches[0]) or x.k != "bin":
            return None
        if x.a[0] == "||" and re.search(r"\bis\s+(" + "|".join(PHASE_WINDOWS) + r")\b", _t(c_node)):
            # if (a || fsm is X && b) return: if (a) return; if (fsm is X && b) return
            for part in (x.a[1], x.a[2]):
                pn = _unparen(part).n
                got = self._window_branch(s, pn, branches, env, cond)
                cond = got if got is not None else self._if_parts(s, pn, branches, env, cond)
            return cond
        if x.a[0] == "&&" and self.window is None:
            for a, b in ((x.a[1], x.a[2]), (x.a[2], x.a[1])):
                w = self._window_test(_unparen(a).n, env)
                if w is not None:
                    name, cls, win = w
                    env_t = dict(env)
                    env_t[name] = _V("fsmobj", cls, cls=cls)
                    self.window = win
                    try:
                        self._if_parts(s, b.n, branches, env_t, cond)
                    finally:
                        self.window = None
                    return cond
        return None

    def _if_parts(self, s, c_node, branches, env, cond):
        owner = self.key[1]
        nm = self._norm(owner)
        if c_node is None:
            self._miss(owner, s)
            return cond
        valid = self._valid_test(c_node, env)
        if valid is not None:
            if len(branches) > (0 if valid else 1):
                self._block(self._stmts(branches[0 if valid else 1]), env, cond)
            return cond
        robot = nm.robot_test(c_node)
        if robot is None and re.fullmatch(r"\s*\w+\s+is\s+HumanPlayer\s*", _t(c_node)):
            robot = False                      # a human's branch (time-outs): the other one is the robot's
        if robot is not None:
            if len(branches) >= 2:
                other = branches[1] if robot else branches[0]
                try:
                    self._block(self._stmts(other), env, cond)
                except _Stop:
                    raise
            return cond
        if len(branches) == 1 and self._jumps(branches[0]) and self._answer_refusal(c_node, env):
            return cond
        answers = [k for k, v in env.items() if v.sort in ("answer", "answerer")]     # (before the check rebinds them)
        if self._is_answer_check(c_node, env) and len(branches) == 1 and self._jumps(branches[0]):
            if self._refuses_expected(c_node, branches[0], env):
                # the answer refused when it is the one asked for (``message is X_tos``, ``player === r``, a check
                # negated whole): nothing the catalogue says — not read whole
                self._miss(owner, s, "the expected answer or answerer refused")
            elif self._answer_vs_value(c_node, env):
                # the answer measured against a value the rule computed (``cardIdsCount !in needReturnCount``): the
                # value is not read into the catalogue — not read whole
                self._miss(owner, s, "the answer tested against a value of the rule")
            elif _ANSWER_NUMBER.search(_t(c_node)):
                # the answer measured against a number or a constant (``cardIdsCount != 2``, ``cardId == 1``,
                # ``color != Red``): what it says (how many cards, which answer declines, which colours may be named)
                # is not in the catalogue — not read whole
                self._miss(owner, s, "the answer tested against a number or a constant")
            elif self._answer_card_refusal(c_node, env):
                pass
            elif self._state_conjunct(c_node, answers):
                # the refusal tests the game state too (``!card.isBlack() && !message.asMessageCard``): a rule the
                # protocol check carries — not read whole
                self._miss(owner, s, "a refusal of the answer that also tests the game state")
            return cond
        if self._is_enable(c_node, env) is not None and len(branches) == 1 and self._jumps(branches[0]):
            self._decline_goes_on(branches[0])
            return cond + [MAY]                                # the player may decline: what follows is optional
        if self._answer_test(c_node, env) and branches and not (len(branches) == 1 and self._jumps(branches[0])):
            return self._choice(s, branches, env, cond)
        then = self._stmts(branches[0]) if branches else []
        els0 = self._stmts(branches[1]) if len(branches) > 1 else []
        if self._inert(then) and self._inert(els0):
            return cond                                  # neither side does anything: the test decides nothing
        drawn = self._deck_left(c_node, env)
        if drawn is not None:                            # cards drawn from the deck: the model's deck never runs dry
            side = then if drawn else els0
            self._block(side, env, cond)
            return cond
        if self._three_to_hand(c_node, then, els0, env, cond, s):
            return cond
        hidden = self._hidden_test(c_node, env) if not self._leaves(then) and not self._leaves(els0) else None
        if hidden is not None:                           # (a guard on a hand's cards stays a condition not read)
            self._hidden_choice(hidden, then, els0, env, cond, s)
            return cond
        if not els0 and len(branches) == 1 and self._jumps(branches[0]) and self._card_colour(c_node, env) is None \
                and self._card_where(c_node, env, True):
            return cond
        if not els0 and len(branches) == 1 and then and self._only_jump(then, owner) and \
                self._card_check(c_node, env, True):
            return cond                                  # a check of a card taken, before anything is done with it
        if not els0 and len(branches) == 1 and then and self._card_decides(c_node, then, env, cond, s):
            return cond
        c = self._cond(c_node, env)
        if c is None and len(branches) == 1 and self._jumps(branches[0]):
            c = self._beyond_window(c_node, env, refused_if_true=True)
        if c is None:
            if len(branches) == 1 and self._jumps(branches[0]):
                if not cond and self.in_entry and re.fullmatch(r"\s*\w+\s*!==?\s*\(?[\w.!?]*(\bfsm\b|as\?\s*\w+)"
                                                               r"[^=]*\)?\??\.whoseTurn\s*", _t(c_node)):
                    self.turn_is_self = True             # only the turn player may use it: whoseTurn is the user
                elif self.key is not None and str(self.key[0][-1]) in _HANDLERS and _refuses(branches[0]):
                    # a refusal of the player's choice on a test not translated (``target === fsm.targetPlayer``):
                    # the handler is not read whole, so its refusals are read as they are written (refusals.py)
                    self.rd.reads[self.key[0]] = False
                return cond
            self._miss(owner, c_node, "a branch on the game state")
            c = "unknown"
        els = self._stmts(branches[1]) if len(branches) > 1 else None
        if els is None and then and self._only_jump(then, owner) and (self._card_check(c_node, env, True) or
                                                                     self._type_check(c_node, env)):
            return cond
        if els is None and then and self._only_jump(then, owner):
            jump = [x for x in then if not self._no_rule(x, owner)]
            return self._guard(negate(c), cond, s, env, jump[-1] if jump else then[-1])
        stopped_then = stopped_else = False
        saved = self.started
        env_t, env_e = dict(env), dict(env)
        try:
            self._block(then, env_t, cond + [c])
        except _Stop:
            stopped_then = True
        if els is not None:
            try:
                self._block(els, env_e, cond + [negate(c)])
            except _Stop:
                stopped_else = True
        self._join(env, env_t, env_e, c, stopped_then, stopped_else)
        if self.started and not saved and not stopped_then and els is None:
            pass
        if stopped_then and stopped_else:
            raise _Stop()
        if stopped_then:
            return cond + [negate(c)]
        if stopped_else:
            return cond + [c]
        return cond

    def _type_check(self, node, env) -> bool:
        """``if (!list.contains(t)) return`` (or ``t !in list``) on a card type the client names, ``list`` a constant
        list of card types (a ``val`` of the class or its companion, or ``listOf(…)`` in place): the types the rule
        allows, kept on the choice for the ops it decides."""
        txt = re.sub(r"\s+", " ", _t(node)).strip()
        m = re.fullmatch(r"!\s*([\w.]+)\.contains\((\w+)\)", txt) or re.fullmatch(r"(\w+) !in ([\w.]+)", txt)
        if not m:
            return False
        lst, name = (m.group(1), m.group(2)) if txt.startswith("!") else (m.group(2), m.group(1))
        v = env.get(name)
        if v is None or v.sort != "choice":
            return False
        types = self._const_cards(lst)
        if types is None:
            return False
        v.types = types
        return True

    def _const_cards(self, name):
        """The card types of a constant list named ``name`` (``val x = listOf(Cheng_Qing, …)`` in the class, its
        companion or the class around it), as catalogue card ids; None when it is not one."""
        name = name.split(".")[-1]
        owner = self.key[1]
        for cls in [owner, self.c] + [k for k in self.c.nested if k.kind == "companion"] + \
                ([owner.outer] if owner.outer else []):
            found, init = self.ex.prop(cls, name)
            if found is None:
                continue
            x = _ir(init) if init is not None else None
            if x is None or x.k != "call" or x.a[0].k != "name" or x.a[0].a[0] not in ("listOf", "setOf", "arrayOf"):
                return None
            ids = []
            for a in x.a[1]:
                word = _t(a.node).split(".")[-1]
                if word not in self.ex.universe.cards:
                    return None
                ids.append(word)
            self.rd.reads.setdefault((found.src.rel, self._path(found), name), True)   # read whole: the types listed
            return tuple(ids)
        return None

    def _leaves(self, stmts) -> bool:
        """Whether a branch leaves the function (a return, a throw, a jump at its top level): what follows the ``if``
        then depends on its test."""
        owner = self.key[1]
        return any(x.type in ("return_expression", "jump_expression", "throw_expression") for x in stmts
                   if not self._no_rule(x, owner))

    def _hidden_test(self, node, env):
        """A test of what a player's hand holds (its cards' types or colours: ``hasCard(target, t)``, a function of
        the rule's class looping over ``p.cards``, or ``p.cards.any { … }``): the model's hand is a count, so the test
        is an open decision. (who, the card types it looks for or None); None when it is not one."""
        x = _unparen(_ir(node))
        neg = False
        while x.k == "un" and x.a[0] == "!":
            neg, x = not neg, _unparen(x.a[1])
        if x.k != "call":
            return None
        callee = x.a[0]
        if callee.k == "nav" and callee.a[1] in ("any", "none") and _unparen(callee.a[0]).k == "nav" and \
                _unparen(callee.a[0]).a[1] == "cards" and x.a[2] is not None:
            who = self._term(_unparen(callee.a[0]).a[0], env)
            body = _t(x.a[2])
            if who is None or who.sort not in ("self", "player") or not re.search(r"\.(type|colors)\b|is\w*Black|"
                                                                                   r"isRed|isBlue", body):
                return None
            return who.text, self._types_named(body, env), neg != (callee.a[1] == "none")
        if callee.k != "name":
            return None
        fd, fowner = self._local_fn(callee.a[0], self.key[1], len(x.a[1]))
        if fd is None:
            return None
        body = _kid(fd, "function_body")
        text = _t(body) if body is not None else ""
        ps = [p[0] for p in _fn_params(fd)]
        m = re.search(r"\bfor\s*\(\s*(\w+)\s+in\s+(\w+)\.cards\s*\)", text) or \
            re.search(r"\b(\w+)\.cards\.(?:any|none|count|filter)\s*\{()", text)
        if not m:
            return None
        holder = m.group(2) if m.group(2) else m.group(1)
        if holder not in ps or len(ps) != len(x.a[1]) or not re.search(r"\.(type|colors)\b|is\w*Black|isRed|isBlue",
                                                                       text):
            return None
        if re.search(r"\b(draw|add|remove|delete\w*|playerDiscardCard|send|addEvent)\s*\(", text):
            return None                                      # it does something: not a test
        args = {ps[i]: x.a[1][i] for i in range(len(ps))}
        who = self._term(args[holder].x, env)
        if who is None or who.sort not in ("self", "player"):
            return None
        types = None
        for p, a in args.items():
            v = self._term(a.x, env)
            if v is not None and v.sort == "choice" and v.types and re.search(r"\.type\s*==\s*" + re.escape(p) + r"\b",
                                                                            text):
                types = v.types
        return who.text, types, neg

    def _types_named(self, body, env):
        for k, v in env.items():
            if v.sort == "choice" and v.types and re.search(r"\.type\s*==\s*" + re.escape(k) + r"\b", body):
                return v.types
        return None

    def _hidden_choice(self, hidden, then, els, env, cond, node):
        """The branches of a test of a hand (``_hidden_test``) as a ``choose`` of its holder, with a ``prose`` op
        naming why (``hidden_card``); a card moved out of his hand on the side where he holds the type carries it."""
        who, types, neg = hidden
        sides = [then, els or []]
        if neg:
            sides.reverse()
        alts = []
        for i, b in enumerate(sides):
            if isinstance(b, list):
                ops, _stopped = self._collect(lambda b=b: self._block(b, dict(env), []))
            else:                                          # a branch of an if used as a value
                ops, _stopped = self._collect(lambda b=b: self._branch_value(b, dict(env), []))
            if i == 0 and types:
                for op in ops:
                    if op.get("op") in ("give", "take") and op.get("from") == who:
                        op["card"] = list(types)
            alts.append(ops)
        real = [a for a in alts if a]
        if real:
            op = {"op": "choose", "who": who, "of": real}
            if len(real) == 1:
                op["may"] = True
            self._op(op, cond, node)
        self._op({"op": "prose", "why": "hidden_card", "note": f"what {who}'s hand holds decides (its card types or "
                  "colours are not modelled): both sides are open"}, cond, node)

    @staticmethod
    def _join(env, env_t, env_e, c, stopped_then, stopped_else):
        """The names after an ``if``: what a branch that goes on assigned (the else's over the then's, as before). Cards
        taken out of one hand on both sides, in different numbers (``if (n <= 2) all of them else List(2) {…}``), are
        one value: ``if c then a else b`` cards."""
        for k in env:
            vt, ve = env_t.get(k, env[k]), env_e.get(k, env[k])
            if not stopped_then and not stopped_else and vt is not env[k] and ve is not env[k] and \
                    vt.sort == ve.sort == "cardval" and vt.text == ve.text and vt.count is not None and \
                    ve.count is not None and "unknown" not in c:
                v = _V("cardval", vt.text)
                v.count = f"if {c} then {vt.count} else {ve.count}" if vt.count != ve.count else vt.count
                v.how = vt.how if vt.how == ve.how else "random" if {vt.how, ve.how} == {"all", "random"} else None
                env[k] = v
                continue
            if not stopped_else and ve is not env[k]:
                env[k] = ve
            elif not stopped_then and vt is not env[k]:
                env[k] = vt

    def _deck_left(self, node, env):
        """A test that cards drawn from the deck came (``cards.isNotEmpty()``, ``cards.isEmpty()``, a size against
        0): True / False as the model reads it — its deck is never empty (cards drawn are a count, ``effects.DRAW_FROM``)
        — else None."""
        txt = re.sub(r"\s+", "", _t(node))
        m = re.fullmatch(r"(!?)(\w+)\.(isNotEmpty|isEmpty|isNullOrEmpty)\(\)", txt) or \
            re.fullmatch(r"()(\w+)\.(size>0|size!=0|size==0|size<1|size>=1)", txt)
        if not m or env.get(m.group(2)) is None or env[m.group(2)].sort != "cardval" or \
                not env[m.group(2)].text.startswith("deck:"):
            return None
        yes = m.group(3) in ("isNotEmpty", "size>0", "size!=0", "size>=1")
        return yes != bool(m.group(1))

    def _three_to_hand(self, c_node, then, els, env, cond, s) -> bool:
        """``if (X.checkThreeSameMessageCard(c)) Y.cards.add(c) else X.messageCards.add(c)``: a card put into X's area
        that goes into Y's hand instead when it would give X three messages of one colour (``three = to_hand``,
        server ``Player.checkThreeSameMessageCard``). Only when the player tested is the one whose area it goes to:
        else the test is another player's (not said by ``three``) and the branch is read as any other."""
        m = re.fullmatch(r"\s*(!?)\s*(\w+)\.checkThreeSameMessageCard\(\s*(\w+)\s*\)\s*", _t(c_node))
        if not m or not then or not els:
            return False
        hand, area = (els, then) if m.group(1) else (then, els)
        card = m.group(3)
        pat_hand = re.compile(r"\s*(\w+)\.cards\.(add|addAll)\(\s*" + re.escape(card) + r"\s*\)\s*")
        pat_area = re.compile(r"\s*(\w+)\.messageCards\.(add|addAll)\(\s*" + re.escape(card) + r"\s*\)\s*")
        into_hand = [x for x in hand if pat_hand.fullmatch(_t(x))]
        into_area = [x for x in area if pat_area.fullmatch(_t(x))]
        if len(into_hand) != 1 or len(into_area) != 1:
            return False
        tested = env.get(m.group(2))
        owner = env.get(pat_area.fullmatch(_t(into_area[0])).group(1))
        by = env.get(pat_hand.fullmatch(_t(into_hand[0])).group(1))
        ok = ("self", "player", "each")
        if tested is None or owner is None or by is None or tested.sort not in ok or by.sort not in ok or \
                (tested.sort, tested.text) != (owner.sort, owner.text):
            return False
        self._block([x for x in hand if x is not into_hand[0]], env, cond)
        before = len(self.rd.ops)
        self._block(area, env, cond)
        put = [o for o in self.rd.ops[before:] if o.get("op") == "put_message"]
        if len(put) == 1:
            put[0]["three"] = "to_hand"
            put[0]["by"] = by.text
        return True

    def _card_colour(self, node, env):
        """A test of the colour of a card the rule holds as a value (``card.isBlack()``, ``!card.isPureBlack()``,
        ``Black in card.colors`` …): (its local, the colour filter it has when the test holds, when it fails — None
        where the filters cannot say it); None when it is not one."""
        txt, neg = _strip_not(_t(node))
        got = _colour_test(txt, neg, _COLOUR_TESTS)
        if got is not None and got[0] in env and env[got[0]].sort == "cardval":
            return got
        return None

    def _card_check(self, node, env, negated: bool) -> bool:
        """A check of a card the rule takes (``if (!card.isBlack()) return``): the card's colour constraint, kept on
        its value for the op that moves it. ``negated``: the test says when to stop (so the card is its negation)."""
        got = self._card_colour(node, env)
        if got is None:
            return False
        var, yes, no = got
        f = no if negated else yes
        if f is None or f == "red_or_blue" and negated:
            return False
        f = _Filt(f)
        if self.key is not None:
            self.pending_filt.append((f, self.key, self.key[1], node))
        v = env[var]
        v2 = _V(v.sort, v.text)
        v2.filt, v2.link, v2.byid = f, v.link, v.byid
        if v.link is not None:
            v.link.filt = f                   # the card the client names by id: checked in canUse
        env[var] = v2
        return True

    def _card_where(self, node, env, negated: bool) -> bool:
        """A check of a message card the rule holds, before an op moves it (``if (color !in card.colors) return``):
        the condition that card must meet, its colours read as ``it`` — the ``where`` of the op that moves it.
        ``negated``: the test says when to stop."""
        txt = _t(node)
        held = [k for k, v in env.items() if v.sort == "cardval" and v.text.startswith("seen:") and v.named is None
                and re.search(r"(?<![\w.])" + re.escape(k) + r"\b", txt)]
        if len(held) != 1:
            return False
        v = env[held[0]]
        v.named = "it"
        try:
            tr = self._translator(env, "do")
            t = tr.bool(self._fold_fsm(_ir(node), env))
        finally:
            v.named = None
        if tr.missed or t is None or "unknown" in t.text or not re.search(r"\bit\b", t.text):
            return False
        keep = negate(t.text) if negated else t.text
        m = re.fullmatch(r"not (\w+) not in (\w+)", keep)
        if m:
            keep = f"{m.group(1)} in {m.group(2)}"
        v.where = conj([v.where or "true", keep])
        self.pending_where.append((v, self.key, self.key[1], node))
        return True

    def _card_decides(self, c_node, then, env, cond, s) -> bool:
        """``if (<test of a held card's colour>) { ops; return … }``: which side runs is the card's, not a player's —
        a ``choose`` of the card's holder (``prose`` ``hidden_card`` says why) with the branch's ops, the card carrying
        the colour the test gives it; what follows the ``if`` has the card with the other colour (kept on the card's
        value itself, so the states it is handed to read it too)."""
        got = self._card_colour(c_node, env)
        if got is None or not self._leaves(then):
            return False
        var, yes, no = got
        v = env[var]
        if not v.text.startswith(("hand:", "deck:")):
            return False                       # (a message's colours are the catalogue's: not this reading)
        env_t = dict(env)
        v_t = _V(v.sort, v.text)
        v_t.filt, v_t.link = yes, v.link
        env_t[var] = v_t
        ops, _stopped = self._collect(lambda: self._block(then, env_t, []))
        if ops:
            self._op({"op": "choose", "of": [ops], "may": True}, cond, s)
        self._op({"op": "prose", "why": "hidden_card", "note": "the colour of a card taken decides (a card's colours "
                  "are not modelled): both sides are open"}, cond, s, read=False)
        if no is not None:
            v.filt = no                        # what follows: the card has the other colour
        return True

    def _answer_test(self, node, env) -> bool:
        """A branch on what the client answered (``message.enable``, ``message is X_tos``, a field of the answer):
        the player's choice between the branches."""
        txt = _t(node)
        if re.search(r"\.targetPlayerId\s*(==|!=)\s*0\b", txt):
            return False
        names = [k for k, v in env.items() if v.sort == "answer"]
        return any(re.search(r"(?<![\w.])" + re.escape(k) + r"(?![\w])", txt) for k in names)

    def _answer_refusal(self, node, env) -> bool:
        """``if (message.f && c) return null``: an answer choosing ``f`` is refused unless ``not c`` — kept as the
        condition of the choice that ``f`` makes (``_choice``). ``c`` must read whole and not name the answer."""
        x = _unparen(_ir(node))
        if x.k != "bin" or x.a[0] != "&&":
            return False
        parts = [_unparen(p) for p in _conjuncts(x)]
        fields, rest = [], []
        for p in parts:
            v = self._term(p, env) if p.k in ("name", "nav") else None
            if v is not None and v.sort == "answer" and v.text:
                fields.append(v.text)
            else:
                rest.append(p)
        if len(fields) != 1 or not rest or any(self._answer_test(p.n, env) for p in rest):
            return False
        cs = [self._cond(p.n, env) for p in rest]
        if any(c is None or "unknown" in c for c in cs):
            return False
        key = (id(self.key[1]), fields[0])
        self.answer_needs[key] = conj([self.answer_needs.get(key, "true"), negate(conj(cs))])
        return True

    def _answer_card_refusal(self, node, env) -> bool:
        """``if (<colour test of a card held> && <a boolean field of the answer, or its negation>) return null``: the
        answer choosing that value of the field is refused unless the card has the other colour — kept for the
        ``choose`` alternative of that value (``_choice``): the card's colour there."""
        parts = [_unparen(p) for p in _conjuncts(_ir(node))]
        if len(parts) != 2:
            return False
        for card_p, ans_p in (parts, parts[::-1]):
            got = self._card_colour(card_p.n, env)
            field = self._answer_field(ans_p.n, env)
            if got is None or field is None or got[2] is None:
                continue
            var, _yes, no = got
            key = (id(self.key[1]), *field)
            if key in self.answer_filts:
                return False
            f = _Filt(no)
            self.answer_filts[key] = (var, f)
            self.pending_filt.append((f, self.key, self.key[1], node))
            return True
        return False

    def _answer_field(self, node, env):
        """(field, value) of ``message.f`` (True) or ``!message.f`` (False), ``message`` the client's answer; else
        None."""
        txt, neg = _strip_not(_t(node))
        m = re.fullmatch(r"(\w+)\.(\w+)", txt)
        if m is None or m.group(1) not in env or env[m.group(1)].sort != "answer" or m.group(2) in ("enable", "show"):
            return None
        return m.group(2), not neg

    @staticmethod
    def _state_conjunct(node, names) -> bool:
        """Whether a refusal test naming the answer or who answers (``names``: their locals) also tests the game
        state: one of its conjuncts (or of their disjuncts) names neither, and is not a null test or a test of the
        player's kind."""
        for p in _conjuncts(_ir(node)):
            for q in _conjuncts(p, "||"):
                t = " ".join(_t(q.n).split())
                if any(re.search(r"(?<![\w.])" + re.escape(k) + r"(?![\w])", t) for k in names):
                    continue
                if re.search(r"\bis\s+(HumanPlayer|RobotPlayer)\b", t) or \
                        re.fullmatch(r"!?\s*\(?[\w.]+\s*(==|===|!=|!==)\s*null\)?", t):
                    continue
                return True
        return False

    def _answer_needs(self, c_node, env) -> list:
        """A choice made by a boolean field of the answer that the state refuses without a condition: [that
        condition] (``_answer_refusal``); else []."""
        v = self._term(_ir(c_node), env) if c_node is not None else None
        if v is not None and v.sort == "answer" and (id(self.key[1]), v.text) in self.answer_needs:
            return [self.answer_needs[(id(self.key[1]), v.text)]]
        return []

    def _choice(self, s, branches, env, cond):
        """The branches of a test of the client's answer as a ``choose`` op (one alternative: ``may``); what follows
        a branch that stops is in that alternative only."""
        alts, stops = [], []
        c_node = s.child_by_field_name("condition") if s.type == "if_expression" else None
        field = self._answer_field(c_node, env) if c_node is not None else None
        for i, b in enumerate(branches[:2]):
            env_b = env
            if field is not None:              # the card's colour when the answer chooses this branch
                got = self.answer_filts.get((id(self.key[1]), field[0], field[1] == (i == 0)))
                if got is not None and got[0] in env:
                    v = env[got[0]]
                    v2 = _V(v.sort, v.text)
                    v2.filt, v2.link, v2.byid, v2.where = got[1], v.link, v.byid, v.where
                    env_b = dict(env)
                    env_b[got[0]] = v2
            ops, stopped = self._collect(lambda b=b, env_b=env_b: self._block(self._stmts(b), env_b, []))
            alts.append(ops)
            stops.append(stopped)
        if len(branches) == 1:
            alts.append([])
            stops.append(False)
        real = [a for a in alts if a]
        if len(real) == 1 and alts[0]:
            cond = cond + self._answer_needs(s.child_by_field_name("condition") if s.type == "if_expression" else None,
                                             env)
        if real:
            op = {"op": "choose", "of": real}
            if len(real) == 1:
                op["may"] = True
            self._op(op, cond, s)
        if all(stops):
            raise _Stop()
        if stops[0] and not alts[0]:
            return cond + [MAY]
        return cond

    def _collect(self, fn):
        """The ops ``fn`` emits, taken out of the reading (their lines dropped): (ops, whether it stopped)."""
        saved_ops, saved_lines = self.rd.ops, self.rd.lines
        self.rd.ops, self.rd.lines = [], []
        stopped = False
        try:
            fn()
        except _Stop:
            stopped = True
        ops = [o for o in self.rd.ops if o.get("op") != "prose" or o.get("note")]
        self.rd.ops, self.rd.lines = saved_ops, saved_lines
        return ops, stopped

    def _no_rule(self, x, owner=None) -> bool:
        """A statement that is no rule: a comment, a log line, a client message, protocol bookkeeping, or a compound
        statement holding only such (``for (p in players) { if (p is HumanPlayer) p.send(…) }``: its normal form, as
        the unread-code comparison makes it, is empty)."""
        owner = owner or self.key[1]
        nm = self._norm(owner)
        if x.type in ("line_comment", "block_comment", "multiline_comment") or nm.dropped(x) or self._protocol(x):
            return True
        if x.type == "call_expression" and _callee_last(x) == FORWARD:
            return True                                  # a message handed on: no effect of the rule's own
        if x.type in ("for_statement", "while_statement", "if_expression", "call_expression"):
            probe = _Norm(owner.src.data, frozenset(), nm.robot_names)     # (a probe: nm's numbering stays as it is)
            probe.builders = set(nm.builders)
            try:
                return probe.stmt(x) == []
            except RecursionError:                                         # pragma: no cover - absurd nesting
                return False
        return False

    def _inert(self, stmts) -> bool:
        """Statements that do nothing a rule says: no rule (log, client message, protocol) or a use count kept."""
        for x in stmts:
            if self._no_rule(x):
                continue
            if x.type == "call_expression" and _callee_last(x) in ("addSkillUseCount", "resetSkillUseCount",
                                                                    "subtractSkillUseCount"):
                continue
            return False
        return True

    def _only_jump(self, stmts, owner) -> bool:
        rest = [x for x in stmts if not self._no_rule(x, owner)]
        return len(rest) == 1 and rest[0].type in ("return_expression", "jump_expression", "throw_expression")

    def _decline_goes_on(self, b) -> None:
        """A declined answer (``if (!message.enable) { …; return X }``) is read as "the player may decline" only when
        play goes on from it: a ``return null`` there leaves the game waiting in the state that asked (the server's
        ``WaitingFsm.resolveProtocol`` returning null keeps the state), which the catalogue cannot say — the
        construct is then not read whole."""
        owner = self.key[1]
        jump = [x for x in self._stmts(b) if not self._no_rule(x, owner)][-1]
        kids = [k for k in _code(jump) if k.type != "label"]
        if jump.type in ("return_expression", "jump_expression") and kids and _t(kids[-1]).strip() == "null":
            self._miss(owner, jump, "a declined answer that leaves the game waiting (returns null)")

    def _jumps(self, b) -> bool:
        return self._only_jump(self._stmts(b), self.key[1])

    def _stmts(self, b) -> list:
        return _stmts(b)

    def _when(self, s, env, cond):
        owner = self.key[1]
        subj = next((c for c in s.named_children if c.type == "when_subject"), None)
        if subj is not None:
            self._miss(owner, s, "a when with a subject")
            return cond
        rest = list(cond)
        for e in (c for c in s.named_children if c.type == "when_entry"):
            kids = _code(e)
            if not kids:
                continue
            body = self._stmts(kids[-1])
            if "else" in {c.type for c in e.children if not c.is_named}:
                try:
                    self._block(body, env, rest)
                except _Stop:
                    pass
                continue
            cs = [self._cond_u(k.named_children[0] if k.type == "when_condition" and k.named_children else k, env)
                  for k in kids[:-1]]
            c = cs[0] if len(cs) == 1 else " or ".join(f"({x})" for x in cs)
            try:
                self._block(body, env, rest + [c])
            except _Stop:
                pass
            rest = rest + [negate(c)]
        return cond

    def _for(self, s, env, cond):
        owner = self.key[1]
        kids = _code(s)
        var = next((k for k in kids if k.type in ("variable_declaration", "identifier")), None)
        coll = next((k for k in kids if k is not var and k.type not in ("control_structure_body", "block")), None)
        body = kids[-1] if kids else None
        if var is None or coll is None or body is None:
            self._miss(owner, s)
            return cond
        who = self._players_set(coll, env)
        name = _t(_kid(var, "identifier") or var)
        if who is None:
            self._miss(owner, s, "a loop over " + _short(coll, 40))
            self._forget_assigned(body, env)
            return cond
        inner = dict(env)
        inner[name] = _V("each", who)
        try:
            self._block(self._stmts(body), inner, cond)
        except _Stop:
            pass
        return cond

    @staticmethod
    def _forget_assigned(body, env):
        """After a loop not read, a local it assigns is no longer the value it was declared with: a flag (``var f =
        false; for (x in l) if (p) { f = true; break }``) is unknown, any other local opaque."""
        stack = [body]
        while stack:
            n = stack.pop()
            if n.type == "assignment":
                left = n.child_by_field_name("left")
                name = _t(left) if left is not None and left.type == "identifier" else ""
                if name in env:
                    env[name] = _V("bool", "unknown") if getattr(env[name], "sort", "") == "bool" else _V("opaque")
            if n.type not in ("lambda_literal", "annotated_lambda"):
                stack.extend(n.named_children)

    def _drain(self, s, env, cond) -> bool:
        """A trigger draining every pending event of its kind: ``while (true) { e = g.findEvent<E>(this) { … } ?:
        break; found = true }`` — it answers when one event passes the guard (the flags set in the loop are then
        true) and goes on with the last one: read as one ``findEvent`` (its guard the trigger's ``when``), ``e`` that
        event. Any other loop is not read."""
        kids = _code(s)
        if self.mode != "trigger" or len(kids) != 2 or _t(kids[0]) != "true":
            return False
        body = self._stmts(kids[1])
        if not body or body[0].type != "assignment":
            return False
        left, right = body[0].child_by_field_name("left"), body[0].child_by_field_name("right")
        if left is None or left.type != "identifier" or right is None or right.type != "binary_expression" or \
                _t(right.child_by_field_name("operator")) != "?:":
            return False
        call, jump = _code(right)[0], _code(right)[-1]
        if jump.type not in ("jump_expression", "identifier") or _t(jump).strip() != "break" or \
                call.type != "call_expression" or \
                "findEvent" not in _t(call).split("{")[0]:
            return False
        flags = []
        for b in body[1:]:
            bl, br = b.child_by_field_name("left"), b.child_by_field_name("right")
            if b.type != "assignment" or bl is None or bl.type != "identifier" or _t(br) != "true":
                return False
            flags.append(_t(bl))
        v = self._value(call, env, cond)
        env[_t(left)] = v or _V("opaque")
        for f in flags:
            env[f] = _V("bool", "true")
        return True

    def _players_set(self, node, env):
        """``g.players`` (every player) or ``….filter { it !== r }`` of it (the others) → all / others."""
        txt = re.sub(r"\s+", "", _t(node))
        if re.fullmatch(r"(\w+(!!)?\.)*(game!!\.)?players(\.filterNotNull\(\))?", txt):
            return "all"
        if re.fullmatch(r"\w+(!!)?\.(game!!\.)?players\.filter\{(it|\w+->\w+)(!!)?\.alive(&&\w+!==\w+)?\}", txt):
            return "all"
        return None

    def _decl(self, s, env, cond):
        owner = self.key[1]
        nm = self._norm(owner)
        vd = _kid(s, "variable_declaration")
        name = _t(_kid(vd, "identifier")) if vd is not None else ""
        init = [c for c in _code(s) if c.type not in ("modifiers", "variable_declaration")]
        value = init[-1] if init else None
        if value is None:
            env[name] = _V("opaque")
            return cond
        if nm.is_builder(value):
            nm.builders.add(name)
            return cond
        m = re.fullmatch(r"\s*(\w+\.)?fsm\s+as\?\s*(\w+)\s*", _t(value))
        if m and self.mode == "trigger" and m.group(2) in STATE_EVENTS and not self.started and not self.when_parts:
            kind = EV.EVENT_KINDS[STATE_EVENTS[m.group(2)]]    # `val fsm = g.fsm as? X`, tested for null next
            self._bind_kind(kind)
            self.fields.update({"askWhom": "self"})
            self.when_parts.append([])
            self.rd.when_lines.append(self.key[1].src.at(s))
            self.rd.when_kinds.append(kind.key)
            env[name] = _V("event", kind.key)
            return cond
        if value.type == "binary_expression" and _t(value.child_by_field_name("operator")) == "?:":
            kids = _code(value)
            m = re.fullmatch(r"\s*(\w+\.)?fsm\s+as\?\s*(\w+)\s*", _t(kids[0])) if kids else None
            if m and self.mode == "trigger" and m.group(2) in STATE_EVENTS and not self.started and \
                    not (self.when_parts and STATE_EVENTS[m.group(2)] == "receive_phase"):
                kind = EV.EVENT_KINDS[STATE_EVENTS[m.group(2)]]
                self._bind_kind(kind)
                self.fields.update({"askWhom": "self"})
                self.when_parts.append([])
                self.rd.when_lines.append(self.key[1].src.at(s))
                self.rd.when_kinds.append(kind.key)
                env[name] = _V("event", kind.key)
                return cond
            if m:
                env[name] = _V("fsmobj", m.group(2), cls=m.group(2))
                return cond
            if len(kids) == 2 and kids[1].type in ("return_expression", "jump_expression", "throw_expression"):
                env[name] = self._value(kids[0], env, cond) or _V("opaque")
                return cond
        picked = self._player_by_test(value, env)
        if picked is not None:
            env[name], c = picked
            return cond + [c]
        listed = self._chosen_list(value, env) or self._built_list(value, env)
        if listed is not None:
            env[name] = listed
            return cond
        v = self._value(value, env, cond)
        if v is None or v.sort == "opaque":
            v = self._pure_value(value, env) or v
        if (v is None or v.sort == "opaque") and _t(s).lstrip().startswith("val") and self._pure(value) and \
                value.type in _BOOL_EXPRS:
            v = _V("boolexpr", node=value)           # a test kept in a local: read where it is tested
        env[name] = v or _V("opaque")
        return cond

    def _player_by_test(self, value, env):
        """``val p = if (c) a else b`` over two players of the moment: a player the rule picks by a test it reads —
        a free ``chosen`` word, with what pins it down (``c and chosen == a or not c and chosen == b``) as a
        condition of everything after it. None when it is not that."""
        if value.type != "if_expression":
            return None
        c_node = value.child_by_field_name("condition")
        branches = [b for b in _code(value) if b != c_node]
        if c_node is None or len(branches) != 2 or not self._pure(value):
            return None
        sides = []
        for b in branches:
            stmts = self._stmts(b)
            if len(stmts) != 1:
                return None
            v = self._term_node(stmts[0], env)
            if v is None or v.sort not in ("self", "player") or v.text in ("chosen", "chosen2"):
                return None
            sides.append(v.text)
        word = next((w for w in ("chosen", "chosen2") if w not in self.chosen), None)
        if word is None:
            return None
        tr = self._translator(env, "do" if self.mode != "trigger" or self.started else "on")
        t = tr.bool(self._fold_fsm(_ir(c_node), env))
        if tr.missed or "unknown" in t.text:
            return None
        self.chosen.append(word)
        a, b = sides
        return _V("player", word), f"((({t.text}) and {word} == {a}) or (not ({t.text}) and {word} == {b}))"

    def _pure_value(self, node, env):
        """A local holding a condition, an amount or a player: its translation (None when it has none)."""
        if not self._pure(node):
            return None
        tr = self._translator(env, "do")
        t = tr.tx(_ir(node))
        if t is not None and not tr.missed and t.sort in ("bool", "int", "player", "self", "card", "colours",
                                                          "mcard", "hand", "msgs"):
            return _V(t.sort, t.text)
        return None

    def _assign(self, s, env, cond):
        owner = self.key[1]
        left, right = s.child_by_field_name("left"), s.child_by_field_name("right")
        if left is None or right is None:
            self._miss(owner, s)
            return
        lx = _ir(left)
        if lx.k == "nav":
            obj = self._term(lx.a[0], env)
            field = lx.a[1]
            if field == "valid" and obj is not None and obj.sort in ("event", "fsmobj") and _t(right) == "false":
                self._op({"op": "cancel"}, cond, s)
                return
            if field == "roleFaceUp" and obj is not None and obj.sort in ("self", "player"):
                val = _t(right)
                if val in ("true", "false"):
                    self._op({"op": "flip", "who": obj.text, "face": "up" if val == "true" else "down"}, cond, s)
                    return
            if field == "isMessageCardFaceUp" and obj is not None and obj.sort in ("fsmobj", "event"):
                self._message_face(right, env, cond, s)
                return
            if field == "skills" and obj is not None and obj.sort in ("self", "player", "each"):
                op_node = s.child_by_field_name("operator")
                rx = _unparen(_ir(right))
                if op_node is not None and _t(op_node) == "+=" and rx.k == "call" and rx.a[0].k == "name":
                    self._grant(rx.a[0].a[0], obj.text, cond, s)
                    return
                if re.search(r"filterNot\s*\{[^}]*(===?\s*this|this\s*===?|skillId\s*==|\bis\s+\w+)", _t(right)):
                    return                            # it removes itself: ``consumed``, read by the extractor
        if lx.k == "nav" and self._robot_member(lx.a[1]):
            return                                    # a member only robots read (a robot's statistics)
        if lx.k == "name" and lx.a[0] in env:
            v = self._value(right, env, cond)
            env[lx.a[0]] = v or _V("opaque")
            return
        self._miss(owner, s)

    # --------------------------------------------------------------------------------------------- values
    def _find_event(self, n, x, env, cond):
        """``g.findEvent<E>(this) { e -> guard }``: the guard is the trigger's ``when``; the event is bound."""
        ta = _kid(n.named_children[0], "type_arguments") if n.named_children and \
            n.named_children[0].type == "call_expression" else _kid(n, "type_arguments")
        cls = _t(ta).strip("<> ") if ta is not None else ""
        kind = next((k for k in EV.EVENT_KINDS.values() if k.server == cls), None)
        if kind is None:
            self._miss(self.key[1], n, "an event the catalogue does not know")
            return None
        idx = len(self.when_parts)
        on = self.on[idx] if isinstance(self.on, list) and idx < len(self.on) and isinstance(self.on[idx], dict) \
            else {}
        self.holder_role = on.get("whose") if isinstance(on.get("whose"), str) else None
        self.when_parts.append([])
        self.rd.when_lines.append(self.key[1].src.at(n))
        self.rd.when_kinds.append(kind.key)
        self._bind_kind(kind)
        lam = x.a[2]
        if lam is None and n.named_children and n.named_children[-1].type == "annotated_lambda":
            lam = _kid(n.named_children[-1], "lambda_literal")
        names, stmts = _lambda_parts(lam) if lam is not None else ([], [])
        inner = dict(env)
        inner[names[0] if names else "it"] = _V("event", kind.key)
        self.when_parts[idx].extend(self._guard_parts(stmts, inner, env))
        return _V("event", kind.key)

    def _guard_parts(self, stmts, inner, env) -> list:
        """The conditions of a findEvent guard lambda's statements (``c || return@findEvent false``, ``if (c) return
        …``, the last expression), in order. A local picked by a ``when`` whose ``else`` rejects the event (``t = when
        { a -> x; b -> y; else -> return@findEvent false }``) is a case split: the guard needs one of the cases
        (``a or b``), and each statement after it that reads differently in the cases is ``if a then … else …``."""
        parts: list = []
        for i, s in enumerate(stmts):
            if s.type == "binary_expression" and _t(s.child_by_field_name("operator")) in ("||", "&&") and \
                    len(_code(s)) == 2 and _code(s)[1].type in ("return_expression", "jump_expression"):
                a, _b = _code(s)
                c = self._cond_u(a, inner)
                parts.append(c if _t(s.child_by_field_name("operator")) == "||" else negate(c))
            elif s.type == "if_expression":
                cn = s.child_by_field_name("condition")
                parts.append(negate(self._cond_u(cn, inner)) if cn is not None else "unknown")
            elif s.type == "property_declaration":
                self._decl(s, inner, [])
            elif s.type == "assignment" and self._pick(s, inner) is not None:
                name, cases = self._pick(s, inner)
                env[name] = _V("opaque")                 # after the guard: which case held is not kept
                conds = [c for c, _v in cases]
                parts.append(" or ".join(c if _atomic(c) else f"({c})" for c in conds))
                per_case = []
                for _c, v in cases:
                    env_i = dict(inner)
                    env_i[name] = v
                    per_case.append(self._guard_parts(stmts[i + 1:], env_i, {}))
                for texts in zip(*per_case):
                    if len(set(texts)) == 1:
                        parts.append(texts[0])
                        continue
                    par = lambda t: t if _atomic(t) else f"({t})"
                    out = texts[-1]
                    for c, t in reversed(list(zip(conds[:-1], texts[:-1]))):
                        out = f"if {c} then {par(t)} else {par(out)}"
                    parts.append(out)
                return parts
            elif s.type == "assignment":                # a value set in the guard: not followed here
                left = s.child_by_field_name("left")
                if left is not None and left.type == "identifier":
                    inner[_t(left)] = _V("opaque")
                    env[_t(left)] = _V("opaque")
                self._miss(self.key[1], s)
                parts.append("unknown")
            elif s is not stmts[-1] and s.type not in ("assignment",) and self._pure(s):
                continue                            # a value computed and dropped: it decides nothing
            elif s is stmts[-1]:
                parts.append(self._cond_u(s, inner))
            else:
                self._miss(self.key[1], s)
                parts.append("unknown")
        return parts

    def _pick(self, s, env):
        """``name = when { c1 -> p1; …; else -> return@findEvent false }`` (no subject, each value a player the walk
        knows): (name, [(condition, player value), …]); else None."""
        left, right = s.child_by_field_name("left"), s.child_by_field_name("right")
        if left is None or left.type != "identifier" or right is None or right.type != "when_expression" or \
                any(c.type == "when_subject" for c in right.named_children):
            return None
        cases, rejected = [], False
        for e in (c for c in right.named_children if c.type == "when_entry"):
            kids = _code(e)
            if not kids:
                return None
            body = self._stmts(kids[-1])
            if "else" in {c.type for c in e.children if not c.is_named}:
                if len(body) != 1 or body[0].type not in ("return_expression", "jump_expression") or \
                        _t(body[0]).split()[-1] != "false":
                    return None
                rejected = True
                continue
            if len(kids) != 2 or len(body) != 1:
                return None
            v = self._term(_ir(body[0]), env)
            if v is None or v.sort not in ("self", "player"):
                return None
            k = kids[0].named_children[0] if kids[0].type == "when_condition" and kids[0].named_children else kids[0]
            c = self._cond(k, env)
            if c is None or "unknown" in c:
                return None
            cases.append((c, v))
        return (_t(left), cases) if cases and rejected else None

    def _bind_kind(self, kind):
        self.kind = kind
        self.fields = {r.server: r.name for r in kind.all_roles}
        if kind.key in ("receive", "receive_phase"):
            self.fields.setdefault("inFrontOfWhom", "receiver")
        self.words = dict(kind.word_types)
        self.players = X.players_of(tuple(self._on_objs()))

    def _on_objs(self):
        class _O:
            def __init__(self, k):
                self.kind = k
        return [_O(self.kind)] if self.kind is not None else []

    # --------------------------------------------------------------------------------------------- helpers
    def _translator(self, env, context):
        names = {}
        for k, v in env.items():
            if v.sort in ("self", "player", "event", "game", "mcard", "int", "bool", "card", "colours"):
                names[k] = _T(v.sort, v.text)
            elif v.sort == "fsmobj":
                names[k] = _T("fsmobj", "")
            elif v.sort == "colour" and v.text in self.params:
                names[k] = _T("colour", v.text)
            elif v.sort == "cardval" and v.named:
                names[k] = _T("namedcard", v.named)          # a message card an op named (``as``)
            elif v.sort == "boolexpr" and not getattr(self, "_in_boolexpr", False):
                self._in_boolexpr = True                     # a test kept in a local: its translation, if whole
                try:
                    sub = self._translator({a: b for a, b in env.items() if a != k}, context)
                    t = sub.bool(_ir(v.node))
                    if not sub.missed and t is not None and "unknown" not in t.text:
                        names[k] = _T("bool", t.text if _atomic(t.text) else f"({t.text})")
                finally:
                    self._in_boolexpr = False
        tr = CondTranslator(self.ex, context, self.key[1] if self.key else self.c, names, self.fields, self.words,
                            self.players)
        tr.const_cards = self._const_cards if self.key else None
        tr.holder_role = getattr(self, "holder_role", None)       # the event's role the asked player is (``whose``)
        return tr

    def _cond(self, node, env):
        """A condition's text; None for a test of the game state (the rule's windows, read from the same test by
        ``bodies._phase_types``)."""
        txt = _t(node)
        if self.mode == "trigger":                  # the state an event happened in is the event's, not a window
            txt = re.sub(r"\(\s*(\w+)\s*\.\s*currentFsm\s+as\?\s*\w*FightPhaseIdle\s*\)",
                         lambda m: "(event_state)" if (env.get(m.group(1)) is not None and
                                                       env[m.group(1)].sort == "event") else m.group(0), txt)
        ban = re.fullmatch(r"\s*(\w+)\.cannotPlayCard\((\w*(type|cardType|\w+))\)\s*", txt)
        if ban and self.mode == "card":
            who = env.get(ban.group(1))
            if who is not None and who.sort == "self" and ban.group(2) in ("type", self.cid):
                self.ban_seen = True                 # the user's bans on this very card
            else:
                self._miss(self.key[1], node, "a ban test of another player or card type")
            return None
        if _BANS.search(txt):
            self.ban_seen = True
            return None
        if _WINDOW.search(txt) or self.mode != "trigger" and _WINDOW_ACTOR.search(txt) or ban:
            return None
        m = re.fullmatch(r"\s*(\w+)\.targetPlayerId\s*(==|!=)\s*0\s*", txt)
        if m and env.get(m.group(1)) is not None and env[m.group(1)].sort == "answer":
            word = "target" if self.mode != "trigger" else "chosen"
            return f"{word} {m.group(2)} self"
        x = _ir(node)
        x = self._fold_fsm(x, env)
        tr = self._translator(env, "do" if self.mode != "trigger" or self.started else "on")
        t = tr.bool(x)
        if tr.missed:
            self._miss(self.key[1], node, "condition " + _short(node, 50))
        return t.text

    def _beyond_window(self, node, env, refused_if_true: bool):
        """A refusal of the use on a test of the game state (``_cond`` gives None: the rule's windows) that tests more
        than the windows and their actor — a field of the state other than the player it asks (``r ===
        fsm.inFrontOfWhom``: the player the message lies in front of may not), or the asked player barred rather than
        required. None when it tests only the state's type, that there is one, and that the user is the player the
        state asks (the windows say that much). Else the test translated, the state's players bound (``front``,
        ``turn_player``, ``sender``, ``dying``), when it translates whole — a condition of the use like any other; and
        when it does not, the construct is marked not read (a change there is named, UNR001) and None is returned.
        Cards and ActiveSkills only (a trigger's state is its event's)."""
        if self.mode not in ("card", "active") or not self.in_entry or self.started:
            return None
        txt = _t(node)
        if not (_WINDOW.search(txt) or _WINDOW_ACTOR.search(txt)) or _BANS.search(txt) or "cannotPlayCard" in txt:
            return None                                  # not a test of the state (a ban: read elsewhere)
        if self._only_window(_ir(node), env, not refused_if_true):
            return None
        tr = self._translator(env, "do")
        tr.state_casts = True
        t = tr.bool(_ir(node))
        if tr.missed or t is None or "unknown" in t.text:
            self._miss(self.key[1], node, "a test of the game state beyond the windows: " + _short(node, 50))
            return None
        return t.text

    def _only_window(self, x, env, neg: bool) -> bool:
        """Whether the refusal test ``x`` (the use refused when it holds; ``neg``: when it fails) is made of tests of
        the state's type, null tests, and tests that the user is the player the state asks, each refusing a user who
        is not that player."""
        x = _unparen(x)
        if x.k == "un" and x.a[0] == "!":
            return self._only_window(x.a[1], env, not neg)
        if x.k == "bin" and x.a[0] in ("&&", "||"):
            return self._only_window(x.a[1], env, neg) and self._only_window(x.a[2], env, neg)
        if x.k == "is" or x.k == "other" and x.n is not None and x.n.type == "as_expression":
            return True
        if x.k != "bin" or x.a[0] not in ("==", "!=", "===", "!=="):
            return False
        a, b = _unparen(x.a[1]), _unparen(x.a[2])
        if a.k == "null" or b.k == "null":
            return True
        if b.k == "name" and env.get(b.a[0]) is not None and env[b.a[0]].sort == "self":
            a, b = b, a
        if a.k != "name" or env.get(a.a[0]) is None or env[a.a[0]].sort != "self" or b.k != "nav":
            return False
        refuses_other = x.a[0].startswith("!") != neg      # refused when the user is not that player
        if not refuses_other:
            return False
        field = b.a[1]
        if self.mode == "active":
            return field in _SKILL_ACTOR_FIELDS
        state = self._state_of(b.a[0], env)
        return field == _ACTOR_FIELD.get(state) if state else field in _ACTOR_FIELD.values()

    def _state_of(self, x, env):
        """The game state class an object of a test stands for (``(g.fsm as? X)``, a local bound to one), or None."""
        x = _unparen(x)
        if x.k == "other" and x.n is not None and x.n.type == "as_expression":
            m = re.search(r"as\?\s*(\w+)\s*$", _t(x.n))
            return m.group(1) if m else None
        if x.k == "name":
            v = env.get(x.a[0])
            cls = getattr(v, "cls", None) if v is not None else None
            return cls if isinstance(cls, str) else None
        return None

    def _cond_u(self, node, env) -> str:
        """``_cond``, a test of the game state being ``unknown`` (not read here)."""
        c = self._cond(node, env)
        if c is None:
            self._miss(self.key[1], node, "a test of the game state")
            return "unknown"
        return c

    def _fold_fsm(self, x, env):
        return x

    def _is_answer_check(self, node, env) -> bool:
        """A check of the client's answer or of who answers (``player !== r``, ``message !is X``, a card the answer
        names being in a hand): protocol, not a rule."""
        txt = _t(node)
        if re.search(r"\.targetPlayerId\s*(==|!=)\s*0\b", txt):
            return False
        m = re.fullmatch(r"\s*([\w.]+)\s*!==?\s*([\w.]+)\s*", txt)
        if m:
            a = env.get(m.group(1)) if "." not in m.group(1) else self._term(_ir(node).a[1], env)
            b = env.get(m.group(2)) if "." not in m.group(2) else self._term(_ir(node).a[2], env)
            if a is not None and b is not None and {a.sort, b.sort} & {"answerer"} and a.sort != b.sort:
                who, other = (m.group(1), b) if a.sort == "answerer" else (m.group(2), a)
                if "." not in who:
                    env[who] = other                # who answers is that player from here on
                return True
        m = re.fullmatch(r"\s*(\w+)\s*!=\s*\w+\.cardIdsCount\s*", txt) or \
            re.fullmatch(r"\s*\w+\.cardIdsCount\s*!=\s*(\w+)\s*", txt)
        if m and m.group(1) in env:
            self.answer_count = env[m.group(1)]
        names = [k for k, v in env.items() if v.sort in ("answer", "answerer")]
        if any(re.search(r"(?<![\w.])" + re.escape(k) + r"(?![\w])", txt) for k in names):
            if re.search(r"\b(enable)\b", txt):
                return False
            return True
        if re.search(r"\bis\s+HumanPlayer\b", txt):
            return True
        if re.fullmatch(r"\s*!?\s*\w+\s*(==|===|!=|!==)\s*null\s*", txt):
            return True
        return False

    def _answer_vs_value(self, node, env) -> bool:
        """A test of the answer against a local or a property of the rule that holds no player and is not the count
        the answer must have (``answer_count``: read)."""
        txt = _t(node)
        if not re.search(r"(==|!=|<=|>=|<|>|\bin\b)", txt) or re.search(r"\bnull\b", txt):
            return False
        answers = [k for k, v in env.items() if getattr(v, "sort", None) == "answer"]
        if not any(re.search(r"(?<![\w.])" + re.escape(k) + r"(?![\w])", txt) for k in answers):
            return False
        for name in re.findall(r"(?<![\w.])([a-z]\w*)(?![\w(])", txt):
            v = env.get(name)
            if v is None or not hasattr(v, "sort") or v.sort in ("answer", "answerer", "self", "player", "each",
                                                                   "cardval"):
                continue
            if v is getattr(self, "answer_count", None):
                continue
            return True
        return False

    def _refuses_expected(self, node, branch, env) -> bool:
        """A refusal (the branch returns null: the game keeps waiting) when the answer is of a protocol type
        (``message is X``), when the answerer is a player of the rule (``player === r``), or on a test negated
        whole (``!(…)``) — the opposite of the checks a handler makes."""
        jump = [x for x in self._stmts(branch) if not self._no_rule(x)]
        kids = [k for k in _code(jump[-1]) if k.type != "label"] if jump else []
        if not (jump and jump[-1].type in ("return_expression", "jump_expression") and kids and
                _t(kids[-1]).strip() == "null"):
            return False
        txt = " ".join(_t(node).split())
        if re.search(r"\b(HumanPlayer|RobotPlayer)\b", txt):
            return False
        if txt.startswith("!(") or re.fullmatch(r"[\w.]+ is \w+", txt):
            return True
        m = re.fullmatch(r"([\w.]+) ===? ([\w.]+)", txt)
        if m and "null" not in m.groups():
            a, b = (env.get(g) if "." not in g else None for g in m.groups())
            return a is not None and b is not None and "answerer" in (a.sort, b.sort) and a.sort != b.sort
        return False

    def _is_enable(self, node, env):
        txt = re.sub(r"\s+", "", _t(node))
        names = [k for k, v in env.items() if v.sort == "answer"]
        for k in names:
            if txt in (f"!{k}.enable", f"!{k}.show"):
                return True
        return None

    def _op(self, op: dict, cond, node, read=True):
        """Record an op with its condition (``if``) and line; the first op ends the conditions of the use."""
        if op.get("op") != "prose":
            self.started = True
        elif not read:
            self._miss(self.key[1], node)
        c = conj([x for x in cond if x is not MAY])
        if c != "true" and op.get("op") != "prose":
            op["if"] = c
        if any(x is MAY for x in cond) and op.get("op") != "prose":
            op["may"] = True
        self.rd.ops.append(op)
        self.rd.lines.append(self.key[1].src.at(node))
