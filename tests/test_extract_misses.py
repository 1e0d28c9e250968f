"""What the gate once let pass unnamed on real changes (issue 24's misses): an engine win check beyond the first one
found (搅局者's win at his turn's end, server phase/NextTurn.kt) is read as a named engine rule of its own
(``win.<class>``); a declined answer that leaves the game waiting (``return null`` in a waiting state's
``resolveProtocol``, the hang 变则通 had) is not read as "the player may decline", so the construct is not read whole
and a change there is unread code, never silence."""
from __future__ import annotations

import shutil

from skillproof.model.extract import extract

from test_effects_read import HAMMER, _server
from test_gate_effects import WIN

#: a second win check, at the end of a turn (the shape of the server's NextTurn.checkDisturberWin)
TURN_END = """package demo.game.phase

import demo.game.*

class TurnEnd(val whoseTurn: Player) : Fsm {
    override fun resolve(): Any? {
        if (lastWins(whoseTurn.game!!)) return null
        return null
    }

    private fun lastWins(game: Game): Boolean {
        if (game.players.any { it !== whoseTurn && it!!.messageCards.size < COUNT }) return false
        val declaredWinner = arrayListOf(whoseTurn)
        game.end(declaredWinner, declaredWinner)
        return true
    }
}
"""


def _wins(tmp_path, count: str):
    d = tmp_path / "server"
    shutil.copytree(_server(tmp_path / "s"), d)
    (d / "phase" / "CheckWin.kt").write_text(WIN.replace("RED", "3"), encoding="utf-8")
    (d / "phase" / "TurnEnd.kt").write_text(TURN_END.replace("COUNT", count), encoding="utf-8")
    return extract(d)


def test_every_engine_win_check_is_read(tmp_path):
    two = _wins(tmp_path / "a", "2").engine
    three = _wins(tmp_path / "b", "3").engine
    assert two["win.check"].where.startswith("phase/CheckWin.kt")
    assert two["win.turnend"].where.startswith("phase/TurnEnd.kt")
    assert any("messageCards.size < 2" in c for c in two["win.turnend"].value)
    assert two["win.turnend"].value != three["win.turnend"].value
    assert two["win.check"].value == three["win.check"].value


def _decline(tmp_path, answer: str):
    d = _server(tmp_path)
    (d / "skill" / "Hammer.kt").write_text(HAMMER.replace("EXTRA", "1").replace("UNREAD", "").replace(
        "            if (player !== target) return null\n",
        "            if (player !== target) return null\n            if (!message.enable) {\n"
        f"                logger.info(\"declined\")\n                return {answer}\n            }}\n"), encoding="utf-8")
    return extract(d).reads[("skill/Hammer.kt", "Hammer.ExecuteHammer", "resolveProtocol")]


def test_a_decline_that_goes_on_is_read_and_one_that_leaves_the_game_waiting_is_not(tmp_path):
    assert _decline(tmp_path / "a", "ResolveResult(fsm, true)") is True
    assert _decline(tmp_path / "b", "null") is False
