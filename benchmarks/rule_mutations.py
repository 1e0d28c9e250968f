"""Rule mutations: how often does a rule change a developer might make fail the gate naming a rule (issue 24)?

    .venv/bin/python benchmarks/rule_mutations.py --repo SERVER_REPO --out DIR [--per-kind N] [--seed S]
                                                  [--kinds count,colour,...] [--plant-only] [--json FILE]
                                                  [--ids ID,...] [--jobs J]

Hand-written planted samples (``planted*.toml``) are few and each was tuned on after its first replay; this generator
measures the gate's real side in general. It reads the server repository's HEAD (a bare clone of
CuteReimu/TheMessage works; nothing is downloaded), parses the rule code with tree-sitter — ``skill/``, ``card/`` and
``phase/`` files and the rule functions of ``Player.kt`` / ``Game.kt``, never robot branches, time-outs, client
messages, notices or log lines — and finds the places where a developer's rule change could be made:

  count      an integer a rule compares or draws with becomes another (``draw(1)`` → ``draw(2)``, ``>= 3`` → ``>= 2``)
  colour     a colour becomes another (Red / Blue / Black)
  direction  a send direction becomes another (Left / Right / Up)
  guard_drop one conjunct of a guard is dropped (``a && b`` → ``a``; a ``x || return@findEvent false`` line removed)
  guard_neg  one conjunct of a guard (or an ``if``'s whole condition) is negated
  event      a trigger answers another event class (``findEvent<A>`` → ``findEvent<B>``)
  who        another player of the same code draws, discards, receives or loses the card (``player`` ↔ ``target``)
  drop       a statement that changes the table is removed (a draw, a discard, a card taken or given, a flip)
  card_type  a card type in a test becomes another (``Jie_Huo`` → ``Wu_Dao``)

and five kinds of one area of the rules each (stop 44; copies of the sites above that fall in the area, plus sites of
their own; their own random stream, so the old kinds' sites and mutants of a seed stay as they were):

  win        a win / result rule: ``checkWin`` (``ProcessFsm``, the ``WinSkill``s), ``CheckKillerWin``,
             ``checkDisturberWin``, ``checkOnlyOneAliveIdentityPlayers``, ``ChangeGameResultSkill`` classes — a guard,
             a count, a colour, a secret task (``Stealer`` → ``Pioneer``) changed
  card_cond  a card's condition or target (``canUse`` of ``card/``): a guard, a count, a colour, a card type
  limit      a per-game / per-turn limit: a test of ``getSkillUseCount`` changed, an ``addSkillUseCount`` dropped
  timing     the engine's order: the phases' ``resolve`` guards and counts, who is asked next (a seat loop's
             ``(i + 1) % n`` turned round to ``(i + n - 1) % n``)
  setup      the set-up: a number, a colour, a secret task of ``Game.start``, ``Deck.init``, ``StartGame``,
             ``WaitForSelectRole`` (identities, the deck, the tasks, the roles offered)

Sites are sorted, then ``--per-kind`` of each kind are drawn with ``random.Random(seed)`` (so the same seed gives the
same cases, the same commits, the same shas). Mutants that provably change nothing are dropped and counted: sites in a
function nothing calls (its name occurs nowhere else in the code base), after a ``return``/``throw`` of the same
block, a ``getSkillUseCount(skillId)`` test dropped where nothing counts a use of the skill (the count is always 0), an
``addSkillUseCount(skillId)`` dropped where no rule reads the count (only Skill.kt's end-of-phase reminder does),
and mutants whose file text another mutant already produced. Each mutant is one commit on top of HEAD in the
bare clone DIR (author, committer and dates fixed, as ``planted.py`` builds them) on a branch ``mutant/ID``;
``DIR/labels-mutations.toml`` lists them in the history labels' format (``history_bench.py`` replays it too).

Unless ``--plant-only``, the gate (``skillproof diff --kotlin DIR HEAD MUTANT``, ``history_bench.replay``) runs on
each and the table says per kind how many **failed naming a rule** (exit 1; of them how many name a rule of the
mutated file), were **inconclusive** (exit 3; of them how many name the mutated file and method in an unread-code
finding) or were **silent** (exit 0). Results are appended as JSON lines to ``--json`` (default ``DIR/results.jsonl``)
as they come, so a run can stop and ``--resume`` later. A benchmark, not a CI test (minutes per dozen cases).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import history_bench as hb  # noqa: E402
import planted as pl        # noqa: E402

ENV_REPO = "SKILLPROOF_SERVER_REPO"
PREFIX = "src/main/kotlin/"
LABELS_NAME = "labels-mutations.toml"
OLD_KINDS = ("count", "colour", "direction", "guard_drop", "guard_neg", "event", "who", "drop", "card_type")
#: kinds added at stop 44 (h-gr13): copies of the sites above that fall in a rule of one area, plus a few sites of
#: their own (a secret task swapped, a set-up number, the step of a seat loop); their own random stream, so the
#: sites and mutants of the old kinds (seed 11) stay as they were
NEW_KINDS = ("win", "card_cond", "limit", "timing", "setup")
KINDS = OLD_KINDS + NEW_KINDS
SECRET_TASKS = ("Killer", "Stealer", "Collector", "Mutator", "Pioneer", "Disturber", "Sweeper")
#: win / result rules: functions that decide who wins (and every function of a class that changes the result)
WIN_FUNCS = re.compile(r"(check\w*Win\w*|checkOnlyOneAliveIdentityPlayers|changeGameResult)\Z")
WIN_CLASSES = re.compile(r"\b(ChangeGameResultSkill|WinSkill)\b")
#: engine timing: the phases' resolve functions and the engine's loop over the seats
TIMING_FUNCS = re.compile(r"(resolve|resolve0|continueResolve|dealListeningSkill|sortedFrom)\Z")
#: set-up: (file name, function) pairs that build the table at the start of a game
SETUP_FUNCS = {("Game.kt", "start"), ("Deck.kt", "init"), ("StartGame.kt", "resolve"),
               ("WaitForSelectRole.kt", "resolve"), ("WaitForSelectRole.kt", "resolveProtocol")}
#: files read only for the new kinds (the old kinds' files stay as they were)
EXTRA_FILES = ("ProcessFsm.kt", "WinSkill.kt", "ChangeGameResultSkill.kt")
COLOURS = ("Red", "Blue", "Black")
DIRECTIONS = ("Left", "Right", "Up")
CARD_TYPES = ("Cheng_Qing", "Shi_Tan", "Wei_Bi", "Li_You", "Ping_Heng", "Po_Yi", "Jie_Huo", "Diao_Bao", "Wu_Dao",
              "Feng_Yun_Bian_Huan", "Mi_Ling", "Diao_Hu_Li_Shan", "Yu_Qin_Gu_Zong")
COMPARE = {"<", ">", "<=", ">=", "==", "!="}
#: numbers compared with these are no rule counts (message sequence numbers, ids, indexes, times)
NOT_COUNTS = re.compile(r"(?i)seq|\bid\b|\w+Id\b|index|time|second|millis|location|\bi\b|\bj\b")
#: calls whose arguments and lambdas are no rule: robot moves, time-outs, client messages, notices, logs
SKIP_CALLS = re.compile(r"(post|schedule|newTimeout|launch|send|sendErrorMessage|notifyAll|incrSeq|checkSeq|"
                        r"notify\w*|\w+To[cs]|error|info|warn|debug|println|print|toPb\w*|auto\w*|also)\Z")
SKIP_FUNCS = re.compile(r"(ai|\w*[nN]otify\w*|toPb\w*|toString|send\w*|init|reset|\w*Timer|\w*Robot\w*|\w*[Aa]i[A-Z]\w*|"
                        r"identityColorToString|randPlayerName|exchangePlayer|newInstance|main|onPlayerJoinRoom|"
                        r"getAbstractLocation|getAlternativeLocation|tryContinueResolveProtocol|incrSeq)\Z")
#: the functions of Player.kt / Game.kt that hold rules (win, receive, draw, discard, the table)
TOP_RULES = re.compile(r"(draw|delete\w*|find\w*|check\w*|\w*Skill\w*|\w*Alive\w*|isPartner\w*|isEnemy|"
                       r"playerDiscardCard|playerSetRoleFaceUp|sortedFrom|start|end|dealListeningSkill|continueResolve|"
                       r"resolve|addEvent)\Z")
TOP_FILES = ("Player.kt", "Game.kt")
#: calls that change the table (a statement dropped by ``drop``; whose receiver ``who`` swaps)
EFFECT_CALLS = {"draw", "deleteCard", "deleteMessageCard", "discard", "playerDiscardCard", "addMessageCard",
                "playerSetRoleFaceUp", "addSkillUseCount"}
LIST_EDITS = {"add", "addAll", "remove", "removeAt", "removeAll", "clear"}
LIST_OWNERS = {"cards", "messageCards"}
FLIP_FIELDS = {"roleFaceUp", "alive", "isRoleFaceUp", "isAlive", "lose"}
#: members only a player has: a receiver of one is a player of that code (the candidates of ``who``)
PLAYER_MEMBERS = {"cards", "messageCards", "draw", "deleteCard", "deleteMessageCard", "findCard", "findMessageCard",
                  "alive", "roleFaceUp", "isPartner", "isEnemy", "isPartnerOrSelf", "identity", "skills", "location",
                  "getNextLeftAlivePlayer", "getNextRightAlivePlayer", "addSkillUseCount", "getSkillUseCount",
                  "checkThreeSameMessageCard", "hasEverFaceUp", "isFemale", "isMale", "findSkill", "roleName"}


def _t(n) -> str:
    return n.text.decode("utf-8", "replace")


def _parser():
    from skillproof.model.extract.syntax import _make_parser
    return _make_parser()


def _callee_name(call) -> str:
    """The last identifier of a call's callee (``a.b.c(…)`` → ``c``)."""
    if not call.children:
        return ""
    f = call.children[0]
    if f.type == "call_expression":         # findEvent<T>(…) { … }: the inner call
        return _callee_name(f)
    if f.type == "identifier":
        return _t(f)
    if f.type == "navigation_expression":
        last = [c for c in f.children if c.type == "identifier"]
        return _t(last[-1]) if last else ""
    return ""


