"""Extract a catalogue from the game server's Kotlin source, and compare it with a hand-kept one.

The server (CuteReimu/TheMessage) defines each skill as a Kotlin class. This module parses its sources with
a real parser (tree-sitter and the tree-sitter-kotlin grammar) and reads, without running anything:

* cards — the Card subclasses (``override val type = <card_type>``, the name from ``toString``) and every
  ``card_type.X`` the code names;
* characters — the role table: calls of the class whose constructor takes ``vararg …: Skill``
  (``RoleSkillsData("name", role, female, isPublicRole, Skill(), …)``);
* skills — kinds from the supertypes (followed through the class hierarchy), ``isInitialSkill``, the name
  from the ``SkillId`` enum, ConvertCardSkill constructor arguments, ``canUse`` and the other rule methods
  of the design note when their body is a simple expression over the documented vocabulary;
* grants — skill classes nested in other classes, and skill classes handed out at run time
  (``p.skills += X(…)``, ``InvalidSkill.deal(p)``), with the place that hands them out.

Whatever cannot be decided with certainty is written as the expression ``unknown`` (or a parameter left
free) and listed in the report; nothing is guessed silently. Only the facts the code states are written:
no rule text, no trigger descriptions.

The server's names this relies on are the ones the design note (skill-architecture.md) documents: the kind
interfaces (``ActiveSkill`` … ``ChangeDrawCardCountSkill``), their methods (``canUse``, ``mustReceive``,
``cannotReceive``, ``checkDir``, ``checkCanLock``, ``checkSendCard``, ``changeDrawCardCount``,
``checkWin``, ``changeGameResult``, ``executeProtocol``), ``isInitialSkill`` and ``skillId``, plus the
protocol's enum names ``card_type`` and ``color``.
"""
from __future__ import annotations

import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import expr as E
from . import kinds as K
from . import vocab as V
from .loader import CatalogueErrors, load

# ------------------------------------------------------------------------------------- server facts
#: the 13 card types of the game, in protocol order, with their names (card names are facts, not code);
#: used for the order of [[card]] and when a card class's toString gives no name
CARD_TABLE = {
    "Cheng_Qing": "澄清", "Shi_Tan": "试探", "Wei_Bi": "威逼", "Li_You": "利诱", "Ping_Heng": "平衡",
    "Po_Yi": "破译", "Jie_Huo": "截获", "Diao_Bao": "调包", "Wu_Dao": "误导", "Feng_Yun_Bian_Huan": "风云变幻",
    "Mi_Ling": "密令", "Diao_Hu_Li_Shan": "调虎离山", "Yu_Qin_Gu_Zong": "欲擒故纵",
}
CARD_ENUM = "card_type"            # protocol enum of card types
COLOUR_ENUM = "color"              # protocol enum of colours (identities and message colours)
DIRECTION_ENUM = "direction"
COLOUR_CONSTS = {"Red": "red", "Blue": "blue", "Black": "black", "Has_No_Identity": "none"}
DIRECTION_CONSTS = {"Up": "up", "Left": "left", "Right": "right"}
#: the server's 濒死求澄清 states: an ActiveSkill whose executeProtocol accepts one is usable while dying
DYING_PHASES = frozenset({"WaitForChengQing", "WaitNextForChengQing"})
KIND_NAMES = frozenset(k for k in K.KINDS if k != "Skill")
#: kind -> (catalogue key, server method(s)) for the rule tables translated from a method body
SEND_METHODS = {"SendMessageDirectionSkill": "checkDir", "SendMessageCanLockSkill": "checkCanLock",
                "SendMessageCardSkill": "checkSendCard"}
#: player properties of the server -> vocabulary attributes
PLAYER_PROPS = {"roleFaceUp": "face_up", "alive": "alive", "isFemale": "female", "isMale": "male",
                "hasEverFaceUp": "ever_face_up"}
_CARD_ID = re.compile(r"[A-Z][a-z0-9]*(?:_[A-Z][a-z0-9]*)*\Z")
_LIST_FUNS = {"listOf", "mutableListOf", "arrayListOf", "setOf", "mutableSetOf", "hashSetOf", "listOfNotNull"}
_EMPTY_FUNS = {"emptyList", "emptySet"}


# ------------------------------------------------------------------------------------------- results
class ExtractError(Exception):
    """Bad input (no such directory, no Kotlin files, no role table): one line, no traceback."""


@dataclass(frozen=True)
class ReportItem:
    """Something the extractor could not decide (``undecided``) or wants a reader to know."""
    kind: str          # fight, dying, receive, send, draw, effects, when, args, convert, ban, initial, name, ...
    subject: str       # rule, character or card id (or a file for parse problems)
    where: str         # file:line in the source tree
    message: str
    undecided: bool = True

    def __str__(self) -> str:
        tag = self.kind if self.undecided else f"note: {self.kind}"
        return f"{self.where}: [{tag}] {self.subject}: {self.message}"


@dataclass
class Extraction:
    files: dict                          # output file name -> TOML text
    report: list                         # of ReportItem
    stats: dict = field(default_factory=dict)
    catalogue: object = None             # the loaded Catalogue (None if it does not load)
    load_errors: list = field(default_factory=list)

    def undecided_counts(self) -> dict:
        return dict(sorted(Counter(i.kind for i in self.report if i.undecided).items()))

    def summary(self) -> str:
        s = self.stats
        n = sum(1 for i in self.report if i.undecided)
        return (f"extracted {s.get('characters', 0)} characters, {s.get('skills', 0)} skills, "
                f"{s.get('grants', 0)} grants, {s.get('sites', 0)} grant sites, {s.get('cards', 0)} cards "
                f"from {s.get('kotlin_files', 0)} Kotlin files in {s.get('seconds', 0):.2f}s; "
                f"{n} undecided item{'s' if n != 1 else ''}")

    def report_markdown(self) -> str:
        s = self.stats
        out = ["# Extraction report", "",
               f"Source: `{s.get('source', '')}` — {s.get('kotlin_files', 0)} Kotlin files, "
               f"extracted in {s.get('seconds', 0):.2f} s.", "",
               f"Extracted: {s.get('characters', 0)} characters, {s.get('skills', 0)} skills, "
               f"{s.get('grants', 0)} grants, {s.get('sites', 0)} grant sites, {s.get('cards', 0)} cards.", "",
               "Everything below was *not* decided from the code: it is written as `unknown` (checks treat it "
               "as free) or left as a free parameter, never guessed.", ""]
        counts = self.undecided_counts()
        if counts:
            out += ["| undecided | count |", "| --- | --- |"]
            out += [f"| {k} | {v} |" for k, v in counts.items()]
            out.append("")
        if self.load_errors:
            out += ["## The extracted catalogue does not load", ""]
            out += [f"- {e}" for e in self.load_errors] + [""]
        for title, undecided in (("Undecided", True), ("Notes", False)):
            items = [i for i in self.report if i.undecided == undecided]
            if not items:
                continue
            out += [f"## {title}", ""]
            for kind in sorted({i.kind for i in items}):
                out += [f"### {kind}", ""]
                out += [f"- `{i.where}` **{i.subject}**: {i.message}" for i in items if i.kind == kind]
                out.append("")
        return "\n".join(out).rstrip() + "\n"


# ------------------------------------------------------------------------------------------- parsing
def _make_parser():
    try:
        import tree_sitter as ts
        import tree_sitter_kotlin as tk
    except ImportError as e:                                    # pragma: no cover - dependency missing
        raise ExtractError(f"the Kotlin parser is not installed ({e.name}): pip install tree-sitter "
                           "tree-sitter-kotlin") from None
    lang = ts.Language(tk.language())
    try:
        return ts.Parser(lang)
    except TypeError:                                           # pragma: no cover - older py-tree-sitter
        p = ts.Parser()
        p.language = lang
        return p


class _Src:
    def __init__(self, rel: str, data: bytes, tree):
        self.rel = rel
        self.data = data
        self.tree = tree
        self.calls: dict[str, list] = {}          # callee identifier -> [(call node, ctx)]

    def at(self, node) -> str:
        return f"{self.rel}:{node.start_point[0] + 1}"


