"""Values of the game's straight-line program: a Python constant where the value follows from the template's
concrete parts, a z3 term where it depends on a hole.

Every operation here folds when its operands are constants and builds the z3 term otherwise, so a template with
no holes (or every hole pinned) is decided while it is encoded — its constraints come out as ``True`` / ``False``
— and a template with holes gets terms only where a hole reaches. ``fold`` turns a z3 term that simplifies to a
constant back into one. No game rule lives here (the rules are the modules named as the interpreter's).
"""
from __future__ import annotations

import z3

from ..terms import NOT_CONST, const_of, per_context, Add as _Add, And as _And, Eq2 as _Eq, Ge as _Ge, Gt as _Gt, Ite as _Ite, Le as _Le, Lt as _Lt, \
    Mul as _Mul, Not as _Not, Or as _Or, Sub as _Sub

NONE = -1                   # "no seat" / "no card" / "no class" / "no task"


_PY = frozenset({bool, int, type(None), str, float})


def is_c(x) -> bool:
    """A constant (not a z3 term)."""
    return type(x) in _PY or not isinstance(x, z3.ExprRef)


_CONST: dict = per_context({})     # terms of the default context (checks/terms.own_context)


def z(x):
    """As a z3 term (constants made once)."""
    if isinstance(x, z3.ExprRef):
        return x
    key = (type(x) is bool, x)
    v = _CONST.get(key)
    if v is None:
        v = _CONST[key] = z3.BoolVal(x) if type(x) is bool else z3.IntVal(x)
    return v


def zb(x):
    return x if isinstance(x, z3.ExprRef) else z(bool(x))


def fold(x, simplify: bool = True):
    """A z3 term that is (or simplifies to) a constant, as the constant; else the term (simplified)."""
    if not isinstance(x, z3.ExprRef):
        return x
    c = const_of(x)
    if c is not NOT_CONST:
        return c
    if simplify:
        x = z3.simplify(x)
        c = const_of(x)
        if c is not NOT_CONST:
            return c
    return x


def NOT(a):
    if type(a) is bool:
        return not a
    if is_c(a):
        return not a
    return _Not(a)


def AND(*xs):
    if len(xs) == 1 and type(xs[0]) in (list, tuple):
        xs = xs[0]
    out = None
    for x in xs:
        if type(x) is bool:
            if not x:
                return False
            continue
        if is_c(x):
            if not x:
                return False
            continue
        if out is None:
            out = [x]
        else:
            out.append(x)
    if out is None:
        return True
    return out[0] if len(out) == 1 else _And(out)


def OR(*xs):
    if len(xs) == 1 and type(xs[0]) in (list, tuple):
        xs = xs[0]
    out = None
    for x in xs:
        if type(x) is bool:
            if x:
                return True
            continue
        if is_c(x):
            if x:
                return True
            continue
        if out is None:
            out = [x]
        else:
            out.append(x)
    if out is None:
        return False
    return out[0] if len(out) == 1 else _Or(out)


def IMPLIES(a, b):
    return OR(NOT(a), b)


def ITE(c, a, b):
    if type(c) is bool or is_c(c):
        return a if c else b
    if is_c(a) and is_c(b) and a == b and type(a) is type(b):
        return a
    if a is b:
        return a
    if isinstance(a, bool) or isinstance(b, bool) or (isinstance(a, z3.BoolRef)) or isinstance(b, z3.BoolRef):
        return _Ite(c, zb(a), zb(b))
    return _Ite(c, z(a), z(b))


def EQ(a, b):
    ta, tb = type(a), type(b)
    if (ta is int or ta is bool) and (tb is int or tb is bool):
        return a == b
    if is_c(a) and is_c(b):
        return a == b
    if isinstance(a, (bool, z3.BoolRef)) or isinstance(b, (bool, z3.BoolRef)):
        return _Eq(zb(a), zb(b))
    return _Eq(z(a), z(b))


def NE(a, b):
    return NOT(EQ(a, b))


def _arith(op, mk):
    """``op`` on constants; on terms ``mk`` (checks/terms.py: the term z3's operator makes, without its coercion)."""
    def f(a, b):
        if type(a) is int and type(b) is int:
            return op(a, b)
        if is_c(a) and is_c(b):
            return op(a, b)
        return mk(z(a), z(b))
    return f


import operator as _op  # noqa: E402

ADD, SUB, MUL = _arith(_op.add, _Add), _arith(_op.sub, _Sub), _arith(_op.mul, _Mul)
LT, LE, GT, GE = _arith(_op.lt, _Lt), _arith(_op.le, _Le), _arith(_op.gt, _Gt), _arith(_op.ge, _Ge)


def MIN(a, b):
    return ITE(LE(a, b), a, b)


def MAX(a, b):
    return ITE(GE(a, b), a, b)


def SUM(xs):
    xs = list(xs)
    if all(type(x) is int for x in xs):
        return sum(xs)
    out = 0
    for x in xs:
        out = ADD(out, x)
    return out


def IN(x, values) -> object:
    """``x`` is one of the constants ``values``."""
    if is_c(x):
        return x in values
    return OR([EQ(x, v) for v in values])


def pick(index, options: list, default=None):
    """``options[index]`` for a (maybe symbolic) integer ``index``; ``default`` where it is out of range."""
    if is_c(index):
        return options[index] if 0 <= index < len(options) else default
    out = default
    for i in range(len(options) - 1, -1, -1):
        out = ITE(EQ(index, i), options[i], out) if out is not None else options[i]
    return out


def cases(x, values):
    """[(value, condition)] for the constants ``values`` a (maybe symbolic) ``x`` may be: one pair when ``x`` is a
    constant."""
    if is_c(x):
        return [(x, True)] if x in values else []
    return [(v, EQ(x, v)) for v in values]