def _op(binary) -> str:
    ops = [c.type for c in binary.children if not c.is_named]
    return ops[0] if ops else ""


def _fn_name(fd) -> str:
    for c in fd.children:
        if c.type == "identifier":
            return _t(c)
    return ""


class Site:
    __slots__ = ("kind", "path", "start", "end", "new", "line", "method", "what", "dead", "fn", "node")

    def __init__(self, kind, path, start, end, new, line, method, what, dead="", fn=None, node=None):
        self.kind, self.path, self.start, self.end, self.new = kind, path, start, end, new
        self.line, self.method, self.what, self.dead = line, method, what, dead
        self.fn, self.node = fn, node

    def copy(self, kind):
        return Site(kind, self.path, self.start, self.end, self.new, self.line, self.method, self.what, self.dead,
                    self.fn, self.node)

    def key(self):
        return (self.kind, self.path, self.start, self.end, self.new)


class FileSites:
    """The rule code of one Kotlin file and its mutation sites."""

    def __init__(self, path: str, data: bytes, parser, refs: dict, rnd: random.Random):
        self.path, self.data, self.refs, self.rnd = path, data, refs, rnd
        self.tree = parser.parse(data)
        self.sites: list[Site] = []
        self.top = path.count("/") == 3          # src/main/kotlin/X.kt
        self._walk(self.tree.root_node, None, "", False)

    # -- where rule code is -------------------------------------------------------------------------------------
    def _skipped(self, node) -> bool:
        t = node.type
        if t == "companion_object":
            return True
        if t == "class_declaration" and re.search(r"Robot|\bAi\b|AI", _t(node).split("{")[0]):
            return True
        if t == "call_expression" and SKIP_CALLS.match(_callee_name(node) or "-"):
            return True
        if t == "call_expression":
            head = _t(node).split(".")[0].split("(")[0].strip()
            if head in ("logger", "log", "GameExecutor"):
                return True
        if t == "if_expression":
            cond = self._cond(node)
            if cond is not None and re.search(r"\b(RobotPlayer|HumanPlayer)\b", _t(cond)):
                return True
        if t in ("string_literal", "line_comment", "block_comment"):
            return True
        return False

    @staticmethod
    def _cond(ifx):
        for c in ifx.children:
            if c.is_named and c.type not in ("if", "else", "control_structure_body"):
                return c
        return None

    def _walk(self, node, fn, method, dead_after):
        if self._skipped(node):
            return
        if node.type in ("function_declaration", "getter"):
            name = _fn_name(node) if node.type == "function_declaration" else "get"
            if node.type == "function_declaration":
                if SKIP_FUNCS.match(name):
                    return
                if self.top and not TOP_RULES.match(name):
                    return
            fn, method = node, (name if node.type == "function_declaration" else method + ".get")
        if fn is not None:
            self._sites_at(node, fn, method)
        kids = node.children
        stop = False
        for c in kids:
            if stop and c.is_named and node.type in ("block", "statements", "lambda_literal"):
                self._walk_dead(c, fn, method)
                continue
            self._walk(c, fn, method, dead_after)
            if node.type in ("block", "statements", "lambda_literal") and c.type in ("return_expression",
                                                                                       "throw_expression"):
                stop = True

    def _walk_dead(self, node, fn, method):
        """Code after a return/throw of its block: every site there is a no-op."""
        before = len(self.sites)
        self._walk(node, fn, method, True)
        for s in self.sites[before:]:
            s.dead = "after a return"

    # -- sites ----------------------------------------------------------------------------------------------------
    def _add(self, kind, node, new, what, fn, method, start=None, end=None):
        s = node.start_byte if start is None else start
        e = node.end_byte if end is None else end
        dead = ""
        if fn is not None and fn.type == "function_declaration":
            name = _fn_name(fn)
            if "override" not in _t(fn).split("fun")[0] and self.refs.get(name, 0) <= 1:
                dead = f"{name} is called nowhere"
        if not dead and kind == "drop" and b"addSkillUseCount(skillId)" in self.data[s:e] and not self.count_read():
            dead = "a use count only a notice reads"
        use = b"getSkillUseCount(skillId)"
        if not dead and kind == "guard_drop" and use in self.data[s:e] and use not in new.encode() \
                and not self.counted():
            dead = "a test of a use count nothing counts (always 0)"
        self.sites.append(Site(kind, self.path, s, e, new, node.start_point[0] + 1, method, what, dead, fn, node))

    def _other(self, cur, pool):
        return self.rnd.choice([x for x in pool if x != cur])

    def _sites_at(self, node, fn, method):
        t = node.type
        if t == "number_literal" and re.fullmatch(r"\d+", _t(node)):
            self._count(node, fn, method)
        elif t == "identifier":
            name = _t(node)
            par = node.parent
            in_type = par is not None and par.type == "user_type"
            if name in COLOURS and not in_type:
                self._add("colour", node, self._other(name, COLOURS), f"{name}", fn, method)
            elif name in DIRECTIONS and not in_type:
                self._add("direction", node, self._other(name, DIRECTIONS), f"{name}", fn, method)
            elif name in CARD_TYPES and not in_type and self._in_test(node):
                self._add("card_type", node, self._other(name, CARD_TYPES), f"{name}", fn, method)
        elif t == "call_expression":
            self._call(node, fn, method)
        elif t == "binary_expression" and _op(node) == "&&":
            par = node.parent
            if not (par is not None and par.type == "binary_expression" and _op(par) == "&&") and self._guard(node):
                self._conjuncts(node, fn, method)
        elif t == "if_expression":
            cond = self._cond(node)
            if cond is not None and not (cond.type == "binary_expression" and _op(cond) == "&&"):
                self._add("guard_neg", cond, f"!({_t(cond)})", "if condition negated", fn, method)
        elif t == "assignment":
            lhs = node.children[0] if node.children else None
            last = _t(lhs).split(".")[-1] if lhs is not None else ""
            if last in FLIP_FIELDS and self._statement(node):
                self._add("drop", node, "", f"{_t(node)[:50]} dropped", fn, method)

    def _guard(self, node) -> bool:
        """A conjunction that is a condition: of an if, a findEvent lambda, a return or a `|| return` guard."""
        p = node
        for _ in range(4):
            p = p.parent
            if p is None:
                return False
            if p.type in ("if_expression", "lambda_literal", "return_expression", "function_body", "when_entry",
                          "while_statement"):
                return True
            if p.type == "binary_expression" and _op(p) == "||":
                return True
            if p.type not in ("parenthesized_expression", "binary_expression", "unary_expression"):
                return False
        return False

    def _in_test(self, node) -> bool:
        p = node
        for _ in range(4):
            p = p.parent
            if p is None:
                return False
            if (p.type == "binary_expression" and _op(p) in ("==", "!=", "===", "!==")) or p.type in (
                    "when_entry", "in_expression", "when_condition"):
                return True
            if p.type == "call_expression" and _callee_name(p) in ("listOf", "setOf", "arrayOf", "contains"):
                return True
        return False

    def _statement(self, node) -> bool:
        p = node.parent
        return p is not None and p.type in ("block", "statements", "lambda_literal") and sum(
            1 for c in p.children if c.is_named and c.type not in ("line_comment", "block_comment",
                                                                   "lambda_parameters")) > 1

    def _count(self, node, fn, method):
        n = int(_t(node))
        par = node.parent
        ok = False
        if par is not None and par.type == "binary_expression" and _op(par) in COMPARE:
            other = [c for c in par.children if c.is_named and c != node]
            ok = bool(other) and not NOT_COUNTS.search(_t(other[0]))
        elif par is not None and par.type == "value_argument":
            call = par.parent.parent if par.parent is not None else None
            ok = call is not None and call.type == "call_expression" and _callee_name(call) in (
                "draw", "take", "drop", "addSkillUseCount", "getNextLeftAlivePlayer", "getNextRightAlivePlayer")
        if not ok or n > 20:
            return
        new = n + 1 if n == 0 else self.rnd.choice((n + 1, n - 1))
        self._add("count", node, str(new), f"{n} -> {new}", fn, method)

    def _call(self, node, fn, method):
        name = _callee_name(node)
        f = node.children[0] if node.children else None
        if name == "findEvent" and f is not None and f.type == "call_expression":
            targs = [c for c in f.children if c.type == "type_arguments"]
            if targs:
                ty = _t(targs[0]).strip("<>").strip()
                pool = self.events()
                if ty in pool and len(pool) > 1:
                    self._add("event", targs[0], f"<{self._other(ty, pool)}>", f"findEvent<{ty}>", fn, method)
        if f is None or f.type != "navigation_expression":
            return
        recv = f.children[0] if f.children else None
        recv_text = _t(recv) if recv is not None else ""
        owner_last = recv_text.split(".")[-1].strip("!?")
        table = name in EFFECT_CALLS or (name in LIST_EDITS and owner_last in LIST_OWNERS)
        if not table:
            return
        if self._statement(node):
            self._add("drop", node, "", f"{_t(node)[:50]} dropped", fn, method)
        # who: the player whose hand/messages/draw it is
        who = recv
        if name in LIST_EDITS and recv is not None and recv.type == "navigation_expression":
            who = recv.children[0]
        if who is None or name in ("discard",):
            return
        if name == "playerDiscardCard":
            args = [c for c in node.children if c.type == "value_arguments"]
            va = [c for c in args[0].children if c.type == "value_argument"] if args else []
            who = va[0].children[0] if va and va[0].children else None
            if who is None:
                return
        wt = _t(who).rstrip("!?")
        pool = sorted(self.players(fn) - {wt})
        if wt in self.players(fn) and pool:
            new = self.rnd.choice(pool)
            s, e = who.start_byte, who.start_byte + len(wt.encode())
            self._add("who", who, new, f"{wt}.{name} -> {new}", fn, method, s, e)

    def _conjuncts(self, node, fn, method):
        parts = []

        def flat(n):
            if n.type == "binary_expression" and _op(n) == "&&":
                for c in n.children:
                    if c.is_named:
                        flat(c)
            else:
                parts.append(n)
        flat(node)
        if len(parts) < 2 or any(re.search(r"\b(RobotPlayer|HumanPlayer)\b", _t(p)) for p in parts):
            return
        i = self.rnd.randrange(len(parts))
        rest = " && ".join(_t(p) for j, p in enumerate(parts) if j != i)
        self._add("guard_drop", node, rest, f"drop `{_t(parts[i])[:40]}`", fn, method)
        k = self.rnd.randrange(len(parts))
        neg = " && ".join(f"!({_t(p)})" if j == k else _t(p) for j, p in enumerate(parts))
        self._add("guard_neg", node, neg, f"negate `{_t(parts[k])[:40]}`", fn, method)

    # the `x || return@findEvent false` lines of a trigger's guard
    def guard_lines(self):
        out = []
        root = self.tree.root_node
        st = [root]
        while st:
            n = st.pop()
            st.extend(n.children)
            if n.type == "binary_expression" and _op(n) == "||":
                kids = [c for c in n.children if c.is_named]
                if len(kids) == 2 and kids[1].type == "return_expression" and "@findEvent" in _t(kids[1]) and \
                        self._statement(n):
                    out.append((n, kids[0]))
        return out

    _events = None
    _counted_ids: frozenset = frozenset()
    _named_ids: frozenset = frozenset()

    def count_read(self) -> bool:
        """Does a rule read this file's skill's use count (``getSkillUseCount(skillId)`` here — but for the
        reminder ``mainPhaseNeedNotify`` of Skill.kt, a client notice —, or its ``SkillId.X`` named anywhere else)?"""
        if b"getSkillUseCount(skillId)" in self.data:
            return True
        m = re.search(rb"val skillId\s*=\s*SkillId\.(\w+)", self.data)
        return m is None or m.group(1).decode() in FileSites._named_ids

    def counted(self) -> bool:
        """Does anything count a use of this file's skill (``addSkillUseCount(skillId)`` here, or its
        ``SkillId.X`` counted anywhere)?"""
        if b"addSkillUseCount(skillId)" in self.data:
            return True
        m = re.search(rb"val skillId\s*=\s*SkillId\.(\w+)", self.data)
        return m is None or m.group(1).decode() in FileSites._counted_ids

    def events(self):
        return FileSites._events or ()

    def players(self, fn) -> set:
        """The player expressions of a function: receivers of a member only a player has (plain names or
        ``event.x`` / ``fsm.x``)."""
        cache = getattr(self, "_pc", None)
        if cache is None:
            cache = self._pc = {}
        if fn.id in cache:
            return cache[fn.id]
        out = set()
        st = [fn]
        while st:
            n = st.pop()
            st.extend(n.children)
            if n.type == "navigation_expression":
                ids = [c for c in n.children if c.is_named]
                if len(ids) == 2 and ids[1].type == "identifier" and _t(ids[1]) in PLAYER_MEMBERS:
                    r = _t(ids[0]).rstrip("!?")
                    if re.fullmatch(r"[a-z]\w*(\.[a-z]\w*)?", r) and not r.startswith(("it.", "card", "g.", "game")) \
                            and r not in ("it", "this", "g", "game", "card", "c", "cards", "messageCard"):
                        out.add(r)
        cache[fn.id] = out
        return out


