"""Quiet edits of the thirteenth planted sample's last shapes (issue 24's quiet side, tenth part), read alike by shape:
a statement both branches of an ``if`` begin or end with, hoisted before or after it; one step of an integer ``var``
(``return ++n``, ``n += 1; return n``, ``n = n + 1``, ``n++``); a function whose expression body returns nothing
(``= xs.forEach { }``) written as a block, with its loop in either form; the branches of a ``when (s)`` whose
conditions are distinct constants, in another order. Each with a real change of the same shape that must still be
named. The gate reads each file through ``quiet_source`` before it compares normal forms (``unread.compare``), as
here. Small Kotlin snippets written for these tests (our own code, not the server's)."""
from __future__ import annotations

from quietkit import _P
from quietkit import CHANGED, SKILL
from quietkit import quiet_changes as _changes
from skillproof.model.extract.quiet_source import quiet_source

# ------------------------------------------------------------------ a statement common to both branches, hoisted
BOTH = """        if (target.alive) {
            logger.info("take")
            r.draw(2)
            target.draw(1)
        } else {
            logger.info("give")
            r.draw(2)
            target.draw(3)
        }"""
HOISTED = """        r.draw(2)
        if (target.alive) {
            logger.info("take")
            target.draw(1)
        } else {
            logger.info("give")
            target.draw(3)
        }"""


def test_a_statement_both_branches_begin_with_is_the_statement_before_the_if():
    assert _changes(SKILL, BOTH, HOISTED) == []
    assert _changes(SKILL, HOISTED, BOTH) == []


def test_a_statement_hoisted_that_is_not_in_both_branches_or_changes_the_test_is_named():
    for after in (HOISTED.replace("            target.draw(3)", "            r.draw(2)\n            target.draw(3)"),
                  HOISTED.replace("r.draw(2)", "r.draw(4)"),
                  HOISTED.replace("        r.draw(2)\n", "        r.draw(2)\n        r.draw(2)\n")):
        assert _changes(SKILL, BOTH, after) == CHANGED, after
    # the statement may change what the test reads (a call on the test's own receiver; a test that calls)
    for stmt, cond in (("target.draw(2)", "target.alive"), ("r.draw(2)", "target.isHurt(r)"),
                       ("hurt(target)", "target.alive")):
        before = BOTH.replace("r.draw(2)", stmt).replace("target.alive", cond)
        after = HOISTED.replace("r.draw(2)", stmt).replace("target.alive", cond)
        assert _changes(SKILL, before, after) == CHANGED, (stmt, cond)


ENDS = """        if (target.alive) {
            target.draw(1)
            r.draw(2)
        } else {
            target.draw(3)
            r.draw(2)
            logger.info("done")
        }"""
AFTER_IF = """        if (target.alive) {
            target.draw(1)
        } else {
            target.draw(3)
            logger.info("done")
        }
        r.draw(2)"""


def test_a_statement_both_branches_end_with_is_the_statement_after_the_if():
    assert _changes(SKILL, ENDS, AFTER_IF) == []
    assert _changes(SKILL, AFTER_IF, ENDS) == []


def test_an_ending_statement_moved_out_of_one_branch_only_or_reading_a_branch_local_is_named():
    assert _changes(SKILL, ENDS, AFTER_IF.replace("target.draw(1)", "target.draw(1)\n            r.draw(2)")) == \
        CHANGED
    assert _changes(SKILL, ENDS, AFTER_IF.replace("        r.draw(2)", "        r.draw(3)")) == CHANGED
    local = ENDS.replace("target.draw(1)", "val n = 1").replace("target.draw(3)", "val n = 3") \
        .replace("r.draw(2)", "r.draw(n)")
    src = SKILL.replace("BODY", local).encode()
    assert quiet_source(_P, src) == src                 # `n` is another local in each branch: not moved


# ---------------------------------------------------------------------------- one step of an integer var
DECK = """package demo.game.card

class Deck(private val game: Game) {
    private var nextId = 0
    private var name = ""

    fun getNextId(): Int {
BODY
    }

    fun reset() {
        nextId = 0
    }

    override fun copy(c: Card): Card = Card(getNextId(), c.colors)
}
"""


def test_one_step_of_an_integer_var_is_read_alike_in_every_spelling():
    ref = "        return ++nextId"
    for after in ("        nextId += 1; return nextId", "        nextId += 1\n        return nextId",
                  "        nextId++\n        return nextId", "        ++nextId\n        return nextId",
                  "        nextId = nextId + 1\n        return nextId", "        nextId = 1 + nextId; return nextId",
                  "        this.nextId++\n        return this.nextId"):
        assert _changes(DECK, ref, after, "card/Deck.kt") == [], after