def _t(node) -> str:
    return node.text.decode("utf-8", "replace") if node is not None else ""


def _short(node, n=90) -> str:
    s = " ".join(_t(node).split())
    return s if len(s) <= n else s[:n - 1] + "…"


def _kids(node, *types):
    return [c for c in node.named_children if not types or c.type in types]


def _kid(node, *types):
    for c in node.named_children:
        if c.type in types:
            return c
    return None


def _anon(node) -> set:
    return {c.type for c in node.children if not c.is_named}


def _type_name(node) -> str:
    """The simple name of a type node: ``a.b.C<X>`` → ``C``; ``C?`` → ``C``."""
    if node is None:
        return ""
    if node.type in ("nullable_type", "non_nullable_type", "parenthesized_type", "type_projection"):
        inner = _kid(node, "user_type", "nullable_type", "parenthesized_type")
        return _type_name(inner)
    if node.type == "user_type":
        ids = [c for c in node.named_children if c.type == "identifier"]
        return _t(ids[-1]) if ids else ""
    return _t(node)


def _type_args(node) -> list:
    if node is None:
        return []
    if node.type in ("nullable_type", "non_nullable_type"):
        return _type_args(_kid(node, "user_type"))
    ta = _kid(node, "type_arguments")
    return [_type_name(p) for p in _kids(ta, "type_projection")] if ta else []


_TYPE_NODES = ("user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type")


# --------------------------------------------------------------------------------------------- IR
class _X:
    """A Kotlin expression, normalised: ``k`` is the shape, ``n`` the syntax node, ``a`` the parts.

    The grammar binds a prefix ``!``/``-`` tighter than a following ``.member`` or call (``!r.roleFaceUp``
    comes out as ``(!r).roleFaceUp``); the IR puts the operator back outside the whole postfix chain, as
    Kotlin reads it."""
    __slots__ = ("k", "n", "a", "hoist")

    def __init__(self, k, n, *a, hoist=False):
        self.k, self.n, self.a, self.hoist = k, n, a, hoist

    def __repr__(self):                                        # pragma: no cover - debugging aid
        return f"<{self.k} {_short(self.n, 40)!r}>"


def _ir(n) -> _X:
    t = n.type
    if t == "parenthesized_expression":
        inner = n.named_children[0] if n.named_children else None
        return _X("paren", n, _ir(inner)) if inner is not None else _X("other", n)
    if t == "identifier":
        s = _t(n)
        if s in ("true", "false"):
            return _X("lit", n, s == "true")
        if s == "null":
            return _X("null", n)
        return _X("name", n, s)
    if t == "number_literal":
        s = _t(n).replace("_", "").rstrip("lLuU")
        try:
            return _X("lit", n, int(s, 0))
        except ValueError:
            return _X("other", n)
    if t == "string_literal":
        parts = n.named_children
        if all(p.type == "string_content" for p in parts):
            return _X("str", n, "".join(_t(p) for p in parts))
        return _X("other", n)
    if t == "this_expression":
        return _X("this", n)
    if t == "unary_expression":
        op_node = n.child_by_field_name("operator")
        arg = n.child_by_field_name("argument")
        if op_node is None or arg is None:
            return _X("other", n)
        op = _t(op_node)
        if op == "!!":
            return _ir(arg)
        if op_node.start_byte < arg.start_byte and op in ("!", "-", "+"):
            return _X("un", n, op, _ir(arg), hoist=True)
        return _X("other", n)
    if t == "navigation_expression":
        kids = n.named_children
        if len(kids) != 2 or kids[1].type != "identifier":
            return _X("other", n)
        return _hoist(_ir(kids[0]), lambda r: _X("nav", n, r, _t(kids[1])), n)
    if t == "call_expression":
        kids = n.named_children
        if not kids:
            return _X("other", n)
        args, lam = [], None
        for c in kids[1:]:
            if c.type == "value_arguments":
                args = [_arg(a) for a in _kids(c, "value_argument")]
            elif c.type == "annotated_lambda":
                lam = _kid(c, "lambda_literal")
        return _hoist(_ir(kids[0]), lambda r: _X("call", n, r, args, lam), n)
    if t == "binary_expression":
        op = n.child_by_field_name("operator")
        l, r = n.child_by_field_name("left"), n.child_by_field_name("right")
        if op is None or l is None or r is None:
            return _X("other", n)
        return _X("bin", n, _t(op), _ir(l), _ir(r))
    if t == "in_expression":
        l, r = n.child_by_field_name("left"), n.child_by_field_name("right")
        if l is None or r is None:
            return _X("other", n)
        return _X("in", n, "!in" in _anon(n), _ir(l), _ir(r))
    if t == "is_expression":
        l, r = n.child_by_field_name("left"), n.child_by_field_name("right")
        return _X("is", n, "!is" in _anon(n), _ir(l) if l else None, _type_name(r))
    if t == "if_expression":
        cond = n.child_by_field_name("condition")
        rest = [c for c in n.named_children if c != cond and c.type not in ("line_comment", "block_comment")]
        if cond is None or len(rest) != 2:
            return _X("other", n)
        return _X("if", n, _ir(cond), _branch(rest[0]), _branch(rest[1]))
    if t == "callable_reference":
        return _X("ref", n, _t(n))
    return _X("other", n)


def _hoist(r: _X, wrap, n) -> _X:
    if r.k == "un" and r.hoist:
        return _X("un", n, r.a[0], _hoist(r.a[1], wrap, n), hoist=True)
    return wrap(r)


def _branch(n) -> _X:
    """An if-branch: an expression, or a block holding exactly one expression."""
    if n.type in ("block", "control_structure_body"):
        stmts = [c for c in n.named_children if c.type not in ("line_comment", "block_comment")]
        return _ir(stmts[0]) if len(stmts) == 1 else _X("other", n)
    return _ir(n)


class _Arg:
    __slots__ = ("name", "x", "node", "spread")

    def __init__(self, name, x, node, spread=False):
        self.name, self.x, self.node, self.spread = name, x, node, spread


def _arg(va) -> _Arg:
    kids = [c for c in va.named_children if c.type not in ("line_comment", "block_comment")]
    name = None
    if "=" in _anon(va) and len(kids) >= 2 and kids[0].type == "identifier":
        name = _t(kids[0])
        kids = kids[1:]
    spread = "*" in _anon(va)
    node = kids[-1] if kids else va
    return _Arg(name, _ir(node) if kids else _X("other", va), node, spread)


def _lambda_parts(lam):
    """(parameter names, body statements) of a lambda_literal."""
    params: list[str] = []
    stmts = []
    for c in lam.named_children:
        if c.type == "lambda_parameters":
            for v in c.named_children:
                ids = [x for x in ([v] if v.type == "identifier" else v.named_children) if x.type == "identifier"]
                if ids:
                    params.append(_t(ids[0]))
        elif c.type not in ("line_comment", "block_comment"):
            stmts.append(c)
    return params, stmts


def _fn_expr(fn):
    """The expression a function returns when its body is ``= expr`` or ``{ return expr }``; else None."""
    body = _kid(fn, "function_body")
    if body is None:
        return None
    if "=" in _anon(body):
        kids = [c for c in body.named_children if c.type not in ("line_comment", "block_comment")]
        return kids[0] if len(kids) == 1 else None
    block = _kid(body, "block")
    if block is None:
        return None
    stmts = [c for c in block.named_children if c.type not in ("line_comment", "block_comment")]
    if len(stmts) == 1 and stmts[0].type == "return_expression":
        kids = stmts[0].named_children
        return kids[0] if len(kids) == 1 else None
    return None


# ------------------------------------------------------------------------------------------- index
class _Param:
    __slots__ = ("name", "type_node", "default", "vararg")

    def __init__(self, name, type_node, default, vararg=False):
        self.name, self.type_node, self.default, self.vararg = name, type_node, default, vararg

    @property
    def tname(self) -> str:
        return _type_name(self.type_node)


