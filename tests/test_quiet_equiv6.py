"""Quiet edits the quiet-transform generator (benchmarks/quiet_transforms.py) found flagged (issue 24's quiet side,
sixth part), one general normal form each — ``this.f()`` / ``f()``, a ``when`` with a subject and its ``if`` chain,
the order of pure parts of ``&&`` / ``||`` and of guards, a rewrite that must go round again, a local read once as the
next condition, a ``forEach`` body that returns — each with a real change of the same shape that must still be
named. Small Kotlin snippets written for these tests (our own code, not the server's)."""
from __future__ import annotations

from skillproof.model.extract.unread import compare


def _changes(src: str, before: str, after: str, rel: str = "skill/Cure.kt") -> list:
    a, b = src.replace("BODY", before), src.replace("BODY", after)
    return [(c.where, c.change) for c in compare({rel: a.encode()}, {rel: b.encode()}).changes]


SKILL = """package demo.game.skill

class Cure : ActiveSkill {
    private fun heal(p: Player) {
        p.draw(2)
        p.skills = emptyList()
    }

    override fun executeProtocol(g: Game, r: Player, message: GeneratedMessage) {
        val target = g.players[1]
        val others = g.players.filter { it !== r }
BODY
        r.draw(1)
    }
}
"""
CHANGED = [("Cure.executeProtocol", "changed")]


# ----------------------------------------------------------------------------------------- this.f() / f()
def test_this_member_is_the_bare_member():
    assert _changes(SKILL, "        heal(target)", "        this.heal(target)") == []
    assert _changes(SKILL, "        if (isEnemy(target)) r.draw(1)", "        if (this.isEnemy(target)) r.draw(1)") == []


def test_another_receiver_or_a_local_of_that_name_is_named():
    assert _changes(SKILL, "        heal(target)", "        heal(r)") == CHANGED
    assert _changes(SKILL, "        if (isEnemy(target)) r.draw(1)", "        if (target.isEnemy(target)) r.draw(1)") \
        == CHANGED
    # a local named as the member: `this.count` is the member, `count` the local
    local = "        val count = 3\n        r.draw({})"
    assert _changes(SKILL, local.format("count"), local.format("this.count")) == CHANGED


# -------------------------------------------------------------------------------------- when / if chain
WHEN = """        when (message) {
            is skill_a_tos -> r.draw(1)
            is skill_b_tos -> heal(r)
            else -> return
        }"""


def test_a_when_on_types_is_its_if_chain():
    chain = """        if (message is skill_a_tos) r.draw(1)
        else if (message is skill_b_tos) heal(r)
        else return"""
    assert _changes(SKILL, WHEN, chain) == []
    ranged = "        when (target) {\n            in others -> heal(r)\n            else -> r.draw(1)\n        }"
    assert _changes(SKILL, ranged, "        if (target in others) heal(r) else r.draw(1)") == []


def test_a_when_against_another_test_is_named():
    for chain in ("""        if (message !is skill_a_tos) r.draw(1)
        else if (message is skill_b_tos) heal(r)
        else return""", """        if (message is skill_a_tos) r.draw(1)
        else if (message is skill_a_tos) heal(r)
        else return"""):
        assert _changes(SKILL, WHEN, chain) == CHANGED, chain
    ranged = "        when (target) {\n            in others -> heal(r)\n            else -> r.draw(1)\n        }"
    assert _changes(SKILL, ranged, "        if (target !in others) heal(r) else r.draw(1)") == CHANGED


# ------------------------------------------------------------------------- the order of pure parts and guards
def test_pure_parts_of_a_junction_and_guards_in_any_order():
    base = "        if (target.alive && target.identity == r.identity) heal(target)"
    assert _changes(SKILL, base, "        if (target.identity == r.identity && target.alive) heal(target)") == []
    pred = "        others.filter { it.alive || it.dieJustNow }.forEach { heal(it) }"
    assert _changes(SKILL, pred, "        others.filter { it.dieJustNow || it.alive }.forEach { heal(it) }") == []
    guards = """        val i = message.first
        val j = message.second
        if (i < 0 || j < 0 || i >= g.players.size) return
        r.draw(i + j)"""
    assert _changes(SKILL, guards, guards.replace("i < 0 || j < 0 || i >= g.players.size",
                                                  "i >= g.players.size || j < 0 || i < 0")) == []


