"""Rule-bearing Kotlin that changed between two revisions: every construct (a class's header, a method, a
property, a top-level function) whose *normalised syntax tree* differs, so the gate can say which changed rule
code the extraction did not turn into a catalogue difference (finding UNR001, inconclusive).

What is compared is not the text but a normal form of the tree (tree-sitter's Kotlin grammar, the parser the
extractor uses):

* comments, imports, formatting, redundant parentheses, ``!!``, trailing commas are gone;
* what is not a rule is dropped: logging calls (``logger.info(…)``), client messages (``….send(…)``,
  ``sendErrorMessage``, protobuf builders ``xxxToc { … }`` / ``newBuilder()`` and what is set on them),
  sequence numbers (``incrSeq``), time-out defaults (``….timeout = …``), robot branches (``if (r is
  RobotPlayer) …``), robot helpers (functions and properties named ``ai…``), display names (``toString``) and
  the files and classes that hold no rule (robots, network, statistics, the lobby's handlers);
* local names are numbered in order of declaration (a renamed local or parameter is the same tree); a name
  qualified by a type, an enum or a package is its last part (``card_type.Shi_Tan`` = ``Shi_Tan``);
* guards have one form: ``if (a || b) return x``, ``if (a) return x; if (b) return x``, ``!a && !b ||
  return x`` and ``val v = e ?: return x`` / ``if (v == null) return x`` are the same guards; conditions are in
  negation normal form (``!(a == b)`` = ``a != b``, ``!x.contains(y)`` = ``y !in x``), ``===`` is ``==`` and
  the operands of an equality are ordered; ``a until b`` is ``a ..< b``, ``a to b`` is ``Pair(a, b)``.

Constructs are matched by their class path and member name; a construct that disappears on one side and
appears on the other with the same tree (a class or a method renamed, code moved to another file) is the same
construct, and so is one whose trees differ only by names renamed throughout the code base (a name of BASE that
HEAD no longer has, replaced by one BASE never had).
"""
from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field

from .server import CARD_ENUM, COLOUR_ENUM, DIRECTION_ENUM, KIND_NAMES
from .syntax import _make_parser

# ----------------------------------------------------------------------------------------- where rules live
#: directories (relative to the source root) whose files hold rule code
RULE_DIRS = ("skill/", "card/", "phase/", "handler/")
#: top-level files that hold engine rules (phases, events, players, the game, the result passes)
RULE_FILES = frozenset({"Game.kt", "Player.kt", "ProcessFsm.kt", "CountColors.kt", "Fsm.kt", "WaitingFsm.kt",
                        "ResolveResult.kt"})
RULE_FILE_RE = re.compile(r"Event\w*\.kt\Z")
#: files that hold no rule of their own but read rules for the human player (the fight-phase skip, time-outs):
#: a member read there is read by a rule
RULE_READERS = frozenset({"HumanPlayer.kt", "Config.kt"})
#: handlers of the lobby and of the client's housekeeping (rooms, robots, records, heart-beats): no rule
LOBBY_HANDLERS = frozenset({"abstractprotohandler", "protohandler", "main", "addonepositiontos", "addordertos",
                            "addrobottos", "autoplaytos", "displayrecordtos", "getorderstos", "getrecordlisttos",
                            "hearttos", "joinroomtos", "pauserecordtos", "removeonepositiontos", "removerobottos",
                            "gameinitfinishtos", "leaveroomtos"})
#: members of the game that run the lobby, not a game (timers, joining a room, the room registry)
LOBBY_MEMBERS = frozenset({"setStartTimer", "cancelStartTimer", "onPlayerJoinRoom", "exchangePlayer",
                           "newInstance", "main"})
#: members that are not rules wherever they stand: display names, robot helpers
_NOT_RULE_MEMBER = re.compile(r"(send|sendErrorMessage|incrSeq|checkSeq)\Z|(ai|aiSkill|aiSend|aiMain|aiFight|aiPrefer)([A-Z0-9_]\w*)?\Z|toString\Z|"
                              r"toPb\w*\Z|(log|logger)\Z|auto[A-Z]\w*\Z|\w*[nN]otify\w*\Z")
#: calls whose statement is a client message, a log line or protocol bookkeeping
_DROP_CALLS = frozenset({"send", "sendErrorMessage", "incrSeq", "println", "print", "notifyAll",
                         "tryContinueResolveProtocol"})
#: calls that run their lambda later (a timer): left out when what they would run is
_TIMERS = frozenset({"post", "postTask", "newTimeout", "schedule"})
_LOG_HEADS = frozenset({"log", "logger", "LOG", "Log"})
_NOTIFY = re.compile(r"notify[A-Z]\w*\Z")
#: protobuf messages built with the Kotlin DSL (`skillJiuJiAToc { … }`, `useWuDaoTos { … }`) or by name
_PROTO = re.compile(r"[a-z]\w*(Toc|Tos)\Z|\w+_(toc|tos)\Z")
#: the robot player's class: a branch taken only for robots is a robot decision
ROBOT_CLASSES = frozenset({"RobotPlayer"})
#: qualified-name heads that are packages (a name qualified by them is its last part)
_PACKAGES = frozenset({"com", "org", "java", "kotlin", "io", CARD_ENUM, COLOUR_ENUM, DIRECTION_ENUM, "role",
                       "secret_task", "Common", "Fengsheng", "Role", "Errcode"})
_PUNCT = frozenset({"(", ")", "{", "}", "[", "]", ",", ";", ".", "\n", ":", "->", "!!", "\"", "'", "\"\"\"", "@",
                    "<", ">", "=", "val", "var", "?"})
_COMMENTS = ("line_comment", "block_comment", "multiline_comment", "comment")
_JUMPS = ("return_expression", "jump_expression", "throw_expression", "break_expression", "continue_expression")
_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "is": "!is", "!is": "is",
         "in": "!in", "!in": "in"}


def is_rule_file(rel: str) -> bool:
    """Whether a Kotlin file (path relative to the source root) holds rule code."""
    base = rel.rsplit("/", 1)[-1]
    if rel.startswith("handler/"):
        return base[:-3].replace("_", "").lower() not in LOBBY_HANDLERS
    return rel.startswith(RULE_DIRS) or rel in RULE_FILES or bool(RULE_FILE_RE.match(rel))


# ----------------------------------------------------------------------------------------------- constructs
@dataclass
class Construct:
    file: str            # relative to the source root
    line: int            # 1-based, of the declaration
    cls: str             # enclosing class path ("JiuJi.ExecuteJiuJi"; "" at top level)
    member: str          # method / property name; "" for a class's header
    sig: tuple           # (member/arity, member(parameter types)): the first keys it, the second keeps overloads apart
    text: bytes = b""    # the source text (the same text on both sides is the same construct: no normal form needed)
    grants: bool = False  # the body hands out or removes skills (`….skills += …`, `….skills = …`, `deal(…)`)
    end: int = 0         # the last line of the declaration
    build: object = field(default=None, repr=False)      # () -> (normal form, marks, keep), made when first asked
    _made: tuple = field(default=None, repr=False)

    def _make(self):
        if self._made is None:
            self._made = self.build()
        return self._made

    @property
    def tree(self) -> tuple:
        """The normal form."""
        return self._make()[0]

    @property
    def marks(self) -> dict:
        """id() of a statement's normal form -> its line."""
        return self._make()[1]

    @property
    def key(self) -> tuple:
        return (self.cls, self.sig[0])

    @property
    def digest(self) -> str:
        return hashlib.sha1(repr(self.tree).encode("utf-8")).hexdigest()

    @property
    def where(self) -> str:
        return f"{self.cls}.{self.member}" if self.cls and self.member else (self.cls or self.member)