class _Cls:
    def __init__(self, src: _Src, node, outer, kind: str, name: str):
        self.src, self.node, self.outer, self.kind, self.name = src, node, outer, kind, name
        mods = _kid(node, "modifiers")
        words = set(_t(mods).split()) if mods is not None else set()
        self.interface = "interface" in _anon(node)
        self.abstract = "abstract" in words or self.interface
        self.enum = "enum" in words
        self.nested: list[_Cls] = []
        self.supers: list[tuple] = []            # (type name, value_arguments node or None, node)
        ds = _kid(node, "delegation_specifiers")
        for spec in _kids(ds, "delegation_specifier") if ds is not None else []:
            inv = _kid(spec, "constructor_invocation")
            if inv is not None:
                self.supers.append((_type_name(_kid(inv, "user_type")), _kid(inv, "value_arguments"), spec))
            else:
                ut = _kid(spec, "user_type", "explicit_delegation")
                if ut is not None and ut.type == "explicit_delegation":
                    ut = _kid(ut, "user_type")
                if ut is not None:
                    self.supers.append((_type_name(ut), None, spec))
        self.params: list[_Param] = []
        pc = _kid(node, "primary_constructor")
        cps = _kid(pc, "class_parameters") if pc is not None else None
        for cp in _kids(cps, "class_parameter") if cps is not None else []:
            ident = _kid(cp, "identifier")
            tnode = _kid(cp, *_TYPE_NODES)
            default = None
            if "=" in _anon(cp):
                rest = [c for c in cp.named_children if c not in (ident, tnode) and c.type != "modifiers"]
                default = rest[-1] if rest else None
            mods_cp = _kid(cp, "modifiers")
            self.params.append(_Param(_t(ident), tnode, default, "vararg" in _t(mods_cp).split()))
        self.body = _kid(node, "class_body", "enum_class_body")
        self.ctors: list[list[_Param]] = [self.params]
        if self.body is not None:
            for sc in _kids(self.body, "secondary_constructor"):
                fvp = _kid(sc, "function_value_parameters")
                ps, vararg = [], False
                for c in fvp.named_children if fvp is not None else []:
                    if c.type == "parameter_modifiers":
                        vararg = "vararg" in _t(c).split()
                    elif c.type == "parameter":
                        ps.append(_Param(_t(_kid(c, "identifier")), _kid(c, *_TYPE_NODES), None, vararg))
                        vararg = False
                self.ctors.append(ps)

    @property
    def concrete(self) -> bool:
        return not self.abstract and not self.enum and self.kind in ("class", "object")

    @property
    def top(self) -> "_Cls":
        c = self
        while c.outer is not None:
            c = c.outer
        return c

    def members(self, type_):
        return _kids(self.body, type_) if self.body is not None else []

    def at(self) -> str:
        return self.src.at(self.node)


class _Ctx:
    """Where a node stands: its class, the functions around it (innermost last, each with the class it is
    a member of) and the lambda / for bindings around it."""
    __slots__ = ("cls", "funcs", "scopes")

    def __init__(self, cls, funcs, scopes):
        self.cls, self.funcs, self.scopes = cls, funcs, scopes


