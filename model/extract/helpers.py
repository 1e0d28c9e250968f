"""Helper functions of the server read where they are called, by what their body computes (not by their name).

A card helper that counts messages by colour (``fun Iterable<Card>.countX() = count { card -> … }``) is read by
evaluating its predicate on each colour a message can have (red, blue, black, red-black, blue-black) and naming the
count of the catalogue's expression language that counts exactly those (``true_messages``: red or blue, with or
without black; ``non_black_messages``; ``black_messages``; ``red_messages``; ``blue_messages``). A call site then
says what the helper counts today: a helper whose predicate changes changes the catalogue of every rule that calls
it. A predicate the evaluation does not follow, or that counts a set no term names, reads as nothing (None): the
call is not read (its rule is unread), never guessed.
"""
from __future__ import annotations

import re

from .server import COLOUR_CONSTS
from .syntax import _code, _descendants, _ir, _kid, _lambda_parts, _name_of, _t, _unparen

#: the colours a message can have (a card has one or two colours; two only with black)
COMBOS = (frozenset({"red"}), frozenset({"blue"}), frozenset({"black"}), frozenset({"red", "black"}),
          frozenset({"blue", "black"}))
#: the counts of the expression language, as the colour combinations each counts (indices into COMBOS)
TERMS = {frozenset({0, 1, 3, 4}): "true_messages", frozenset({0, 1}): "non_black_messages",
         frozenset({2, 3, 4}): "black_messages", frozenset({0, 3}): "red_messages", frozenset({1, 4}): "blue_messages"}

_MAX_DEPTH = 4


class _NotRead(Exception):
    pass


#: what the evaluation of code it does not follow may raise: the helper is then not read (never a crash)
_FAILS = (_NotRead, RecursionError, KeyError, TypeError, AttributeError, IndexError, ValueError)


class _Card:
    """A card under evaluation: its colours."""
    __slots__ = ("cols",)

    def __init__(self, cols):
        self.cols = cols


def _receiver(fd) -> str:
    """The receiver type text of an extension function (``Iterable<Card>``), "" for none."""
    kids = fd.children
    for i, c in enumerate(kids):
        if c.type == "." and i > 0:
            return _t(kids[i - 1])
    return ""


def _expr_body(fd):
    """The expression of a function's body: ``= expr`` or ``{ return expr }``; None otherwise."""
    body = _kid(fd, "function_body")
    if body is None:
        return None
    block = _kid(body, "block")
    if block is None:
        kids = [c for c in body.named_children if c.type not in ("line_comment", "block_comment")]
        return kids[0] if len(kids) == 1 else None
    st = _code(block)
    if len(st) == 1 and st[0].type == "jump_expression" and _t(st[0]).startswith("return"):
        kids = st[0].named_children
        return kids[0] if kids else None
    return None


def _helpers(ex, with_colour=False) -> dict:
    """name -> [(receiver text, function node)] of the extension functions of the sources without parameters (with
    ``with_colour``: with one parameter of type ``color``)."""
    attr = "_ext_helpers_c" if with_colour else "_ext_helpers"
    if attr not in ex.__dict__:
        out: dict = {}
        for src, fd, name, owner in ex._functions():
            if owner is not None:
                continue
            rec = _receiver(fd)
            fvp = _kid(fd, "function_value_parameters")
            params = [p for p in fvp.named_children if p.type == "parameter"] if fvp is not None else []
            n_all = len([p for p in fvp.named_children if p.type not in ("line_comment", "block_comment")]) \
                if fvp is not None else 0
            if not rec:
                continue
            if with_colour:
                if n_all != 1 or len(params) != 1 or not re.search(r":\s*color\b", _t(params[0])):
                    continue
            elif n_all:
                continue
            out.setdefault(name, []).append((rec, fd))
        ex.__dict__[attr] = out
    return ex.__dict__[attr]