class _Norm:
    """The normal form of one construct's syntax tree (see the module's docstring)."""

    def __init__(self, data: bytes, imports: frozenset, robot_names=frozenset()):
        self.data = data
        self.imports = imports
        self.robot_names = robot_names
        self.locals: dict[str, str] = {}         # local name -> its number, in order of first use in the normal form
        self.declared: set[str] = set()
        self.builders: set[str] = set()
        self.ids: set[str] = set()
        self.marks: dict[int, int] = {}           # id() of a statement's normal form -> its line
        self.keep: list = []

    def text(self, n) -> str:
        return self.data[n.start_byte:n.end_byte].decode("utf-8", "replace")

    # -- locals ----------------------------------------------------------------------------------------
    def declare(self, node, query=None):
        """The local names declared under ``node`` (parameters, vals, vars, lambda and loop variables)."""
        if query is not None:
            import tree_sitter as ts
            for nodes in ts.QueryCursor(query).captures(node).values():
                for c in nodes:
                    self.declared.add(self.text(c))
            return
        stack = [node]                                           # (py-tree-sitter without queries)
        while stack:
            n = stack.pop()
            if n.type in ("parameter", "variable_declaration", "class_parameter", "lambda_parameter"):
                for c in n.named_children:
                    if c.type == "identifier":
                        self.declared.add(self.text(c))
                        break
            stack.extend(reversed(n.named_children))

    def local(self, name: str) -> str:
        if name not in self.locals:
            self.locals[name] = f"v{len(self.locals)}"
        return self.locals[name]

    # -- statements ------------------------------------------------------------------------------------
    def body(self, n) -> tuple:
        """A block (or a single statement standing for one): ("seq", statements …)."""
        if n is None:
            return ("seq",)
        if n.type in ("block", "control_structure_body", "statements", "function_body", "lambda_literal"):
            stmts = [c for c in n.named_children if c.type not in _COMMENTS and c.type not in
                     ("lambda_parameters", "label")]
            if n.type == "function_body" and len(stmts) == 1 and stmts[0].type == "block":
                return self.body(stmts[0])
            if n.type == "function_body" and len(stmts) == 1 and "=" in {c.type for c in n.children
                                                                         if not c.is_named}:
                return ("seq", ("jump", "return", (self.expr(stmts[0]),)))      # `= e` is `{ return e }`
            if n.type == "control_structure_body" and len(stmts) == 1 and stmts[0].type == "block":
                return self.body(stmts[0])
        else:
            stmts = [n]
        out: list = ["seq"]
        for s in stmts:
            for x in self.stmt(s):
                if isinstance(x, tuple):
                    self.marks[id(x)] = s.start_point[0] + 1
                    self.keep.append(x)                 # (its id stays its own)
                out.append(x)
        return tuple(out)

    def stmt(self, n) -> list:
        """A statement's normal form: [] when it is no rule, several for a compound guard."""
        t = n.type
        if t in _COMMENTS:
            return []
        if self.dropped(n):
            return []
        if n.has_error and self.builders and re.search(r"(?<![\w])(%s)\s*\." % "|".join(
                re.escape(b) for b in sorted(self.builders)), self.text(n)):
            return []                                   # what the grammar misread only fills a client message
        if t == "if_expression":
            return self.if_stmt(n)
        if t == "when_expression":
            return [self.when(n)]
        if t in ("for_statement", "while_statement", "do_while_statement"):
            kids = self.kids(n)
            if kids:
                body = self.body(kids[-1])
                if body == ("seq",):
                    return []
                return [(t,) + tuple(self.expr(k) for k in kids[:-1]) + (body,)]
        if t == "binary_expression":
            op = self.op(n)
            kids = self.kids(n)
            if op == "||" and len(kids) == 2 and kids[1].type in _JUMPS:
                return [("guard", self.neg(self.cond(kids[0])), self.expr(kids[1]))]
            if op == "&&" and len(kids) == 2 and kids[1].type in _JUMPS:
                return [("guard", self.cond(kids[0]), self.expr(kids[1]))]
        if t == "property_declaration":
            return self.prop_stmt(n)
        x = self.expr(n)
        if x in (("seq",), ("lambda", ("seq",))):
            return []
        if t in ("for_statement", "while_statement", "do_while_statement") and x[-1] == ("seq",):
            return []
        if isinstance(x, tuple) and x[:1] == ("call",) and x[2] and all(a == ("lambda", ("seq",)) for a in x[2][-1:]) \
                and len(x[2]) == 1:
            return []                                   # `players.forEach { }` left empty
        if t == "call_expression" and n.named_children and self.callee_names(n.named_children[0])[0] in _TIMERS \
                and ("lambda", ("seq",)) in x[2]:
            return []                                   # a timer that would run nothing
        return [x]

    def if_stmt(self, n) -> list:
        cond = n.child_by_field_name("condition")
        branches = [c for c in n.named_children if c != cond and c.type not in _COMMENTS]
        if cond is None:
            return [self.generic(n)]
        robot = self.robot_test(cond)
        if robot is not None:                           # a robot's branch: drop it (keep the other one)
            if len(branches) < 2:
                return []
            other = branches[1] if robot else branches[0]
            kept = self.body(other)
            return list(kept[1:])
        c = self.cond(cond)
        then = self.body(branches[0]) if branches else ("seq",)
        if len(branches) < 2:
            if len(then) == 1:
                return []
            if len(then) == 2 and isinstance(then[1], tuple) and then[1][:1] == ("jump",):
                return [("guard", d, then[1]) for d in self.disjuncts(c)]
            return [("if", c, then)]
        els = self.body(branches[1])
        if len(then) == 1 and len(els) == 1:
            return []
        return [("if", c, then, els)]

    def when(self, n):
        """``when`` as the chain of ``if … else if … else`` it means."""
        subj = next((c for c in n.named_children if c.type == "when_subject"), None)
        sx = None
        if subj is not None:
            inner = [c for c in subj.named_children if c.type not in _COMMENTS]
            sx = self.expr(inner[-1]) if inner else None
        entries = [c for c in n.named_children if c.type == "when_entry"]
        chain = None
        for e in reversed(entries):
            kids = [c for c in e.named_children if c.type not in _COMMENTS]
            if not kids:
                continue
            body = self.body(kids[-1])
            if "else" in {c.type for c in e.children if not c.is_named}:
                chain = body
                continue
            conds = []
            for c in kids[:-1]:
                cx = self.expr(c.named_children[0] if c.type == "when_condition" and c.named_children else c)
                conds.append(cx if sx is None else self.eq("==", sx, cx) if c.type not in (
                    "type_test", "range_test") else ("test", sx, cx))
            cond = conds[0] if len(conds) == 1 else ("or",) + tuple(conds)
            chain = ("if", cond, body) + ((chain,) if chain is not None else ())
            chain = ("seq", chain)
        return chain[1] if chain is not None and len(chain) == 2 and chain[0] == "seq" else (chain or ("seq",))

    def prop_stmt(self, n) -> list:
        vd = next((c for c in n.named_children if c.type == "variable_declaration"), None)
        name = ""
        if vd is not None:
            ident = next((c for c in vd.named_children if c.type == "identifier"), None)
            name = self.text(ident) if ident is not None else ""
        init = [c for c in n.named_children if c.type not in ("modifiers", "variable_declaration") + _COMMENTS]
        value = init[-1] if init else None
        if value is not None and self.is_builder(value):
            self.builders.add(name)
            return []
        v = ("v", self.local(name)) if name in self.declared else ("id", name)
        if value is not None and value.type == "binary_expression" and self.op(value) == "?:":
            kids = self.kids(value)
            if len(kids) == 2 and kids[1].type in _JUMPS:
                return [("decl", v, self.expr(kids[0])), ("guard", self.eq("==", v, ("null",)),
                                                           self.expr(kids[1]))]
        return [("decl", v, self.expr(value) if value is not None else None)]

    # -- what is no rule -------------------------------------------------------------------------------
    def dropped(self, n) -> bool:
        t = n.type
        if t == "call_expression":
            callee = n.named_children[0] if n.named_children else None
            if callee is None:
                return False
            last, head = self.callee_names(callee)
            if last in _DROP_CALLS or head in _LOG_HEADS or head in self.builders or last in self.robot_names:
                return True
            if last and _NOTIFY.match(last):
                return True
            if last and (last.endswith("Toc") or last.endswith("_toc")):
                return True
            return False
        if t == "assignment":
            left = n.child_by_field_name("left") or (n.named_children[0] if n.named_children else None)
            if left is None:
                return False
            last, head = self.callee_names(left)
            return last == "timeout" or head in self.builders or last in self.robot_names
        if t in ("postfix_expression", "unary_expression") and self.op(n) in ("++", "--"):
            kids = self.kids(n)
            return bool(kids) and self.callee_names(kids[0])[0] in self.robot_names
        return False

    def callee_names(self, n) -> tuple:
        """(last name, first name) of a callee or assignment target ``a.b.c`` (either may be "")."""
        parts = []
        cur = n
        while cur is not None:
            if cur.type == "identifier":
                parts.append(self.text(cur))
                break
            if cur.type == "navigation_expression":
                kids = cur.named_children
                if len(kids) == 2 and kids[1].type == "identifier":
                    parts.append(self.text(kids[1]))
                cur = kids[0] if kids else None
                continue
            if cur.type in ("call_expression", "unary_expression", "parenthesized_expression",
                            "indexing_expression", "postfix_expression"):
                cur = cur.named_children[0] if cur.named_children else None
                continue
            break
        if not parts:
            return "", ""
        return parts[0], parts[-1]

    def is_builder(self, value) -> bool:
        """An initialiser that builds a client message (a protobuf builder or the DSL's ``xxxToc { … }``)."""
        if value.type == "call_expression" and value.named_children:
            last, _ = self.callee_names(value.named_children[0])
            if last.endswith("Toc") or last.endswith("_toc"):
                return True
            cur = value                                 # `X.newBuilder().setA(…).setB(…)`
            while cur is not None and cur.type in ("call_expression", "navigation_expression"):
                kids = cur.named_children
                if cur.type == "navigation_expression" and len(kids) == 2 and self.text(kids[1]) == "newBuilder":
                    return True
                cur = kids[0] if kids else None
        return False

    def robot_test(self, cond):
        """True when ``cond`` is ``x is RobotPlayer`` (or a conjunction holding it), False for ``x !is
        RobotPlayer``, else None."""
        c = cond
        while c.type == "parenthesized_expression" and c.named_children:
            c = c.named_children[0]
        if c.type == "binary_expression" and self.op(c) == "&&":
            if any(self.robot_test(k) is True for k in self.kids(c)):
                return True
            return None
        if c.type != "is_expression":
            return None
        typ = c.named_children[-1] if c.named_children else None
        if typ is None or self.text(typ).split(".")[-1] not in ROBOT_CLASSES:
            return None
        return "!is" not in {x.type for x in c.children if not x.is_named}

    # -- expressions -----------------------------------------------------------------------------------
    def kids(self, n) -> list:
        return [c for c in n.named_children if c.type not in _COMMENTS]

    def op(self, n) -> str:
        o = n.child_by_field_name("operator")
        if o is not None:
            return self.text(o)
        for c in n.children:
            if not c.is_named:
                return c.type
        return ""

    def line(self, n) -> int:
        return n.start_point[0] + 1

    def cond(self, n):
        return self.expr(n)

    def neg(self, x):
        """The negation of a normal form, pushed to the atoms."""
        k = x[0] if isinstance(x, tuple) and x else None
        if k == "not":
            return x[1]
        if k == "and":
            return ("or",) + tuple(self.neg(a) for a in x[1:])
        if k == "or":
            return ("and",) + tuple(self.neg(a) for a in x[1:])
        if k in ("cmp",) and x[1] in _FLIP:
            if x[1] in ("==", "!="):
                return self.eq(_FLIP[x[1]], x[2], x[3])
            return ("cmp", _FLIP[x[1]], x[2], x[3])
        if k in ("is", "in"):
            return (k, not x[1]) + x[2:]
        if x == ("lit", True):
            return ("lit", False)
        if x == ("lit", False):
            return ("lit", True)
        return ("not", x)

    def disjuncts(self, x) -> list:
        if isinstance(x, tuple) and x and x[0] == "or":
            return list(x[1:])
        return [x]

    def junction(self, op, a, b):
        k = "and" if op == "&&" else "or"
        parts = []
        for p in (a, b):
            parts.extend(p[1:] if isinstance(p, tuple) and p and p[0] == k else [p])
        return (k,) + tuple(parts)

    def eq(self, op, a, b):
        a, b = sorted((a, b), key=_order)
        return ("cmp", op, a, b)

    def expr(self, n):
        if n is None:
            return None
        t = n.type
        if t == "parenthesized_expression":
            kids = self.kids(n)
            return self.expr(kids[0]) if kids else ("paren",)
        if t == "identifier":
            s = self.text(n)
            if s in ("true", "false"):
                return ("lit", s == "true")
            if s == "null":
                return ("null",)
            if s in self.declared:
                return ("v", self.local(s))
            self.ids.add(s)
            return ("id", s)
        if t in ("number_literal", "integer_literal", "long_literal", "real_literal", "hex_literal",
                 "character_literal", "boolean_literal"):
            s = self.text(n).replace("_", "").rstrip("lLuUfF")
            return ("lit", s)
        if t == "string_literal":
            s = self.text(n)
            s = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", r"$\1", s)
            return ("str", s)
        if t == "unary_expression":
            kids = self.kids(n)
            op = self.op(n)
            if not kids:
                return ("un", op)
            if op == "!!":
                return self.expr(kids[0])
            if op == "!":
                return self.neg(self.expr(kids[0]))
            return ("un", op, self.expr(kids[0]))
        if t == "navigation_expression":
            return self.nav(n)
        if t == "call_expression":
            return self.call(n)
        if t == "binary_expression":
            kids = self.kids(n)
            op = self.op(n)
            if len(kids) != 2:
                return self.generic(n)
            a, b = self.expr(kids[0]), self.expr(kids[1])
            if op in ("&&", "||"):
                return self.junction(op, a, b)
            if op in ("===", "=="):
                return self.eq("==", a, b)
            if op in ("!==", "!="):
                return self.eq("!=", a, b)
            if op in ("<", ">", "<=", ">="):
                return ("cmp", op, a, b)
            return ("bin", op, a, b)
        if t == "infix_expression":
            kids = self.kids(n)
            if len(kids) == 3 and kids[1].type == "identifier":
                fn = self.text(kids[1])
                a, b = self.expr(kids[0]), self.expr(kids[2])
                if fn == "until":
                    return ("range", "..<", a, b)
                if fn == "to":
                    return ("call", ("id", "Pair"), (a, b))
                return ("call", ("nav", ".", a, fn), (b,))
            return self.generic(n)
        if t == "range_expression":
            kids = self.kids(n)
            if len(kids) == 2:
                return ("range", self.op(n), self.expr(kids[0]), self.expr(kids[1]))
            return self.generic(n)
        if t in ("is_expression", "in_expression"):
            kids = self.kids(n)
            anon = {c.type for c in n.children if not c.is_named}
            neg = ("!is" in anon) if t == "is_expression" else ("!in" in anon)
            k = "is" if t == "is_expression" else "in"
            if len(kids) == 2:
                right = ("type", self.type_name(kids[1])) if k == "is" else self.expr(kids[1])
                return (k, not neg, self.expr(kids[0]), right)
            return self.generic(n)
        if t in _JUMPS:
            kids = self.kids(n)
            word = self.text(n).split()[0] if self.text(n) else t
            word = re.sub(r"@\w+", "@", word.split("(")[0])
            val = [self.expr(k) for k in kids if k.type != "label" and not (k.type == "identifier" and
                                                                        self.text(n).startswith(
                                                                            self.text(k).join(("return@", ""))))]
            return ("jump", word, tuple(val))
        if t == "if_expression":
            cond = n.child_by_field_name("condition")
            branches = [c for c in n.named_children if c != cond and c.type not in _COMMENTS]
            return ("ife", self.expr(cond), tuple(self.body(b) for b in branches))
        if t == "lambda_literal":
            return ("lambda", self.body(n))
        if t == "annotated_lambda":
            lam = next((c for c in n.named_children if c.type == "lambda_literal"), None)
            return self.expr(lam) if lam is not None else self.generic(n)
        if t in ("block", "control_structure_body", "statements"):
            return self.body(n)
        if t in ("user_type", "nullable_type", "non_nullable_type"):
            return ("type", self.type_name(n))
        if t == "as_expression":
            kids = self.kids(n)
            return ("as", self.op(n), self.expr(kids[0]) if kids else None,
                    ("type", self.type_name(kids[-1])) if len(kids) > 1 else ("type", ""))
        if t == "property_declaration":
            return ("stmts",) + tuple(self.prop_stmt(n))
        return self.generic(n)

    def type_name(self, n) -> str:
        s = re.sub(r"\s+", "", self.text(n))
        s = re.sub(r"(?<![\w])(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])", "", s)      # qualified → simple
        return s

    def qualified(self, n):
        """``a.b.C`` made of names only → its parts; else None."""
        parts = []
        cur = n
        while cur.type == "navigation_expression":
            kids = cur.named_children
            if len(kids) != 2 or kids[1].type != "identifier" or "?." in self.text(cur)[
                    kids[0].end_byte - cur.start_byte:kids[1].start_byte - cur.start_byte]:
                return None
            parts.append(self.text(kids[1]))
            cur = kids[0]
        if cur.type != "identifier":
            return None
        parts.append(self.text(cur))
        return parts[::-1]

    def nav(self, n):
        kids = n.named_children
        if len(kids) == 2 and kids[1].type == "identifier":
            q = self.qualified(n)
            if q is not None and q[0] not in self.declared and (q[0][:1].isupper() or q[0] in self.imports
                                                               or q[0] in _PACKAGES):
                self.ids.add(q[-1])
                return ("id", q[-1])
            left = kids[0]
            between = self.data[left.end_byte:kids[1].start_byte].decode("utf-8", "replace")
            op = "?." if "?." in between else "."
            if left.type == "unary_expression" and self.op(left) in ("!", "-") and self.kids(left):
                inner = ("nav", op, self.expr(self.kids(left)[0]), self.text(kids[1]))
                return self.neg(inner) if self.op(left) == "!" else ("un", "-", inner)
            lx = self.expr(left)
            if self.hoisted(left):
                return self.rewrap(lx, lambda x: ("nav", op, x, self.text(kids[1])))
            return ("nav", op, lx, self.text(kids[1]))
        return self.generic(n)

    def hoisted(self, left) -> bool:
        """Whether ``left`` starts with a prefix ``!`` the grammar bound tighter than a following member."""
        cur = left
        while cur.type in ("navigation_expression", "call_expression") and cur.named_children:
            cur = cur.named_children[0]
            if cur.type == "unary_expression" and self.op(cur) == "!":
                return True
        return False

    def rewrap(self, x, wrap):
        if isinstance(x, tuple) and x and x[0] == "not":
            return self.neg(self.rewrap(x[1], wrap))
        if isinstance(x, tuple) and x and x[0] in ("cmp", "is", "in", "and", "or"):
            return wrap(x)
        return wrap(x)

    def call(self, n):
        kids = n.named_children
        if not kids:
            return self.generic(n)
        callee = kids[0]
        last, _head = self.callee_names(callee)
        if last and (_PROTO.match(last) or last == "getDefaultInstance"):
            return ("proto",)                           # a client message built (what is in it is no rule)
        args: list = []
        targs = ""
        for c in kids[1:]:
            if c.type == "value_arguments":
                for va in c.named_children:
                    if va.type != "value_argument":
                        continue
                    vk = [x for x in va.named_children if x.type not in _COMMENTS]
                    named = None
                    if len(vk) >= 2 and vk[0].type == "identifier" and "=" in self.text(va)[:self.text(va).find(
                            self.text(vk[1]))]:
                        named, vk = self.text(vk[0]), vk[1:]
                    x = self.expr(vk[-1]) if vk else None
                    args.append(("named", named, x) if named else x)
            elif c.type == "annotated_lambda":
                args.append(self.expr(c))
            elif c.type == "type_arguments":
                targs = self.type_name(c)
            elif c.type == "lambda_literal":
                args.append(self.expr(c))
        if callee.type == "navigation_expression" and len(callee.named_children) == 2 and \
                self.text(callee.named_children[1]) == "contains" and len(args) == 1 and self.qualified(callee) is None:
            return ("in", True, args[0], self.expr(callee.named_children[0]))
        if callee.type == "navigation_expression" and self.hoisted(callee) or (
                callee.type == "unary_expression" and self.op(callee) == "!"):
            if callee.type == "unary_expression":
                inner = self.kids(callee)
                return self.neg(("call", self.expr(inner[0]) if inner else None, tuple(args), targs))
            cx = self.expr(callee)
            return self.rewrap(cx, lambda x: ("call", x, tuple(args), targs))
        return ("call", self.expr(callee), tuple(args), targs)

    def generic(self, n):
        out = [n.type]
        for c in n.children:
            if c.type in _COMMENTS or (n.type == "parameter" and c.type in _TYPES):
                continue
            if c.is_named:
                out.append(self.expr(c))
            elif c.type not in _PUNCT and c.type.strip():
                out.append(c.type)
        return tuple(out)


