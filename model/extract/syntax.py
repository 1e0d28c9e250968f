"""Kotlin syntax over tree-sitter: the parser, the text and children of nodes, type names, a normalised form of
expressions (``_X``) with their call arguments and lambdas, and the expression a function returns."""
from __future__ import annotations

from .report import ExtractError


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


def _code(node) -> list:
    """The named children that are not comments."""
    return [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]


def _stmts(b) -> list:
    """The statements of a branch or block body (a body holding one block: that block's); a bare statement as a list
    of one; none for no body."""
    if b is None:
        return []
    if b.type in ("control_structure_body", "block"):
        kids = _code(b)
        if len(kids) == 1 and kids[0].type == "block":
            return _code(kids[0])
        return kids
    return [b]


def _name_of(decl) -> str:
    """The name of a class or function declaration ("" when it has none)."""
    return _t(decl.child_by_field_name("name") or _kid(decl, "identifier"))


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
                args = _value_args(c)
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
        cond, rest = _if_parts(n)
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


def _if_parts(n) -> tuple:
    """(condition, branches) of an if_expression: the then-branch first, then the else-branch if any."""
    cond = n.child_by_field_name("condition")
    return cond, [c for c in _code(n) if c != cond]


def _branch(n) -> _X:
    """An if-branch: an expression, or a block holding exactly one expression."""
    if n.type in ("block", "control_structure_body"):
        stmts = _code(n)
        return _ir(stmts[0]) if len(stmts) == 1 else _X("other", n)
    return _ir(n)


class _Arg:
    __slots__ = ("name", "x", "node", "spread")

    def __init__(self, name, x, node, spread=False):
        self.name, self.x, self.node, self.spread = name, x, node, spread


def _arg(va) -> _Arg:
    kids = _code(va)
    name = None
    if "=" in _anon(va) and len(kids) >= 2 and kids[0].type == "identifier":
        name = _t(kids[0])
        kids = kids[1:]
    spread = "*" in _anon(va)
    node = kids[-1] if kids else va
    if node.type == "spread_expression" and _code(node):    # `*xs`: the grammar's own node for the spread
        spread, node = True, _code(node)[0]
    return _Arg(name, _ir(node) if kids else _X("other", va), node, spread)


def _value_args(va) -> list:
    """The arguments (``_Arg``) of a value_arguments node; none when it is None."""
    return [_arg(a) for a in _kids(va, "value_argument")] if va is not None else []


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


def _single_lambda(lam):
    """(parameter name, body statement) of a lambda with one statement and at most one parameter (``it`` when
    it names none); None for any other lambda."""
    params, stmts = _lambda_parts(lam)
    if len(stmts) != 1 or len(params) > 1:
        return None
    return (params[0] if params else "it"), stmts[0]


def _fn_expr(fn):
    """The expression a function returns when its body is ``= expr`` or ``{ return expr }``; else None."""
    body = _kid(fn, "function_body")
    if body is None:
        return None
    if "=" in _anon(body):
        kids = _code(body)
        return kids[0] if len(kids) == 1 else None
    block = _kid(body, "block")
    if block is None:
        return None
    stmts = _code(block)
    if len(stmts) == 1 and stmts[0].type == "return_expression":
        kids = stmts[0].named_children
        return kids[0] if len(kids) == 1 else None
    return None


def _descendants(node, *types):
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            yield n
        stack.extend(reversed(n.named_children))


def _unparen(x: _X) -> _X:
    while x.k == "paren":
        x = x.a[0]
    return x


def _conjuncts(x: _X, op: str = "&&") -> list:
    """The operands of a chain of ``op`` (``&&`` by default, ``||`` for disjuncts), in source order."""
    x = _unparen(x)
    if x.k == "bin" and x.a[0] == op:
        return _conjuncts(x.a[1], op) + _conjuncts(x.a[2], op)
    return [x]


def _fn_params(fd) -> list:
    fvp = _kid(fd, "function_value_parameters")
    out = []
    for p in _kids(fvp, "parameter") if fvp is not None else []:
        tnode = _kid(p, *_TYPE_NODES)
        out.append((_t(_kid(p, "identifier")), _type_name(tnode), _type_args(tnode)))
    return out


def _const(x: _X, enum: str, table: dict):
    if x.k == "name" and x.a[0] in table:
        return table[x.a[0]]
    if x.k == "nav" and x.a[1] in table and _t(x.a[0].n).split(".")[-1] == enum:
        return table[x.a[1]]
    return None


def _last_name(x: _X):
    """The constant a plain or qualified name stands for: ``X`` or ``….X`` → ``X``; else None."""
    return x.a[0] if x.k == "name" else x.a[1] if x.k == "nav" else None


_SCOPES = ("block", "lambda_literal", "control_structure_body", "function_body", "statements", "source_file")


def _local_value(node, name: str):
    """The initializer of the nearest ``val name = …`` declared before ``node`` in a block around it (a local
    variable read where it is used); None when there is none."""
    child, up = node, node.parent
    while up is not None and up.type not in ("function_declaration", "class_body"):
        if up.type in _SCOPES:
            found = False, None
            for c in _code(up):
                if c.start_byte >= child.start_byte:
                    break
                if c.type == "property_declaration":
                    vd = _kid(c, "variable_declaration")
                    if vd is not None and _t(_kid(vd, "identifier")) == name:
                        rest = [x for x in _code(c) if x.type not in ("modifiers", "variable_declaration")]
                        found = True, (rest[-1] if rest and "=" in _anon(c) else None)
            if found[0]:
                return found[1]
        child, up = up, up.parent
    return None



