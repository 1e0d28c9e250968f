"""The condition language: parsed by us, typed, rendered back; the laws, not just examples."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skillproof.model import expr as E

U = E.Universe(frozenset({"Jie_Huo", "Wu_Dao"}), frozenset({"xiao_jiu"}))


def typed(text, ctx="query", want=None, params=None):
    n = E.parse(text)
    E.check(n, E.Scope(ctx, U, params or {}), want)
    return n


def test_precedence_and_rendering():
    n = typed("not face_up and hand_count + 1 > 2 or in_front")
    assert E.to_text(n) == "(not face_up and ((hand_count + 1) > 2)) or in_front"


@pytest.mark.parametrize("text, msg, col", [
    ("face_up and", "expected a value", 11),
    ("hand_count > true", "needs int operands", 13),
    ("Jie_Hou == Jie_Huo", "did you mean 'Jie_Huo'", 0),
    ("p.alive", "unknown name 'p'", 0),
    ("any(p: p.alivee)", "did you mean 'alive'", 9),
    ("identity in {red, 1}", "a set mixes", 18),
    ("count + 1", "not available in a fight expression", 0),
    ("hand_count * hand_count > 1", "needs a constant", 11),
    ("face_up )", "unexpected ')'", 8),
    ("a $ b", "unexpected character", 2),
])
def test_errors_name_the_column(text, msg, col):
    with pytest.raises(E.ExprError) as ei:
        typed(text, ctx="fight", want="bool")
    assert msg in ei.value.msg and ei.value.col == col


def test_count_is_both_a_global_and_a_quantifier():
    n = typed("if count(p: p.female) > 1 then count + 1 else count", ctx="draw", want="int")
    assert isinstance(n, E.If)


def test_lambda_columns_are_relative_to_the_whole_text():
    with pytest.raises(E.ExprError) as ei:
        lam = E.parse_lambda("q: q.idntity == none")
        E.check(lam.body, E.Scope("effect", U, {}, ("self", "q")), "bool")
    assert ei.value.col == 5


ATOMS = st.sampled_from(["face_up", "alive", "in_front", "true", "false", "hidden", "locked"])
INTS = st.sampled_from(["hand_count", "1", "0", "red_messages", "count(p: p.alive)"])


@st.composite
def bools(draw, depth=3):
    if depth == 0:
        return draw(ATOMS)
    kind = draw(st.sampled_from(["atom", "not", "and", "or", "cmp", "if", "in"]))
    if kind == "atom":
        return draw(ATOMS)
    if kind == "not":
        return f"not ({draw(bools(depth - 1))})"
    if kind in ("and", "or"):
        return f"({draw(bools(depth - 1))}) {kind} ({draw(bools(depth - 1))})"
    if kind == "cmp":
        return f"{draw(INTS)} {draw(st.sampled_from(['<', '<=', '==', '!=', '>', '>=']))} {draw(INTS)}"
    if kind == "in":
        return f"identity in {{{draw(st.sampled_from(['red', 'blue', 'black']))}, none}}"
    return f"if {draw(bools(depth - 1))} then {draw(bools(depth - 1))} else {draw(bools(depth - 1))}"


@settings(max_examples=300, deadline=None)
@given(bools())
def test_rendering_is_a_fixed_point_of_parsing(text):
    once = E.to_text(typed(text, want="bool"))
    assert E.to_text(typed(once, want="bool")) == once