# ------------------------------------------------------------------------------------------ the constructs
def _name(node, data) -> str:
    ident = node.child_by_field_name("name")
    if ident is None and node.type == "property_declaration":
        vd = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if vd is not None:
            ident = next((c for c in vd.named_children if c.type == "identifier"), None)
    if ident is None:
        ident = next((c for c in node.named_children if c.type in ("identifier", "type_identifier",
                                                                   "simple_identifier")), None)
    if ident is None and node.type == "property_declaration":
        vd = next((c for c in node.named_children if c.type in ("variable_declaration",
                                                                "multi_variable_declaration")), None)
        if vd is not None:
            ident = next((c for c in vd.named_children if c.type == "identifier"), None)
    return data[ident.start_byte:ident.end_byte].decode("utf-8", "replace") if ident is not None else ""


def _imports(root, data) -> frozenset:
    out = set()
    for n in root.named_children:
        if n.type in ("import", "import_header", "import_list"):
            for imp in ([n] if n.type != "import_list" else n.named_children):
                txt = data[imp.start_byte:imp.end_byte].decode("utf-8", "replace")
                parts = re.findall(r"[A-Za-z_]\w*", txt.replace("import", "", 1))
                if parts and parts[-1] != "as":
                    out.add(parts[-1])
                for p in parts:
                    out.add(p)
    return frozenset(out)