def guard_line_sites(fs: FileSites) -> list:
    """`x || return@findEvent false` lines in rule code: dropped (guard_drop) or negated (guard_neg)."""
    out = []
    for n, cond in fs.guard_lines():
        # inside rule code? find the enclosing function and check it was walked (a site-level filter)
        p, fn = n, None
        skipped = False
        while p is not None:
            if fs._skipped(p) and p is not n:
                skipped = True
            if p.type == "function_declaration" and fn is None:
                fn = p
            p = p.parent
        if skipped or fn is None or SKIP_FUNCS.match(_fn_name(fn)):
            continue
        method = _fn_name(fn)
        # the whole line, with its newline and indentation, goes
        s = fs.data.rfind(b"\n", 0, n.start_byte) + 1
        e = n.end_byte + 1 if fs.data[n.end_byte:n.end_byte + 1] == b"\n" else n.end_byte
        fs._add("guard_drop", n, "", f"drop line `{_t(cond)[:40]}`", fn, method, s, e)
        fs._add("guard_neg", cond, f"!({_t(cond)})", f"negate line `{_t(cond)[:40]}`", fn, method)
    return out


def _enclosing_class(fn) -> str:
    p = fn.parent if fn is not None else None
    while p is not None:
        if p.type in ("class_declaration", "object_declaration"):
            return _t(p).split("{")[0]
        p = p.parent
    return ""


