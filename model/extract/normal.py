"""The normal form of a Kotlin construct's syntax tree, for the unread-code comparison (``unread``): what is no
rule left out (logging, client messages, robot branches, time-outs), guards and conditions in one form, locals
numbered, what dropping left behind dropped too. See ``unread``'s docstring for the list."""
from __future__ import annotations

import re

from .normal_idioms import counter_loop, repeat_loop, rewrite_call
from .server import CARD_ENUM, COLOUR_ENUM, DIRECTION_ENUM

#: members that are not rules wherever they stand: display names, robot helpers
_NOT_RULE_MEMBER = re.compile(r"(send|sendErrorMessage|incrSeq|checkSeq)\Z|(ai|aiSkill|aiSend|aiMain|aiFight|aiPrefer)([A-Z0-9_]\w*)?\Z|toString\Z|"
                              r"toPb\w*\Z|(log|logger)\Z|auto[A-Z]\w*\Z|\w*[nN]otify\w*\Z")
#: calls whose statement is a client message, a log line or protocol bookkeeping
_DROP_CALLS = frozenset({"send", "sendErrorMessage", "incrSeq", "println", "print", "notifyAll",
                         "assert"})      # (`assert`: JVM assertions are off in play)
#: calls that run their lambda later (a timer): left out when what they would run is
_TIMERS = frozenset({"post", "postTask", "newTimeout", "schedule"})
_LOG_HEADS = frozenset({"log", "logger", "LOG", "Log"})
_NOTIFY = re.compile(r"notify[A-Z]\w*\Z")
#: protobuf messages built with the Kotlin DSL (`skillJiuJiAToc { … }`, `useWuDaoTos { … }`) or by name
_PROTO = re.compile(r"[a-z]\w*(Toc|Tos)\Z|\w+_(toc|tos)\Z")
#: the robot player's class: a branch taken only for robots is a robot decision
ROBOT_CLASSES = frozenset({"RobotPlayer"})
#: the human player's class (a player is a human or a robot: the other branch of a test on it is the robot's)
HUMAN_CLASSES = frozenset({"HumanPlayer"})
#: the call handing a client's message (or a time-out's or robot's stand-in) to the state the game waits in: kept
#: as who answers, without the message (what is in it is protocol)
FORWARD = "tryContinueResolveProtocol"
#: qualified-name heads that are packages (a name qualified by them is its last part)
_PACKAGES = frozenset({"com", "org", "java", "kotlin", "io", CARD_ENUM, COLOUR_ENUM, DIRECTION_ENUM, "role",
                       "secret_task", "Common", "Fengsheng", "Role", "Errcode"})
_PUNCT = frozenset({"(", ")", "{", "}", "[", "]", ",", ";", ".", "\n", ":", "->", "!!", "\"", "'", "\"\"\"", "@",
                    "<", ">", "=", "val", "var", "?"})
_COMMENTS = ("line_comment", "block_comment", "multiline_comment", "comment")
_JUMPS = ("return_expression", "jump_expression", "throw_expression", "break_expression", "continue_expression")
_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "is": "!is", "!is": "is",
         "in": "!in", "!in": "in"}
_TYPES = ("user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type")


_THIS = ("this_expression", "this")
#: ``fun Map<K, V>.f(…)`` (also ``MutableMap``, ``HashMap``, ``LinkedHashMap``) with ``V`` declared without ``?``
_MAP_RECEIVER = re.compile(rb"^[^=({]*?\bfun\s+(?:<[^>]*>\s*)?(?:kotlin\.collections\.)?(?:Mutable|Hash|LinkedHash)?Map"
                           rb"<\s*[\w.]+\s*,\s*([\w.]+(?:<[^<>]*>)?)(\??)\s*>\s*\.")


def map_receiver(text: bytes) -> bool:
    """Whether a function's text declares it an extension of a map whose values are never null: there the map's own
    ``get(k) != null`` / ``this[k] != null`` is ``containsKey(k)``, ``k in this`` (a value that may be null differs:
    a key held with a null value)."""
    m = _MAP_RECEIVER.match(text)
    return bool(m) and not m.group(2)


def _own_get(x):
    """The key of the receiver's own ``get(k)`` / ``this[k]`` / ``this.get(k)``, or None."""
    if isinstance(x, tuple) and len(x) == 4 and x[0] == "call" and len(x[2]) == 1 and x[3] == "" and \
            x[1] in (("id", "get"), ("nav", ".", _THIS, "get")) and not (isinstance(x[2][0], tuple) and
                                                                       x[2][0][:1] in (("lambda",), ("named",))):
        return x[2][0]
    if isinstance(x, tuple) and len(x) == 3 and x[0] == "index_expression" and x[1] == _THIS:
        return x[2]
    return None