_CLASSES = ("class_declaration", "object_declaration", "companion_object")
_TYPES = ("user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type")
_MEMBERS = ("function_declaration", "property_declaration", "anonymous_initializer", "secondary_constructor",
            "getter", "setter")


def constructs(rel: str, data: bytes, parser=None, robot_names=frozenset(), trees=None) -> list:
    """The constructs of one Kotlin file (see ``Construct``); none when the file holds no rule. ``robot_names``:
    members only robots read (not rules: their declarations and what is written to them are left out)."""
    if not is_rule_file(rel):
        return []
    parser = parser or _make_parser()
    query = _locals_query(parser)
    tree = trees.get(id(data)) if trees is not None else None
    if tree is None:
        tree = parser.parse(data)
        if trees is not None:
            trees[id(data)] = tree
    root = tree.root_node
    imports = _imports(root, data)
    out: list[Construct] = []

    def add(node, cls, member, sig, parts, end_node=None):
        def build():
            nm = _Norm(data, imports, robot_names)
            nm.declare(node, query)
            trees = []
            for p in parts:
                trees.append(nm.body(p) if p is not None and p.type in ("function_body", "block")
                             else nm.expr(p) if p is not None else None)
            return _renumber(_simplify((node.type, member and "m", tuple(trees)), nm.marks, nm.keep), nm.marks)
        text = data[node.start_byte:node.end_byte]
        grants = bool(re.search(rb"\bskills\s*(\+|-)?=|\.deal\(", text))
        out.append(Construct(rel, node.start_point[0] + 1, cls, member, sig, text, grants,
                             (end_node or node).end_point[0] + 1, build))

    def walk_class(node, outer: str):
        name = _name(node, data) if node.type != "companion_object" else (_name(node, data) or "Companion")
        path = f"{outer}.{name}" if outer else name
        if node.type == "companion_object" and not _name(node, data):
            path = f"{outer}.Companion" if outer else "Companion"
        body = next((c for c in node.named_children if c.type in ("class_body", "enum_class_body")), None)
        is_enum = "enum" in data[node.start_byte:(body.start_byte if body is not None else node.end_byte)].decode(
            "utf-8", "replace").split()
        header = [c for c in node.named_children if c.type not in ("class_body", "enum_class_body", "identifier",
                                                                    "type_identifier") + _COMMENTS]
        if not is_enum and not _NOT_RULE_MEMBER.match(name) and header:      # (a bare `object`/`companion`: none)
            add(node, path, "", ("", ""), header, end_node=header[-1])
        if body is None:
            return
        for m in body.named_children:
            if m.type in _CLASSES:
                if not _robot_name(_name(m, data)):
                    walk_class(m, path)
            elif m.type in _MEMBERS:
                member(m, path)

    def member(m, path):
        nm = _name(m, data) or {"anonymous_initializer": "init", "secondary_constructor": "constructor"}.get(
            m.type, m.type)
        if _NOT_RULE_MEMBER.match(nm) or nm in robot_names or (rel == "Game.kt" and (nm in LOBBY_MEMBERS or ".Companion" in path
                                                                 or path == "Companion")):
            return
        params = next((c for c in m.named_children if c.type == "function_value_parameters"), None)
        ptxt = re.sub(r"\s+", "", data[params.start_byte:params.end_byte].decode("utf-8", "replace")) \
            if params is not None else ""
        ptypes = ",".join(re.findall(r":([^,=]+)", ptxt.strip("()")))
        parts = [c for c in m.named_children if c.type not in ("identifier", "modifiers") + _TYPES + _COMMENTS]
        arity = len(re.findall(r":", ptxt)) if ptxt else 0
        add(m, path, nm, (f"{nm}/{arity}", f"{nm}({ptypes})") if m.type == "function_declaration" else (nm, nm),
            parts)

    for top in root.named_children:
        if top.type in _CLASSES:
            if not _robot_name(_name(top, data)):
                walk_class(top, "")
        elif top.type in _MEMBERS:
            member(top, "")
    return out