def _nodes(fs: FileSites, top):
    """The nodes under `top` outside skipped code (robot branches, notices, logs, strings)."""
    st = [top]
    while st:
        n = st.pop()
        if n is not top and fs._skipped(n):
            continue
        yield n
        st.extend(reversed(n.children))


def _near_text(node, levels=3) -> str:
    """The text of a site's node and of its parents up to `levels` (the comparison or guard it stands in)."""
    out, p = [], node
    for _ in range(levels + 1):
        if p is None or p.type in ("block", "statements", "function_body", "lambda_literal"):
            break
        out.append(_t(p))
        p = p.parent
    return out[-1] if out else ""


def new_kind_sites(fs: FileSites, rnd: random.Random) -> list[Site]:
    """The sites of the kinds of stop 44 in one file: copies of the old kinds' sites in a scope, and their own."""
    name = Path(fs.path).name
    out: list[Site] = []
    base = list(fs.sites)
    for s in base:
        if s.fn is None:
            continue
        m = s.method.split(".")[0]
        cls = _enclosing_class(s.fn)
        rule_kind = s.kind in ("count", "colour", "guard_drop", "guard_neg", "card_type")
        if rule_kind and (WIN_FUNCS.match(m) or WIN_CLASSES.search(cls) or name == "CheckKillerWin.kt"):
            out.append(s.copy("win"))
        if rule_kind and "/card/" in fs.path and m == "canUse":
            out.append(s.copy("card_cond"))
        if (s.kind in ("count", "guard_drop", "guard_neg") and s.node is not None
                and "UseCount" in _near_text(s.node)) or (s.kind == "drop" and "addSkillUseCount" in s.what):
            out.append(s.copy("limit"))
        win = bool(WIN_FUNCS.match(m) or WIN_CLASSES.search(cls) or name == "CheckKillerWin.kt")
        if not win and s.kind in ("count", "guard_drop", "guard_neg", "direction") and TIMING_FUNCS.match(m) and (
                "/phase/" in fs.path or name in ("ProcessFsm.kt", "Game.kt", "ChangeGameResultSkill.kt",
                                                 "WinSkill.kt")):
            out.append(s.copy("timing"))

    def add(kind, node, new, what, fn, method, start=None, end=None):
        n0 = len(fs.sites)
        fs._add(kind, node, new, what, fn, method, start, end)
        out.append(fs.sites.pop(n0))

    # functions of the file (walked as the old kinds walk them, plus the set-up functions SKIP_FUNCS leaves out)
    for fn in _nodes(fs, fs.tree.root_node):
        if fn.type != "function_declaration":
            continue
        m = _fn_name(fn)
        cls = _enclosing_class(fn)
        setup = (name, m) in SETUP_FUNCS
        win = bool(WIN_FUNCS.match(m) or WIN_CLASSES.search(cls) or name == "CheckKillerWin.kt")
        # the seat loops: the phases' and the engine's, and the loops that ask every player's result skill
        timing = (bool(TIMING_FUNCS.match(m)) or win) and ("/phase/" in fs.path or name in (
            "ProcessFsm.kt", "Game.kt", "ChangeGameResultSkill.kt", "WinSkill.kt"))
        if not (setup or win or timing):
            continue
        if not setup and SKIP_FUNCS.match(m):
            continue
        for n in _nodes(fs, fn):
            if n.type == "identifier" and _t(n) in SECRET_TASKS and not (n.parent is not None and
                                                                        n.parent.type == "user_type"):
                new = rnd.choice([x for x in SECRET_TASKS if x != _t(n)])
                if win:
                    add("win", n, new, f"{_t(n)} -> {new}", fn, m)
                if setup:
                    add("setup", n, new, f"{_t(n)} -> {new}", fn, m)
            if setup and n.type == "identifier" and _t(n) in COLOURS and not (n.parent is not None and
                                                                            n.parent.type == "user_type"):
                new = rnd.choice([x for x in COLOURS if x != _t(n)])
                add("setup", n, new, f"{_t(n)} -> {new}", fn, m)
            if setup and n.type == "number_literal" and re.fullmatch(r"\d+", _t(n)) and int(_t(n)) <= 200:
                k = int(_t(n))
                new = str(k + 1 if k == 0 else rnd.choice((k + 1, k - 1)))
                add("setup", n, new, f"{k} -> {new}", fn, m)
            # the step of a loop over the seats: (i + 1) % n -> (i + n - 1) % n (the other way round)
            if timing and n.type == "binary_expression" and _op(n) == "%":
                kids = [c for c in n.children if c.is_named]
                inner = kids[0] if kids else None
                while inner is not None and inner.type == "parenthesized_expression":
                    inner = next((c for c in inner.children if c.is_named), None)
                if inner is not None and inner.type == "binary_expression" and _op(inner) == "+" and len(kids) == 2:
                    one = [c for c in inner.children if c.is_named][-1]
                    if _t(one) == "1":
                        new = f"{_t(kids[1])} - 1"
                        add("timing", one, new, f"seat step +1 -> +{new}", fn, m)
    return out