# ----------------------------------------------------------------------------------- the extractor
class _Extractor:
    def __init__(self, root: Path):
        self.root = root
        self.report: list[ReportItem] = []
        self.srcs: list[_Src] = []
        self.classes: list[_Cls] = []
        self.by_name: dict[str, list[_Cls]] = {}
        self.sites: list[tuple] = []            # ('add'|'deal', node, ctx)
        self.removals: list[tuple] = []         # (assignment node, ctx)
        self.assigns: list[tuple] = []          # other `….skills = …` (assignment node, ctx)
        self.card_refs: set[str] = set()
        self._anc_cache: dict[int, frozenset] = {}

    # ------------------------------------------------------------------------------------ report
    def note(self, kind, subject, where, message, undecided=True):
        self.report.append(ReportItem(kind, subject, where, message, undecided))

    # ------------------------------------------------------------------------------------- parse
    def parse(self):
        files = sorted(p for p in self.root.rglob("*.kt") if p.is_file())
        if not files:
            raise ExtractError(f"no Kotlin files (*.kt) under {self.root}")
        parser = _make_parser()
        for f in files:
            try:
                data = f.read_bytes()
            except OSError as e:
                self.note("parse", f.name, str(f), f"cannot read: {e.strerror}")
                continue
            tree = parser.parse(data)
            src = _Src(f.relative_to(self.root).as_posix(), data, tree)
            if tree.root_node.has_error:
                self.note("parse", src.rel, src.rel + ":1",
                          "syntax errors in this file; declarations inside the broken parts are missed")
            self.srcs.append(src)
            self._walk(src, tree.root_node, None, (), ())
        for c in self.classes:
            self.by_name.setdefault(c.name, []).append(c)

    def _walk(self, src, node, cls, funcs, scopes):
        t = node.type
        if t in ("class_declaration", "object_declaration", "companion_object"):
            ident = node.child_by_field_name("name") or _kid(node, "identifier")
            name = _t(ident) if ident is not None else "Companion"
            kind = {"class_declaration": "class", "object_declaration": "object"}.get(t, "companion")
            c = _Cls(src, node, cls, kind, name)
            if cls is not None:
                cls.nested.append(c)
            self.classes.append(c)
            for ch in node.named_children:
                self._walk(src, ch, c, funcs, scopes)
            return
        if t == "function_declaration":
            funcs = funcs + ((node, cls),)
        elif t == "import":
            parts = [_t(i) for i in _kids(_kid(node, "qualified_identifier") or node, "identifier")]
            if len(parts) >= 2 and parts[-2] == CARD_ENUM and _CARD_ID.match(parts[-1]):
                self.card_refs.add(parts[-1])
        elif t == "navigation_expression":
            kids = node.named_children
            if len(kids) == 2 and kids[1].type == "identifier" and _t(kids[0]).split(".")[-1] == CARD_ENUM:
                m = _t(kids[1])
                if _CARD_ID.match(m):
                    self.card_refs.add(m)
        elif t == "assignment":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            op = node.child_by_field_name("operator")
            if left is not None and right is not None and _is_skills(left):
                ctx = _Ctx(cls, funcs, scopes)
                if op is not None and _t(op) == "+=":
                    self.sites.append(("add", node, ctx))
                elif _removes_this(right):
                    self.removals.append((node, ctx))
                else:
                    self.assigns.append((node, ctx))
        elif t == "call_expression":
            kids = node.named_children
            if kids:
                callee = kids[0]
                ctx = _Ctx(cls, funcs, scopes)
                if callee.type == "identifier":
                    src.calls.setdefault(_t(callee), []).append((node, ctx))
                elif callee.type == "navigation_expression" and len(callee.named_children) == 2 \
                        and _t(callee.named_children[1]) == "deal":
                    self.sites.append(("deal", node, ctx))
                lam_node = _kid(node, "annotated_lambda")
                if lam_node is not None:
                    for ch in kids:
                        if ch is lam_node or ch == lam_node:
                            lam = _kid(ch, "lambda_literal")
                            params = _lambda_parts(lam)[0] if lam is not None else []
                            self._walk(src, ch, cls, funcs, scopes + (("lambda", node, tuple(params)),))
                        else:
                            self._walk(src, ch, cls, funcs, scopes)
                    return
        elif t == "for_statement":
            var = _kid(node, "variable_declaration")
            iters = [c for c in node.named_children if c.type not in ("variable_declaration", "block",
                                                                        "control_structure_body")]
            if var is not None and iters:
                scopes = scopes + (("for", _t(_kid(var, "identifier") or var), iters[0]),)
        for ch in node.named_children:
            self._walk(src, ch, cls, funcs, scopes)

    # ------------------------------------------------------------------------------- resolution
    def resolve(self, name: str, ctx_cls: _Cls | None = None) -> _Cls | None:
        c = ctx_cls
        while c is not None:
            for n in c.nested:
                if n.name == name:
                    return n
            if c.name == name:
                return c
            c = c.outer
        cands = self.by_name.get(name, [])
        tops = [x for x in cands if x.outer is None]
        if tops:
            if ctx_cls is not None:
                same = [x for x in tops if x.src is ctx_cls.src]
                if same:
                    return same[0]
            return tops[0]
        return cands[0] if len(cands) == 1 else None

    def ancestors(self, c: _Cls) -> frozenset:
        """Names of every supertype (resolved through the sources), the class itself excluded."""
        key = id(c)
        if key in self._anc_cache:
            return self._anc_cache[key]
        self._anc_cache[key] = frozenset()
        out: set[str] = set()
        for name, _args, _spec in c.supers:
            out.add(name)
            sup = self.resolve(name, c.outer or c)
            if sup is not None and sup is not c:
                out |= self.ancestors(sup)
        res = frozenset(out)
        self._anc_cache[key] = res
        return res

    def is_skill(self, c: _Cls) -> bool:
        a = self.ancestors(c)
        return "Skill" in a or bool(a & KIND_NAMES)

    def is_card(self, c: _Cls) -> bool:
        return "Card" in self.ancestors(c)

    def kinds(self, c: _Cls) -> list[str]:
        found = (self.ancestors(c) | {c.name}) & KIND_NAMES
        minimal = [k for k in found if not any(k != o and k in K.ancestors(o) for o in found)]
        order = list(K.KINDS)
        return sorted(minimal, key=order.index)

    def super_chain(self, c: _Cls):
        """The class, then its superclasses (resolved), breadth first."""
        seen, queue = set(), [c]
        while queue:
            x = queue.pop(0)
            if id(x) in seen:
                continue
            seen.add(id(x))
            yield x
            for name, _a, _s in x.supers:
                sup = self.resolve(name, x.outer or x)
                if sup is not None:
                    queue.append(sup)

    def prop(self, c: _Cls, name: str):
        """(owning class, initializer node) of ``val name = …`` / ``get() = …`` in the class or a superclass."""
        for x in self.super_chain(c):
            for pd in x.members("property_declaration"):
                vd = _kid(pd, "variable_declaration")
                if vd is None or _t(_kid(vd, "identifier")) != name:
                    continue
                init = [ch for ch in pd.named_children
                        if ch.type not in ("modifiers", "variable_declaration", "getter", "setter",
                                           "line_comment", "block_comment", "type_constraints")]
                if init and "=" in _anon(pd):
                    return x, init[-1]
                g = _kid(pd, "getter")
                if g is not None:
                    e = _fn_expr(g)
                    return x, e
                return x, None
        return None, None

    def func(self, c: _Cls, name: str):
        for x in self.super_chain(c):
            for fd in x.members("function_declaration"):
                ident = fd.child_by_field_name("name") or _kid(fd, "identifier")
                if _t(ident) == name:
                    return x, fd
        return None, None

    # ------------------------------------------------------------------------------------ run
    def run(self) -> tuple[dict, dict]:
        t0 = time.perf_counter()
        self.parse()
        self.skill_names = self._skill_names()
        self.role_cls, roles = self._role_table()
        self.cards = self._cards()
        chars, role_skills = self._characters(roles)
        self.char_names = {c["id"]: c["name"] for c in chars}
        self.card_ids = frozenset(self.cards)
        self.char_ids = frozenset(c["id"] for c in chars)
        self.universe = E.Universe(self.card_ids, self.char_ids)

        skill_classes = [c for c in self.classes if c.concrete and self.is_skill(c)]
        granted = self._granted_classes()
        rule_cls: dict[str, _Cls] = {}
        self.is_grant: dict[int, bool] = {}
        for c in role_skills:
            self.is_grant[id(c)] = False
        for c in skill_classes:
            if id(c) in self.is_grant:
                continue
            if c.outer is not None and c.outer.kind != "companion" or id(c) in granted:
                self.is_grant[id(c)] = True
            else:
                self.is_grant[id(c)] = False
                self.note("unused", c.name, c.at(), "a skill class no role of the role table holds; "
                          "written as a [[skill]] held by no character", undecided=False)
        for c in skill_classes:
            if c.name in rule_cls and rule_cls[c.name] is not c:
                self.note("name", c.name, c.at(), f"a second skill class named {c.name} "
                          f"(first at {rule_cls[c.name].at()}); only the first is written")
                self.is_grant.pop(id(c), None)
                continue
            rule_cls[c.name] = c
        self.rule_cls = rule_cls
        self.consumed = self._consumed()
        gives = self._gives()                                # giver key -> list of give dicts
        self._unread_assignments()
        entries = {}
        for name, c in rule_cls.items():
            if id(c) in self.is_grant:
                entries[name] = self._rule(c, self.is_grant[id(c)], gives.get(("rule", name), []))
        files = self._write(chars, role_skills, entries, gives)
        stats = {"source": str(self.root), "kotlin_files": len(self.srcs), "characters": len(chars),
                 "skills": sum(1 for e in entries.values() if not e["grant"]),
                 "grants": sum(1 for e in entries.values() if e["grant"]),
                 "sites": sum(len(v) for v in gives.values()), "cards": len(self.cards),
                 "seconds": time.perf_counter() - t0}
        return files, stats

    # ------------------------------------------------------------------------------------ names
    def _skill_names(self) -> dict:
        """(enum class, constant) -> the string of its first constructor argument, for every enum."""
        names = {}
        for c in self.classes:
            if not c.enum or c.body is None:
                continue
            for entry in _kids(c.body, "enum_entry"):
                ident = _kid(entry, "identifier")
                va = _kid(entry, "value_arguments")
                if ident is None or va is None:
                    continue
                args = [_arg(a) for a in _kids(va, "value_argument")]
                if args and args[0].x.k == "str":
                    names[(c.name, _t(ident))] = args[0].x.a[0]
        return names

    def _skill_id(self, c: _Cls):
        """(enum constant key, declared by the class itself)."""
        cache = self.__dict__.setdefault("_sid_cache", {})
        if id(c) not in cache:
            cache[id(c)] = self._skill_id_uncached(c)
        return cache[id(c)]

    def _skill_id_uncached(self, c: _Cls):
        owner, init = self.prop(c, "skillId")
        if init is None:
            return None, False
        x = _ir(init)
        if x.k == "nav" and x.a[0].k == "name":
            return (x.a[0].a[0], x.a[1]), owner is c
        if x.k == "name":                        # an imported constant: the one enum that has it
            enums = {e for (e, k) in self.skill_names if k == x.a[0]}
            if len(enums) == 1:
                return (enums.pop(), x.a[0]), owner is c
        return None, owner is c

    # ------------------------------------------------------------------------------- role table
    def _role_table(self):
        """The class whose constructor takes ``vararg …: Skill`` and its calls with a literal name."""
        role_cls = None
        for c in self.classes:
            for ps in c.ctors:
                if ps and ps[-1].vararg and self._is_skill_type(ps[-1].tname, c):
                    role_cls = (c, ps)
                    break
            if role_cls:
                break
        if role_cls is None:
            raise ExtractError(f"no role table under {self.root}: no class has a constructor taking "
                               "`vararg …: Skill` (the server's RoleSkillsData)")
        cls, ps = role_cls
        self.role_idx = idx = _role_positions(ps[:-1])
        calls = []
        for src in self.srcs:
            for node, ctx in src.calls.get(cls.name, []):
                va = _kid(node, "value_arguments")
                args = [_arg(a) for a in _kids(va, "value_argument")] if va is not None else []
                if len(args) >= len(ps) - 1 and args[idx["name"]].x.k == "str" and \
                        not any(a.name or a.spread for a in args):
                    calls.append((src, node, args))
        if not calls:
            raise ExtractError(f"no role table under {self.root}: no call of {cls.name}(\"name\", …) "
                               "with a literal name")
        return role_cls, calls

    def _is_skill_type(self, name, ctx):
        if name == "Skill":
            return True
        c = self.resolve(name, ctx)
        return c is not None and self.is_skill(c)

    def _characters(self, calls):
        cls, ps = self.role_cls
        fixed = ps[:-1]
        idx = self.role_idx
        chars, role_skills, seen = [], [], {}
        for src, node, args in calls:
            where = src.at(node)
            pos = [a for a in args[:len(fixed)]]
            name = pos[idx["name"]].x.a[0]
            rx = pos[idx["role"]].x if idx["role"] < len(pos) else None
            rid = rx.a[0] if rx is not None and rx.k == "name" else rx.a[1] if rx is not None and rx.k == "nav" else None
            if rid is None:
                self.note("role", name, where, "the role enum is not a plain constant; character skipped")
                continue
            if rid in seen:
                self.note("role", rid, where, f"listed twice in the role table (first at {seen[rid]}); "
                          "the first entry is kept")
                continue
            seen[rid] = where
            flags = {}
            for key in ("female", "public"):
                x = pos[idx[key]].x if idx[key] < len(pos) else None
                if x is not None and x.k == "lit" and isinstance(x.a[0], bool):
                    flags[key] = x.a[0]
                else:
                    flags[key] = key == "public"
                    self.note("role", rid, where, f"{'female' if key == 'female' else 'isPublicRole'} is not a "
                              f"literal ({_short(x.n) if x else 'missing'}); written as {flags[key]}")
            skills = []
            for a in args[len(fixed):]:
                x = a.x
                c = None
                if x.k == "call" and x.a[0].k == "name":
                    c = self.resolve(x.a[0].a[0], None)
                    if c is not None and (not self.is_skill(c) or not c.concrete):
                        c = None
                    elif c is not None and x.a[1]:
                        self.note("role", rid, where, f"{c.name} is built with arguments "
                                  f"({_short(x.n)}); a [[skill]] has no parameters, they are ignored")
                if c is None:
                    self.note("role", rid, where, f"skill argument `{_short(a.node)}` is not a known skill "
                              "class; left out of the character's skill list")
                    continue
                if c.name in skills:
                    self.note("role", rid, where, f"{c.name} listed twice; kept once")
                    continue
                skills.append(c.name)
                if all(c is not r for r in role_skills):
                    role_skills.append(c)
            chars.append({"id": rid, "name": name, "hidden": not flags["public"], "female": flags["female"],
                          "skills": skills, "where": where})
        return chars, role_skills

    # ------------------------------------------------------------------------------------ cards
    def _cards(self) -> dict:
        cards: dict[str, dict] = {}
        for c in self.classes:
            if not c.concrete or not self.is_card(c):
                continue
            _o, init = self.prop(c, "type")
            if init is None:
                continue
            x = _ir(init)
            cid = x.a[0] if x.k == "name" else x.a[1] if x.k == "nav" else None
            if cid is None or not _CARD_ID.match(cid):
                continue
            name = None
            _owner, fd = self.func(c, "toString")
            if fd is not None and _owner is c:
                for s in _descendants(fd, "string_literal"):
                    text = "".join(_t(p) for p in s.named_children if p.type == "string_content")
                    runs = re.findall(r"[\u4e00-\u9fff]+", text)
                    if runs:
                        name = max(runs, key=len)
                        break
            cards.setdefault(cid, {"id": cid, "name": name, "where": c.at(), "cls": c})
        for cid in self.card_refs:
            cards.setdefault(cid, {"id": cid, "name": None, "where": "", "cls": None})
        for cid, card in cards.items():
            if card["name"] is None:
                if cid in CARD_TABLE:
                    card["name"] = CARD_TABLE[cid]
                else:
                    card["name"] = cid
                    self.note("name", cid, card["where"] or self.root.name,
                              "a card type with no card class naming it; its id is used as its name")
        order = list(CARD_TABLE)
        return dict(sorted(cards.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order),
                                                          kv[0])))

    # ------------------------------------------------------------------------------ grant sites
    def _granted_classes(self) -> set:
        out = set()
        for kind, node, ctx in self.sites:
            c = self._site_grant(kind, node, ctx)
            if c is not None:
                out.add(id(c))
        return out

    def _site_grant(self, kind, node, ctx):
        if kind == "add":
            right = node.child_by_field_name("right")
            x = _ir(right)
            if x.k == "call" and x.a[0].k == "name":
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
                call = node.child_by_field_name("right")
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
        """Who receives a grant: 'self', 'all' or 'target' (one player chosen at run time, the giver
        included), with a reason when the receiver's shape was not understood."""
        x = _ir(recv)
        while x.k == "paren":
            x = x.a[0]
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
                va = _kid(node, "value_arguments")
                args = [_arg(a) for a in _kids(va, "value_argument")] if va is not None else []
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
                cond = up.child_by_field_name("condition")
                branches = [c for c in up.named_children if c != cond and c.type not in ("line_comment",
                                                                                          "block_comment")]
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
        while x.k == "paren":
            x = x.a[0]
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

    def _card_const(self, x: _X):
        if x.k == "name" and x.a[0] in self.cards:
            return x.a[0]
        if x.k == "nav" and x.a[1] in self.cards and _t(x.a[0].n).split(".")[-1] == CARD_ENUM:
            return x.a[1]
        return None

    # ------------------------------------------------------------------------------------- rules
    def _rule(self, c: _Cls, grant: bool, gives: list) -> dict:
        rid = c.name
        kinds = self.kinds(c)
        closure = K.closure(kinds)
        e: dict = {"id": rid, "grant": grant, "kinds": kinds, "where": c.at(), "cls": c, "gives": gives}
        # name
        key, own = self._skill_id(c)
        shared = key is not None and sum(1 for o in self.rule_cls.values() if self._skill_id(o) == (key, True)) > 1
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
        owner, init = self.prop(c, "isInitialSkill")
        x = _ir(init) if init is not None else None
        if x is not None and x.k == "lit" and isinstance(x.a[0], bool):
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
        if "MustReceiveMessage" in closure:
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
            e["draw"] = self._method_expr(c, "changeDrawCardCount", "draw", V.INT, "draw", P)
        for kind, key, method in (("WinSkill", "win", "checkWin"), ("ChangeGameResultSkill", "result",
                                                                    "changeGameResult")):
            if kind in closure:
                _o, fd = self.func(c, method)
                table = "grant" if grant else "skill"
                self.note("effects", rid, self._at(fd, c), f"{method} is not analysed: one [[{table}.{key}]] "
                          "effect with every part unknown is written")
                e[key] = True
        if "ActiveSkill" in closure:
            self._active(c, e, P)
        return e

    def _at(self, node, c: _Cls) -> str:
        return c.src.at(node) if node is not None else c.at()

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
        name = _t(fd.child_by_field_name("name") or _kid(fd, "identifier"))
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
                      f"({ex.msg}) — unknown")
            return "unknown"
        if tr.missed:
            parts = "; ".join(f"`{_short(n, 70)}`" for n in tr.missed[:4])
            more = f" (+{len(tr.missed) - 4} more)" if len(tr.missed) > 4 else ""
            self.note(what.split(".")[0], rid, where, f"{name}: not translated: {parts}{more} → `{text}`")
        return text

    def _active(self, c: _Cls, e: dict, P):
        closure = K.closure(e["kinds"])
        owner, fd = self.func(c, "canUse")
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

    def _phase_types(self, fd, owner: _Cls, depth) -> set:
        out = set()
        for n in _descendants(fd, "as_expression", "is_expression", "type_test", "call_expression"):
            if n.type == "as_expression" or n.type == "is_expression":
                r = n.child_by_field_name("right")
                if r is not None:
                    out.add(_type_name(r))
            elif n.type == "type_test":
                out.add(_type_name(_kid(n, *_TYPE_NODES)))
            elif depth == 0:                     # one level into `Type.function(…)` (a companion's function)
                x = _ir(n)
                while x.k == "un":
                    x = x.a[1]
                if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[0].k == "name":
                    tc = self.resolve(x.a[0].a[0].a[0], owner)
                    if tc is not None:
                        for comp in [tc] + [c for c in tc.nested if c.kind == "companion"]:
                            for f2 in comp.members("function_declaration"):
                                if _t(f2.child_by_field_name("name") or _kid(f2, "identifier")) == x.a[0].a[1]:
                                    out |= self._phase_types(f2, tc, depth + 1)
        return {t for t in out if t and t[:1].isupper()} & self._phase_names()

    def _phase_names(self) -> set:
        if not hasattr(self, "_phases"):
            self._phases = {c.name for c in self.classes if "Fsm" in self.ancestors(c)} | DYING_PHASES
        return self._phases

    def _convert(self, c: _Cls, P) -> dict:
        for x in self.super_chain(c):
            for name, va, _spec in x.supers:
                if name != "ConvertCardSkill" or va is None:
                    continue
                if x is not c:
                    self.note("convert", c.name, x.at(), f"conversion arguments come from superclass {x.name}")
                base = self.resolve("ConvertCardSkill", x)
                args = [_arg(a) for a in _kids(va, "value_argument")]
                return self._convert_args(c, x.src.at(va), args, base, P)
        self.note("convert", c.name, c.at(), "no ConvertCardSkill(…) constructor call found; from = any, to = every "
                  "card, must = false written")
        return {"from": "any", "to": list(self.cards), "must": False}

    def _convert_args(self, c, where, args, base, P) -> dict:
        roles = ["from", "to", "must"]
        if base is not None and len(base.params) == 3:
            names = [p.name for p in base.params]
            types = [_param_type(p) for p in base.params]
            roles = ["to" if t == "set<card>" else "must" if t == "bool" else "from" for t in types]
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
        if len(sets) == 1 and len(bools) <= 1:
            return {"cards": sets[0], "all": bools[0] if bools else False}
        if not e["grant"]:
            return {"cards": [], "all": False}
        self.note("ban", c.name, c.at(), "the banned cards are not constructor parameters; free parameters "
                  "cards / all_cards written")
        P.setdefault("cards", "set<card>")
        P.setdefault("all_cards", "bool")
        return {"cards": "cards", "all": "all_cards"}

    # ------------------------------------------------------------------------------------- write
    def _write(self, chars, role_skills, entries, gives) -> dict:
        cards_out = ["# Extracted from the server's Kotlin source by `skillproof extract`; do not edit by hand.",
                     "# Card types: the card classes (type and toString) and every card_type the code names.", ""]
        for cid, card in self.cards.items():
            if card["where"]:
                cards_out.append(f"# server: {card['where']}")
            cards_out.append("[[card]]")
            cards_out += _pairs([("id", cid), ("name", card["name"])])
            cards_out += _gives_toml("card", gives.get(("card", cid), []))
            cards_out.append("")
        chars_out = ["# Extracted from the server's Kotlin source by `skillproof extract`; do not edit by hand.",
                     f"# The role table: calls of {self.role_cls[0].name}(…) in source order.", ""]
        for ch in chars:
            chars_out.append(f"# server: {ch['where']}")
            chars_out.append("[[character]]")
            chars_out += _pairs([("id", ch["id"]), ("name", ch["name"]), ("hidden", ch["hidden"]),
                                 ("female", ch["female"]), ("skills", ch["skills"])])
            chars_out.append("")
        skills_out = ["# Extracted from the server's Kotlin source by `skillproof extract`; do not edit by hand.",
                      "# Skills in role-table order, each followed by the grants nested in its class.", ""]
        grants_out = ["# Extracted from the server's Kotlin source by `skillproof extract`; do not edit by hand.",
                      "# Skill classes handed out at run time that are not nested in another class.", ""]
        done = set()
        order = [c.name for c in role_skills] + [n for n, c in self.rule_cls.items()
                                                 if id(c) in self.is_grant and not self.is_grant[id(c)]
                                                 and n not in {r.name for r in role_skills}]
        for name in order:
            if name in done or name not in entries:
                continue
            done.add(name)
            skills_out += _rule_toml(entries[name])
            for nested in self._nested_rules(self.rule_cls[name]):
                if nested in entries and nested not in done:
                    done.add(nested)
                    skills_out += _rule_toml(entries[nested])
        for name, e in entries.items():
            if name in done:
                continue
            done.add(name)
            top = e["cls"].top
            if top is e["cls"]:
                grants_out += _rule_toml(e)
            else:
                skills_out += _rule_toml(e)
        return {"cards.toml": "\n".join(cards_out).rstrip() + "\n",
                "characters.toml": "\n".join(chars_out).rstrip() + "\n",
                "skills.toml": "\n".join(skills_out).rstrip() + "\n",
                "grants.toml": "\n".join(grants_out).rstrip() + "\n"}

    def _nested_rules(self, c: _Cls) -> list:
        out = []
        for n in c.nested:
            if self.rule_cls.get(n.name) is n:
                out.append(n.name)
            out += self._nested_rules(n)
        return out


