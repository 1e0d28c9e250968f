"""Quiet edits of the twelfth planted sample's shapes (issue 24's quiet side, eighth part): each a general refactor
the gate now reads alike — a loop body on the line after its header without braces, a one-statement overload
called for its effect, ``addAll(listOf(y))``, ``(a ?: 0) + e``, ``find { }?.let { return … }`` — each with a real
change of the same shape that must still be named. The gate reads each file through ``quiet_source`` before it
compares normal forms (``unread.compare``), as here. Small Kotlin snippets written for these tests (our own code,
not the server's)."""
from __future__ import annotations

from quietkit import _P
from quietkit import CHANGED, SKILL
from quietkit import quiet_changes as _changes
from skillproof.model.extract.quiet_source import quiet_source
from skillproof.model.extract.unread import compare


# ------------------------------------------------------------------- a loop body on the line after its header
def test_a_loop_body_on_the_next_line_is_the_loop_in_braces():
    braces = "        for (p in g.players) {\n            p.draw(2)\n        }"
    bare = "        for (p in g.players)\n            p.draw(2)\n"
    assert _changes(SKILL, braces, bare) == []
    assert _changes(SKILL, "        while (target.cards.size < 3) {\n            target.draw(1)\n        }",
                    "        while (target.cards.size < 3)\n            target.draw(1)\n") == []
    # the body is read as the loop's: a notice sent to every player is no rule in either spelling
    assert _changes(SKILL, "        for (p in g.players)\n            p.notifyCure()\n",
                    "        g.players.forEach { it.notifyCure() }") == []


def test_a_statement_moved_out_of_the_loop_is_named():
    bare = "        for (p in g.players)\n            p.draw(2)\n"
    for after in ("        for (p in g.players) {\n        }\n        target.draw(2)",
                  "        for (p in g.players)\n            p.draw(3)\n",
                  "        for (p in g.players.drop(1))\n            p.draw(2)\n"):
        assert _changes(SKILL, bare, after) == CHANGED, after
    # the statement after a loop with a braced body is not the loop's
    assert _changes(SKILL, "        for (p in g.players) { p.draw(1) }\n        target.draw(2)",
                    "        for (p in g.players) { p.draw(1); target.draw(2) }") == CHANGED


# ------------------------------------------------------------- an overload that hands its one element on
DECK = """package demo.game.card

class Deck {
    private val pile = ArrayList<Card>()

    fun discard(cards: List<Card>) {
        pile.addAll(cards)
    }

    fun discard(card: Card) {
BODY
    }

    fun burn(card: Card) {
        pile.remove(card)
    }

    fun dealt(card: Card) {
        discard(card)
    }

    fun keep(card: Card) {              // (every name the edits use stays in the file: no edit reads as a rename)
        pile.add(card)
        pile.add(0, card)
        pile.addAll(listOf(card, card))
    }
}
"""


def test_a_one_element_overload_delegating_to_the_list_one_is_alike():
    for after in ("        discard(listOf(card))", "        pile.addAll(listOf(card))"):
        assert _changes(DECK, "        pile.add(card)", after, "skill/Deck.kt") == [], after


def test_another_delegation_is_named():
    for after in ("        discard(listOf(card, card))",):
        assert ("Deck.discard", "changed") in _changes(DECK, "        pile.add(card)", after, "skill/Deck.kt"), after


def test_a_delegation_whose_value_is_used_is_not_inlined():
    # `val x = discard(…)` holds Unit, not what the one statement of the body is worth: left as written
    src = DECK.replace("BODY", "        pile.add(card)").replace("        pile.remove(card)",
                                                                  "        val x = discard(listOf(card))")
    assert b"val x = discard(listOf(card))" in quiet_source(_P, src.encode())


# ------------------------------------------------------------------------------ a count read as zero when none
COUNT = """package demo.game

class Player {
    private val uses = HashMap<String, Int>()

    fun addUse(id: String, count: Int = 1) {
        uses.compute(id) { _, v -> BODY }
    }

    fun use(id: String) = addUse(id, 2)
}
"""


def test_an_elvis_zero_plus_is_the_if_on_null():
    assert _changes(COUNT, "if (v == null) count else v + count", "(v ?: 0) + count", "Player.kt") == []


def test_another_default_or_operation_is_named():
    for after in ("(v ?: 1) + count", "(v ?: 0) - count", "(v ?: 0) + count + 1", "v ?: count"):
        assert _changes(COUNT, "if (v == null) count else v + count", after, "Player.kt") == \
            [("Player.addUse", "changed")], after


# ------------------------------------------------------------------------- the first match returned with
FIND = """package demo.game.skill

class Cure : TriggeredSkill {
    private fun Player.blackCard(): Card? {
BODY
        return null
    }

    override fun execute(g: Game, askWhom: Player) = askWhom.blackCard()

    private val kept = listOf(Red, Black, cards)      // (every name the edits use stays in the file)
}
"""
LOOP = """        for (card in messageCards) {
            if (card.colors.contains(Black)) return card
        }"""


def test_a_find_let_return_is_the_loop_returning_the_first_match():
    assert _changes(FIND, LOOP, "        messageCards.find { it.colors.contains(Black) }?.let { return it }") == []
    assert _changes(FIND, LOOP.replace("return card", "return Found(this, card)"),
                    "        messageCards.find { it.colors.contains(Black) }?.let { return Found(this, it) }") == []


