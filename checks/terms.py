"""Fast constructors of z3 Boolean terms, used by the encoders instead of ``z3.And`` / ``z3.Or``.

z3's Python ``And``/``Or`` coerce every argument (sorts, contexts, Python values) before making the term —
about 50 µs a call, which was most of the time spent building a question's symbolic state. When every
argument is already a z3 Boolean of one context (nearly always, in our encoders) these build the very same
term (one ``Z3_mk_and`` / ``Z3_mk_or`` over the same arguments, so the solver sees identical formulas and
the witnesses do not change) without the coercion; any other argument falls back to z3's own function.
"""
from __future__ import annotations

import z3
from z3 import z3core as _core


def _flat(args):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return args[0]
    return args


def _mk(maker, fallback, args):
    args = _flat(args)
    if not args:
        return fallback(args)
    ctx = None
    for a in args:
        if type(a) is not z3.BoolRef or (ctx is not None and a.ctx is not ctx):
            return fallback(*args)
        ctx = a.ctx
    n = len(args)
    arr = (z3.Ast * n)()
    for i, a in enumerate(args):
        arr[i] = a.as_ast()
    return z3.BoolRef(maker(ctx.ref(), n, arr), ctx)


def And(*args):
    """``z3.And`` (same term), fast when every argument is a z3 Boolean."""
    return _mk(_core.Z3_mk_and, z3.And, args)


def Or(*args):
    """``z3.Or`` (same term), fast when every argument is a z3 Boolean."""
    return _mk(_core.Z3_mk_or, z3.Or, args)


def Not(a):
    """``z3.Not(a)`` (the same term), fast for a z3 Boolean ``a``."""
    if type(a) is z3.BoolRef:
        ctx = a.ctx
        return z3.BoolRef(_core.Z3_mk_not(ctx.ref(), a.as_ast()), ctx)
    return z3.Not(a)


_INTS: dict = {}


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
        return z3.BoolRef(_core.Z3_mk_eq(ctx.ref(), a.as_ast(), b.as_ast()), ctx)
    return a == b