_QUERY = re.compile(r"(get|is|has|find|count|calc|filter|any|all|none|first|last|map|sum|contains|to[A-Z]|"
                    r"coerce|min|max|size|indexOf|sort)\w*\Z")


def _order(x) -> str:
    """The order of the two sides of an equality: by their shape, local numbers left out (they are given later)."""
    return re.sub(r"\('v', 'v\d+'\)", "('v',)", repr(x))


def _pure(x) -> bool:
    """A normal form that changes nothing when evaluated: no call but of a query (``getX``, ``isX``, ``filter``…),
    no lambda but a query's, no jump."""
    if not isinstance(x, tuple):
        return True
    if x[:1] in (("lambda",), ("jump",), ("assignment",)):
        return False
    if x[:1] == ("call",):
        callee = x[1]
        name = callee[-1] if isinstance(callee, tuple) and callee[:1] == ("nav",) else \
            callee[1] if isinstance(callee, tuple) and callee[:1] == ("id",) else ""
        if not (isinstance(name, str) and _QUERY.match(name)):
            return False
        return _pure(callee) and all(_pure(a) if a[:1] != ("lambda",) else _pure(a[1]) for a in x[2]
                                     if isinstance(a, tuple))
    return all(_pure(c) for c in x)


def _uses(x, out: dict):
    if isinstance(x, tuple):
        if len(x) == 2 and x[0] == "v":
            out[x[1]] = out.get(x[1], 0) + 1
        else:
            for c in x:
                _uses(c, out)