def test_other_parts_or_parts_that_may_throw_keep_their_order():
    base = "        if (target.alive && target.identity == r.identity) heal(target)"
    assert _changes(SKILL, base, "        if (target.alive || target.identity == r.identity) heal(target)") == CHANGED
    guards = """        val i = message.first
        val j = message.second
        if (i < 0 || j < 0 || i >= g.players.size) return
        r.draw(i + j)"""
    assert _changes(SKILL, guards, guards.replace("j < 0", "j < 1")) == CHANGED
    pred = "        others.filter { it.alive || it.dieJustNow }.forEach { heal(it) }"
    assert _changes(SKILL, pred, "        others.filter { it.dieJustNow && it.alive }.forEach { heal(it) }") == CHANGED
    # the left part keeps the right one from throwing: swapped, the first card is asked of an empty hand
    safe = "        others.filter { it.cards.isNotEmpty() && it.cards.first().isBlack() }.forEach { heal(it) }"
    assert _changes(SKILL, safe, safe.replace("it.cards.isNotEmpty() && it.cards.first().isBlack()",
                                              "it.cards.first().isBlack() && it.cards.isNotEmpty()")) == CHANGED


# -------------------------------------------------------------------- a rewrite in place goes round again
TRIGGERED = """package demo.game.skill

class Keep : TriggeredSkill {
    private data class ExecuteKeep(val fsm: Fsm, val event: ReceiveCardEvent) : WaitingFsm {
        override fun resolveProtocol(player: Player, message: GeneratedMessage): ResolveResult? {
            val r = event.inFrontOfWhom
            if (player !== r) return null
            if (message !is skill_keep_tos) return null
            val g = r.game!!
            if (r is HumanPlayer && !r.checkSeq(message.seq)) return null
            val cards = g.deck.peek(1)
            if (BODY) return null
            return ResolveResult(ExecuteKeepB(fsm, event, cards), true)
        }
    }
}
"""


def test_is_empty_and_size_zero_after_an_equality_the_guard_leaves():
    assert _changes(TRIGGERED, "cards.isEmpty()", "cards.size == 0", "skill/Keep.kt") == []
    assert _changes(TRIGGERED, "cards.isEmpty()", "cards.size == 1", "skill/Keep.kt") == [
        ("Keep.ExecuteKeep.resolveProtocol", "changed")]


# ------------------------------------------------------------------- a local read once as the next condition
def test_a_local_read_once_as_the_next_condition_is_written_there():
    inline = "        if (r is HumanPlayer && !r.checkSeq(message.seq)) return"
    held = "        val late = r is HumanPlayer && !r.checkSeq(message.seq)\n        if (late) return"
    assert _changes(SKILL, inline, held) == []
    assert _changes(SKILL, inline, held.replace("if (late)", "if (!late)")) == CHANGED
    # read twice: the local is not written in
    twice = held + "\n        if (late) r.draw(1)"
    assert _changes(SKILL, inline + "\n        if (r is HumanPlayer && !r.checkSeq(message.seq)) r.draw(1)",
                    twice) == CHANGED


# ----------------------------------------------------------------------- forEach returning from its function
def test_a_for_each_body_returning_is_the_for_loop():
    loop = "        for (p in others) if (!p.alive) return"
    assert _changes(SKILL, loop, "        others.forEach { p -> if (!p.alive) return }") == []


def test_a_for_each_body_returning_from_the_lambda_is_named():
    loop = "        for (p in others) if (!p.alive) return"
    assert _changes(SKILL, loop, "        others.forEach { p -> if (!p.alive) return@forEach }") == CHANGED


# ----------------------------------------------------------------------------------------- a `when` used as a value
def test_a_when_value_is_its_if_else_chain():
    when = ("        val n = when (r.cards.size) {\n            target.cards.size -> 1\n            3 -> 2\n"
            "            else -> throw IllegalStateException(\"no\")\n        }\n        r.draw(n)")
    chain = ("        val n = if (r.cards.size == target.cards.size) 1 else if (3 == r.cards.size) { 2 } "
             "else { throw IllegalStateException(\"no\") }\n        r.draw(n)")
    assert _changes(SKILL, when, chain) == []
    assert _changes(SKILL, when, chain.replace("{ 2 }", "{ 3 }")) == CHANGED
    assert _changes(SKILL, when, chain.replace("3 ==", "4 ==")) == CHANGED
    assert _changes(SKILL, when, chain.replace("target.cards.size) 1", "target.cards.size) 2")) == CHANGED


# ----------------------------------------------------------------------------------------- a local function
def test_a_condition_extracted_into_a_local_function_reads_as_written():
    body = "        if (others.size % 2 == 0 && r.alive) r.draw(1)"
    local = "        fun even() = others.size % 2 == 0 && r.alive\n        if (even()) r.draw(1)"
    assert _changes(SKILL, body, local) == []
    assert _changes(SKILL, body, local.replace("% 2 == 0", "% 2 == 1")) == CHANGED
    assert _changes(SKILL, body, local.replace("r.draw(1)", "r.draw(2)")) == CHANGED