_FREE = object()


def _descendants(node, *types):
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            yield n
        stack.extend(reversed(n.named_children))


def _is_skills(left) -> bool:
    if left.type == "identifier":
        return _t(left) == "skills"
    if left.type == "navigation_expression":
        kids = left.named_children
        return len(kids) == 2 and _t(kids[1]) == "skills"
    return False


def _removes_this(right) -> bool:
    x = _ir(right)
    if x.k != "call" or x.a[0].k != "nav" or x.a[0].a[1] != "filterNot" or x.a[2] is None:
        return False
    _params, stmts = _lambda_parts(x.a[2])
    if len(stmts) != 1:
        return False
    b = _ir(stmts[0])
    return b.k == "bin" and b.a[0] == "===" and {b.a[1].k, b.a[2].k} == {"name", "this"}


def _role_positions(fixed: list) -> dict:
    """Which constructor argument of the role class is the name, the role, female and isPublicRole: by the
    parameters' names and types, else the server's order (name, role, female, isPublicRole)."""
    idx = {"name": 0, "role": 1, "female": 2, "public": 3}
    for i, p in enumerate(fixed):
        low = p.name.lower()
        if "female" in low:
            idx["female"] = i
        elif "public" in low:
            idx["public"] = i
        elif p.tname == "String":
            idx["name"] = i
        elif p.tname.lower() == "role":
            idx["role"] = i
    return idx