def colour_arg_count_term(ex, fn: str, colour: str):
    """The count term ``area.fn(colour)`` computes when ``fn`` is a message-list helper of the sources with one
    colour parameter (``fun Iterable<Card>.count(c: color) = count { c in it.colors }``), its lambda evaluated with
    the parameter bound to ``colour``; "" when the sources define no such helper, None when not read."""
    cands = [(r, fd) for r, fd in _helpers(ex, True).get(fn, []) if "Card" in r and not r.strip().startswith("Card")]
    if not cands:
        return ""
    if len(cands) > 1:
        return None
    fd = cands[0][1]
    fvp = _kid(fd, "function_value_parameters")
    pname = _t(_kid([p for p in fvp.named_children if p.type == "parameter"][0], "identifier"))
    body = _expr_body(fd)
    x = _unparen(_ir(body)) if body is not None else None
    if x is None or x.k != "call" or x.a[0].k != "name" or x.a[0].a[0] != "count" or x.a[1] or x.a[2] is None:
        return None
    params, stmts = _lambda_parts(x.a[2])
    if len(stmts) != 1 or len(params) > 1:
        return None
    var = params[0] if params else "it"
    hits = set()
    try:
        for i, cols in enumerate(COMBOS):
            v = _ev(ex, _ir(stmts[0]), {var: _Card(cols), pname: colour}, None, 0)
            if not isinstance(v, bool):
                return None
            if v:
                hits.add(i)
    except _FAILS:
        return None
    return TERMS.get(frozenset(hits))


def colour_count_term(ex, fn: str):
    """The count term a message-list helper ``fn`` computes (``true_messages`` …); None when ``fn`` is no such
    helper of the sources or its count is not read; the string "" when the sources define no helper named ``fn``
    (the caller keeps its own reading then)."""
    cands = [(r, fd) for r, fd in _helpers(ex).get(fn, []) if "Card" in r and not r.strip().startswith("Card")]
    if not cands:
        return ""
    if len(cands) > 1:
        return None
    _rec, fd = cands[0]
    body = _expr_body(fd)
    if body is None:
        return None
    x = _unparen(_ir(body))
    if x.k != "call" or x.a[0].k != "name" or x.a[0].a[0] != "count" or x.a[1] or x.a[2] is None:
        return None
    return colour_pred_term(ex, x.a[2])


def _card_helper(ex, fn: str):
    """The body expression of ``fun Card.fn() = …`` (one, without parameters); None when none."""
    cands = [fd for r, fd in _helpers(ex).get(fn, []) if r.strip() == "Card"]
    for c in ex.by_name.get("Card", []):                 # or a member of the card class
        for fd in c.functions(fn):
            fvp = _kid(fd, "function_value_parameters")
            if fvp is None or not fvp.named_children:
                cands.append(fd)
    if len(cands) != 1:
        return None
    return _expr_body(cands[0])


def _colour(x):
    x = _unparen(x)
    name = x.a[0] if x.k == "name" else x.a[1] if x.k == "nav" else None
    if name in COLOUR_CONSTS and COLOUR_CONSTS[name] != "none":
        return COLOUR_CONSTS[name]
    return None


