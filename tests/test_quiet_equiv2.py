"""Quiet edits of the held-out planted6 kinds (issue 24's quiet side, second part), one general cause each — a
negated quantifier, two collections sharing an element, an event nobody listens for, a block moved into a private
helper, a local holding a path inlined — each with a real change next to it that must still be named. Small Kotlin
snippets written for these tests (our own code, not the server's)."""
from __future__ import annotations

import pytest

from skillproof.model.extract.unread import compare

from test_normal_equiv import _changes

#: (before, an equivalent after, a real change of the same code)
CASES = {
    "a negated all is an any of the negation": (
        "if (askWhom.messageCards.any { !it.isHidden }) askWhom.draw(1)",
        "if (!askWhom.messageCards.all { it.isHidden }) askWhom.draw(1)",
        "if (!askWhom.messageCards.any { it.isHidden }) askWhom.draw(1)"),
    "a negated none is an any": (
        "if (g.players.any { it.alive }) askWhom.draw(1)",
        "if (!g.players.none { it.alive }) askWhom.draw(1)",
        "if (!g.players.all { it.alive }) askWhom.draw(1)"),
    "two collections sharing an element, either way round": (
        "if (g.card.colors.any { it in askWhom.colors }) askWhom.draw(1)",
        "if (askWhom.colors.any { it in g.card.colors }) askWhom.draw(1)",
        "if (askWhom.colors.any { it !in g.card.colors }) askWhom.draw(1)"),
    "a local holding a path nothing changes, written at each read": (
        "val c = g.event.card\n        askWhom.cards.remove(c)\n        askWhom.messageCards.add(c)",
        "askWhom.cards.remove(g.event.card)\n        askWhom.messageCards.add(g.event.card)",
        "askWhom.cards.remove(g.event.card)\n        askWhom.messageCards.add(g.event.other)"),
    "a filter guarded by the test it filters on, storing back into its own list": (
        "val l = askWhom.skills\n        if (l.any { it is OneRound }) askWhom.skills = l.filterNot { it is OneRound }",
        "askWhom.skills = askWhom.skills.filterNot { it is OneRound }",
        "askWhom.skills = askWhom.skills.filter { it is OneRound }"),
}


def test_a_filter_guarded_then_stored_into_another_list_keeps_its_guard():
    # no element passes: the guard leaves `g.skills` alone, the bare store would copy askWhom's list into it
    before = "val l = askWhom.skills\n        if (l.any { it is OneRound }) g.skills = l.filterNot { it is OneRound }"
    after = "g.skills = askWhom.skills.filterNot { it is OneRound }"
    assert _changes(before, after) == [("Watch.execute", "changed")]
    # a guard on another test than the filter's
    # (OneTurn read on both sides: not a name renamed throughout)
    before = "if (askWhom.skills.any { it is OneTurn }) askWhom.skills = askWhom.skills.filterNot { it is OneRound }" \
             "\n        g.ask(OneTurn)"
    after = "askWhom.skills = askWhom.skills.filterNot { it is OneRound }\n        g.ask(OneTurn)"
    assert _changes(before, after) == [("Watch.execute", "changed")]
    assert _changes(before, after) == [("Watch.execute", "changed")]


@pytest.mark.parametrize("name", sorted(CASES))
def test_equal_code_is_quiet_and_a_real_change_is_named(name):
    before, same, real = CASES[name]
    assert _changes(before, same) == [], name
    assert _changes(before, real) == [("Watch.execute", "changed")], name


def test_the_path_of_a_local_that_a_call_may_change_is_not_written_out():
    # `g.swap(…)` changes what nobody knows (the event's card perhaps): the local holds the card from before it
    before = "val c = g.event.card\n        g.swap(askWhom)\n        askWhom.messageCards.add(c)"
    after = "g.swap(askWhom)\n        askWhom.messageCards.add(g.event.card)"
    assert _changes(before, after) == [("Watch.execute", "changed")]
    # a store into a member along the path (`g.event = …`) before the read: the same
    before = "val c = g.event.card\n        g.event = g.next\n        askWhom.messageCards.add(c)"
    after = "g.event = g.next\n        askWhom.messageCards.add(g.event.card)"
    assert _changes(before, after) == [("Watch.execute", "changed")]


EVENTS = """package demo.game

class TurnOverEvent(override val whoseTurn: Player) : Event()
class CardGoneEvent(override val whoseTurn: Player, val player: Player) : Event()
"""

ENDER = """package demo.game.phase

import demo.game.*

class EndTurn(val whoseTurn: Player) : Fsm {
    override fun resolve(): Any? {
        whoseTurn.cards.clear()
        RAISE
        return null
    }
}
"""

LISTENER = """package demo.game.skill

import demo.game.*

class Mourn : TriggeredSkill {
    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        g.findEvent<CardGoneEvent>(this) { it.player === askWhom } ?: return null
        askWhom.draw(1)
        return null
    }
}
"""


