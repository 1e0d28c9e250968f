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