def _ev(ex, x, env: dict, this, depth: int):
    """The value of a predicate over a card's colours: a bool, a colour name, a frozenset of colours or a _Card."""
    x = _unparen(x)
    if x.k == "lit" and isinstance(x.a[0], (bool, int)):
        return x.a[0]
    c = _colour(x)
    if c is not None and not (x.k == "name" and x.a[0] in env):
        return c
    if x.k == "name":
        if x.a[0] in env:
            return env[x.a[0]]
        if x.a[0] == "colors" and this is not None:
            return frozenset(this.cols)
        raise _NotRead(x.a[0])
    if x.k == "this" and this is not None:
        return this
    if x.k == "nav":
        r = _ev(ex, x.a[0], env, this, depth)
        if isinstance(r, _Card) and x.a[1] == "colors":
            return frozenset(r.cols)
        if isinstance(r, frozenset) and x.a[1] == "size":
            return len(r)
        raise _NotRead(_t(x.n))
    if x.k == "un" and x.a[0] == "!":
        v = _ev(ex, x.a[1], env, this, depth)
        if isinstance(v, bool):
            return not v
        raise _NotRead(_t(x.n))
    if x.k == "in":
        v, s = _ev(ex, x.a[1], env, this, depth), _ev(ex, x.a[2], env, this, depth)
        if isinstance(v, str) and isinstance(s, frozenset):
            return (v not in s) if x.a[0] else (v in s)
        raise _NotRead(_t(x.n))
    if x.k == "bin":
        op = x.a[0]
        if op in ("&&", "||"):
            a = _ev(ex, x.a[1], env, this, depth)
            if not isinstance(a, bool):
                raise _NotRead(_t(x.n))
            if op == "&&" and not a or op == "||" and a:
                return a
            b = _ev(ex, x.a[2], env, this, depth)
            if not isinstance(b, bool):
                raise _NotRead(_t(x.n))
            return b
        a, b = _ev(ex, x.a[1], env, this, depth), _ev(ex, x.a[2], env, this, depth)
        if op in ("==", "===") and type(a) is type(b) and not isinstance(a, _Card):
            return a == b
        if op in ("!=", "!==") and type(a) is type(b) and not isinstance(a, _Card):
            return a != b
        if op in ("<", ">", "<=", ">=") and type(a) is int and type(b) is int:
            return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        raise _NotRead(_t(x.n))
    if x.k == "call" and x.a[0].k == "nav":
        r = _ev(ex, x.a[0].a[0], env, this, depth)
        m, args, lam = x.a[0].a[1], x.a[1], x.a[2]
        if isinstance(r, frozenset):
            if m in ("any", "all", "none") and not args and lam is not None:
                params, stmts = _lambda_parts(lam)
                if len(stmts) != 1 or len(params) > 1:
                    raise _NotRead(_t(x.n))
                v = params[0] if params else "it"
                vals = [_ev(ex, _ir(stmts[0]), {**env, v: col}, this, depth) for col in sorted(r)]
                if not all(isinstance(b, bool) for b in vals):
                    raise _NotRead(_t(x.n))
                return any(vals) if m == "any" else all(vals) if m == "all" else not any(vals)
            if m == "contains" and len(args) == 1 and lam is None:
                v = _ev(ex, args[0].x, env, this, depth)
                if isinstance(v, str):
                    return v in r
            if m in ("first", "single") and not args and lam is None and len(r) == 1:
                return next(iter(r))                    # (a two-coloured card's first colour is not read)
            if m in ("isEmpty", "isNotEmpty") and not args and lam is None:
                return (not r) if m == "isEmpty" else bool(r)
            raise _NotRead(_t(x.n))
        if isinstance(r, _Card) and not args and lam is None and depth < _MAX_DEPTH:
            body = _card_helper(ex, m)
            if body is not None:
                return _ev(ex, _ir(body), {}, r, depth + 1)
        raise _NotRead(_t(x.n))
    if x.k == "call" and x.a[0].k == "name" and this is not None and not x.a[1] and x.a[2] is None \
            and depth < _MAX_DEPTH:
        body = _card_helper(ex, x.a[0].a[0])            # a helper of the same card called plainly
        if body is not None:
            return _ev(ex, _ir(body), {}, this, depth + 1)
    raise _NotRead(_t(x.n))


def colour_pred_term(ex, lam):
    """The count term of the messages a one-parameter lambda over a message card (``{ it.isBlack() }``, ``{ c ->
    Red in c.colors }``) accepts, evaluated on every colour a message can have; None when not read or no term
    counts that set."""
    params, stmts = _lambda_parts(lam)
    if len(stmts) != 1 or len(params) > 1:
        return None
    var = params[0] if params else "it"
    hits = set()
    try:
        for i, cols in enumerate(COMBOS):
            v = _ev(ex, _ir(stmts[0]), {var: _Card(cols)}, None, 0)
            if not isinstance(v, bool):
                return None
            if v:
                hits.add(i)
    except _FAILS:
        return None
    return TERMS.get(frozenset(hits))


# ------------------------------------------------------------------------------------------- colour tallies
class _Ret(Exception):
    def __init__(self, value):
        self.value = value


_NAMES = {"red": "red", "blue": "blue", "black": "black"}


def _combo_name(cols) -> str:
    return "-".join(c for c in ("red", "blue", "black") if c in cols)


def tally_outcomes(ex, fd, param: str, area: str):
    """What a test of cards joining a player's message area decides (``Player.checkThreeSameMessageCard(cards)``:
    would they give him three messages of one colour?), run on every colour a joining card can have with 0 to 3
    messages of that same colour already in the area — and on messages of colours it shares none with (``"blue on red:
    3"``, listed only where the test holds: a colour counted without the joining card having it) — for each colour, the
    fewest messages there for which it holds
    (``"red: 2"``; ``"black: never"``). Read by running the function's code (counters, loops over the cards and
    their colours, ``when`` over a colour, comparisons); None when it uses anything else."""
    body = _kid(fd, "function_body")
    block = _kid(body, "block") if body is not None else None
    if block is None:
        return None
    out = []
    try:
        for cols in COMBOS:
            out.append(f"{_combo_name(cols)}: {_first_holding(ex, block, param, area, cols, cols)}")
        for cols in COMBOS:
            # the joining card completes three of a colour it does not have: messages of colours it shares none
            # with already there (listed only where the test holds for some count — in the game's test never)
            for there in COMBOS:
                if there & cols:
                    continue
                first = _first_holding(ex, block, param, area, cols, there)
                if first != "never":
                    out.append(f"{_combo_name(cols)} on {_combo_name(there)}: {first}")
    except _FAILS:
        return None
    return tuple(out)