def _conjuncts(x: _X) -> list:
    while x.k == "paren":
        x = x.a[0]
    if x.k == "bin" and x.a[0] == "&&":
        return _conjuncts(x.a[1]) + _conjuncts(x.a[2])
    return [x]


def _ends_with_players(x: _X) -> bool:
    while x.k == "paren":
        x = x.a[0]
    return (x.k == "nav" and x.a[1] == "players") or (x.k == "name" and x.a[0] == "players")


def _fn_params(fd) -> list:
    fvp = _kid(fd, "function_value_parameters")
    out = []
    for p in _kids(fvp, "parameter") if fvp is not None else []:
        tnode = _kid(p, *_TYPE_NODES)
        out.append((_t(_kid(p, "identifier")), _type_name(tnode), _type_args(tnode)))
    return out


def _param_type(p: _Param) -> str | None:
    n = p.tname
    if n == CARD_ENUM:
        return "card"
    if n in ("List", "Set", "Collection", "Iterable", "MutableList", "MutableSet", "ArrayList") and \
            _type_args(p.type_node) == [CARD_ENUM]:
        return "set<card>"
    return {"Boolean": "bool", "Int": "int", COLOUR_ENUM: "colour"}.get(n)


def _const(x: _X, enum: str, table: dict):
    if x.k == "name" and x.a[0] in table:
        return table[x.a[0]]
    if x.k == "nav" and x.a[1] in table and _t(x.a[0].n).split(".")[-1] == enum:
        return table[x.a[1]]
    return None


# -------------------------------------------------------------------------------------- translation
class _T:
    """A translated piece: its sort, its text in the catalogue language and its precedence."""
    __slots__ = ("sort", "text", "prec")

    def __init__(self, sort, text, prec=9):
        self.sort, self.text, self.prec = sort, text, prec


# precedence levels of the catalogue language (higher binds tighter)
_IF, _OR, _AND, _NOT, _CMP, _SUM, _PROD, _NEG, _ATOM = range(1, 10)
_UNKNOWN_B = "unknown"


def _wrap(t: _T, prec: int) -> str:
    return f"({t.text})" if t.prec < prec else t.text