def _simplify(tree, marks: dict, keep: list):
    """What dropping left behind, dropped too: a local nothing reads any more (its initialiser read nothing), an
    ``if`` or a loop with nothing left to do."""
    for _ in range(12):
        uses: dict = {}
        _uses(tree, uses)
        changed = [False]

        def empty(x) -> bool:
            if not isinstance(x, tuple) or not x:
                return False
            if x[0] == "decl" and len(x) == 3 and isinstance(x[1], tuple) and x[1][0] == "v" and \
                    uses.get(x[1][1], 0) <= 1 and _pure(x[2]):
                return True
            if x[0] == "if" and all(b == ("seq",) for b in x[2:]) and _pure(x[1]):
                return True
            if x[0] in ("for_statement", "while_statement") and x[-1] == ("seq",):
                return True
            if x[0] == "call" and len(x) >= 3 and isinstance(x[1], tuple) and x[1] and x[1][-1] in _TIMERS \
                    and ("lambda", ("seq",)) in x[2]:
                return True                             # a timer left with nothing to run
            return False

        def walk(x):
            if not isinstance(x, tuple):
                return x
            if x and x[0] == "seq":
                kept = []
                for c in x[1:]:
                    w = walk(c)
                    if empty(w):
                        changed[0] = True
                        continue
                    kept.append(w)
                out = ("seq",) + tuple(kept)
            else:
                out = tuple(walk(c) for c in x)
            if id(x) in marks and out is not x:
                marks[id(out)] = marks[id(x)]
                keep.append(out)
            return out

        new = walk(tree)
        if not changed[0]:
            return new
        tree = new
    return tree


_QUERIES: dict = {}


def _locals_query(parser):
    """A tree-sitter query for the names locals are declared with (None when the binding has no queries)."""
    lang = getattr(parser, "language", None)
    if lang is None:
        return None
    if id(lang) not in _QUERIES:
        try:
            import tree_sitter as ts
            _QUERIES[id(lang)] = (lang, ts.Query(lang, "(parameter (identifier) @p) (variable_declaration "
                                                       "(identifier) @v) (class_parameter (identifier) @c)")
                                  if hasattr(ts, "QueryCursor") else None)
        except Exception:                                      # pragma: no cover - another binding
            _QUERIES[id(lang)] = (lang, None)
    return _QUERIES[id(lang)][1]


def _renumber(tree, marks: dict):
    """The tree with its locals numbered again in order of first appearance (code left out of the normal form
    leaves no gap), and the statements' lines carried over."""
    names: dict = {}
    new_marks: dict = {}
    keep: list = []

    def walk(x):
        if not isinstance(x, tuple):
            return x
        if len(x) == 2 and x[0] == "v":
            return ("v", names.setdefault(x[1], f"v{len(names)}"))
        out = tuple(walk(c) for c in x)
        if id(x) in marks:
            new_marks[id(out)] = marks[id(x)]
            keep.append(out)
        return out

    return walk(tree), new_marks, keep


def _robot_name(name: str) -> bool:
    return name in ROBOT_CLASSES or bool(_NOT_RULE_MEMBER.match(name))


# -------------------------------------------------------------------------------------------- the changes
@dataclass
class Change:
    """One rule-bearing construct that differs between BASE and HEAD."""
    file: str            # relative to the source root (HEAD's; BASE's when removed)
    line: int            # the first line that differs (HEAD's; BASE's when removed)
    cls: str
    member: str
    change: str          # "changed" | "added" | "removed"
    side: str            # "HEAD" | "BASE": where file:line is
    grants: bool = False
    base_file: str = ""
    base_line: int = 0
    span: tuple = (0, 0)       # HEAD's first and last line of the construct
    base_span: tuple = (0, 0)  # BASE's
    text: bytes = field(default=b"", repr=False)      # the construct's source (HEAD's; BASE's when removed)

    def role_table(self, role_class: str) -> bool:
        """Whether the construct is the role table (it calls the role table's class, three times or more)."""
        return len(re.findall(rb"(?<![\w])" + re.escape(role_class.encode()) + rb"\s*\(", self.text)) >= 3

    @property
    def where(self) -> str:
        return f"{self.cls}.{self.member}" if self.cls and self.member else (self.cls or self.member or "")

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "class": self.cls, "method": self.member,
                "construct": self.where, "change": self.change, "side": self.side}


@dataclass
class Comparison:
    changes: list = field(default_factory=list)       # of Change
    files: int = 0                                    # rule-bearing files that differ
    headers: dict = field(default_factory=dict)       # side -> class path -> (file, first line, last line)
    robot_names: frozenset = frozenset()              # members only robots read (see ``robot_only``)
    constructs: dict = field(default_factory=dict)    # side -> every construct of the changed files
    same: int = 0                                     # changed constructs recognised as the same rule


def changed_files(base: dict, head: dict) -> list:
    """The relative paths whose bytes differ (added and removed included), sorted."""
    return sorted(p for p in set(base) | set(head) if base.get(p) != head.get(p))


