"""Quiet transforms: how often the gate flags a Kotlin edit that keeps the game's meaning, measured in general.

    .venv/bin/python benchmarks/quiet_transforms.py --repo SERVER_REPO --out DIR [--per 12] [--seed 1]
                                                   [--only TRANSFORM,...] [--list] [--json out.json] [--jobs N]

Issue 24's quiet side: ``skillproof diff --kotlin REPO BASE HEAD`` must pass (exit 0) on an edit that does not change
the rules. Hand-written samples (``benchmarks/history/planted*.toml``) were each tuned to their misses; this script
writes the quiet edits itself, so the false-alarm rate can be measured on edits nobody tuned to. It parses the
rule-bearing files of the server's HEAD (``skill/``, ``card/``, ``phase/``, and ``Player.kt``, ``Game.kt``,
``Event.kt`` at the top) with the same tree-sitter grammar the extractor uses, finds the sites of each *transform* —
a rewrite a developer makes in a refactor that keeps what the code means (``TRANSFORMS`` below: renaming a local,
extracting or inlining a val, swapping the operands of ``==`` or of ``&&`` between pure terms, ``isEmpty`` / ``size
== 0``, ``filter { p }.size`` / ``count { p }``, the early ``return`` turned around, ``?.let`` / ``if (x != null)``,
``when`` with a subject as an ``if`` chain, ``for`` / ``forEach``, a log line added, removed or reworded, ``${x}`` /
``$x``, imports reordered, a comment and blank line added, ``it`` / a named lambda parameter, ``this.f()`` / ``f()``,
``firstOrNull { }`` / ``find { }``, de Morgan's laws on a negated junction, an ``if``/``else`` statement as a ``when``)
— picks ``--per`` of them per transform with a seeded random generator (the same cases on every machine), commits
each edit on its own branch ``quiet/TRANSFORM-N`` of a bare clone in DIR (author, committer and dates fixed, as
``planted.py`` does) and runs the gate on each (``history_bench.replay``: the command a CI job runs). An edit whose
file no longer parses without error is not a case (a site the rewrite does not fit), and neither is one that leaves
the file unchanged.

It prints one line a case (transform, file:line, exit code, what a flagged case names) and the table flagged / total
per transform and overall. With ``--list`` the cases are written and listed, the gate not run. Kotlin's own meaning is
kept by construction only as far as each transform's guards go (they are conservative: pure operands, no ``break`` in
a loop turned into ``forEach``, a name free in the file…); it is a benchmark, not part of the tests
(``tests/test_quiet_transforms.py`` checks the generator on one file).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from model.extract.syntax import _make_parser  # noqa: E402

PREFIX = "src/main/kotlin/"
RULE_DIRS = ("skill/", "card/", "phase/")
RULE_TOP = ("Player.kt", "Game.kt", "Event.kt")
IDENT = {"GIT_AUTHOR_NAME": "skillproof quiet", "GIT_AUTHOR_EMAIL": "quiet@skillproof.invalid",
         "GIT_COMMITTER_NAME": "skillproof quiet", "GIT_COMMITTER_EMAIL": "quiet@skillproof.invalid",
         "GIT_AUTHOR_DATE": "2024-04-01T00:00:00+0000", "GIT_COMMITTER_DATE": "2024-04-01T00:00:00+0000",
         "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
ENV_REPO = "SKILLPROOF_SERVER_REPO"


# ---------------------------------------------------------------------------------------------------------------
# syntax helpers

def t(n) -> str:
    return n.text.decode("utf-8")


def walk(n):
    yield n
    for c in n.children:
        yield from walk(c)


def named(n, *types):
    return [c for c in n.named_children if not types or c.type in types]


def ancestors(n):
    p = n.parent
    while p is not None:
        yield p
        p = p.parent


def line_start(data: bytes, i: int) -> int:
    return data.rfind(b"\n", 0, i) + 1


def indent_of(data: bytes, i: int) -> str:
    s = line_start(data, i)
    j = s
    while j < len(data) and data[j:j + 1] in (b" ", b"\t"):
        j += 1
    return data[s:j].decode()


#: nodes a pure term may hold: names, members, literals, comparisons and arithmetic, `!`, parentheses — no call
#: (a call may change state or read it), no `!!` (it throws), no safe call, no index (a map lookup is a call)
PURE = {"identifier", "navigation_expression", "number_literal", "string_literal", "string_content", "boolean_literal",
        "this_expression", "null", "parenthesized_expression", "binary_expression", "unary_expression", "character_literal",
        "this", "true", "false", ".", "(", ")", "==", "!=", "!", "<", ">", "<=", ">=", "+", "-", "&&", "||", "\"",
        "integer_literal", "long_literal", "real_literal", "boolean", "*", "/", "%", "===", "!=="}


def pure(n) -> bool:
    return all(x.type in PURE for x in walk(n)) and "?." not in t(n) and "!!" not in t(n)


def is_statement(n) -> bool:
    """A node that stands as a statement of a block (its parent is a block or a function/lambda body of statements)."""
    p = n.parent
    return p is not None and p.type in ("block", "statements", "lambda_literal", "source_file", "class_body")


def enclosing_fun(n):
    for a in ancestors(n):
        if a.type in ("function_declaration", "secondary_constructor", "anonymous_function", "getter", "setter"):
            return a
    return None


def uses(scope, name: str):
    """The identifier nodes spelling `name` in `scope` that are a name in use (not a member after `.`, not a named
    argument, not a declaration of something else's parameter)."""
    out = []
    for x in walk(scope):
        if x.type != "identifier" or t(x) != name:
            continue
        p = x.parent
        if p.type == "navigation_expression" and p.named_children and p.named_children[0] != x:
            continue                                  # a member: a.name
        if p.type in ("value_argument",) and x.next_sibling is not None and x.next_sibling.type == "=":
            return None                               # a named argument spelling the name: not a rename site
        if p.type in ("user_type", "type_identifier", "qualified_identifier", "import"):
            continue
        out.append(x)
    return out


def fresh_name(data: bytes, base: str) -> str:
    for suffix in ("Renamed", "Local", "Value", "Tmp"):
        cand = base + suffix
        if cand.encode() not in data:
            return cand
    return base + "Q" + str(len(data) % 97)


# ---------------------------------------------------------------------------------------------------------------
# transforms: each yields candidate edits, a list of (start byte, end byte, replacement) over the file

def _rename(decl_ids, data, tree):
    for idn, scope in decl_ids:
        name = t(idn)
        if name in ("it", "_", "this") or len(name) < 1:
            continue
        us = uses(scope, name)
        if not us or len(us) < 2:
            continue
        new = fresh_name(data, name)
        # the name must not be a member read implicitly elsewhere in the scope (a property of the class spelt alike
        # before the declaration): only uses after the declaration
        if any(u.start_byte < idn.start_byte for u in us if u != idn):
            continue
        yield [(u.start_byte, u.end_byte, new) for u in us]


def rename_local(data, tree):
    """Rename a local `val`/`var` and every use of it in its block."""
    decl = []
    for n in walk(tree.root_node):
        if n.type == "property_declaration" and n.parent is not None and n.parent.type in ("block", "statements",
                                                                                           "lambda_literal"):
            vd = named(n, "variable_declaration")
            if len(vd) == 1:
                idn = named(vd[0], "identifier")
                if idn:
                    decl.append((idn[0], n.parent))
    yield from _rename(decl, data, tree)


def rename_param(data, tree):
    """Rename a parameter of a function (not an override: callers may name its arguments) and its uses."""
    decl = []
    for n in walk(tree.root_node):
        if n.type != "function_declaration":
            continue
        mods = " ".join(t(m) for m in named(n, "modifiers"))
        if "override" in mods or "open" in mods or "abstract" in mods:
            continue
        body = named(n, "function_body")
        params = named(n, "function_value_parameters")
        if not body or not params:
            continue
        for p in named(params[0], "parameter"):
            idn = named(p, "identifier")
            if idn and "=" not in data[p.end_byte:p.end_byte + 4].decode("utf-8", "replace") \
                    and not re.search(rb"[(,]\s*" + t(idn[0]).encode() + rb"\s*=[^=]", data):
                decl.append((idn[0], n))
    fun_names = set()
    for n in walk(tree.root_node):
        if n.type == "function_declaration":
            ids = named(n, "identifier")
            if ids:
                fun_names.add(t(ids[0]))
    for edit in _rename(decl, data, tree):
        yield edit


def swap_eq(data, tree):
    """`a == b` as `b == a` (and `!=`), both sides pure terms."""
    for n in walk(tree.root_node):
        if n.type == "binary_expression" and len(n.children) == 3 and n.children[1].type in ("==", "!="):
            a, _op, b = n.children
            if pure(a) and pure(b) and t(a) != t(b) and a.type != "binary_expression" and b.type != "binary_expression":
                yield [(a.start_byte, a.end_byte, t(b)), (b.start_byte, b.end_byte, t(a))]


def swap_and(data, tree):
    """`a && b` as `b && a` (and `||`), both pure, neither a null test (a smart cast may read it)."""
    for n in walk(tree.root_node):
        if n.type == "binary_expression" and len(n.children) == 3 and n.children[1].type in ("&&", "||"):
            a, op, b = n.children
            if not (pure(a) and pure(b)) or "null" in t(a) or "null" in t(b) or " is " in t(n) \
                    or re.search(r"\b(continue|break|return|throw)\b", t(n)):
                continue
            if any(c.type == "binary_expression" and c.children[1].type in ("&&", "||") and c.children[1].type !=
                   op.type for c in (a, b)):
                continue
            if n.parent is not None and n.parent.type == "binary_expression" and n.parent.children[1].type == op.type:
                continue                              # part of a longer chain: swap the whole chain's ends instead
            yield [(a.start_byte, a.end_byte, t(b)), (b.start_byte, b.end_byte, t(a))]


def _call_name(n):
    """(receiver node, member name, value_arguments node or None, annotated_lambda or None) of `recv.name(...)`."""
    if n.type != "call_expression":
        return None
    kids = n.named_children
    if not kids or kids[0].type != "navigation_expression":
        return None
    nav = kids[0]
    if len(nav.children) != 3 or nav.children[1].type != ".":
        return None
    args = [k for k in kids[1:] if k.type == "value_arguments"]
    lam = [k for k in kids[1:] if k.type == "annotated_lambda"]
    return nav.children[0], t(nav.children[2]), args[0] if args else None, lam[0] if lam else None


def empty_size(data, tree):
    """`x.isEmpty()` ↔ `x.size == 0`, `x.isNotEmpty()` ↔ `x.size != 0` / `x.size > 0` (collections)."""
    for n in walk(tree.root_node):
        c = _call_name(n)
        if c and c[1] in ("isEmpty", "isNotEmpty") and c[2] is not None and t(c[2]) == "()" and c[3] is None:
            recv = c[0]
            if recv.type == "unary_expression" or not pure(recv) or "card" not in t(recv).lower() and \
                    "players" not in t(recv) and "messages" not in t(recv).lower() and "list" not in t(recv).lower():
                continue                              # a collection by its name (a string has `length`, not `size`)
            op = "==" if c[1] == "isEmpty" else "!="
            yield [(n.start_byte, n.end_byte, f"{t(recv)}.size {op} 0")]
        if n.type == "binary_expression" and len(n.children) == 3 and n.children[1].type in ("==", "!=", ">") \
                and t(n.children[2]) == "0" and n.children[0].type == "navigation_expression" \
                and t(n.children[0]).endswith(".size") and pure(n.children[0]):
            recv = t(n.children[0])[:-len(".size")]
            yield [(n.start_byte, n.end_byte, f"{recv}.{'isEmpty' if n.children[1].type == '==' else 'isNotEmpty'}()")]


def not_empty(data, tree):
    """`x.isNotEmpty()` ↔ `!x.isEmpty()`, `x.none { p }` ↔ `!x.any { p }`."""
    for n in walk(tree.root_node):
        c = _call_name(n)
        if not c or c[0].type == "unary_expression":
            continue
        recv, name, args, lam = c
        if name == "isNotEmpty" and args is not None and t(args) == "()" and lam is None:
            yield [(n.start_byte, n.end_byte, f"!{t(recv)}.isEmpty()")]
        if name == "none" and lam is not None and args is None:
            yield [(n.start_byte, n.end_byte, f"!{t(recv)}.any {t(lam)}")]
        if n.parent is not None and n.parent.type == "unary_expression" and t(n.parent).startswith("!") \
                and name == "isEmpty" and args is not None and t(args) == "()":
            pass


def filter_count(data, tree):
    """`filter { p }.size` ↔ `count { p }`, `filter { p }.isNotEmpty()` ↔ `any { p }`, `.isEmpty()` ↔ `none`."""
    for n in walk(tree.root_node):
        c = _call_name(n)
        if c and c[1] in ("count", "any", "none") and c[3] is not None and c[2] is None:
            recv, name, _a, lam = c
            nav = n.named_children[0]
            tail = {"count": ".size", "any": ".isNotEmpty()", "none": ".isEmpty()"}[name]
            yield [(nav.children[2].start_byte, nav.children[2].end_byte, "filter"), (n.end_byte, n.end_byte, tail)]
        if n.type == "navigation_expression" and len(n.children) == 3 and t(n.children[2]) == "size":
            inner = _call_name(n.children[0])
            if inner and inner[1] == "filter" and inner[3] is not None and inner[2] is None:
                fnav = n.children[0].named_children[0]
                yield [(fnav.children[2].start_byte, fnav.children[2].end_byte, "count"),
                       (n.children[0].end_byte, n.end_byte, "")]
        c2 = _call_name(n)
        if c2 and c2[1] in ("isNotEmpty", "isEmpty") and c2[2] is not None and t(c2[2]) == "()":
            inner = _call_name(c2[0])
            if inner and inner[1] == "filter" and inner[3] is not None and inner[2] is None:
                fnav = c2[0].named_children[0]
                yield [(fnav.children[2].start_byte, fnav.children[2].end_byte,
                        "any" if c2[1] == "isNotEmpty" else "none"), (c2[0].end_byte, n.end_byte, "")]


def _block_rest(stmt):
    """The statements after `stmt` in its block, and the block's closing brace."""
    p = stmt.parent
    kids = [k for k in p.named_children]
    i = kids.index(stmt)
    return kids[i + 1:]


def _jumps(n) -> bool:
    """Whether `n` holds a `break` or `continue` (identifiers in this grammar) or a labelled jump."""
    return any(x.type == "identifier" and re.match(r"(break|continue)\b", t(x)) or "@" in t(x) and x.type in (
        "return_expression",) for x in walk(n)) or re.search(r"\b(break|continue)\b", t(n)) is not None


def early_return(data, tree):
    """`if (c) return X` followed by the rest of a block → `if (!(c)) { rest } else return X` (the rest ends the
    block; when X is given, the rest ends in a return)."""
    for n in walk(tree.root_node):
        if n.type != "if_expression" or n.parent is None or n.parent.type not in ("block",):
            continue
        kids = named(n)
        if len(kids) != 2 or kids[1].type != "return_expression" or "else" in [c.type for c in n.children]:
            continue
        cond, ret = kids
        if "@" in t(ret):
            continue
        rest = _block_rest(n)
        rest = [r for r in rest if r.type not in ("line_comment", "block_comment")]
        if not rest or len(rest) > 12 or any(r.type in ("property_declaration",) for r in rest) and False:
            continue
        has_value = len(named(ret)) > 0
        if has_value and rest[-1].type != "return_expression":
            continue
        if _jumps(n.parent):
            continue
        ind = indent_of(data, n.start_byte)
        body_start, body_end = rest[0].start_byte, rest[-1].end_byte
        body = data[line_start(data, body_start):body_end].decode()
        body = "\n".join(("    " + ln if ln.strip() else ln) for ln in body.split("\n"))
        neg = f"!({t(cond)})" if cond.type != "unary_expression" else t(cond)[1:].strip()
        if cond.type == "unary_expression" and not t(cond).startswith("!"):
            neg = f"!({t(cond)})"
        else_part = f" else {t(ret)}" if has_value else ""
        new = f"if ({neg}) {{\n{body}\n{ind}}}{else_part}"
        yield [(n.start_byte, body_end, new)]


def let_if(data, tree):
    """`if (x != null) { body }` (a statement, no else, x a local name) ↔ `x?.let { body }` (body without `it`)."""
    for n in walk(tree.root_node):
        if n.type == "if_expression" and n.parent is not None and n.parent.type == "block" \
                and "else" not in [c.type for c in n.children]:
            kids = named(n)
            if len(kids) != 2:
                continue
            cond, body = kids
            if cond.type == "binary_expression" and t(cond.children[1]) == "!=" and t(cond.children[2]) == "null" \
                    and cond.children[0].type == "identifier":
                x = t(cond.children[0])
                if re.search(rb"\bvar\s+" + x.encode() + rb"\b", data):
                    continue                          # a var: the lambda would capture a changing local
                if _jumps(body) or re.search(r"\bit\b", t(body)) or "return" in t(body):
                    continue
                inner = t(body)
                if body.type == "block":
                    inner = inner.strip()[1:-1].strip("\n").rstrip()
                    yield [(n.start_byte, n.end_byte, f"{x}?.let {{\n{inner}\n{indent_of(data, n.start_byte)}}}")]
                else:
                    yield [(n.start_byte, n.end_byte, f"{x}?.let {{ {inner} }}")]
        if n.type == "call_expression" and is_statement(n) and n.parent.type == "block":
            kids = n.named_children
            if len(kids) != 2 or kids[0].type != "navigation_expression" or kids[1].type != "annotated_lambda":
                continue
            nav = kids[0]
            if len(nav.children) != 3 or nav.children[1].type != "?." or t(nav.children[2]) != "let" \
                    or nav.children[0].type != "identifier":
                continue
            lam = named(kids[1], "lambda_literal")
            if not lam or named(lam[0], "lambda_parameters"):
                continue
            x = t(nav.children[0])
            if any(w.type == "lambda_literal" for w in walk(lam[0]) if w != lam[0]) or "return" in t(lam[0]):
                continue
            its = [w for w in walk(lam[0]) if w.type == "identifier" and t(w) == "it"]
            body = t(lam[0])[1:-1]
            off = lam[0].start_byte + 1
            b = data[off:lam[0].end_byte - 1]
            for w in sorted(its, key=lambda w: -w.start_byte):
                b = b[:w.start_byte - off] + x.encode() + b[w.end_byte - off:]
            yield [(n.start_byte, n.end_byte, f"if ({x} != null) {{{b.decode()}}}")]
            del body


def when_if(data, tree):
    """`when (s) { A -> x; B, C -> y; is T -> z; else -> w }` (s a pure name, an else branch) → an if/else chain."""
    for n in walk(tree.root_node):
        if n.type != "when_expression":
            continue
        subj = named(n, "when_subject")
        if not subj:
            continue
        sk = named(subj[0])
        if len(sk) != 1 or not pure(sk[0]) or sk[0].type == "property_declaration":
            continue
        s = t(sk[0])
        entries = named(n, "when_entry")
        if not entries or "else" not in [c.type for c in entries[-1].children]:
            continue
        parts = []
        ok = True
        for e in entries:
            arrow = [i for i, c in enumerate(e.children) if c.type == "->"]
            if not arrow:
                ok = False
                break
            conds = [c for c in e.children[:arrow[0]] if c.is_named]
            body = e.children[arrow[0] + 1:]
            body = [b for b in body if b.is_named]
            if len(body) != 1:
                ok = False
                break
            bt = t(body[0])
            if "else" in [c.type for c in e.children[:arrow[0]]]:
                parts.append((None, bt))
                continue
            cs = []
            for c in conds:
                if c.type == "type_test":
                    cs.append(f"{s} {t(c)}")
                elif c.type == "range_test":
                    cs.append(f"{s} {t(c)}")
                elif pure(c):
                    cs.append(f"{s} == {t(c)}")
                else:
                    ok = False
            if not ok or not cs:
                ok = False
                break
            parts.append((" || ".join(cs), bt))
        if not ok or parts[-1][0] is not None:
            continue
        out = ""
        for i, (c, b) in enumerate(parts):
            bb = b if b.startswith("{") else f"{{ {b} }}" if "\n" not in b else "{\n" + b + "\n}"
            if c is None:
                out += f" else {bb}"
            else:
                out += ("" if i == 0 else " else ") + f"if ({c}) {bb}"
        yield [(n.start_byte, n.end_byte, out)]


def for_each(data, tree):
    """`for (x in l) body` ↔ `l.forEach { x -> body }` (statements; no break / continue / labelled return)."""
    for n in walk(tree.root_node):
        if n.type == "for_statement" and n.parent is not None and n.parent.type == "block":
            vd = named(n, "variable_declaration")
            kids = named(n)
            if len(vd) != 1 or len(kids) != 3 or "(" in t(vd[0]) or _jumps(kids[2]):
                continue
            rng, body = kids[1], kids[2]
            if "@" in t(body):
                continue
            recv = t(rng) if rng.type in ("identifier", "navigation_expression", "call_expression") else f"({t(rng)})"
            if ".." in t(rng) or " until " in t(rng) or " downTo " in t(rng):
                recv = f"({t(rng)})"
            b = t(body)
            if body.type == "block":
                inner = b.strip()[1:-1]
                yield [(n.start_byte, n.end_byte, f"{recv}.forEach {{ {t(vd[0])} ->{inner}}}")]
            else:
                yield [(n.start_byte, n.end_byte, f"{recv}.forEach {{ {t(vd[0])} -> {b} }}")]
        c = _call_name(n)
        if c and c[1] == "forEach" and c[3] is not None and c[2] is None and n.parent is not None \
                and n.parent.type == "block" and "?." not in t(n.named_children[0]):
            lam = named(c[3], "lambda_literal")
            if not lam or "return" in t(lam[0]):
                continue
            ps = named(lam[0], "lambda_parameters")
            if ps:
                vds = named(ps[0], "variable_declaration")
                if len(vds) != 1 or "(" in t(ps[0]):
                    continue
                var = t(vds[0])
                stmts_start = ps[0].end_byte
                arrow = data.find(b"->", stmts_start)
                inner = data[arrow + 2:lam[0].end_byte - 1].decode()
            else:
                if any(w.type == "lambda_literal" and w != lam[0] and not named(w, "lambda_parameters")
                       and re.search(r"\bit\b", t(w)) for w in walk(lam[0])):
                    continue
                var = "it"
                inner = data[lam[0].start_byte + 1:lam[0].end_byte - 1].decode()
            yield [(n.start_byte, n.end_byte, f"for ({var} in {t(c[0])}) {{{inner}}}")]


LOG_RE = re.compile(r"^(logger|log)\.(info|debug|error|warn)\(")


def log_line(data, tree):
    """Add a log line before a statement, remove one that stands alone in a block of several, or reword one."""
    text = data.decode()
    if "logger." not in text:
        return
    for n in walk(tree.root_node):
        if n.parent is None or n.parent.type != "block":
            continue
        if n.type == "call_expression" and LOG_RE.match(t(n)):
            sib = [k for k in n.parent.named_children if k.type not in ("line_comment", "block_comment")]
            if len(sib) > 2:
                ls = line_start(data, n.start_byte)
                yield [(ls, n.end_byte + (1 if data[n.end_byte:n.end_byte + 1] == b"\n" else 0), "")]
            strs = [w for w in walk(n) if w.type == "string_literal"]
            if strs:
                s = strs[0]
                yield [(s.end_byte - 1, s.end_byte - 1, " (checked)")]
        elif n.type in ("call_expression", "property_declaration", "assignment") and "\n" not in t(n):
            ind = indent_of(data, n.start_byte)
            ls = line_start(data, n.start_byte)
            if data[ls:n.start_byte].strip():
                continue
            yield [(ls, ls, f'{ind}logger.info("quiet transform checkpoint")\n')]


def template(data, tree):
    """`${x}` ↔ `$x` in a string template, x a simple name."""
    for n in walk(tree.root_node):
        if n.type == "interpolation":
            ks = named(n)
            if len(ks) == 1 and ks[0].type == "identifier":
                nxt = data[n.end_byte:n.end_byte + 1]
                if not re.match(rb"[A-Za-z0-9_]", nxt or b" "):
                    yield [(n.start_byte, n.end_byte, "$" + t(ks[0]))]
        if n.type == "string_content" and t(n) == "$":
            nx = n.next_sibling
            if nx is not None and nx.type == "string_content":
                m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", t(nx))
                if m:
                    yield [(n.start_byte, nx.start_byte + m.end(), "${" + m.group(0) + "}")]


def imports(data, tree):
    """The import lines in another order (reversed)."""
    imps = [n for n in tree.root_node.named_children if n.type == "import"]
    if len(imps) >= 2:
        s, e = imps[0].start_byte, imps[-1].end_byte
        lines = data[s:e].decode().split("\n")
        if all(LINE_IMPORT.match(ln) for ln in lines):
            yield [(s, e, "\n".join(reversed(lines)))]


LINE_IMPORT = re.compile(r"^import [\w.`*]+( as \w+)?$")


def comment(data, tree):
    """A comment line and a blank line before a statement of a function body."""
    for n in walk(tree.root_node):
        if n.parent is not None and n.parent.type == "block" and n.is_named and n.type not in (
                "line_comment", "block_comment"):
            ls = line_start(data, n.start_byte)
            if data[ls:n.start_byte].strip():
                continue
            ind = indent_of(data, n.start_byte)
            yield [(ls, ls, f"\n{ind}// quiet transform: a note for the reader\n")]


def it_named(data, tree):
    """A lambda's implicit `it` ↔ a named parameter (no nested lambda using its own `it`)."""
    for lam in walk(tree.root_node):
        if lam.type != "lambda_literal":
            continue
        ps = named(lam, "lambda_parameters")
        nested = [w for w in walk(lam) if w.type == "lambda_literal" and w != lam]
        if ps:
            vds = named(ps[0], "variable_declaration")
            if len(vds) != 1 or ":" in t(ps[0]) or "(" in t(ps[0]) or t(vds[0]) == "_":
                continue
            x = t(vds[0])
            if re.search(r"\bit\b", t(lam)) or any(named(w, "lambda_parameters") == [] for w in nested):
                continue
            us = uses(lam, x)
            if us is None:
                continue
            us = [u for u in us if u.start_byte > ps[0].end_byte]
            arrow = data.find(b"->", ps[0].end_byte)
            ed = [(ps[0].start_byte, arrow + 2 + (1 if data[arrow + 2:arrow + 3] == b" " else 0), "")]
            ed += [(u.start_byte, u.end_byte, "it") for u in us]
            yield ed
        else:
            if any(not named(w, "lambda_parameters") for w in nested):
                continue
            its = [w for w in walk(lam) if w.type == "identifier" and t(w) == "it"]
            if not its:
                continue
            new = "elem" if b"elem" not in data else fresh_name(data, "elem")
            ed = [(lam.start_byte + 1, lam.start_byte + 1, f" {new} ->")]
            ed += [(w.start_byte, w.end_byte, new) for w in its]
            yield ed


def this_call(data, tree):
    """`this.f(...)` ↔ `f(...)` for a function of the enclosing class, outside any lambda."""
    for cls in walk(tree.root_node):
        if cls.type not in ("class_declaration", "object_declaration"):
            continue
        body = named(cls, "class_body")
        if not body:
            continue
        funs = {t(named(f, "identifier")[0]) for f in named(body[0], "function_declaration") if named(f, "identifier")}
        props = {t(named(v, "identifier")[0]) for p in named(body[0], "property_declaration")
                 for v in named(p, "variable_declaration") if named(v, "identifier")}
        for n in walk(body[0]):
            if n.type != "call_expression":
                continue
            inner = [a for a in ancestors(n)]
            upto = inner[:inner.index(body[0])] if body[0] in inner else []
            if any(a.type in ("lambda_literal", "class_declaration", "object_declaration", "object_literal",
                              "anonymous_function") for a in upto):
                continue
            f = enclosing_fun(n)
            k = n.named_children[0]
            if k.type == "identifier" and t(k) in funs and f is not None:
                local = {t(x) for x in walk(f) if x.type == "identifier" and x.parent.type in (
                    "variable_declaration", "parameter")}
                if t(k) in local or t(k) in props:
                    continue
                yield [(k.start_byte, k.start_byte, "this.")]
            if k.type == "navigation_expression" and len(k.children) == 3 and k.children[0].type == "this_expression" \
                    and t(k.children[0]) == "this" and t(k.children[2]) in funs and f is not None:
                yield [(k.start_byte, k.children[2].start_byte, "")]


def extract_val(data, tree):
    """The condition of an `if` statement into a local val before it, or a pure val used once in the next
    statement inlined there."""
    for n in walk(tree.root_node):
        if n.type == "if_expression" and n.parent is not None and n.parent.type == "block":
            ls = line_start(data, n.start_byte)
            if data[ls:n.start_byte].strip():
                continue
            cond = named(n)[0]
            if cond.type in ("identifier",) or "\n" in t(cond):
                continue
            ind = indent_of(data, n.start_byte)
            name = fresh_name(data, "cond")
            yield [(ls, ls, f"{ind}val {name} = {t(cond)}\n"), (cond.start_byte, cond.end_byte, name)]
        if n.type == "property_declaration" and n.parent is not None and n.parent.type == "block" \
                and t(n).startswith("val "):
            vd = named(n, "variable_declaration")
            if len(vd) != 1 or ":" in t(vd[0]):
                continue
            init = [k for k in named(n) if k.type not in ("variable_declaration", "modifiers")]
            if len(init) != 1 or not pure(init[0]) or "\n" in t(init[0]):
                continue
            name = t(named(vd[0], "identifier")[0])
            rest = _block_rest(n)
            us = uses(n.parent, name)
            if not us or not rest:
                continue
            us = [u for u in us if u.start_byte > n.end_byte]
            if len(us) != 1 or not (rest[0].start_byte <= us[0].start_byte < rest[0].end_byte):
                continue
            if any(a.type in ("lambda_literal", "for_statement", "while_statement") for a in ancestors(us[0])
                   if a.start_byte >= rest[0].start_byte):
                continue
            if any(x.type == "call_expression" for x in walk(rest[0]) if x.start_byte < us[0].start_byte):
                continue                              # something evaluated before the use could change what it reads
            rep = t(init[0]) if init[0].type in ("identifier", "navigation_expression") else f"({t(init[0])})"
            ls = line_start(data, n.start_byte)
            end = n.end_byte + (1 if data[n.end_byte:n.end_byte + 1] == b"\n" else 0)
            yield [(ls, end, ""), (us[0].start_byte, us[0].end_byte, rep)]


def find_first(data, tree):
    """`l.firstOrNull { p }` ↔ `l.find { p }` (the same function of the standard library)."""
    other = {"firstOrNull": "find", "find": "firstOrNull"}
    for n in walk(tree.root_node):
        if n.type == "call_expression" and any(c.type == "annotated_lambda" for c in n.children):
            callee = n.children[0]
            if callee.type == "navigation_expression" and callee.named_children and \
                    t(callee.named_children[-1]) in other and not any(c.type == "value_arguments" for c in n.children):
                nm = callee.named_children[-1]
                yield [(nm.start_byte, nm.end_byte, other[t(nm)])]


def _negated(n):
    """The text of `!n` for a part of a junction, or None: `a == b` flipped, a name, member or call prefixed."""
    if n.type == "binary_expression" and len(n.children) == 3 and n.children[1].type in ("==", "!=", "===", "!=="):
        a, op, b = n.children
        flip = {"==": "!=", "!=": "==", "===": "!==", "!==": "==="}[op.type]
        return f"{t(a)} {flip} {t(b)}"
    if n.type == "unary_expression" and n.children and n.children[0].type == "!":
        inner = n.children[1]
        return t(inner)[1:-1] if inner.type == "parenthesized_expression" else t(inner)
    if n.type in ("identifier", "navigation_expression", "call_expression"):
        return "!" + t(n)
    return None


def de_morgan(data, tree):
    """`!(a && b)` ↔ `!a || !b` and `!(a || b)` ↔ `!a && !b` (a, b names, members, calls or equalities; a junction
    standing alone, not inside another operator)."""
    for n in walk(tree.root_node):
        if n.type == "unary_expression" and len(n.children) == 2 and n.children[0].type == "!" and \
                n.children[1].type == "parenthesized_expression":
            inner = named(n.children[1])
            if len(inner) != 1 or inner[0].type != "binary_expression" or len(inner[0].children) != 3 or \
                    inner[0].children[1].type not in ("&&", "||"):
                continue
            a, op, b = inner[0].children
            na, nb = _negated(a), _negated(b)
            if na is None or nb is None:
                continue
            flip = "||" if op.type == "&&" else "&&"
            text = f"{na} {flip} {nb}"
            p = n.parent
            if p is not None and p.type not in ("if_expression", "parenthesized_expression", "value_argument",
                                                "property_declaration", "jump_expression", "statements", "block"):
                text = f"({text})"                    # (inside another operator: keep it one operand)
            yield [(n.start_byte, n.end_byte, text)]
        # and back: `!a || !b` → `!(a && b)`, `a != b && !c` → `!(a == b || c)` (both parts negations)
        if n.type == "binary_expression" and len(n.children) == 3 and n.children[1].type in ("&&", "||") and \
                not (n.parent is not None and n.parent.type == "binary_expression"):
            a, op, b = n.children
            neg = [x for x in (a, b) if (x.type == "unary_expression" and x.children[0].type == "!") or
                   (x.type == "binary_expression" and len(x.children) == 3 and x.children[1].type in ("!=", "!=="))]
            if len(neg) != 2:
                continue
            na, nb = _negated(a), _negated(b)
            flip = "||" if op.type == "&&" else "&&"
            yield [(n.start_byte, n.end_byte, f"!({na} {flip} {nb})")]


def if_when(data, tree):
    """An `if (c) A else B` statement (no `else if`) → `when { c -> A else -> B }`."""
    for n in walk(tree.root_node):
        if n.type != "if_expression" or not is_statement(n):
            continue
        kids = n.children
        types = [c.type for c in kids]
        if "else" not in types or types.count("else") != 1:
            continue
        k = types.index("else")
        if k + 2 != len(kids) or kids[k + 1].type == "if_expression" or types[1] != "(" or types[3] != ")":
            continue
        cond, a, b = kids[2], kids[4], kids[k + 1]
        if k != 5:
            continue
        ind = indent_of(data, n.start_byte)
        yield [(n.start_byte, n.end_byte, f"when {{\n{ind}    {t(cond)} -> {t(a)}\n{ind}    else -> {t(b)}\n{ind}}}")]


def const_extract(data, tree):
    """A whole-number literal in a function's code (a comparison, an argument, an assignment) named by a private
    top-level `const val` declared at the end of the file: the literal's line keeps its place."""
    for n in walk(tree.root_node):
        if n.type not in ("number_literal", "integer_literal") or not t(n).isdigit() or enclosing_fun(n) is None:
            continue
        if any(a.type in ("annotation", "property_declaration", "string_literal", "when_entry", "range_expression",
                          "indexing_suffix") for a in ancestors(n)):
            continue                              # an annotation, a declared constant, a template, an index
        p = n.parent
        if p is None or p.type not in ("binary_expression", "value_argument", "assignment", "comparison_expression",
                                       "equality_expression"):
            continue
        name = f"QUIET_LIMIT_{t(n)}"
        while name.encode() in data:
            name += "X"
        tail = b"" if data.endswith(b"\n") else b"\n"
        yield [(n.start_byte, n.end_byte, name),
               (len(data), len(data), tail.decode() + f"\nprivate const val {name} = {t(n)}\n")]


def log_move(data, tree):
    """A log line moved above the statement before it (both one line, next to each other; not past a jump or the
    declaration of a name the log line reads)."""
    if b"logger." not in data and b"log." not in data:
        return
    for n in walk(tree.root_node):
        if n.type != "call_expression" or n.parent is None or n.parent.type not in ("block", "statements") or \
                not LOG_RE.match(t(n)) or "\n" in t(n):
            continue
        prev = n.prev_named_sibling
        if prev is None or prev.type in ("line_comment", "block_comment") or "\n" in t(prev) or \
                prev.end_point[0] + 1 != n.start_point[0] or LOG_RE.match(t(prev)):
            continue
        if re.match(r"(return|throw|break|continue)\b", t(prev)) or _jumps(prev) or "return" in t(prev):
            continue
        decl = re.match(r"(?:val|var)\s+(?:\((.*?)\)|(\w+))", t(prev))
        if decl is not None:                      # a name it declares, read by the log line (in a template too)
            names = re.findall(r"\w+", decl.group(1) or decl.group(2))
            if any(re.search(rf"(?<![\w.]){re.escape(x)}\b", t(n)) for x in names):
                continue
        a, b = line_start(data, prev.start_byte), line_start(data, n.start_byte)
        end = data.find(b"\n", n.end_byte)
        if end < 0 or data[n.end_byte:end].strip() or data[prev.end_byte:b - 1].strip():
            continue                              # something else on either line
        yield [(a, end, data[b:end].decode() + "\n" + data[a:b - 1].decode())]


def extract_fun(data, tree):
    """The condition of an `if` statement extracted into a local function declared just before it and called in
    its place (no smart cast, null test, jump or cast in it: the body reads what the condition read)."""
    for n in walk(tree.root_node):
        if n.type != "if_expression" or n.parent is None or n.parent.type not in ("block", "statements"):
            continue
        ls = line_start(data, n.start_byte)
        if data[ls:n.start_byte].strip():
            continue
        cond = named(n)[0]
        text = t(cond)
        if cond.type == "identifier" or "\n" in text or re.search(r"\b(is|as|null|return|throw|break|continue|"
                                                                   r"await|delay)\b|!!|\?\.|\?:|@", text):
            continue
        if not any(x.type == "call_expression" for x in walk(cond)) and len(text) < 12:
            continue                              # too small to extract
        ind = indent_of(data, n.start_byte)
        name = fresh_name(data, "check")
        yield [(ls, ls, f"{ind}fun {name}() = {text}\n"), (cond.start_byte, cond.end_byte, f"{name}()")]


def _if_blocks(n):
    """The two blocks of an `if (c) { … } else { … }` statement (both in braces, no `else if`), else None."""
    kids = [c for c in n.children if c.type not in ("line_comment", "block_comment")]
    types = [c.type for c in kids]
    if n.type != "if_expression" or types.count("else") != 1:
        return None
    k = types.index("else")

    def block(x):
        if x.type == "control_structure_body" and len(x.named_children) == 1:
            x = x.named_children[0]
        return x if x.type == "block" else None
    if k + 2 != len(kids):
        return None
    a, b = block(kids[k - 1]), block(kids[k + 1])
    return (a, b) if a is not None and b is not None else None


def _plain_stmt(n) -> bool:
    """One line, no declaration, no jump, no log line, no lambda: a statement that can stand anywhere it is read."""
    text = t(n)
    return "\n" not in text and n.type not in ("property_declaration", "function_declaration", "class_declaration") \
        and not re.match(r"(return|throw|break|continue)\b", text) and not LOG_RE.match(text) and \
        not re.search(r"\b(return|break|continue)\b|@|\{", text) and not text.startswith(("val ", "var "))


def hoist_common(data, tree):
    """A statement standing just after an `if (c) { … } else { … }` statement moved into the end of both branches,
    or one standing just before it moved into the start of both when `c` is pure and the statement spells none of
    its names (the statement cannot change what `c` reads)."""
    for n in walk(tree.root_node):
        if n.type != "if_expression" or n.parent is None or n.parent.type not in ("block", "statements"):
            continue
        br = _if_blocks(n)
        if br is None:
            continue
        ind = indent_of(data, n.start_byte) + "    "
        declared = {m for b in br for m in re.findall(r"\b(?:val|var)\s+(\w+)", t(b))}
        nxt, prev = n.next_named_sibling, n.prev_named_sibling
        if nxt is not None and _plain_stmt(nxt) and nxt.start_point[0] == n.end_point[0] + 1 and \
                nxt.next_named_sibling is not None and not (set(re.findall(r"\w+", t(nxt))) & declared):
            ls, end = line_start(data, nxt.start_byte), data.find(b"\n", nxt.end_byte)
            if end > 0 and not data[nxt.end_byte:end].strip() and not data[ls:nxt.start_byte].strip():
                edits = [(ls, end + 1, "")]
                for b in br:
                    close = line_start(data, b.end_byte - 1)
                    if data[close:b.end_byte - 1].strip():
                        edits = None
                        break
                    edits.append((close, close, f"{ind}{t(nxt)}\n"))
                if edits:
                    yield edits
        cond = named(n)[0]
        if prev is not None and _plain_stmt(prev) and prev.end_point[0] + 1 == n.start_point[0] and pure(cond) and \
                not (set(re.findall(r"\w+", t(cond))) & set(re.findall(r"\w+", t(prev)))):
            ls, end = line_start(data, prev.start_byte), data.find(b"\n", prev.end_byte)
            if end > 0 and not data[prev.end_byte:end].strip() and not data[ls:prev.start_byte].strip():
                edits = [(ls, end + 1, "")]
                for b in br:
                    nl = data.find(b"\n", b.start_byte)
                    if nl < 0 or data[b.start_byte + 1:nl].strip():
                        edits = None
                        break
                    edits.append((nl + 1, nl + 1, f"{ind}{t(prev)}\n"))
                if edits:
                    yield edits


_INT_VAR = re.compile(r"\bvar\s+(\w+)\s*(?::\s*Int\s*)?=\s*\d+\s*$", re.M)


def step_form(data, tree):
    """One step of an integer `var` of the file (declared once, `var n = 0`) spelled another way: `n++` / `++n`
    standing as a statement → `n += 1`, `n += e` → `n = n + e`, `return ++n` → `n += 1; return n`."""
    text = data.decode()
    nums = {m.group(1) for m in _INT_VAR.finditer(text) if len(re.findall(rf"\b(?:val|var|fun)\s+{m.group(1)}\b|"
                                                                         rf"[(,]\s*{m.group(1)}\s*:", text)) == 1}
    if not nums:
        return
    for n in walk(tree.root_node):
        if n.type == "unary_expression" and n.parent is not None and n.parent.type in ("block", "statements") and \
                n.next_named_sibling is not None and len(n.children) == 2:
            a, b = n.children
            op, x = (a.type, b) if a.type in ("++", "--") else (b.type, a)
            if op in ("++", "--") and x.type == "identifier" and t(x) in nums:
                yield [(n.start_byte, n.end_byte, f"{t(x)} {op[0]}= 1")]
        elif n.type == "assignment" and n.parent is not None and n.parent.type in ("block", "statements") and \
                len(n.children) == 3 and n.children[1].type in ("+=", "-=") and n.children[0].type == "identifier" \
                and t(n.children[0]) in nums and "\n" not in t(n):
            x, op, e = n.children
            rhs = t(e) if e.type in ("identifier", "number_literal", "integer_literal", "navigation_expression") \
                else f"({t(e)})"
            yield [(n.start_byte, n.end_byte, f"{t(x)} = {t(x)} {op.type[0]} {rhs}")]
        elif n.type in ("return_expression", "jump_expression") and n.parent is not None and \
                n.parent.type in ("block", "statements") and len(n.named_children) == 1:
            v = n.named_children[0]
            if v.type == "unary_expression" and len(v.children) == 2 and v.children[0].type in ("++", "--") and \
                    v.children[1].type == "identifier" and t(v.children[1]) in nums:
                x = t(v.children[1])
                yield [(n.start_byte, n.end_byte, f"{x} {v.children[0].type[0]}= 1; return {x}")]


def body_block(data, tree):
    """`fun f(…) = xs.forEach { … }` (no declared result: it returns nothing) → `fun f(…) { for (it in xs) { … } }`
    when the lambda has no jump, no parameter and no inner lambda."""
    for f in walk(tree.root_node):
        if f.type != "function_declaration":
            continue
        kids = f.children
        body = next((c for c in kids if c.type == "function_body"), None)
        ps = [i for i, c in enumerate(kids) if c.type == "function_value_parameters"]
        if body is None or not ps or any(c.type == ":" for c in kids[ps[0]:]) or not body.children or \
                body.children[0].type != "=" or len(body.named_children) != 1:
            continue
        e = body.named_children[0]
        c = _call_name(e)
        if not c or c[1] != "forEach" or c[3] is None or c[2] is not None or "?." in t(e.named_children[0]):
            continue
        lam = named(c[3], "lambda_literal")
        if not lam or _jumps(lam[0]) or "return" in t(lam[0]) or named(lam[0], "lambda_parameters"):
            continue
        if any(w.type == "lambda_literal" and w != lam[0] for w in walk(lam[0])):
            continue
        inner = data[lam[0].start_byte + 1:lam[0].end_byte - 1].decode()
        yield [(body.start_byte, body.end_byte, f"{{ for (it in {t(c[0])}) {{{inner}}} }}")]


def when_order(data, tree):
    """Two neighbouring branches of a `when (s)` swapped, when every branch but `else` tests distinct constants
    (capitalised names the file declares nowhere, or integer / string literals; not both kinds)."""
    text = data.decode()
    for n in walk(tree.root_node):
        if n.type != "when_expression" or not named(n, "when_subject"):
            continue
        entries = named(n, "when_entry")
        plain = [e for e in entries if "else" not in {c.type for c in e.children}]
        keys, kinds, ok = set(), set(), True
        for e in plain:
            for c in [c for c in e.named_children][:-1]:
                if c.type == "when_condition" and len(c.named_children) == 1:
                    c = c.named_children[0]
                ct = t(c)
                if c.type in ("number_literal", "integer_literal") and ct.isdigit():
                    k = ("n", int(ct))
                elif c.type == "string_literal" and "$" not in ct and "\\" not in ct:
                    k = ("s", ct)
                elif c.type in ("identifier", "navigation_expression") and re.fullmatch(r"[\w.]+", ct) and \
                        ct.split(".")[-1][:1].isupper() and not re.search(
                            rf"\b(?:val|var)\s+{re.escape(ct.split('.')[-1])}\b", text):
                    k = ("x", ct.split(".")[-1])
                else:
                    ok = False
                    break
                if k in keys:
                    ok = False
                keys.add(k)
                kinds.add(k[0] if k[0] == "x" else "lit")
            if not ok:
                break
        if not ok or len(kinds) != 1 or len(plain) < 2:
            continue
        for a, b in zip(plain, plain[1:]):
            if a.next_named_sibling != b:
                continue
            yield [(a.start_byte, b.end_byte, t(b) + data[a.end_byte:b.start_byte].decode() + t(a))]


TRANSFORMS = {
    "rename_local": rename_local, "rename_param": rename_param, "extract_val": extract_val, "swap_eq": swap_eq,
    "swap_and": swap_and, "empty_size": empty_size, "not_empty": not_empty, "filter_count": filter_count,
    "early_return": early_return, "let_if": let_if, "when_if": when_if, "for_each": for_each,
    "log_line": log_line, "template": template, "imports": imports, "comment": comment, "it_named": it_named,
    "this_call": this_call, "find_first": find_first, "de_morgan": de_morgan, "if_when": if_when,
    "const_extract": const_extract, "log_move": log_move, "extract_fun": extract_fun,
    "hoist_common": hoist_common, "step_form": step_form, "body_block": body_block, "when_order": when_order,
}


# ---------------------------------------------------------------------------------------------------------------

def apply(data: bytes, edit) -> bytes:
    out = data
    for s, e, rep in sorted(edit, key=lambda x: -x[0]):
        out = out[:s] + rep.encode() + out[e:]
    return out


def rule_files(paths) -> list:
    out = []
    for p in paths:
        if not p.startswith(PREFIX) or not p.endswith(".kt"):
            continue
        rel = p[len(PREFIX):]
        if rel.startswith(RULE_DIRS) or rel in RULE_TOP:
            out.append(p)
    return sorted(out)


def cases_of(files: dict, transform: str, per: int, seed: int, parser=None) -> list:
    """`per` cases of one transform over {path: bytes}: [(path, line, new bytes)], seeded, each reparsing without
    error and changing the file."""
    parser = parser or _make_parser()
    fn = TRANSFORMS[transform]
    cands = []
    for path in sorted(files):
        data = files[path]
        tree = parser.parse(data)
        for edit in fn(data, tree):
            if edit:
                cands.append((path, edit))
    rng = random.Random(f"{seed}:{transform}")
    rng.shuffle(cands)
    out = []
    seen = set()
    for path, edit in cands:
        new = apply(files[path], edit)
        if new == files[path] or (path, new) in seen:
            continue
        if parser.parse(new).root_node.has_error:
            continue
        seen.add((path, new))
        line = files[path].count(b"\n", 0, min(s for s, _e, _r in edit)) + 1
        out.append((path, line, new))
        if len(out) >= per:
            break
    return out


def _git(repo, *args, env=None, data=None) -> bytes:
    r = subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True,
                       env={**os.environ, **(env or {})})
    if r.returncode:
        raise SystemExit(f"error: git {' '.join(args[:3])}: {r.stderr.decode('utf-8', 'replace').strip()}")
    return r.stdout