def rule_files(repo: str, commit: str = "HEAD") -> dict:
    """{path: bytes} of the Kotlin files under src/main/kotlin at `commit`."""
    names = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", commit, "--", PREFIX],
                           capture_output=True, text=True, check=True).stdout.split()
    out = {}
    for p in names:
        if p.endswith(".kt"):
            out[p] = subprocess.run(["git", "-C", repo, "show", f"{commit}:{p}"], capture_output=True,
                                    check=True).stdout
    return out


def is_rule_file(path: str) -> bool:
    rel = path[len(PREFIX):]
    return rel.split("/")[0] in ("skill", "card", "phase") and rel.count("/") == 1 or rel in TOP_FILES


def find_sites(files: dict, seed: int = 0) -> list[Site]:
    """Every mutation site of the rule files (deterministic for a seed)."""
    parser = _parser()
    words: dict = {}
    for data in files.values():
        for w in re.findall(rb"[A-Za-z_]\w*", data):
            words[w] = words.get(w, 0) + 1
    refs = {k.decode(): v for k, v in words.items()}
    events = sorted({m.decode() for d in files.values() for m in re.findall(rb"findEvent<(\w+)>", d)})
    FileSites._events = tuple(events)
    FileSites._named_ids = frozenset(m.decode() for d in files.values()
                                     for m in re.findall(rb"getSkillUseCount\(SkillId\.(\w+)", d))
    FileSites._counted_ids = frozenset(m.decode() for d in files.values()
                                       for m in re.findall(rb"addSkillUseCount\(SkillId\.(\w+)", d))
    out = []
    for path in sorted(files):
        extra = path[len(PREFIX):] in EXTRA_FILES
        if not is_rule_file(path) and not extra:
            continue
        rnd = random.Random(f"{seed}:{path}")
        fs = FileSites(path, files[path], parser, refs, rnd)
        guard_line_sites(fs)
        new = new_kind_sites(fs, random.Random(f"{seed}:{path}:new"))
        if not extra:
            out.extend(fs.sites)
        out.extend(new)
    # guard lines are also reached by the if/&& walk when nested: keep one site per (kind, span, replacement)
    seen, uniq = set(), []
    for s in out:
        if s.key() not in seen:
            seen.add(s.key())
            uniq.append(s)
    return uniq