# ------------------------------------------------------------------------------ a big file, parsed in parts
#: a file larger than this is parsed in parts cut at top-level declarations: tree-sitter-kotlin's error recovery
#: grows about quadratically with the declarations of one broken file (2,000 one-line classes with ``;`` between
#: their members: 4.7 s; 4,000: 19 s), so parts of about ``PART_BYTES`` keep the cost linear in the file's size
CHUNK_BYTES = 64 * 1024
PART_BYTES = 16 * 1024


def top_level_cuts(data: bytes, part: int = PART_BYTES) -> list:
    """Byte offsets at which ``data`` may be cut into parts of at least ``part`` bytes: line starts outside any
    bracket, comment or string whose line begins a declaration (a letter or an annotation at its first column).
    A cut misplaced by an unusual lexeme only costs syntax errors in the two parts beside it."""
    cuts, depth, i, n, last = [], 0, 0, len(data), 0
    while i < n:
        c = data[i]
        if c == 0x0A:                                                    # a new line: a cut here?
            j = i + 1
            if depth == 0 and j - last >= part and j < n and (chr(data[j]).isalpha() or data[j] == 0x40):
                cuts.append(j)
                last = j
            i += 1
        elif c == 0x2F and data[i + 1:i + 2] == b"/":                   # // comment
            k = data.find(b"\n", i)
            i = n if k < 0 else k
        elif c == 0x2F and data[i + 1:i + 2] == b"*":                   # /* comment */ (Kotlin nests them)
            nest, i = 1, i + 2
            while i < n and nest:
                if data.startswith(b"/*", i):
                    nest, i = nest + 1, i + 2
                elif data.startswith(b"*/", i):
                    nest, i = nest - 1, i + 2
                else:
                    i += 1
        elif data.startswith(b'"""', i):                                # raw string
            k = data.find(b'"""', i + 3)
            i = n if k < 0 else k + 3
        elif c in (0x22, 0x27):                                          # "string" or 'c'
            i += 1
            while i < n and data[i] != c and data[i] != 0x0A:
                i += 2 if data[i] == 0x5C else 1
            i += 1
        else:
            if c in (0x7B, 0x28, 0x5B):
                depth += 1
            elif c in (0x7D, 0x29, 0x5D):
                depth = max(0, depth - 1)
            i += 1
    return cuts


class _Parts:
    """The tree of a file parsed in parts (``parse_kotlin``): ``root_node`` stands for the file's ``source_file``
    node — its children are the parts' top-level nodes, in order, each a node of its part's tree with the file's
    own byte offsets and points."""

    def __init__(self, data: bytes, trees: list):
        self.trees = trees
        self.root_node = _PartsRoot(data, trees)


class _PartsRoot:
    type = "source_file"
    is_named = True
    parent = None

    def __init__(self, data: bytes, trees: list):
        self._data = data
        self.children = [c for t in trees for c in t.root_node.children]
        self.named_children = [c for t in trees for c in t.root_node.named_children]
        self.has_error = any(t.root_node.has_error for t in trees)
        self.start_byte, self.end_byte = 0, len(data)
        self.start_point = (0, 0)
        self.end_point = (data.count(b"\n"), len(data) - (data.rfind(b"\n") + 1))

    @property
    def text(self) -> bytes:
        return self._data

    @property
    def child_count(self) -> int:
        return len(self.children)

    @property
    def named_child_count(self) -> int:
        return len(self.named_children)

    def child_by_field_name(self, _name):
        return None


def parse_kotlin(parser, data: bytes, parse_one=None):
    """The tree of a Kotlin file: parsed whole up to ``CHUNK_BYTES``, else in parts cut at top-level declarations
    (``top_level_cuts``), each part parsed over the whole file's bytes within its own range (tree-sitter's
    ``included_ranges``), so every node keeps the file's offsets. ``parse_one(parser, data)``: how one parse is run
    (the budget's cancellable parse; default ``parser.parse``) — None from it (cancelled) is returned as is."""
    parse_one = parse_one or (lambda p, d: p.parse(d))
    cuts = top_level_cuts(data) if len(data) > CHUNK_BYTES else []
    if not cuts:
        return parse_one(parser, data)
    import tree_sitter as ts
    bounds = [0] + cuts + [len(data)]
    trees = []
    try:
        for s, e in zip(bounds, bounds[1:]):
            sp = (data.count(b"\n", 0, s), s - (data.rfind(b"\n", 0, s) + 1))
            ep = (sp[0] + data.count(b"\n", s, e), e - (data.rfind(b"\n", 0, e) + 1))
            parser.included_ranges = [ts.Range(sp, ep, s, e)]
            tree = parse_one(parser, data)
            if tree is None:
                return None
            trees.append(tree)
    finally:
        parser.included_ranges = [ts.Range((0, 0), (0xFFFFFFFF, 0xFFFFFFFF), 0, 0xFFFFFFFF)]
    return _Parts(data, trees)
