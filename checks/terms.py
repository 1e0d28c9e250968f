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