class _Translator:
    """Kotlin expression → catalogue expression, over the documented vocabulary only. Pieces it cannot
    translate become ``unknown`` where a bool or int stands (recorded in ``missed``)."""

    def __init__(self, ex: _Extractor, context: str, fparams: list, owner: _Cls, params: dict):
        self.ex, self.context, self.owner = ex, context, owner
        self.missed: list = []
        self.env: dict[str, _T] = {}
        self.bound: list[str] = []              # player variables bound by quantifiers, innermost last
        self.reserved = set(params) | E.KEYWORDS | set(V.PLAYER_ATTRS) | set(V.GLOBALS) | {"self"}
        for name, tname, targs in fparams:
            if tname == "Player":
                if not any(t.sort == "self" for t in self.env.values()):
                    self.env[name] = _T("self", "self")
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
            params, stmts = _lambda_parts(lam)
            if o is None or len(stmts) != 1 or len(params) > 1:
                return None
            name = params[0] if params else "it"
            saved = self.env.get(name)
            self.env[name] = o
            try:
                body = _ir(stmts[0])
                t = self.tx(body)
                if t is None or t.sort not in ("bool", "int"):
                    t = self.bool(body) if t is None else t
                return t
            finally:
                if saved is None:
                    self.env.pop(name, None)
                else:
                    self.env[name] = saved
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
            if fn == "count" and len(args) == 1 and lam is None:
                c = _const(args[0].x, COLOUR_ENUM, COLOUR_CONSTS)
                if c in ("red", "blue", "black"):
                    return _T("int", f"{o.text}{c}_messages")
            if fn == "countTrueCard" and not args and lam is None:
                return _T("int", o.text + "true_messages")
            if fn == "any" and not args and lam is not None and "non_black_messages" in V.PLAYER_ATTRS:
                params, stmts = _lambda_parts(lam)
                var = params[0] if params else "it"
                if len(stmts) == 1 and _is_not_black(_ir(stmts[0]), var):
                    return _T("bool", f"{o.text}non_black_messages > 0", _CMP)
        if o.sort == "self" and fn == "getSkillUseCount" and len(args) == 1:
            a = args[0].x
            if (a.k == "name" and a.a[0] == "skillId"):
                return _T("usecount", "")
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
            params, stmts = _lambda_parts(lam)
            if len(stmts) != 1 or len(params) > 1:
                return None
            name, body = (params[0] if params else "it"), _ir(stmts[0])
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
        saved = self.env.get(name)
        self.env[name] = _T("player", var)
        self.bound.append(var)
        try:
            b = self.bool(body)
        finally:
            self.bound.pop()
            if saved is None:
                self.env.pop(name, None)
            else:
                self.env[name] = saved
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


