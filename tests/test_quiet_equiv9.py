"""Quiet edits of the thirteenth planted sample's shapes (issue 24's quiet side, ninth part): each a general refactor
the gate now reads alike — ``e.not()`` for ``!e``, ``(x as? T)?.f(…) ?: d`` for ``if (x is T) x.f(…) else d`` when
``f`` is declared in the file with a non-null result — each with a real change of the same shape that must still be
named. The gate reads each file through ``quiet_source`` before it compares normal forms (``unread.compare``), as
here. Small Kotlin snippets written for these tests (our own code, not the server's)."""
from __future__ import annotations

from quietkit import _P
from quietkit import CHANGED, SKILL
from quietkit import quiet_changes as _changes
from skillproof.model.extract.quiet_source import quiet_source


# ------------------------------------------------------------------------------------------- e.not() is !e
def test_a_not_call_is_the_negation():
    for before, after in (("        if (!target.alive) target.draw(2)", "        if (target.alive.not()) target.draw(2)"),
                          ("        if (!target!!.alive) target.draw(2)",
                           "        if (target!!.alive.not()) target.draw(2)"),
                          ("        if (!(target.alive && r.alive)) target.draw(2)",
                           "        if ((target.alive && r.alive).not()) target.draw(2)"),
                          ("        if (!target.isHurt(r) || r.alive) target.draw(2)",
                           "        if (target.isHurt(r).not() || r.alive) target.draw(2)")):
        assert _changes(SKILL, before, after) == [], after


def test_a_not_call_on_another_test_is_named():
    before = "        if (!target.alive) target.draw(2)"
    for after in ("        if (target.alive) target.draw(2)",
                  "        if (r.alive.not()) target.draw(2)",
                  "        if (target.alive.not()) target.draw(3)",
                  "        if (target.alive.not().not()) target.draw(2)"):
        assert _changes(SKILL, before, after) == CHANGED, after


def test_a_not_call_used_as_a_receiver_or_with_an_argument_is_left_as_written():
    for body in ("        val s = target.alive.not().toString()", "        val s = target.not(1)",
                 "        val s = target?.not()"):
        src = SKILL.replace("BODY", body).encode()
        assert quiet_source(_P, src) == src, body


# ------------------------------------------------------------ a safe cast and elvis is the is-test and else
COUNT = """package demo.game.skill

interface Bonus : Skill {
    fun bonus(player: Player, old: Int): Int
    fun maybe(player: Player, old: Int): Int?
}

class Cure : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player, message: GeneratedMessage) {
        val n = r.skills.fold(2) { old, skill ->
BODY
        }
        r.draw(n)
    }
}
"""


def test_a_safe_cast_elvis_is_the_is_test():
    assert _changes(COUNT, "            if (skill is Bonus) skill.bonus(this, old) else old",
                    "            (skill as? Bonus)?.bonus(this, old) ?: old") == []


def test_another_safe_cast_elvis_is_named():
    before = "            if (skill is Bonus) skill.bonus(this, old) else old"
    for after in ("            (skill as? Bonus)?.bonus(this, old) ?: (old + 1)",
                  "            (skill as? Bonus)?.bonus(this, old) ?: 3",
                  "            (skill as? Skill)?.bonus(this, old) ?: old"):
        assert _changes(COUNT, before, after) == CHANGED, after


def test_a_safe_cast_elvis_on_a_nullable_result_is_left_as_written():
    # `maybe` may return null: `?: old` is then taken for a Bonus too, which the is-test would not do
    for body in ("            (skill as? Bonus)?.maybe(this, old) ?: old",      # declared `Int?`
                 "            (skill as? Bonus)?.other(this, old) ?: old"):     # not declared in the file: unknown result
        src = COUNT.replace("BODY", body).encode()
        assert quiet_source(_P, src) == src, body
