"""Refactors undone in the source before the catalogue readers see it (``model/extract/quiet_source.py``, issue 24's
quiet side): the parts of a one-line junction that cannot throw in one order, ``this.f()`` as ``f()``, a condition
read once from a local, an ``if``/``else return`` at a function's end as its early return — each line kept where it
was, and each left alone where it would change the meaning. Small Kotlin snippets written for these tests."""
from __future__ import annotations

from skillproof.model.extract.quiet_source import quiet_source
from skillproof.model.extract.syntax import _make_parser

from skillproof.model.extract import extract

from test_wins_read import CHECK, PASS, END_NOW, _server_with

LOOP = "        game.PASS(whoseTurn, declareWinner, winner)\n"


def _with(line: str) -> str:
    return CHECK.replace(LOOP, LOOP + "        " + line + "\n")


def _win(tmp_path, check):
    files = {"phase/CheckWin.kt": check.replace("PASS", "changeGameResult").replace("END", END_NOW),
             "skill/ResultPass.kt": PASS.replace("PASS", "changeGameResult")}
    return extract(_server_with(tmp_path, files), quiet=True).engine["win.check"].value


def test_a_swapped_pure_predicate_reads_the_same_win_rule(tmp_path):
    before = _win(tmp_path / "a", check=_with("winner.removeIf { it !== whoseTurn && it.alive }"))
    assert _win(tmp_path / "b", check=_with("winner.removeIf { it.alive && it !== whoseTurn }")) == before
    assert _win(tmp_path / "c", check=_with("winner.removeIf { it.alive && it === whoseTurn }")) != before


SRC = """class A : Skill {
    fun isHan(p: Player) = true
    fun f(r: Player, ps: List<Player>, message: M): R? {
BODY
    }
}
"""


def _q(body: str) -> str:
    src = SRC.replace("BODY", body).encode()
    out = quiet_source(_make_parser(), src)
    assert out.count(b"\n") == src.count(b"\n")             # every line where it was
    return out.decode().split("\n", 3)[3].rsplit("\n    }\n}", 1)[0]


def test_this_member_is_bare_only_where_no_local_or_lambda_receiver_may_mean_another():
    assert _q("        this.isHan(r) || return null") == "        isHan(r) || return null"
    assert "this.isHan" in _q("        val isHan = 1\n        this.isHan(r) || return null")
    assert "this.isHan" in _q("        r.apply { this.isHan(r) }")


def test_a_condition_read_once_from_a_local_is_written_in_the_if():
    body = "        val c = r is HumanPlayer && !r.checkSeq(message.seq)\n        if (c) {\n            return null\n        }"
    assert _q(body).split("\n")[1] == "        if (r is HumanPlayer && !r.checkSeq(message.seq)) {"
    twice = body + "\n        if (c) r.draw(1)"
    assert "val c" in _q(twice)


def test_an_else_return_at_the_end_is_the_early_return():
    body = "        if (!(ps.size > 1)) {\n            r.draw(1)\n            return null\n        } else return R(r)"
    assert _q(body).split("\n")[0] == "        if (ps.size > 1) return R(r)"
    inner = body + "\n        r.draw(2)\n        return null"           # not the last statement: left
    assert "} else return R(r)" in _q(inner)


def test_only_junctions_of_parts_that_cannot_throw_are_ordered():
    assert _q("        if (r.alive && ps.isEmpty) return null") == "        if (ps.isEmpty && r.alive) return null"
    for kept in ("        if (r.alive && ps.first().alive) return null",
                 "        if (r.alive && ps[1].alive) return null",
                 "        if (r.alive && r.role!!.alive) return null",
                 "        if (r.hp > 0 && 10 / r.hp > 2) return null"):
        assert _q(kept) == kept


def test_a_local_of_the_function_around_an_anonymous_object_keeps_this():
    src = SRC.replace("BODY", "        val isHan = 1\n        val o = object : Q {\n            fun g(p: Player) {\n"
                              "                this.isHan(p) || return\n            }\n        }").encode()
    assert b"this.isHan" in quiet_source(_make_parser(), src)
    lazy = SRC.replace("BODY", "        val c by lazy { r.alive }\n        if (c) return null").encode()
    assert quiet_source(_make_parser(), lazy) == lazy