def commit_case(repo: Path, base: str, path: str, new: bytes, subject: str, td: str) -> str:
    index = {**IDENT, "GIT_INDEX_FILE": str(Path(td) / "index")}
    _git(repo, "read-tree", base, env=index)
    blob = _git(repo, "hash-object", "-w", "--stdin", data=new).decode().strip()
    mode = _git(repo, "ls-tree", base, "--", path).decode().split()[0]
    _git(repo, "update-index", "--cacheinfo", f"{mode},{blob},{path}", env=index)
    tree = _git(repo, "write-tree", env=index).decode().strip()
    return _git(repo, "commit-tree", "--no-gpg-sign", tree, "-p", base, env=IDENT,
                data=(subject + "\n").encode()).decode().strip()


def worker() -> int:
    """``--worker``: run the gate in this process on each case read from stdin (one JSON object a line: repo, parent,
    sha), printing one JSON result a line. The command's own code path (``cli.main``, the results cache on, string
    hashing fixed by the caller) with one saving: the BASE side's extraction, the same for every case, is made once
    and handed out as a fresh copy (a pickle) each time."""
    import pickle
    import skillproof.kotlin_diff as kd
    from skillproof import cache
    from skillproof.cli import main as cli_main
    if sys.flags.hash_randomization and os.environ.get("PYTHONHASHSEED") != "0":
        print("error: the worker needs PYTHONHASHSEED=0", file=sys.stderr)
        return 2
    cache.COMMAND = True
    orig = kd._extract_side
    memo: dict = {}

    def extract_side(label, repo, rev, tmp):
        if label != "BASE":
            return orig(label, repo, rev, tmp)
        if (repo, rev) not in memo:
            memo[(repo, rev)] = pickle.dumps(orig(label, repo, rev, tmp))
        return pickle.loads(memo[(repo, rev)])

    kd._extract_side = extract_side
    _memo_pure_steps()
    import contextlib
    import io
    for line in sys.stdin:
        c = json.loads(line)
        with tempfile.TemporaryDirectory(prefix="quiet-case-") as td:
            out = Path(td) / "report.json"
            err = io.StringIO()
            t0 = time.perf_counter()
            try:
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                    rc = cli_main(["diff", "--kotlin", c["repo"], c["parent"], c["sha"], "--format", "json",
                                   "--output", str(out), "--quiet", "--lang", "en"])
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else 1
            except Exception as e:                                  # a crash of the gate: its last line
                import traceback
                rc = -1
                err.write("Traceback (most recent call last):\n" + traceback.format_exc()[-400:] + f"\n{e!r}")
            report = json.loads(out.read_text(encoding="utf-8")) if out.exists() else None
        print(json.dumps({"rc": rc, "seconds": time.perf_counter() - t0, "cpu": 0.0, "report": report,
                          "stderr": err.getvalue()}), flush=True)
    return 0