def mutate(data: bytes, s: Site) -> bytes:
    return data[:s.start] + s.new.encode("utf-8") + data[s.end:]


def choose(files: dict, sites: list, per_kind: int, seed: int, kinds=KINDS, parser=None) -> tuple[list, dict]:
    """`per_kind` live mutants of each kind (ids `KIND-NN`), and the counts of dropped no-ops per kind."""
    parser = parser or _parser()
    dropped = {k: {"dead": 0, "same text": 0, "unparsable": 0} for k in kinds}
    chosen = []
    for kind in kinds:
        pool = [s for s in sites if s.kind == kind]
        pool.sort(key=lambda s: (s.path, s.start, s.end, s.new))
        random.Random(f"{seed}:{kind}").shuffle(pool)
        texts = set()
        n = 0
        for s in pool:
            if n >= per_kind:
                break
            if s.dead:
                dropped[kind]["dead"] += 1
                continue
            new = mutate(files[s.path], s)
            if (s.path, new) in texts or new == files[s.path]:
                dropped[kind]["same text"] += 1
                continue
            if parser.parse(new).root_node.has_error and not parser.parse(files[s.path]).root_node.has_error:
                dropped[kind]["unparsable"] += 1
                continue
            texts.add((s.path, new))
            n += 1
            chosen.append({"id": f"{kind}-{n:02d}", "kind": kind, "site": s, "text": new})
    return chosen, dropped


