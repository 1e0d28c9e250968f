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
from .. import expr as E
from .. import vocab as V
from .bodies import _T
from .conds import CondTranslator, conj, negate, normalise
from .normal import _Norm
from .server import CARD_ENUM
from .syntax import _X, _code, _fn_params, _ir, _kid, _kids, _lambda_parts, _name_of, _short, _t, _unparen, _value_args

#: old game states a trigger reads instead of an event (``g.fsm as? X``), by the event kind they stand for
STATE_EVENTS = {"ReceivePhaseSenderSkill": "receive", "ReceivePhaseReceiverSkill": "receive",
                "ReceivePhaseSkill": "receive", "ReceivePhase": "receive", "OnUseCard": "use_card",
                "OnFinishResolveCard": "card_resolved", "OnSendCard": "send", "OnSendCardSkill": "send",
                "OnChooseReceiveCard": "choose_receive", "OnGiveCard": "give_card", "OnDiscardCard": "discard",
                "OnAddMessageCard": "add_message", "DieSkill": "die", "SendPhaseStart": "send_phase_start",
                "MessageMoveNext": "move"}
#: the engine's card resolution states: their lambdas and next state are followed, their card is the card in use
RESOLUTION_STATES = frozenset({"ResolveCard", "OnUseCard", "OnFinishResolveCard"})
#: events the server raises (``g.addEvent(XEvent(…))``) or old states that stood for them, → (kind, principal arg)
RAISED = {k.server: k.key for k in EV.EVENT_KINDS.values() if k.is_event}
OLD_RAISED = {"OnGiveCard": "give_card", "OnDiscardCard": "discard", "OnAddMessageCard": "add_message"}
#: states that end the turn / skip to a phase
END_TURN = frozenset({"NextTurn"})
#: statements of the protocol, never a rule: checks of the client's message and of whose answer it is
_PROTO_NAMES = re.compile(r"seq|timeout|waitingSecond|timeoutSecond|waitSecond")
_MAX_DEPTH = 6
_FUN = re.compile(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(\w+)")
#: the bans of older code, kept in the game (read as the catalogue's bans and ``plays.checks_bans``)
_BANS = re.compile(r"\b(diaoHuLiShanPlayers|jinBiPlayer|qiangLingTypes)\b")
#: in a condition list: the player may decline what follows (the client answered "no": ``!message.enable``)
MAY = type("May", (str,), {})("may")
#: a test of the game state (``g.fsm as? MainPhaseIdle``, ``fsm is FightPhaseIdle``): the rule's windows, which the
#: extractor reads from the same test (``bodies._phase_types``)
_WINDOW = re.compile(r"\bfsm\b\s*(as\?|is|!is)\s|\bfsm\s+as\?\s|as\?\s*\w*(Phase|Idle|ChengQing)\w*")
#: … and, for an ActiveSkill or a card, a test that the user is the player the window asks (``r !== fsm.whoseFightTurn``)
_WINDOW_ACTOR = re.compile(r"^\s*\w+\s*!==?\s*\w+\??\.(whoseFightTurn|inFrontOfWhom|whoseTurn)\s*$|^\s*\w+\s*==\s*null\s*\|\|")


class _V(_T):
    """A value of the walk: a ``_T`` (its sort and text in the condition language) with what the walk needs
    beyond it — a node (a lambda, a state built), a class, the environment it was made in."""
    __slots__ = ("node", "cls", "env", "pos", "filt")

    def __init__(self, sort, text="", node=None, cls=None, env=None, pos=0):
        super().__init__(sort, text)
        self.node, self.cls, self.env, self.pos = node, cls, env, pos
        self.filt = None               # a card's colour constraint (effects.COLOUR_FILTERS), from a check of it


class _Stop(Exception):
    """The rest of a block is not reached (a return, a throw)."""


class Reading:
    """What one walk read: ``do`` (op dicts as written to TOML), ``requires`` / ``when`` (condition texts), the Kotlin
    line of each op and condition, and the constructs walked with whether each was read whole."""

    def __init__(self):
        self.ops: list = []
        self.lines: list = []
        self.conds: list = []
        self.cond_lines: list = []
        self.cond_keys: list = []      # the construct each condition stands in
        self.reads: dict = {}
        self.whens: list = []          # a trigger's guard per event it answers (findEvent / a state read), in order
        self.when_lines: list = []
        self.when_kinds: list = []
        self.used = False              # addSkillUseCount: a use limit
        self.flips = False
        self.untranslated: list = []   # (where, text)


class EffectReader:
    """Mixed into the extractor: ``_read_effect`` walks one skill or card class (needs ClassIndex, RuleBodies)."""

    def _read_effect(self, c, mode: str, on: list | None = None, cid: str | None = None) -> Reading:
        """``mode``: trigger | active | card. ``on``: the trigger's entries (their ``when`` is filled in)."""
        w = _Walker(self, c, mode, on or [], cid)
        try:
            w.run()
        except RecursionError:                                   # pragma: no cover - deep code
            w.rd.untranslated.append((c.at(), "too deep"))
            for k in w.rd.reads:
                w.rd.reads[k] = False
        return w.rd


class _Walker:
    def __init__(self, ex, c, mode, on, cid):
        self.ex, self.c, self.mode, self.on, self.cid = ex, c, mode, on, cid
        self.rd = Reading()
        self.started = False           # an effect happened: guards now condition the ops that follow
        self.stack: list = []          # functions being walked (no recursion)
        self.chosen: list = []         # player words handed out to the client's choices
        self.norms: dict = {}
        self.key = None                # the construct being walked
        self.kind = None               # the trigger's event kind (for its players)
        self.fields: dict = {}
        self.words: dict = {}
        self.players = X.players_of(())
        self.when_parts: list = []
        self.answer_count = None       # how many cards the client's answer must name (a check of its size)
        self.arg_words: dict = {}      # a card's ``args[i]``: the player or choice it stands for
        self.in_entry = True           # walking the entry point (not a state the client answers in): its guards
                                       # before the first effect are the use's (or trigger's) conditions

    # ------------------------------------------------------------------------------------------ entries
    def run(self):
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
                self.run()
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
            for name in ("canUse", "execute"):
                for owner, fd in self._own_funcs(c, name):
                    env = self._params(fd, {"Game": _V("game"), "Player": _V("self", "self")})
                    self._walk_fn(owner, fd, env)
                    if name == "canUse":
                        self.started = False

    def _own_funcs(self, c, name):
        """The class's own function (or the nearest superclass's) of that name, with the one that takes the
        most parameters first when it is overloaded."""
        for x in self.ex.super_chain(c):
            fds = x.functions(name)
            if fds:
                return [(x, fds[0])]
        return []

    def _params(self, fd, by_type: dict) -> dict:
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
            for s in stmts:
                cond = self._stmt(s, inner, cond)
        finally:
            for k in env:
                if inner.get(k) is not env[k] and inner.get(k) is not None:
                    env[k] = inner[k]

    def _stmt(self, s, env, cond):
        """Walk one statement; returns the condition the statements after it run under."""
        owner = self.key[1]
        nm = self._norm(owner)
        t = s.type
        if t in ("line_comment", "block_comment", "multiline_comment"):
            return cond
        if nm.dropped(s) or self._protocol(s):
            return cond
        if t == "if_expression":
            return self._if(s, env, cond)
        if t == "when_expression":
            return self._when(s, env, cond)
        if t in ("return_expression", "throw_expression"):
            kids = _code(s)
            if kids and t == "return_expression":
                self._value(kids[0], env, cond, returning=True)
            raise _Stop()
        if t == "jump_expression":
            word = _t(s).split("@")[0].split()[0] if _t(s) else ""
            if word.startswith("return"):
                kids = [k for k in _code(s) if k.type != "label"]
                if kids:
                    self._value(kids[-1], env, cond, returning=True)
            raise _Stop()
        if t == "binary_expression":
            op = _t(s.child_by_field_name("operator")) if s.child_by_field_name("operator") else ""
            kids = _code(s)
            if op in ("||", "&&") and len(kids) == 2 and kids[1].type in ("return_expression", "jump_expression",
                                                                          "throw_expression"):
                if self._card_check(kids[0], env, op == "&&"):
                    return cond
                c = self._cond(kids[0], env)
                if self._is_answer_check(kids[0], env):
                    return cond
                if c is None:
                    return cond
                keep = c if op == "||" else negate(c)
                return self._guard(keep, cond, s, env, kids[1])
            if op == "?:" and len(kids) == 2 and kids[1].type in ("return_expression", "jump_expression",
                                                                   "throw_expression"):
                self._value(kids[0], env, cond)
                return cond
        if t == "property_declaration":
            return self._decl(s, env, cond)
        if t in ("for_statement",):
            return self._for(s, env, cond)
        if t == "assignment":
            self._assign(s, env, cond)
            return cond
        if t in ("postfix_expression", "unary_expression"):
            target = _code(s)[0] if _code(s) else None
            if target is not None and self._robot_member(_t(target).split(".")[-1]):
                return cond
            self._miss(owner, s)
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

    def _guard(self, keep: str, cond, node, env, jump):
        """``keep`` must hold for what follows; the jump's own value (a state returned) happens otherwise."""
        kids = [k for k in _code(jump) if k.type != "label"]
        if kids:
            self._value(kids[-1], env, cond + [negate(keep)], returning=True)
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
        if self._is_answer_check(c_node, env) and len(branches) == 1 and self._jumps(branches[0]):
            return cond
        if self._is_enable(c_node, env) is not None and len(branches) == 1 and self._jumps(branches[0]):
            return cond + [MAY]                                # the player may decline: what follows is optional
        if self._answer_test(c_node, env) and branches and not (len(branches) == 1 and self._jumps(branches[0])):
            return self._choice(s, branches, env, cond)
        then = self._stmts(branches[0]) if branches else []
        els0 = self._stmts(branches[1]) if len(branches) > 1 else []
        if self._inert(then) and self._inert(els0):
            return cond                                  # neither side does anything: the test decides nothing
        c = self._cond(c_node, env)
        if c is None:
            if len(branches) == 1 and self._jumps(branches[0]):
                return cond
            self._miss(owner, c_node, "a branch on the game state")
            c = "unknown"
        els = self._stmts(branches[1]) if len(branches) > 1 else None
        if els is None and then and self._only_jump(then, owner) and self._card_check(c_node, env, True):
            return cond
        if els is None and then and self._only_jump(then, owner):
            jump = [x for x in then if not (nm.dropped(x) or x.type in ("line_comment", "block_comment"))]
            return self._guard(negate(c), cond, s, env, jump[-1] if jump else then[-1])
        stopped_then = stopped_else = False
        saved = self.started
        try:
            self._block(then, env, cond + [c])
        except _Stop:
            stopped_then = True
        if els is not None:
            try:
                self._block(els, env, cond + [negate(c)])
            except _Stop:
                stopped_else = True
        if self.started and not saved and not stopped_then and els is None:
            pass
        if stopped_then and stopped_else:
            raise _Stop()
        if stopped_then:
            return cond + [negate(c)]
        if stopped_else:
            return cond + [c]
        return cond

    def _card_check(self, node, env, negated: bool) -> bool:
        """A check of a card the rule takes (``if (!card.isBlack()) return``): the card's colour constraint, kept on
        its value for the op that moves it. ``negated``: the test says when to stop (so the card is its negation)."""
        txt = re.sub(r"\s+", "", _t(node))
        neg = negated
        while txt.startswith("!"):
            neg, txt = not neg, txt[1:]
        if txt.startswith("(") and txt.endswith(")"):
            txt = txt[1:-1]
            while txt.startswith("!"):
                neg, txt = not neg, txt[1:]
        tests = [(r"(\w+)\.isPureBlack\(\)", ("pure_black", None)),
                 (r"(\w+)\.isBlack\(\)", ("black", "non_black")),
                 (r"(\w+)\.colors\.contains\((?:color\.)?Black\)", ("black", "non_black")),
                 (r"(?:color\.)?Black(?:in)(\w+)\.colors", ("black", "non_black")),
                 (r"(\w+)\.colors\.size==2", ("two_colours", None)),
                 (r"(\w+)\.colors\.contains\((?:color\.)?Red\)", ("red", None)),
                 (r"(\w+)\.colors\.contains\((?:color\.)?Blue\)", ("blue", None))]
        txt = txt.replace("in", "in", 1)
        for pat, (yes, no) in tests:
            m = re.fullmatch(pat, txt)
            if m and m.group(1) in env and env[m.group(1)].sort == "cardval":
                f = no if neg else yes
                if f is None:
                    return False
                v = env[m.group(1)]
                v2 = _V(v.sort, v.text)
                v2.filt = f
                env[m.group(1)] = v2
                return True
        return False

    def _answer_test(self, node, env) -> bool:
        """A branch on what the client answered (``message.enable``, ``message is X_tos``, a field of the answer):
        the player's choice between the branches."""
        txt = _t(node)
        if re.search(r"\.targetPlayerId\s*(==|!=)\s*0\b", txt):
            return False
        names = [k for k, v in env.items() if v.sort == "answer"]
        return any(re.search(r"(?<![\w.])" + re.escape(k) + r"(?![\w])", txt) for k in names)

    def _choice(self, s, branches, env, cond):
        """The branches of a test of the client's answer as a ``choose`` op (one alternative: ``may``); what follows
        a branch that stops is in that alternative only."""
        alts, stops = [], []
        for b in branches[:2]:
            ops, stopped = self._collect(lambda b=b: self._block(self._stmts(b), env, []))
            alts.append(ops)
            stops.append(stopped)
        if len(branches) == 1:
            alts.append([])
            stops.append(False)
        real = [a for a in alts if a]
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

    def _inert(self, stmts) -> bool:
        """Statements that do nothing a rule says: no rule (log, client message, protocol) or a use count kept."""
        nm = self._norm(self.key[1])
        for x in stmts:
            if x.type in ("line_comment", "block_comment") or nm.dropped(x) or self._protocol(x):
                continue
            if x.type == "call_expression" and _callee_last(x) in ("addSkillUseCount", "resetSkillUseCount",
                                                                    "subtractSkillUseCount"):
                continue
            return False
        return True

    def _only_jump(self, stmts, owner) -> bool:
        nm = self._norm(owner)
        rest = [x for x in stmts if x.type not in ("line_comment", "block_comment") and not nm.dropped(x)]
        return len(rest) == 1 and rest[0].type in ("return_expression", "jump_expression", "throw_expression")

    def _jumps(self, b) -> bool:
        return self._only_jump(self._stmts(b), self.key[1])

    def _stmts(self, b) -> list:
        if b is None:
            return []
        if b.type in ("control_structure_body", "block"):
            kids = _code(b)
            if len(kids) == 1 and kids[0].type == "block":
                return _code(kids[0])
            return kids
        return [b]

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
            return cond
        inner = dict(env)
        inner[name] = _V("each", who)
        try:
            self._block(self._stmts(body), inner, cond)
        except _Stop:
            pass
        return cond

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
            if m and self.mode == "trigger" and m.group(2) in STATE_EVENTS and not self.started:
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
        v = self._value(value, env, cond)
        if v is None or v.sort == "opaque":
            v = self._pure_value(value, env) or v
        env[name] = v or _V("opaque")
        return cond

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
                return None
            if len(branches) == 2 and c_node is not None and self._answer_test(c_node, env):
                alts = [self._collect(lambda b=b: self._branch_value(b, env, []))[0] for b in branches]
                real = [a for a in alts if a]
                if real:
                    op = {"op": "choose", "of": real}
                    if len(real) == 1:
                        op["may"] = True
                    self._op(op, cond, n)
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
                            self.arg_words[key] = self._chosen_player() if typ == "Player" else _V("choice", typ)
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
                                                                "emptyList", "Pair", "ResolveResult", "copy"):
                return False
        return True

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
            if o.sort == "cardval" and m == "id":
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
                card = self._card_source(callee, env)
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

    def _card_source(self, callee, env):
        """A card (or cards) taken from somewhere: ``X.cards.random()``, ``X.findCard(id)``, ``X.cards.filter {…}``
        (a hand), ``X.findMessageCard(id)`` (a message area), ``g.deck.draw(n)`` (the deck)."""
        m = callee.a[1]
        base = _unparen(callee.a[0])
        if m in ("findCard",):
            o = self._term(base, env)
            if o is not None and o.sort in ("self", "player", "each"):
                return _V("cardval", "hand:" + o.text)
        if m in ("findMessageCard",):
            o = self._term(base, env)
            if o is not None and o.sort in ("self", "player", "each"):
                return _V("cardval", "seen:" + o.text)
        if base.k == "nav" and base.a[1] == "cards" and m in ("random", "randomOrNull", "first", "firstOrNull", "last",
                                                              "filter", "toList", "shuffled", "take", "find"):
            o = self._term(base.a[0], env)
            if o is not None and o.sort in ("self", "player", "each"):
                return _V("cardval", "hand:" + o.text)
        if base.k == "nav" and base.a[1] == "deck" and m in ("draw", "peek"):
            return _V("cardval", "deck:")
        return None

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
                return None
        if last == "deleteCard" and rv is not None and rv.sort in ("self", "player", "each"):
            if self.mode == "card" and len(args) == 1 and _t(args[0].node) == "id":
                return None                                  # the card used leaves the hand (the engine's own)
            return _V("cardval", "hand:" + rv.text)
        if last == "deleteMessageCard" and rv is not None and rv.sort in ("self", "player", "each"):
            self._op({"op": "remove_message", "whose": rv.text}, cond, n)
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
            if whose is not None and whose.sort in ("self", "player", "each"):
                if recv.a[1] == "cards":
                    frm = src.text.split(":", 1) if src is not None and src.sort == "cardval" else None
                    if frm and frm[0] == "hand" and frm[1] != whose.text:
                        op = {"op": "give", "from": frm[1], "to": whose.text} if whose.text != "self" else \
                            {"op": "take", "from": frm[1]}              # into the actor's own hand: a take
                        if src.filt:
                            op["colour"] = src.filt
                        self._op(op, cond, n)
                    elif frm and frm[0] == "deck":
                        self._op({"op": "draw", "who": whose.text}, cond, n)
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
            return _V("cardval", "deck:")
        if last in ("resolve", "continueResolve"):
            if args:
                self._value(args[0].node, env, cond, returning=True)
            return None
        if last == "ResolveResult" and args:
            self._value(args[0].node, env, cond, returning=True)
            return None
        if last == "forEach" and lam is not None and recv is not None:
            who = self._players_set(recv.n, env)
            if who is not None:
                params, stmts = _lambda_parts(lam)
                inner = dict(env)
                inner[params[0] if params else "it"] = _V("each", who)
                try:
                    self._block(stmts, inner, cond)
                except _Stop:
                    pass
                return None
        if last == "let" and lam is not None and rv is not None:
            params, stmts = _lambda_parts(lam)
            inner = dict(env)
            inner[params[0] if params else "it"] = rv
            try:
                self._block(stmts, inner, cond)
            except _Stop:
                pass
            return None
        if last == "copy" and rv is not None and rv.sort in ("fsmobj", "state", "event"):
            self._copy(args, env, cond, n)
            return rv
        # a state built: of the rule's own file, or the engine's
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
            inner[p.name] = v or _V("opaque")
        saved, self.in_entry = self.in_entry, False
        try:
            self._state_fns(cls, inner, cond)
        finally:
            self.in_entry = saved
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
        parts = self.when_parts[idx]
        for s in stmts:
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
        return _V("event", kind.key)

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
        tr = CondTranslator(self.ex, context, self.key[1] if self.key else self.c, names, self.fields, self.words,
                            self.players)
        return tr

    def _cond(self, node, env):
        """A condition's text; None for a test of the game state (the rule's windows, read from the same test by
        ``bodies._phase_types``)."""
        txt = _t(node)
        if _WINDOW.search(txt) or self.mode != "trigger" and _WINDOW_ACTOR.search(txt) or _BANS.search(txt) or \
                re.fullmatch(r"\s*\w+\.cannotPlayCard\(\w*(type|cardType|\w+)\)\s*", txt):
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


