"""Rule-bearing facts in code the normal form (``normal``) leaves out as no rule, for the unread-code comparison:

* **who sees a card** (``face``): a card's face (``….toPbCard()``) put into a client message, with the field it fills
  and the conditions it is sent under (``if (p === target) builder.card = card.toPbCard()``): which seats see the
  card is a rule even though the message itself is protocol;
* **what an automatic answer goes on with** (``auto``): in a robot's branch, a time-out callback (``GameExecutor.post
  { … }``, ``….timeout = …``) or an ``auto…`` helper, the state play continues in (``resolve(…)``, ``ResolveResult(…)``)
  and the answer handed to the state the game waits in (``tryContinueResolveProtocol(player, …)``) — the choice itself
  (which card, which colour) is the robot's and stays out;
* **when a use is counted** (``count``): a skill's use count spent or reset (``addSkillUseCount``), with the conditions
  it stands under — the effect reader keeps only that a count is kept, not when it is spent;
* **how many seats a table has** (``seats``): in the lobby's handlers (rooms, seats), every comparison of a count of
  players or seats with a number, with what its branch does (``if (players.size >= 9) return``): the set-up limits
  of a game.

Each fact is compared as a normal form (locals numbered within the fact, guards in one form: the normal form's own
expressions), never as text; tests that every message's recipient passes (``p is HumanPlayer``, ``x != null``) are left
out. ``file_facts`` lists the facts of one file, ``Fact.key`` is what is compared."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .normal import _COMMENTS, _TIMERS, HUMAN_CLASSES, ROBOT_CLASSES, _locals_query, _Norm
from .syntax import parse_kotlin

#: the call that turns a card into what a client message shows of it (its face)
FACE_CALLS = frozenset({"toPbCard"})
#: calls that say what state play goes on in, or who answers the state the game waits in
GOES_ON = frozenset({"resolve", "continueResolve", "ResolveResult"})
ANSWERS = frozenset({"tryContinueResolveProtocol", "resolveProtocol"})
#: calls that spend or reset a skill's use count (what a once-a-turn or once-a-game limit counts)
COUNTS = frozenset({"addSkillUseCount", "resetSkillUseCount"})
#: an ``auto…`` helper: what a robot or a timed-out player answers
_AUTO = re.compile(r"auto[A-Z0-9_]\w*\Z")
#: a robot's decision helper (``ai…``)
_ROBOT_MEMBER = re.compile(r"ai([A-Z0-9_]\w*)?\Z")
#: a count of players or seats (``players.size``, ``humanCount``, ``players.count { … }``)
_SEATS = re.compile(r"(\w*[pP]layers|[pP]ositions?)\s*(!!)?\s*\.\s*(size|count)\b|\w*(human|robot|Human|Robot|player|Player)"
                    r"\w*Count\b|\w*[cC]ount\s*\{\s*it\s+is\s+(Human|Robot)Player")
_CMP_OPS = frozenset({">=", "<=", ">", "<", "==", "!=", "===", "!=="})
_MEMBERS = ("function_declaration", "anonymous_initializer", "secondary_constructor", "property_declaration",
            "getter", "setter")
_CLASSES = ("class_declaration", "object_declaration", "companion_object")


@dataclass(frozen=True)
class Fact:
    kind: str        # face | auto | seats
    key: tuple       # what is compared (a normal form)
    file: str
    line: int
    cls: str
    member: str
    text: str        # the statement as written (whitespace collapsed), for the report
    shown: bool = True   # counts when one side has it more often (an ``auto`` fact: only in code run for an
    #                      automatic answer; the same continuation in code the normal form keeps only matches it)

    @property
    def where(self) -> str:
        return f"{self.cls}.{self.member}" if self.cls and self.member else (self.cls or self.member)


def file_facts(rel: str, data: bytes, parser, trees: dict | None = None, kinds=("face", "auto")) -> list:
    """The facts of one Kotlin file (``kinds``: which to collect), in source order."""
    tree = trees.get(id(data)) if trees is not None else None
    if tree is None:
        tree = parse_kotlin(parser, data)
        if trees is not None:
            trees[id(data)] = tree
    query = _locals_query(parser)
    out: list[Fact] = []
    kinds = frozenset(kinds)

    def text(n) -> str:
        return data[n.start_byte:n.end_byte].decode("utf-8", "replace")

    def name_of(n) -> str:
        ident = n.child_by_field_name("name")
        if ident is None:
            for c in n.named_children:
                if c.type in ("identifier", "type_identifier", "simple_identifier"):
                    ident = c
                    break
                if c.type == "variable_declaration":
                    ident = next((x for x in c.named_children if x.type == "identifier"), None)
                    break
        return text(ident) if ident is not None else ""

    def walk(n, path: str):
        for c in n.named_children:
            if c.type in _CLASSES:
                nm = name_of(c) or "Companion"
                body = next((x for x in c.named_children if x.type in ("class_body", "enum_class_body")), None)
                if body is not None:
                    walk(body, f"{path}.{nm}" if path else nm)
            elif c.type in _MEMBERS:
                member(c, path, name_of(c) or {"anonymous_initializer": "init"}.get(c.type, c.type))

    def member(m, cls: str, name: str):
        base = _Norm(data, frozenset(), frozenset())
        base.declare(m, query)
        declared = base.declared
        if _ROBOT_MEMBER.match(name):
            return                                  # a robot's decision helper: what it chooses is no rule
        Walker(data, declared, kinds, rel, cls, name, out).visit(m, (), bool(_AUTO.match(name)))

    walk(tree.root_node, "")
    return out


class Walker:
    """The facts of one member: a walk that carries the conditions a statement stands under and whether it is
    code run for an automatic answer (a robot's branch, a time-out, an ``auto…`` helper)."""

    def __init__(self, data, declared, kinds, rel, cls, member, out):
        self.data, self.declared, self.kinds = data, declared, kinds
        self.rel, self.cls, self.member, self.out = rel, cls, member, out
        self.names = _Norm(data, frozenset(), frozenset())     # (names and operators only: no locals read)

    def norm(self) -> _Norm:
        nm = _Norm(self.data, frozenset(), frozenset())
        nm.declared = set(self.declared) | {"it"}          # (a lambda's implicit parameter is a local too)
        return nm

    def text(self, n) -> str:
        return re.sub(r"\s+", " ", self.data[n.start_byte:n.end_byte].decode("utf-8", "replace")).strip()

    def add(self, kind, key, n, shown=None, counts=True):
        self.out.append(Fact(kind, key, self.rel, n.start_point[0] + 1, self.cls, self.member,
                             (shown or self.text(n))[:200], counts))

    # -- the walk -----------------------------------------------------------------------------------------
    def visit(self, n, conds: tuple, auto: bool):
        t = n.type
        if t in _COMMENTS:
            return
        if t == "when_expression" and self.when_chain(n, conds, auto):
            return
        if t == "if_expression":
            cond = n.child_by_field_name("condition")
            branches = [c for c in n.named_children if c != cond and c.type not in _COMMENTS]
            if cond is None:
                for c in n.named_children:
                    self.visit(c, conds, auto)
                return
            self.visit(cond, conds, auto)
            robot = _robot_test(self, cond)
            for i, b in enumerate(branches[:2]):
                if robot is not None:
                    self.visit(b, conds, auto or (robot if i == 0 else not robot))
                else:
                    self.visit(b, conds + (("if" if i == 0 else "else", cond),), auto)
            return
        if t == "call_expression":
            callee = n.named_children[0] if n.named_children else None
            last = _last_name(self, callee) if callee is not None else ""
            if "face" in self.kinds and last in FACE_CALLS:
                self.face(n, conds)
            if "count" in self.kinds and last in COUNTS:
                nm = self.norm()
                self.add("count", (last, tuple(repr(nm.expr(a)) for a in _args(n)), repr(self.conditions(nm, conds))),
                         _statement(n))
            if "auto" in self.kinds and (last in GOES_ON or last in ANSWERS):
                self.goes_on(n, last, auto)
            timer = last in _TIMERS
            for c in n.named_children:
                self.visit(c, conds, auto or (timer and c.type in ("annotated_lambda", "lambda_literal",
                                                                     "value_arguments", "call_suffix")))
            return
        if t == "assignment":
            left = n.child_by_field_name("left") or (n.named_children[0] if n.named_children else None)
            timeout = left is not None and _last_name(self, left) == "timeout"
            for c in n.named_children:
                self.visit(c, conds, auto or (timeout and c is not left))
            return
        if "seats" in self.kinds and t == "binary_expression" and _op(self, n) in _CMP_OPS and \
                _SEATS.search(self.text(n)):
            self.seats(n, conds)
        for c in n.named_children:
            self.visit(c, conds, auto)

    def when_chain(self, n, conds: tuple, auto: bool) -> bool:
        """A ``when`` without a subject, each branch under one condition, walked as the ``if … else if … else`` chain
        it means (a branch under its condition and the negation of every condition before it; a robot test as the
        ``if`` walk takes it). False (nothing walked) for any other ``when``."""
        if any(c.type == "when_subject" for c in n.named_children):
            return False
        entries = []
        for e in (c for c in n.named_children if c.type == "when_entry"):
            kids = [c for c in e.named_children if c.type not in _COMMENTS]
            is_else = "else" in {c.type for c in e.children if not c.is_named}
            if not kids or (not is_else and len(kids) != 2):
                return False
            cn = None
            if not is_else:
                cn = kids[0].named_children[0] if kids[0].type == "when_condition" and kids[0].named_children \
                    else kids[0]
            entries.append((cn, kids[-1]))
        prefix, a = conds, auto
        for cn, body in entries:
            if cn is None:
                self.visit(body, prefix, a)
                continue
            self.visit(cn, prefix, a)
            robot = _robot_test(self, cn)
            if robot is not None:
                self.visit(body, prefix, a or robot)
                a = a or (not robot)
                continue
            self.visit(body, prefix + (("if", cn),), a)
            prefix = prefix + (("else", cn),)
        return True

    # -- the facts ----------------------------------------------------------------------------------------
    def conditions(self, nm: _Norm, conds: tuple) -> tuple:
        """The conditions as normal forms, conjuncts one by one, without the tests every recipient passes."""
        out = []
        for branch, c in conds:
            x = nm.expr(c)
            if branch == "else":
                x = nm.neg(x)
            parts = list(x[1:]) if isinstance(x, tuple) and x[:1] == ("and",) else [x]
            out.extend(p for p in parts if not _trivial(p))
        out = [_renumbered(p, {}) for p in out]        # (each conjunct alone: its locals in its own order)
        return tuple(sorted(out, key=repr))

    def face(self, call, conds: tuple):
        nm = self.norm()
        field = self.field_of(call)
        cs = self.conditions(nm, conds)
        if any(_face_up(c) for c in cs):
            return                                  # shown only while it lies face up: everyone sees it anyway
        # shown only while it lies face down is shown always: while it lies face up everyone sees it anyway
        cs = [c for c in cs if not (isinstance(c, tuple) and len(c) == 2 and c[0] == "not" and _face_up(c[1]))]
        # (the field — `card`, `cards`, `messageCard` — is the message's layout: who is shown the face is the rule)
        self.add("face", (repr(cs),), _statement(call), f"{field}: {self.text(_statement(call))}" if field else None)

    def field_of(self, call) -> str:
        """The message field a card's face fills: the assignment's target, the setter or adder called with it."""
        cur = call
        while cur.parent is not None:
            p = cur.parent
            if p.type == "assignment":
                left = p.child_by_field_name("left") or p.named_children[0]
                if left is not cur:
                    return _field(_last_name(self, left))
            if p.type == "call_expression" and cur.type in ("value_arguments", "call_suffix") and \
                    p.named_children[0].type in ("navigation_expression", "identifier"):
                callee = p.named_children[0]
                name = _last_name(self, callee) or (self.text(callee.named_children[-1]) if callee.named_children
                                                    else "")
                if name in ("add", "addAll", "plus", "set") and callee.type == "navigation_expression" and \
                        callee.named_children:
                    return _field(_last_name(self, callee.named_children[0]))
                if name and name not in ("map", "let", "also", "apply", "run", "mapTo", "toList", "listOf",
                                         "mutableListOf", "arrayOf", "for", "if", "while", "when"):
                    return _field(name)
            if p.type in ("property_declaration", "function_body", "block", "statements", "lambda_literal",
                          "control_structure_body", "source_file"):
                break
            cur = p
        return ""

    def goes_on(self, call, last: str, auto: bool):
        nm = self.norm()
        args = _args(call)
        if last in ANSWERS:
            key = (last, repr(nm.expr(args[0])) if args else "")       # who answers (the message is protocol)
        else:                                   # `resolve(X)` and `return ResolveResult(X, …)`: play goes on in X
            key = ("goes on", repr(nm.expr(args[0])) if args else "")
        self.add("auto", key, _statement(call), counts=auto)

    def seats(self, n, conds: tuple):
        nm = self.norm()
        stmt = _statement(n)
        branch = ()
        p = n.parent
        while p is not None and p.type in ("parenthesized_expression", "binary_expression", "prefix_expression",
                                           "unary_expression"):
            p = p.parent
        if p is not None and p.type == "if_expression":
            kids = [c for c in p.named_children if c.type not in _COMMENTS]
            then = kids[1] if len(kids) > 1 else None
            branch = tuple(sorted(set(_calls(self, then)))) if then is not None else ()
        self.add("seats", (repr(nm.expr(n)), branch), stmt, self.text(stmt))


def _face_up(x) -> bool:
    """A test that a card lies face up (``isMessageCardFaceUp``, ``….faceUp``), not negated."""
    return isinstance(x, tuple) and x[:1] in (("nav",), ("id",), ("v",)) and bool(re.search(
        r"[fF]aceUp'", repr(x[-1:])))


def _renumbered(x, names: dict):
    """``x`` with its locals (``("v", "vN")``) numbered in order of appearance."""
    if isinstance(x, tuple):
        if len(x) == 2 and x[0] == "v" and isinstance(x[1], str):
            return ("v", names.setdefault(x[1], f"v{len(names)}"))
        return tuple(_renumbered(y, names) for y in x)
    return x


def _trivial(x) -> bool:
    """A test every recipient of a message passes: ``x != null`` (the card is there), ``p is HumanPlayer`` (only
    humans get messages)."""
    if isinstance(x, tuple) and x[:2] == ("cmp", "!=") and ("null",) in x[2:]:
        return True
    if isinstance(x, tuple) and x and x[0] in ("is", "test"):
        flat = repr(x)
        return any(h in flat for h in HUMAN_CLASSES | ROBOT_CLASSES)
    return False


def _robot_test(w: Walker, cond):
    return w.names.robot_test(cond)


def _last_name(w: Walker, n) -> str:
    return w.names.callee_names(n)[0] if n is not None else ""


def _op(w: Walker, n) -> str:
    return w.names.op(n)


def _field(name: str) -> str:
    """A message field from its setter's name: ``setMessageCard`` / ``addCards`` / ``addAllCards`` / ``messageCard``
    are ``messageCard`` / ``cards``."""
    for pre in ("addAll", "set", "add"):
        if name.startswith(pre) and name[len(pre):len(pre) + 1].isupper():
            name = name[len(pre)].lower() + name[len(pre) + 1:]
            break
    return name


def _args(call) -> list:
    out = []
    for c in call.named_children[1:]:
        if c.type == "call_suffix":
            c = next((x for x in c.named_children if x.type == "value_arguments"), c)
        if c.type == "value_arguments":
            for a in c.named_children:
                if a.type == "value_argument" and a.named_children:
                    out.append(a.named_children[-1])
    return out


def _calls(w: Walker, n) -> list:
    """The names called under ``n`` (what a branch does), client messages and logging left out."""
    out = []
    stack = [n]
    while stack:
        x = stack.pop()
        if x.type == "call_expression" and x.named_children:
            name = _last_name(w, x.named_children[0])
            if name and name not in ("send", "sendErrorMessage", "error", "info", "warn", "debug", "getDefaultInstance",
                                     "build", "newBuilder") and not name.endswith(("Toc", "_toc")):
                out.append(name)
        elif x.type in ("return_expression", "jump_expression"):
            out.append(x.type)
        stack.extend(x.named_children)
    return out


def _statement(n):
    """The statement ``n`` stands in (for its line and text)."""
    cur = n
    while cur.parent is not None and cur.parent.type not in ("block", "statements", "function_body", "lambda_literal",
                                                             "control_structure_body", "source_file", "class_body"):
        cur = cur.parent
    return cur


def compare_facts(base: list, head: list) -> list:
    """(side, fact) of the facts one side has more often than the other, in order: matched first within the same
    construct, then across the files compared (code moved between files or constructs with the same facts is the
    same)."""
    from collections import Counter

    def unmatched(mine: list, other: list, key) -> list:
        left = Counter(key(f) for f in other)
        out = []
        for f in mine:
            if left[key(f)] > 0:
                left[key(f)] -= 1
            else:
                out.append(f)
        return out

    def local(f):
        return (f.kind, f.key, f.where)

    def anywhere(f):
        return (f.kind, f.key)
    def once(facts: list) -> list:                   # a fact twice in one construct says nothing more
        seen, out = set(), []
        for f in facts:
            if local(f) not in seen or not f.shown:
                seen.add(local(f))
                out.append(f)
        return out
    base, head = once(base), once(head)
    hb, bb = unmatched(head, base, local), unmatched(base, head, local)
    return [("HEAD", f) for f in unmatched(hb, bb, anywhere) if f.shown] + \
        [("BASE", f) for f in unmatched(bb, hb, anywhere) if f.shown]