def compare(base: dict, head: dict) -> Comparison:
    """``base`` and ``head``: {relative path: bytes} of the Kotlin sources of two revisions."""
    parser = _make_parser()
    files = [p for p in changed_files(base, head) if is_rule_file(p)]

    parsed: dict = {}

    def collect(robot=frozenset()):
        bc: list[Construct] = []
        hc: list[Construct] = []
        for p in files:
            if p in base:
                bc.extend(constructs(p, base[p], parser, robot, parsed))
            if p in head:
                hc.extend(constructs(p, head[p], parser, robot, parsed))
        return bc, hc

    bc, hc = collect()
    robot = robot_only(bc, hc, base, head)
    if robot:
        bc, hc = collect(robot)
    base_all = b"\n".join(base.values())
    head_all = b"\n".join(head.values())
    cmp = Comparison(files=len(files))
    cmp.robot_names = robot
    cmp.constructs = {"BASE": bc, "HEAD": hc}
    cmp.headers = {side: {c.cls: (c.file, c.line, c.end) for c in cs if not c.member}
                   for side, cs in (("BASE", bc), ("HEAD", hc))}
    bmap = _by_key(bc)
    hmap = _by_key(hc)
    gone = [b for k, b in bmap.items() if k not in hmap]
    new = [h for k, h in hmap.items() if k not in bmap]
    renamed = {(a, b) for x in gone for y in new
               for a, b in ((x.member, y.member), (x.cls.rsplit(".", 1)[-1], y.cls.rsplit(".", 1)[-1])) if a and b}
    removed = []
    for k, b in bmap.items():
        h = hmap.get(k)
        if h is None:
            removed.append(b)
            continue
        if b.text == h.text or b.tree == h.tree:
            continue
        if _renamed_only(b, h, base_all, head_all, renamed):
            cmp.same += 1
            continue
        cmp.changes.append(Change(h.file, _first_diff(b.tree, h.tree, h.marks, h.line), h.cls, h.member, "changed",
                                  "HEAD", b.grants or h.grants, b.file, _first_diff(h.tree, b.tree, b.marks, b.line),
                                  (h.line, h.end), (b.line, b.end), h.text))
    added = new
    # moved or renamed constructs: the same tree elsewhere
    pool: dict[str, list] = {}
    for b in removed:
        pool.setdefault(b.digest, []).append(b)
    rest_added = []
    for h in added:
        lst = pool.get(h.digest)
        if lst:
            lst.pop()
            cmp.same += 1
        else:
            rest_added.append(h)
    rest_removed = [b for lst in pool.values() for b in lst]
    still_added = []
    for h in rest_added:
        fits = [b for b in rest_removed if _renamed_only(b, h, base_all, head_all, renamed)]
        match = max(fits, key=lambda b: (b.member == h.member, difflib.SequenceMatcher(
            None, f"{b.file}:{b.where}", f"{h.file}:{h.where}").ratio())) if fits else None
        if match is not None:
            rest_removed.remove(match)
            cmp.same += 1
        else:
            still_added.append(h)
    for h in still_added:
        if _empty(h) or _empty_class(h, hc):
            continue
        cmp.changes.append(Change(h.file, h.line, h.cls, h.member, "added", "HEAD", h.grants, span=(h.line, h.end),
                                  text=h.text))
    for b in rest_removed:
        if _empty(b) or _empty_class(b, bc):
            continue
        cmp.changes.append(Change(b.file, b.line, b.cls, b.member, "removed", "BASE", b.grants, b.file, b.line,
                                  base_span=(b.line, b.end), text=b.text))
    cmp.changes.sort(key=lambda c: (c.file, c.line, c.where, c.change))
    return cmp


_FUN = re.compile(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(\w+)")


def robot_only(bc: list, hc: list, base: dict, head: dict) -> frozenset:
    """Members (not overrides) of the changed constructs that no rule reads: every read of them, in either
    revision, stands in a file that holds no rule or in a robot helper (``ai…``), or there is none (what only
    robots read is a robot decision, what nobody reads decides nothing)."""
    names = {c.member for c in bc + hc if c.member and not re.match(rb"\s*(@\w+\s*)*(\w+\s+)*override\b", c.text)
             and c.member not in READ_MEMBERS and re.match(r"[A-Za-z_]\w*\Z", c.member)}
    out = set()
    for name in sorted(names):
        pat = re.compile(rb"(?<![\w])" + re.escape(name.encode()) + rb"(?![\w])")
        ok = True
        for side in (base, head):
            for rel, data in side.items():
                if name.encode() not in data:
                    continue
                rule_file = is_rule_file(rel) or rel in RULE_READERS
                funs = None
                for m in pat.finditer(data):
                    before = data[max(0, m.start() - 12):m.start()]
                    after = data[m.end():m.end() + 4]
                    if re.search(rb"\b(val|var|fun)\s+(\w+\.)?\Z", before):
                        continue                                      # its declaration
                    if re.match(rb"\s*(\+\+|--|[-+*/]?=(?!=))", after):
                        continue                                      # a write
                    if not rule_file:
                        continue
                    if funs is None:
                        funs = [(f.start(), f.group(1).decode()) for f in _FUN.finditer(data)]
                    enclosing = next((n for pos, n in reversed(funs) if pos < m.start()), "")
                    if enclosing and _NOT_RULE_MEMBER.match(enclosing):
                        continue
                    ok = False
                    break
                if not ok:
                    break
            if not ok:
                break
        if ok:
            out.add(name)
    return frozenset(out)


def _empty(c: Construct) -> bool:
    """A method whose normal form does nothing (it only logged, answered the client or forwarded a message): adding
    or removing it changes no rule."""
    body = c.tree[2][-1] if c.member and c.tree[2] else None
    return body == ("seq",)


def _empty_class(c: Construct, side: list) -> bool:
    """A class header whose members all do nothing (a handler that only forwards the client's message)."""
    if c.member:
        return False
    members = [x for x in side if x.member and (x.cls == c.cls or x.cls.startswith(c.cls + "."))]
    return bool(members) and all(_empty(x) for x in members)


def _by_key(cs: list) -> dict:
    out: dict = {}
    twice = set()
    seen = set()
    for c in cs:
        (twice if c.key in seen else seen).add(c.key)
    for c in cs:
        k = c.key if c.key not in twice else (c.cls, c.sig[1])   # overloads: by their parameter types
        if k in out:                                     # the same class path in two files: keep them apart
            k = (c.file,) + k
        out[k] = c
    return out


def _renamed_only(b: Construct, h: Construct, base_all: bytes, head_all: bytes, renamed=frozenset()) -> bool:
    """Whether the two trees differ only by names renamed throughout: each name of BASE replaced (always by the
    same name) by one that HEAD no longer holds and that is new in HEAD — or that names a declaration renamed in
    the same commit (``renamed``: (old, new) pairs of the members and classes that disappeared and appeared)."""
    pairs: dict = {}
    if not _same_shape(b.tree, h.tree, pairs):
        return False
    if not pairs:
        return True
    if len(set(pairs.values())) != len(pairs):
        return False
    for old, new in pairs.items():
        old_s = re.sub(r"<.*", "", old).rstrip("?")
        new_s = re.sub(r"<.*", "", new).rstrip("?")
        if (old_s, new_s) in renamed:
            continue
        if _has_word(head_all, old_s):
            return False
        if _has_word(base_all, new_s) and (old_s, new_s) not in renamed:
            return False
    return True


def _has_word(data: bytes, word: str) -> bool:
    return re.search(rb"(?<![\w])" + re.escape(word.encode("utf-8")) + rb"(?![\w])", data) is not None


def _same_shape(a, b, pairs: dict) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) == 2 and len(b) == 2 and a[0] == b[0] == "type" and a[1] != b[1]:
            ta, tb = re.split(r"(\w+)", a[1]), re.split(r"(\w+)", b[1])
            if len(ta) != len(tb) or ta[0::2] != tb[0::2]:
                return False
            return all(pairs.setdefault(x, y) == y for x, y in zip(ta[1::2], tb[1::2]) if x != y)
        if len(a) == 2 and len(b) == 2 and a[0] == b[0] and a[0] in ("id", "type"):
            if a[1] == b[1]:
                return True
            if pairs.setdefault(a[1], b[1]) != b[1]:
                return False
            return True
        if len(a) != len(b):
            return False
        if len(a) == 4 and a[0] == "nav" == b[0] and a[1] == b[1] and a[3] != b[3]:
            if pairs.setdefault(a[3], b[3]) != b[3]:      # a member's name
                return False
            return _same_shape(a[2], b[2], pairs)
        return all(_same_shape(x, y, pairs) for x, y in zip(a, b))
    return a == b


