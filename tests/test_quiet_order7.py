"""The order of the parts of a condition is no rule only where no part may throw (issue 24's quiet side, seventh
part): an earlier part may keep a later one from throwing (``l.isNotEmpty() && l.first()…``, ``l.size > 1 &&
l[1]…``, ``x != null && x!!…``, ``n > 0 && 10 / n…``), so swapping such parts, in an ``if`` condition or in a run of
guards, is a change that must be named; parts that cannot throw still read alike in any order. Small Kotlin snippets
written for these tests (our own code, not the server's)."""
from __future__ import annotations

import pytest

from test_quiet_equiv6 import CHANGED, SKILL, _changes


@pytest.mark.parametrize("first, then", [
    ("others.isNotEmpty()", "others.first().isMale"),
    ("others.size > 1", "others[1].isMale"),
    ("target.hp > 0", "10 / target.hp > 2"),
    ("target.role != null", "target.role!!.isMale"),
])
def test_a_part_that_may_throw_keeps_its_place(first, then):
    cond = "        if ({} && {}) r.draw(1)"
    assert _changes(SKILL, cond.format(first, then), cond.format(then, first)) == CHANGED
    guard = "        target.isMale && {} && {} || return"
    assert _changes(SKILL, guard.format(first, then), guard.format(then, first)) == CHANGED


def test_parts_that_cannot_throw_read_alike_in_any_order():
    cond = "        if ({} && {}) r.draw(1)"
    assert _changes(SKILL, cond.format("target.isMale", "others.size > 0"),
                    cond.format("others.size > 0", "target.isMale")) == []
    guard = "        {} && {} && target.role!!.isMale || return"
    assert _changes(SKILL, guard.format("target.isMale", "others.isNotEmpty()"),
                    guard.format("others.isNotEmpty()", "target.isMale")) == []


# ------------------------------------------------------------------------- a subjectless when / its if
def test_a_subjectless_when_on_a_human_test_is_its_if():
    human = "        if (r is HumanPlayer) {\n            r.draw(1)\n        } else {\n            heal(r)\n        }"
    when = "        when {\n            r is HumanPlayer -> {\n                r.draw(1)\n            }\n" \
           "            else -> {\n                heal(r)\n            }\n        }"
    assert _changes(SKILL, human, when) == []
    # the human's branch changed under the when: named
    assert _changes(SKILL, human, when.replace("r.draw(1)", "r.draw(2)")) == CHANGED
    # a guard written as a when
    guard = "        if (target.isMale) return"
    assert _changes(SKILL, guard, "        when {\n            target.isMale -> return\n        }") == []
    assert _changes(SKILL, guard, "        when {\n            target.isMale -> r.draw(1)\n        }") == CHANGED


def test_who_is_shown_a_card_reads_alike_under_a_when_and_its_if():
    shown = "        g.players.send { p ->\n            skillCureToc {\n                {}\n            }\n        }"
    if_ = "if (p === r) cards.add(target.toPbCard()) else unknownCardCount = 1"
    when = "when {\n                    p === r -> cards.add(target.toPbCard())\n" \
           "                    else -> unknownCardCount = 1\n                }"
    assert _changes(SKILL, shown.replace("{}", if_), shown.replace("{}", when)) == []
    assert _changes(SKILL, shown.replace("{}", if_), shown.replace("{}", when.replace("p === r", "p !== r"))) \
        == CHANGED