# --------------------------------------------------------------------------------------------- TOML
def _tv(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_tv(i) for i in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_tk(k)} = {_tv(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def _tk(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def _pairs(items) -> list:
    return [f"{_tk(k)} = {_tv(v)}" for k, v in items]


_FREE_EFFECT = [("when", "unknown"), ("winners_add", "q: unknown"), ("winners_remove", "q: unknown"),
                ("declared_add", "q: unknown"), ("declared_remove", "q: unknown")]


def _rule_toml(e: dict) -> list:
    table = "grant" if e["grant"] else "skill"
    out = [f"# server: {e['where']}", f"[[{table}]]"]
    items = [("id", e["id"]), ("name", e["name"]), ("kinds", e["kinds"]), ("initial", e["initial"])]
    if e["grant"]:
        items.append(("lifetime", e["lifetime"]))
        if e.get("params"):
            items.append(("params", e["params"]))
    if e.get("consumed"):
        items.append(("consumed", True))
    for key in ("fight", "dying"):
        if key in e:
            items.append((key, e[key]))
    if "convert" in e:
        items.append(("convert", e["convert"]))
    if "ban" in e:
        items.append(("ban", e["ban"]))
    if "receive" in e:
        items.append(("receive", e["receive"]))
    if "send" in e:
        items.append(("send", {"rule": e["send"]}))
    if "draw" in e:
        items.append(("draw", e["draw"]))
    out += _pairs(items)
    for key in ("win", "result"):
        if e.get(key):
            out.append(f"[[{table}.{key}]]")
            out += _pairs(_FREE_EFFECT)
    out += _gives_toml(table, e["gives"])
    out.append("")
    return out


def _gives_toml(table: str, gives: list) -> list:
    out = []
    for g in gives:
        out.append(f"# server: {g['where']}")
        out.append(f"[[{table}.gives]]")
        items = [("grant", g["grant"]), ("to", g["to"]), ("when", "unknown")]
        if g["args"]:
            items.append(("args", g["args"]))
        out += _pairs(items)
    return out


# ---------------------------------------------------------------------------------------- public API
def extract(src_dir) -> Extraction:
    """Parse the Kotlin sources under ``src_dir`` and build a catalogue (TOML text per file) and a report.

    Raises ExtractError on bad input: not a directory, no Kotlin files, no role table."""
    root = Path(src_dir)
    if not root.exists():
        raise ExtractError(f"no such directory: {root}")
    if not root.is_dir():
        raise ExtractError(f"not a directory: {root}")
    if (root / "src" / "main" / "kotlin").is_dir():          # a checkout of the server: read its main sources
        root = root / "src" / "main" / "kotlin"
    ex = _Extractor(root)
    files, stats = ex.run()
    report = sorted(ex.report, key=lambda i: (not i.undecided, i.kind, i.where, i.subject))
    result = Extraction(files, report, stats)
    try:
        result.catalogue = load(texts={f"<extracted>/{n}": t for n, t in files.items()})
    except CatalogueErrors as errs:
        result.load_errors = [str(e) for e in errs.errors]
    return result


@dataclass(frozen=True)
class Difference:
    kind: str          # card, character, skills, order, rule, kinds, initial, name, convert, ban, lifetime,
    #                    params, consumed, gives
    subject: str
    message: str
    where: str = ""    # where the hand-kept catalogue says it

    def __str__(self) -> str:
        loc = f"  ({self.where})" if self.where else ""
        return f"{self.kind}: {self.subject}: {self.message}{loc}"


def compare(extracted, hand) -> list:
    """What differs between an extracted catalogue and a hand-kept one. Entries the hand-kept catalogue
    marks ``origin = "rulebook"`` (not in the server by definition) are left out. Expressions (fight,
    receive, send, draw, effects), rule texts and grant-site conditions are not compared: the extractor
    writes them as far as it can read them, and the report lists what it could not."""
    out: list[Difference] = []
    D = out.append
    # cards
    for cid in extracted.cards:
        if cid not in hand.cards:
            D(Difference("card", cid, "in the server, not in the hand-kept catalogue"))
        elif extracted.cards[cid].name != hand.cards[cid].name:
            D(Difference("card", cid, f"name: server {extracted.cards[cid].name!r}, hand {hand.cards[cid].name!r}",
                         str(hand.cards[cid].loc)))
    for cid, c in hand.cards.items():
        if cid not in extracted.cards:
            D(Difference("card", cid, "in the hand-kept catalogue, not in the server", str(c.loc)))
    # characters
    for cid, ch in extracted.characters.items():
        h = hand.characters.get(cid)
        if h is None:
            D(Difference("character", cid, f"{ch.name} is in the server's role table, not in the hand-kept catalogue"))
            continue
        where = str(h.loc)
        for attr in ("name", "hidden", "female"):
            a, b = getattr(ch, attr), getattr(h, attr)
            if a != b:
                D(Difference("character", cid, f"{attr}: server {_show(a)}, hand {_show(b)}", where))
        if tuple(ch.skills) != tuple(h.skills):
            if sorted(ch.skills) == sorted(h.skills):
                D(Difference("order", cid, f"skill order: server {list(ch.skills)}, hand {list(h.skills)}", where))
            else:
                missing = [s for s in ch.skills if s not in h.skills]
                extra = [s for s in h.skills if s not in ch.skills]
                msg = []
                if missing:
                    msg.append(f"server also has {missing}")
                if extra:
                    msg.append(f"hand also has {extra}")
                D(Difference("skills", cid, f"skills: server {list(ch.skills)}, hand {list(h.skills)} "
                             f"({'; '.join(msg)})", where))
    for cid, h in hand.characters.items():
        if cid not in extracted.characters and h.origin != "rulebook":
            D(Difference("character", cid, f"{h.name} is in the hand-kept catalogue, not in the server's role table",
                         str(h.loc)))
    # rules
    for rid, r in extracted.skills.items():
        h = hand.skills.get(rid)
        what = "grant" if r.is_grant else "skill"
        if h is None:
            D(Difference("rule", rid, f"{what} in the server, not in the hand-kept catalogue"))
            continue
        if h.origin == "rulebook":
            D(Difference("rule", rid, "the hand-kept catalogue says rule book only, but the server has it",
                         str(h.loc)))
        _compare_rule(r, h, D)
    for rid, h in hand.skills.items():
        if rid not in extracted.skills and h.origin != "rulebook":
            what = "grant" if h.is_grant else "skill"
            D(Difference("rule", rid, f"{what} in the hand-kept catalogue, not found in the server", str(h.loc)))
    # grant sites
    givers = {}
    for table_name in ("cards", "skills"):
        et, ht = getattr(extracted, table_name), getattr(hand, table_name)
        for gid in list(dict.fromkeys(list(et) + list(ht))):
            e_obj, h_obj = et.get(gid), ht.get(gid)
            if e_obj is None or h_obj is None or getattr(h_obj, "origin", "server") == "rulebook":
                continue
            givers[gid] = (e_obj, h_obj)
    for gid, (e_obj, h_obj) in givers.items():
        _compare_gives(gid, e_obj.gives, h_obj.gives, extracted, hand, D)
    return out


def _show(v) -> str:
    return str(v).lower() if isinstance(v, bool) else repr(v) if isinstance(v, str) else str(v)


def _compare_rule(r, h, D):
    rid, where = r.id, str(h.loc)
    if r.is_grant != h.is_grant:
        D(Difference("rule", rid, f"server: a {'grant' if r.is_grant else 'skill'}, hand: a "
                     f"{'grant' if h.is_grant else 'skill'}", where))
        return
    ek, hk = r.closure - {"Skill"}, h.closure - {"Skill"}
    if ek != hk:
        D(Difference("kinds", rid, f"server {list(r.kinds)}, hand {list(h.kinds)}", str(h.at("kinds"))))
    if r.initial != h.initial:
        D(Difference("initial", rid, f"server {_show(r.initial)}, hand {_show(h.initial)}", str(h.at("initial"))))
    if not r.is_grant and r.name != h.name and r.name != r.id:
        D(Difference("name", rid, f"server {r.name!r}, hand {h.name!r}", str(h.at("name"))))
    pm = _param_map(r, h)
    if (r.convert is None) != (h.convert is None):
        pass                                     # a kinds difference, reported above
    elif r.convert is not None:
        a, b = _norm_convert(r.convert, {}), _norm_convert(h.convert, pm)
        if a != b:
            D(Difference("convert", rid, f"server {_fmt_convert(r.convert)}, hand {_fmt_convert(h.convert)}",
                         str(h.at("convert"))))
    if r.ban is not None and h.ban is not None:
        a, b = _norm_ban(r.ban, {}), _norm_ban(h.ban, pm)
        if a != b:
            D(Difference("ban", rid, f"server {_fmt_ban(r.ban)}, hand {_fmt_ban(h.ban)}", str(h.at("ban"))))
    if r.is_grant:
        if r.lifetime != h.lifetime:
            D(Difference("lifetime", rid, f"server {r.lifetime}, hand {h.lifetime}", str(h.at("lifetime"))))
        et = sorted(r.params.values())
        ht = sorted(h.params.values())
        if et != ht:
            D(Difference("params", rid, f"server {dict(r.params)}, hand {dict(h.params)}", str(h.at("params"))))
    if r.consumed and not h.consumed:
        D(Difference("consumed", rid, "the server removes it from its owner once used; hand: consumed = false",
                     where))


def _param_map(r, h) -> dict:
    """hand parameter name -> extracted parameter name, by the place each stands in the tables."""
    m: dict[str, str] = {}
    if r.convert is not None and h.convert is not None:
        pairs = [(h.convert.source, r.convert.source)] + list(zip(h.convert.targets, r.convert.targets))
        for hp, ep in pairs:
            if hp.kind == "param" and ep.kind == "param":
                m.setdefault(hp.value, ep.value)
    if r.ban is not None and h.ban is not None:
        for hp, ep in ((h.ban.cards, r.ban.cards), (h.ban.all, r.ban.all)):
            if getattr(hp, "kind", None) == "param" and getattr(ep, "kind", None) == "param":
                m.setdefault(hp.value, ep.value)
    rest_h = {k: t for k, t in h.params.items() if k not in m}
    rest_e = {k: t for k, t in r.params.items() if k not in m.values()}
    for k, t in rest_h.items():
        if k in rest_e and rest_e[k] == t:
            m[k] = k
    rest_h = {k: t for k, t in rest_h.items() if k not in m}
    rest_e = {k: t for k, t in rest_e.items() if k not in m.values()}
    for t in set(rest_h.values()):
        hs = [k for k, x in rest_h.items() if x == t]
        es = [k for k, x in rest_e.items() if x == t]
        if len(hs) == 1 and len(es) == 1:
            m[hs[0]] = es[0]
    return m


def _ref(ref, pm, order):
    if ref.kind != "param":
        return str(ref)
    name = pm.get(ref.value, ref.value)
    if name not in order:
        order.append(name)
    return f"${order.index(name)}"


def _norm_convert(c, pm):
    order: list = []
    return (_ref(c.source, pm, order), tuple(_ref(t, pm, order) for t in c.targets), c.must)


def _fmt_convert(c) -> str:
    return f"{{ from = {c.source}, to = [{', '.join(str(t) for t in c.targets)}], must = {_show(c.must)} }}"


def _norm_ban(b, pm):
    order: list = []
    cards = _ref(b.cards, pm, order) if not isinstance(b.cards, tuple) else tuple(sorted(str(x) for x in b.cards))
    allv = _ref(b.all, pm, order) if not isinstance(b.all, bool) else b.all
    return cards, allv


def _fmt_ban(b) -> str:
    cards = str(b.cards) if not isinstance(b.cards, tuple) else "[" + ", ".join(str(x) for x in b.cards) + "]"
    return f"{{ cards = {cards}, all = {_show(b.all) if isinstance(b.all, bool) else b.all} }}"


def _compare_gives(gid, egives, hgives, extracted, hand, D):
    def norm(g, pm):
        args = {}
        for k, v in g.args.items():
            args[pm.get(k, k)] = tuple(sorted(v)) if isinstance(v, (list, tuple)) else v
        return args

    left = list(hgives)
    for g in egives:
        cands = [h for h in left if h.grant == g.grant]
        if not cands:
            D(Difference("gives", gid, f"the server hands out {g.grant} (to {g.to}); the hand-kept catalogue "
                         "does not list this site"))
            continue
        er, hr = extracted.skills.get(g.grant), hand.skills.get(g.grant)
        pm = _param_map(er, hr) if er is not None and hr is not None else {}
        ea = norm(g, {})

        def score(h):
            return (h.to == g.to) * 2 + (norm(h, pm) == ea)
        h = max(cands, key=score)
        left.remove(h)
        if h.to != g.to:
            D(Difference("gives", gid, f"{g.grant} goes to: server {g.to}, hand {h.to}", str(h.loc)))
        ha = norm(h, pm)
        ban = er.ban if er is not None else None
        if ban is not None and getattr(ban.all, "kind", "") == "param" and getattr(ban.cards, "kind", "") == "param" \
                and ea.get(ban.all.value) is True and ha.get(ban.all.value) is True:
            ea = {k: v for k, v in ea.items() if k != ban.cards.value}      # all cards banned: the list is moot
            ha = {k: v for k, v in ha.items() if k != ban.cards.value}
        if ea != ha:
            keys = list(dict.fromkeys(list(ea) + list(ha)))
            parts = [f"{k}: server {_fmt_arg(ea.get(k, _FREE))}, hand {_fmt_arg(ha.get(k, _FREE))}"
                     for k in keys if ea.get(k, _FREE) != ha.get(k, _FREE)]
            D(Difference("gives", gid, f"{g.grant} args: {'; '.join(parts)}", str(h.loc)))
    for h in left:
        D(Difference("gives", gid, f"the hand-kept catalogue hands out {h.grant} (to {h.to}); not found in the "
                     "server", str(h.loc)))


def _fmt_arg(v) -> str:
    if v is _FREE:
        return "free"
    if isinstance(v, tuple):
        return "[" + ", ".join(v) + "]"
    return _show(v)