class _Norm:
    """The normal form of one construct's syntax tree (see the module's docstring)."""

    def __init__(self, data: bytes, imports: frozenset, robot_names=frozenset(), dead=None, helpers=None,
                 moments=None):
        self.data = data
        self.imports = imports
        self.robot_names = robot_names
        self.dead = dead or {}                    # class / function name -> {parameter: index} no rule reads
        self.helpers = helpers or {}              # (name, arity) -> one-expression extension helper (``helpers``)
        self.moments = moments or {}              # state name -> index of the state it goes on with (``quiet_moments``)
        self.locals: dict[str, str] = {}         # local name -> its number, in order of first use in the normal form
        self.declared: set[str] = set()
        self.builders: set[str] = set()
        self.ids: set[str] = set()
        self.marks: dict[int, int] = {}           # id() of a statement's normal form -> its line
        self.keep: list = []
        self._constants = None
        self.owner = ""                           # the holder parameter of a trigger's `execute(g, askWhom)`
        self.owner_alive = False                  # that trigger is asked only while its holder lives
        self.rel = ""                             # the file's path (its private helpers are its own)
        self.map_this = False                     # an extension of a map whose values are never null (``map_receiver``)

    def owner_local(self):
        """The holder's local in the normal form (see ``_simplify``), or None; ``("alive", local)`` for a trigger
        asked only while its holder lives."""
        if not (self.owner and self.owner in self.locals):
            return None
        v = ("v", self.locals[self.owner])
        return ("alive", v) if self.owner_alive else v

    @property
    def constants(self) -> dict:
        """The file's private constant lists (``private val kinds = listOf(Shi_Tan, Wei_Bi)``): name -> its elements'
        names; a use of one is the list itself (see ``inlined_constant``)."""
        if self._constants is None:
            self._constants = file_constants(self.data)
        return self._constants

    def text(self, n) -> str:
        return self.data[n.start_byte:n.end_byte].decode("utf-8", "replace")

    # -- locals ----------------------------------------------------------------------------------------
    def declare(self, node, query=None):
        """The local names declared under ``node`` (parameters, vals, vars, lambda and loop variables)."""
        if node.type == "function_declaration":
            self.map_this = map_receiver(self.data[node.start_byte:node.end_byte])
        if node.type == "function_declaration" and _decl_name(node, self.data) == "execute":
            mods = next((c for c in node.named_children if c.type == "modifiers"), None)
            ps = [c for c in (next((c for c in node.named_children if c.type == "function_value_parameters"), None)
                              or node).named_children if c.type == "parameter"]
            if mods is not None and b"override" in self.data[mods.start_byte:mods.end_byte].split() and len(ps) >= 2 \
                    and re.search(rb":\s*Player\s*$", self.data[ps[-1].start_byte:ps[-1].end_byte]):
                self.owner = _param_name(ps[-1], self.data)      # a trigger asked for its holder's own skill
                cls = node.parent.parent if node.parent is not None else None
                if cls is not None and cls.type == "class_declaration":
                    head = self.data[cls.start_byte:node.start_byte]
                    # an initial skill, no BeforeDieSkill: the dispatch asks it only while its holder lives
                    self.owner_alive = bool(re.search(rb"\boverride\s+val\s+isInitialSkill\s*(?::\s*Boolean\s*)?="
                                                      rb"\s*true\b", self.data[cls.start_byte:cls.end_byte])) and \
                        not re.search(rb"\bBeforeDieSkill\b", head)
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

    def scoped(self) -> str:
        """A number for a local of an inner scope (a lambda's or a loop's variable) no other local has (the tree is
        numbered again in order, ``_renumber``)."""
        self._scoped = getattr(self, "_scoped", 0) + 1
        return f"s{self._scoped}"

    def unscope(self, saved: dict):
        """Back out of an inner scope: each name its local of before (``saved``: name -> number or None); the inner
        locals keep their places (a place left empty would give the next local a number in use)."""
        for name, old in saved.items():
            inner = self.locals.pop(name, None)
            if inner is not None:
                self.locals[f"<{inner}>"] = inner
            if old is not None:
                self.locals[name] = old

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

    def local_fun_expr(self, n):
        """The expression of a local ``fun f() = e`` (no parameter, receiver or type parameter) whose name its
        enclosing function spells only twice (the declaration and one call ``f()``): a call evaluates ``e`` there
        and then, so the call is read as ``e`` (a condition extracted into a local function reads as written)."""
        kids = [c for c in n.children if c.type not in _COMMENTS]
        if [c.type for c in kids[:2]] != ["fun", "identifier"] or len(kids) != 4 or \
                kids[2].type != "function_value_parameters" or kids[2].named_children or \
                kids[3].type != "function_body" or not kids[3].children or kids[3].children[0].type != "=":
            return None
        body = [c for c in kids[3].named_children if c.type not in _COMMENTS]
        outer = n.parent
        while outer is not None and outer.type not in ("function_declaration", "class_body", "source_file"):
            outer = outer.parent
        name = self.text(kids[1])
        if len(body) != 1 or outer is None or len(re.findall(r"(?<![\w.$])" + re.escape(name) + r"\b",
                                                              self.text(outer))) != 2 or \
                not re.search(r"(?<![\w.$])" + re.escape(name) + r"\(\)", self.text(outer)):
            return None
        return body[0]

    def stmt(self, n) -> list:
        """A statement's normal form: [] when it is no rule, several for a compound guard."""
        t = n.type
        if t in _COMMENTS:
            return []
        if self.dropped(n):
            return []
        if t == "function_declaration" and n.parent is not None and n.parent.type in ("statements", "block"):
            expr = self.local_fun_expr(n)
            if expr is not None:                        # written out at its one call (``local_fun_expr``)
                self.__dict__.setdefault("local_funs", {})[_decl_name(n, self.data)] = expr
                return []
        if n.has_error and self.builders and re.search(r"(?<![\w])(%s)\s*\." % "|".join(
                re.escape(b) for b in sorted(self.builders)), self.text(n)):
            return []                                   # what the grammar misread only fills a client message
        if t == "if_expression":
            return self.if_stmt(n)
        if t == "when_expression":
            return self.when_stmt(n)
        if t in ("for_statement", "while_statement", "do_while_statement"):
            kids = self.kids(n)
            if kids:
                # a for loop's variable is a local of its own loop (`for (i in …)` after a `var i` is another local)
                names = [self.text(c) for c in _walk_ids(kids[0])] if t == "for_statement" and kids[0].type in (
                    "variable_declaration", "multi_variable_declaration") else []
                saved = {name: self.locals.get(name) for name in names}
                for name in names:
                    self.locals[name] = self.scoped()
                try:
                    body = self.body(kids[-1])
                    if body == ("seq",):
                        return []
                    return [(t,) + tuple(self.expr(k) for k in kids[:-1]) + (body,)]
                finally:
                    self.unscope(saved)
        if t == "binary_expression":
            op = self.op(n)
            kids = self.kids(n)
            if op == "||" and len(kids) == 2 and kids[1].type in _JUMPS:
                return [("guard", self.neg(self.cond(kids[0])), self.expr(kids[1]))]
            if op == "&&" and len(kids) == 2 and kids[1].type in _JUMPS:
                return [("guard", self.cond(kids[0]), self.expr(kids[1]))]
        if t == "property_declaration":
            return self.prop_stmt(n)
        if t == "call_expression" and n.named_children and self.unthis(n.named_children[0]).type == "identifier" and \
                self.helpers:
            block = self.block_call(n)
            if block is not None:
                return block
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

    def block_call(self, n):
        """The statements of a private block helper (``_block_helper``) called by its bare name as a statement, its
        parameters replaced by the arguments (each read only: nothing evaluated twice or out of order matters), or
        None."""
        return self._written_block(n, "block")

    def _written_block(self, n, kind: str):
        """The normal form of a call ``n`` of a block helper of ``kind`` (``_block_helper``) written out, as a list
        of statements (for "value": the last is ``("jump", "return", (e,))``), or None."""
        if n.type != "call_expression" or not n.named_children or \
                self.unthis(n.named_children[0]).type != "identifier":
            return None
        name = self.text(self.unthis(n.named_children[0]))
        if name in self.declared or not any(k[:2] == (kind, name) for k in self.helpers if len(k) == 4):
            return None
        x = self.expr(n)
        if not (isinstance(x, tuple) and x[:1] == ("call",) and len(x) == 4):
            return None
        args = x[2]
        helper = self.helpers.get((kind, name, len(args), self.rel))
        if helper is None or any(not isinstance(a, tuple) or a[:1] in (("lambda",), ("named",)) or not _pure(a)
                                 for a in args):
            return None
        body = _inline(helper, None, args, len(self.locals), self.locals)
        for v in sorted({y for y in _walk_locals(body)}, key=lambda v: (len(v), v)):
            self.local(f"<inlined {v}>")                # its own locals keep places no later local takes
        return list(body[1:])

    def if_stmt(self, n) -> list:
        cond = n.child_by_field_name("condition")
        branches = [c for c in n.named_children if c != cond and c.type not in _COMMENTS]
        if cond is None:
            return [self.generic(n)]
        robot = self.robot_test(cond)
        if robot is not None:                           # a robot's branch: drop it (keep the other one)
            if len(branches) < 2:
                return [] if robot else list(self.body(branches[0])[1:])
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

    def constant_order(self, entries: list) -> list:
        """The entries of a ``when (s)`` in one order when every condition but ``else`` is a constant — a decimal
        integer, a string without a template, a character, or a capitalised name (``Red``, ``color.Red``: an enum
        entry or object) the file declares nowhere as a ``val`` / ``var`` / parameter — no two alike (names by
        their last part) and not names and literals mixed: at most one entry can match the subject, so which is
        asked first changes nothing (the ``else`` is taken exactly when none matches, in any order)."""
        keyed, rest = [], []
        kinds = set()
        seen: set = set()
        for e in entries:
            kids = [c for c in e.named_children if c.type not in _COMMENTS]
            if "else" in {c.type for c in e.children if not c.is_named}:
                rest.append(e)
                continue
            if rest or len(kids) < 2:
                return entries
            keys = []
            for c in kids[:-1]:
                if c.type == "when_condition" and len(c.named_children) == 1:
                    c = c.named_children[0]
                k = self._constant_key(c)
                if k is None or k in seen:
                    return entries
                seen.add(k)
                kinds.add(k[0])
                keys.append(k)
            keyed.append((sorted(keys), e))
        if len(keyed) < 2 or len(kinds) != 1:
            return entries
        return [e for _k, e in sorted(keyed, key=lambda x: x[0])] + rest

    def _constant_key(self, c):
        text = self.text(c)
        if c.type in ("number_literal", "integer_literal") and re.fullmatch(r"[0-9]+", text):
            return ("literal", "n", int(text))
        if c.type == "string_literal" and all(k.type in ('"', "string_content") for k in c.children):
            return ("literal", "s", text)
        if c.type == "character_literal" and "\\" not in text:
            return ("literal", "c", text)
        name = None
        if c.type == "identifier":
            name = text
        elif c.type == "navigation_expression" and [k.type for k in c.children if not k.is_named] == ["."] and \
                all(k.type == "identifier" or (k.type == "navigation_expression" and "?" not in self.text(k))
                    for k in c.named_children):
            name = self.text(c.named_children[-1])
        if name is None or not name[:1].isupper() or re.search(
                rb"(?:\b(?:val|var)\s+|[(,]\s*)" + re.escape(name.encode()) + rb"\s*[:=]", self.data):
            return None
        return ("name", "", name)

    def when(self, n):
        """``when`` as the chain of ``if … else if … else`` it means."""
        subj = next((c for c in n.named_children if c.type == "when_subject"), None)
        sx = None
        if subj is not None:
            inner = [c for c in subj.named_children if c.type not in _COMMENTS]
            sx = self.expr(inner[-1]) if inner else None
        entries = [c for c in n.named_children if c.type == "when_entry"]
        if sx is not None:
            entries = self.constant_order(entries)
        chain = None
        for e in reversed(entries):
            kids = [c for c in e.named_children if c.type not in _COMMENTS]
            if not kids:
                continue
            body = self.body(kids[-1])
            if "else" in {c.type for c in e.children if not c.is_named}:
                chain = body
                continue
            if sx is None and len(kids) == 2:
                cn = kids[0].named_children[0] if kids[0].type == "when_condition" and kids[0].named_children \
                    else kids[0]
                robot = self.robot_test(cn)
                if robot is not None:                   # a robot's branch, as `if_stmt` drops it
                    chain = chain if robot else body
                    continue
            conds = []
            for c in kids[:-1]:
                cx = self.expr(c.named_children[0] if c.type == "when_condition" and c.named_children else c)
                ops = {k.type for k in c.children if not k.is_named}
                right = [k for k in c.named_children if k.type not in _COMMENTS]
                if sx is not None and c.type in ("type_test", "range_test") and len(right) == 1 and _pure(sx):
                    # `is T ->` / `in r ->` on a subject nothing changes is the test `s is T` / `s in r` an `if`
                    # chain writes
                    k = "is" if c.type == "type_test" else "in"
                    conds.append((k, f"!{k}" not in ops, sx, ("type", self.type_name(right[0])) if k == "is"
                                  else self.expr(right[0])))
                    continue
                conds.append(cx if sx is None else self.eq("==", sx, cx) if c.type not in (
                    "type_test", "range_test") else ("test", sx, cx))
            cond = conds[0] if len(conds) == 1 else ("or",) + tuple(conds)
            chain = ("if", cond, body) + ((chain,) if chain is not None else ())
            chain = ("seq", chain)
        return chain[1] if chain is not None and len(chain) == 2 and chain[0] == "seq" else (chain or ("seq",))

    def when_stmt(self, n) -> list:
        """A ``when`` standing as a statement: the statements its ``if`` chain stands for, as ``if_stmt`` gives them
        (a body of statements spliced in, an ``if`` of no effect dropped, a one-branch jump as its guards)."""
        x = self.when(n)
        if not isinstance(x, tuple) or not x:
            return [x]
        if x[0] == "seq":
            return list(x[1:])
        if x[0] == "if" and len(x) == 3:
            then = x[2]
            if isinstance(then, tuple) and len(then) == 1:
                return []
            if isinstance(then, tuple) and len(then) == 2 and isinstance(then[1], tuple) and then[1][:1] == ("jump",):
                return [("guard", d, then[1]) for d in self.disjuncts(x[1])]
        if x[0] == "if" and len(x) == 4 and isinstance(x[2], tuple) and len(x[2]) == 1 and \
                isinstance(x[3], tuple) and len(x[3]) == 1:
            return []
        return [x]

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
        outer = name in self.declared and name not in self.locals and value is not None and \
            not self.declares_in(value, name)
        if outer:           # `val x = x.location`: the initialiser reads the member the new local shadows
            self.declared.discard(name)
        try:
            if value is not None and value.type == "binary_expression" and self.op(value) == "?:":
                kids = self.kids(value)
                if len(kids) == 2 and kids[1].type in _JUMPS:
                    init, jump = self.expr(kids[0]), self.expr(kids[1])
                    if outer:
                        self.declared.add(name)
                    v = ("v", self.local(name)) if name in self.declared else ("id", name)
                    return [("decl", v, init), ("guard", self.eq("==", v, ("null",)), jump)]
            written = self._written_block(value, "value") if value is not None and self.helpers else None
            if written is not None:
                if outer:
                    self.declared.add(name)
                v = ("v", self.local(name)) if name in self.declared else ("id", name)
                return written[:-1] + [("decl", v, written[-1][2][0])]     # the block, then the local its value
            init = self.expr(value) if value is not None else None
        finally:
            if outer:
                self.declared.add(name)
        v = ("v", self.local(name)) if name in self.declared else ("id", name)
        if vd is None:                                  # `val (a, b) = …`: each local it declares
            mv = next((c for c in n.named_children if c.type == "multi_variable_declaration"), None)
            names = [self.text(i) for c in (mv.named_children if mv is not None else [])
                     for i in c.named_children if c.type == "variable_declaration" and i.type == "identifier"]
            if names and all(nm in self.declared and nm != "_" for nm in names):
                v = ("vs",) + tuple(("v", self.local(nm)) for nm in names)
        return [("decl", v, init)]

    def declares_in(self, node, name: str) -> bool:
        """Whether ``name`` is declared under ``node`` (a lambda's parameter, a local of a lambda)."""
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("lambda_parameters", "variable_declaration", "parameter", "lambda_parameter") and any(
                    c.type in ("identifier", "simple_identifier") and self.text(c) == name for c in n.named_children):
                return True
            stack.extend(n.named_children)
        return False

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
            if last and ("noop", last) in self.helpers:
                return True                             # a function that only tells the clients (``_noop``)
            if last and (last.endswith("Toc") or last.endswith("_toc")):
                return True
            if last == "addEvent" and self.moments and self._unheard_event(n):
                return True                             # an event nobody listens for (``quiet_events``)
            if self.outside_call(n):
                return True                             # a call of code outside the rules (``outside_names``)
            return False
        if t == "assignment":
            left = n.child_by_field_name("left") or (n.named_children[0] if n.named_children else None)
            if left is None:
                return False
            last, head = self.callee_names(left)
            # a store into a member left out as no rule (``mainPhaseAlreadyNotify``: a flag of the client's notices)
            return last == "timeout" or head in self.builders or last in self.robot_names or (
                bool(last) and (left.type == "navigation_expression" or left.type == "identifier" and last not in
                                self.declared) and bool(_NOT_RULE_MEMBER.match(last)))
        if t == "navigation_expression" and self.builders and self.callee_names(n)[1] in self.builders:
            return True                                 # a client message's field read and thrown away
        if t in ("postfix_expression", "unary_expression") and self.op(n) in ("++", "--"):
            kids = self.kids(n)
            return bool(kids) and self.callee_names(kids[0])[0] in self.robot_names
        return False

    def _unheard_event(self, n) -> bool:
        """Whether the call ``n`` (``….addEvent(…)``) raises, as its one argument, a new event of a class nobody
        listens for (its arguments read only)."""
        va = next((c for c in n.named_children if c.type == "value_arguments"), None)
        args = [c for c in (va.named_children if va is not None else []) if c.type == "value_argument"]
        if len(args) != 1 or any(c.type in ("annotated_lambda", "lambda_literal") for c in n.named_children):
            return False
        ev = self.kids(args[0])
        ev = ev[-1] if ev else None
        if ev is None or ev.type != "call_expression" or not ev.named_children or \
                ev.named_children[0].type != "identifier":
            return False
        if f"event:{self.text(ev.named_children[0])}" not in self.moments:
            return False
        x = self.expr(ev)
        return isinstance(x, tuple) and x[:1] == ("call",) and len(x) == 4 and all(
            _pure(a) for a in x[2] if isinstance(a, tuple))

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
        """True when ``cond`` is ``x is RobotPlayer`` or ``x !is HumanPlayer`` (or a conjunction holding one),
        False for ``x !is RobotPlayer`` or ``x is HumanPlayer``, else None."""
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
        name = self.text(typ).split(".")[-1] if typ is not None else ""
        if name not in ROBOT_CLASSES and name not in HUMAN_CLASSES:
            return None
        return ("!is" not in {x.type for x in c.children if not x.is_named}) == (name in ROBOT_CLASSES)

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
        if k in ("and", "or"):
            out = ("or" if k == "and" else "and",) + tuple(self.neg(a) for a in x[1:])
            # a junction in its one order (``_sorted_junction``) stays in it negated
            return _sorted_junction(out) if _sorted_junction(x) == x else out
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
        if self.map_this and op in ("==", "!=") and ("null",) in (a, b):
            got = _own_get(b if a == ("null",) else a)
            if got is not None:                         # `get(k) != null` of a map of values never null: `k in this`
                return ("in", op == "!=", got, _THIS)
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
            if s in self.constants:
                c = self.constants[s]
                if c[:1] == ("lit",):
                    return c                            # a private or const value of a literal (``file_constants``)
                return ("call", ("id", "listOf"), tuple(("id", e) for e in c), "")
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
                inner = self.expr(kids[0])
                return _Asserted(inner) if isinstance(inner, tuple) else inner
            if op == "!":
                return self.neg(self.expr(kids[0]))
            if op in ("++", "--") and n.children and n.children[-1].type == op and n.parent is not None and \
                    n.parent.type not in ("block", "statements", "control_structure_body", "lambda_literal"):
                return ("un", "post" + op, self.expr(kids[0]))  # `n++` read for its value: the value before
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
                x = self.junction(op, a, b)
                if not _THROWS.search(self.text(n)):
                    x = _sorted_junction(x)
                return x
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
        if t == "when_expression":
            # a `when` with an `else` used as a value is the `if … else if … else` expression it means (an `if`
            # expression's `else if` reads as the statements of its chain, as the `when`'s later branches do)
            x = self.when(n)
            if isinstance(x, tuple) and len(x) == 4 and x[0] == "if":
                return ("ife", x[1], (x[2], x[3]))
            return self.generic(n)
        if t == "lambda_literal":
            lps = next((c for c in n.named_children if c.type == "lambda_parameters"), None)
            if lps is not None:
                # the parameters are locals of their own lambda, as `it` is: one named like a local outside it
                # (`var i` before, `{ i -> … }` after) is another local
                ids = [self.text(c) for c in _walk_ids(lps)]
                saved = {name: self.locals.get(name) for name in ids}
                for name in ids:
                    self.locals[name] = self.scoped()
                try:
                    out = ("lambda", self.body(n))
                    # (the one parameter's local, for the idioms of ``normal_idioms``)
                    self.lambda_param = ("v", self.locals[ids[0]]) if len(ids) == 1 else None
                finally:
                    self.unscope(saved)
                return out
            # `{ it.x }` is `{ c -> c.x }`: the implicit parameter is a local of its own lambda
            saved = self.locals.get("it"), "it" in self.declared
            self.locals["it"] = f"v{len(self.locals)}"
            self.declared.add("it")
            try:
                out = ("lambda", self.body(n))
                self.lambda_param = ("v", self.locals["it"])
                return out
            finally:
                inner = self.locals.pop("it", None)
                if inner is not None:                   # (its place kept: the next local gets a number of its own)
                    self.locals[f"<{inner}>"] = inner
                if saved[0] is not None:
                    self.locals["it"] = saved[0]
                if not saved[1]:
                    self.declared.discard("it")
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

    def _dead_of(self, n) -> dict:
        """The dead parameters of the class or function whose parameter list ``n`` is."""
        cur = n.parent
        while cur is not None and cur.type not in ("class_declaration", "function_declaration"):
            cur = cur.parent
        if cur is None:
            return {}
        return self.dead.get(_decl_name(cur, self.data), {})

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

    def type_path(self, n) -> bool:
        """Whether ``n`` is a name qualified by a type, an enum or a package (``Common.color.contains``)."""
        q = self.qualified(n)
        return q is not None and q[0] not in self.declared and (q[0][:1].isupper() or q[0] in self.imports
                                                               or q[0] in _PACKAGES)

    def unthis(self, n):
        """``this.name`` (a bare ``this``, ``name`` no local) as the bare ``name`` it means: a local aside, a bare name
        in a class resolves to the same member of the innermost receiver that ``this`` is (a lambda's receiver too);
        any other node as it is."""
        if n is not None and n.type == "navigation_expression":
            kids = n.named_children
            if len(kids) == 2 and kids[0].type == "this_expression" and self.text(kids[0]) == "this" and \
                    kids[1].type == "identifier" and self.text(kids[1]) not in self.declared and \
                    self.data[kids[0].end_byte:kids[1].start_byte].strip() == b".":
                return kids[1]
        return n

    def nav(self, n):
        kids = n.named_children
        if self.unthis(n) is not n:
            return self.expr(self.unthis(n))
        if len(kids) == 2 and kids[1].type == "identifier":
            q = self.qualified(n)
            if q is not None and q[0] not in self.declared and (q[0][:1].isupper() or q[0] in self.imports
                                                               or q[0] in _PACKAGES):
                self.ids.add(q[-1])
                return ("id", q[-1])
            left = kids[0]
            if left.type == "call_expression" and re.fullmatch(r"(?:java\.util\.concurrent\.)?ThreadLocalRandom\.current\(\)",
                                                               re.sub(r"\s+", "", self.text(left))):
                self.ids.add(self.text(kids[1]))
                return ("id", self.text(kids[1]))   # `ThreadLocalRandom.current().nextInt(n)` is `Random.nextInt(n)`
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
        x = self._call(n)
        if isinstance(x, tuple) and x[:1] == ("call",) and self.outside_call(n):
            return ("outside", x)
        return x

    def outside_call(self, n) -> bool:
        """Whether call ``n`` goes to code outside the rules (``outside_names``: an object, a class or a function
        only files that hold no rule declare), handing it no code to run (no lambda, no function reference)."""
        names = self.helpers.get(("outside",))
        kids = n.named_children
        if n.parent is not None and n.parent.type == "call_expression" and n.parent.named_children and \
                n.parent.named_children[0] == n:
            n = n.parent                                # `f(x) { … }`: the call with its trailing lambda
        if not names or not kids or any(x.type in ("annotated_lambda", "lambda_literal", "callable_reference",
                                                   "anonymous_function") for x in _nodes(n)):
            return False
        last, head = self.callee_names(self.unthis(kids[0]))
        if (head in names and head not in self.declared) or (last in names and last not in self.declared):
            return True
        return last not in self.declared and last in self.imports and any(
            m == last and o in self.imports for o, m in self.helpers.get(("outside_members",), ()))

    def _call(self, n):
        kids = n.named_children
        if not kids:
            return self.generic(n)
        callee = self.unthis(kids[0])
        last, _head = self.callee_names(callee)
        if last and (_PROTO.match(last) or last == "getDefaultInstance"):
            return ("proto",)                           # a client message built (what is in it is no rule)
        if last == FORWARD:
            va = next((c for c in kids[1:] if c.type == "value_arguments"), None)
            first = [x for x in (va.named_children if va is not None else []) if x.type == "value_argument"][:1]
            who = self.kids(first[0]) if first else []
            return ("forward", self.expr(who[-1]) if who else None)
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
        if self.map_this and callee.type == "identifier" and last == "containsKey" and len(args) == 1:
            return ("in", True, args[0], _THIS)         # the map's own `containsKey(k)`: `k in this`
        if last in self.moments and callee.type == "identifier":
            i = self.moments[last]
            if i < len(args) and not any(isinstance(a, tuple) and a[:1] == ("named",) for a in args[:i + 1]):
                return args[i]                          # a moment nobody answers: the state it goes on with
        if last in self.dead and args:
            dead = self.dead[last]
            idx = set(dead.values())
            args = [a for i, a in enumerate(args) if not (isinstance(a, tuple) and a[:1] == ("named",) and a[1] in dead)
                    and not (i in idx and not any(isinstance(b, tuple) and b[:1] == ("named",) for b in args[:i + 1])
                             and not (isinstance(a, tuple) and a[:1] == ("lambda",)))]
        if callee.type == "navigation_expression" and self.hoisted(callee) or (
                callee.type == "unary_expression" and self.op(callee) == "!"):
            if callee.type == "unary_expression":
                inner = self.kids(callee)
                if inner and inner[0].type == "identifier" and self.map_this and \
                        self.text(inner[0]) == "containsKey" and len(args) == 1:
                    return ("in", False, args[0], _THIS)
                if inner and inner[0].type == "identifier":
                    own = self._own_member_call(n, self.text(inner[0]), args)
                    if own is not None:
                        return self.neg(own)
                return self.neg(("call", self.expr(inner[0]) if inner else None, tuple(args), targs))
            cx = self.expr(callee)
            # the `!` the grammar bound to the receiver negates the whole call: the call itself is read as an
            # unnegated one is (`!x.contains(y)` is `y !in x`, a helper written out)
            return self.rewrap(cx, lambda x: self._member_call(x, last, args, targs, plain=False))
        if callee.type == "navigation_expression" and len(callee.named_children) == 2 and \
                self.text(callee.named_children[1]) == "contains" and len(args) == 1 and not self.type_path(callee):
            return ("in", True, args[0], self.expr(callee.named_children[0]))
        written = self.helpers.get(("counter", last))
        if written is not None and len(args) == 1 and callee.type == "navigation_expression":
            va = next((c for c in kids[1:] if c.type == "value_arguments"), None)
            key = _key_text(self.data[va.start_byte + 1:va.end_byte - 1], self.data, n) if va is not None else None
            if key is not None and key not in written and _pure(self.expr(callee.named_children[0])):
                return ("lit", "0")                     # a count nothing ever adds to (``counters``)
        plain = callee.type == "identifier" and ("plain", last, len(args), self.rel) in self.helpers
        helper = self.helpers.get(("plain", last, len(args), self.rel) if plain else (last, len(args)))
        if helper is not None and (callee.type == "navigation_expression") != plain and not any(
                isinstance(a, tuple) and a[:1] in (("lambda",), ("named",)) for a in args) and not (
                plain and last in self.declared):
            recv = self.expr(callee.named_children[0]) if callee.named_children and not plain else None
            return _inline(helper, recv, args, len(self.locals), self.locals)
        lf = self.__dict__.get("local_funs", {}).get(last) if callee.type == "identifier" else None
        if lf is not None and not args and not targs and last not in self.declared:
            return self.expr(lf)                        # a local function's one call: its expression
        if callee.type == "identifier" and not plain:
            own = self._own_member_call(n, last, args)
            if own is not None:
                return own
        if last == "forEach" and callee.type == "navigation_expression" and len(args) == 1 and \
                isinstance(args[0], tuple) and args[0][:1] == ("lambda",) and \
                getattr(self, "lambda_param", None) is not None and _has_jump(args[0][1]) and \
                not _loop_jump(args[0][1]):
            cx = self.expr(callee)
            if isinstance(cx, tuple) and cx[:2] == ("nav", ".") and len(cx) == 4:
                # a body that returns from its function (`forEach` is inline): the `for` loop it is, the lambda's
                # parameter the loop variable
                return ("for_statement", ("variable_declaration", self.lambda_param), cx[2], args[0][1])
        param = getattr(self, "lambda_param", None) if args and isinstance(args[-1], tuple) and \
            args[-1][:1] == ("lambda",) else None
        return rewrite_call(("call", self.expr(callee), tuple(args), targs), param,
                            lambda: ("v", self.local(f"<idiom{len(self.locals)}>")))

    def _own_member_call(self, n, last: str, args: list):
        """A bare-name call of a class's public one-expression member (``_plain_helper``) standing in that class's
        own body, written out as it stands (its members bare, ``this`` kept); None for any other call."""
        helper = self.helpers.get((last, len(args)))
        if helper is None or len(helper) < 6 or last in self.declared or any(
                isinstance(a, tuple) and a[:1] in (("lambda",), ("named",)) for a in args) or \
                not self._in_own_class(n, helper[4], helper[5]):
            return None
        return _inline((helper[0], helper[3], "plain"), None, args, len(self.locals), self.locals)

    def _in_own_class(self, n, rel: str, cls: str) -> bool:
        """Whether ``n`` stands in the body of class ``cls`` of file ``rel`` itself — no lambda (a receiver such as
        ``run { … }`` may stand in for ``this``), no inner class or object between — so that a bare-name call of one
        of its members is a call on ``this``."""
        if rel != self.rel:
            return False
        cur = n.parent
        while cur is not None:
            if cur.type in ("lambda_literal", "annotated_lambda", "object_literal", "companion_object",
                            "anonymous_function"):
                return False
            if cur.type in ("class_declaration", "object_declaration"):
                return _decl_name(cur, self.data) == cls
            cur = cur.parent
        return False

    def _member_call(self, x, last, args, targs, plain=False):
        """A call of ``x`` (a member's normal form ``("nav", op, receiver, name)``) as ``call`` reads an unhoisted
        one: ``contains`` as ``in``, a one-expression helper written out."""
        if isinstance(x, tuple) and x[:1] == ("nav",) and len(x) == 4 and x[3] == last:
            if last == "contains" and len(args) == 1:
                return ("in", True, args[0], x[2])
            helper = self.helpers.get((last, len(args)))
            if helper is not None and not any(isinstance(a, tuple) and a[:1] in (("lambda",), ("named",))
                                              for a in args):
                return _inline(helper, x[2], args, len(self.locals), self.locals)
        return ("call", x, tuple(args), targs)

    def generic(self, n):
        out = [n.type]
        dead = self._dead_of(n) if n.type in ("class_parameters", "function_value_parameters") and self.dead else {}
        for c in n.children:
            if dead and c.type in ("class_parameter", "parameter") and _param_name(c, self.data) in dead:
                continue                                # a parameter no rule reads (see ``dead_params``)
            if c.type in _COMMENTS or c.type in ("annotation", "visibility_modifier") or (
                    n.type in ("parameter", "class_parameter", "variable_declaration") and c.type in _TYPES):
                continue                                # annotations (`@JvmRecord`), declared types: no rule
            if c.is_named:
                out.append(self.expr(c))
            elif c.type not in _PUNCT and c.type.strip():
                out.append(c.type)
        if n.type == "parameter" and any(c.type == "nullable_type" for c in n.children):
            out.append("?")                             # (a parameter that may be null: ``_null_safe`` asks)
        return tuple(out)


_CONST_LIST = re.compile(rb"\bprivate\s+val\s+([A-Za-z_]\w*)\s*(?::\s*[\w<>?, ]+)?=\s*(?:listOf|setOf|arrayOf|"
                         rb"hashSetOf)\(\s*([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*,?\s*\)[ \t]*(?=\n|;|$)")


#: a private or ``const`` value holding a literal number or truth value (a local can have neither modifier)
_CONST_SCALAR = re.compile(rb"(?<![\w])(?:(?:private|internal|public|const)\s+)*(?:private|const)\s+val\s+"
                           rb"([A-Za-z_]\w*)\s*(?::\s*(?:Int|Long|Boolean|Double|Float)\s*)?=\s*(-?\d[\d_]*[lL]?|true|false)"
                           rb"[ \t]*(?=\n|;|$)")


def file_constants(data: bytes) -> dict:
    """name -> element names of the private constant lists a Kotlin file declares once and never assigns; name ->
    ``("lit", value)`` for its private or ``const`` values of a literal number or truth value (``const val N = 2``:
    the number at each use in the file)."""
    out = {}
    for m in _CONST_SCALAR.finditer(data):
        name = m.group(1)
        rest = data[:m.start()] + data[m.end():]
        if len(re.findall(rb"\b(?:val|var|fun)\s+" + re.escape(name) + rb"\b", data)) != 1 or re.search(
                rb"(?<![\w.])" + re.escape(name) + rb"\s*(?:[-+*/]?=(?!=)|\+\+|--)", rest) or re.search(
                rb"[,(]\s*(?:va[lr]\s+)?" + re.escape(name) + rb"\s*:|\b" + re.escape(name) + rb"\s*->", rest):
            continue                                    # (declared again, assigned, or a parameter's name somewhere)
        v = m.group(2)
        out[name.decode()] = ("lit", v == b"true") if v in (b"true", b"false") else \
            ("lit", v.replace(b"_", b"").rstrip(b"lL").decode())
    for m in _CONST_LIST.finditer(data):
        name = m.group(1)
        rest = data[:m.start()] + data[m.end():]
        if len(re.findall(rb"\b(?:val|var)\s+" + re.escape(name) + rb"\b", data)) != 1 or re.search(
                rb"(?<![\w.])" + re.escape(name) + rb"\s*(?:[-+]?=(?!=)|\.(?:add|remove|clear)\w*\()", rest):
            continue
        out[name.decode()] = tuple(e.strip().split(b".")[-1].decode() for e in m.group(2).split(b","))
    return out


def inlined_constant(text: bytes) -> bool:
    """Whether a declaration is a private constant list, which the normal form writes at every use in its file (adding
    or removing it alone changes nothing)."""
    return bool(_CONST_LIST.fullmatch(text.strip() + b"\n") or _CONST_LIST.match(text.strip()) or
                _CONST_SCALAR.fullmatch(text.strip()))


_HELPER = re.compile(rb"(?:(?:private|internal)\s+)?fun\s+(?:<[^>]*>\s*)?[\w.<>?, ]+\.(\w+)\s*\(([^()]*)\)\s*"
                     rb"(?::\s*[\w<>?, .]+)?=")
