"""The class index: every class of the sources with its supertypes, constructors (parameters, their types and
defaults) and members, collected by one walk over the parsed files that also records calls, grant sites,
self-removals and the card types the code names; a name resolved to a class, the class hierarchy
(ancestors, skill or card, kinds), properties and functions through superclasses, and skill names from the
SkillId enum."""
from __future__ import annotations

from pathlib import Path

from .. import kinds as K
from .report import ExtractError, ReportItem
from .server import _CARD_ID, CARD_ENUM, COLOUR_ENUM, KIND_NAMES
from .syntax import (_TYPE_NODES, _anon, _descendants, _fn_expr, _if_parts, _ir, _kid, _kids, _lambda_parts,
                     _make_parser, _name_of, _Src, parse_kotlin, _t, _type_args, _type_name, _unparen, _value_args)


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

    def functions(self, name: str) -> list:
        """The functions of this class (not of its superclasses) named ``name``."""
        return [fd for fd in self.members("function_declaration") if _name_of(fd) == name]

    def at(self) -> str:
        return self.src.at(self.node)


class _Ctx:
    """Where a node stands: its class, the functions around it (innermost last, each with the class it is
    a member of) and the lambda / for bindings around it."""
    __slots__ = ("cls", "funcs", "scopes")

    def __init__(self, cls, funcs, scopes):
        self.cls, self.funcs, self.scopes = cls, funcs, scopes


class ClassIndex:
    """The parsed sources and their classes; the base of every part of the extractor (which all share
    one ``report``)."""

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
        from .budget import Budget, over_size, parse_within
        from .quiet_source import QUIET_SOURCE_BYTES, quiet_source
        budget = getattr(self, "budget", None) or Budget()
        sizes = {}
        for f in files:
            try:
                sizes[f] = f.stat().st_size
            except OSError:
                sizes[f] = 0
        total, done_bytes = sum(sizes.values()), 0
        for i, f in enumerate(files):
            over = over_size(f.relative_to(self.root).as_posix(), sizes[f], i, len(files), done_bytes, total)
            if over is not None:
                raise over
            try:
                data = f.read_bytes()
            except OSError as e:
                self.note("parse", f.name, str(f), f"cannot read: {e.strerror}")
                continue
            if getattr(self, "quiet", False) and not budget.spent() and len(data) <= QUIET_SOURCE_BYTES:
                data = quiet_source(parser, data)           # meaning-keeping refactors undone, line for line
            tree = parse_kotlin(parser, data, lambda p, d: parse_within(p, d, budget)) if not budget.spent() else None
            if tree is None:
                raise budget.over_time(i, len(files), done_bytes, total)
            done_bytes += len(data)
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
                if op is not None and _t(op) == "+=" or _spread_add(left, right) is not None:
                    self.sites.append(("add", node, ctx))
                elif _removes_this(right) or (cls is not None and _removed_class(right) == cls.name):
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
        return self.minimal_kinds((self.ancestors(c) | {c.name}) & KIND_NAMES)

    @staticmethod
    def minimal_kinds(found) -> list[str]:
        """The kinds of ``found`` no other one implies, in the lattice's order."""
        found = set(found)
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

    def _nearer(self, c: _Cls, a: _Cls, b: _Cls | None) -> bool:
        """Whether superclass ``a`` of ``c`` comes before ``b`` (or ``b`` is None) in ``super_chain(c)``."""
        for x in self.super_chain(c):
            if x is a:
                return True
            if x is b:
                return False
        return b is None

    def func(self, c: _Cls, name: str):
        for x in self.super_chain(c):
            fds = x.functions(name)
            if fds:
                return x, fds[0]
        return None, None

    # ---------------------------------------------------------------------------- initial skills
    def wrap_guard(self):
        """How ``InvalidSkill.deal`` chooses the skills it wraps: ``("all", where)`` when it wraps every skill
        (at most skipping those already wrapped), ``("is", Marker, where)`` for ``if (s is Marker)``,
        ``("initial", where)`` for ``if (s.isInitialSkill)``, ``("other", where)`` for a test not read, and
        None when the code has no such function."""
        if "_wrap" not in self.__dict__:
            self._wrap = self._wrap_guard()
        return self._wrap

    def _wrap_guard(self):
        for c in self.by_name.get("InvalidSkill", []):
            for holder in [c] + [n for n in c.nested if n.kind == "companion"]:
                for fd in holder.functions("deal"):
                    calls = [n for n in _descendants(fd, "call_expression")
                             if n.named_children and _t(n.named_children[0]) == c.name]
                    if not calls:
                        continue
                    where = c.src.at(fd)
                    cond, child, up = None, calls[0], calls[0].parent
                    while up is not None and up != fd:
                        if up.type == "if_expression":
                            cnd, branches = _if_parts(up)
                            if branches and branches[0] == child:
                                cond = cnd
                                break
                        child, up = up, up.parent
                    if cond is None:
                        return ("all", where)
                    x = _unparen(_ir(cond))
                    if x.k == "is" and x.a[0] and x.a[2] == c.name:
                        return ("all", where)
                    if x.k == "is" and not x.a[0]:
                        return ("is", x.a[2], where)
                    if x.k == "nav" and x.a[1] == "isInitialSkill":
                        return ("initial", where)
                    return ("other", where)
        return None

    def initial_marker(self) -> tuple:
        """How the code says that a skill is initial (can be invalidated): ``("property",)`` — the
        ``isInitialSkill`` property; ``("class", M)`` — deriving from M (the ``InitialSkill`` interface of
        2023-09/2024-01, or ``AbstractSkill`` while InvalidSkill.deal wrapped ``is AbstractSkill``);
        ``("none",)`` — older code with no such notion (InvalidSkill wrapped every skill). Worked out once."""
        if "_initial_marker" not in self.__dict__:
            self.__dict__["_initial_marker"] = self._initial_marker()
        return self.__dict__["_initial_marker"]

    def _initial_marker(self) -> tuple:
        if any(self._declares(c, "isInitialSkill") for c in self.classes if c.interface or c.abstract):
            return ("property",)
        if any(c.interface for c in self.by_name.get("InitialSkill", [])):
            return ("class", "InitialSkill")
        g = self.wrap_guard()
        if g is not None and g[0] == "is":
            return ("class", g[1])
        return ("none",)

    def kind_method(self, kind: str, default: str) -> str:
        """The name of the method a kind interface declares for its rule: ``default`` when the interface has
        it, else the interface's only function (older code named the draw method ``changeGameResult``)."""
        for c in self.by_name.get(kind, []):
            if not (c.interface or c.abstract):
                continue
            names = [_name_of(f) for f in c.members("function_declaration")]
            if default in names:
                return default
            if len(names) == 1:
                return names[0]
        return default

    def _declares(self, c: _Cls, name: str) -> bool:
        for pd in c.members("property_declaration"):
            vd = _kid(pd, "variable_declaration")
            if vd is not None and _t(_kid(vd, "identifier")) == name:
                return True
        return False

    # ------------------------------------------------------------------------------------ names
    def _skill_names(self) -> dict:
        """(enum class, constant) -> the string of its first constructor argument, for every enum."""
        names = {}
        for c in self.classes:
            if not c.enum or c.body is None:
                continue
            for entry in _kids(c.body, "enum_entry"):
                ident = _kid(entry, "identifier")
                if ident is None:
                    continue
                args = _value_args(_kid(entry, "value_arguments"))
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
        g_owner, g_fd = self.func(c, "getSkillId")         # older, machine-converted Java: a getter function
        if g_fd is not None and (init is None or self._nearer(c, g_owner, owner)):
            owner, init = g_owner, _fn_expr(g_fd)
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

    def _is_skill_type(self, name, ctx):
        if name == "Skill":
            return True
        c = self.resolve(name, ctx)
        return c is not None and self.is_skill(c)


