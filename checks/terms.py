"""Fast constructors of z3 terms, used by the encoders instead of ``z3.And`` / ``z3.Or`` / ``z3.If`` and z3's
operators (integer arithmetic, comparisons, equality: the game twin's, below), and z3's reference counting
without an error check after each call.

z3's Python ``And``/``Or`` coerce every argument (sorts, contexts, Python values) before making the term —
about 50 µs a call, which was most of the time spent building a question's symbolic state. When every
argument is already a z3 Boolean of one context (nearly always, in our encoders) these build the very same
term (one ``Z3_mk_and`` / ``Z3_mk_or`` over the same arguments, so the solver sees identical formulas and
the witnesses do not change) without the coercion; any other argument falls back to z3's own function.
"""
from __future__ import annotations

import contextlib

import z3
from z3 import z3core as _core


def _raw(fn):
    """The C function behind one of z3's Python wrappers (``z3core``): the same call without the error check after
    it — for the makers below, called only on operands they have checked (z3 terms of the right sorts and one
    context), where z3 reports no error."""
    return fn.__defaults__[0].f


_AND, _OR, _NOT, _EQ = _raw(_core.Z3_mk_and), _raw(_core.Z3_mk_or), _raw(_core.Z3_mk_not), _raw(_core.Z3_mk_eq)
_BoolRef, _Ast = z3.BoolRef, z3.Ast
_INC, _DEC = _raw(_core.Z3_inc_ref), _raw(_core.Z3_dec_ref)
_new = object.__new__


def _wrap(cls, ast, ctx):
    """``cls(ast, ctx)`` for a term z3 just made in ``ctx`` (``z3.BoolRef`` / ``z3.ArithRef``): what z3's
    ``AstRef.__init__`` does — the term and its context kept, one ``Z3_inc_ref`` — without its lookups of the
    context and of the term (the makers below wrap some 50,000 terms a lane); z3's own ``__del__`` lets it go."""
    o = _new(cls)
    o.ast = ast
    o.ctx = ctx
    _INC(ctx.ref(), ast)
    return o


def _mk(maker, fallback, args):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    if not args:
        return fallback(args)
    ctx = args[0].ctx if type(args[0]) is _BoolRef else None
    asts = []
    for a in args:
        if type(a) is not _BoolRef or a.ctx is not ctx:
            return fallback(*args)
        asts.append(a.ast)
    n = len(asts)
    return _wrap(_BoolRef, maker(ctx.ref(), n, (_Ast * n)(*asts)), ctx)


def And(*args):
    """``z3.And`` (same term), fast when every argument is a z3 Boolean."""
    return _mk(_AND, z3.And, args)


def Or(*args):
    """``z3.Or`` (same term), fast when every argument is a z3 Boolean."""
    return _mk(_OR, z3.Or, args)


def Not(a):
    """``z3.Not(a)`` (the same term), fast for a z3 Boolean ``a``."""
    if type(a) is z3.BoolRef:
        ctx = a.ctx
        return _wrap(_BoolRef, _NOT(ctx.ref(), a.ast), ctx)
    return z3.Not(a)


_INTS: dict = {}


# ------------------------------------------------------------------------------------------ a context of its own
# z3 numbers the terms of a context in the order they are made and gives the numbers of freed terms to new ones;
# its heuristics visit terms in that order. Work done in a lane's context between two of its questions (making a
# witness a game: checks/realise.py) therefore moved what the lane's later questions answered — every change to
# that work changed other findings' witnesses. ``own_context`` runs such work in a context of its own: every term
# and solver made inside without a context named (``ctx=None``: all of the encoders' — z3's default context is
# ``z3.main_ctx()``) is of it, and the lane's context is as if the work never ran. The own context is made once per
# process (a fresh one after ``fresh_own_context``: each lane starts one, checks/context._run_lane — z3 takes
# 3–8 ms of CPU to make a context in a lane, too much to make one per witness); the caches of terms
# (``per_context``) are swapped with it.
_PER_CONTEXT: list = [_INTS]


class _Own:
    ctx = None                  # the own context (None: make one at the next block)
    pid = None                  # the process that made it (a forked child makes its own)
    caches: dict = {}           # id(cache) -> the own context's entries of it
    depth = 0                   # blocks running