_FUN_NAME = re.compile(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.<>?, ]+\.)?(\w+)\s*\(")


def helpers(files: dict, parse) -> dict:
    """The code base's one-expression extension helpers (``fun Iterable<Card>.count(c: color) = count { c in it.colors
    }``; a class's private one, ``private fun List<Player>.anyDied() = any { !it.alive }``, too): (name, arity) ->
    (parameter locals, normal form of the expression). A call ``x.count(Black)`` is written as the expression with
    ``x`` as its receiver: a helper inlined or written out is the same code. A name declared twice with one arity is
    left alone, and so is a class's helper whose name the code base declares as another function too."""
    found: dict = {}
    seen: dict = {}
    funs: dict = {}
    for rel, data in files.items():
        if b"fun " not in data:
            continue
        for m in _FUN_NAME.finditer(data):
            funs[m.group(1)] = funs.get(m.group(1), 0) + 1
    for rel, data in files.items():
        if b"fun " not in data:
            continue
        root = parse(data).root_node
        decls = [(fd, False) for fd in root.named_children if fd.type == "function_declaration"]
        stack = [c for c in root.named_children if c.type in ("class_declaration", "object_declaration")]
        while stack:                                    # a class's (or object's) own private helpers
            c = stack.pop()
            body = next((x for x in c.named_children if x.type in ("class_body", "enum_class_body")), None)
            for x in (body.named_children if body is not None else []):
                if x.type == "function_declaration":
                    decls.append((x, True))
                elif x.type in ("class_declaration", "object_declaration", "companion_object"):
                    stack.append(x)
        for fd, member in decls:
            text = data[fd.start_byte:fd.end_byte]
            _noop(fd, text, data, funs, found)
            m = _HELPER.match(text)
            if m is None:
                _plain_helper(fd, text, data, member, funs, found, seen, rel)
                _block_helper(fd, text, data, found, rel)
                if member:
                    _effect_summary(fd, text, data, funs, found)
                continue
            if (member and not text.startswith(b"private")) or (not member and text.startswith(b"private")):
                continue
            params = _param_nodes(fd)
            if len(params) != len([x for x in m.group(2).split(b",") if x.strip()]) or (not params and not member):
                continue
            key = (m.group(1).decode(), len(params))
            seen[key] = seen.get(key, 0) + (1 if not member or funs.get(m.group(1), 0) == 1 else 2)
            read = _one_expression(fd, params, data)
            if read is None:
                continue
            locs, x = read
            rest = x[2:] if x[:1] == ("call",) and len(x) == 4 and x[1][:1] == ("id",) else (x,)
            if _lower_ids(rest):
                continue                        # a member of the implicit receiver read elsewhere: not written out
            found[key] = (locs, x, "ext")
    found.update(counters(files, parse))
    found.update(event_queue(files, found, parse))
    return {k: v for k, v in found.items() if seen.get(k) == 1 or k[:1] in (("effect",), ("counter",), ("plain",),
                                                                            ("noop",), ("block",), ("value",),
                                                                            ("queue",))}


_CALLED = re.compile(rb"(?:::\s*)?\b([A-Za-z_]\w*)\s*(?:\(|\{)|::\s*([A-Za-z_]\w*)")
_STORED = re.compile(rb"\b([A-Za-z_]\w*)\s*(?:[-+*/]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*(?:[\w.]*\.)?([A-Za-z_]\w*)")


def event_queue(files: dict, found: dict, parse) -> dict:
    """What the code base's event queue lets move (``_event_runs``): ``addEvent`` only appends to a collection of its
    class (its summary, ``_effect_summary``), read by a few functions (the dispatch of the listeners). ("queue",) ->
    (calls: each function's name -> the names it calls, overloads and overrides all one; the names from which a read
    of the queue may be reached; stores: each function's name -> the names it stores into). Empty when ``addEvent``
    is not such a function."""
    summary = found.get(("effect", "addEvent", 1))
    if summary is None or len(summary[0]) != 1:
        return {}
    queue = next(iter(summary[0]))[1]
    calls: dict = {}
    stores: dict = {}
    mentions: set = set()
    for data in files.values():
        if b"fun " not in data:
            continue
        stack = [parse(data).root_node]
        while stack:
            n = stack.pop()
            if n.type == "function_declaration" or (n.type == "property_declaration" and any(
                    c.type == "getter" for c in n.named_children)):
                name = _decl_name(n, data)
                if not name and n.type == "property_declaration":
                    m = re.search(rb"\b(?:val|var)\s+(\w+)", data[n.start_byte:n.end_byte])
                    name = m.group(1).decode() if m else ""
                text = data[n.start_byte:n.end_byte]
                body = text[text.find(b"(") + 1:] if n.type == "function_declaration" else text
                calls.setdefault(name, set()).update(
                    (a or b).decode("utf-8", "replace") for a, b in _CALLED.findall(body))
                stores.setdefault(name, set()).update(
                    (a or b).decode("utf-8", "replace") for a, b in _STORED.findall(body))
                if re.search(rb"(?<![\w$])" + re.escape(queue.encode()) + rb"(?![\w$])", text) and name != "addEvent":
                    mentions.add(name)
            stack.extend(n.named_children)
    callers: dict = {}
    for n, cs in calls.items():
        for c in cs:
            callers.setdefault(c, set()).add(n)
    reaches = set(mentions)
    todo = list(reaches)
    while todo:
        for c in callers.get(todo.pop(), ()):
            if c not in reaches:
                reaches.add(c)
                todo.append(c)
    reaches |= {queue, "addEvent"}
    return {("queue",): (calls, frozenset(reaches), stores, queue)}


#: a body that may do nothing but tell the clients or log (a cheap test before the normal form is made)
_TELLS = re.compile(rb"\.send\b|\bsend\s*[({]|\bsendErrorMessage\b|\blog(?:ger)?\.|[nN]otify")


def _noop(fd, text: bytes, data: bytes, funs: dict, found: dict):
    """A function whose body, in normal form, does nothing (it only tells the clients, logs, or builds a client
    message: ``private fun notifyResult(…) { players.send { … } }``), declared once in the code base under its name
    and not overridable: ``("noop", name)``. A call of it standing as a statement is dropped like the client message
    itself — renaming such a function (to a name the not-rule list does not know) changes nothing."""
    m = _FUN_NAME.match(text) if text.startswith(b"fun") else re.search(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.<>?, ]+\.)?"
                                                                     rb"(\w+)\s*\(", text[:300])
    if m is None or not _TELLS.search(text) or re.search(rb"\b(?:open|abstract|override|operator)\b",
                                                         text[:m.start(1)]):
        return
    name = m.group(1)
    if funs.get(name, 0) != 1:
        return
    body = next((c for c in fd.named_children if c.type == "function_body"), None)
    block = next((c for c in body.named_children if c.type == "block"), None) if body is not None else None
    if block is None:
        return
    nm = _Norm(data, frozenset())
    nm.declare(fd)
    try:
        tree = nm.body(block)
    except RecursionError:
        return
    if tree == ("seq",):
        found[("noop", name.decode())] = ((), ("seq",), "noop")


def _param_nodes(fd) -> list:
    """A function declaration's parameter nodes (in its parameter list, or directly under it)."""
    holder = next((x for x in fd.named_children if x.type == "function_value_parameters"), None) or fd
    return [c for c in holder.named_children if c.type == "parameter"]


def _one_expression(fd, params: list, data: bytes) -> tuple | None:
    """(its parameters as normal-form locals, its expression in normal form) for a function whose body is one
    expression (``= e`` or ``{ return e }`` alike: no block); None for any other body."""
    body = next((c for c in fd.named_children if c.type == "function_body"), None)
    kids = [c for c in body.named_children if c.type not in _COMMENTS] if body is not None else []
    if len(kids) == 1 and kids[0].type == "block":                  # `{ return e }`: the expression e
        inner = [c for c in kids[0].named_children if c.type not in _COMMENTS]
        if len(inner) == 1 and inner[0].type in ("jump_expression", "return_expression") and \
                data[inner[0].start_byte:inner[0].end_byte].startswith(b"return") and inner[0].named_children:
            kids = [inner[0].named_children[-1]]
    if len(kids) != 1 or kids[0].type == "block":
        return None
    nm = _Norm(data, frozenset())
    names = [_param_name(p, data) for p in params]
    nm.declared.update(names)
    return tuple(nm.local(x) for x in names), nm.expr(kids[0])