def plant(out: Path, base: str, chosen: list) -> list[dict]:
    """One commit per mutant on `base` in the bare repository `out`; the labelled pairs."""
    env = {**pl.IDENT, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    pairs = []
    with tempfile.TemporaryDirectory(prefix="mutants-") as td:
        for m in chosen:
            s = m["site"]
            index = {**env, "GIT_INDEX_FILE": str(Path(td) / f"index-{m['id']}")}
            pl._git(out, "read-tree", base, env=index)
            blob = pl._git(out, "hash-object", "-w", "--stdin", data=m["text"]).decode().strip()
            mode = pl._git(out, "ls-tree", base, "--", s.path).decode().split()[0]
            pl._git(out, "update-index", "--cacheinfo", f"{mode},{blob},{s.path}", env=index)
            tree = pl._git(out, "write-tree", env=index).decode().strip()
            summary = f"{s.path[len(PREFIX):]}:{s.line} in {s.method}: {s.what}"
            sha = pl._git(out, "commit-tree", "--no-gpg-sign", tree, "-p", base, env=env,
                          data=f"mutant {m['id']}\n\n{summary}\n".encode()).decode().strip()
            pl._git(out, "update-ref", f"refs/heads/mutant/{m['id']}", sha)
            pairs.append({"id": m["id"], "sha": sha, "parent": base, "date": pl.DATE, "subject": f"mutant {m['id']}",
                          "label": "rule_change", "kind": m["kind"], "rules": [Path(s.path).stem], "fields": [],
                          "files": [s.path[len(PREFIX):]], "summary": summary, "line": s.line, "method": s.method})
    return pairs


def labels_text(pairs: list) -> str:
    out = ["# Rule mutations written by benchmarks/rule_mutations.py (one mutant a pair; parent = the server's HEAD).",
           ""]
    for p in pairs:
        out.append("[[commit]]")
        for k in ("sha", "parent", "date", "subject", "label", "kind"):
            out.append(f"{k} = {pl._toml_str(p[k])}")
        for k in ("rules", "fields", "files"):
            out.append(f"{k} = [" + ", ".join(pl._toml_str(x) for x in p[k]) + "]")
        out.append(f"summary = {pl._toml_str(p['summary'])}")
        out.append("")
    return "\n".join(out)


def classify(pair: dict, run: dict) -> tuple[str, str]:
    """(verdict, detail): named (exit 1 naming a rule of the mutated file) / other rule (exit 1, another rule) /
    inconclusive at site (exit 3 naming the mutated file and method) / inconclusive / silent / degraded / crash."""
    rc, rep, err = run["rc"], run["report"], run["stderr"]
    if rc not in (0, 1, 2, 3) or "Traceback (most recent call last)" in err:
        last = [ln for ln in err.strip().splitlines() if ln.strip()]
        return "crash", last[-1] if last else f"exit {rc}"
    if rc == 2:
        return "degraded", "; ".join(ln for ln in err.splitlines() if ln.startswith("error: "))[:200]
    if rc == 0:
        return "silent", ""
    if rc == 1:
        named = hb.named_in(rep) if rep else set()
        hit = hb._matches(named, set(pair["rules"]))
        names = sorted(n for n in named if not n.startswith("file:"))
        return ("named" if hit else "other rule"), "names " + ", ".join(names[:4])
    unr = hb.unread_of(rep)
    file = pair["files"][0].rsplit("/", 1)[-1]
    at = [f for f in unr if (f.get("details") or {}).get("file", "").endswith(file)]
    det = ", ".join(f"{(f.get('details') or {}).get('file', '').rsplit('/', 1)[-1]}:"
                    f"{(f.get('details') or {}).get('line')} {(f.get('details') or {}).get('what', '')}"[:80]
                    for f in unr[:3])
    return ("inconclusive at site" if at else "inconclusive"), det


COLS = ("named", "other rule", "inconclusive at site", "inconclusive", "silent", "degraded", "crash")


def table(rows: list, dropped: dict | None = None) -> list[str]:
    by: dict = {}
    for r in rows:
        by.setdefault(r["kind"], []).append(r["verdict"])
    head = f"{'kind':<11} {'cases':>5} {'failed':>6} {'(file)':>6} {'inconc':>6} {'(site)':>6} {'silent':>6} " \
           f"{'degr':>4}" + (f" {'no-op dropped':>13}" if dropped else "")
    out = [head]
    tot = [0] * 7
    for k in [k for k in KINDS if k in by]:
        vs = by[k]
        c = [len(vs), vs.count("named") + vs.count("other rule"), vs.count("named"),
             vs.count("inconclusive") + vs.count("inconclusive at site"), vs.count("inconclusive at site"),
             vs.count("silent"), vs.count("degraded") + vs.count("crash")]
        tot = [a + b for a, b in zip(tot, c)]
        d = sum((dropped or {}).get(k, {}).values())
        out.append(f"{k:<11} {c[0]:>5} {c[1]:>6} {c[2]:>6} {c[3]:>6} {c[4]:>6} {c[5]:>6} {c[6]:>4}"
                   + (f" {d:>13}" if dropped else ""))
    out.append(f"{'all':<11} {tot[0]:>5} {tot[1]:>6} {tot[2]:>6} {tot[3]:>6} {tot[4]:>6} {tot[5]:>6} {tot[6]:>4}")
    if tot[0]:
        out.append(f"failed naming a rule: {tot[1]}/{tot[0]} ({100 * tot[1] / tot[0]:.0f}%; a rule of the mutated "
                   f"file: {tot[2]}); inconclusive {tot[3]} (naming the mutated file: {tot[4]}); silent {tot[5]}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", default=os.environ.get(ENV_REPO), help=f"a clone of CuteReimu/TheMessage (${ENV_REPO})")
    ap.add_argument("--out", required=True, metavar="DIR", help="the bare clone holding the mutants (made if absent)")
    ap.add_argument("--per-kind", type=int, default=20)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--ids", default="", help="comma-separated mutant ids to run (default: all)")
    ap.add_argument("--plant-only", action="store_true", help="build the mutants and the labels; run no gate")
    ap.add_argument("--json", metavar="FILE", help="results as JSON lines (default DIR/results.jsonl)")
    ap.add_argument("--resume", action="store_true", help="skip the ids the JSON file already holds")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args(argv)
    if not a.repo:
        ap.error(f"no server clone: give --repo or set {ENV_REPO}")
    kinds = tuple(k for k in a.kinds.split(",") if k)
    if set(kinds) - set(KINDS):
        ap.error(f"--kinds: unknown {sorted(set(kinds) - set(KINDS))}")
    out = Path(a.out)
    try:
        if not out.exists():
            r = subprocess.run(["git", "clone", "--bare", "--quiet", "--no-tags", a.repo, str(out)],
                               capture_output=True)
            if r.returncode:
                raise pl.PlantError(f"cannot clone {a.repo}: {r.stderr.decode('utf-8', 'replace').strip()}")
        base = pl._git(out, "rev-parse", "HEAD").decode().strip()
        files = rule_files(str(out), base)
        sites = find_sites(files, a.seed)
        chosen, dropped = choose(files, sites, a.per_kind, a.seed, kinds)
        pairs = plant(out, base, chosen)
    except (pl.PlantError, subprocess.CalledProcessError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    (out / LABELS_NAME).write_text(labels_text(pairs), encoding="utf-8")
    per = {k: sum(1 for s in sites if s.kind == k) for k in kinds}
    print(f"base {base[:12]}; sites per kind: " + ", ".join(f"{k} {per[k]}" for k in kinds))
    print("no-ops dropped: " + ", ".join(f"{k} {sum(v.values())}" + (
        " (" + ", ".join(f"{n} {w}" for w, n in v.items() if n) + ")" if sum(v.values()) else "")
        for k, v in dropped.items()))
    print(f"{len(pairs)} mutants planted in {out}; labels: {out / LABELS_NAME}")
    if a.plant_only:
        for p in pairs:
            print(f"{p['id']:<14} {p['sha'][:8]}  {p['summary']}")
        return 0
    jpath = Path(a.json) if a.json else out / "results.jsonl"
    done = {}
    if a.resume and jpath.exists():
        for ln in jpath.read_text(encoding="utf-8").splitlines():
            if ln.strip():
                r = json.loads(ln)
                done[r["id"]] = r
    ids = {x.strip() for x in a.ids.split(",") if x.strip()}
    todo = [p for p in pairs if (not ids or p["id"] in ids) and p["id"] not in done]
    # round robin over the kinds: a run stopped early still has every kind
    order = sorted(todo, key=lambda p: (int(p["id"].rsplit("-", 1)[1]), KINDS.index(p["kind"])))
    rows = [r for r in done.values() if not ids or r["id"] in ids]

    def one(p):
        run = hb.replay(str(out), p, timeout=a.timeout)
        v, det = classify(p, run)
        return {"id": p["id"], "sha": p["sha"], "kind": p["kind"], "summary": p["summary"], "verdict": v,
                "detail": det, "rc": run["rc"], "seconds": round(run["seconds"], 1)}

    with open(jpath, "a", encoding="utf-8") as fh, ThreadPoolExecutor(max(1, a.jobs)) as pool:
        for r in pool.map(one, order):
            rows.append(r)
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
            fh.flush()
            print(f"{r['id']:<14} {r['verdict']:<21} exit {r['rc']} {r['seconds']:5.1f}s  {r['summary'][:70]}  "
                  f"{r['detail'][:90]}", flush=True)
    print()
    for ln in table(rows, dropped):
        print(ln)
    return 0


if __name__ == "__main__":
    sys.exit(main())