def test_a_negated_junction_of_equalities_is_pushed_in():
    assert _q("        if (!(r === ps || r.alive != true)) return null") == \
        "        if (r !== ps && r.alive == true) return null"
    kept = "        if (!(r.hp > 0 || r.alive)) return null"            # an ordering and a bare member: left
    assert _q(kept).startswith("        if (!(")


def test_a_null_test_has_its_null_on_the_right():
    assert _q("        if (null == r.role) return null") == "        if (r.role == null) return null"
    assert _q("        if (null !== r.role) return null") == "        if (r.role !== null) return null"


def test_a_junction_with_a_jump_or_a_null_guard_keeps_its_order():
    # `a || b || continue` skips on the last part only when the others fail; `x == null || !x.must` reads x.must on
    # the strength of the null test (a smart cast): either chain reordered would mean another thing
    for kept in ("        r.alive || !r.isInitial || return null",
                 "        if (c == null || !c.must || r.alive) return null",
                 "        if (r.alive && c != null && c.must) return null"):
        assert _q(kept) == kept


def test_a_when_without_subject_as_a_statement_is_its_if_chain():
    body = ("        when {\n            r.alive && ps.size > 2 -> {\n                r.draw(1)\n            }\n"
            "            isHan(r) -> r.draw(2)\n            else -> {\n                r.draw(3)\n            }\n        }")
    got = _q(body)
    assert "when" not in got and "->" not in got
    assert "if (" in got and "else if (isHan(r)) r.draw(2)" in got and "else {" in got
    # left as written: two conditions in one branch, a subject, a bare `if` body an `else` would bind to
    assert "when" in _q("        when {\n            r.alive, isHan(r) -> r.draw(1)\n        }")
    assert "when" in _q("        when (r) {\n            null -> r.draw(1)\n        }")
    assert "when" in _q("        when {\n            r.alive -> if (isHan(r)) r.draw(1)\n"
                        "            else -> r.draw(2)\n        }")
    assert "when" in _q("        val x = when {\n            r.alive -> 1\n            else -> 2\n        }")



def test_a_local_function_called_once_is_its_expression_at_the_call():
    body = "        fun big() = ps.size % 2 == 0 && isHan(r)\n        r.draw(1)\n        if (big()) r.draw(2)"
    assert _q(body).split("\n") == ["", "        r.draw(1)", "        if (ps.size % 2 == 0 && isHan(r)) r.draw(2)"]
    assert "(ps.size > 2)" in _q("        fun big() = ps.size > 2\n        val x = big() && r.alive")
    # left alone: called twice, called in a lambda, a name it reads declared again before the call, a parameter
    assert "fun big" in _q("        fun big() = ps.size > 2\n        if (big()) r.draw(1)\n        if (big()) r.draw(2)")
    assert "fun big" in _q("        fun big() = ps.size > 2\n        ps.forEach { if (big()) it.draw(1) }")
    assert "fun big" in _q("        fun big() = ps.size > 2\n        val ps = listOf(r)\n        if (big()) r.draw(1)")
    assert "fun big" in _q("        fun big(n: Int) = ps.size > n\n        if (big(2)) r.draw(1)")


def test_an_if_chain_of_type_tests_of_one_name_is_its_when():
    body = ("        if (message is A) {\n            r.draw(1)\n        } else if (message is B) {\n"
            "            r.draw(2)\n        } else {\n            r.draw(3)\n        }")
    assert _q(body).split("\n") == ["        when (message) { is A -> {", "            r.draw(1)",
                                    "        } is B -> {", "            r.draw(2)", "        } else -> {",
                                    "            r.draw(3)", "        } }"]
    # left alone: one test only, two names, a negated test
    assert _q(body.split(" else if")[0]).startswith("        if (message is A)")
    assert "when" not in _q(body.replace("(message is B)", "(r is B)"))
    assert "when" not in _q(body.replace("(message is B)", "(message !is B)"))