def per_context(cache: dict) -> dict:
    """Register a module's cache of z3 terms made in the default context: ``own_context`` swaps its entries with
    the own context's for its block."""
    _PER_CONTEXT.append(cache)
    return cache


def fresh_own_context() -> None:
    """The next ``own_context`` block starts a new context (what ran in the last one no longer counts)."""
    if _Own.depth == 0:
        _Own.ctx = None


def renew_own_context() -> None:
    """Inside an ``own_context`` block: from here on the block runs in a fresh context (the one it ran in is left
    to the terms still holding it); outside one, nothing."""
    import z3.z3 as _z3
    if _Own.depth == 0 or _Own.ctx is None or _z3._main_ctx is not _Own.ctx:
        return
    for c in _PER_CONTEXT:
        c.clear()
    _Own.ctx, _Own.caches = z3.Context(), {}
    _z3._main_ctx = _Own.ctx


def _interrupt_own() -> None:
    """SIGINT / SIGTERM during a block of ``own_context``: its running check returns at once (checks/z3signals.py
    interrupts the default context for the rest)."""
    c = _Own.ctx
    if c is not None and _Own.depth:
        c.interrupt()


@contextlib.contextmanager
def own_context():
    """The block runs with the own z3 context as z3's default one. Nothing made inside may leave it (the caller
    turns what it found into Python values); the lane's context, its caches and numbering are untouched. Where z3's
    Python layer keeps its default context elsewhere than ``z3.z3._main_ctx`` (not in any release so far), the block
    runs in the default context as before; a block inside another is part of it."""
    import os
    import z3.z3 as _z3
    if not hasattr(_z3, "_main_ctx") or _Own.depth:
        yield None
        return
    from . import z3signals  # noqa: F401  (its handler is set on the lane's context, before the swap)
    from skillproof.model.signals import on_signal
    on_signal(_interrupt_own)
    outer = z3.main_ctx()
    if _Own.ctx is None or _Own.pid != os.getpid():
        _Own.ctx, _Own.pid, _Own.caches = z3.Context(), os.getpid(), {}
    mine = _Own.ctx
    saved = [dict(c) for c in _PER_CONTEXT]
    for c in _PER_CONTEXT:
        c.clear()
        c.update(_Own.caches.get(id(c), ()))
    _Own.depth += 1
    _z3._main_ctx = mine
    try:
        yield mine
    finally:
        _z3._main_ctx = outer
        _Own.depth -= 1
        for c, old in zip(_PER_CONTEXT, saved):
            _Own.caches[id(c)] = dict(c)          # (of the context the block ended in: renew_own_context)
            c.clear()
            c.update(old)


def IntVal(k: int, ctx=None):
    """``z3.IntVal(k)``, made once per context (the same term: numerals are shared by z3 anyway)."""
    ctx = ctx or z3.main_ctx()
    key = (id(ctx), k)
    v = _INTS.get(key)
    if v is None:
        v = _INTS[key] = z3.IntVal(k, ctx)
    return v


def Eq(a, b):
    """``a == b`` (the same term) for a z3 integer term ``a`` and a Python int ``b`` or another z3 integer
    term, without z3's coercion of the operands (about 5x cheaper). Anything else — including a z3 numeral
    object as ``b``, which Python compares reflected (``b == a``) — is left to z3."""
    if type(a) is z3.ArithRef:
        if type(b) is int:
            b = IntVal(b, a.ctx)
        elif type(b) is not z3.ArithRef or b.ctx is not a.ctx:
            return a == b
        ctx = a.ctx
        return _wrap(_BoolRef, _EQ(ctx.ref(), a.ast, b.ast), ctx)
    return a == b


# ------------------------------------------------------------------------------------------ integers and ite
# The game twin (checks/enc/val.py) builds most of its terms with these. Like ``And``/``Or`` above they make the
# very term z3's operators make — one ``Z3_mk_*`` call over the same arguments, in the same order, so z3 numbers
# its terms as before and no witness changes — without z3's coercion of the operands (sorts, contexts, Python
# values: most of the cost of a game encoding). They are taken only when both operands are z3 integers (or both
# Booleans, for ``Eq2`` and ``Ite``) of one context; anything else goes to z3's own operator. Every integer term of
# the encoders is of sort Int (none is Real): the check of the operand's Python class is the check of its sort.


