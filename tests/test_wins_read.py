"""The win readers (``model/extract/wins.py``) compare who can win when, not the code's spelling: a pass over the
result skills read as its definition whatever it is named, roles turned face up as the game ends left out (they
decide no winner); a changed condition or winner still changes the rule. Tiny Kotlin written for these tests, on the
fixture server (tests/fixtures/kotlin/server)."""
from __future__ import annotations

from skillproof.model.extract import extract

from test_extract_history import _server_with

CHECK = """package demo.game.phase

import demo.game.*
import demo.game.skill.*

class CheckWin(val whoseTurn: Player) : Fsm {
    override fun resolve(): Any? {
        val game = whoseTurn.game!!
        val declareWinner = ArrayList<Player>()
        val winner = ArrayList<Player>()
        for (player in game.players) {
            if (player.messageCards.count(Red) >= 3) {
                declareWinner.add(player)
                winner.add(player)
            }
        }
        game.PASS(whoseTurn, declareWinner, winner)
        if (declareWinner.isNotEmpty()) {
            END
            return null
        }
        return null
    }
}
"""

PASS = """package demo.game.skill

import demo.game.*

interface ChangeGameResultSkill : Skill {
    fun changeGameResult(r: Player, whoseTurn: Player, declaredWinners: MutableList<Player>, winners: MutableList<Player>)
}

fun Game.PASS(whoseTurn: Player, declaredWinners: MutableList<Player>, winners: MutableList<Player>) {
    for (player in players) {
        player!!.skills.forEach { skill ->
            if (skill is ChangeGameResultSkill)
                skill.changeGameResult(player, whoseTurn, declaredWinners, winners)
        }
    }
}
"""

END_NOW = "game.allPlayerSetRoleFaceUp()\n            game.end(declareWinner, winner)"
END_LATER = "GameExecutor.post(game, {\n                game.allPlayerSetRoleFaceUp()\n" \
            "                game.end(declareWinner, winner)\n            }, 1, TimeUnit.SECONDS)"


def _win(tmp_path, name="changeGameResult", end=END_NOW, check=CHECK):
    files = {"phase/CheckWin.kt": check.replace("PASS", name).replace("END", end),
             "skill/ResultPass.kt": PASS.replace("PASS", name)}
    ex = extract(_server_with(tmp_path, files))
    return ex.engine["win.check"].value


def test_the_result_pass_is_read_as_its_definition_whatever_its_name(tmp_path):
    right = _win(tmp_path / "a")
    assert "result pass" in right
    assert _win(tmp_path / "b", name="changeDrawCardCount") == right


def test_roles_revealed_a_second_later_decide_no_winner(tmp_path):
    assert _win(tmp_path / "a", end=END_NOW) == _win(tmp_path / "b", end=END_LATER)
    assert not any("face up" in c for c in _win(tmp_path / "c"))


def test_a_changed_win_condition_still_changes_the_rule(tmp_path):
    before = _win(tmp_path / "a")
    assert _win(tmp_path / "b", check=CHECK.replace(">= 3", ">= 2")) != before
    # the result pass no longer run: a change
    assert _win(tmp_path / "c", check=CHECK.replace("        game.PASS(whoseTurn, declareWinner, winner)\n", "")) \
        != before