def _FUN_NAME_OF(name: bytes):
    return re.compile(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.<>?, ]+\.)?" + re.escape(name) + rb"\s*\(")


_MAP_DECL = re.compile(rb"\bprivate\s+val\s+(\w+)\s*(?::\s*[\w<>, ?]+)?=\s*(?:HashMap|mutableMapOf|LinkedHashMap)\b")
_KEY_OF = re.compile(rb"\boverride\s+val\s+skillId\s*(?::\s*SkillId\s*)?=\s*(?:SkillId\.)?([A-Z][A-Z0-9_]*)\b")


def _key_text(arg: bytes, data: bytes, node=None):
    """The constant a key argument names: ``SkillId.X`` → X, ``skillId`` in a skill that declares it → its X (the
    nearest class around ``node`` declaring one)."""
    arg = arg.strip()
    m = re.fullmatch(rb"(?:\w+\.)*SkillId\.(\w+)|([A-Z][A-Z0-9_]*)", arg)
    if m:
        return (m.group(1) or m.group(2)).decode()
    if arg == b"skillId" and node is not None:
        cur = node.parent
        while cur is not None:
            if cur.type in ("class_declaration", "object_declaration"):
                body = next((c for c in cur.named_children if c.type == "class_body"), None)
                for x in (body.named_children if body is not None else []):
                    if x.type == "property_declaration":
                        km = _KEY_OF.match(data[x.start_byte:x.end_byte])
                        if km:
                            return km.group(1).decode()
                        if re.search(rb"\bval\s+skillId\b", data[x.start_byte:x.end_byte]):
                            return None
            cur = cur.parent
    return None


def _calls_of(node, names: set, data: bytes):
    """The call expressions under ``node`` whose callee's last name is one of ``names``: (call node, name, first
    argument node or None)."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "call_expression" and n.named_children:
            callee = n.named_children[0]
            last = callee.named_children[-1] if callee.type == "navigation_expression" and callee.named_children \
                else callee
            name = data[last.start_byte:last.end_byte].decode("utf-8", "replace")
            if name in names:
                va = next((c for c in n.named_children if c.type == "value_arguments"), None)
                args = [c for c in (va.named_children if va is not None else []) if c.type == "value_argument"]
                out.append((n, name, args[0] if args else None))
        stack.extend(n.named_children)
    return out


def counters(files: dict, parse) -> dict:
    """Counters kept in a class's private map by key (``skillUseCount[skillId] ?: 0``): ("counter", reader name) ->
    the keys any code of the revision adds to. A reader called with another key reads 0 always (the map starts
    empty and only its clear / remove reset it), so a guard on it is constant. Given up (nothing returned for the
    map) when a key some writer is called with cannot be named, or the map is written by anything else."""
    out: dict = {}
    for rel, data in files.items():
        for md in _MAP_DECL.finditer(data):
            mname = re.escape(md.group(1))
            readers, writers = [], []
            ok = True
            for fm in re.finditer(rb"\bfun\s+(\w+)\s*\(([^()]*)\)[^{=]*(=|\{)", data):
                start = fm.end()
                depth, i = (1, start) if fm.group(3) == b"{" else (0, start)
                if fm.group(3) == b"{":
                    while i < len(data) and depth:
                        depth += {ord("{"): 1, ord("}"): -1}.get(data[i], 0)
                        i += 1
                else:
                    i = data.find(b"\n", start)
                body = data[start:i]
                if not re.search(rb"(?<![\w.])" + mname + rb"\b", body):
                    continue
                params = [x.split(b":")[0].strip() for x in fm.group(2).split(b",") if x.strip()]
                rest = re.sub(rb"(?<![\w.])" + mname + rb"\s*\.\s*(?:clear\(\s*\)|remove\(\s*\w+\s*\))", b"", body)
                if not re.search(rb"(?<![\w.])" + mname + rb"\b", rest):
                    continue                                # resets only
                if len(params) == 1 and re.fullmatch(rb"\s*(?:return\s+)?" + mname + rb"\s*\[\s*" +
                                                     re.escape(params[0]) + rb"\s*\]\s*\?:\s*0\s*\}?\s*", rest):
                    readers.append(fm.group(1))
                elif params and re.fullmatch(rb"\s*" + mname + rb"\s*\.\s*(?:compute|merge|put)\s*\(\s*" +
                                             re.escape(params[0]) + rb"\b[^\n]*\s*\}?\s*", rest):
                    writers.append(fm.group(1))
                else:
                    ok = False
            if not ok or not readers or not writers:
                continue
            keys: set = set()
            wnames = {w.decode() for w in writers}
            for r2, d2 in files.items():
                if not any(w in d2 for w in writers):
                    continue
                for call, _name, arg in _calls_of(parse(d2).root_node, wnames, d2):
                    k = _key_text(d2[arg.start_byte:arg.end_byte], d2, call) if arg is not None else None
                    if k is None:
                        ok = False
                    keys.add(k)
            if ok:
                for r in readers:
                    out[("counter", r.decode())] = frozenset(keys)
    return out


def _effect_summary(fd, text: bytes, data: bytes, funs: dict, found: dict):
    """A class's function whose only changes are to its own collections (``fun deleteCard(id: Int): Card? { val i =
    cards.indexOfFirst { … }; return if (i >= 0) cards.removeAt(i) else null }``): ("effect", name, arity) -> (the
    members it changes, the names it reads). Only a name the code base declares once; anything else it calls (but a
    query) or stores makes its changes unknown."""
    m = _FUN_NAME.search(text)
    if m is None or funs.get(m.group(1), 0) != 1 or re.search(rb"\b(?:open|abstract|override|operator|suspend|"
                                                              rb"inline)\b", text[:m.start()]):
        return
    cls = fd.parent.parent if fd.parent is not None else None
    if cls is None or cls.type not in ("class_declaration", "object_declaration"):
        return
    params = _param_nodes(fd)
    body = next((c for c in fd.named_children if c.type == "function_body"), None)
    if body is None:
        return
    props = _own_properties(cls, data)
    nm = _Norm(data, frozenset())
    nm.declare(fd)
    x = nm.body(body)
    writes: set = set()
    ok = [True]

    def walk(y):
        if not ok[0] or not isinstance(y, tuple):
            return
        if y[:1] in (("assignment",), ("for_statement",), ("while_statement",), ("do_while_statement",)) or (
                y[:1] == ("jump",) and y[1] != "return"):
            ok[0] = False
            return
        if y[:1] == ("call",) and len(y) == 4:
            callee = y[1]
            name = callee[-1] if isinstance(callee, tuple) and callee[:1] == ("nav",) else \
                callee[1] if isinstance(callee, tuple) and callee[:1] == ("id",) else ""
            if isinstance(name, str) and name in _MUTATORS and callee[:1] == ("nav",) and \
                    callee[2] in [("id", n) for n in props]:
                writes.add(("m", callee[2][1]))
            elif not (isinstance(name, str) and _QUERY.match(name)) or callee[:1] == ("id",) and \
                    name.encode() in funs:
                ok[0] = False
                return
            for a in y[2]:
                if isinstance(a, tuple) and a[:1] == ("lambda",):
                    if not _pure(a[1]):
                        ok[0] = False
                        return
                else:
                    walk(a)
            walk(callee)
            return
        for c in y:
            walk(c)

    walk(x)
    if not ok[0] or not writes:
        return
    reads = {n for n in _names(x, set()) if n[:1] == ("m",)}
    found[("effect", m.group(1).decode(), len(params))] = (frozenset(writes), frozenset(reads))


_PLAIN = re.compile(rb"((?:private|internal|public|final)\s+)*fun\s+(\w+)\s*\(([^()]*)\)\s*(?::\s*[\w<>?, .]+)?"
                    rb"(?:=|\{\s*return\b)")


_PLAIN_ANY = re.compile(rb"^[ \t]*(?:(?:private|internal|public|final)\s+)*fun\s+\w+\s*\([^()]*\)\s*(?::\s*[\w<>?, .]+)?=",
                        re.M)


def _own_properties(cls_node, data: bytes) -> set:
    """The names of the properties a class declares itself (constructor ``val`` / ``var`` and body properties)."""
    out = set()
    for c in cls_node.named_children:
        if c.type in ("primary_constructor", "class_parameters"):
            for cp in c.named_children:
                if cp.type == "class_parameters":
                    out.update(_param_name(x, data) for x in cp.named_children if x.type == "class_parameter" and
                               re.match(rb"\s*(?:\w+\s+)*(?:val|var)\b", data[x.start_byte:x.end_byte]))
                elif cp.type == "class_parameter" and re.match(rb"\s*(?:\w+\s+)*(?:val|var)\b",
                                                               data[cp.start_byte:cp.end_byte]):
                    out.add(_param_name(cp, data))
        if c.type in ("class_body", "enum_class_body"):
            for x in c.named_children:
                if x.type == "property_declaration":
                    vd = next((v for v in x.named_children if v.type == "variable_declaration"), None)
                    if vd is not None:
                        out.add(_param_name(vd, data))
    out.discard("")
    return out


def _plain_helper(fd, text: bytes, data: bytes, member: bool, funs: dict, found: dict, seen: dict, rel: str = ""):
    """A one-expression function that is no extension: a private one (of a class or of a file), called by its bare
    name where it is visible, is written out with its parameters replaced by the arguments; a class's public one
    (``fun isBlack() = Black in colors``) reading only the class's own properties and its parameters, called on a
    receiver (``card.isBlack()``), is written out with the receiver's properties. Only a name declared once where it
    is visible (its file for a private one, keyed ("plain", name, arity, file); the code base for a public one: no
    override, no overload) is written out."""
    m = _PLAIN.match(text)
    if m is None or re.search(rb"\b(?:open|abstract|override|operator|infix|"
                                                              rb"suspend|inline)\b", text[:m.end()]):
        return
    private = m.group(1) is not None and b"private" in m.group(1)
    if not private and not member:
        return
    if not private and not m.group(0).endswith(b"="):
        return          # `{ return e }` only for a private helper (a public one is read unwritten in helpers' bodies)
    if (len(_FUN_NAME_OF(m.group(2)).findall(data)) if private else funs.get(m.group(2), 0)) != 1:
        return
    params = _param_nodes(fd)
    if len(params) != len([x for x in m.group(3).split(b",") if x.strip()]):
        return
    read = _one_expression(fd, params, data)
    if read is None:
        return
    locs, x = read
    key = (m.group(2).decode(), len(params))
    if private:
        found[("plain",) + key + (rel,)] = (locs, x, "plain")
        return
    else:
        cls = fd.parent.parent if fd.parent is not None else None
        if cls is None or cls.type not in ("class_declaration", "object_declaration"):
            return
        props = _own_properties(cls, data)
        ok = [True]

        def own(y, callee=False):
            if not isinstance(y, tuple):
                return y
            if len(y) == 2 and y[0] == "id" and isinstance(y[1], str) and y[1][:1].islower():
                if y[1] in props and not callee:
                    return ("nav", ".", ("this_expression", "this"), y[1])
                if not callee:
                    ok[0] = False
                return y
            if y[:1] == ("call",) and len(y) == 4:
                return (y[0], own(y[1], True), own(y[2]), y[3])
            return tuple(own(c) for c in y)

        raw = x
        x = own(x)
        if not ok[0] or _calls_member(x, funs):
            return
        seen[key] = seen.get(key, 0) + 1
        # the bare-name call inside its own class (``isEnemy(o) = !isPartnerOrSelf(o)``) is written out as it
        # stands, its own members left bare (``_Norm.call``)
        found[key] = (locs, x, "member", raw, rel, _decl_name(cls, data))
        return
    seen[key] = seen.get(key, 0) + 1
    found[key] = (locs, x, kind)


_BLOCK = re.compile(rb"private\s+fun\s+(\w+)\s*\(([^()]*)\)\s*(?::\s*([\w<>?, .]+?)\s*)?\{")


def _block_helper(fd, text: bytes, data: bytes, found: dict, rel: str = ""):
    """A private function of a file or class whose body is a block that returns nothing (no ``return`` in it), its name
    declared once in its file: ("block", name, arity, file) -> (parameter locals, the block's normal form). A call of it
    standing as a statement, by its bare name, is its block with the parameters replaced by the arguments (``_Norm.
    stmt``): code moved into a helper called from the same place is the same code. A block whose one ``return`` is its
    last statement (``return e``, a value) is kept too: the initialiser of a local (``val x = helper(a)``) is the
    block with ``val x = e`` in place of the return (``_Norm.prop_stmt``)."""
    m = _BLOCK.match(text)
    if m is None or re.search(rb"\bthis\b|\bsuper\b|\breturn@", text) or \
            len(_FUN_NAME_OF(m.group(1)).findall(data)) != 1:
        return
    returns = len(re.findall(rb"\breturn\b", text))
    if returns > 1 or (returns and (m.group(3) or b"Unit").strip() == b"Unit"):
        return
    params = _param_nodes(fd)
    if len(params) != len([x for x in m.group(2).split(b",") if x.strip()]):
        return
    body = next((c for c in fd.named_children if c.type == "function_body"), None)
    block = next((c for c in body.named_children if c.type == "block"), None) if body is not None else None
    if block is None:
        return
    nm = _Norm(data, frozenset())
    names = [_param_name(p, data) for p in params]
    nm.declare(fd)
    try:
        locs = tuple(nm.local(x) for x in names)
        tree = nm.body(block)
    except RecursionError:
        return
    if returns:
        last = tree[-1] if len(tree) > 1 else None
        if not (isinstance(last, tuple) and last[:2] == ("jump", "return") and len(last) == 3 and len(last[2]) == 1
                and not _has_jump(tree[:-1])):
            return                                      # the return is not the block's last statement
        found[("value", m.group(1).decode(), len(params), rel)] = (locs, tree, "plain")
        return
    found[("block", m.group(1).decode(), len(params), rel)] = (locs, tree, "plain")


def _calls_member(x, funs: dict) -> bool:
    """Whether a normal form calls a bare-named function the code base declares (a member of the implicit receiver
    perhaps: not written out elsewhere)."""
    if isinstance(x, tuple):
        if x[:1] == ("call",) and len(x) == 4 and isinstance(x[1], tuple) and x[1][:1] == ("id",) and \
                x[1][1].encode() in funs:
            return True
        return any(_calls_member(c, funs) for c in x)
    return False


def is_helper(c_text: bytes, member: str, arity: int, helpers: dict, rel: str = "") -> bool:
    """Whether a declaration is one of ``helpers`` (written out at each call: adding or removing it alone changes
    nothing)."""
    if ("block", member, arity, rel) in helpers or ("value", member, arity, rel) in helpers:
        return True                                     # a block written out at each call (``_block_helper``)
    m = _HELPER.match(c_text.strip())
    if m is None:
        m = _PLAIN.match(c_text.strip())
        return m is not None and m.group(2).decode() == member and (
            helpers.get((member, arity), ("", "", ""))[2] == "member" or ("plain", member, arity, rel) in helpers)
    return m is not None and m.group(1).decode() == member and (member, arity) in helpers


def _walk_locals(x):
    """The local names (``("v", name)``) a normal form holds."""
    if isinstance(x, tuple):
        if len(x) == 2 and x[0] == "v" and isinstance(x[1], str):
            yield x[1]
        else:
            for c in x:
                yield from _walk_locals(c)


def _lower_ids(x) -> bool:
    if isinstance(x, tuple):
        if len(x) == 2 and x[0] == "id" and isinstance(x[1], str):
            return x[1][:1].islower()
        return any(_lower_ids(c) for c in x)
    return False


def _inline(helper, recv, args, first=None, reserve=None):
    """A helper's expression with its parameters replaced by the arguments and its receiver by ``recv``; its own
    locals renamed apart — or, given ``first`` (the number the caller's next local would get), numbered from it as
    the caller numbers a lambda's parameter (``any { it.x }`` written out reads as written in place)."""
    locs, body = helper[:2]
    kind = helper[2] if len(helper) > 2 else "ext"
    sub = dict(zip(locs, args))
    if first is not None:
        own: dict = {}
        _uses(body, own)
        for j, x in enumerate(sorted((x for x in own if x not in sub), key=lambda x: int(x[1:]) if x[1:].isdigit()
                                     else 0)):
            sub[x] = ("v", f"v{first + j}")
            if reserve is not None:                     # (the caller's next local gets a number of its own)
                reserve[f"<v{first + j}>"] = f"v{first + j}"

    def walk(x, top):
        if not isinstance(x, tuple):
            return x
        if len(x) == 2 and x[0] == "v":
            return sub.get(x[1], ("v", "h." + x[1]))
        if x == ("this_expression", "this") and kind != "plain":
            return recv
        if top and kind == "ext" and x[:1] == ("call",) and len(x) == 4 and x[1][:1] == ("id",):
            return ("call", ("nav", ".", recv, x[1][1])) + tuple(walk(c, False) for c in x[2:])
        return _rebuilt(x, (walk(c, False) for c in x))

    return walk(body, True)


_STATE_CLASS = re.compile(rb"\bclass\s+(\w+)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*:\s*Fsm\b")


def quiet_moments(files: dict) -> dict:
    """The states that only raise a moment no code of the revision answers (``OnGiveCard(whoseTurn, from, to,
    next)``: its ``resolve`` asks the triggers, then goes on with ``next``; nothing tests the state against its
    class): name -> the index of the state it goes on with. Such a state is the state it goes on with. Also
    ``"event:<name>"`` -> -1 for each event nobody listens for (``quiet_events``)."""
    out = {f"event:{e}": -1 for e in quiet_events(files)}      # events nobody listens for (``quiet_events``)
    for rel, data in files.items():
        if b"dealListeningSkill" not in data:
            continue
        for m in _STATE_CLASS.finditer(data):
            name = m.group(1).decode()
            params = [x.strip() for x in re.split(rb",(?![^()<>]*[)>])", m.group(2)) if x.strip()]
            nxt = [i for i, x in enumerate(params) if re.search(rb":\s*Fsm\s*$", x)]
            if len(nxt) != 1:
                continue
            pname = re.search(rb"(\w+)\s*:", params[nxt[0]]).group(1)
            if not re.search(rb"ResolveResult\(\s*" + re.escape(pname) + rb"\s*,", data):
                continue
            heard = re.compile(rb"(?:\bas\??\s+|\bis\s+|<\s*)" + re.escape(m.group(1)) + rb"\b(?!\s*\()")
            if any(heard.search(d) for r, d in files.items() if r != rel and m.group(1) in d):
                continue
            out[name] = nxt[0]
    return out


_EVENT_CLASS = re.compile(rb"\bclass\s+(\w+)\b[^{\n]*?\)?\s*:\s*Event\s*\(\s*\)")
#: a read of a type: a test, a cast, a type argument (``findEvent<T>``), a class literal
_TYPE_READ = rb"(?:\bas\??\s+|\bis\s+|<\s*|::\s*)%s\b(?!\s*\()|\b%s\s*::\s*class\b"


def quiet_events(files: dict) -> frozenset:
    """The events (``class TurnEndEvent(…) : Event()``) no code of the revision listens for — nothing tests an event
    against the class, casts to it or asks for it by type (``findEvent<TurnEndEvent>``), and nothing listens for every
    event (``findEvent<Event>``, ``is Event``): raising one (``game.addEvent(TurnEndEvent(p))``) only adds an event
    every listener passes over, so the statement is no rule (``_Norm.dropped``)."""
    generic = re.compile(rb"\bis\s+Event\b|\bas\??\s+Event\b|\b(?:find|filter|first|last|any|none|count|all)\w*\s*<\s*Event\s*>")
    if any(generic.search(d) for d in files.values()):
        return frozenset()
    out = set()
    for rel, data in files.items():
        if b"Event" not in data:
            continue
        for m in _EVENT_CLASS.finditer(data):
            name = m.group(1)
            heard = re.compile(_TYPE_READ % (re.escape(name), re.escape(name)))
            if any(heard.search(d) for d in files.values() if name in d):
                continue
            if sum(len(re.findall(rb"\bclass\s+" + re.escape(name) + rb"\b", d)) for d in files.values()
                   if name in d) != 1:
                continue                                # declared twice (another package): left alone
            out.add(name.decode())
    return frozenset(out)


def _param_name(node, data: bytes) -> str:
    ident = next((c for c in node.named_children if c.type in ("identifier", "simple_identifier")), None)
    return data[ident.start_byte:ident.end_byte].decode("utf-8", "replace") if ident is not None else ""


def _decl_name(node, data: bytes) -> str:
    ident = node.child_by_field_name("name") or next(
        (c for c in node.named_children if c.type in ("identifier", "type_identifier", "simple_identifier")), None)
    return data[ident.start_byte:ident.end_byte].decode("utf-8", "replace") if ident is not None else ""


_BUILDER_DECL = re.compile(rb"\b(?:val|var)\s+(\w+)\s*=\s*[\w.]+\.newBuilder\(\)")
_FUN_DECL = re.compile(rb"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(\w+)")
#: a line that fills a client message or writes a log line (up to the name read on it)
_NOTICE_LINE = re.compile(rb"\s*(?:\w*[bB]uilder\w*\s*\.\s*\w+\s*(?:\(|=(?!=))|(?:log|logger|LOG|Log)\s*\.\s*\w+\s*\()")


def dead_params(files: dict, changed, parse, is_rule) -> dict:
    """The parameters no rule reads, of the classes and functions declared in the ``changed`` files of one revision
    (``files``: {path: bytes}; ``parse(data)`` → tree; ``is_rule(path)``): name -> {parameter: index}. A parameter is
    dead when every read of it inside its declaration fills a client message, a log line, a time-out or a robot's
    choice, or passes it on to a dead parameter; and, for a property (``val`` / ``var``), every read of ``x.name`` in
    the code base stands in a file that holds no rule, in a robot helper or on a line filling a client message or a
    log line. The normal form leaves such a parameter out of its declaration and the value given for it out of each
    call (what the code sends a client, or how long it waits, decides nothing in play)."""
    cands: dict = {}                # (name) -> {param: (index, is property)}
    reads: dict = {}                # (name, param) -> [(kind, callee, index)]: "live" or ("pass", callee, index)
    for rel in changed:
        data = files.get(rel)
        if data is None or not is_rule(rel):
            continue
        root = parse(data).root_node
        nm = _Norm(data, frozenset())
        builders = {m.group(1).decode() for m in _BUILDER_DECL.finditer(data)}
        stack = [root]
        while stack:
            n = stack.pop()
            stack.extend(n.named_children)
            if n.type not in ("class_declaration", "function_declaration"):
                continue
            name = _decl_name(n, data)
            if not name or _NOT_RULE_MEMBER.match(name):
                continue
            mods = next((c for c in n.named_children if c.type == "modifiers"), None)
            if mods is not None and b"override" in data[mods.start_byte:mods.end_byte].split():
                continue                                # its parameters are the interface's: given by the engine
            plist = next((c for c in n.named_children if c.type in ("primary_constructor", "function_value_parameters")),
                         None)
            if plist is not None and plist.type == "primary_constructor":
                plist = next((c for c in plist.named_children if c.type == "class_parameters"), None)
            if plist is None:
                continue
            params = [c for c in plist.named_children if c.type in ("class_parameter", "parameter")]
            mine = {}
            for i, prm in enumerate(params):
                pn = _param_name(prm, data)
                if not pn:
                    continue
                is_prop = prm.type == "class_parameter" and re.match(rb"\s*(?:\w+\s+)*(?:val|var)\b",
                                                                     data[prm.start_byte:prm.end_byte]) is not None
                mine[pn] = (i, is_prop)
            if not mine:
                continue
            if n.type == "class_declaration" and any(
                    re.search(r"\boverride\b", data[p.start_byte:p.end_byte].decode("utf-8", "replace"))
                    for p in params):
                mine = {k: v for k, v in mine.items() if not re.search(
                    rb"\boverride\b", data[params[v[0]].start_byte:params[v[0]].end_byte])}
            if n.type == "class_declaration" and _private(n, data):
                mine = {k: (i, False) for k, (i, _p) in mine.items()}     # its members are read in its own body only
            cands.setdefault(name, {}).update(mine)
            body = [c for c in n.named_children if c.type in ("class_body", "function_body")]
            for b in body:
                _param_reads(b, mine, name, data, nm, builders, reads)
    # property parameters: reads of `x.name` anywhere
    for name, mine in cands.items():
        for pn, (i, is_prop) in mine.items():
            if is_prop and _member_read(pn, files, is_rule):
                reads.setdefault((name, pn), []).append(("live",))
    dead = {name: {pn: i for pn, (i, _p) in mine.items() if not any(r[0] == "live" for r in reads.get((name, pn), []))}
            for name, mine in cands.items()}
    for _ in range(6):                                  # passed on only to a dead parameter
        changed_any = False
        for name, ps in dead.items():
            for pn in list(ps):
                for r in reads.get((name, pn), []):
                    if r[0] == "pass" and not (r[1] in dead and r[2] in dead[r[1]].values()):
                        del ps[pn]
                        changed_any = True
                        break
        if not changed_any:
            break
    return {k: v for k, v in dead.items() if v}


def _private(n, data: bytes) -> bool:
    """Whether a class is private (its members are read in its own file only: a private state of a skill)."""
    mods = next((c for c in n.named_children if c.type == "modifiers"), None)
    return mods is not None and b"private" in data[mods.start_byte:mods.end_byte].split()


def _param_reads(body, mine: dict, name: str, data: bytes, nm, builders: set, reads: dict):
    """Each read of a parameter of ``mine`` under ``body``: "live", or passed on as a call's argument."""
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type in ("class_declaration", "object_declaration"):
            continue                                    # a nested class has its own parameters
        if n.type != "identifier":
            stack.extend(n.named_children)
            continue
        pn = data[n.start_byte:n.end_byte].decode("utf-8", "replace")
        if pn not in mine:
            continue
        parent = n.parent
        if parent is not None and parent.type == "navigation_expression" and parent.named_children and \
                parent.named_children[0] != n and data[parent.named_children[0].start_byte:
                                                       parent.named_children[0].end_byte] != b"this":
            continue                                    # another object's member of that name
        if parent is not None and parent.type == "value_argument" and parent.named_children and \
                parent.named_children[0] == n and len(parent.named_children) > 1:
            continue                                    # a named argument's label
        if parent is not None and parent.type in ("parameter", "class_parameter", "variable_declaration"):
            continue
        reads.setdefault((name, pn), []).append(_read_kind(n, data, nm, builders))


def _read_kind(n, data: bytes, nm, builders: set) -> tuple:
    """("notice",), ("pass", callee, index) or ("live",) for one read."""
    line = data[data.rfind(b"\n", 0, n.start_byte) + 1:n.start_byte]
    if _NOTICE_LINE.match(line):
        return ("notice",)
    child, cur = n, n.parent
    passed = None
    while cur is not None:
        t = cur.type
        if t in ("function_declaration",) and _NOT_RULE_MEMBER.match(_decl_name(cur, data)):
            return ("notice",)
        if t in ("call_expression", "assignment") and nm.dropped(cur):
            return ("notice",)
        if t == "assignment":
            left = cur.named_children[0] if cur.named_children else None
            if left is not None and left != child and nm.callee_names(left)[1] in builders:
                return ("notice",)
        if t == "call_expression" and cur.named_children:
            last, head = nm.callee_names(cur.named_children[0])
            if head in builders or _PROTO.match(last or "") or (last or "").endswith(("Toc", "_toc")):
                return ("notice",)
            if passed is None and child.type == "value_arguments":
                args = [a for a in child.named_children if a.type == "value_argument"]
                for i, a in enumerate(args):
                    if a.start_byte <= n.start_byte < a.end_byte and a.named_children and a.named_children[-1] == n \
                            and len(a.named_children) == 1:
                        passed = ("pass", last, i)
        if t in ("function_body", "class_body"):
            break
        child, cur = cur, cur.parent
    return passed or ("live",)


def _member_read(pn: str, files: dict, is_rule) -> bool:
    """Whether a rule reads ``x.pn`` somewhere in the code base (not on a client-message or log line, not in a robot
    helper, not in a file that holds no rule)."""
    pat = re.compile(rb"(?:\.|\?\.)\s*" + re.escape(pn.encode()) + rb"(?![\w(])")
    for rel, data in files.items():
        if pn.encode() not in data or not is_rule(rel):
            continue
        funs = None
        for m in pat.finditer(data):
            if re.match(rb"\s*(\+\+|--|[-+*/]?=(?!=))", data[m.end():m.end() + 4]):
                continue
            line = data[data.rfind(b"\n", 0, m.start()) + 1:m.start()]
            if _NOTICE_LINE.match(line):
                continue
            if funs is None:
                funs = [(f.start(), f.group(1).decode()) for f in _FUN_DECL.finditer(data)]
            enclosing = next((x for pos, x in reversed(funs) if pos < m.start()), "")
            if enclosing and _NOT_RULE_MEMBER.match(enclosing):
                continue
            return True
    return False


_NEG = _Norm(b"", frozenset())
_QUERY = re.compile(r"(get|is|has|find|count|calc|filter|any|all|none|first|last|map|sum|contains|to[A-Z]|"
                    r"coerce|min|max|size|indexOf|sort)\w*\Z")


#: what may throw in a condition (an index, `!!`, a cast, a division, a query of an element an empty collection lacks,
#: a conversion of text): a junction holding one keeps its order (the left part may be what keeps the right one
#: from throwing)
_THROWS = re.compile(r"!!|\[|\bas\b|/|%|\b(first|last|single|get|elementAt|random|min|max|reduce|minOf|maxOf|"
                     r"component\d|toInt|toLong|valueOf|require|check|error)\s*[({]")


class _Asserted(tuple):
    """A normal form read through ``!!``: equal to the form itself (``x!!.f`` and ``x.f`` compare alike), but
    ``_may_throw`` sees that it throws when null. A rewrite that builds a new tuple drops the mark (then the part is
    taken as not throwing, as before the mark)."""
    __slots__ = ()


def _rebuilt(x, parts) -> tuple:
    """``x``'s parts rewritten, as a tuple of ``x``'s own kind (a ``!!`` read keeps its mark)."""
    return _Asserted(parts) if isinstance(x, _Asserted) else tuple(parts)


def _may_throw(x) -> bool:
    """Whether a normal form holds what may throw (an index, a division, a cast, a query of an element an empty
    collection lacks)."""
    if not isinstance(x, tuple):
        return False
    if isinstance(x, _Asserted):
        return True
    if x[:1] in (("index_expression",), ("as_expression",)) or (x[:1] == ("bin",) and len(x) > 1 and x[1] in ("/", "%")):
        return True
    if x[:1] == ("call",) and len(x) >= 2:
        callee = x[1]
        name = callee[-1] if isinstance(callee, tuple) and callee[:1] == ("nav",) else \
            callee[1] if isinstance(callee, tuple) and callee[:1] == ("id",) else ""
        if isinstance(name, str) and _THROWS.search(name + "("):
            return True
    return any(_may_throw(c) for c in x)


def _sorted_junction(x):
    """``and`` / ``or`` whose parts change nothing and cannot throw (``_may_throw``) in one order (a null test first):
    their order is no rule; any other form as it is."""
    if isinstance(x, tuple) and x[:1] in (("and",), ("or",)) and all(_pure(p) and not _may_throw(p) for p in x[1:]):
        return (x[0],) + tuple(sorted(x[1:], key=lambda p: (0 if _null_test(p) else 1, _order(p))))
    return x


def _order(x) -> str:
    """The order of the two sides of an equality: by their shape, local numbers left out (they are given later)."""
    return re.sub(r"\('v', '(?:[sv]\d+|h\.[^']*)'\)", "('v',)", repr(x))


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


#: members of the standard library's collections: inside ``x.run { … }`` a bare call of one of them is ``x``'s
_COLLECTION_MEMBERS = frozenset({"take", "drop", "takeLast", "dropLast", "shuffled", "sorted", "reversed", "distinct",
                                 "first", "last", "firstOrNull", "lastOrNull", "random", "toList", "toMutableList",
                                 "filter", "map", "count", "sum", "isEmpty", "isNotEmpty"})
_BREAK = (("id", "break"), ("jump", "break", ()))


def _negate(x):
    return _NEG.neg(x)


def _walk_ids(n) -> list:
    """The identifiers a lambda's parameter list declares (``a``, ``(a, b)``), in order."""
    out, stack = [], [n]
    while stack:
        x = stack.pop()
        if x.type in ("identifier", "simple_identifier") and x.parent is not None and x.parent.type in (
                "variable_declaration", "lambda_parameters", "multi_variable_declaration") and x.prev_named_sibling is None:
            out.append(x)
            continue
        stack.extend(reversed(x.named_children))
    return out


def _lambda_expr(a):
    """The one expression a lambda ``{ … -> e }`` returns, or None."""
    if isinstance(a, tuple) and len(a) == 2 and a[0] == "lambda" and isinstance(a[1], tuple) and len(a[1]) == 2 \
            and a[1][0] == "seq" and isinstance(a[1][1], tuple) and a[1][1][:1] not in (
                ("decl",), ("if",), ("guard",), ("assignment",), ("for_statement",), ("while_statement",)):
        return a[1][1]
    return None


def _take(x):
    """``x.take(n)`` / ``take(n)`` → (receiver or None, n)."""
    if isinstance(x, tuple) and len(x) == 4 and x[0] == "call" and len(x[2]) == 1:
        if x[1][:1] == ("nav",) and x[1][3] == "take":
            return x[1][2], x[2][0]
        if x[1] == ("id", "take"):
            return None, x[2][0]
    return None


def _size(recv):
    return ("nav", ".", recv, "size")


def _spelled(x):
    """One spelling for the collection idioms that mean the same: ``l.isEmpty()`` / ``l.size == 0``, ``l.isNotEmpty()``
    / ``l.size != 0``, ``l.isNullOrEmpty()`` / ``l == null || l.size == 0``, ``l.filter { p }.size`` / ``l.count { p
    }``, ``l.count()`` / ``l.size``, a count of ``p`` compared with 0 / ``any { p }``, ``find`` / ``firstOrNull``,
    ``findLast`` / ``lastOrNull``, ``l.first()`` / ``l[0]``, ``l.last()`` / ``l[l.size - 1]``, ``l.lastIndex`` /
    ``l.size - 1``, ``a.coerceAtMost(b)`` / ``minOf(a, b)`` (and ``maxOf``, either order), ``c == true`` / ``c``,
    ``c == false`` / ``!c``; None when none applies."""
    k = x[0]
    if k == "call" and len(x) == 4 and isinstance(x[1], tuple) and x[1][:1] == ("nav",) and len(x[1]) == 4:
        recv, name, args = x[1][2], x[1][3], x[2]
        if not args and name == "isEmpty":
            return _NEG.eq("==", _size(recv), ("lit", "0"))
        if not args and name == "isNotEmpty":
            return _NEG.eq("!=", _size(recv), ("lit", "0"))
        if not args and name == "isNullOrEmpty":
            return ("or", _NEG.eq("==", recv, ("null",)), _NEG.eq("==", _size(recv), ("lit", "0")))
        if not args and name == "count":
            return _size(recv)
        if not args and name == "first":
            return ("index_expression", recv, ("lit", "0"))
        if not args and name == "last":
            return ("index_expression", recv, ("bin", "-", _size(recv), ("lit", "1")))
        if name in ("find", "findLast") and len(args) == 1:
            return ("call", x[1][:3] + ({"find": "firstOrNull", "findLast": "lastOrNull"}[name],), args, x[3])
        if name in ("coerceAtMost", "coerceAtLeast") and len(args) == 1 and _pure(recv) and _pure(args[0]):
            return ("call", ("id", "minOf" if name == "coerceAtMost" else "maxOf"),
                    tuple(sorted((recv, args[0]), key=_order)), "")
    if k == "call" and len(x) == 4 and x[1] in (("id", "minOf"), ("id", "maxOf")) and len(x[2]) == 2 and \
            all(_pure(a) for a in x[2]) and list(x[2]) != sorted(x[2], key=_order):
        return ("call", x[1], tuple(sorted(x[2], key=_order)), x[3])
    if k == "nav" and len(x) == 4 and x[3] == "lastIndex":
        return ("bin", "-", _size(x[2]), ("lit", "1"))
    if k == "nav" and len(x) == 4 and x[3] == "size" and isinstance(x[2], tuple) and x[2][:1] == ("call",) and \
            len(x[2]) == 4 and x[2][1][:1] == ("nav",) and len(x[2][1]) == 4 and x[2][1][3] == "filter" and \
            len(x[2][2]) == 1:
        return ("call", x[2][1][:3] + ("count",), x[2][2], x[2][3])
    if k == "cmp" and x[1] in ("==", "!=") and len(x) == 4:
        for a, b in ((x[2], x[3]), (x[3], x[2])):
            if isinstance(a, tuple) and a[:1] == ("lit",) and isinstance(a[1], bool):
                return b if (x[1] == "==") == a[1] else _negate(b)
            if a == ("lit", "0") and isinstance(b, tuple) and b[:1] == ("call",) and len(b) == 4 and \
                    b[1][:1] == ("nav",) and len(b[1]) == 4 and b[1][3] == "count" and len(b[2]) == 1 and \
                    isinstance(b[2][0], tuple) and b[2][0][:1] == ("lambda",):
                any_ = ("call", b[1][:3] + ("any",), b[2], b[3])
                return any_ if x[1] == "!=" else _negate(any_)
    return None


def _condition_form(c):
    """A condition read or branched on (``if``, a guard) in one form: each ordering comparison with its operands in
    one order (``b < a`` is ``a > b``), and the operands of ``&&`` / ``||`` that read and change nothing and cannot throw
    (``_may_throw``) in one order (their order decides nothing)."""
    if not isinstance(c, tuple) or not c:
        return c
    if c[0] == "cmp" and len(c) == 4 and c[1] in _MIRROR and _order(c[3]) < _order(c[2]):
        return ("cmp", _MIRROR[c[1]], c[3], c[2])
    if c[0] in ("and", "or"):
        parts = tuple(_condition_form(d) for d in c[1:])
        # only when no part may throw: an earlier part may keep a later one from throwing (`l.isNotEmpty() &&
        # l.first()…`), and a part that throws ends the test before a later one is read
        if all(_pure(d) and not _may_throw(d) for d in parts):
            parts = tuple(sorted(set(parts), key=_order))          # (a test twice is the test once)
        return parts[0] if len(parts) == 1 else (c[0],) + parts
    if c[0] == "not" and len(c) == 2:
        return ("not", _condition_form(c[1]))
    return c


def _equal_calls(x):
    """One spelling for library calls that mean the same (see ``_equate``), or ``x`` itself."""
    k = x[0] if x else None
    for rule in (_get_or_remove, _list_equal, _absorbed):
        y = rule(x)
        if y is not None and y != x:
            return y
    if k == "cmp" and len(x) == 4 and x[1] in ("==", "!=") and _order(x[3]) < _order(x[2]):
        return ("cmp", x[1], x[3], x[2])                # (the operands of an equality in one order, after a rewrite)
    y = _spelled(x) if k in ("call", "nav", "cmp") else None
    if y is not None and y != x:
        return y
    if k in ("if", "guard") and len(x) >= 3:
        c = _condition_form(x[1])
        if c != x[1]:
            return (k, c) + x[2:]
    if k == "if" and len(x) == 3 and isinstance(x[2], tuple) and len(x[2]) == 2 and x[2][0] == "seq" and \
            isinstance(x[2][1], tuple) and len(x[2][1]) == 3 and x[2][1][0] == "if":
        return ("if", _NEG.junction("&&", x[1], x[2][1][1]), x[2][1][2])     # `if (a) { if (b) s }`: `if (a && b) s`
    if k == "not" and len(x) == 2 and isinstance(x[1], tuple):
        y = _negate(x[1])                               # a negation a rewrite below it made pushable (`!!any`)
        if y != x:
            return y
    if k == "cmp":
        y = _nonneg(x)
        if y != x:
            return y
    if k == "index_expression" and len(x) == 3 and isinstance(x[2], tuple) and x[2][:2] == ("call", ("id", "nextInt")) \
            and x[2][2] == (("nav", ".", x[1], "size"),):
        return ("call", ("nav", ".", x[1], "random"), (), "")        # `l[Random.nextInt(l.size)]` is `l.random()`
    if k == "call" and len(x) == 4 and len(x[2]) == 2 and x[2][0] == ("lit", "0") and (
            x[1] == ("id", "subList") or (x[1][:1] == ("nav",) and x[1][3] == "subList")):
        callee = ("id", "take") if x[1][0] == "id" else x[1][:3] + ("take",)
        return ("call", callee, (x[2][1],), x[3])                    # `subList(0, n)` is `take(n)`
    if k in ("if", "ife"):
        branches = x[2:] if k == "if" else (x[2] if len(x) == 3 and isinstance(x[2], tuple) else ())
        cond = x[1]
        if isinstance(cond, tuple) and cond[:1] == ("cmp",) and len(cond) == 4 and cond[1] in ("<", ">="):
            cond = ("cmp", _MIRROR[cond[1]], cond[3], cond[2])          # (the condition's operands in one order)
        if len(branches) == 2 and all(isinstance(b, tuple) and len(b) == 2 and b[0] == "seq" for b in branches) \
                and isinstance(cond, tuple) and cond[:1] == ("cmp",) and cond[1] in (">", "<="):
            a, b = branches[0][1], branches[1][1]
            if cond[1] == "<=":
                a, b = b, a
            t = _take(a)
            if t is not None and t[1] == cond[3] and (
                    (t[0] is not None and b == t[0] and cond[2] == ("nav", ".", t[0], "size")) or
                    (t[0] is None and b == ("this_expression", "this") and cond[2] == ("id", "size"))):
                return a                                           # `if (l.size > n) l.take(n) else l` is `l.take(n)`
    if k == "cmp" and x[1] in ("==", "!=") and x[2][:1] == ("lit",) and x[3][:1] == ("lit",) and \
            isinstance(x[2][1], str) and isinstance(x[3][1], str) and x[2][1].isdigit() and x[3][1].isdigit():
        return ("lit", (int(x[2][1]) == int(x[3][1])) == (x[1] == "=="))    # two numbers compared
    if k == "if" and len(x) == 4 or k == "ife" and len(x) == 3 and isinstance(x[2], tuple) and len(x[2]) == 2:
        y = _oriented(x)
        if y != x:
            return y
    if k == "call" and len(x) == 4 and x[1][:1] == ("nav",) and x[1][3] == "run" and len(x[2]) == 1:
        e = _lambda_expr(x[2][0])
        if e is not None and e[:1] == ("call",) and len(e) == 4 and e[1][:1] == ("id",) and \
                e[1][1] in _COLLECTION_MEMBERS:
            return ("call", x[1][:3] + (e[1][1],), e[2], e[3])      # `l.run { take(n) }` is `l.take(n)`
    if k == "in" and len(x) == 4 and isinstance(x[3], tuple) and x[3][:1] == ("call",) and len(x[3]) == 4 and \
            x[3][1] in (("id", "listOf"), ("id", "setOf"), ("id", "arrayOf")) and x[3][2] and \
            all(isinstance(e, tuple) and e[:1] in (("id",), ("lit",)) for e in x[3][2]):
        parts = tuple(_NEG.eq("==" if x[1] else "!=", x[2], e) for e in x[3][2])     # `a in listOf(b, c)`: a == b || a == c
        return parts[0] if len(parts) == 1 else (("or",) if x[1] else ("and",)) + parts
    if k == "call" and len(x) == 4 and x[1][:1] == ("nav",) and x[1][3] in ("all", "none") and len(x[2]) == 1:
        e = _lambda_expr(x[2][0])
        if e is not None:                                         # `all { p }` is `!any { !p }`, `none { p }` `!any { p }`
            return _negate(("call", x[1][:3] + ("any",), (("lambda", ("seq", _negate(e) if x[1][3] == "all" else e)),),
                            x[3]))
    return x


def _negatives(x) -> int:
    """How many negated atoms a condition holds (``!a``, ``a != b``, ``a !is T``, ``a !in l``)."""
    if not isinstance(x, tuple) or not x:
        return 0
    if x[0] in ("and", "or"):
        return sum(_negatives(c) for c in x[1:])
    if x[0] == "not" or (x[0] == "cmp" and x[1] == "!=") or (x[0] in ("is", "in") and x[1] is False):
        return 1
    return 0


def _oriented(x):
    """``if (c) A else B`` in one orientation: of ``c`` and its negation (De Morgan: pushed to the atoms) the one
    with fewer negated atoms (then the first in a fixed order) is the condition, the branches swapped with it —
    ``if (!c) A else B`` is ``if (c) B else A``."""
    cond = x[1]
    if x[0] == "if":
        a, b = x[2], x[3]
    else:
        a, b = x[2]
    other = _negate(cond)
    if _negate(other) != cond:
        return x                                    # (no involution: left as written)
    if (_negatives(other), _order(other)) < (_negatives(cond), _order(cond)):
        return ("if", other, b, a) if x[0] == "if" else ("ife", other, (b, a))
    return x


#: members whose value is never negative (a count, a size): ``x > 0`` is ``x != 0`` for them
_COUNTS = frozenset({"getSkillUseCount", "size", "count", "countTrueCard"})
_ZERO = {(">", "0"): "!=", (">=", "1"): "!=", ("<=", "0"): "==", ("<", "1"): "=="}
_MIRROR = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}


def _count(x) -> bool:
    if isinstance(x, tuple) and x[:1] == ("call",) and len(x) == 4:
        x = x[1]
    return isinstance(x, tuple) and ((x[:1] == ("nav",) and len(x) == 4 and x[3] in _COUNTS) or
                                     (x[:1] == ("id",) and x[1] in _COUNTS))


def _nonneg(x):
    """``n > 0`` / ``n >= 1`` as ``n != 0`` and ``n <= 0`` / ``n < 1`` as ``n == 0`` for a count (never negative)."""
    if len(x) == 4 and x[0] == "cmp" and x[1] in _MIRROR:
        op, a, b = x[1], x[2], x[3]
        if isinstance(a, tuple) and a[:1] == ("lit",) and not (isinstance(b, tuple) and b[:1] == ("lit",)):
            op, a, b = _MIRROR[op], b, a
        if isinstance(b, tuple) and b[:1] == ("lit",) and (op, b[1]) in _ZERO and _count(a):
            return _NEG.eq(_ZERO[(op, b[1])], a, ("lit", "0"))
    return x


def _guard_runs(items: list) -> list:
    """Adjacent guards that leave the same way, their conditions reading and changing nothing and unable to throw
    (``_may_throw``: an earlier guard may keep a later one from throwing), in one order (a test for null first): the
    order of such guards is no rule."""
    out, i = [], 0
    while i < len(items):
        g = items[i]
        if not (isinstance(g, tuple) and len(g) == 3 and g[0] == "guard" and _pure(g[1]) and not _may_throw(g[1])):
            out.append(g)
            i += 1
            continue
        j = i
        while j < len(items) and isinstance(items[j], tuple) and len(items[j]) == 3 and items[j][0] == "guard" and \
                items[j][2] == g[2] and _pure(items[j][1]) and not _may_throw(items[j][1]):
            j += 1
        run = items[i:j]
        out.extend(sorted(run, key=lambda x: (0 if _null_test(x[1]) else 1, _order(x[1]), repr(x[1]))))
        i = max(j, i + 1)
    return out


def _writes(x):
    """What a plain store writes — a local declared with a value that changes nothing, or ``target = value`` with a
    value that changes nothing —: its local or the member (name) it stores into; None for any other statement."""
    if not isinstance(x, tuple) or len(x) != 3:
        return None
    if x[0] == "decl" and x[1][:1] == ("v",) and x[2] is not None and _pure(x[2]):
        return x[1]
    if x[0] == "assignment" and isinstance(x[1], tuple) and _pure(x[1]) and _pure(x[2]):
        t = x[1]
        if t[:1] == ("nav",) and len(t) == 4 and isinstance(t[3], str):
            return ("m", t[3])
        if t[:1] in (("v",), ("id",)):
            return t if t[0] == "v" else ("m", t[1])
    return None


def _names(x, out: set) -> set:
    """The locals (``("v", n)``) and names (``("m", name)``: identifiers and members) a normal form mentions."""
    if isinstance(x, tuple):
        if len(x) == 2 and x[0] == "v":
            out.add(x)
        elif len(x) == 2 and x[0] == "id" and isinstance(x[1], str):
            out.add(("m", x[1]))
        else:
            if len(x) == 4 and x[0] == "nav" and isinstance(x[3], str):
                out.add(("m", x[3]))
            for c in x:
                _names(c, out)
    return out


#: calls that change the collection they are called on (and nothing else)
_MUTATORS = frozenset({"add", "addAll", "remove", "removeAt", "removeAll", "removeIf", "retainAll", "clear", "put",
                       "putAll", "set", "removeFirst", "removeLast", "addFirst", "addLast", "shuffle", "sort",
                       "sortBy", "sortWith"})


def _member_path(x) -> bool:
    """``a.b.c`` of locals and names only."""
    if isinstance(x, tuple) and x[:1] == ("nav",) and len(x) == 4 and x[1] == ".":
        return _member_path(x[2])
    return isinstance(x, tuple) and x[:1] in (("v",), ("id",)) and len(x) == 2


def _footprint(x, effects: dict):
    """(what a statement writes, what it mentions) when all it changes is known — a plain store (``_writes``), a
    collection's member changed in place (``p.messageCards.add(c)``: that member), or a call of a function whose
    summary is known (``effects``: ``p.deleteCard(id)`` changes ``cards``) —, else None. A collection held in a local
    may be anyone's: its change is not known."""
    w = _writes(x)
    if w is not None:
        return {w}, _names(x, set())
    if not (isinstance(x, tuple) and x[:1] == ("call",) and len(x) == 4 and isinstance(x[1], tuple) and
            x[1][:1] == ("nav",) and len(x[1]) == 4 and x[1][1] == "." and isinstance(x[1][3], str)):
        return None
    recv, name, args = x[1][2], x[1][3], x[2]
    if not all(isinstance(a, tuple) and a[:1] not in (("named",), ("lambda",)) and _pure(a) for a in args):
        return None
    if name in _MUTATORS and _member_path(recv) and recv[:1] == ("nav",):
        return {("m", recv[3])}, _names(x, set())
    summary = effects.get(("effect", name, len(args)))
    if summary is not None and _member_path(recv):
        writes, reads = summary
        return set(writes), _names(x, set()) | set(writes) | set(reads)
    return None


def _store_runs(items: list, effects=None) -> list:
    """Adjacent stores none of which reads what another writes (``val red = count(Red); val blue = count(Blue)``,
    ``p.identity = a; p.task = b``; a card taken from one list and put into another, ``r.deleteCard(id)`` and
    ``t.messageCards.add(c)``, see ``_footprint``), in one order: the order of independent stores is no rule. A
    call whose changes are not known (a draw, a message sent, anything the game answers) keeps its place."""
    effects = effects or {}
    out, i = [], 0
    while i < len(items):
        f = _footprint(items[i], effects)
        if f is None:
            out.append(items[i])
            i += 1
            continue
        run, seen = [items[i]], [f]
        j = i + 1
        while j < len(items):
            fj = _footprint(items[j], effects)
            if fj is None:
                break
            wj, nj = fj
            if any(wj & n or wk & nj for wk, n in seen):
                break
            run.append(items[j])
            seen.append((wj, nj))
            j += 1
        out.extend(sorted(run, key=lambda x: (x[0], _order(x[2]), _order(x[1]), _order(x))) if len(run) > 1 else run)
        i = j
    return out


def _raised(x, queue: str = ""):
    """The event a statement ``g.addEvent(E(a, b))`` (or a bare ``addEvent(…)``, or ``addEvent`` written out: ``g.
    <queue>.add(…)``) raises, its arguments locals and paths only: ``E(a, b)``; None for any other statement."""
    if not (isinstance(x, tuple) and len(x) == 4 and x[0] == "call" and isinstance(x[1], tuple) and len(x[2]) == 1):
        return None
    callee = x[1]
    if not (callee == ("id", "addEvent") or (callee[:1] == ("nav",) and len(callee) == 4 and callee[3] == "addEvent"
                                             and _path(callee[2])) or (
            queue and callee[:1] == ("nav",) and len(callee) == 4 and callee[3] == "add" and _path(callee[2]) and
            (callee[2] == ("id", queue) or (callee[2][:1] == ("nav",) and callee[2][3] == queue)))):
        return None
    ev = x[2][0]
    if not (isinstance(ev, tuple) and len(ev) == 4 and ev[0] == "call" and isinstance(ev[1], tuple) and
            ev[1][:1] == ("id",) and ev[1][1][:1].isupper() and all(isinstance(a, tuple) and _path(a) for a in ev[2])):
        return None
    return ev


def _path_names(x) -> set:
    """The names along a path (``event.whoseTurn``: whoseTurn; a root that is a name, not a local, too)."""
    out = set()
    while isinstance(x, tuple) and x[:1] == ("nav",) and len(x) == 4:
        out.add(x[3])
        x = x[2]
    if isinstance(x, tuple) and x[:1] == ("id",):
        out.add(x[1])
    return out


def _passes_event(ev, x, queue) -> bool:
    """Whether an event raised (``_raised``) and the statement ``x`` after it may change places: ``x`` reaches no
    read of the event queue (it calls no function from which one is reached, ``event_queue``), raises nothing, leaves
    by no jump, and stores — itself or in any function it may reach — into no name along the event's paths (nor into
    their locals)."""
    calls, reaches, stores = queue[:3]
    if not isinstance(x, tuple) or x[:1] in (("guard",), ("decl",)) or _has_jump(x):
        return False
    called = set(_walk_callees(x))
    if called & reaches or {n[1] for n in _names(x, set()) if n[:1] == ("m",)} & reaches:
        return False
    seen, todo = set(called), list(called)
    while todo:
        for c in calls.get(todo.pop(), ()):
            if c not in seen:
                seen.add(c)
                todo.append(c)
    stored = {w for c in seen for w in stores.get(c, ())}
    for a in ev[2]:
        root = a
        while isinstance(root, tuple) and root[:1] == ("nav",):
            root = root[2]
        if _path_names(a) & stored or _assigns_any(x, {("m", n) for n in _path_names(a)}) or (
                root[:1] == ("v",) and (_assigns_to(x, root) if a == root else _assigns(x, (root,)) or
                                        _writes_local(x, root))):
            return False                                # (a local passed as it is: the event holds the object, and
            #                                             a store into one of its members changes not which one)
    return True


def _assigns_to(x, v) -> bool:
    """Whether ``x`` assigns the local ``v`` itself (``v = …``, ``v++``), not a member of what it holds."""
    if not isinstance(x, tuple):
        return False
    if x[:1] == ("assignment",) and len(x) >= 2 and x[1] == v:
        return True
    return _writes_local(x, v) or any(_assigns_to(c, v) for c in x)


def _walk_callees(x):
    if isinstance(x, tuple):
        if x[:1] == ("call",) and len(x) == 4 and isinstance(x[1], tuple):
            if x[1][:1] == ("id",):
                yield x[1][1]
            elif x[1][:1] == ("nav",) and len(x[1]) == 4 and isinstance(x[1][3], str):
                yield x[1][3]
        for c in x:
            yield from _walk_callees(c)


def _event_runs(items: list, effects=None) -> list:
    """Each event raised (``g.addEvent(E(…))``) after the statements that follow it and cannot tell (``_passes_event``):
    the queue is read only when the listeners are dealt, so an event queued before or after a draw, a card moved or a
    message sent is the same play. The events keep their order among themselves."""
    q = (effects or {}).get(("queue",))
    if q is None:
        return items
    items = list(items)
    moved = True
    while moved:
        moved = False
        for i in range(len(items) - 1):
            ev = _raised(items[i], q[3])
            if ev is not None and _raised(items[i + 1], q[3]) is None and _passes_event(ev, items[i + 1], q):
                items[i], items[i + 1] = items[i + 1], items[i]
                moved = True
    return items


def _wall_clock(x) -> bool:
    """Whether a condition reads the wall clock (``System.currentTimeMillis()``, ``System.nanoTime()``)."""
    if not isinstance(x, tuple):
        return False
    if x[:1] == ("call",) and isinstance(x[1], tuple) and (x[1] in (("id", "currentTimeMillis"), ("id", "nanoTime"))
                                                          or (x[1][:1] == ("nav",) and x[1][2] == ("id", "System") and
                                                              x[1][-1] in ("currentTimeMillis", "nanoTime"))):
        return True
    return any(_wall_clock(c) for c in x)


def _null_test(c) -> bool:
    return isinstance(c, tuple) and c[:2] in (("cmp", "=="), ("cmp", "!=")) and ("null",) in c[2:]


def _is_jump(x) -> bool:
    return isinstance(x, tuple) and len(x) >= 2 and x[0] == "jump" and x[1] in ("return", "throw")


def _jump_pair(a, b):
    """``if (c) J1`` then ``J2`` (two jumps: a ``return`` or a ``throw`` each) in one orientation — it is ``if (!c)
    J2`` then ``J1`` (``if (x != null) return f(x); return null`` is ``x ?: return null; return f(x)``): of ``c`` and
    its negation the one with fewer negated atoms (then the first in a fixed order) is the condition, the jumps
    swapped with it. Returns the two statements, or None when they are already so or are not of this shape."""
    if not (isinstance(a, tuple) and len(a) == 3 and a[0] == "guard" and _is_jump(a[2]) and _is_jump(b)):
        return None
    cond = a[1]
    other = _negate(cond)
    if _negate(other) != cond:
        return None
    if (_negatives(other), _order(other)) < (_negatives(cond), _order(cond)):
        return ("guard", other, b), a[2]
    return None


def _written_any(recv, test, var):
    """``recv.any { test }`` a loop over ``recv`` with the variable ``var`` computes, in the form the same ``any``
    written in the code is given (the idioms of ``normal_idioms``: ``a.any { it in b }`` in one order, …)."""
    anyx = ("call", ("nav", ".", recv, "any"), (("lambda", ("seq", test)),), "")
    return rewrite_call(anyx, var, lambda: None)


def _flag_loop(a, b):
    """``var f = false; for (x in l) if (p) { f = true; break }`` → ``val f = l.any { p }`` (and ``true`` / ``false``
    swapped: ``!l.any { p }``), or None."""
    if not (isinstance(a, tuple) and len(a) == 3 and a[0] == "decl" and a[1][:1] == ("v",) and
            a[2] in (("lit", False), ("lit", True))):
        return None
    if not (isinstance(b, tuple) and len(b) == 4 and b[0] == "for_statement" and b[1][:1] == ("variable_declaration",)
            and isinstance(b[3], tuple) and len(b[3]) == 2 and b[3][0] == "seq"):
        return None
    st = b[3][1]
    if not (isinstance(st, tuple) and len(st) == 3 and st[0] == "if" and isinstance(st[2], tuple) and
            st[2][:1] == ("seq",)):
        return None
    body = st[2][1:]
    flip = ("lit", not a[2][1])
    if body[:1] != (("assignment", a[1], flip),) or not (len(body) == 1 or (len(body) == 2 and body[1] in _BREAK)):
        return None
    if not _pure(st[1]):
        return None
    anyx = _written_any(b[2], st[1], b[1][1])
    return ("decl", a[1], anyx if a[2] == ("lit", False) else _negate(anyx))


def _return_loop(a, b):
    """``for (x in l) if (p) return true`` then ``return false`` → ``return l.any { p }`` (``true`` / ``false``
    swapped: ``return !l.any { p }``), or None: the loop returns at the first element passing a test that changes
    nothing, and the value after it otherwise."""
    if not (isinstance(a, tuple) and len(a) == 4 and a[0] == "for_statement" and a[1][:1] == ("variable_declaration",)
            and isinstance(a[3], tuple) and len(a[3]) == 2 and a[3][0] == "seq"):
        return None
    st = a[3][1]
    if not (isinstance(st, tuple) and len(st) == 3 and st[0] == "guard" and isinstance(st[2], tuple) and
            st[2][:2] == ("jump", "return") and len(st[2]) == 3 and len(st[2][2]) == 1 and
            st[2][2][0] in (("lit", True), ("lit", False))):
        return None
    found = st[2][2][0]
    if b != ("jump", "return", (("lit", not found[1]),)) or not _pure(st[1]) or not _pure(a[2]):
        return None
    anyx = _written_any(a[2], st[1], a[1][1])
    return ("jump", "return", (anyx if found == ("lit", True) else _negate(anyx),))


def _has_jump(x) -> bool:
    if not isinstance(x, tuple) or not x:
        return False
    if x[0] == "jump" or x in _BREAK:
        return True
    if x[0] == "lambda":
        return False
    return any(_has_jump(c) for c in x)


def _loop_jump(x) -> bool:
    """Whether a loop body jumps other than out of its function: ``break``, ``continue``, a labelled return (an
    unlabelled ``return`` or a ``throw`` leaves the function the same from a ``for`` body and from ``forEach``'s inline
    lambda)."""
    if not isinstance(x, tuple) or not x:
        return False
    if x in _BREAK or (x[0] == "jump" and len(x) > 1 and x[1] not in ("return", "throw")):
        return True
    if x[0] == "lambda":
        return False
    return any(_loop_jump(c) for c in x)


def _each_loop(x):
    """``for (p in l) { … }`` with no jump in its body → ``l.forEach { … }`` (the loop variable is the lambda's
    parameter, numbered alike), or None: the same elements in the same order, the same body for each."""
    if not (isinstance(x, tuple) and len(x) == 4 and x[0] == "for_statement" and isinstance(x[1], tuple) and
            len(x[1]) == 2 and x[1][0] == "variable_declaration" and x[1][1][:1] == ("v",) and
            isinstance(x[3], tuple) and x[3][:1] == ("seq",) and len(x[3]) > 1 and not _has_jump(x[3])):
        return None
    return ("call", ("nav", ".", x[2], "forEach"), (("lambda", x[3]),), "")


def _any_equal(x, uses: dict):
    """``l.any { it == y }`` (``it`` read there only, ``y`` not reading it) → ``y in l``, or None."""
    if not (isinstance(x, tuple) and len(x) == 4 and x[0] == "call" and isinstance(x[1], tuple) and
            x[1][:1] == ("nav",) and len(x[1]) == 4 and x[1][3] == "any" and len(x[2]) == 1):
        return None
    e = _lambda_expr(x[2][0])
    if not (isinstance(e, tuple) and len(e) == 4 and e[:2] == ("cmp", "==")):
        return None
    for it, y in ((e[2], e[3]), (e[3], e[2])):
        if isinstance(it, tuple) and it[:1] == ("v",) and len(it) == 2 and uses.get(it[1], 0) == 1 and \
                not _contains(y, it) and _pure(y):
            return ("in", True, y, x[1][2])
    return None


def _subst(x, var, value, count: list, through: bool = False):
    """``x`` with the local ``var`` replaced by ``value`` — not inside a lambda or a loop (count[0] += 9 there)
    unless ``through``; a write of it counts 9 (no value to write out)."""
    if not isinstance(x, tuple):
        return x
    if x == var:
        count[0] += 1
        return value
    if (x[:1] == ("assignment",) and len(x) >= 2 and x[1] == var) or (x[:1] == ("un",) and len(x) == 3 and
                                                                      x[1] in ("++", "--") and x[2] == var):
        count[0] += 9                                   # the local written (`s += "…"`): no value to write out
        return x
    if not through and x[:1] in (("lambda",), ("for_statement",), ("while_statement",), ("do_while_statement",)):
        c: dict = {}
        _uses(x, c)
        if c.get(var[1]):
            count[0] += 9
        return x
    return _rebuilt(x, (_subst(c, var, value, count, through) for c in x))


def _guarded_filter(prev, x):
    """``if (l.any { p }) x = l.filterNot { p }`` (or ``l.filter { !p }``) with ``l`` the value of ``x`` (``x``
    itself, or a local the statement before declares as ``x``) is the store alone: where no element passes ``p`` the
    filter keeps every element, and the store writes the value already there. None for any other statement."""
    if not (isinstance(x, tuple) and len(x) == 3 and x[0] == "if" and isinstance(x[2], tuple) and len(x[2]) == 2):
        return None
    asg, cond = x[2][1], x[1]
    if not (isinstance(asg, tuple) and len(asg) == 3 and asg[0] == "assignment" and isinstance(asg[2], tuple)):
        return None
    f = asg[2]
    if not (len(f) == 4 and f[0] == "call" and f[1][:1] == ("nav",) and len(f[1]) == 4 and
            f[1][3] in ("filterNot", "filter") and len(f[2]) == 1):
        return None
    lst = f[1][2]
    if not (isinstance(cond, tuple) and len(cond) == 4 and cond[0] == "call" and cond[1][:1] == ("nav",) and
            len(cond[1]) == 4 and cond[1][3] == "any" and cond[1][2] == lst and len(cond[2]) == 1):
        return None
    p, q = _lambda_expr(f[2][0]), _lambda_expr(cond[2][0])
    if p is None or q is None or not _pure(p) or not _pure(q):
        return None
    if _order(q) != _order(p if f[1][3] == "filterNot" else _negate(p)):
        return None
    target = asg[1]
    if not (lst == target or (lst[:1] == ("v",) and prev == ("decl", lst, target))) or not _path(target):
        return None
    return asg


def _subst_all(x, var, value, count: list):
    """``x`` with every read of the local ``var`` replaced by ``value`` (lambdas and loops too); a write of it counts
    9 (no value to write out)."""
    return _subst(x, var, value, count, through=True)


def _constant_path(x, effects, tree, after=(), var=None) -> bool:
    """Whether a path (``event.messageCard``) reads the same value wherever the local ``var`` holding it is read in
    the statements ``after`` it: its root is a name, a parameter or a local the tree never writes, and every statement
    up to the last read of ``var`` reads only or changes only what is known (``_footprint``: stores, collections
    changed in place, calls whose changes are summarised in ``effects``), none of it a name along the path."""
    names = []
    while isinstance(x, tuple) and x[:1] == ("nav",) and len(x) == 4:
        names.append(x[3])
        x = x[2]
    if x[:1] == ("id",):
        names.append(x[1])
    elif not (x[:1] == ("v",) and not _assigns(tree, (x,)) and not _writes_local(tree, x)):
        return False
    if var is None:
        return False
    reads = [j for j, c in enumerate(after) if _contains(c, var)]
    for c in after[:reads[-1] + 1] if reads else ():
        if _pure(c):
            continue
        f = _footprint(c, effects or {})
        if f is None or any(isinstance(w, tuple) and len(w) == 2 and w[1] in names for w in f[0]):
            return False
    return True


def _writes_local(x, v) -> bool:
    if not isinstance(x, tuple):
        return False
    if x[:1] == ("un",) and len(x) == 3 and x[1] in ("++", "--") and x[2] == v:
        return True
    return any(_writes_local(c, v) for c in x)


def _path(x) -> bool:
    """A name, a local or a chain of members of one (``fsm.askWhom``): no call."""
    while isinstance(x, tuple) and x[:1] == ("nav",) and len(x) == 4:
        x = x[2]
    return isinstance(x, tuple) and x[:1] in (("v",), ("id",))


def _assigns(x, names) -> bool:
    if not isinstance(x, tuple):
        return False
    if x[:1] == ("assignment",) and len(x) >= 2 and any(_contains(x[1], n) or _contains(n, x[1]) for n in names):
        return True
    return any(_assigns(c, names) for c in x)


def _contains(x, y) -> bool:
    if x == y:
        return True
    return isinstance(x, tuple) and any(_contains(c, y) for c in x)


def _replace(x, old, new):
    if x == old:
        return new
    if not isinstance(x, tuple):
        return x
    return _rebuilt(x, (_replace(c, old, new) for c in x))


def _known_equal(items: list, carry) -> list:
    """After a guard that leaves only ``a == b`` (``a == b || return``), ``b`` is written ``a`` in the statements that
    follow (one of the two, by the order equalities are written in), until either is assigned."""
    out = list(items)
    for i, g in enumerate(items):
        if not (isinstance(g, tuple) and len(g) == 3 and g[0] == "guard" and isinstance(g[1], tuple) and
                g[1][:2] == ("cmp", "!=") and _path(g[1][2]) and _path(g[1][3]) and
                g[2][:1] == ("jump",) and g[2][1] in ("return", "return@")):
            continue
        a, b = g[1][2], g[1][3]
        if b[:1] == ("v",) and a[:1] != ("v",):
            a, b = b, a                                 # a local (the holder, a parameter) is the name kept
        for j in range(i + 1, len(out)):
            if _assigns(out[j], (a, b)):
                break
            new = _replace(out[j], b, a)
            if new != out[j]:
                out[j] = carry(out[j], new)
    return out


def _held_paths(items: list, carry) -> list:
    """After ``val p = a.b`` (a member path held in a local), ``a.b`` is written ``p`` in the statements that follow,
    until either is assigned: reading the path again or its local is the same."""
    out = list(items)
    for i, d in enumerate(items):
        if not (isinstance(d, tuple) and len(d) == 3 and d[0] == "decl" and d[1][:1] == ("v",) and
                isinstance(d[2], tuple) and d[2][:1] == ("nav",) and _path(d[2])):
            continue
        for j in range(i + 1, len(out)):
            if _assigns(out[j], (d[1], d[2])):
                break
            new = _replace(out[j], d[2], d[1])
            if new != out[j]:
                out[j] = carry(out[j], new)
    return out


def _settled_tests(items: list, carry) -> list:
    """After a guard that leaves when ``c`` holds (``if (c) return``), an ``if (c) …`` without ``else`` that follows
    (nothing assigned in between that ``c`` reads) can never run: it is left out; in the tests of the ``if``
    statements and guards that follow, ``c`` is false and ``!c`` true (``askWhom.alive || return`` then ``if (askWhom.alive && x)`` is
    ``if (x)``; ``val c = e ?: return`` then ``if (c != null)`` is always taken)."""
    out = list(items)
    i = -1
    while i + 1 < len(out):
        i += 1
        g = out[i]
        if not (isinstance(g, tuple) and len(g) == 3 and g[0] == "guard" and _pure(g[1]) and
                isinstance(g[2], tuple) and g[2][:1] == ("jump",) and g[2][1] in ("return", "return@", "throw")):
            continue
        names = _names(g[1], set())
        j = i + 1
        while j < len(out):
            x = out[j]
            if isinstance(x, tuple) and len(x) == 3 and x[0] == "if" and x[1] == g[1]:
                del out[j]
                continue
            if isinstance(x, tuple) and len(x) >= 3 and x[0] in ("if", "guard"):
                c = _known(x[1], g[1], False)
                if c != x[1] and x[0] == "if" and c[:1] == ("lit",) and all(
                        isinstance(b, tuple) and b[:1] == ("seq",) for b in x[2:]):
                    # a branch always or never taken: the code of the branch that runs, in place
                    taken = x[2] if c[1] else (x[3] if len(x) == 4 else ("seq",))
                    out[j:j + 1] = list(taken[1:])
                    continue
                if c != x[1]:
                    x = out[j] = carry(x, (x[0], c) + x[2:])
            if isinstance(x, tuple) and (_assigns_any(x, names) or not _pure_enough(x)):
                break
            j += 1
    return out


def _known(c, fact, value: bool):
    """The condition ``c`` where ``fact`` is known to be ``value`` (and its negation the other): each such operand of
    ``&&`` / ``||`` (or the whole) replaced by its truth value, the junction simplified."""
    if c == fact:
        return ("lit", value)
    if c == _negate(fact):
        return ("lit", not value)
    if isinstance(c, tuple) and c[:1] in (("and",), ("or",)):
        parts = [_known(d, fact, value) for d in c[1:]]
        unit, zero = (True, False) if c[0] == "and" else (False, True)
        if ("lit", zero) in parts:
            return ("lit", zero)
        parts = [d for d in parts if d != ("lit", unit)]
        if not parts:
            return ("lit", unit)
        return parts[0] if len(parts) == 1 else (c[0],) + tuple(parts)
    return c


def _jump_branches(items: list, carry) -> list:
    """``if (c) { return x } else { s… }`` is ``if (c) return x`` (a guard) and then ``s…``; ``if (c) { s… } else {
    return x }`` is the guard on ``!c`` and then ``s…``: a branch that leaves makes its ``else`` the code after it."""
    out = []
    for x in items:
        if isinstance(x, tuple) and len(x) == 4 and x[0] == "if" and all(
                isinstance(b, tuple) and b[:1] == ("seq",) for b in x[2:]):
            for cond, leave, rest in ((x[1], x[2], x[3]), (None, x[3], x[2])):
                if len(leave) == 2 and isinstance(leave[1], tuple) and leave[1][:1] == ("jump",) and \
                        leave[1][1] in ("return", "return@", "throw"):
                    guard = ("guard", cond if cond is not None else _negate(x[1]), leave[1])
                    out.append(carry(x, guard))
                    out.extend(rest[1:])
                    break
            else:
                out.append(x)
            continue
        out.append(x)
    return out


def _assigns_any(x, names: set) -> bool:
    """Whether ``x`` assigns a local or a member ``names`` holds."""
    if not isinstance(x, tuple):
        return False
    if x[:1] == ("assignment",) and len(x) >= 2:
        w = _writes(("assignment", x[1], ("lit", "0"))) if isinstance(x[1], tuple) else None
        if w is None or w in names or x[1] in names:
            return True
    if x[:1] == ("decl",) and len(x) >= 2 and x[1] in names:
        return True
    return any(_assigns_any(c, names) for c in x)


def _pure_enough(x) -> bool:
    """A statement between a guard and a test it settles that calls nothing that could change what the test reads
    (a guard, a local or a store of values that change nothing)."""
    return isinstance(x, tuple) and ((x[:1] == ("guard",) and _pure(x[1])) or _writes(x) is not None)


def _carry(marks: dict, keep: list, old, new):
    """``new`` (a rewrite of the node ``old``) keeps ``old``'s source line: a rewritten node is still located where
    its code is (``keep`` holds it alive, so its ``id`` is not reused)."""
    if new is not old and id(old) in marks:
        marks[id(new)] = marks[id(old)]
        keep.append(new)
    return new


def _equate(tree, marks: dict, keep: list, effects=None):
    """Equal code in one form: library calls that mean the same (``subList(0, n)`` / ``take(n)``, ``l[Random.nextInt(
    l.size)]`` / ``l.random()``, ``all`` / ``none`` / ``any``), a flag set in a loop and the ``any`` it computes, and a
    local read once, in the very next statement (its initialiser reading and changing nothing), written in its
    place."""
    def carry(old, new):
        return _carry(marks, keep, old, new)

    for _ in range(4):
        uses: dict = {}
        _uses(tree, uses)
        changed = [False]

        def walk(x):
            if not isinstance(x, tuple):
                return x
            out = _rebuilt(x, (walk(c) for c in x))
            e = _any_equal(out, uses)
            if e is None:
                e = _each_loop(out)
            if e is None:
                e = repeat_loop(out)
            if e is not None:
                changed[0] = True
                return carry(x, e)
            if out and out[0] == "seq":
                items = list(out[1:])
                i = 0
                while i + 1 < len(items):
                    a, b = items[i], items[i + 1]
                    f = _flag_loop(a, b)
                    if f is None:
                        f = _return_loop(a, b)
                    if f is None:
                        f = counter_loop(a, b, uses, _pure, _has_jump)
                    if f is not None:
                        items[i:i + 2] = [carry(a, f)]
                        changed[0] = True
                        continue
                    f = _jump_pair(a, b)
                    if f is not None:
                        items[i:i + 2] = [carry(a, f[0]), carry(b, f[1])]
                        changed[0] = True
                        continue
                    g = _guarded_filter(a, b)
                    if g is not None:
                        items[i + 1] = carry(b, g)
                        changed[0] = True
                        continue
                    if isinstance(a, tuple) and len(a) == 3 and a[0] == "decl" and a[1][:1] == ("v",) and \
                            uses.get(a[1][1], 0) == 2 and a[2] is not None and _pure(a[2]):
                        n = [0]
                        new = _subst(b, a[1], a[2], n)
                        if n[0] == 1:
                            items[i:i + 2] = [carry(b, new)]
                            changed[0] = True
                            continue
                    if isinstance(a, tuple) and len(a) == 3 and a[0] == "decl" and a[1][:1] == ("v",) and \
                            uses.get(a[1][1], 0) == 2 and a[2] is not None and isinstance(b, tuple) and \
                            b[:1] in (("if",), ("guard",)) and len(b) >= 3 and b[1] in (a[1], ("not", a[1])):
                        # a local read once, as the whole condition of the next `if` or guard (the first thing
                        # it evaluates): its initialiser, whatever it does, written there
                        cond = a[2] if b[1] == a[1] else _negate(a[2])
                        items[i:i + 2] = [carry(b, (b[0], cond) + b[2:])]
                        changed[0] = True
                        continue
                    if isinstance(a, tuple) and len(a) == 3 and a[0] == "decl" and a[1][:1] == ("v",) and \
                            a[2] is not None and _path(a[2]) and uses.get(a[1][1], 0) > 2 and \
                            isinstance(b, tuple) and not _assigns(b, (a[2],)):
                        # a member path held in a local read only in the next statement, where nothing is changed
                        # before the reads (the statement, or the condition of an `if` or a guard, reads only):
                        # the path written at each read
                        n = [0]
                        if _pure(b):
                            new = _subst(b, a[1], a[2], n)
                        elif b[:1] in (("if",), ("guard",)) and _pure(b[1]):
                            new = (b[0], _subst(b[1], a[1], a[2], n)) + b[2:]
                        else:
                            new = b
                        if n[0] == uses[a[1][1]] - 1:
                            items[i:i + 2] = [carry(b, new)]
                            changed[0] = True
                            continue
                    if isinstance(a, tuple) and len(a) == 3 and a[0] == "decl" and a[1][:1] == ("v",) and \
                            a[2] is not None and _path(a[2]) and uses.get(a[1][1], 0) >= 2 and \
                            _constant_path(a[2], effects, tree, items[i + 1:], a[1]):
                        # a local holding a path nothing changes before its last read (``_constant_path``): the
                        # path written at each read
                        n = [0]
                        rest = [_subst_all(c, a[1], a[2], n) for c in items[i + 1:]]
                        if n[0] == uses[a[1][1]] - 1:
                            items[i:] = [carry(c, r) for c, r in zip(items[i + 1:], rest)]
                            changed[0] = True
                            continue
                    i += 1
                split = []
                for c in items:                       # `a || b || return` is two guards
                    if isinstance(c, tuple) and len(c) == 3 and c[0] == "guard" and isinstance(c[1], tuple) and \
                            c[1][:1] == ("or",):
                        split.extend(carry(c, ("guard", d, c[2])) for d in c[1][1:])
                        changed[0] = True
                    else:
                        split.append(c)
                items = _settled_tests(_held_paths(_known_equal(_jump_branches(split, carry), carry), carry), carry)
                tested = _index_tests(items, carry)
                if tested != items:
                    changed[0] = True
                    items = tested
                if items != split:                    # (a rewrite in place too: the next round reads its uses)
                    changed[0] = True
                ordered = _event_runs(_store_runs(_guard_runs(items), effects), effects)
                if ordered != items:
                    changed[0] = True
                    items = ordered
                out = ("seq",) + tuple(items)
            else:
                eq = _equal_calls(out)
                if eq is not out:
                    changed[0] = True
                    out = eq
            return carry(x, out)

        tree = walk(tree)
        if not changed[0]:
            break
    return tree


def _owner_guards(tree, owner, marks: dict, keep: list):
    """A trigger's test that its holder has the skill (``askWhom.findSkill(skillId) != null || return``) left out:
    the dispatch asks each player's own skills, with that player as ``askWhom``. With ``owner`` ``("alive", local)``
    (an initial skill, no BeforeDieSkill: ``Game.dealListeningSkill`` asks it only while its holder lives) the test
    that the holder is alive (``askWhom.alive || return``) is left out too."""
    alive = owner[:1] == ("alive",)
    if alive:
        owner = owner[1]
    atom = _NEG.eq("==", ("null",), ("call", ("nav", ".", owner, "findSkill"), (("id", "skillId"),), ""))
    dead = _NEG.neg(("nav", ".", owner, "alive")) if alive else atom

    def walk(x):
        if not isinstance(x, tuple):
            return x
        if x[:1] == ("seq",):
            kept = []
            for c in x[1:]:
                if isinstance(c, tuple) and len(c) == 3 and c[0] == "guard":
                    cond = c[1]
                    if cond in (atom, dead):
                        continue
                    if isinstance(cond, tuple) and cond[:1] == ("or",) and (atom in cond or dead in cond):
                        rest = tuple(d for d in cond[1:] if d not in (atom, dead))
                        kept.append(_carry(marks, keep, c, ("guard", rest[0] if len(rest) == 1 else ("or",) + rest,
                                                                  c[2])))
                        continue
                kept.append(walk(c))
            out = ("seq",) + tuple(kept)
        else:
            out = _rebuilt(x, (walk(c) for c in x))
        return _carry(marks, keep, x, out)

    return walk(tree)


#: calls that change nothing but a fresh collection's contents or draw a random value: a local built with them and
#: read by nothing else decides nothing
_QUIET_CALLS = frozenset({"random", "randomOrNull", "shuffled", "toMutableList", "toList", "arrayOf", "listOf",
                          "arrayListOf", "mutableListOf", "ArrayList", "HashMap", "HashSet", "hashMapOf", "hashSetOf",
                          "mutableMapOf", "mutableSetOf", "take", "subList", "filterNot", "plus", "minus", "forNumber",
                          "withIndex"})
#: calls that make a new collection (mutating it changes no other object)
_FRESH = frozenset({"toMutableList", "arrayOf", "arrayListOf", "mutableListOf", "ArrayList", "HashMap", "HashSet",
                    "hashMapOf", "hashSetOf", "mutableMapOf", "mutableSetOf", "toMutableSet", "toMutableMap"})
#: a collection's members that change it
_MUTATORS = frozenset({"add", "addAll", "remove", "removeAll", "removeAt", "removeIf", "retainAll", "shuffle", "sort",
                       "sortBy", "sortWith", "clear", "set", "put", "putAll", "removeFirst", "removeLast"})


def _callee_name(x) -> str:
    c = x[1] if isinstance(x, tuple) and len(x) > 1 else None
    if isinstance(c, tuple) and c[:1] == ("nav",) and len(c) == 4 and isinstance(c[3], str):
        return c[3]
    if isinstance(c, tuple) and c[:1] == ("id",):
        return c[1]
    return ""


def _quiet(x) -> bool:
    """A value that changes nothing outside itself (``_pure``, or a call of ``_QUIET_CALLS``)."""
    if not isinstance(x, tuple):
        return True
    if x[:1] in (("jump",), ("assignment",)):
        return False
    if x[:1] == ("lambda",):
        return _quiet(x[1])
    if x[:1] == ("outside",):                            # a value of code outside the rules (``outside_names``)
        inner = x[1]
        return _quiet(inner[1]) and all(_quiet(a) for a in inner[2] if isinstance(a, tuple))
    if x[:1] == ("call",):
        name = _callee_name(x)
        if not (_QUERY.match(name) or name in _QUIET_CALLS):
            return False
        return _quiet(x[1]) and all(_quiet(a) for a in x[2] if isinstance(a, tuple))
    return all(_quiet(c) for c in x)


def _fresh(x) -> bool:
    return isinstance(x, tuple) and x[:1] == ("call",) and _callee_name(x) in _FRESH and _quiet(x)


def _declared_locals(decl) -> tuple:
    """The locals a ``("decl", …)`` declares (``("vs", …)``: a destructuring declaration's)."""
    return decl[1][1:] if isinstance(decl[1], tuple) and decl[1][:1] == ("vs",) else (decl[1],)


def _nodes(n):
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(x.children)


def _dead_locals(tree, marks: dict, keep: list):
    """Locals that only feed each other (``val l = tasks.take(3).toMutableList(); if (…) l.remove(x); l.shuffle()``,
    read by nothing else once what read them — a client's notice, a member only robots read — is left out): every
    statement that only builds them left out. A collection may be changed in place only when the local made it
    (``_FRESH``), after its declaration."""
    decls: dict = {}
    fresh: set = set()

    def collect(x):
        if isinstance(x, tuple):
            if x[:1] == ("decl",) and len(x) == 3 and isinstance(x[1], tuple) and x[1][:1] in (("v",), ("vs",)):
                for v in _declared_locals(x):
                    decls[v] = decls.get(v, 0) + 1
                if x[1][:1] == ("v",) and _fresh(x[2]):
                    fresh.add(x[1])
            for c in x:
                collect(c)
    collect(tree)
    dead = set(decls)             # (a name declared in two branches is one local: both die or neither does)
    if not dead:
        return tree

    def effect(x, seen: frozenset) -> bool:
        """Whether statement ``x`` changes nothing but dead locals (``seen``: the dead locals declared before it)."""
        if not isinstance(x, tuple) or not x:
            return False
        k = x[0]
        if k == "decl" and len(x) == 3:
            return all(v in dead for v in _declared_locals(x)) and _quiet(x[2])
        if k == "assignment" and isinstance(x[1], tuple) and x[1][:1] == ("index_expression",) and len(x[1]) == 3:
            t = x[1][1]                                 # `m[k] = v` into a collection the dead local made
            return t in dead and t in fresh and t in seen and _quiet(x[1][2]) and _quiet(x[-1])
        if k == "assignment":
            return x[1] in dead and x[1] in seen and _quiet(x[-1])
        if k == "un" and len(x) == 3 and x[1] in ("++", "--"):
            return x[2] in dead and x[2] in seen
        if k == "if":
            return _quiet(x[1]) and all(block(b, seen) for b in x[2:])
        if k == "while_statement" and len(x) == 3:
            return _quiet(x[1]) and block(x[2], seen)
        if k == "for_statement" and len(x) == 4:
            return _quiet(x[2]) and block(x[3], seen)
        if k == "call" and len(x) == 4:
            name = _callee_name(x)
            callee = x[1]
            if name in _MUTATORS and callee[:1] == ("nav",) and callee[2] in dead and callee[2] in fresh and \
                    callee[2] in seen and all(_quiet(a) for a in x[2] if isinstance(a, tuple)):
                return True
            lams = [a for a in x[2] if isinstance(a, tuple) and a[:1] == ("lambda",)]
            if name in ("forEach", "onEach") and callee[:1] == ("nav",) and _quiet(callee[2]) and len(lams) == 1 \
                    and len(x[2]) == 1:
                return block(lams[0][1], seen)
            if callee[:1] == ("call",) and _callee_name(callee) == "repeat" and _quiet(callee) and len(lams) == 1 \
                    and len(x[2]) == 1:
                return block(lams[0][1], seen)
        return False

    def block(b, seen) -> bool:
        if not (isinstance(b, tuple) and b[:1] == ("seq",)):
            return effect(b, seen)
        seen = set(seen)
        for c in b[1:]:
            if not effect(c, frozenset(seen)):
                return False
            if isinstance(c, tuple) and c[:1] == ("decl",):
                seen.update(_declared_locals(c))
        return True

    def mentions(x, seen, out: set):
        """The locals read outside statements that only change dead locals."""
        if not isinstance(x, tuple):
            return
        if x[:1] == ("seq",):
            seen = set(seen)
            for c in x[1:]:
                if not effect(c, frozenset(seen)):
                    mentions(c, seen, out)
                if isinstance(c, tuple) and c[:1] == ("decl",):
                    seen.update(_declared_locals(c))
            return
        if len(x) == 2 and x[0] == "v":
            out.add(x)
            return
        for c in x:
            mentions(c, seen, out)

    for _ in range(8):
        live: set = set()
        mentions(tree, set(), live)
        new = dead - live
        if new == dead:
            break
        dead = new
    if not dead:
        return tree

    def drop(x, seen):
        if not isinstance(x, tuple):
            return x
        if x[:1] == ("seq",):
            seen = set(seen)
            kept = []
            for c in x[1:]:
                if effect(c, frozenset(seen)):
                    if isinstance(c, tuple) and c[:1] == ("decl",):
                        seen.update(_declared_locals(c))
                    continue
                if isinstance(c, tuple) and c[:1] == ("decl",):
                    seen.update(_declared_locals(c))
                kept.append(drop(c, seen))
            out = ("seq",) + tuple(kept)
        else:
            out = _rebuilt(x, (drop(c, seen) for c in x))
        return _carry(marks, keep, x, out)

    return drop(tree, set())


#: the configured waiting time of a player's choice (``Config.WaitSecond``): how long a client is given, no rule
_WAIT_TIME = ("id", "WaitSecond")


def _wait_time(x) -> bool:
    """Whether ``x`` is arithmetic on the configured waiting time only (``(WaitSecond * 4 / 3).toLong()``): a time-out's
    length, no rule (what a time-out does is kept where it stands)."""
    if x == _WAIT_TIME:
        return True
    if not isinstance(x, tuple) or not x:
        return False
    if x[0] == "bin" and len(x) == 4 and x[1] in ("+", "-", "*", "/"):
        sides = x[2:]
        return any(_wait_time(c) for c in sides) and all(_wait_time(c) or c[:1] == ("lit",) for c in sides)
    if x[0] == "call" and len(x) >= 3 and x[2] == () and isinstance(x[1], tuple) and x[1][:1] == ("nav",) and \
            x[1][-1] in ("toLong", "toInt", "toDouble"):
        return _wait_time(x[1][2])
    if x[0] in ("paren",) and len(x) == 2:
        return _wait_time(x[1])
    return False


def _never_null_params(tree) -> frozenset:
    """The locals of a function's parameters declared without ``?`` (a parameter is never assigned)."""
    if not (isinstance(tree, tuple) and tree[:1] == ("function_declaration",)):
        return frozenset()
    out = set()
    for part in tree[2:]:
        for c in part if isinstance(part, tuple) else ():
            if isinstance(c, tuple) and c[:1] == ("function_value_parameters",):
                out |= {p[1][1] for p in c[1:] if isinstance(p, tuple) and p[:1] == ("parameter",) and len(p) == 2
                        and isinstance(p[1], tuple) and p[1][:1] == ("v",)}
    return frozenset(out)


def _never_null(x, sure: frozenset) -> bool:
    return isinstance(x, tuple) and (x[:1] == ("this_expression",) or (x[:1] == ("v",) and x[1] in sure) or
                                     (x[:1] == ("lit",) and x[1] is not None))


def _null_safe(tree, marks: dict, keep: list):
    """A safe call compared with a value that is never null, spelled as the explicit null test it stands for: ``p !=
    a?.m`` is ``a == null || p != a.m`` and ``p == a?.m`` is ``a != null && p == a.m`` (``a`` a local or a member path,
    ``p`` a parameter declared without ``?``, ``this`` or a literal). With a value that may be null the two differ (a
    null ``p`` equals ``a?.m`` when ``a`` is null) and nothing is rewritten."""
    sure = _never_null_params(tree)

    def walk(x):
        if not isinstance(x, tuple):
            return x
        out = _rebuilt(x, (walk(c) for c in x))
        if len(out) == 4 and out[0] == "cmp" and out[1] in ("==", "!="):
            for a, b in ((out[2], out[3]), (out[3], out[2])):
                if isinstance(a, tuple) and len(a) == 4 and a[:2] == ("nav", "?.") and _path(a[2]) and \
                        _never_null(b, sure):
                    plain = _NEG.eq(out[1], ("nav", ".", a[2], a[3]), b)
                    out = ("or", _NEG.eq("==", ("null",), a[2]), plain) if out[1] == "!=" else \
                        ("and", _NEG.eq("!=", ("null",), a[2]), plain)
                    break
        return _carry(marks, keep, x, out)

    return walk(tree)


_LOOKUPS = frozenset({"lastOrNull", "firstOrNull", "find", "findLast", "singleOrNull"})


def unimplemented_types(files: dict) -> frozenset:
    """The interfaces and abstract classes the sources declare that nothing implements or extends: every occurrence
    of the name but its declaration is a type test, a cast, a type argument or an import (a hook no skill has)."""
    data = b"\n".join(files.values())
    out = set()
    for m in re.finditer(rb"\b(?:interface|abstract\s+class|sealed\s+(?:class|interface))\s+(\w+)", data):
        name = re.escape(m.group(1))
        uses = len(re.findall(rb"(?<![\w.$])" + name + rb"(?![\w$])", data))
        known = len(re.findall(rb"(?:\bis\s+|\bas\??\s+|\binterface\s+|\bclass\s+|<)" + name + rb"(?![\w$])"
                               rb"|^\s*import\s+[\w.]*\." + name + rb"\s*$", data, re.M))
        if uses == known:
            out.add(m.group(1).decode("utf-8", "replace"))
    return frozenset(out)


def _never_found(x, never: frozenset) -> bool:
    """``l.lastOrNull { it is T } as? T`` (``find``, ``firstOrNull`` … alike) with ``T`` a type nothing implements."""
    if not (isinstance(x, tuple) and len(x) == 4 and x[:2] == ("as", "as?") and isinstance(x[3], tuple) and
            x[3][:1] == ("type",) and x[3][1] in never):
        return False
    c = x[2]
    if not (isinstance(c, tuple) and len(c) == 4 and c[0] == "call" and isinstance(c[1], tuple) and len(c[1]) == 4 and
            c[1][:1] == ("nav",) and c[1][3] in _LOOKUPS and len(c[2]) == 1):
        return False
    e = _lambda_expr(c[2][0])
    return isinstance(e, tuple) and len(e) == 4 and e[:2] == ("is", True) and e[3] == x[3]


def _fold(x):
    """Constant tests folded after a local became ``null``: ``null == null``, ``&&`` / ``||`` with a known part, an
    ``if`` on a known condition."""
    if not isinstance(x, tuple):
        return x
    x = _rebuilt(x, (_fold(c) for c in x))
    if len(x) == 4 and x[0] == "cmp" and x[1] in ("==", "!=") and x[2] == ("null",) and x[3] == ("null",):
        return ("lit", x[1] == "==")
    if x[:1] in (("and",), ("or",)):
        stop = x[0] == "or"
        if ("lit", stop) in x[1:]:
            return ("lit", stop)
        rest = tuple(c for c in x[1:] if c != ("lit", not stop))
        return ("lit", not stop) if not rest else rest[0] if len(rest) == 1 else (x[0],) + rest
    if x[:1] == ("not",) and len(x) == 2 and isinstance(x[1], tuple) and x[1][:1] == ("lit",) and \
            isinstance(x[1][1], bool):
        return ("lit", not x[1][1])
    if x[:1] == ("if",) and len(x) in (3, 4) and isinstance(x[1], tuple) and x[1][:1] == ("lit",) and \
            isinstance(x[1][1], bool):
        return x[2] if x[1][1] else (x[3] if len(x) == 4 else ("seq",))
    return x


def _never_found_locals(tree, marks: dict, keep: list, never: frozenset):
    """A local holding a lookup of a type nothing implements (``_never_found``) is ``null``: its declaration left
    out, ``null`` written at its reads and what that decides folded (``if (hook != null && …) return`` never
    leaves)."""
    if not never:
        return tree

    def walk(x):
        if not isinstance(x, tuple):
            return x
        out = _rebuilt(x, (walk(c) for c in x))
        if out[:1] == ("seq",):
            items = list(out[1:])
            i = 0
            while i < len(items):
                a = items[i]
                if isinstance(a, tuple) and len(a) == 3 and a[0] == "decl" and isinstance(a[1], tuple) and \
                        a[1][:1] == ("v",) and _never_found(a[2], never) and \
                        not any(_assigns(c, (a[1],)) for c in items[i + 1:]):
                    rest = []
                    for c in items[i + 1:]:
                        new = _fold(_replace(c, a[1], ("null",)))
                        if new != ("seq",) and not (isinstance(new, tuple) and new[:1] == ("guard",) and
                                                    new[1] == ("lit", False)):
                            rest.append(_carry(marks, keep, c, new))
                    items[i:] = rest
                    continue
                i += 1
            out = ("seq",) + tuple(items)
        return _carry(marks, keep, x, out)

    return walk(tree)


def _index_tests(items: list, carry) -> list:
    """A local holding ``l.indexOf(…)`` / ``indexOfFirst`` / ``indexOfLast`` (``-1`` or an index of ``l``), tested
    against ``0`` or ``-1`` in the statements after it, as the one test it is: ``i >= 0``, ``i > -1``, ``i != -1`` are
    ``i in l.indices`` (and their negations ``i !in l.indices``) — the form ``l.getOrNull(i)`` tests. Only while
    nothing assigns the local or changes ``l``'s path."""
    out = list(items)
    for k, a in enumerate(items):
        if not (isinstance(a, tuple) and len(a) == 3 and a[0] == "decl" and isinstance(a[1], tuple) and
                a[1][:1] == ("v",) and isinstance(a[2], tuple) and a[2][:1] == ("call",) and len(a[2]) == 4 and
                isinstance(a[2][1], tuple) and a[2][1][:1] == ("nav",) and len(a[2][1]) == 4 and
                a[2][1][3] in ("indexOf", "indexOfFirst", "indexOfLast") and _path(a[2][1][2])):
            continue
        v, lst = a[1], a[2][1][2]
        indices = ("nav", ".", lst, "indices")

        def test(x):
            if not isinstance(x, tuple):
                return x
            y = _rebuilt(x, (test(c) for c in x))
            if len(y) == 4 and y[0] == "cmp":
                op, l, r = y[1], y[2], y[3]
                if r == v and l != v:
                    op, l, r = _MIRROR.get(op, op), r, l
                if isinstance(r, tuple) and len(r) == 3 and r[:2] == ("un", "-") and isinstance(r[2], tuple) and \
                        r[2][:1] == ("lit",) and isinstance(r[2][1], str):
                    r = ("lit", "-" + r[2][1])          # (`-1` as the parser reads it)
                if l == v and isinstance(r, tuple) and r[:1] == ("lit",):
                    if (op, r[1]) in {(">=", "0"), (">", "-1"), ("!=", "-1")}:
                        return ("in", True, v, indices)
                    if (op, r[1]) in {("<", "0"), ("<=", "-1"), ("==", "-1")}:
                        return ("in", False, v, indices)
            return y

        def conds(x):
            """The conditions of ``x``'s ``if``s and guards rewritten by ``test``, but in a branch that changes
            ``l``."""
            if not isinstance(x, tuple) or not x or isinstance(x[0], str) and x[0] not in (
                    "if", "ife", "guard", "jump", "seq") and _changes_list(x, lst):
                return x
            if x[:1] in (("if",), ("ife",), ("guard",)) and len(x) >= 3:
                return (x[0], test(x[1])) + tuple(conds(c) for c in x[2:])
            return _rebuilt(x, (conds(c) for c in x))

        for j in range(k + 1, len(items)):
            c = out[j]
            if _writes_local(c, v) or _assigns(c, (v, lst)):
                break
            new = conds(c)
            if new != c:
                out[j] = carry(c, new)
            if _changes_list(c, lst):
                break
    return out


def _changes_list(x, lst) -> bool:
    """Whether ``x`` calls a mutator of ``lst`` (``add``, ``removeAt``, …) or passes it on (a callee may change it)."""
    if not isinstance(x, tuple):
        return False
    if x[:1] == ("call",) and len(x) == 4:
        if isinstance(x[1], tuple) and x[1][:1] == ("nav",) and len(x[1]) == 4 and x[1][2] == lst and \
                x[1][3] in _MUTATORS:
            return True
        if lst in x[2]:
            return True
    return any(_changes_list(c, lst) for c in x)


def _get_or_remove(x):
    """``l.getOrNull(i)?.also { l.removeAt(i) }`` is ``if (i in l.indices) l.removeAt(i) else null`` (``removeAt``
    returns the element ``getOrNull`` found); None when ``x`` is not that."""
    if not (isinstance(x, tuple) and len(x) == 4 and x[0] == "call" and isinstance(x[1], tuple) and len(x[1]) == 4 and
            x[1][:2] == ("nav", "?.") and x[1][3] == "also" and len(x[2]) == 1):
        return None
    got, body = x[1][2], _lambda_expr(x[2][0])
    if not (isinstance(got, tuple) and len(got) == 4 and got[0] == "call" and isinstance(got[1], tuple) and
            len(got[1]) == 4 and got[1][:2] == ("nav", ".") and got[1][3] == "getOrNull" and len(got[2]) == 1):
        return None
    lst, i = got[1][2], got[2][0]
    removed = ("call", ("nav", ".", lst, "removeAt"), (i,), "")
    if body != removed or not _path(lst) or not _pure(i):
        return None
    return ("ife", ("in", True, i, ("nav", ".", lst, "indices")), (("seq", removed), ("seq", ("null",))))


def _list_equal(x):
    """``l == listOf(a, b)`` is ``l.size == 2 && l[0] == a && l[1] == b`` (``!=``: its negation); None otherwise."""
    if not (isinstance(x, tuple) and len(x) == 4 and x[0] == "cmp" and x[1] in ("==", "!=")):
        return None
    for lst, other in ((x[2], x[3]), (x[3], x[2])):
        if isinstance(other, tuple) and len(other) == 4 and other[:2] == ("call", ("id", "listOf")) and other[2] and \
                all(_pure(e) for e in other[2]) and _path(lst):
            parts = (_NEG.eq("==", ("lit", str(len(other[2]))), _size(lst)),) + tuple(
                _NEG.eq("==", ("index_expression", lst, ("lit", str(i))), e) for i, e in enumerate(other[2]))
            both = ("and",) + parts
            return both if x[1] == "==" else _negate(both)
    return None


def _absorbed(x):
    """``a || (!a && b)`` is ``a || b`` and ``a && (!a || b)`` is ``a && b`` (``a`` reading and changing nothing):
    a part of a junction that repeats the negation of a sibling decides nothing; None when none applies."""
    if not (isinstance(x, tuple) and x[:1] in (("or",), ("and",)) and len(x) > 2):
        return None
    inner = "and" if x[0] == "or" else "or"
    sibs = [c for c in x[1:] if _pure(c)]
    changed, parts = False, []
    for c in x[1:]:
        if isinstance(c, tuple) and c[:1] == (inner,):
            keep = tuple(d for d in c[1:] if not any(s is not c and _negate(s) == d for s in sibs))
            if len(keep) != len(c) - 1 and keep:
                changed = True
                c = keep[0] if len(keep) == 1 else (inner,) + keep
        parts.append(c)
    return (x[0],) + tuple(parts) if changed else None


def _wait_times(tree, marks: dict, keep: list):
    """Every length of a time-out written on the configured waiting time, one value (``_wait_time``)."""
    def walk(x):
        if not isinstance(x, tuple):
            return x
        if _wait_time(x):
            return ("wait",)
        return _carry(marks, keep, x, _rebuilt(x, (walk(c) for c in x)))
    return walk(tree)


def _simplify(tree, marks: dict, keep: list, owner=None, effects=None):
    """What dropping left behind, dropped too: a local nothing reads any more (its initialiser read nothing), an
    ``if`` or a loop with nothing left to do; equal code in one form first (``_equate``); with ``owner`` (a trigger's
    holder), its test that the holder has the skill (``_owner_guards``)."""
    tree = _wait_times(tree, marks, keep)
    tree = _null_safe(tree, marks, keep)
    tree = _never_found_locals(tree, marks, keep, (effects or {}).get(("never",), frozenset()))
    tree = _equate(tree, marks, keep, effects)
    if owner is not None:
        tree = _owner_guards(tree, owner, marks, keep)
    tree = _literal_chains(tree, marks, keep)
    tree = _dead_locals(tree, marks, keep)
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
            if x[0] == "guard" and len(x) == 3 and x[1] == ("lit", False):
                return True                             # a guard that never leaves
            if x[0] == "guard" and len(x) == 3 and _wall_clock(x[1]):
                return True                             # a request refused for a moment of wall-clock time (a
                #                                         mis-click guard): time is no rule, as time-outs are not
            if x[0] == "call" and len(x) >= 3 and isinstance(x[1], tuple) and x[1] and x[1][-1] in _TIMERS \
                    and ("lambda", ("seq",)) in x[2]:
                return True                             # a timer left with nothing to run
            if x[0] == "call" and len(x) == 4 and x[2] == (("lambda", ("seq",)),) and (
                    x[1] == ("id", "run") or (isinstance(x[1], tuple) and len(x[1]) == 4 and x[1][0] == "nav" and
                                              x[1][3] in _SCOPE_RUNS and _pure(x[1][2]))):
                return True                             # `run { }`, `xs.forEach { }` left with nothing to run
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
                out = _rebuilt(x, (walk(c) for c in x))
            return _carry(marks, keep, x, out)

        new = walk(tree)
        if not changed[0]:
            return new
        tree = new
    return tree


_QUERIES: dict = {}
#: calls that run their lambda at once (or once an element) and change nothing else: left empty, they do nothing
_SCOPE_RUNS = frozenset({"run", "let", "also", "apply", "forEach", "onEach", "forEachIndexed"})


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
        out = _rebuilt(x, (walk(c) for c in x))
        if id(x) in marks:
            new_marks[id(out)] = marks[id(x)]
            keep.append(out)
        return out

    return walk(tree), new_marks, keep


# ---------------------------------------------------------------------- a chain of tests of one value (stop 47)
#: the most times a loop over a constant range is written out when a branch is read for one value of its subject
_UNROLL = 16
_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "/": lambda a, b: None if b == 0 else (abs(a) // abs(b)) * (1 if (a >= 0) == (b >= 0) else -1),
          "%": lambda a, b: None if b == 0 else a - b * ((abs(a) // abs(b)) * (1 if (a >= 0) == (b >= 0) else -1))}
_CMP = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _int_lit(x):
    if isinstance(x, tuple) and len(x) == 2 and x[0] == "lit" and isinstance(x[1], str) and \
            re.fullmatch(r"-?\d+", x[1]):
        return int(x[1])
    return None


def _literal_tests(c, subject=None):
    """(subject, [int literals]) of ``S == 3`` or ``S == 3 || S == 4 || …`` (one pure subject), else None."""
    parts = c[1:] if isinstance(c, tuple) and c[:1] == ("or",) else (c,)
    lits = []
    for p in parts:
        if not (isinstance(p, tuple) and len(p) == 4 and p[:2] == ("cmp", "==")):
            return None
        a, b = p[2], p[3]
        if _int_lit(a) is None:
            a, b = b, a
        if _int_lit(a) is None or _int_lit(b) is not None or not _pure(b) or _may_throw(b):
            return None
        if subject is None:
            subject = b
        elif b != subject:
            return None
        lits.append(_int_lit(a))
    return subject, lits


def _root_name(x):
    while isinstance(x, tuple) and x[:1] == ("nav",) and len(x) == 4:
        x = x[2]
    return x if isinstance(x, tuple) and len(x) == 2 and x[0] in ("id", "v") else None


def _touches(body, root) -> bool:
    """Whether ``body`` may change what a path from ``root`` reads: an assignment to it, a call on it (not a query),
    or a call of a bare name (a member function may change any property)."""
    if not isinstance(body, tuple):
        return False
    if body[:1] == ("assignment",) and len(body) >= 2 and _root_name(body[1]) in (root, None):
        return True
    if body[:1] == ("un",) and len(body) >= 3 and body[1] in ("++", "--") and _root_name(body[2]) in (root, None):
        return True
    if body[:1] == ("call",) and len(body) >= 3:
        callee = body[1]
        if isinstance(callee, tuple) and callee[:1] == ("id",) and callee[1] not in _BARE_PURE:
            return True
        if isinstance(callee, tuple) and callee[:1] == ("nav",) and len(callee) == 4 and \
                _root_name(callee[2]) == root and not (isinstance(callee[3], str) and _QUERY.match(callee[3])):
            return True
    return any(_touches(c, root) for c in body)


#: bare calls that change no property (constructors of values, enum lookups, random numbers)
_BARE_PURE = frozenset({"listOf", "setOf", "arrayOf", "mutableListOf", "arrayListOf", "ArrayList", "forNumber",
                        "nextInt", "minOf", "maxOf", "Pair", "repeat"})


def _fold_literal(x, counts: dict):
    """``x`` with integer arithmetic and comparisons of literals worked out, ``if`` on a known condition reduced to
    its branch, and a loop over a constant range (``(a ..< b).forEach { … }``, ``repeat(n) { … }``) whose body reads
    no loop index written out (at most ``_UNROLL`` times)."""
    if not isinstance(x, tuple):
        return x
    x = tuple(_fold_literal(c, counts) if isinstance(c, tuple) else c for c in x)
    if x[:1] == ("bin",) and len(x) == 4 and x[1] in _ARITH:
        a, b = _int_lit(x[2]), _int_lit(x[3])
        if a is not None and b is not None:
            v = _ARITH[x[1]](a, b)
            if v is not None:
                return ("lit", str(v))
    if x[:1] == ("cmp",) and len(x) == 4 and x[1] in _CMP:
        a, b = _int_lit(x[2]), _int_lit(x[3])
        if a is not None and b is not None:
            return ("lit", _CMP[x[1]](a, b))
    if x[:1] == ("seq",):
        out = ["seq"]
        for s in x[1:]:
            out.extend(_spliced(s, counts))
        return tuple(out)
    return x


def _spliced(s, counts: dict) -> list:
    """The statements one statement ``s`` (folded) stands for: a decided ``if`` its branch, an unrolled loop its
    bodies."""
    if isinstance(s, tuple) and s[:1] == ("if",) and len(s) in (3, 4) and s[1] in (("lit", True), ("lit", False)):
        branch = s[2] if s[1] == ("lit", True) else (s[3] if len(s) == 4 else ("seq",))
        return list(branch[1:]) if isinstance(branch, tuple) and branch[:1] == ("seq",) else [branch]
    n, body = _constant_loop(s)
    if n is not None and 0 <= n <= _UNROLL:
        inner: dict = {}
        _uses(body, inner)
        if all(counts.get(v, 0) > k for v, k in inner.items()):      # (no loop index read: each local read
            #                                                             outside the loop too)
            return [st for _ in range(n) for st in body[1:]]
    return [s]


def _constant_loop(s):
    """(times, body) of ``(a ..< b).forEach { body }`` / ``(a .. b).forEach`` / ``repeat(n) { body }`` over literals."""
    if not (isinstance(s, tuple) and s[:1] == ("call",) and len(s) == 4 and len(s[2]) >= 1):
        return None, None
    lam = s[2][-1]
    if not (isinstance(lam, tuple) and len(lam) == 2 and lam[0] == "lambda" and isinstance(lam[1], tuple) and
            lam[1][:1] == ("seq",)):
        return None, None
    callee = s[1]
    if callee == ("id", "repeat") and len(s[2]) == 2 and _int_lit(s[2][0]) is not None:
        return _int_lit(s[2][0]), lam[1]
    if isinstance(callee, tuple) and callee[:1] == ("nav",) and len(callee) == 4 and callee[3] == "forEach" and \
            len(s[2]) == 1 and isinstance(callee[2], tuple) and callee[2][:1] == ("range",) and len(callee[2]) == 4:
        a, b = _int_lit(callee[2][2]), _int_lit(callee[2][3])
        if a is not None and b is not None:
            return (b - a if callee[2][1] == "..<" else b - a + 1), lam[1]
    return None, None


def _literal_chains(tree, marks: dict, keep: list):
    """An ``if`` / ``else if`` chain whose tests compare one pure value with integer literals (``when (players.size)
    { 3, 4 -> …; 5, 6 -> … }``) in one form: a branch per literal, in order, each read for that value of the
    subject (``_fold_literal``: the subject written as the literal where its branch cannot change it), then the ``else``.
    Which literals share a branch, and in what order they are listed, is then no rule: ``3, 4 -> A`` and ``4, 5 ->
    B`` read alike when ``B`` for 4 does what ``A`` does."""
    counts: dict = {}
    _uses(tree, counts)

    def walk(x):
        if not isinstance(x, tuple):
            return x
        chain = _chain(x) if x[:1] == ("if",) and len(x) == 4 else None
        if chain is None:
            out = _rebuilt(x, (walk(c) for c in x))
            return _carry(marks, keep, x, out) if out != x else x
        subject, entries, rest = chain
        root = _root_name(subject)
        branches = []
        for lits, body in entries:
            body = walk(body)
            for lit in lits:
                b = body
                if root is not None and not _touches(body, root):
                    b = _fold_literal(_replace(body, subject, ("lit", str(lit))), counts)
                branches.append((lit, b))
        new = ("lit_chain", subject, tuple(("case", ("lit", str(lit)), b) for lit, b in
                                           sorted(branches, key=lambda e: e[0])), walk(rest))
        return _carry(marks, keep, x, new)

    return walk(tree)


def _chain(x):
    """(subject, [(literals, body)], else body) of an ``if`` chain of literal tests (two branches or more, each
    literal once), else None."""
    entries = []
    subject = None
    seen = set()
    cur = x
    while isinstance(cur, tuple) and cur[:1] == ("if",) and len(cur) in (3, 4):
        t = _literal_tests(cur[1], subject)
        if t is None:
            break
        subject, lits = t
        if seen & set(lits):
            return None
        seen.update(lits)
        entries.append((tuple(lits), cur[2]))
        if len(cur) == 3:
            cur = ("seq",)
            break
        cur = cur[3]
        if isinstance(cur, tuple) and cur[:1] == ("seq",) and len(cur) == 2 and isinstance(cur[1], tuple) and \
                cur[1][:1] == ("if",) and _literal_tests(cur[1][1], subject) is not None:
            cur = cur[1]
    if len(entries) < 2:
        return None
    return subject, entries, cur