def _count_references_unchecked() -> None:
    """Every z3 term Python holds is counted in and out (``AstRef.__init__`` / ``__del__``: ``Z3_inc_ref`` /
    ``Z3_dec_ref``), hundreds of thousands of times a check; z3's Python layer asks z3 for an error code after
    each — a third of their cost. Neither can fail on a term z3 made (a dec_ref of a term with no references left
    is the only error, one z3's Python layer itself leaves unchecked in its collected wrappers), so z3's wrappers
    call them directly: the same calls in the same order, no term or witness changes."""
    import z3.z3 as _z3
    if _z3.Z3_inc_ref is _core.Z3_inc_ref and _z3.Z3_dec_ref is _core.Z3_dec_ref:     # z3's own: replaced once
        _z3.Z3_inc_ref, _z3.Z3_dec_ref = _INC, _DEC


_count_references_unchecked()


def _flush(ctx, a) -> None:
    """What ``z3.If`` does before it makes its term: it wraps the Boolean sort (``Z3_inc_ref``), and z3 then frees
    the terms Python has let go of since (they wait in a queue: Python's context lets any thread drop a reference).
    Freed terms give their numbers to the next ones made, so a term made before this flush would be numbered
    differently — and the solver's search, so a witness, would change. An inc_ref and dec_ref of the live operand
    ``a`` flushes the queue and changes nothing else. (z3's ``==``, ``+``, ``<=`` … wrap nothing when both operands
    have one sort: no flush there.)"""
    r = ctx.ref()
    _INC(r, a.ast)
    _DEC(r, a.ast)


_ADD, _SUB, _MUL = _raw(_core.Z3_mk_add), _raw(_core.Z3_mk_sub), _raw(_core.Z3_mk_mul)
_LE, _LT, _GE, _GT = _raw(_core.Z3_mk_le), _raw(_core.Z3_mk_lt), _raw(_core.Z3_mk_ge), _raw(_core.Z3_mk_gt)
_ITE = _raw(_core.Z3_mk_ite)


def _ints(a, b) -> bool:
    ta, tb = type(a), type(b)
    return (ta is z3.ArithRef or ta is z3.IntNumRef) and (tb is z3.ArithRef or tb is z3.IntNumRef) \
        and a.ctx is b.ctx


def _nary(maker, a, b):
    ctx = a.ctx
    return _wrap(z3.ArithRef, maker(ctx.ref(), 2, (_Ast * 2)(a.ast, b.ast)), ctx)


def Add(a, b):
    """``a + b`` (the same term) for z3 integers; anything else as z3's ``+``."""
    if _ints(a, b):
        return _nary(_ADD, a, b)
    return a + b


def Sub(a, b):
    """``a - b`` (the same term) for z3 integers."""
    if _ints(a, b):
        return _nary(_SUB, a, b)
    return a - b


def Mul(a, b):
    """``a * b`` (the same term) for z3 integers."""
    if _ints(a, b):
        return _nary(_MUL, a, b)
    return a * b


def _cmp(maker, flipped, a, b):
    """``a OP b`` as Python's comparison makes it: a z3 numeral on the right of another integer term is a subclass
    of its class (``IntNumRef`` of ``ArithRef``), so Python asks the numeral first, reflected (``b OP' a``)."""
    if type(b) is z3.IntNumRef and type(a) is z3.ArithRef:
        a, b, maker = b, a, flipped
    ctx = a.ctx
    return _wrap(_BoolRef, maker(ctx.ref(), a.ast, b.ast), ctx)


def Le(a, b):
    """``a <= b`` (the same term) for z3 integers."""
    return _cmp(_LE, _GE, a, b) if _ints(a, b) else a <= b


def Lt(a, b):
    """``a < b`` (the same term) for z3 integers."""
    return _cmp(_LT, _GT, a, b) if _ints(a, b) else a < b


def Ge(a, b):
    """``a >= b`` (the same term) for z3 integers."""
    return _cmp(_GE, _LE, a, b) if _ints(a, b) else a >= b


def Gt(a, b):
    """``a > b`` (the same term) for z3 integers."""
    return _cmp(_GT, _LT, a, b) if _ints(a, b) else a > b