def test_another_find_is_named():
    where = [("Cure.blackCard", "changed")]
    for after in ("        messageCards.find { it.colors.contains(Red) }?.let { return it }",
                  "        messageCards.findLast { it.colors.contains(Black) }?.let { return it }",
                  "        messageCards.find { it.colors.contains(Black) }?.let { return null }",
                  "        cards.find { it.colors.contains(Black) }?.let { return it }"):
        assert _changes(FIND, LOOP, after) == where, after
    # an element that may be null (`it?.`) is not read as the loop: `?.let` skips a null the loop would return
    assert b"?.let" in quiet_source(_P, FIND.replace(
        "BODY", "        messageCards.find { it?.colors == null }?.let { return it }").encode())


# ----------------------------------------------------------------- a map read with a default for a missing key
USES = """package demo.game

class Player {
    private val uses = HashMap<String, Int>()
    private val notes = HashMap<String, Int?>()

    fun getUse(id: String): Int {
BODY
    }

    fun tired() = getUse("cure") > 1
}
"""


def test_get_or_default_on_a_map_of_values_never_null_is_the_elvis():
    assert _changes(USES, "        return uses[id] ?: 0", "        return uses.getOrDefault(id, 0)", "Player.kt") == []
    assert _changes(USES, "        return 1 + (uses[id] ?: 0)", "        return 1 + uses.getOrDefault(id, 0)",
                    "Player.kt") == []


def test_another_default_or_a_map_that_may_hold_null_is_named():
    where = [("Player.getUse", "changed")]
    for after in ("        return uses.getOrDefault(id, 1)", "        return notes.getOrDefault(id, 0)"):
        assert _changes(USES, "        return uses[id] ?: 0", after, "Player.kt") == where, after
    # a value type that may be null: a key held with null gives null, not the default — left as written
    assert b"getOrDefault" in quiet_source(_P, USES.replace("BODY", "        return notes.getOrDefault(id, 0)!!").encode())


# ------------------------------------------------------- a notice in a block of its own, a face-down card's face
PHASE = """package demo.game.phase

class MoveOn(val send: SendPhase) : Fsm {
    override fun resolve(): ResolveResult {
        send.game.deck.discard(send.card)
BODY
        return ResolveResult(NextTurn(send.whoseTurn), true)
    }
}
"""
SHOWN_FACE_DOWN = """        if (!send.isCardFaceUp) {
            send.game.players.send { cardShownToc { card = send.card.toPbCard() } }
        }"""


def test_a_face_up_card_shown_again_is_no_rule():
    assert _changes(PHASE, SHOWN_FACE_DOWN, SHOWN_FACE_DOWN.replace("if (!send.isCardFaceUp)", "run"),
                    "phase/MoveOn.kt") == []


def test_a_face_shown_under_another_condition_is_named():
    for cond in ("if (send.isCardFaceUp && send.card.isBlack())", "if (send.whoseTurn.alive)"):
        assert _changes(PHASE, SHOWN_FACE_DOWN, SHOWN_FACE_DOWN.replace("if (!send.isCardFaceUp)", cond),
                        "phase/MoveOn.kt") != [], cond


def test_an_empty_run_block_or_loop_is_nothing():
    assert _changes(PHASE, "", "        run { send.game.players.forEach { it.notifyMoved() } }", "phase/MoveOn.kt") == []
    assert _changes(PHASE, "", "        run { send.game.deck.discard(send.card) }", "phase/MoveOn.kt") != []


# ------------------------------------------------------------- a chain of tests of one count, regrouped
DEAL = """package demo.game

class Game {
    val players = ArrayList<Player>()

    fun start() {
        val ids = ArrayList<color>()
        when (players.size) {
            THREE -> {
                ids.add(Red)
                ids.add(Blue)
                ids.add(Black)
            }

            FOUR -> {
                var i = 0
                while (i < (players.size - 1) / 2) {
                    ids.add(Red)
                    ids.add(Blue)
                    i++
                }
                if (players.size % 2 == 0) ids.add(Black)
                ids.add(Black)
            }

            else -> repeat(players.size) { ids.add(Black) }
        }
        ids.shuffle()
        players.forEachIndexed { i, p -> p.identity = ids[i] }
    }

    override fun again() = start()

    override fun reds() = players.count { it.identity == Red }
}
"""


def _deal(three: str, four: str) -> str:
    return DEAL.replace("THREE", three).replace("FOUR", four)


def test_a_value_moved_to_a_branch_that_does_the_same_for_it_is_alike():
    before = _deal("2, 3", "4, 5, 6")
    for after in (_deal("2", "3, 4, 5, 6"),             # 3 → (3 - 1) / 2 = 1 pair, odd: one black
                  _deal("3, 2", "6, 5, 4")):            # the literals listed in another order
        assert compare({"Game.kt": before.encode()}, {"Game.kt": after.encode()}).changes == [], after


def test_a_value_moved_to_a_branch_that_does_otherwise_is_named():
    before = _deal("2, 3", "4, 5, 6")
    for after in (_deal("2, 3, 4", "5, 6"),             # 4 → two blacks, not one
                  _deal("2, 3", "4, 5"),                # 6 → the else branch
                  _deal("2, 3", "4, 5, 6").replace("(players.size - 1) / 2", "(players.size - 1) / 3")):
        assert [c.where for c in compare({"Game.kt": before.encode()}, {"Game.kt": after.encode()}).changes] == \
            ["Game.start"], after