def _num(text):
    try:
        return int(text)
    except ValueError:
        return text


def _note(n) -> str:
    """A prose op's note: the call not translated, by its callee's name (stable across formatting)."""
    name = _callee_last(n) or n.type
    return f"not translated: {name}(…)"


def _callee_last(n) -> str:
    kids = n.named_children
    if not kids:
        return ""
    c = kids[0]
    while c.type in ("navigation_expression", "call_expression") and c.named_children:
        if c.type == "navigation_expression":
            return _t(c.named_children[-1])
        c = c.named_children[0]
    return _t(c) if c.type == "identifier" else ""


def _descendants_calls(n):
    stack = [n]
    while stack:
        x = stack.pop()
        if x.type == "call_expression":
            yield x
        if x.type not in ("lambda_literal",):
            stack.extend(x.named_children)


# ============================================================================================ into the catalogue
class EffectKeys:
    """Mixed into the extractor: a reading (``Reading``) turned into catalogue keys — ``do``, ``requires``, ``on.when``,
    ``limit``, ``flips`` — each expression type-checked in its scope (what does not check is ``unknown``, noted),
    with the Kotlin line of each key kept for the gate (``key_lines``)."""

    def _effect_keys(self, e: dict, rd: Reading, kind: str):
        """``kind``: skill | card. Sets the keys on the entry ``e`` and returns {key path: "file:line"}."""
        lines: dict = {}
        on = e.get("on") or []
        if rd.whens and on and len(rd.whens) == len(on):
            for i, (o, w) in enumerate(zip(on, rd.whens)):
                w = normalise(w)
                whose = _whose_of(w, EV.EVENT_KINDS[o["event"]])
                if whose is not None:                  # who the holder is, as the translated guard says it
                    if whose == "any":
                        o.pop("whose", None)
                    else:
                        o["whose"] = whose
                text = self._checked(_drop_whose(w, o.get("whose", "any")), "on", on=[o])
                if text != "true":
                    o["when"] = text
                else:
                    o.pop("when", None)
                if i < len(rd.when_lines):
                    lines[("on", i)] = rd.when_lines[i]
        ons = [_On(o["event"]) for o in on]
        ops, op_lines = [], []
        gives = {g["grant"] for g in e.get("gives") or []}
        closure = e.get("closure", ())
        for op, line in zip(rd.ops, rd.lines):
            if kind == "skill" and "ActiveSkill" in closure and op.get("op") == "flip" and op.get("who") == "self" \
                    and op.get("face") == "up" and "if" not in op and not ops:
                e["flips"] = True                     # turning the role face up as it is used: ``flips``
                lines[("flips",)] = line
                continue
            op = self._checked_op(op, ons, gives, e.get("params", {}))
            if op is not None:
                ops.append(op)
                op_lines.append(line)
        if ops:
            e["do"] = ops
            for i, ln in enumerate(op_lines):
                lines[("do", i)] = ln
        if rd.conds and (kind == "card" or "ActiveSkill" in closure):
            text = self._checked(normalise(conj(rd.conds)), "do", on=[])
            if text != "true":
                e["requires"] = text
                if rd.cond_lines:
                    lines[("requires",)] = rd.cond_lines[0]
        if kind == "skill" and e.get("consumed") and "ActiveSkill" in closure:
            e["limit"] = "game"
        elif kind == "skill" and rd.used and _tests_used(e):
            e["limit"] = "turn"
        e["reads"] = dict(rd.reads)
        return lines

    def _scope(self, context, on, params):
        ons = tuple(_On(o["event"]) for o in on)
        if context == "on":
            k = ons[0].kind
            return E.Scope("on", self.universe, dict(params), ("self",) + k.role_names, k.word_types)
        return E.Scope("do", self.universe, dict(params), X.players_of(ons), X.words_of(ons))

    def _checked(self, text, context, on, params=None, want=V.BOOL) -> str:
        try:
            node = E.parse(text)
            E.check(node, self._scope(context, on, params or {}), want)
            return text
        except E.ExprError:
            return "unknown"
        except (KeyError, IndexError):                       # pragma: no cover - a scope without an event
            return "unknown"

    def _checked_op(self, op: dict, ons, gives: set, params):
        """An op the loader reads: players of the moment, a grant the rule hands out, expressions that check."""
        spec = X.OPS.get(op.get("op"))
        if spec is None:
            return None
        players = X.players_of(tuple(ons)) + X.PLAYER_SETS
        out = {"op": op["op"]}
        on = [{"event": o.key} for o in ons]
        for a in spec.args:
            if a.name not in op:
                continue
            v = op[a.name]
            if a.type == X.PLAYER:
                if v not in players:
                    return {"op": "prose", "note": f"{spec.en}: a player the catalogue has no word for"}
            elif a.type == X.AMOUNT and isinstance(v, str):
                v = self._checked(v, "do", on, params, want=V.INT)
                if v == "unknown":
                    continue
            elif a.type == X.GRANT and v not in gives:
                return {"op": "prose", "note": f"hands out {v}"}
            elif a.type == X.OPTIONS:
                alts = []
                for alt in v:
                    got = [x for x in (self._checked_op(o, ons, gives, params) for o in alt) if x is not None]
                    if got:
                        alts.append(got)
                if not alts:
                    return None
                v = alts
            out[a.name] = v
        if op["op"] == "choose" and len(out.get("of", [])) == 1:
            out["may"] = True
        if "if" in op:
            c = self._checked(normalise(op["if"]), "do", on, params)
            out["if"] = c
        if op.get("may"):
            out["may"] = True
        if op["op"] == "prose":
            out["note"] = op.get("note") or "not translated"
        for a in spec.args:
            if a.required and a.name not in out:
                return {"op": "prose", "note": f"{spec.en}: {a.name} not read"}
        return out


