"""Refactors that keep a Kotlin file's meaning, undone in its source before the catalogue readers see it (issue 24's
quiet side): the readers (effects, wins, refusals, triggers) read code as written, so a refactor the unread
comparison's normal form (``normal``) already reads alike could still be told apart by them. Each rewrite keeps every
line where it was (a finding's file:line stays true) and is made only where it provably keeps the meaning:

* ``this.m`` / ``this.f(…)`` is the bare member, outside any lambda (there ``this`` may be a lambda's receiver) of a
  member function, where no enclosing function or lambda declares a local, parameter or local function ``m`` / ``f``;
* ``val c = <one line>`` read once, as the whole condition of the ``if`` right after it, is that condition;
* a local ``fun f() = <one line>`` called once later in its block (not under a lambda, loop or local function there)
  is its expression at the call;
* ``if (A) { R } else return X`` as the last statement of a function's body is the early return ``if (!A) return X``
  followed by ``R`` (nothing follows the ``if`` in its block, so ``R`` ending or falling through ends the same way);
* ``null == x`` is ``x == null`` (also ``!=``, ``===``, ``!==``);
* a ``when`` without a subject standing as a statement is its ``if`` / ``else if`` / ``else`` chain;
* an ``if`` / ``else if`` chain of ``x is T`` tests of one name (two or more, blocks) is the ``when (x)`` it spells;
* ``!(a == b || !c)`` is ``a != b && c`` (de Morgan, on a one-line junction of equalities and negations);
* the parts of a one-line ``&&`` / ``||`` chain that cannot throw or change anything (names, members, literals,
  comparisons, ``!`` — no call, no ``!!``, no index, no division, no cast, no jump such as ``|| continue``) in one
  order, unless a part tests a value against null (the parts after it may read the value on the strength of it);
* ``xs.removeAll(ys.toSet())`` is ``xs.removeAll(ys)`` (``retainAll``, ``containsAll``; any copy that keeps the
  elements): the argument is only asked what it contains;
* ``(a - b).coerceAtLeast(0)`` / ``maxOf(a - b, 0)`` of read-only ``a``, ``b`` is ``if (b > a) 0 else a - b``;
* ``return f(p, if (c) a else b, q)`` as a statement is ``if (c) return f(p, a, q); return f(p, b, q)`` when what
  stands before the ``if`` is read-only;
* a bare call ``f(x)`` of a same-file function written ``fun f(p: T) = g(…p…)`` is ``g(…x…)`` (``_inline_call``: same
  class or same extension receiver, read-only arguments, an overload only where the argument's declared type picks
  it, never under a lambda that may have a receiver or where a local shadows what the body reads);
* ``return e.takeIf { it >= 0 }?.let { f(it) }`` (an ordering test: ``e`` is not null) is
  ``val v = e; return if (v >= 0) f(v) else null``;
* ``if (xs.any { p }) t = xs.map { if (p) f(it) else it }`` (or ``filterNot { p }``), ``t`` holding ``xs``, is the
  assignment alone (with no element passing ``p`` the new list holds the same elements; only the list object is
  new — nothing in the code compares a list's identity);
* ``e.not()`` is ``!e`` (``!`` is the ``not`` operator), unless the call is itself a receiver;
* ``(x as? T)?.f(a, …) ?: d`` (``x`` a name) is ``if (x is T) x.f(a, …) else d`` when every ``f`` the file declares
  has a declared non-null result (so the elvis is taken exactly when the cast fails);
* ``x++`` / ``++x`` / ``x = x + e`` standing as statements are ``x += 1`` / ``x += e``, and ``return ++x`` is
  ``x += 1; return x``, for ``x`` a name the file declares only as an integer ``var`` (``_integer_steps``);
* ``fun f(…) = e`` with no declared result and ``e`` a call that returns nothing (``xs.forEach { }``, a same-file
  function with a block body) is ``fun f(…) { e }`` (``_unit_expression_body``);
* a statement both branches of an ``if (c) { … } else { … }`` begin with (log lines aside) is that statement before
  the ``if`` when it cannot change what the pure test ``c`` reads; one both end with is that statement after the
  ``if`` (``_hoist_common``).

A rewrite whose result no longer parses without error, or that meets a file with syntax errors, is not made."""
from __future__ import annotations

import re

from .syntax import CHUNK_BYTES

_LAMBDA = ("lambda_literal", "anonymous_function")
_FUN = ("function_declaration",)
#: node types a part of a junction may hold to be reordered (see the module's docstring)
_PURE = frozenset({"identifier", "navigation_expression", "number_literal", "integer_literal", "long_literal",
                   "real_literal", "boolean_literal", "string_literal", "string_content", "character_literal",
                   "this_expression", "this", "null", "parenthesized_expression", "equality_expression",
                   "comparison_expression", "conjunction_expression", "disjunction_expression", "prefix_expression",
                   "binary_expression", "unary_expression", "true", "false", ".", "(", ")", "==", "!=", "===", "!==",
                   "<", ">", "<=", ">=", "!", "&&", "||", "+", "-", "*", "\""})
_MAX_ROUNDS = 8
#: files larger than this are read as written (they are parsed in parts: ``syntax.CHUNK_BYTES``)
QUIET_SOURCE_BYTES = CHUNK_BYTES


def _t(n) -> str:
    return n.text.decode("utf-8", "replace")


def _walk(n):
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(x.children))


def _ancestors(n):
    p = n.parent
    while p is not None:
        yield p
        p = p.parent


def _fun_of(n):
    """The function declaration ``n`` is in, and whether a lambda stands between."""
    lam = False
    for a in _ancestors(n):
        if a.type in _LAMBDA:
            lam = True
        if a.type in _FUN:
            return a, lam
    return None, lam


def _declared(fun) -> set:
    """Every name a function declares inside it: parameters, locals, local functions, lambda parameters."""
    out = set()
    for x in _walk(fun):
        if x.type in ("parameter", "variable_declaration", "class_parameter", "lambda_parameters",
                      "function_value_parameters", "multi_variable_declaration"):
            out.update(_t(i) for i in _walk(x) if i.type in ("identifier", "simple_identifier"))
        elif x.type == "function_declaration" and x is not fun:
            out.update(_t(i) for i in x.children if i.type in ("identifier", "simple_identifier"))
    return out


def _this_member(tree, data: bytes) -> list:
    edits = []
    for n in _walk(tree.root_node):
        if n.type != "navigation_expression" or len(n.named_children) != 2:
            continue
        recv, name = n.named_children
        if recv.type not in ("this_expression", "this") or _t(recv) != "this" or \
                name.type not in ("identifier", "simple_identifier"):
            continue
        between = data[recv.end_byte:name.start_byte].strip()
        if between != b".":
            continue
        fun, lam = _fun_of(n)
        if fun is None or lam or fun.parent is None or fun.parent.type != "class_body":
            continue
        # a name declared in any enclosing function or lambda (an anonymous object's method sees the locals of the
        # function around it before its own members) keeps its `this.`
        if any(_t(name) in _declared(a) for a in _ancestors(n) if a.type in _FUN + _LAMBDA +
               ("secondary_constructor", "anonymous_initializer")):
            continue
        edits.append((recv.start_byte, name.start_byte, b""))
    return edits


def _stmts(block):
    inner = next((c for c in block.named_children if c.type == "statements"), None)
    return [c for c in (inner or block).named_children if c.type not in ("line_comment", "block_comment")]


def _uses(scope, name: str) -> int:
    k = 0
    for x in _walk(scope):
        if x.type in ("identifier", "simple_identifier") and _t(x) == name:
            p = x.parent
            if p is not None and p.type == "navigation_expression" and p.named_children[0] is not x:
                continue
            k += 1
    return k


def _one_line(n) -> bool:
    return n.start_point[0] == n.end_point[0]


def _cond_of(if_node):
    """The condition node of an ``if`` (between its parentheses)."""
    kids = if_node.children
    for i, c in enumerate(kids):
        if c.type == "(" and i + 2 < len(kids) and kids[i + 2].type == ")":
            return kids[i + 1]
    return None


def _inline_val(tree, data: bytes) -> list:
    edits = []
    for n in _walk(tree.root_node):
        if n.type not in ("block", "statements"):
            continue
        ss = _stmts(n)
        for a, b in zip(ss, ss[1:]):
            if a.type != "property_declaration" or b.type != "if_expression" or not _one_line(a):
                continue
            if not _t(a).startswith("val ") or b.start_point[0] != a.end_point[0] + 1:
                continue
            vd = next((c for c in a.named_children if c.type == "variable_declaration"), None)
            val = a.named_children[-1] if a.named_children else None
            if vd is None or val is None or val is vd or len(vd.named_children) != 1 or \
                    not any(ch.type == "=" for ch in a.children) or val.type == "property_delegate":
                continue                                    # (a declared type: the value may be converted)
            name = _t(vd.named_children[0])
            cond = _cond_of(b)
            if cond is None or _t(cond) != name:
                continue
            fun, _lam = _fun_of(a)
            scope = fun if fun is not None else n
            if _uses(scope, name) != 2:                     # its declaration and the condition
                continue
            line_start = data.rfind(b"\n", 0, a.start_byte) + 1
            edits.append((line_start, a.end_byte, b""))
            edits.append((cond.start_byte, cond.end_byte, val.text))   # (the whole condition: no parentheses needed)
    return edits