def Eq2(a, b):
    """``a == b`` (the same term) for two z3 integers or two z3 Booleans of one context."""
    ta = type(a)
    if (ta is z3.BoolRef and type(b) is z3.BoolRef and a.ctx is b.ctx) or _ints(a, b):
        return _cmp(_EQ, _EQ, a, b)
    return a == b


def Ite(c, a, b):
    """``z3.If(c, a, b)`` (the same term) for a z3 Boolean ``c`` and two z3 integers or two z3 Booleans."""
    if type(c) is z3.BoolRef:
        ctx = c.ctx
        _flush(ctx, c)
        ta = type(a)
        if ta is z3.BoolRef and type(b) is z3.BoolRef and a.ctx is ctx and b.ctx is ctx:
            return _wrap(_BoolRef, _ITE(ctx.ref(), c.ast, a.ast, b.ast), ctx)
        if _ints(a, b) and a.ctx is ctx:
            return _wrap(z3.ArithRef, _ITE(ctx.ref(), c.ast, a.ast, b.ast), ctx)
    return z3.If(c, a, b)


_IMPLIES = _raw(_core.Z3_mk_implies)


def Implies(a, b):
    """``z3.Implies(a, b)`` (the same term, the queue of freed terms flushed first as z3's makes the Boolean sort)
    for two z3 Booleans of one context; anything else as z3's."""
    if type(a) is _BoolRef and type(b) is _BoolRef and a.ctx is b.ctx:
        ctx = a.ctx
        _flush(ctx, a)
        return _wrap(_BoolRef, _IMPLIES(ctx.ref(), a.ast, b.ast), ctx)
    return z3.Implies(a, b)


# ------------------------------------------------------------------------------------------ constants
# ``z3.is_true`` / ``is_false`` / ``is_int_value`` ask through z3's Python layers (the term's kind, its declaration,
# the declaration's kind: a few wrapped objects each); the game twin folds every constraint it makes with them
# (checks/enc/val.fold). One C call each answers the same: Z3_get_bool_value is the constant true / false test
# z3.is_true / is_false make (Z3_L_TRUE / Z3_L_FALSE for those two terms only), Z3_is_numeral_ast is_int_value's.
_BOOL_VALUE, _IS_NUMERAL = _raw(_core.Z3_get_bool_value), _raw(_core.Z3_is_numeral_ast)
_NUMERAL_STRING = _raw(_core.Z3_get_numeral_string)
_SORT, _SORT_KIND = _raw(_core.Z3_get_sort), _raw(_core.Z3_get_sort_kind)
_INT_SORT = z3.Z3_INT_SORT
_NOT_CONST = object()


def const_of(x):
    """The Python constant a z3 term is (True / False for z3's true / false, an int for an integer numeral), else
    ``NOT_CONST``: what ``z3.is_true(x)`` / ``is_false(x)`` / ``is_int_value(x)`` tell, in one C call."""
    t = type(x)
    if t is _BoolRef:
        v = _BOOL_VALUE(x.ctx.ref(), x.ast)
        return True if v == 1 else False if v == -1 else _NOT_CONST
    if t is z3.ArithRef or t is z3.IntNumRef:
        r = x.ctx.ref()
        if _IS_NUMERAL(r, x.ast) and _SORT_KIND(r, _SORT(r, x.ast)) == _INT_SORT:
            return int(_NUMERAL_STRING(r, x.ast).decode())
        return _NOT_CONST
    if z3.is_true(x):
        return True
    if z3.is_false(x):
        return False
    if z3.is_int_value(x):
        return x.as_long()
    return _NOT_CONST


NOT_CONST = _NOT_CONST


_OPT_ASSERT = _raw(_core.Z3_optimize_assert)


def assert_all(opt, exprs) -> None:
    """``opt.add(exprs)`` for a ``z3.Optimize`` (the same calls, in order): z3 Booleans of its context asserted
    without z3's cast of each; anything else through ``opt.add``."""
    ctx = opt.ctx
    r = ctx.ref()
    for e in exprs:
        if type(e) is _BoolRef and e.ctx is ctx:
            _OPT_ASSERT(r, opt.optimize, e.ast)
        else:
            opt.add(e)