def _digest(files: dict) -> str:
    import hashlib
    h = hashlib.sha256()
    for k in sorted(files):
        h.update(k.encode() + b"\0" + hashlib.sha256(files[k]).digest())
    return h.hexdigest()


def _memo_pure_steps():
    """In a worker: keep the results of the gate's steps that are pure functions of their input and the same for
    every case's BASE (or for every file a case leaves alone), so a case costs its HEAD side's own work. Each memo is
    keyed by the whole input it reads (file bytes, or the catalogue as pickled with the revision's label taken out)
    and hands out a fresh copy where the gate changes what it gets; a key it has not seen runs the step itself."""
    import copy
    import pickle
    import re as re_
    import skillproof.model.extract.quiet_source as qs
    import skillproof.model.extract.unread as un
    import skillproof.cmd_check as cc

    qmemo: dict = {}
    q_orig = qs.quiet_source

    def quiet_source(parser, data):
        if data not in qmemo:
            qmemo[data] = q_orig(parser, data)
        return qmemo[data]

    qs.quiet_source = quiet_source

    def by_files(fn, copy_out):
        memo: dict = {}

        def wrapped(files, *rest):
            k = _digest(files)
            if k not in memo:
                memo[k] = fn(files, *rest)
            return copy_out(memo[k])
        return wrapped

    un.unimplemented_types = by_files(un.unimplemented_types, lambda x: x)          # a frozenset
    un.helpers = by_files(un.helpers, dict)                 # _same_blocks deletes keys: a fresh dict each time
    un.quiet_moments = by_files(un.quiet_moments, copy.deepcopy)

    cmemo: dict = {}
    c_orig = cc.run_checks
    label = re_.compile(rb"(?:BASE|HEAD)@[0-9a-f]{12}/")

    def run_checks(cat, args, started=None):
        try:
            k = label.sub(b"@/", pickle.dumps(cat))
        except Exception:                                   # pragma: no cover - not picklable: no memo
            return c_orig(cat, args, started)
        if k not in cmemo:
            res = c_orig(cat, args, started)
            try:
                cmemo[k] = pickle.dumps(res)
            except Exception:                               # pragma: no cover
                return res
        return pickle.loads(cmemo[k])

    cc.run_checks = run_checks