_SCOPES = ("lambda_literal", "anonymous_function", "function_declaration", "object_literal", "class_declaration",
           "for_statement")


def _inline_local_fun(tree, data: bytes) -> list:
    """A local ``fun f() = <one line>`` (no parameter, no receiver, no type) called once, later in its block and not
    under a lambda, loop, local function or object there, is its expression at the call (a call evaluates the body
    there and then); not made when a name the expression reads is declared between the two."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type not in ("block", "statements"):
            continue
        for a in _stmts(n):
            if a.type != "function_declaration" or not _one_line(a) or a.parent is None:
                continue
            kids = [c for c in a.children if c.type not in ("line_comment", "block_comment")]
            types = [c.type for c in kids]
            if types[:2] != ["fun", "identifier"] or len(kids) != 4 or kids[2].type != "function_value_parameters" \
                    or kids[2].named_children or kids[3].type != "function_body":
                continue
            body = kids[3].named_children
            if len(body) != 1 or not kids[3].children or kids[3].children[0].type != "=":
                continue
            name, expr = _t(kids[1]), body[0]
            fun, _lam = _fun_of(a)
            scope = fun if fun is not None else n
            if _uses(scope, name) != 2:                     # its declaration and the one call
                continue
            calls = [x for x in _walk(n) if x.type == "call_expression" and x.start_byte > a.end_byte and
                     x.named_children and x.named_children[0].type in ("identifier", "simple_identifier") and
                     _t(x.named_children[0]) == name]
            if len(calls) != 1:
                continue
            call = calls[0]
            args = call.named_children[1:]
            if len(args) != 1 or args[0].type != "value_arguments" or args[0].named_children:
                continue                                    # a trailing lambda or an argument: not this function
            if any(p.type in _SCOPES for p in _ancestors(call) if p.start_byte > n.start_byte and
                   p.end_byte <= n.end_byte):
                continue
            reads = {_t(x) for x in _walk(expr) if x.type in ("identifier", "simple_identifier")}
            between = [x for x in _walk(n) if a.end_byte < x.start_byte < call.start_byte and x.type in (
                "variable_declaration", "parameter", "lambda_parameters", "multi_variable_declaration")]
            if any(_t(i) in reads for x in between for i in _walk(x) if i.type in ("identifier", "simple_identifier")):
                continue
            whole = call.parent is not None and call.parent.type == "if_expression" and _cond_of(call.parent) == call
            line_start = data.rfind(b"\n", 0, a.start_byte) + 1
            edits.append((line_start, a.end_byte, b""))
            edits.append((call.start_byte, call.end_byte, expr.text if whole else b"(" + expr.text + b")"))
    return edits


def _negation(text: bytes) -> bytes:
    m = re.fullmatch(rb"!\((.*)\)", text, re.S)
    if m and _balanced(m.group(1)):
        return m.group(1)
    return b"!(" + text + b")"


def _balanced(s: bytes) -> bool:
    d = 0
    for ch in s:
        if ch == 40:
            d += 1
        elif ch == 41:
            d -= 1
            if d < 0:
                return False
    return d == 0


def _turned_around(tree, data: bytes) -> list:
    edits = []
    for n in _walk(tree.root_node):
        if n.type != "if_expression" or n.parent is None:
            continue
        blk = n.parent if n.parent.type == "block" else (n.parent.parent if n.parent.type == "statements" else None)
        if blk is None or blk.type != "block" or blk.parent is None or blk.parent.type != "function_body":
            continue
        ss = _stmts(blk)
        if not ss or ss[-1] != n:
            continue
        kids = n.children
        cond = _cond_of(n)
        types = [c.type for c in kids]
        if cond is None or "else" not in types:
            continue
        k = types.index("else")
        if k + 2 != len(kids) or types[k - 1] != "block" or types[:k - 1].count(")") < 1:
            continue
        tb, ret = kids[k - 1], kids[k + 1]
        if not _one_line(ret):
            continue
        if ret.type == "block":
            inner = _stmts(ret)
            ret = inner[0] if len(inner) == 1 else None
        if ret is None or ret.type not in ("return_expression", "jump_expression") or not _t(ret).startswith("return"):
            continue
        other = kids[k + 1]
        open_line, close_line = tb.start_point[0], tb.end_point[0]
        if n.start_point[0] != open_line or other.end_point[0] != close_line or close_line <= open_line + 1:
            continue
        # `if (A) {` → `if (!A) return X`; the closing `} else return X` line → blank; the body keeps its lines
        edits.append((n.start_byte, tb.start_byte + 1,
                      b"if (" + _negation(cond.text) + b") " + ret.text))
        close_start = data.rfind(b"\n", 0, tb.end_byte - 1) + 1
        edits.append((close_start, n.end_byte, b""))
    return edits


_JUMP = re.compile(rb"\b(?:continue|break|return|throw)\b")
_NULL_TEST = re.compile(rb"(?:[!=]==?\s*null\b|\bnull\s*[!=]==?)")


def _pure(n) -> bool:
    t = n.text
    return all(x.type in _PURE for x in _walk(n)) and b"?." not in t and b"!!" not in t and not _JUMP.search(t)


def _guards_others(parts: list) -> bool:
    """Whether a part of a junction tests a value against null: the parts after it may read that value on the
    strength of the test (a smart cast: ``x == null || !x.must``), so the chain keeps its order."""
    return any(_NULL_TEST.search(x.text) for x in parts)


def _parts(n, op: str) -> list:
    kids = n.children
    if n.type in ("conjunction_expression", "disjunction_expression", "binary_expression") and len(kids) == 3 and \
            kids[1].type == op:
        return _parts(kids[0], op) + _parts(kids[2], op)
    return [n]


def _junctions(tree, data: bytes) -> list:
    edits = []
    taken = []
    for n in _walk(tree.root_node):
        kids = n.children
        if len(kids) != 3 or kids[1].type not in ("&&", "||") or not _one_line(n):
            continue
        p = n.parent
        if p is not None and len(p.children) == 3 and p.children[1].type == kids[1].type:
            continue                                        # (the chain's top node sorts it)
        if any(s <= n.start_byte < e for s, e in taken):
            continue
        parts = _parts(n, kids[1].type)
        if len(parts) < 2 or not all(_pure(x) for x in parts) or _guards_others(parts):
            continue
        texts = [x.text for x in parts]
        order = sorted(texts)
        if order == texts:
            continue
        edits.append((n.start_byte, n.end_byte, (b" " + kids[1].type.encode() + b" ").join(order)))
        taken.append((n.start_byte, n.end_byte))
    return edits


_FLIP_EQ = {"==": "!=", "!=": "==", "===": "!==", "!==": "==="}


def _negated_part(n):
    """The text of ``!n`` without a ``!(…)`` for an equality (its operator flipped) or a ``!x`` (``x``), else None."""
    kids = n.children
    if n.type in ("binary_expression", "equality_expression") and len(kids) == 3 and kids[1].type in _FLIP_EQ:
        return kids[0].text + b" " + _FLIP_EQ[kids[1].type].encode() + b" " + kids[2].text
    if n.type in ("unary_expression", "prefix_expression") and len(kids) == 2 and kids[0].type == "!":
        return kids[1].text
    return None


def _de_morgan(tree, data: bytes) -> list:
    """``!(a == b || !c)`` → ``a != b && c`` (and ``&&`` / ``||`` the other way): the negation pushed into a
    one-line junction whose parts are all equalities or negations (short-circuit order kept: each part is read
    exactly when it was)."""
    edits = []
    for n in _walk(tree.root_node):
        kids = n.children
        if n.type not in ("unary_expression", "prefix_expression") or len(kids) != 2 or kids[0].type != "!" or \
                kids[1].type != "parenthesized_expression" or not _one_line(n):
            continue
        inner = [c for c in kids[1].named_children]
        if len(inner) != 1 or len(inner[0].children) != 3 or inner[0].children[1].type not in ("&&", "||"):
            continue
        op = inner[0].children[1].type
        parts = _parts(inner[0], op)
        neg = [_negated_part(x) for x in parts]
        if any(x is None for x in neg):
            continue
        text = (b" || " if op == "&&" else b" && ").join(neg)
        p = n.parent
        if p is not None and p.type not in ("parenthesized_expression", "if_expression", "value_argument",
                                            "property_declaration", "statements", "block", "jump_expression"):
            text = b"(" + text + b")"
        if p is not None and p.type == "if_expression" and _cond_of(p) != n:
            continue
        edits.append((n.start_byte, n.end_byte, text))
    return edits


def _null_last(tree, data: bytes) -> list:
    """``null == x`` / ``null != x`` (and ``===``) as ``x == null`` / ``x != null``: a test against null is the same
    either way round, and the readers know a null test by its null on the right."""
    edits = []
    for n in _walk(tree.root_node):
        kids = n.children
        if n.type in ("binary_expression", "equality_expression") and len(kids) == 3 and kids[1].type in _FLIP_EQ \
                and kids[0].text == b"null" and kids[2].text != b"null":
            edits.append((n.start_byte, n.end_byte, kids[2].text + b" " + kids[1].type.encode() + b" null"))
    return edits


def _lines(b: bytes) -> bytes:
    return b"\n" * b.count(b"\n")


_STATEMENT_PARENTS = ("block", "statements", "lambda_literal", "control_structure_body")


def _when_if(tree, data: bytes) -> list:
    """A ``when`` without a subject standing as a statement is the ``if`` / ``else if`` chain of its branches:
    ``when {`` → ``if (``, each ``c ->`` → ``c)`` (``else if (`` before every branch but the first), ``else ->`` →
    ``else``, the closing brace dropped; newlines kept. Not made when a branch holds more than one condition
    (``a, b ->``) or its body, not a block, holds an ``if`` (an ``else`` after it would bind to that ``if``)."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type != "when_expression" or n.parent is None or n.parent.type not in _STATEMENT_PARENTS:
            continue
        kids = n.children
        if len(kids) < 3 or kids[0].type != "when" or kids[1].type != "{" or kids[-1].type != "}":
            continue
        entries = [c for c in kids[2:-1] if c.type not in ("line_comment", "block_comment")]
        if not entries or any(e.type != "when_entry" for e in entries):
            continue
        mine, ok = [], True
        for i, e in enumerate(entries):
            ek = [c for c in e.children if c.type not in ("line_comment", "block_comment")]
            if len(ek) != 3 or ek[1].type != "->":
                ok = False
                break
            cond, arrow, body = ek
            if body.type != "block" and any(x.type in ("if_expression", "when_expression") for x in _walk(body)):
                ok = False
                break
            if cond.type == "else":
                if i != len(entries) - 1 or i == 0:
                    ok = False
                    break
                mine.append((cond.end_byte, arrow.end_byte, _lines(data[cond.end_byte:arrow.end_byte])))
                continue
            if cond.type in ("when_condition", "range_test", "type_test"):
                ok = False
                break
            if i == 0:
                mine.append((n.start_byte, cond.start_byte, b"if (" + _lines(data[n.start_byte:cond.start_byte])))
            else:
                mine.append((cond.start_byte, cond.start_byte, b"else if ("))
            mine.append((cond.end_byte, arrow.end_byte, b")" + _lines(data[cond.end_byte:arrow.end_byte])))
        if not ok:
            continue
        mine.append((kids[-1].start_byte, kids[-1].end_byte, b""))
        edits.extend(mine)
    return edits


def _is_test(n):
    """(subject name, type text) of ``x is T`` (an identifier tested, not negated), else None."""
    if n is None or n.type != "is_expression" or len(n.children) != 3 or n.children[1].type != "is":
        return None
    x, ty = n.children[0], n.children[2]
    if x.type not in ("identifier", "simple_identifier"):
        return None
    return _t(x), ty


def _is_chain_when(tree, data: bytes) -> list:
    """An ``if (x is A) { … } else if (x is B) { … } [else { … }]`` statement (two tests or more, every one ``x is T``
    of one name, each branch a block) is the ``when (x) { is A -> { … } is B -> { … } [else -> { … }] }`` it spells:
    ``if (x is A)`` → ``when (x) { is A ->``, ``else if (x is B)`` → ``is B ->``, ``else`` → ``else ->`` and a brace
    after the last block; newlines kept."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type != "if_expression" or n.parent is None or n.parent.type not in _STATEMENT_PARENTS:
            continue
        mine, node, subject, last, ok, tests = [], n, None, None, True, 0
        while node is not None:
            kids = [c for c in node.children if c.type not in ("line_comment", "block_comment")]
            types = [c.type for c in kids]
            if types[:2] != ["if", "("] or len(kids) < 5 or types[3] != ")" or types[4] != "block":
                ok = False
                break
            test = _is_test(kids[2])
            if test is None or (subject is not None and test[0] != subject):
                ok = False
                break
            subject = test[0]
            tests += 1
            start = node.start_byte if node is n else node.prev_sibling.start_byte   # `if` / the `else` before it
            head = (b"when (" + subject.encode() + b") { ") if node is n else b""
            mine.append((start, kids[3].end_byte, head + b"is " + test[1].text + b" ->"))
            last = kids[4]
            if len(kids) == 5:
                node = None
            elif len(kids) == 7 and types[5] == "else" and kids[6].type == "if_expression":
                node = kids[6]
            elif len(kids) == 7 and types[5] == "else" and kids[6].type == "block":
                mine.append((kids[5].start_byte, kids[5].end_byte, b"else ->"))
                last, node = kids[6], None
            else:
                ok = False
                break
        if not ok or tests < 2 or last is None:
            continue
        mine.append((last.end_byte, last.end_byte, b" }"))
        edits.extend(mine)
    return edits


def _rewrites():
    return (_this_member, _inline_val, _inline_local_fun, _turned_around, _de_morgan, _null_last, _when_if,
            _is_chain_when, _junctions, _membership_copy, _clamp_difference, _return_of_if_argument,
            _inline_call, _take_if_let, _guarded_identity, _loop_body_next_line, _add_all_one, _elvis_zero_plus,
            _find_let_return, _get_or_default, _not_call, _safe_cast_elvis, _integer_steps, _unit_expression_body,
            _hoist_common)


def _apply(data: bytes, edits: list) -> bytes:
    out, last = [], 0
    for s, e, new in sorted(edits):
        if s < last:
            return data                                     # overlapping edits: none made
        out.append(data[last:s])
        out.append(new)
        last = e
    out.append(data[last:])
    return b"".join(out)


def quiet_source(parser, data: bytes) -> bytes:
    """``data`` with the meaning-keeping refactors of the module's docstring undone, line for line."""
    tree = parser.parse(data)
    if tree.root_node.has_error:
        return data
    for _round in range(_MAX_ROUNDS):
        changed = False
        for rw in _rewrites():
            edits = rw(tree, data)
            if not edits:
                continue
            new = _apply(data, edits)
            if new == data or new.count(b"\n") != data.count(b"\n"):
                continue
            t2 = parser.parse(new)
            if t2.root_node.has_error:
                continue
            data, tree, changed = new, t2, True
        if not changed:
            break
    return data


# ------------------------------------------------------------------------------------------- stop 45 rewrites
_ID = ("identifier", "simple_identifier")
#: calls whose argument is only tested for membership (``equals``): a set copied from a collection holds the same
_MEMBERSHIP = frozenset({"removeAll", "retainAll", "containsAll"})
#: copies of a collection that keep which elements it holds
_COPIES = frozenset({"toSet", "toHashSet", "toMutableSet", "toList", "toMutableList"})


def _nav_call(n):
    """``(receiver, name, argument nodes)`` of a call ``r.name(a, …)`` with a plain ``.`` and no trailing lambda."""
    if n.type != "call_expression" or len(n.named_children) != 2:
        return None
    callee, args = n.named_children
    if callee.type != "navigation_expression" or args.type != "value_arguments" or \
            len(callee.named_children) != 2 or callee.named_children[1].type not in _ID or \
            not any(c.type == "." for c in callee.children):
        return None
    vals = [a for a in args.named_children if a.type == "value_argument"]
    if len(vals) != len(args.named_children) or any(len(a.named_children) != 1 for a in vals):
        return None                                         # (a named argument has two parts)
    return callee.named_children[0], _t(callee.named_children[1]), [a.named_children[0] for a in vals]


def _simple(n) -> bool:
    """A name, a member chain of names (``a.b.c``), ``it``, ``this`` or a number: reads a value, runs nothing (a
    property's getter aside)."""
    if n.type in _ID or n.type in ("number_literal", "integer_literal", "this_expression"):
        return True
    if n.type == "navigation_expression" and len(n.named_children) == 2 and \
            not any(c.type in ("?.", "!!") or _t(c) == "?." for c in n.children):
        return _simple(n.named_children[0]) and n.named_children[1].type in _ID
    return False


def _membership_copy(tree, data: bytes) -> list:
    """``xs.removeAll(ys.toSet())`` is ``xs.removeAll(ys)`` (also ``retainAll`` / ``containsAll`` and the other copies
    of ``_COPIES``): only ``contains`` (``equals``) is asked of the argument, and the copy holds the same elements."""
    edits = []
    for n in _walk(tree.root_node):
        parts = _nav_call(n)
        if parts is None or parts[1] not in _MEMBERSHIP or len(parts[2]) != 1:
            continue
        inner = _nav_call(parts[2][0])
        if inner is None or inner[1] not in _COPIES or inner[2] or not _one_line(parts[2][0]) or \
                parts[2][0].named_children[1].children[-1].type != ")":
            continue
        edits.append((parts[2][0].start_byte, parts[2][0].end_byte, inner[0].text))
    return edits


#: where an expression stands whole (no operator around it): an ``if`` expression may replace it unparenthesised
_WHOLE = ("property_declaration", "assignment", "value_argument", "jump_expression", "function_body",
          "parenthesized_expression")


def _clamp_difference(tree, data: bytes) -> list:
    """``(a - b).coerceAtLeast(0)`` / ``maxOf(a - b, 0)`` (``a`` and ``b`` read-only: ``_simple``) is
    ``if (b > a) 0 else a - b``: on integers ``a - b < 0`` exactly when ``b > a``."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type != "call_expression" or not _one_line(n):
            continue
        diff = None
        parts = _nav_call(n)
        if parts is not None and parts[1] == "coerceAtLeast" and len(parts[2]) == 1 and _t(parts[2][0]) == "0":
            diff = parts[0]
            while diff.type == "parenthesized_expression" and len(diff.named_children) == 1:
                diff = diff.named_children[0]
        elif n.named_children and n.named_children[0].type in _ID and _t(n.named_children[0]) in ("maxOf", "max") \
                and len(n.named_children) == 2 and n.named_children[1].type == "value_arguments":
            vals = n.named_children[1].named_children
            if len(vals) == 2 and all(v.type == "value_argument" and len(v.named_children) == 1 for v in vals):
                a, b = (v.named_children[0] for v in vals)
                diff = a if _t(b) == "0" else b if _t(a) == "0" else None
        if diff is None or diff.type not in ("binary_expression", "additive_expression") or \
                len(diff.children) != 3 or diff.children[1].type != "-":
            continue
        a, b = diff.children[0], diff.children[2]
        if not (_simple(a) and _simple(b)):
            continue
        text = b"if (" + b.text + b" > " + a.text + b") 0 else " + a.text + b" - " + b.text
        whole = n.parent is not None and n.parent.type in _WHOLE
        edits.append((n.start_byte, n.end_byte, text if whole else b"(" + text + b")"))
    return edits


def _if_parts(n):
    """``(condition, then, else)`` of an ``if`` expression whose two branches are single expressions (no block)."""
    if n.type != "if_expression":
        return None
    kids = [c for c in n.children if c.type not in _COMMENT_TYPES]
    if [c.type for c in kids[:2]] != ["if", "("] or len(kids) != 7 or kids[3].type != ")" or kids[5].type != "else":
        return None
    if any(k.type in ("block", "control_structure_body") and (k.type == "block" or k.named_children and
                                                              k.named_children[0].type == "block")
           for k in (kids[4], kids[6])):
        return None
    return kids[2], kids[4], kids[6]


_COMMENT_TYPES = ("line_comment", "block_comment", "multiline_comment", "comment")


def _return_of_if_argument(tree, data: bytes) -> list:
    """``return f(p, if (c) a else b, q)`` standing as a statement is ``if (c) return f(p, a, q); return f(p, b, q)``
    (the arguments before the ``if`` read-only, ``_simple``: each is still evaluated before, or after, as written)."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type != "return_expression" or n.parent is None or n.parent.type not in ("block", "statements") or \
                len(n.children) != 2 or n.children[0].type != "return" or not _one_line(n):
            continue
        call = n.children[1]
        if call.type != "call_expression" or len(call.named_children) != 2 or \
                call.named_children[1].type != "value_arguments":
            continue
        vals = call.named_children[1].named_children
        if not vals or any(v.type != "value_argument" for v in vals):
            continue
        ifs = [i for i, v in enumerate(vals) if v.named_children and v.named_children[-1].type == "if_expression"]
        if len(ifs) != 1:
            continue
        i = ifs[0]
        parts = _if_parts(vals[i].named_children[-1])
        if parts is None or not all(len(v.named_children) == 1 and _simple(v.named_children[0]) for v in vals[:i]):
            continue
        cond, a, b = parts
        ife = vals[i].named_children[-1]
        head, tail = data[call.start_byte:ife.start_byte], data[ife.end_byte:call.end_byte]
        text = b"if (" + cond.text + b") return " + head + a.text + tail + b"; return " + head + b.text + tail
        edits.append((n.start_byte, n.end_byte, text))
    return edits


#: calls whose lambda has no receiver (a bare name inside means what it means outside)
_PLAIN_LAMBDAS = frozenset({"forEach", "forEachIndexed", "map", "mapNotNull", "mapIndexed", "filter", "filterNot",
                            "any", "all", "none", "count", "sumOf", "first", "firstOrNull", "find", "last",
                            "lastOrNull", "let", "also", "takeIf", "takeUnless", "onEach", "flatMap", "associate",
                            "associateBy", "associateWith", "groupBy", "sortedBy", "sortedByDescending", "maxByOrNull",
                            "minByOrNull", "maxBy", "minBy", "repeat", "removeIf", "removeAll", "retainAll",
                            "indexOfFirst", "partition"})
#: collection types whose element type a lambda's ``it`` has
_ELEMENTS = re.compile(r"(?:Iterable|Collection|List|MutableList|ArrayList|Set|MutableSet|HashSet|Sequence|Array)"
                       r"<\s*(?:out\s+)?([\w.]+)\s*>\Z")
_KEEP_MODIFIERS = ("open", "override", "abstract", "expect", "actual", "external", "suspend", "tailrec")


def _params(fun) -> list | None:
    """``[(name, type text)]`` of a function's plain parameters (no default, no vararg), or None."""
    fvp = next((c for c in fun.children if c.type == "function_value_parameters"), None)
    if fvp is None or any(c.type not in ("(", ")", ",", "parameter") for c in fvp.children):
        return None
    out = []
    for p in fvp.named_children:
        kids = p.named_children
        if len(kids) != 2 or kids[0].type not in _ID:
            return None
        out.append((_t(kids[0]), _t(kids[1])))
    return out


def _receiver_text(fun) -> str:
    """The receiver type of an extension function (``""`` if none)."""
    out = b""
    for c in fun.children:
        if c.type in _ID:
            break
        if c.type not in ("fun", "modifiers", "."):
            out += c.text
    return out.decode("utf-8", "replace")


def _block_statement(fun, body):
    """The one statement of a function written ``fun f(p: T) { g(…) }`` (no declared result: Unit; the statement
    on one line), else None."""
    if body is None or not body.named_children or body.named_children[0].type != "block" or \
            any(c.type in _TYPES_DECLARED for c in fun.children):
        return None
    stmts = _stmts(body.named_children[0])
    if len(stmts) != 1 or not _one_line(stmts[0]):
        return None
    return stmts[0]


#: a function's declared result type (after its parameters)
_TYPES_DECLARED = ("user_type", "nullable_type", "function_type", "parenthesized_type")


def _inlinable(fun, statement: bool = False):
    """``(name, params, body)`` of a function ``fun f(p: T, …) = g(…)`` (one line, its body a call, no lambda in it,
    no type parameter, not open to overriding), else None; where the call stands as a statement (``statement``),
    also of ``fun f(p: T, …) { g(…) }`` (``_block_statement``: its value, Unit, is not used there)."""
    block = _block_statement(fun, next((c for c in fun.children if c.type == "function_body"), None)) \
        if statement else None
    if (not _one_line(fun) and block is None) or any(c.type == "type_parameters" for c in fun.children):
        return None
    mods = next((c for c in fun.children if c.type == "modifiers"), None)
    if mods is not None and any(w in _t(mods).split() for w in _KEEP_MODIFIERS):
        return None
    name = next((c for c in fun.children if c.type in _ID), None)
    body = next((c for c in fun.children if c.type == "function_body"), None)
    params = _params(fun)
    if block is not None and name is not None and params:
        expr = block
    elif name is None or body is None or params is None or not params or not body.children or \
            body.children[0].type != "=" or len(body.named_children) != 1:
        return None
    else:
        expr = body.named_children[0]
    if expr.type != "call_expression" or any(x.type in _LAMBDA + ("annotated_lambda", "object_literal",
                                                                  "jump_expression", "return_expression")
                                             for x in _walk(expr)):
        return None
    return _t(name), params, expr


def _arg_type(arg, call) -> str | None:
    """The declared type of a call's argument: a parameter of the function around it, or ``it`` of a plain lambda
    over such a parameter holding a collection (its element type)."""
    fun, _lam = _fun_of(call)
    if fun is None:
        return None
    if _fresh_list(arg):                                    # listOf(x) of a parameter x: T is a List<T>
        inner = arg.named_children[1].named_children[0].named_children[0]
        t = _arg_type(inner, call)
        return f"List<{t}>" if t is not None and len(arg.named_children[1].named_children) == 1 else None
    ps = dict(_params(fun) or [])
    name = _t(arg)
    if arg.type in _ID and name != "it":
        if any(name in _declared(a) for a in _ancestors(call) if a.type in _LAMBDA):
            return None
        return ps.get(name)
    if name != "it":
        return None
    lam = next((a for a in _ancestors(call) if a.type in _LAMBDA), None)
    if lam is None or any(c.type == "lambda_parameters" for c in lam.children):
        return None
    holder = lam.parent.parent if lam.parent is not None and lam.parent.type == "annotated_lambda" else None
    parts = _nav_call_lambda(holder)
    if parts is None or parts[1] not in _PLAIN_LAMBDAS or parts[0].type not in _ID:
        return None
    m = _ELEMENTS.match(re.sub(r"\s+", " ", ps.get(_t(parts[0]), "")))
    return m.group(1) if m else None


def _fresh_list(n) -> bool:
    """``listOf(a, …)`` of read-only values (``_simple``): a new list of them."""
    if n.type != "call_expression" or len(n.named_children) != 2 or n.named_children[0].type not in _ID or \
            _t(n.named_children[0]) != "listOf" or n.named_children[1].type != "value_arguments":
        return False
    vals = n.named_children[1].named_children
    return bool(vals) and all(v.type == "value_argument" and len(v.named_children) == 1 and
                              _simple(v.named_children[0]) for v in vals)


def _nav_call_lambda(n):
    """``(receiver, name)`` of ``r.name { … }`` (a trailing lambda and nothing else)."""
    if n is None or n.type != "call_expression" or len(n.named_children) != 2:
        return None
    callee, lam = n.named_children
    if callee.type != "navigation_expression" or lam.type != "annotated_lambda" or \
            len(callee.named_children) != 2 or callee.named_children[1].type not in _ID:
        return None
    return callee.named_children[0], _t(callee.named_children[1])


def _inline_call(tree, data: bytes) -> list:
    """A bare call ``f(x, …)`` of a function of the same file written ``fun f(p: T, …) = g(…p…)`` (``_inlinable``)
    is ``g(…x…)``: from the same class (a member), or, for an extension or a top-level function, from a function of
    the same receiver; the arguments read-only (``_simple``: read once or twice, the same value); an overloaded
    name only where the argument's declared type picks one (a parameter, or ``it`` over a collection parameter);
    not under a lambda that may have a receiver, nor where a name the body reads is declared around the call."""
    decls: dict = {}
    for f in _walk(tree.root_node):
        if f.type == "function_declaration" and f.parent is not None and \
                f.parent.type in ("source_file", "class_body"):
            decls.setdefault(_t(next((c for c in f.children if c.type in _ID), f)), []).append(f)
    edits = []
    for call in _walk(tree.root_node):
        if call.type != "call_expression" or len(call.named_children) != 2 or \
                call.named_children[0].type not in _ID or call.named_children[1].type != "value_arguments":
            continue
        name = _t(call.named_children[0])
        cands = decls.get(name, [])
        vals = call.named_children[1].named_children
        if not cands or any(v.type != "value_argument" or len(v.named_children) != 1 or
                            not (_simple(v.named_children[0]) or _fresh_list(v.named_children[0])) or
                            not _one_line(v) for v in vals):
            continue
        statement = call.parent is not None and call.parent.type in ("block", "statements")
        args = [v.named_children[0] for v in vals]
        fun, _lam = _fun_of(call)
        if fun is None:
            continue
        cands = [c for c in cands if len(_params(c) or []) == len(args) and c.parent == fun.parent and
                 _receiver_text(c) == _receiver_text(fun)]
        if len(cands) > 1:
            types = [_arg_type(a, call) for a in args]
            if None in types:
                continue
            cands = [c for c in cands if [t for _n, t in _params(c)] == types]
        if len(cands) != 1 or cands[0] == fun or len(decls[name]) != len([c for c in decls[name]
                                                                           if c.parent == fun.parent]):
            continue                                        # (a name declared elsewhere in the file too: left)
        inl = _inlinable(cands[0], statement)
        if inl is None:
            continue
        _n, params, expr = inl
        pnames = [p for p, _t_ in params]
        if any(not _simple(a) and _uses(expr, p) > 1 for a, p in zip(args, pnames)):
            continue                                        # (a new list made once, not twice)
        lams = [a for a in _ancestors(call) if a.type in _LAMBDA and a.start_byte > fun.start_byte]
        holders = [_nav_call_lambda(lm.parent.parent if lm.parent is not None and lm.parent.type == "annotated_lambda"
                                    else None) for lm in lams]
        if any(h is None or h[1] not in _PLAIN_LAMBDAS for h in holders):
            continue
        reads = {_t(x) for x in _walk(expr) if x.type in _ID} - set(pnames)
        around = set()
        for a in [fun] + lams:
            around |= _declared(a)
        if reads & around:
            continue
        subs = []
        for x in _walk(expr):
            if x.type not in _ID or _t(x) not in pnames:
                continue
            p = x.parent
            if p is not None and p.type == "navigation_expression" and p.named_children[0] != x:
                continue
            if p is not None and p.type == "value_argument" and len(p.named_children) > 1 and p.named_children[0] == x:
                continue                                    # (a named argument's name)
            subs.append((x.start_byte - expr.start_byte, x.end_byte - expr.start_byte,
                         args[pnames.index(_t(x))].text))
        text = expr.text
        for s, e, new in sorted(subs, reverse=True):
            text = text[:s] + new + text[e:]
        edits.append((call.start_byte, call.end_byte, text))
    return edits


def _lambda_body(annotated):
    """The one expression of a trailing lambda without parameters (``{ e }``), or None."""
    if annotated is None or annotated.type != "annotated_lambda" or len(annotated.named_children) != 1:
        return None
    lam = annotated.named_children[0]
    kids = [c for c in lam.named_children if c.type not in _COMMENT_TYPES]
    if lam.type != "lambda_literal" or len(kids) != 1 or kids[0].type in ("lambda_parameters", "statements"):
        if len(kids) == 1 and kids[0].type == "statements" and len(kids[0].named_children) == 1:
            return kids[0].named_children[0]
        return None
    return kids[0]


def _with_it(n, name: bytes) -> bytes:
    """The text of ``n`` with each ``it`` (not a member ``x.it``) written ``name``."""
    text = n.text
    for x in sorted((x for x in _walk(n) if x.type in _ID and _t(x) == "it" and not (
            x.parent is not None and x.parent.type == "navigation_expression" and x.parent.named_children[0] != x)),
            key=lambda x: -x.start_byte):
        s, e = x.start_byte - n.start_byte, x.end_byte - n.start_byte
        text = text[:s] + name + text[e:]
    return text


def _take_if_let(tree, data: bytes) -> list:
    """``return e.takeIf { it >= 0 }?.let { f(it) }`` (the test an ordering comparison, so ``e`` is not null) is
    ``val v = e; return if (v >= 0) f(v) else null``: ``e`` once, the test, then ``f`` or null."""
    edits = []
    used = None
    for n in _walk(tree.root_node):
        if n.type != "return_expression" or n.parent is None or n.parent.type not in ("block", "statements") or \
                len(n.children) != 2 or n.children[0].type != "return" or not _one_line(n):
            continue
        call = n.children[1]
        if call.type != "call_expression" or len(call.named_children) != 2:
            continue
        nav, let = call.named_children
        if nav.type != "navigation_expression" or len(nav.children) != 3 or _t(nav.children[1]) != "?." or \
                _t(nav.children[2]) != "let":
            continue
        body = _lambda_body(let)
        inner = nav.children[0]
        if body is None or inner.type != "call_expression" or len(inner.named_children) != 2:
            continue
        nav2, take = inner.named_children
        if nav2.type != "navigation_expression" or len(nav2.children) != 3 or nav2.children[1].type != "." or \
                _t(nav2.children[2]) != "takeIf":
            continue
        cond = _lambda_body(take)
        if cond is None or cond.type not in ("binary_expression", "comparison_expression") or \
                len(cond.children) != 3 or cond.children[1].type not in ("<", ">", "<=", ">="):
            continue
        if any(x.type in _LAMBDA for part in (cond, body) for x in _walk(part)):
            continue
        if used is None:
            used = {_t(x) for x in _walk(tree.root_node) if x.type in _ID}
        k = 0
        while f"taken{k}" in used:
            k += 1
        name = f"taken{k}".encode()
        used.add(name.decode())
        text = (b"val " + name + b" = " + nav2.children[0].text + b"; return if (" + _with_it(cond, name) + b") " +
                _with_it(body, name) + b" else null")
        edits.append((n.start_byte, n.end_byte, text))
    return edits


def _bare(text: bytes) -> bytes:
    return re.sub(rb"\s+|!!", b"", text)


def _guarded_identity(tree, data: bytes) -> list:
    """``if (xs.any { p }) t = xs.map { if (p) f(it) else it }`` (also ``xs.filterNot { p }``, ``xs.filter { !p }``)
    where ``t`` holds ``xs`` (``xs`` is ``t``, or ``val xs = t`` just before) is the assignment without its ``if``:
    when no element passes ``p`` the list made holds the same elements in the same order (only a new list object
    is stored)."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type != "if_expression" or any(c.type == "else" for c in n.children):
            continue
        cond = _cond_of(n)
        body = n.children[-1]
        stmt = body
        if body.type in ("block", "control_structure_body"):
            inner = _stmts(body) if body.type == "block" else body.named_children
            if len(inner) != 1:
                continue
            stmt = inner[0]
        if cond is None or stmt.type != "assignment" or len(stmt.named_children) != 2 or \
                not any(c.type == "=" for c in stmt.children):
            continue
        test = _nav_call_lambda(cond)
        if test is None or test[1] != "any":
            continue
        p = _lambda_body(cond.named_children[1])
        target, value = stmt.named_children
        made = _nav_call_lambda(value)
        if p is None or made is None or _bare(made[0].text) != _bare(test[0].text):
            continue
        q = _lambda_body(value.named_children[1])
        if q is None:
            continue
        same = False
        if made[1] == "filterNot":
            same = _bare(q.text) == _bare(p.text)
        elif made[1] == "filter":
            same = q.type in ("prefix_expression", "unary_expression") and q.text[:1] == b"!" and \
                _bare(q.text[1:]).strip(b"()") == _bare(p.text).strip(b"()")
        elif made[1] == "map":
            parts = _if_parts(q)
            same = parts is not None and _bare(parts[0].text) == _bare(p.text) and _t(parts[2]) == "it"
        if not same or any(x.type in _LAMBDA for x in _walk(p) if x != p):
            continue
        holds = _bare(test[0].text) == _bare(target.text)
        if not holds and test[0].type in _ID:
            prev = n.prev_named_sibling
            while prev is not None and prev.type in _COMMENT_TYPES:
                prev = prev.prev_named_sibling
            if prev is not None and prev.type == "property_declaration" and _t(prev).startswith("val "):
                vd = next((c for c in prev.named_children if c.type == "variable_declaration"), None)
                holds = vd is not None and _t(vd) == _t(test[0]) and \
                    _bare(prev.named_children[-1].text) == _bare(target.text)
        if not holds:
            continue
        edits.append((n.start_byte, stmt.start_byte, b"\n" * data[n.start_byte:stmt.start_byte].count(b"\n")))
        if stmt.end_byte < n.end_byte:
            edits.append((stmt.end_byte, n.end_byte, b"\n" * data[stmt.end_byte:n.end_byte].count(b"\n")))
    return edits


# ------------------------------------------------------------------------------------------- stop 47 rewrites
_LOOPS = ("for_statement", "while_statement")


def _loop_body_next_line(tree, data: bytes) -> list:
    """``for (x in xs)`` / ``while (c)`` with its body alone on the next line, without braces, is the loop with that
    body in braces: the grammar reads such a loop as having no body and its body as the statement after it (which
    would then run once, unconditionally); braces make it read as the loop it is. Not made when the statement after
    is itself a loop without a body (nested loops without braces are left as written)."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type not in _LOOPS or not n.children or n.children[-1].type != ")" or \
                n.parent is None or n.parent.type not in ("block", "statements"):
            continue
        nxt = n.next_named_sibling
        while nxt is not None and nxt.type in _COMMENT_TYPES:
            nxt = nxt.next_named_sibling
        if nxt is None or nxt.start_point[0] != n.end_point[0] + 1 or \
                (nxt.type in _LOOPS and nxt.children and nxt.children[-1].type == ")"):
            continue
        between = data[n.end_byte:nxt.start_byte]
        if between.strip():
            continue
        edits.append((n.end_byte, n.end_byte, b" {"))
        edits.append((nxt.end_byte, nxt.end_byte, b" }"))
    return edits


#: ``X.addAll(listOf(y))`` as a statement is ``X.add(y)`` (one element added either way)
def _add_all_one(tree, data: bytes) -> list:
    """``xs.addAll(listOf(y))`` standing as a statement (its result unused) is ``xs.add(y)``: one element is added
    in both (``y`` read once either way)."""
    edits = []
    for n in _walk(tree.root_node):
        if n.parent is None or n.parent.type not in ("block", "statements", "control_structure_body"):
            continue
        parts = _nav_call(n)
        if parts is None or parts[1] != "addAll" or len(parts[2]) != 1:
            continue
        arg = parts[2][0]
        if arg.type != "call_expression" or len(arg.named_children) != 2 or arg.named_children[0].type not in _ID or \
                _t(arg.named_children[0]) not in ("listOf", "setOf", "mutableListOf", "arrayListOf") or \
                arg.named_children[1].type != "value_arguments":
            continue
        vals = arg.named_children[1].named_children
        if len(vals) != 1 or vals[0].type != "value_argument" or len(vals[0].named_children) != 1:
            continue
        callee = n.named_children[0]
        name = callee.named_children[1]
        edits.append((name.start_byte, name.end_byte, b"add"))
        edits.append((arg.start_byte, arg.end_byte, vals[0].named_children[0].text))
    return edits


def _elvis_zero_plus(tree, data: bytes) -> list:
    """``(a ?: 0) + e`` (``a`` a name, ``e`` read-only: ``_simple``) is ``if (a == null) e else a + e``: with ``a``
    null the sum is ``0 + e``, which is ``e``."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type not in ("binary_expression", "additive_expression") or len(n.children) != 3 or \
                n.children[1].type != "+" or not _one_line(n):
            continue
        left, e = n.children[0], n.children[2]
        while left.type == "parenthesized_expression" and len(left.named_children) == 1:
            left = left.named_children[0]
        if left.type not in ("binary_expression", "elvis_expression") or len(left.children) != 3 or \
                left.children[1].type != "?:" or _t(left.children[2]) != "0" or left.children[0].type not in _ID or \
                not _simple(e):
            continue
        a = left.children[0].text
        text = b"if (" + a + b" == null) " + e.text + b" else " + a + b" + " + e.text
        whole = n.parent is not None and (n.parent.type in _WHOLE + ("lambda_literal", "statements") or
                                          n.parent.type == "block")
        edits.append((n.start_byte, n.end_byte, text if whole else b"(" + text + b")"))
    return edits


def _it_reads_plain(lam) -> bool:
    """Every ``it`` of a lambda's own scope read as the receiver of a plain ``.`` (so ``it`` is never null there)."""
    seen = False
    for x in _walk(lam):
        if x.type in _ID and _t(x) == "it":
            if any(a.type in _LAMBDA for a in _ancestors(x) if a.start_byte > lam.start_byte):
                continue
            p = x.parent
            if p is None or p.type != "navigation_expression" or p.named_children[0] != x or \
                    not any(c.type == "." for c in p.children):
                return False
            seen = True
    return seen


def _find_let_return(tree, data: bytes) -> list:
    """``xs.find { p }?.let { return r }`` standing as a statement (both lambdas without parameters, ``p`` reading
    ``it`` only through a plain ``.``, so the element found is never null) is the loop ``for (it in xs) { if (p)
    return r }``: ``p`` is asked of the elements in the same order, and the first that passes is returned with;
    with none, both go on after the statement."""
    edits = []
    for n in _walk(tree.root_node):
        if n.type != "call_expression" or n.parent is None or n.parent.type not in ("block", "statements") or \
                len(n.named_children) != 2 or not _one_line(n):
            continue
        callee, let_lam = n.named_children
        if callee.type != "navigation_expression" or len(callee.named_children) != 2 or \
                _t(callee.named_children[1]) != "let" or not any(_t(c) == "?." for c in callee.children) or \
                let_lam.type != "annotated_lambda":
            continue
        inner = _nav_call_lambda(callee.named_children[0])
        if inner is None or inner[1] != "find" or not _simple(inner[0]):
            continue
        find_lam = callee.named_children[0].named_children[1]
        p = _lambda_body(find_lam)
        lam = let_lam.named_children[0] if let_lam.named_children else None
        if p is None or lam is None or any(c.type == "lambda_parameters" for c in lam.children):
            continue
        body = [c for c in lam.named_children if c.type not in _COMMENT_TYPES]
        if len(body) == 1 and body[0].type == "statements":
            body = [c for c in body[0].named_children if c.type not in _COMMENT_TYPES]
        if len(body) != 1 or body[0].type not in ("jump_expression", "return_expression") or \
                not _t(body[0]).startswith("return") or _t(body[0]).startswith("return@") or \
                not _it_reads_plain(find_lam.named_children[0]):
            continue
        text = b"for (it in " + inner[0].text + b") { if (" + p.text + b") " + body[0].text + b" }"
        edits.append((n.start_byte, n.end_byte, text))
    return edits


#: a map property declared with values that are never null: ``val m = HashMap<K, V>()`` (also ``LinkedHashMap``,
#: ``mutableMapOf<K, V>()``, ``hashMapOf``) or ``val m: (Mutable|Hash|LinkedHash)Map<K, V> = …``, ``V`` without ``?``
_MAP_DECL = re.compile(rb"\b(?:val|var)\s+(\w+)\s*(?::\s*(?:kotlin\.collections\.)?(?:Mutable|Hash|LinkedHash)?Map\s*"
                       rb"<\s*[\w.]+\s*,\s*[\w.]+(\??)\s*>\s*)?=\s*(?:(?:java\.util\.)?(?:HashMap|LinkedHashMap)|"
                       rb"mutableMapOf|hashMapOf|linkedMapOf)\s*(?:<\s*[\w.]+\s*,\s*[\w.]+(\??)\s*>)?\s*\(\s*\)")


def _never_null_maps(data: bytes) -> set:
    """The names of the file's map properties whose values are never null (``_MAP_DECL``; a name declared twice, or
    with a nullable or unstated value type, is left out)."""
    seen: dict = {}
    for m in _MAP_DECL.finditer(data):
        typed = m.group(2) is not None or m.group(3) is not None
        ok = typed and not (m.group(2) or m.group(3))
        seen[m.group(1)] = ok and m.group(1) not in seen
    return {n.decode() for n, ok in seen.items() if ok}


def _get_or_default(tree, data: bytes) -> list:
    """``m.getOrDefault(k, d)`` of a map ``m`` of the file whose values are never null (``_never_null_maps``), ``k``
    and ``d`` read-only (``_simple``, or a literal), is ``m[k] ?: d``: with no null value stored, the map holds ``k``
    exactly when ``m[k]`` is not null."""
    maps = None
    edits = []
    for n in _walk(tree.root_node):
        parts = _nav_call(n)
        if parts is None or parts[1] != "getOrDefault" or len(parts[2]) != 2 or parts[0].type not in _ID:
            continue
        if maps is None:
            maps = _never_null_maps(data)
        k, d = parts[2]
        if _t(parts[0]) not in maps or not all(_simple(x) or x.type in ("string_literal", "boolean_literal",
                                                                         "long_literal", "real_literal")
                                               for x in (k, d)):
            continue
        fun, _lam = _fun_of(n)
        if fun is not None and any(_t(parts[0]) in _declared(a) for a in [fun] + list(_ancestors(n))
                                   if a.type in _FUN + _LAMBDA):
            continue                                        # (a local of that name: another map)
        text = parts[0].text + b"[" + k.text + b"] ?: " + d.text
        whole = n.parent is not None and n.parent.type in _WHOLE + ("return_expression",)
        edits.append((n.start_byte, n.end_byte, text if whole else b"(" + text + b")"))
    return edits


# ------------------------------------------------------------------------------------------- stop 47 rewrites
#: parents under which an ``if`` expression or a ``!x`` stands as written (no operator binds to it from outside)
_WHOLE_VALUE_PARENTS = ("lambda_literal", "statements", "block", "property_declaration", "value_argument",
                        "parenthesized_expression", "jump_expression", "function_body", "assignment",
                        "control_structure_body")


def _not_call(tree, data: bytes) -> list:
    """``e.not()`` (a plain ``.``, no argument, no trailing lambda) is ``!e``: ``!`` is the ``not`` operator
    function. Not made where the call is itself a receiver (``e.not().f``: ``!e.f`` would read ``e.f``)."""
    edits = []
    for n in _walk(tree.root_node):
        nc = _nav_call(n)
        if nc is None or nc[1] != "not" or nc[2] or not _one_line(n):
            continue
        p = n.parent
        if p is not None and p.type == "navigation_expression" and p.named_children and p.named_children[0] == n:
            continue
        recv = nc[0]
        text = recv.text if recv.type in _ID + ("navigation_expression", "parenthesized_expression",
                                                "call_expression", "this_expression") \
            or (recv.type == "unary_expression" and recv.children[-1].type == "!!") else b"(" + recv.text + b")"
        edits.append((n.start_byte, n.end_byte, b"!" + text))
    return edits


def _nonnull_results(tree) -> dict:
    """``{name: every declared result type is non-null}`` over the file's functions with a declared result."""
    out: dict = {}
    for f in _walk(tree.root_node):
        if f.type not in _FUN:
            continue
        kids = f.children
        name = next((_t(c) for c in kids if c.type in _ID), None)
        colon = [i for i, c in enumerate(kids) if c.type == ":"]
        params = [i for i, c in enumerate(kids) if c.type == "function_value_parameters"]
        if name is None or not params or not colon or colon[-1] < params[0] or colon[-1] + 1 >= len(kids):
            out[name] = False if name is not None else out.get(name)
            continue
        ty = kids[colon[-1] + 1]
        ok = ty.type in ("user_type", "type") and not ty.text.rstrip().endswith(b"?") and b"?" not in ty.text
        out[name] = out.get(name, True) and ok
    return out


def _safe_cast_elvis(tree, data: bytes) -> list:
    """``(x as? T)?.f(a, …) ?: d`` (``x`` a name, ``f`` declared in the file with a non-null result every time it
    is declared there, so ``?:`` is taken exactly when the cast fails) is ``if (x is T) x.f(a, …) else d``."""
    edits, results = [], None
    for n in _walk(tree.root_node):
        kids = n.children
        if n.type != "binary_expression" or len(kids) != 3 or kids[1].type != "?:" or not _one_line(n):
            continue
        call = kids[0]
        if call.type != "call_expression" or len(call.named_children) != 2:
            continue
        callee, args = call.named_children
        if callee.type != "navigation_expression" or args.type != "value_arguments" or \
                [c.type for c in callee.children if not c.is_named] != ["?."] or len(callee.named_children) != 2:
            continue
        par, fname = callee.named_children
        inner = par.named_children[0] if par.type == "parenthesized_expression" and par.named_children else None
        if inner is None or inner.type != "as_expression" or len(inner.children) != 3 or \
                inner.children[1].type != "as?" or inner.children[0].type not in _ID or fname.type not in _ID:
            continue
        if results is None:
            results = _nonnull_results(tree)
        if not results.get(_t(fname)):
            continue
        x, ty = inner.children[0].text, inner.children[2].text
        text = b"if (" + x + b" is " + ty + b") " + x + b"." + fname.text + args.text + b" else " + kids[2].text
        p = n.parent
        if p is None or p.type not in _WHOLE_VALUE_PARENTS:
            text = b"(" + text + b")"
        edits.append((n.start_byte, n.end_byte, text))
    return edits


# ------------------------------------------------------------------------------------------- stop 48 rewrites
_LOG_RECEIVERS = frozenset({"log", "logger", "LOG", "Log"})
_DECLS = ("property_declaration", "function_declaration", "class_declaration", "object_declaration",
          "multi_variable_declaration")
_NUMERIC_VAR = re.compile(rb"\bvar\s+(\w+)\s*(?::\s*(?:Int|Long|Short|Byte)\s*)?=\s*-?\d+[lL]?\s*(?:$|[;\n/}])", re.M)
_NUMERIC_TYPED = re.compile(rb"\bvar\s+(\w+)\s*:\s*(?:Int|Long|Short|Byte)\b(?!\s*\?)")
_ANY_DECL = re.compile(rb"\b(?:val|var|fun)\s+(?:<[^>]*>\s*)?(\w+)|\b(\w+)\s*:\s*[\w.<>?]+\s*[,)=]|\bfor\s*\(\s*(\w+)"
                       rb"|[{,]\s*(\w+)\s*(?:,|->)")


def _is_log(n) -> bool:
    """A log line standing as a statement: ``logger.info(…)`` (a receiver of ``_LOG_RECEIVERS``): no rule."""
    if n.type != "call_expression" or not n.named_children:
        return False
    callee = n.named_children[0]
    return callee.type == "navigation_expression" and bool(callee.named_children) and \
        callee.named_children[0].type in _ID and _t(callee.named_children[0]) in _LOG_RECEIVERS


def _flat(b: bytes) -> bytes:
    return re.sub(rb"\s+", b" ", b).strip()


def _is_statement(n) -> bool:
    return n.parent is not None and n.parent.type in ("block", "statements")


def _value_unused(n) -> bool:
    """Whether the value of statement ``n`` is never read: it is not the last statement of its block, or its block
    is a function's block body or a loop's body, or an ``if`` / ``else`` branch of an ``if`` whose own value is never
    read (a lambda's or an ``if`` expression's last statement is its value)."""
    if not _is_statement(n):
        return False
    blk = n.parent
    if blk.type == "statements":
        if blk.parent is not None and blk.parent.type in _LAMBDA:
            return n.next_named_sibling is not None
        blk = blk.parent if blk.parent is not None and blk.parent.type == "block" else blk
    nxt = n.next_named_sibling
    while nxt is not None and nxt.type in _COMMENT_TYPES:
        nxt = nxt.next_named_sibling
    if nxt is not None:
        return True
    p = blk.parent
    if p is None:
        return False
    if p.type == "function_body":
        return True
    if p.type == "control_structure_body":
        p = p.parent
    if p is not None and p.type in ("for_statement", "while_statement", "do_while_statement"):
        return True
    if p is not None and p.type == "if_expression":
        return _value_unused(p)
    return False


def _numeric_vars(data: bytes) -> set:
    """The names the file declares only as integer ``var``s (``var n = 0``, ``var n: Int``): ``n++``, ``n += 1`` and
    ``n = n + 1`` of such a name are one step of the same number. A name declared any other way anywhere in the file
    (a ``val``, a parameter, a lambda's or loop's variable, a function) is left out."""
    num = {m.group(1) for m in _NUMERIC_VAR.finditer(data)} | {m.group(1) for m in _NUMERIC_TYPED.finditer(data)}
    decls: dict = {}
    for m in _ANY_DECL.finditer(data):
        name = next(g for g in m.groups() if g is not None)
        decls[name] = decls.get(name, 0) + 1
    var_count: dict = {}
    for m in re.finditer(rb"\bvar\s+(\w+)", data):
        var_count[m.group(1)] = var_count.get(m.group(1), 0) + 1
    return {n.decode() for n in num if decls.get(n, 0) == var_count.get(n, 0) == 1}


def _step_target(n, nums: set):
    """The text of ``x`` / ``this.x`` when ``n`` is such a name of ``nums``, else None."""
    if n.type in _ID and _t(n) in nums:
        return n.text
    if n.type == "navigation_expression" and len(n.named_children) == 2 and \
            n.named_children[0].type in ("this_expression", "this") and _t(n.named_children[0]) == "this" and \
            n.named_children[1].type in _ID and _t(n.named_children[1]) in nums and \
            [c.type for c in n.children if not c.is_named] == ["."]:
        return n.text
    return None


def _unit_step(n, nums: set):
    """``(target, op)`` of ``x++`` / ``++x`` / ``x--`` / ``--x`` of an integer ``var`` of the file, else None."""
    if n.type not in ("unary_expression", "prefix_expression", "postfix_expression") or len(n.children) != 2:
        return None
    a, b = n.children
    op, x = (a.type, b) if a.type in ("++", "--") else (b.type, a) if b.type in ("++", "--") else (None, None)
    if op is None:
        return None
    tgt = _step_target(x, nums)
    return (tgt, b"+=" if op == "++" else b"-=") if tgt is not None else None


def _integer_steps(tree, data: bytes) -> list:
    """One step of an integer ``var`` of the file (``_numeric_vars``) written one way: ``x++``, ``++x`` and ``x = x +
    e`` standing as statements are ``x += 1`` / ``x += e`` (``--``, ``-`` alike; for an integer each stores the same
    number), and ``return ++x`` is ``x += 1; return x`` (the new value returned either way)."""
    nums = None
    edits = []
    for n in _walk(tree.root_node):
        if not _one_line(n):
            continue
        if n.type in ("unary_expression", "prefix_expression", "postfix_expression") and _is_statement(n) and \
                _value_unused(n):
            if nums is None:
                nums = _numeric_vars(data)
            st = _unit_step(n, nums)
            if st is not None:
                edits.append((n.start_byte, n.end_byte, st[0] + b" " + st[1] + b" 1"))
        elif n.type == "assignment" and _is_statement(n) and len(n.children) == 3 and n.children[1].type == "=":
            if nums is None:
                nums = _numeric_vars(data)
            tgt = _step_target(n.children[0], nums)
            val = n.children[2]
            if tgt is None or val.type not in ("binary_expression", "additive_expression") or \
                    len(val.children) != 3 or val.children[1].type not in ("+", "-"):
                continue
            left, op, right = val.children
            if _flat(left.text) == _flat(tgt):
                edits.append((n.start_byte, n.end_byte, tgt + b" " + op.type.encode() + b"= " + right.text))
            elif op.type == "+" and _flat(right.text) == _flat(tgt) and right.type not in ("string_literal",):
                edits.append((n.start_byte, n.end_byte, tgt + b" += " + left.text))
        elif n.type in ("return_expression", "jump_expression") and _is_statement(n) and \
                _t(n).startswith("return ") and len(n.named_children) == 1:
            if nums is None:
                nums = _numeric_vars(data)
            v = n.named_children[0]
            if v.type not in ("unary_expression", "prefix_expression") or not v.children or \
                    v.children[0].type not in ("++", "--"):
                continue
            st = _unit_step(v, nums)
            if st is not None:
                edits.append((n.start_byte, n.end_byte, st[0] + b" " + st[1] + b" 1; return " + st[0]))
    return edits


def _unit_results(tree) -> dict:
    """``{name: True}`` for the file's functions that return nothing (a block body and no declared result, or a
    declared ``Unit``) wherever the file declares that name; False where one declaration may return a value."""
    out: dict = {}
    for f in _walk(tree.root_node):
        if f.type not in _FUN:
            continue
        name = next((_t(c) for c in f.children if c.type in _ID), None)
        if name is None:
            continue
        out[name] = out.get(name, True) and _returns_unit(f)
    return out


def _returns_unit(f) -> bool:
    kids = f.children
    params = [i for i, c in enumerate(kids) if c.type == "function_value_parameters"]
    colon = [i for i, c in enumerate(kids) if c.type == ":" and params and i > params[0]]
    body = next((c for c in kids if c.type == "function_body"), None)
    if colon:
        return colon[-1] + 1 < len(kids) and _flat(kids[colon[-1] + 1].text) == b"Unit"
    return body is not None and bool(body.children) and body.children[0].type != "="


_UNIT_CALLS = frozenset({"forEach", "forEachIndexed", "repeat"})


def _unit_expression_body(tree, data: bytes) -> list:
    """``fun f(…) = e`` with no declared result, ``e`` a call that returns nothing (``xs.forEach { }``,
    ``repeat(n) { }``, a same-file function that returns nothing: ``_unit_results``), is ``fun f(…) { e }``: the
    function returns ``Unit`` either way, after running ``e``."""
    units = None
    edits = []
    for f in _walk(tree.root_node):
        if f.type not in _FUN:
            continue
        kids = f.children
        body = next((c for c in kids if c.type == "function_body"), None)
        params = [i for i, c in enumerate(kids) if c.type == "function_value_parameters"]
        if body is None or not params or not body.children or body.children[0].type != "=" or \
                any(c.type == ":" for c in kids[params[0]:]) or len(body.named_children) != 1:
            continue
        e = body.named_children[0]
        if e.type != "call_expression" or not e.named_children:
            continue
        callee = e.named_children[0]
        name = callee.named_children[-1] if callee.type == "navigation_expression" and callee.named_children \
            else callee
        if name.type not in _ID:
            continue
        if _t(name) not in _UNIT_CALLS:
            if callee.type not in _ID:
                continue
            if units is None:
                units = _unit_results(tree)
            if not units.get(_t(name)):
                continue
        eq = body.children[0]
        edits.append((eq.start_byte, e.start_byte, b"{ "))
        edits.append((body.end_byte, body.end_byte, b" }"))
    return edits


def _branches(n):
    """The two blocks of an ``if (c) { … } else { … }`` (both in braces), else None."""
    kids = [c for c in n.children if c.type not in _COMMENT_TYPES]
    types = [c.type for c in kids]
    if "else" not in types:
        return None
    k = types.index("else")
    if k + 2 != len(kids):
        return None

    def block(x):
        if x.type == "control_structure_body" and len(x.named_children) == 1:
            x = x.named_children[0]
        return x if x.type == "block" else None
    a, b = block(kids[k - 1]), block(kids[k + 1])
    return (a, b) if a is not None and b is not None else None


def _rule_stmts(blk) -> list:
    return [s for s in _stmts(blk) if not _is_log(s)]


def _reads_only(stmt, names: set) -> bool:
    """Whether every name of ``names`` that ``stmt`` spells stands as the root of a chain of member reads
    (``m.id``) that is not called, assigned, stepped or passed itself."""
    for x in _walk(stmt):
        if x.type not in _ID or _t(x) not in names:
            continue
        top = x.parent
        if top is None or top.type != "navigation_expression" or top.named_children[0] != x or \
                [c.type for c in top.children if not c.is_named] != ["."]:
            return False
        while top.parent is not None and top.parent.type == "navigation_expression" and \
                top.parent.named_children[0] == top:
            top = top.parent
        p = top.parent
        if p is None or (p.type == "call_expression" and p.named_children[0] == top) or \
                (p.type == "assignment" and p.children[0] == top) or \
                p.type in ("unary_expression", "prefix_expression", "postfix_expression"):
            return False
    return True


def _declared_in(blocks) -> set:
    out = set()
    for b in blocks:
        for x in _walk(b):
            if x.type in ("variable_declaration", "parameter", "lambda_parameters", "multi_variable_declaration"):
                out.update(_t(i) for i in _walk(x) if i.type in _ID)
            elif x.type in _FUN:
                out.update(_t(i) for i in x.children if i.type in _ID)
    return out


def _file_vals(data: bytes) -> set:
    """The names the file declares only as ``val``s (a ``var`` of that name anywhere keeps it out)."""
    return {m.decode() for m in re.findall(rb"\bval\s+(\w+)", data)} - \
        {m.decode() for m in re.findall(rb"\bvar\s+(\w+)", data)}


def _hoist_common(tree, data: bytes) -> list:
    """A statement both branches of an ``if (c) { … } else { … }`` statement begin with (log lines aside: no rule) is
    that statement before the ``if`` — when ``c`` cannot throw or change anything (``_pure``), reads only the
    function's locals and parameters, and the statement spells them only as roots of member reads (so it cannot
    change what ``c`` reads; a root of ``c`` that is no local must be a ``val`` of the file, never a ``var``: a call
    cannot make such a name another value); one both end with is that statement after the ``if`` when the ``if``'s value is never
    read and the statement reads nothing the branches declare (it runs exactly when either branch runs to its end)."""
    edits, taken = [], []
    for n in _walk(tree.root_node):
        if n.type != "if_expression" or not _is_statement(n) or any(s <= n.start_byte < e for s, e in taken):
            continue
        br = _branches(n)
        cond = _cond_of(n)
        if br is None or cond is None:
            continue
        a, b = (_rule_stmts(x) for x in br)
        if not a or not b:
            continue
        s1, s2 = a[0], b[0]
        fun, _lam = _fun_of(n)
        if _one_line(s1) and _flat(s1.text) == _flat(s2.text) and s1.type not in _DECLS and _pure(cond) and \
                fun is not None:
            roots = {_t(x) for x in _walk(cond) if x.type in _ID and
                     (x.parent is None or x.parent.type != "navigation_expression" or x.parent.named_children[0] == x)}
            local = _declared(fun) | _file_vals(data)
            if roots and roots <= local and _reads_only(s1, {_t(x) for x in _walk(cond) if x.type in _ID}):
                edits += [(s1.start_byte, s1.end_byte, b""), (s2.start_byte, s2.end_byte, b""),
                          (n.start_byte, n.start_byte, _flat(s1.text) + b"; ")]
                taken.append((n.start_byte, n.end_byte))
                continue
        e1, e2 = a[-1], b[-1]
        if _one_line(e1) and _flat(e1.text) == _flat(e2.text) and e1.type not in _DECLS and _value_unused(n) and \
                not ({_t(x) for x in _walk(e1) if x.type in _ID} & _declared_in(br)):
            edits += [(e1.start_byte, e1.end_byte, b""), (e2.start_byte, e2.end_byte, b""),
                      (n.end_byte, n.end_byte, b"; " + _flat(e1.text))]
            taken.append((n.start_byte, n.end_byte))
    return edits