def test_another_step_of_an_integer_var_is_named():
    ref = "        return ++nextId"
    for after in ("        return nextId++", "        nextId += 2; return nextId", "        return nextId + 1",
                  "        return --nextId", "        nextId = nextId - 1; return nextId",
                  "        nextId++\n        return nextId + 1"):
        assert _changes(DECK, ref, after, "card/Deck.kt") == [("Deck.getNextId", "changed")], after


def test_a_step_of_a_name_that_is_not_only_an_integer_var_is_left_as_written():
    for body in ("        name = name + 1\n        return 0",                      # a string
                 "        var nextId = 3L\n        return ++nextId"):            # declared twice in the file
        src = DECK.replace("BODY", body).encode()
        assert quiet_source(_P, src) == src, body


# ----------------------------------------------------------------- an expression body that returns nothing
HELPERS = """package demo.game.skill

class Cure : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player, message: GeneratedMessage) {
        heal(g.players)
    }

BODY
}
"""


def test_an_expression_body_that_returns_nothing_is_the_block_with_its_loop_in_either_form():
    ref = "    private fun heal(ps: List<Player>) = ps.forEach { it.draw(1) }"
    for after in ("    private fun heal(ps: List<Player>) { for (p in ps) p.draw(1) }",
                  "    private fun heal(ps: List<Player>) {\n        for (p in ps) {\n            p.draw(1)\n        }\n    }",
                  "    private fun heal(ps: List<Player>) { ps.forEach { p -> p.draw(1) } }"):
        assert _changes(HELPERS, ref, after) == [], after


def test_another_loop_body_or_a_body_that_returns_a_value_is_named():
    ref = "    private fun heal(ps: List<Player>) = ps.forEach { it.draw(1) }"
    for after in ("    private fun heal(ps: List<Player>) { for (p in ps) p.draw(2) }",
                  "    private fun heal(ps: List<Player>) { for (p in ps.drop(1)) p.draw(1) }"):
        assert _changes(HELPERS, ref, after) == [("Cure.heal", "changed")], after
    # `map` returns the list it makes: the block form returns nothing, so the expression body is kept
    src = HELPERS.replace("BODY", "    private fun heal(ps: List<Player>) = ps.map { it.draw(1) }").encode()
    assert quiet_source(_P, src) == src


# ------------------------------------------------------ when branches on distinct constants, in another order
WHEN = """package demo.game.skill

import demo.protos.Common.color.*

class Cure : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player, message: GeneratedMessage) {
        when (message.color) {
BODY
        }
    }
}
"""


def test_when_branches_on_distinct_constants_are_read_in_any_order():
    ref = "            Black -> r.draw(1)\n            Red -> r.draw(2)\n            Blue, Green -> r.draw(3)\n" \
          "            else -> {}"
    for after in ("            Red -> r.draw(2)\n            Black -> r.draw(1)\n            Blue, Green -> r.draw(3)\n"
                  "            else -> {}",
                  "            Green, Blue -> r.draw(3)\n            color.Red -> r.draw(2)\n"
                  "            Black -> r.draw(1)\n            else -> {}"):
        assert _changes(WHEN, ref, after) == [], after
    assert _changes(WHEN.replace("message.color", "message.count"), "            1 -> r.draw(1)\n            2 -> "
                    "r.draw(2)", "            2 -> r.draw(2)\n            1 -> r.draw(1)") == []


def test_when_branches_reordered_that_may_overlap_or_swapped_bodies_are_named():
    ref = "            Black -> r.draw(1)\n            Red -> r.draw(2)\n            else -> {}"
    for after in ("            Black -> r.draw(2)\n            Red -> r.draw(1)\n            else -> {}",
                  "            Red -> r.draw(2)\n            Black -> r.draw(1)\n            else -> r.draw(3)"):
        assert _changes(WHEN, ref, after) == CHANGED, after
    # a repeated constant (the first branch wins), a name the file declares, a type test: the order is kept
    for ref, after in (("            Black -> r.draw(1)\n            Black -> r.draw(2)",
                        "            Black -> r.draw(2)\n            Black -> r.draw(1)"),
                       ("            Black -> r.draw(1)\n            color.Black -> r.draw(2)",
                        "            color.Black -> r.draw(2)\n            Black -> r.draw(1)"),
                       ("            Black -> r.draw(1)\n            Other -> r.draw(2)",
                        "            Other -> r.draw(2)\n            Black -> r.draw(1)"),
                       ("            is Black -> r.draw(1)\n            is Red -> r.draw(2)",
                        "            is Red -> r.draw(2)\n            is Black -> r.draw(1)")):
        src = WHEN if "Other" not in ref else WHEN.replace("class Cure", "val Other = Black\n\nclass Cure")
        assert _changes(src, ref, after) == CHANGED, after