def _fast_runs(out: Path, cases: list, jobs: int):
    """Each case's run ({rc, seconds, report, stderr}) from `jobs` worker processes, in the order of `cases`."""
    from concurrent.futures import ThreadPoolExecutor
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    shares = [cases[i::jobs] for i in range(jobs)]

    def run(share):
        p = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, env=env)
        res = []
        for c in share:
            p.stdin.write(json.dumps({"repo": str(out), "parent": c["parent"], "sha": c["sha"]}) + "\n")
            p.stdin.flush()
            res.append((c, json.loads(p.stdout.readline())))
            yield res[-1]
        p.stdin.close()
        p.wait()

    import queue
    import threading
    q: queue.Queue = queue.Queue()

    def drain(share):
        try:
            for item in run(share):
                q.put(item)
        finally:
            q.put(None)

    threads = [threading.Thread(target=drain, args=(sh,), daemon=True) for sh in shares if sh]
    for th in threads:
        th.start()
    done = 0
    while done < len(threads):
        item = q.get()
        if item is None:
            done += 1
            continue
        yield item


def main(argv=None) -> int:
    if argv is None and sys.argv[1:] == ["--worker"]:
        return worker()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", default=os.environ.get(ENV_REPO), help=f"the server clone (default: ${ENV_REPO})")
    ap.add_argument("--out", required=True, metavar="DIR", help="the scratch bare clone the cases are committed in")
    ap.add_argument("--per", type=int, default=12, help="cases per transform")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated transforms")
    ap.add_argument("--cases", default="", help="comma-separated case names (TRANSFORM-N) to run, in that order")
    ap.add_argument("--list", action="store_true", help="write and list the cases, do not run the gate")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--resume", action="store_true", help="with --json: keep the cases FILE.part already holds (the "
                    "same commit) and run only the others; each case is added to FILE.part as it ends")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--jobs", type=int, default=1, help="gate runs at once")
    ap.add_argument("--fast", action="store_true", help="run the gate in worker processes that extract BASE once "
                                                        "(else one `skillproof diff` process a case)")
    a = ap.parse_args(argv)
    if not a.repo:
        ap.error(f"no server clone: give --repo or set {ENV_REPO}")
    names = [x for x in a.only.split(",") if x] or list(TRANSFORMS)
    bad = [x for x in names if x not in TRANSFORMS]
    if bad:
        ap.error(f"unknown transform {', '.join(bad)} (known: {', '.join(TRANSFORMS)})")
    out = Path(a.out)
    if not (out / "HEAD").exists():
        r = subprocess.run(["git", "clone", "--bare", "--quiet", "--no-tags", a.repo, str(out)], capture_output=True)
        if r.returncode:
            print(f"error: cannot clone {a.repo}: {r.stderr.decode().strip()}", file=sys.stderr)
            return 2
    base = _git(out, "rev-parse", "HEAD").decode().strip()
    paths = rule_files(_git(out, "ls-tree", "-r", "--name-only", base).decode().split("\n"))
    files = {p: _git(out, "show", f"{base}:{p}") for p in paths}
    parser = _make_parser()
    cases = []
    with tempfile.TemporaryDirectory(prefix="quiet-") as td:
        for tr in names:
            for i, (path, line, new) in enumerate(cases_of(files, tr, a.per, a.seed, parser), 1):
                name = f"{tr}-{i}"
                sha = commit_case(out, base, path, new, f"quiet {name}: {path}:{line}", td)
                _git(out, "update-ref", f"refs/heads/quiet/{name}", sha)
                cases.append({"name": name, "transform": tr, "path": path, "line": line, "sha": sha, "parent": base})
    if a.cases:
        want = [x for x in a.cases.split(",") if x]
        rank = {n: i for i, n in enumerate(want)}
        cases = sorted((c for c in cases if c["name"] in rank), key=lambda c: rank[c["name"]])  # in the order given
    if a.list:
        for c in cases:
            print(f"{c['name']:<18} {c['sha'][:10]} {c['path'][len(PREFIX):]}:{c['line']}")
        print(f"{len(cases)} cases")
        return 0
    import history_bench as hb
    from concurrent.futures import ThreadPoolExecutor
    rows = []
    part = Path(a.json + ".part") if a.json else None
    if a.resume and not part:
        ap.error("--resume needs --json FILE")
    done_: dict = {}
    if part and a.resume and part.exists():
        for ln in part.read_text(encoding="utf-8").splitlines():
            if ln.strip():
                r = json.loads(ln)
                done_[(r["name"], r["sha"])] = r
    elif part:
        part.write_text("", encoding="utf-8")
    for c in cases:
        r = done_.get((c["name"], c["sha"]))
        if r is not None:
            c.update({k: r[k] for k in ("verdict", "rc", "detail", "seconds")})
            rows.append(c)
            print(f"{c['name']:<18} {c['path'][len(PREFIX):]}:{c['line']:<5} {c['verdict']:<12} exit {c['rc']} "
                  f"(kept) {c['detail']}", flush=True)
    cases = [c for c in cases if (c["name"], c["sha"]) not in done_]

    def one(c):
        return c, hb.replay(str(out), c, timeout=a.timeout)

    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:       # each case is its own gate process
        runs = _fast_runs(out, cases, max(1, a.jobs)) if a.fast else pool.map(one, cases)
        for c, run in runs:
            rc = run["rc"]
            err = run["stderr"]
            v = ("crash" if rc not in (0, 1, 2, 3) or "Traceback (most recent call last)" in err else
                 {0: "quiet", 1: "false alarm", 2: "degraded", 3: "inconclusive"}[rc])
            named_ = sorted(n for n in hb.named_in(run["report"]) if not n.startswith("file:")) if run["report"] else []
            unr = hb.unread_of(run["report"])
            detail = ("names " + ", ".join(named_[:4])) if rc == 1 else ""
            if unr:
                detail += "; unread: " + ", ".join(
                    f"{(f.get('details') or {}).get('file', '').rsplit('/', 1)[-1]}:{(f.get('details') or {}).get('line')}"
                    for f in unr[:3])
            if v == "crash":
                detail = (err.strip().splitlines() or [f"exit {rc}"])[-1]
            c.update(verdict=v, rc=rc, detail=detail, seconds=round(run["seconds"], 1))
            rows.append(c)
            if part:
                with part.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(c, ensure_ascii=False) + "\n")
            print(f"{c['name']:<18} {c['path'][len(PREFIX):]}:{c['line']:<5} {v:<12} exit {rc} {run['seconds']:5.1f}s "
                  f"{detail}", flush=True)
    print()
    print(f"{'transform':<16} {'cases':>5} {'flagged':>7}  (false alarm / inconclusive / degraded or crash)")
    tot = [0, 0]
    for tr in names:
        rs = [r for r in rows if r["transform"] == tr]
        if not rs:
            continue
        fl = [r for r in rs if r["verdict"] != "quiet"]
        tot = [tot[0] + len(rs), tot[1] + len(fl)]
        print(f"{tr:<16} {len(rs):>5} {len(fl):>7}  ({sum(r['verdict'] == 'false alarm' for r in rs)} / "
              f"{sum(r['verdict'] == 'inconclusive' for r in rs)} / "
              f"{sum(r['verdict'] in ('degraded', 'crash') for r in rs)})")
    if tot[0]:
        print(f"{'all':<16} {tot[0]:>5} {tot[1]:>7}  ({100 * tot[1] / tot[0]:.0f}% flagged; target at most 10%)")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