def _first_holding(ex, block, param, area, cols, there) -> str:
    """The fewest messages of colours ``there`` (0 to 3) in the area for which the test holds of a card of ``cols``
    joining it, or ``never``."""
    for m in range(4):
        env = {param: [_Card(cols)], area: [_Card(there) for _ in range(m)]}
        try:
            _run(ex, _code(block), env, 0)
            raise _NotRead("no return")
        except _Ret as r:
            if not isinstance(r.value, bool):
                raise _NotRead("not a test")
            if r.value:
                return str(m)
    return "never"


def _run(ex, stmts, env: dict, depth: int):
    if depth > 6:
        raise _NotRead("too deep")
    for s in stmts:
        t = s.type
        if t in ("line_comment", "block_comment", "multiline_comment"):
            continue
        if t == "property_declaration":
            vd = _kid(s, "variable_declaration")
            init = [c for c in _code(s) if c.type not in ("modifiers", "variable_declaration", "binding_pattern_kind")]
            if vd is None or not init:
                raise _NotRead(_t(s)[:40])
            env[_t(vd).split(":")[0].strip()] = _val(ex, _ir(init[-1]), env)
            continue
        if t == "for_statement":
            vd = _kid(s, "variable_declaration")
            rest = [c for c in s.named_children if c.type not in ("variable_declaration", "line_comment",
                                                                   "block_comment")]
            if vd is None or len(rest) != 2:
                raise _NotRead("for")
            seq = _val(ex, _ir(rest[0]), env)
            if not isinstance(seq, (list, frozenset)):
                raise _NotRead("for over " + _t(rest[0])[:30])
            for item in (sorted(seq) if isinstance(seq, frozenset) else seq):
                env[_t(vd).split(":")[0].strip()] = item
                _run(ex, _body(rest[1]), env, depth + 1)
            continue
        if t == "when_expression":
            subj = _kid(s, "when_subject")
            if subj is None or not _code(subj):
                raise _NotRead("when without subject")
            sv = _val(ex, _ir(_code(subj)[-1]), env)
            for entry in _kids_of(s, "when_entry"):
                parts = [c for c in entry.named_children if c.type not in ("line_comment", "block_comment")]
                is_else = any(c.type == "else" for c in entry.children)
                if not parts:
                    continue
                body, conds = parts[-1], parts[:-1]
                conds = [(_code(c)[0] if c.type == "when_condition" and _code(c) else c) for c in conds]
                hit = is_else or any(_val(ex, _ir(c), env) == sv for c in conds)
                if hit:
                    _run(ex, _body(body), env, depth + 1)
                    break
            continue
        if t in ("postfix_expression", "prefix_expression", "unary_expression") and \
                re.fullmatch(r"\s*(\+\+|--)?\s*(\w+)\s*(\+\+|--)?\s*", _t(s)):
            m = re.fullmatch(r"\s*(\+\+|--)?\s*(\w+)\s*(\+\+|--)?\s*", _t(s))
            name, op = m.group(2), m.group(1) or m.group(3)
            if name not in env or not isinstance(env[name], int) or not op:
                raise _NotRead(_t(s))
            env[name] += 1 if op == "++" else -1
            continue
        if t == "assignment":
            m = re.fullmatch(r"\s*(\w+)\s*(\+=|-=|=)\s*(.+)", _t(s), re.S)
            if not m or m.group(1) not in env:
                raise _NotRead(_t(s)[:40])
            right = s.named_children[-1]
            v = _val(ex, _ir(right), env)
            env[m.group(1)] = v if m.group(2) == "=" else env[m.group(1)] + (v if m.group(2) == "+=" else -v)
            continue
        if t in ("jump_expression", "return_expression") and _t(s).startswith("return"):
            kids = s.named_children
            raise _Ret(_val(ex, _ir(kids[0]), env) if kids else None)
        if t == "if_expression":
            cond = s.child_by_field_name("condition")
            br = [b for b in _code(s) if b != cond]
            v = _val(ex, _ir(cond), env)
            if not isinstance(v, bool):
                raise _NotRead("if")
            pick = br[0] if v else (br[1] if len(br) > 1 else None)
            if pick is not None:
                _run(ex, _body(pick), env, depth + 1)
            continue
        raise _NotRead(_t(s)[:40])


