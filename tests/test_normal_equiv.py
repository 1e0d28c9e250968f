"""Equal code the normal form equates (``model/extract/normal.py``): for each equivalence one equivalent edit that
must stay quiet in the unread-code comparison, and one real change next to it that must still be named. Small
Kotlin snippets written for these tests."""
from __future__ import annotations

import pytest

from skillproof.model.extract.normal import file_constants
from skillproof.model.extract.unread import compare

BASE = """package demo.game.skill

import demo.game.Game
import demo.game.Player

class Watch : TriggeredSkill {
    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        BODY
        return null
    }

    data class Follow(val fsm: Fsm) : WaitingFsm {
        override fun resolve(): ResolveResult? = null
    }
}
"""


def _src(body: str, base: str = BASE) -> str:
    return base.replace("BODY", body)


def _changes(before: str, after: str, base: str = BASE) -> list:
    rel = "skill/Watch.kt"
    cmp = compare({rel: _src(before, base).encode()}, {rel: _src(after, base).encode()})
    return [(c.where, c.change) for c in cmp.changes]


#: (before, an equivalent after, a real change of the same code)
CASES = {
    "random API": (
        "val c = askWhom.cards[ThreadLocalRandom.current().nextInt(askWhom.cards.size)]\n        g.discard(c)",
        "val c = askWhom.cards.random()\n        g.discard(c)",
        "val c = askWhom.cards.first()\n        g.discard(c)"),
    "random int": (
        "val i = ThreadLocalRandom.current().nextInt(g.players.size)\n        g.start(i)",
        "val i = Random.nextInt(g.players.size)\n        g.start(i)",
        "val i = Random.nextInt(g.players.size - 1)\n        g.start(i)"),
    "subList to take": (
        "g.deal(g.tasks.subList(0, 3).shuffled())",
        "g.deal(g.tasks.take(3).shuffled())",
        "g.deal(g.tasks.take(2).shuffled())"),
    "guarded subList to take": (
        "g.deal(g.tasks.shuffled().run { if (size > n) subList(0, n) else this })",
        "g.deal(g.tasks.shuffled().take(n))",
        "g.deal(g.tasks.shuffled().run { if (size > n) subList(1, n) else this })"),
    "flag loop to all": (
        "var has = false\n        for (card in askWhom.messageCards) {\n            if (card.colors.contains(color)) {\n"
        "                has = true\n                break\n            }\n        }\n        if (!has) return null\n"
        "        askWhom.draw(1)",
        "if (askWhom.messageCards.all { color !in it.colors }) return null\n        askWhom.draw(1)",
        "if (askWhom.messageCards.any { color !in it.colors }) return null\n        askWhom.draw(1)"),
    "none and any": (
        "if (g.players.none { it.alive && it !== askWhom }) return null\n        askWhom.draw(1)",
        "if (!g.players.any { p -> p.alive && p !== askWhom }) return null\n        askWhom.draw(1)",
        "if (!g.players.any { p -> p.alive || p !== askWhom }) return null\n        askWhom.draw(1)"),
    "a local read once, next": (
        "val n = askWhom.cards.size\n        if (n > 2) askWhom.draw(1)",
        "if (askWhom.cards.size > 2) askWhom.draw(1)",
        "if (askWhom.cards.size >= 2) askWhom.draw(1)"),
    "a player known equal from a guard": (
        "if (g.target !== askWhom) return null\n        if (g.target.roleFaceUp) return null\n        askWhom.draw(1)",
        "g.target === askWhom || return null\n        !askWhom.roleFaceUp || return null\n        askWhom.draw(1)",
        "g.target === askWhom || return null\n        !g.sender.roleFaceUp || return null\n        askWhom.draw(1)"),
    "a test against a list of values": (
        "if (g.cardType != Shi_Tan && g.cardType != Wei_Bi) return null\n        askWhom.draw(1)",
        "g.cardType in listOf(Shi_Tan, Wei_Bi) || return null\n        askWhom.draw(1)",
        "g.cardType in listOf(Shi_Tan) || return null\n        askWhom.draw(1)"),
    "guards in another order": (
        "if (!askWhom.alive || g.cardType != Shi_Tan) return null\n        askWhom.draw(1)",
        "g.cardType == Shi_Tan || return null\n        askWhom.alive || return null\n        askWhom.draw(1)",
        "g.cardType == Shi_Tan || return null\n        askWhom.roleFaceUp || return null\n        askWhom.draw(1)"),
    "a count above zero": (
        "if (askWhom.getSkillUseCount(skillId) > 0) return null\n        askWhom.draw(1)",
        "askWhom.getSkillUseCount(skillId) == 0 || return null\n        askWhom.draw(1)",
        "askWhom.getSkillUseCount(skillId) <= 1 || return null\n        askWhom.draw(1)"),
    "the holder has the skill it is asked for": (
        "g.target === askWhom && askWhom.findSkill(skillId) != null || return null\n        askWhom.draw(1)",
        "g.target === askWhom || return null\n        askWhom.draw(1)",
        "g.target === askWhom && g.sender.findSkill(skillId) != null || return null\n        askWhom.draw(1)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_equal_code_is_quiet_and_a_real_change_is_named(name):
    before, same, real = CASES[name]
    assert _changes(before, same) == [], name
    assert _changes(before, real) == [("Watch.execute", "changed")], name


def test_a_visibility_modifier_is_no_rule_but_data_is():
    before = {"skill/Watch.kt": _src("askWhom.draw(1)").encode()}
    after = {"skill/Watch.kt": _src("askWhom.draw(1)").replace("    data class Follow", "    private data class Follow")
             .encode()}
    assert compare(before, after).changes == []
    after2 = {"skill/Watch.kt": _src("askWhom.draw(1)").replace("    data class Follow", "    class Follow").encode()}
    assert [c.where for c in compare(before, after2).changes] == ["Watch.Follow"]


def test_a_local_read_in_a_loop_is_not_moved_into_it():
    before = "val n = askWhom.cards.size\n        for (p in g.players) p.draw(n)"
    after = "for (p in g.players) p.draw(askWhom.cards.size)"
    assert _changes(before, after) == [("Watch.execute", "changed")]


CONSTANT = BASE.replace("    data class Follow", "    companion object {\n        private val kinds = listOf(Shi_Tan, Wei_Bi)\n"
                        "    }\n\n    data class Follow")


def test_a_private_constant_list_is_written_at_its_use():
    rel = "skill/Watch.kt"
    before = {rel: _src("if (g.cardType != Shi_Tan && g.cardType != Wei_Bi) return null\n        askWhom.draw(1)").encode()}
    after = {rel: _src("g.cardType in kinds || return null\n        askWhom.draw(1)", CONSTANT).encode()}
    assert compare(before, after).changes == []
    # the list changed: named where it is declared
    other = {rel: _src("g.cardType in kinds || return null\n        askWhom.draw(1)",
                       CONSTANT.replace(", Wei_Bi)", ")")).encode()}
    assert [(c.where, c.change) for c in compare(after, other).changes] == [("Watch.Companion.kinds", "changed")]
    # and the use of a list that changed reads otherwise
    assert compare(before, other).changes
    # a list the file also changes is no constant
    assert file_constants(_src("kinds += Li_You", CONSTANT).encode()) == {}
    assert file_constants(_src("askWhom.draw(1)", CONSTANT).encode()) == {"kinds": ("Shi_Tan", "Wei_Bi")}


STATE = """package demo.game.skill

import demo.game.*

class Watch : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player, message: Any) {
        g.resolve(Pick(r, ARGS))
    }

    private data class Pick(val r: Player, PARAMS) : WaitingFsm {
        override fun resolve(): ResolveResult? {
            for (p in r.game!!.players) {
                val builder = skillPickToc.newBuilder()
                builder.playerId = p.location
                NOTICE
                p.send(builder.build())
            }
            USE
            return null
        }
    }
}
"""


def _state(args, params, notice="", use="r.draw(1)"):
    return {"skill/Watch.kt": STATE.replace("ARGS", args).replace("PARAMS", params).replace("NOTICE", notice)
            .replace("USE", use).replace("(r, )", "(r)").replace(", ) :", ") :").encode()}


def test_a_parameter_only_a_client_message_reads_is_no_rule():
    before = _state("", "")
    # a state gains a field that only fills the client's message, and its caller passes it: the same play
    after = _state("message.keep", "val keep: Int", notice="builder.keepId = keep")
    assert compare(before, after).changes == []
    # a field a rule reads is a change of the state and of its caller
    real = _state("message.keep", "val keep: Int", use="r.draw(keep)")
    assert sorted(c.where for c in compare(before, real).changes) == ["Watch.Pick", "Watch.Pick.resolve",
                                                                    "Watch.executeProtocol"]


HELPERS = """package demo.game.card

fun Iterable<Card>.count(c: color) = count { c in it.colors }

fun Player.isEnemy(other: Player) = identity != other.identity
"""


def test_a_one_expression_helper_is_written_out_at_its_call():
    rel = "skill/Watch.kt"
    inline = "val n = askWhom.messageCards.count { it.colors.contains(Black) }\n        if (n >= 3) askWhom.draw(1)"
    helper = "val n = askWhom.messageCards.count(Black)\n        if (n >= 3) askWhom.draw(1)"
    before = {rel: _src(inline).encode(), "card/Card.kt": HELPERS.encode()}
    after = {rel: _src(helper).encode(), "card/Card.kt": HELPERS.encode()}
    assert compare(before, after).changes == []
    other = {rel: _src(helper.replace("askWhom.messageCards", "askWhom.cards")).encode(), "card/Card.kt": HELPERS.encode()}
    assert [c.where for c in compare(before, other).changes] == ["Watch.execute"]
    # a helper reading its receiver's members by name is not written out (the receiver would be lost)
    a = {rel: _src("if (askWhom.isEnemy(g.target)) askWhom.draw(1)").encode(), "card/Card.kt": HELPERS.encode()}
    b = {rel: _src("if (g.sender.isEnemy(g.target)) askWhom.draw(1)").encode(), "card/Card.kt": HELPERS.encode()}
    assert [c.where for c in compare(a, b).changes] == ["Watch.execute"]


def test_a_holders_skill_test_is_kept_where_the_holder_is_not_the_one_asked():
    """Outside a trigger's ``execute(g, askWhom)`` (an older ``execute(g)``, any other method) the test is a rule."""
    base = BASE.replace("override fun execute(g: Game, askWhom: Player): ResolveResult? {",
                        "override fun execute(g: Game): ResolveResult? {\n        val askWhom = g.fsm.askWhom")
    assert _changes("askWhom.findSkill(skillId) != null || return null\n        askWhom.draw(1)", "askWhom.draw(1)",
                    base) == [("Watch.execute", "changed")]


MOMENT = """package demo.game.phase

import demo.game.*

data class OnGive(val whoseTurn: Player, val to: Player, val nextFsm: Fsm) : Fsm {
    override fun resolve(): ResolveResult {
        val result = whoseTurn.game!!.dealListeningSkill()
        return result ?: ResolveResult(nextFsm, true)
    }
}
"""


def test_a_moment_nobody_answers_is_the_state_it_goes_on_with():
    rel = "skill/Watch.kt"
    before = {rel: _src("g.resolve(NextTurn(askWhom))").encode()}
    after = {rel: _src("g.resolve(OnGive(askWhom, g.target, NextTurn(askWhom)))").encode(),
             "phase/OnGive.kt": MOMENT.encode()}
    assert compare(before, after).changes == []
    # once a trigger answers it, raising it is a change
    heard = dict(after, **{"skill/Hear.kt": b"package demo.game.skill\n\nfun Game.heard() = fsm is OnGive\n"})
    assert ("Watch.execute", "changed") in [(c.where, c.change) for c in compare(before, heard).changes]