# ------------------------------------------------------------------------------------------ asking and reading
# ``Solver.check(*assumptions)`` casts each assumption to a Boolean before the call (a wrapped sort and an equality
# test of sorts per assumption: most of the Python cost of a question, which assumes 2–40 literals), and
# ``model.eval(e).as_long()`` / ``is_true(model.eval(e))`` wrap the value, its sort and its declaration before
# reading it. These make the very same calls to z3 that change anything in it — the Boolean sort made, then the
# queue of freed terms flushed before the check (as wrapping that sort does); the value held (``Z3_inc_ref``, which
# flushes the same queue) while it is read and let go after (``Z3_dec_ref``, queued) — so z3 numbers and frees its
# terms as before and no answer or witness changes; they skip only the wrappers of sorts and declarations (which
# z3 never frees) and the checks of what the callers pass (anything else goes to z3's own method).
_SOLVER_CHECK = _core.Z3_solver_check_assumptions       # with its error check, as z3's own
_MK_BOOL_SORT = _raw(_core.Z3_mk_bool_sort)
_MODEL_EVAL = _raw(_core.Z3_model_eval)


def check(solver, *assumptions):
    """``solver.check(*assumptions)`` for a ``z3.Solver`` and z3 Booleans of its context (the same calls to z3)."""
    if type(solver) is not z3.Solver:
        return solver.check(*assumptions)
    ctx = solver.ctx
    n = len(assumptions)
    asts = []
    for a in assumptions:
        if type(a) is not _BoolRef or a.ctx is not ctx:
            return solver.check(*assumptions)
        asts.append(a.ast)
    r = ctx.ref()
    b = _MK_BOOL_SORT(r)            # z3.BoolSort(ctx), as Solver.check makes it; wrapping it flushes the queue
    _INC(r, b)
    _DEC(r, b)
    return z3.CheckSatResult(_SOLVER_CHECK(r, solver.solver, n, (_Ast * n)(*asts)))


_SOLVER_ASSERT = _raw(_core.Z3_solver_assert)


def add(solver, exprs) -> None:
    """``solver.add(exprs)`` for a ``z3.Solver`` and a list of z3 Booleans of its context (the same calls to z3: the
    Boolean sort made and wrapped, then each asserted in order) without z3's cast of each; anything else through
    ``solver.add``."""
    if type(solver) is not z3.Solver:
        return solver.add(exprs)
    ctx = solver.ctx
    for e in exprs:
        if type(e) is not _BoolRef or e.ctx is not ctx:
            return solver.add(exprs)
    r = ctx.ref()
    b = _MK_BOOL_SORT(r)            # z3.BoolSort(ctx), as Solver.add makes it; wrapping it flushes the queue
    _INC(r, b)
    _DEC(r, b)
    sv = solver.solver
    for e in exprs:
        _SOLVER_ASSERT(r, sv, e.ast)


def _eval(model, e, r):
    out = (_Ast * 1)()
    if not _MODEL_EVAL(r, model.model, e.ast, True, out):
        raise z3.Z3Exception("failed to evaluate expression in the model")
    a = out[0]
    _INC(r, a)                      # as wrapping the value does (and it flushes the queue of freed terms)
    return a


def model_true(model, e) -> bool:
    """``z3.is_true(model.eval(e, model_completion=True))`` for a z3 Boolean ``e`` (the same calls to z3)."""
    ctx = model.ctx
    if type(e) is not _BoolRef or e.ctx is not ctx:
        return z3.is_true(model.eval(e, model_completion=True))
    r = ctx.ref()
    a = _eval(model, e, r)
    v = _BOOL_VALUE(r, a)
    _DEC(r, a)
    return v == 1


def model_int(model, e) -> int:
    """``model.eval(e, model_completion=True).as_long()`` for a z3 integer ``e`` (the same calls to z3)."""
    ctx = model.ctx
    t = type(e)
    if (t is not z3.ArithRef and t is not z3.IntNumRef) or e.ctx is not ctx:
        return model.eval(e, model_completion=True).as_long()
    r = ctx.ref()
    a = _eval(model, e, r)
    try:
        if _IS_NUMERAL(r, a) and _SORT_KIND(r, _SORT(r, a)) == _INT_SORT:
            return int(_NUMERAL_STRING(r, a).decode())
        return z3._to_expr_ref(a, ctx).as_long()            # no integer numeral: z3's own answer (its error)
    finally:
        _DEC(r, a)
