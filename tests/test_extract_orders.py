"""Engine timing read from Kotlin (model/extract/orders.py): the steps of a process state in order, the seat an asking
round starts from, which way it steps round the table — each a named engine rule that changes with the order and not
with a renamed local. On the invented server of tests/fixtures/kotlin/server, with a process state of our own."""
from __future__ import annotations

import shutil

from skillproof.model.extract import extract

from gitrepo import SERVER

PROCESS = """package demo.game

abstract class ProcessFsm(val whoseTurn: Player) : Fsm {
    fun resolve(): Any? {
        val result = whoseTurn.game!!.dealListeningSkill(FROM)
        if (result != null) return result
        STEPS
        return resolve0()
    }

    private fun checkWin(): Any? = null

    private fun checkDying(): Any? {
        val LOCAL = whoseTurn.game!!
        val dying = LOCAL.players.filter { it!!.alive }
        return LOCAL.sortedFrom(dying, whoseTurn.location)
    }

    abstract fun resolve0(): Any?
}

class FightNext(val game: Game, var seat: Int) {
    fun resolve() {
        while (true) {
            seat = STEP % game.players.size
            if (game.players[seat]!!.alive) break
        }
    }
}
"""

WIN_FIRST = "checkWin()?.let { return it }\n        checkDying()?.let { return it }"
DYING_FIRST = "checkDying()?.let { return it }\n        checkWin()?.let { return it }"


def _engine(tmp_path, steps=WIN_FIRST, start="whoseTurn.location", step="(seat + 1)", local="g"):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    (d / "ProcessFsm.kt").write_text(PROCESS.replace("STEPS", steps).replace("FROM", start).replace(
        "STEP", step).replace("LOCAL", local), encoding="utf-8")
    return extract(d).engine


def test_the_steps_and_orders_are_read(tmp_path):
    e = _engine(tmp_path)
    assert e["process.ProcessFsm"].value == ("dealListeningSkill", "checkWin", "checkDying", "resolve0")
    assert e["trigger.from.ProcessFsm.resolve"].value == "dealListeningSkill: whoseTurn.location"
    assert e["order.from.ProcessFsm.checkDying"].value == "sortedFrom: whoseTurn.location"
    assert e["order.step.FightNext.resolve"].value == "+1"


def test_each_changes_with_the_order_and_not_with_a_renamed_local(tmp_path):
    base = _engine(tmp_path / "a")
    renamed = _engine(tmp_path / "b", local="game")
    # a rule read from one function alone (EngineRule.one: the game states' clauses, model/extract/timing.py) keeps
    # the code's own words, locals included; the gate compares it by that function's normal form instead
    # (unread.same_rule_code), so only the others must read the same value here
    assert renamed.keys() == base.keys()
    assert {n: r.value for n, r in renamed.items() if not r.one} == {n: r.value for n, r in base.items() if not r.one}
    assert _engine(tmp_path / "c", steps=DYING_FIRST)["process.ProcessFsm"].value == (
        "dealListeningSkill", "checkDying", "checkWin", "resolve0")
    assert _engine(tmp_path / "d", start="0")["trigger.from.ProcessFsm.resolve"].value == "dealListeningSkill: 0"
    assert _engine(tmp_path / "e", step="(seat + game.players.size - 1)")[
        "order.step.FightNext.resolve"].value == "+game.players.size-1"