class _On:
    """An ``on`` entry as model.effects reads it (``.kind``)."""

    def __init__(self, key):
        self.key = key
        self.kind = EV.EVENT_KINDS[key]


def _drop_whose(when: str, whose) -> str:
    """The guard without the test of who the holder is (``whose`` says it): ``sender == self and …`` → ``…``."""
    roles = [whose] if isinstance(whose, str) else list(whose)
    if roles == ["other"]:                    # the principal is someone else: said by ``whose``
        from .conds import _split_and
        return conj([p for p in _split_and(when) if not re.fullmatch(r"\w+ != self", p)])
    if roles in (["any"], ["self"]):
        return when
    from .conds import _split_and
    parts = _split_and(when)
    drop = {f"{roles[0]} == self"} if len(roles) == 1 else {
        "(" + " or ".join(f"{r} == self" for r in roles) + ")"}
    kept = [p for p in parts if p not in drop]
    return conj(kept)


def _whose_of(when: str, kind):
    """``whose`` from a guard's conjuncts: ``R == self`` (one role), ``(A == self or B == self)`` (either), ``P != self``
    for the event's principal P (``other``); ``any`` when none; None when the guard is not read."""
    from .conds import _split_and
    if "unknown" in when and when.strip() == "unknown":
        return None
    roles = set(kind.role_names)
    parts = _split_and(when)
    for p in parts:
        m = re.fullmatch(r"(\w+) == self", p)
        if m and m.group(1) in roles:
            return m.group(1)
        m = re.fullmatch(r"\((\w+ == self(?: or \w+ == self)+)\)", p)
        if m:
            rs = re.findall(r"(\w+) == self", m.group(1))
            if all(r in roles for r in rs) and len(set(rs)) == len(rs):
                return rs
    for p in parts:
        m = re.fullmatch(r"(\w+) != self", p)
        if m and m.group(1) == kind.principal:
            return "other"
    return "any"


def _tests_used(e: dict) -> bool:
    texts = [e.get("requires", "")] + [o.get("when", "") for o in e.get("on") or []] + [
        str(e.get("fight", ""))] + [str(op.get("if", "")) for op in e.get("do") or []]
    return any(re.search(r"\bnot used\b", t or "") for t in texts)