def _is_skills(left) -> bool:
    if left.type == "identifier":
        return _t(left) == "skills"
    if left.type == "navigation_expression":
        kids = left.named_children
        return len(kids) == 2 and _t(kids[1]) == "skills"
    return False


def _removes_this(right) -> bool:
    """``skills.filterNot { it === this }`` (optionally ``.toTypedArray()``) or the older
    ``skills.filterNot { it.skillId == skillId }``: the class removes itself from its owner."""
    x = _ir(right)
    if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] in _COPIES and not x.a[1] and x.a[2] is None:
        x = x.a[0].a[0]                                        # `….toTypedArray()` of an older Array<Skill>
    if x.k != "call" or x.a[0].k != "nav" or x.a[0].a[1] != "filterNot" or x.a[2] is None:
        return False
    params, stmts = _lambda_parts(x.a[2])
    if len(stmts) != 1:
        return False
    var = params[0] if params else "it"
    b = _ir(stmts[0])
    if b.k != "bin":
        return False
    if b.a[0] == "===" and {b.a[1].k, b.a[2].k} == {"name", "this"}:
        return True
    sides = {(y.k, _t(y.n)) for y in (b.a[1], b.a[2])}
    return b.a[0] == "==" and sides == {("nav", f"{var}.skillId"), ("name", "skillId")}


def _removed_class(right) -> str | None:
    """The class ``X`` of ``skills.filterNot { it is X }`` (optionally copied): removing every skill of a class;
    within that class's own code, the class removing itself (as ``it === this`` does)."""
    x = _ir(right)
    if x.k == "call" and x.a[0].k == "nav" and x.a[0].a[1] in _COPIES and not x.a[1] and x.a[2] is None:
        x = x.a[0].a[0]
    if x.k != "call" or x.a[0].k != "nav" or x.a[0].a[1] != "filterNot" or x.a[2] is None:
        return None
    params, stmts = _lambda_parts(x.a[2])
    if len(stmts) != 1:
        return None
    b = _ir(stmts[0])
    var = params[0] if params else "it"
    if b.k == "is" and not b.a[0] and b.a[1].k == "name" and b.a[1].a[0] == var and isinstance(b.a[2], str):
        return b.a[2].split(".")[-1]
    return None


_COPIES = ("toTypedArray", "toList", "toMutableList")
_ARRAY_FUNS = ("arrayOf", "listOf", "mutableListOf", "arrayListOf")


def _spread_add(left, right):
    """The added skill of ``p.skills = arrayOf(*p.skills, x)`` (how older code, whose ``skills`` was an
    ``Array<Skill>``, handed a skill out): the node of ``x``; None for any other assignment."""
    x = _ir(right)
    if x.k != "call" or x.a[0].k != "name" or x.a[0].a[0] not in _ARRAY_FUNS or x.a[2] is not None:
        return None
    args = x.a[1]
    if len(args) != 2 or not args[0].spread or args[1].spread or args[0].name or args[1].name:
        return None
    if " ".join(_t(args[0].node).split()) != " ".join(_t(left).split()):
        return None
    return args[1].node


def _param_type(p: _Param) -> str | None:
    n = p.tname
    if n == CARD_ENUM:
        return "card"
    if n in ("List", "Set", "Collection", "Iterable", "MutableList", "MutableSet", "ArrayList") and \
            _type_args(p.type_node) == [CARD_ENUM]:
        return "set<card>"
    return {"Boolean": "bool", "Int": "int", COLOUR_ENUM: "colour"}.get(n)
