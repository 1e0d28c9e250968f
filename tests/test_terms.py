"""checks/terms.py: the fast constructors make the very term z3's own operators make (same z3 id), so replacing
z3's operators by them changes no witness; anything they do not take is left to z3."""
from __future__ import annotations

import itertools

import pytest
import z3

from skillproof.checks import terms as T

x, y = z3.Int("terms_x"), z3.Int("terms_y")
p, q = z3.Bool("terms_p"), z3.Bool("terms_q")
INTS = [x, y, x + y, z3.IntVal(3), z3.IntVal(-1)]
BOOLS = [p, q, z3.BoolVal(True), p == q]

OPS = [(T.Add, lambda a, b: a + b), (T.Sub, lambda a, b: a - b), (T.Mul, lambda a, b: a * b),
       (T.Le, lambda a, b: a <= b), (T.Lt, lambda a, b: a < b), (T.Ge, lambda a, b: a >= b),
       (T.Gt, lambda a, b: a > b), (T.Eq2, lambda a, b: a == b)]


@pytest.mark.parametrize("fast,ref", OPS)
def test_integer_operators_make_z3s_term(fast, ref):
    for a, b in itertools.product(INTS, repeat=2):
        got, want = fast(a, b), ref(a, b)
        assert got.get_id() == want.get_id(), (a, b, got, want)
        assert type(got) is type(want) or not z3.is_int_value(want)


def test_a_numeral_on_the_right_is_compared_reflected_as_python_does():
    n = z3.IntVal(5)
    assert str(x == n) == "5 == terms_x"            # Python asks the subclass (IntNumRef) first
    assert T.Eq2(x, n).get_id() == (x == n).get_id()
    assert T.Le(x, n).get_id() == (x <= n).get_id() and str(T.Le(x, n)) == "5 >= terms_x"


def test_boolean_equality_and_ite_make_z3s_term():
    for a, b in itertools.product(BOOLS, repeat=2):
        assert T.Eq2(a, b).get_id() == (a == b).get_id()
        assert T.Ite(p, a, b).get_id() == z3.If(p, a, b).get_id()
        assert isinstance(T.Ite(p, a, b), z3.BoolRef)
    for a, b in itertools.product(INTS, repeat=2):
        got = T.Ite(q, a, b)
        assert got.get_id() == z3.If(q, a, b).get_id() and isinstance(got, z3.ArithRef)


def test_anything_else_is_left_to_z3():
    assert T.Add(x, 2).get_id() == (x + 2).get_id()                 # a Python value: z3 coerces it
    assert T.Eq2(p, x).get_id() == (p == x).get_id()                # mixed sorts: z3's If(p, 1, 0) == x
    assert T.Ite(True, x, y) is not None and z3.simplify(T.Ite(True, x, y)).eq(x)
    c = z3.Context()
    other = z3.Int("terms_x", c)
    with pytest.raises(z3.Z3Exception):
        T.Add(x, other)                                             # two contexts: z3's own error, not a crash


def test_implies_makes_z3s_term():
    for a, b in itertools.product(BOOLS, repeat=2):
        got = T.Implies(a, b)
        assert got.get_id() == z3.Implies(a, b).get_id() and isinstance(got, z3.BoolRef)
    assert T.Implies(True, p).get_id() == z3.Implies(True, p).get_id()       # a Python value: z3's own


def _asked(fast: bool):
    """One run of questions in a context of its own: the answers, the cores, the models' values read, and the ids
    z3 gives the terms made after each — equal for z3's own calls and for terms.check / model_int / model_true."""
    c = z3.Context()
    a, b = z3.Int("a", c), z3.Int("b", c)
    lits = [z3.Bool(f"l{i}", c) for i in range(4)]
    s = z3.Solver(ctx=c)
    for lit, e in zip(lits, [a > 2, a < 1, b == a + 1, b > 7]):
        s.add(z3.Implies(lit, e))
    out = []
    for ls in ([], lits[:1], lits[:2], [lits[0], lits[2]], [lits[0], lits[2], lits[3]], lits):
        tmp = z3.And(a + 5 > b, b < 100)            # made and let go before the check: freed ids are reused
        del tmp
        r = T.check(s, *ls) if fast else s.check(*ls)
        row = [str(r)]
        if r == z3.unsat:
            row.append(sorted(str(x) for x in s.unsat_core()))
        elif r == z3.sat:
            m = s.model()
            z = z3.Int("unconstrained", c)           # model completion gives it a value
            if fast:
                row += [T.model_int(m, a), T.model_int(m, b), T.model_int(m, z), T.model_true(m, lits[3]),
                        T.model_true(m, a > b)]
            else:
                row += [m.eval(a, model_completion=True).as_long(), m.eval(b, model_completion=True).as_long(),
                        m.eval(z, model_completion=True).as_long(), z3.is_true(m.eval(lits[3], model_completion=True)),
                        z3.is_true(m.eval(a > b, model_completion=True))]
        row.append((a * 3 + b).get_id())             # the next term made: numbered as after z3's own calls
        out.append(row)
    return out


def test_check_and_model_reading_are_z3s_own_calls():
    fast, slow = _asked(True), _asked(False)
    assert fast == slow
    assert [r[0] for r in fast] == ["sat", "sat", "unsat", "sat", "sat", "unsat"]


def test_check_and_model_reading_leave_anything_else_to_z3():
    s = z3.Solver()
    s.add(p)
    assert T.check(s, True) == z3.sat and T.check(s, z3.Not(p)) == z3.unsat       # a Python value: z3's cast
    o = z3.Optimize()
    assert T.check(o, p) == z3.sat                                                  # not a z3.Solver
    m = o.model()
    assert T.model_true(m, p) is True and T.model_int(m, x + 1) == m.eval(x + 1, model_completion=True).as_long()
    with pytest.raises(AttributeError):
        T.model_int(m, p)                                                           # no integer: z3's own error


def _made(fast: bool):
    """Terms made and let go in a context of their own, by the fast makers or by z3's operators: the ids z3 gives
    the terms made after each round (a wrapper's reference taken and dropped as z3's own wrappers do)."""
    c = z3.Context()
    a, b = z3.Int("a", c), z3.Int("b", c)
    u, v = z3.Bool("u", c), z3.Bool("v", c)
    ids = []
    for k in range(4):
        if fast:
            made = [T.And(u, v), T.Or(u, T.Not(v)), T.Eq2(a, b), T.Le(a, b), T.Add(a, b), T.Ite(u, a, b),
                    T.Ite(u, u, v), T.Implies(u, v), T.Eq(a, k)]
        else:
            made = [z3.And(u, v), z3.Or(u, z3.Not(v)), a == b, a <= b, a + b, z3.If(u, a, b), z3.If(u, u, v),
                    z3.Implies(u, v), a == k]
        row = [(type(x).__name__, x.get_id(), x.ctx is c, str(x)) for x in made]
        del made
        z3.Bool(f"next{k}", c)
        row.append(z3.And(u, z3.Bool(f"next{k}", c)).get_id())    # numbered after the wrappers let go
        ids.append(row)
    return ids


def test_the_fast_wrappers_hold_and_free_terms_as_z3s_own():
    assert _made(True) == _made(False)