def test_raising_an_event_nobody_listens_for_is_no_rule():
    rel = "phase/EndTurn.kt"
    before = {"Event.kt": EVENTS.encode(), "skill/Mourn.kt": LISTENER.encode(),
              rel: ENDER.replace("RAISE", "whoseTurn.game.addEvent(TurnOverEvent(whoseTurn))").encode()}
    after = dict(before)
    after[rel] = ENDER.replace("RAISE", "").encode()
    assert compare(before, after).changes == []
    # an event a skill listens for (`findEvent<CardGoneEvent>`) is a rule: raising it no more is named
    heard = dict(before)
    heard[rel] = ENDER.replace("RAISE", "whoseTurn.game.addEvent(CardGoneEvent(whoseTurn, whoseTurn))").encode()
    assert [c.where for c in compare(heard, after).changes] == ["EndTurn.resolve"]
    # once a skill listens for it, the same statement is a rule
    listen = {**before, "skill/Mourn.kt": LISTENER.replace("CardGoneEvent", "TurnOverEvent").encode()}
    listen_after = {**after, "skill/Mourn.kt": listen["skill/Mourn.kt"]}
    assert [c.where for c in compare(listen, listen_after).changes] == ["EndTurn.resolve"]


FINISH = """package demo.game.phase

import demo.game.*

class AfterUse(val player: Player, val card: Card?, val discardIt: Boolean) : Fsm {
    override fun resolve(): Any? {
        BODY
        return null
    }
HELPER}
"""


def test_a_block_moved_into_a_private_helper_called_in_its_place_is_the_same():
    rel = "phase/AfterUse.kt"
    block = "if (discardIt)\n            card?.let { player.game.deck.discard(it.origin) }"
    before = {rel: FINISH.replace("BODY", block).replace("HELPER", "").encode()}
    helper = "    private fun discardUsed() {\n        " + block + "\n    }\n"
    after = {rel: FINISH.replace("BODY", "discardUsed()").replace("HELPER", helper).encode()}
    assert compare(before, after).changes == []
    # the helper's block changed: named
    real = {rel: after[rel].replace(b"if (discardIt)", b"if (!discardIt)")}
    assert "AfterUse.resolve" in [c.where for c in compare(before, real).changes]
    # a helper with a parameter, the argument written in its place
    helper2 = "    private fun discardUsed(c: Card?) {\n        " + block.replace("card?", "c?") + "\n    }\n"
    after2 = {rel: FINISH.replace("BODY", "discardUsed(card)").replace("HELPER", helper2).encode()}
    assert compare(before, after2).changes == []
    # a helper that returns early is not written out (its `return` would leave the caller)
    helper3 = "    private fun discardUsed() {\n        if (!discardIt) return\n        card?.let { player.game.deck." \
              "discard(it.origin) }\n    }\n"
    after3 = {rel: FINISH.replace("BODY", "discardUsed()").replace("HELPER", helper3).encode()}
    assert compare(before, after3).changes != []


# ------------------------------------------------------------- a count's guard compared for meaning (diff_meaning)
from test_extract_readers6 import RU_GUI, _with  # noqa: E402

from skillproof.checks.diff_rules import rule_changes  # noqa: E402


def test_a_count_tested_not_zero_is_a_count_above_zero():
    # a player's messages are never fewer than none: `not (n == 0)` is `n > 0`
    old = _with(RU_GUI)
    new = _with(RU_GUI.replace("true_messages + black_messages > 0", "not (true_messages + black_messages == 0)"))
    assert rule_changes(old, new) == []
    # the same shape, a real change: `>= 0` holds for every count
    real = _with(RU_GUI.replace("true_messages + black_messages > 0", "true_messages + black_messages >= 0"))
    assert [(c.id, c.key) for c in rule_changes(old, real)] == [("RuGui", "on")]


def test_a_local_computed_by_a_private_helper_ending_in_its_value_is_the_same():
    rel = "phase/AfterUse.kt"
    block = "val n = player.cards.size\n        val k = if (discardIt) n else n + 1\n        player.draw(k)"
    before = {rel: FINISH.replace("BODY", block).replace("HELPER", "").encode()}
    helper = ("    private fun drawCount(p: Player): Int {\n        val n = p.cards.size\n"
              "        return if (discardIt) n else n + 1\n    }\n")
    after = {rel: FINISH.replace("BODY", "val k = drawCount(player)\n        player.draw(k)").replace(
        "HELPER", helper).encode()}
    assert compare(before, after).changes == []
    # the helper's value changed: named
    real = {rel: after[rel].replace(b"else n + 1", b"else n + 2")}
    assert "AfterUse.resolve" in [c.where for c in compare(before, real).changes]
    # a helper returning early (two returns) is not written out
    early = {rel: after[rel].replace(b"        val n = p.cards.size\n",
                                     b"        val n = p.cards.size\n        if (n > 9) return 0\n")}
    assert compare(before, early).changes != []


def test_a_helper_written_out_on_one_side_only_is_written_out_on_neither():
    # the helper exists on both sides; HEAD's tells the clients with `this@AfterUse` (no rule, but not written out):
    # its caller (which logs a line more) must not differ by the writing out alone
    rel = "phase/AfterUse.kt"
    helper = ("    private fun discardUsed() {\n        if (discardIt) card?.let { player.game.deck.discard(it) }\n"
              "        NOTE\n    }\n")
    before = {rel: FINISH.replace("BODY", "discardUsed()").replace("HELPER", helper.replace("NOTE", "")).encode()}
    after = {rel: FINISH.replace("BODY", "logger.info(\"used\")\n        discardUsed()").replace(
        "HELPER", helper.replace("NOTE", "player.game.players.send { usedToc { who = this@AfterUse.player } }")).encode()}
    assert [c.where for c in compare(before, after).changes] == []