def _first_diff(a, b, marks: dict, default: int) -> int:
    """The line, in ``b``'s source, of the first statement where ``b``'s tree departs from ``a``'s (``default``
    when it cannot be told)."""
    line = default
    while True:
        line = marks.get(id(b), line)
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or a == b:
            return line
        i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), None)
        if i is None:                                   # one is a prefix of the other
            if len(b) > len(a) and isinstance(b[len(a)], tuple):
                return marks.get(id(b[len(a)]), line)
            return line
        a, b = a[i], b[i]


# ----------------------------------------------------------------------------------------- from the gate
def read_tree(root) -> dict:
    """{relative path: bytes} of every Kotlin file under ``root``."""
    from pathlib import Path
    root = Path(root)
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.kt")) if p.is_file()}


# ------------------------------------------------------------------------------------- what the gate read
#: members the extractor translates into the catalogue (the rule methods of the design note, the skill's name
#: and initial flag, a card's type): a change there that leaves the catalogue alone has the same meaning
READ_MEMBERS = frozenset({"canUse", "mustReceive", "cannotReceive", "checkDir", "checkCanLock", "checkSendCard",
                          "changeDrawCardCount", "skillId", "isInitialSkill", "type", "getSkillId"})


#: the longest construct (lines) an engine rule read the same in both revisions vouches for whole
ENGINE_SPAN = 45


def _at(where: str) -> tuple:
    file, _, line = (where or "").rpartition(":")
    return (file, int(line)) if line.isdigit() else ("", 0)


def unread(cmp: Comparison, base_ex, head_ex, changed_ids, wheres=(), understood=()) -> list:
    """The changes of ``cmp`` the extraction did not turn into a catalogue difference, in order.

    ``changed_ids``: the catalogue ids (rules, cards, characters, gives sites ``giver#i``) that differ or that a
    changed decision names; ``wheres``: "file:line" (relative to the source root, HEAD's) of the engine rules that
    changed and of the code that became readable — the construct holding one is read. A change is *read* when it
    stands in a construct the extractor translates whole (a rule method of ``READ_MEMBERS`` with nothing undecided in
    it, the role table) or in a class a catalogue difference names — its header, a read member, a member that hands
    out skills, or the whole class when it is added or removed."""
    ids = {i.split("#")[0] for i in changed_ids}
    classes: dict[str, set] = {"HEAD": set(), "BASE": set()}
    spans = {"HEAD": _class_spans(cmp, "HEAD"), "BASE": _class_spans(cmp, "BASE")}
    for side, ex in (("HEAD", head_ex), ("BASE", base_ex)):
        for rid in ids:
            file, line = _at(ex.locations.get(rid, ""))
            if file:
                for cls, (f, a, b) in spans[side].items():
                    if f == file and a <= line <= b:
                        classes[side].add(cls)
    hot = [_at(w) for w in wheres]
    # what the extractor reads: the class of every rule and card (its header: kinds, conversions, parameters) and
    # the code of every engine rule it reads the same in both revisions
    headers = {(side, _at(w)) for side, ex in (("HEAD", head_ex), ("BASE", base_ex)) for w in ex.locations.values()}
    same_engine = [(side, _at(r.where)) for name, r in head_ex.engine.items()
                   if r.value is not None and base_ex.engine.get(name) is not None
                   and base_ex.engine[name].value == r.value
                   for side, r in (("HEAD", r), ("BASE", base_ex.engine[name])) if r.where]
    vouched = _vouched(cmp, same_engine)
    # the rule methods are translated for skills (a card's `canUse` gives only its windows)
    skills = {rid for ex in (base_ex, head_ex) for rid in (getattr(getattr(ex, "catalogue", None), "skills", None) or {})}
    undecided = [(_at(i.where), ex is head_ex) for ex in (base_ex, head_ex) for i in ex.report if i.undecided]
    role = (getattr(head_ex, "role_class", "") or getattr(base_ex, "role_class", ""))
    whole = {c.cls for c in cmp.changes if not c.member and c.change in ("added", "removed")}
    out = []
    for c in cmp.changes:
        if any(f == c.file and c.span[0] <= ln <= c.span[1] for f, ln in hot):
            continue
        if c.member in READ_MEMBERS and c.cls.rsplit(".", 1)[-1] in skills and not any(
                f and ln and ((head and f == c.file and c.span[0] <= ln <= c.span[1]) or
                              (not head and f == c.base_file and c.base_span[0] <= ln <= c.base_span[1]))
                for (f, ln), head in undecided):
            continue
        if role and c.role_table(role):
            continue
        if c.member in READ_MEMBERS and c.cls.rsplit(".", 1)[-1] in understood and c.cls.rsplit(".", 1)[-1] in skills:
            continue
        if not c.member and (("HEAD", (c.file, c.span[0])) in headers or
                             ("BASE", (c.base_file or c.file, c.base_span[0])) in headers):
            continue
        if (c.file, c.where) in vouched["HEAD"] or (c.base_file, c.where) in vouched["BASE"]:
            continue
        if not c.member and re.match(rb"\s*(\w+\s+)*interface\s+\w+\s*(:\s*[\w<>,. ]+)?(\{\s*\})?\s*\Z", c.text):
            continue                                    # a marker: what it means is who implements it (read)
        if not c.member and c.cls.rsplit(".", 1)[-1] in KIND_NAMES:
            continue                                    # a kind of skill: read through the hierarchy
        named = any(c.cls == k or c.cls.startswith(k + ".") for k in classes["HEAD"] | classes["BASE"])
        if named and (not c.member or c.member in READ_MEMBERS or c.grants or
                      any(c.cls == k or c.cls.startswith(k + ".") for k in whole)):
            continue
        out.append(c)
    return out


def _vouched(cmp: Comparison, same_engine: list) -> dict:
    """side -> {(file, construct)} that an engine rule read the same in both revisions vouches for: the construct (at
    most ENGINE_SPAN lines) holding the rule's code, and the helpers of that file it calls (read through)."""
    out = {}
    for side in ("HEAD", "BASE"):
        cs = cmp.constructs.get(side, [])
        lines = [(f, ln) for sd, (f, ln) in same_engine if sd == side]
        hold = [c for c in cs if c.member and c.end - c.line <= ENGINE_SPAN and
                any(f == c.file and c.line <= ln <= c.end for f, ln in lines)]
        got = {(c.file, c.where) for c in hold}
        for c in cs:
            if c.member and c.end - c.line <= ENGINE_SPAN and any(
                    h.file == c.file and h is not c and _has_word(h.text, c.member) for h in hold):
                got.add((c.file, c.where))
        out[side] = got
    return out


def _class_spans(cmp: Comparison, side: str) -> dict:
    """class path -> (file, first line, last line) of the classes whose header is a construct of ``side``."""
    return cmp.headers.get(side, {})