def _body(node) -> list:
    """The statements of a loop's or a branch's body (a block, a control structure body, or one statement)."""
    if node.type == "control_structure_body":
        inner = _kid(node, "block")
        return _code(inner) if inner is not None else _code(node)
    if node.type == "block":
        return _code(node)
    return [node]


def _kids_of(node, type_):
    return [c for c in node.named_children if c.type == type_]


def _val(ex, x, env):
    x = _unparen(x)
    if x.k == "lit" and isinstance(x.a[0], (bool, int)):
        return x.a[0]
    if x.k == "name" and x.a[0] in env:
        return env[x.a[0]]
    c = _colour(x)
    if c is not None:
        return c
    if x.k == "nav":
        r = _val(ex, x.a[0], env)
        if isinstance(r, _Card) and x.a[1] == "colors":
            return frozenset(r.cols)
        if isinstance(r, (list, frozenset)) and x.a[1] == "size":
            return len(r)
        raise _NotRead(_t(x.n)[:40])
    if x.k == "un" and x.a[0] == "!":
        v = _val(ex, x.a[1], env)
        if isinstance(v, bool):
            return not v
        raise _NotRead(_t(x.n)[:40])
    if x.k == "bin":
        op = x.a[0]
        if op in ("&&", "||"):
            a = _val(ex, x.a[1], env)
            if not isinstance(a, bool):
                raise _NotRead(_t(x.n)[:40])
            if op == "&&" and not a or op == "||" and a:
                return a
            b = _val(ex, x.a[2], env)
            if not isinstance(b, bool):
                raise _NotRead(_t(x.n)[:40])
            return b
        a, b = _val(ex, x.a[1], env), _val(ex, x.a[2], env)
        if type(a) is not type(b) or isinstance(a, (_Card, list)):
            raise _NotRead(_t(x.n)[:40])
        ops = {"==": lambda: a == b, "!=": lambda: a != b, "===": lambda: a == b, "!==": lambda: a != b}
        if isinstance(a, int) and not isinstance(a, bool):
            ops.update({"<": lambda: a < b, ">": lambda: a > b, "<=": lambda: a <= b, ">=": lambda: a >= b,
                        "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b})
        if op in ops:
            return ops[op]()
        raise _NotRead(_t(x.n)[:40])
    if x.k == "call" and x.a[0].k == "nav":
        r = _val(ex, x.a[0].a[0], env)
        m, args, lam = x.a[0].a[1], x.a[1], x.a[2]
        if isinstance(r, (list, frozenset)) and lam is not None and not args and \
                m in ("any", "all", "none", "count", "sumOf"):
            params, stmts = _lambda_parts(lam)
            if len(stmts) != 1 or len(params) > 1:
                raise _NotRead(_t(x.n)[:40])
            v = params[0] if params else "it"
            vals = [_val(ex, _ir(stmts[0]), {**env, v: item}) for item in (sorted(r) if isinstance(r, frozenset)
                                                                            else r)]
            if m == "sumOf":
                return sum(vals)
            if not all(isinstance(b, bool) for b in vals):
                raise _NotRead(_t(x.n)[:40])
            return {"any": any(vals), "all": all(vals), "none": not any(vals), "count": sum(vals)}[m]
        if isinstance(r, _Card) and not args and lam is None:
            body = _card_helper(ex, m)
            if body is not None:
                return _ev(ex, _ir(body), {}, r, 0)
        if isinstance(r, frozenset) and m == "contains" and len(args) == 1:
            return _val(ex, args[0].x, env) in r
    if x.k == "in":
        v, s = _val(ex, x.a[1], env), _val(ex, x.a[2], env)
        if isinstance(s, frozenset):
            return (v not in s) if x.a[0] else (v in s)
    raise _NotRead(_t(x.n)[:40])
