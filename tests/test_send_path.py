"""The send path read as engine rules (issue 24, send rules): the face a message is handed on with (``send_face``,
model/extract/send_path.py), the stop of a message before a dead sender read branch by branch (``state.*`` clauses of a
``return if … else …``), and their words in the game's terms (checks/diff_clauses.py). Small Kotlin snippets written
for these tests (no server code), on the invented server of tests/fixtures/kotlin/server."""
from __future__ import annotations

from skillproof.checks.diff_clauses import clause_words, clauses_words
from skillproof.model import lang
from skillproof.model.extract import extract

from test_extract_deck import _tree

WAY = """package demo.game.phase

import demo.game.*

class Hand(val whoseTurn: Player, val sender: Player, val card: Card, val faceUp: Boolean = false) : Fsm {
    fun resolve(): Any {
        return ResolveResult(Carry(whoseTurn, sender, card, sender, FACE), true)
    }
}

class Carry(val whoseTurn: Player, val sender: Player, val card: Card, val inFrontOfWhom: Player,
            val faceUp: Boolean) : Fsm {
    fun resolve(): Any? {
        if (!inFrontOfWhom.alive) {
            STOP
        }
        return null
    }
}

class Receive(val whoseTurn: Player, val sender: Player, val card: Card, val inFrontOfWhom: Player) : Fsm

class MoveNext(val carry: Carry) : Fsm
"""

#: a message before its dead sender: received there (one `return if`, or two returns: the same clauses), or moved on
RETURN_IF = ("return if (inFrontOfWhom === sender) ResolveResult(Receive(whoseTurn, sender, card, inFrontOfWhom), true)\n"
             "            else ResolveResult(MoveNext(this), true)")
TWO_RETURNS = ("if (inFrontOfWhom === sender) return ResolveResult(Receive(whoseTurn, sender, card, inFrontOfWhom), true)\n"
               "            return ResolveResult(MoveNext(this), true)")
MOVES_ON = ("return if (inFrontOfWhom === sender) ResolveResult(MoveNext(this), true)\n"
            "            else ResolveResult(MoveNext(this), true)")


def _engine(tmp_path, face="faceUp", stop=RETURN_IF):
    src = _tree(tmp_path)
    (src / "phase" / "Way.kt").write_text(WAY.replace("FACE", face).replace("STOP", stop), encoding="utf-8")
    return extract(src).engine


def test_the_face_each_state_of_a_messages_way_is_handed_is_read(tmp_path):
    kept = _engine(tmp_path / "a")["send_face"]
    assert kept.value == ("face := as handed if Hand.resolve goes on to Carry",)
    down = _engine(tmp_path / "b", face="false")["send_face"]
    assert down.value == ("face := false if Hand.resolve goes on to Carry",)
    with lang.using("en"):
        assert clauses_words(kept.value, down.value) == (
            "no longer: the message keeps the face it was sent with when Hand.resolve hands it on to Carry. "
            "now: the message travels face down when Hand.resolve hands it on to Carry")
    with lang.using("zh"):
        assert "情报面朝下传递" in clauses_words(kept.value, down.value)


def test_a_return_of_an_if_is_read_branch_by_branch(tmp_path):
    one = _engine(tmp_path / "a")["state.Carry.resolve"].value
    two = _engine(tmp_path / "b", stop=TWO_RETURNS)["state.Carry.resolve"].value
    assert one == two                                      # the same clauses however the returns are written
    moved = _engine(tmp_path / "c", stop=MOVES_ON)["state.Carry.resolve"].value
    with lang.using("en"):
        words = clauses_words(one, moved)
    assert words == ("no longer: the message is received by the player the message stands before when the player the "
                     "message stands before is dead and the player the message stands before is the sender. now: the "
                     "message moves on to the next player when the player the message stands before is dead and the "
                     "player the message stands before is the sender")


def test_a_message_passing_over_players_is_worded_in_the_games_terms():
    with lang.using("en"):
        assert clause_words("return ResolveResult(sendPhase.copy(inFrontOfWhom=players[i]),true) if "
                            "!(sendPhase.dir==Up) and each(true) and players[i].alive&&players[i].cards.isNotEmpty()") \
            == ("the message stops before the player at the seat reached when not (the message goes up) and the "
                "player at the seat reached is alive and the player at the seat reached holds hand cards")
    with lang.using("zh"):
        assert clause_words("return ResolveResult(sendPhase.copy(inFrontOfWhom=players[i]),true) if "
                            "players[i].cards.isEmpty()") == "当走到的座位上的角色没有手牌时，情报停在走到的座位上的角色面前"


WIN = """package demo.game.phase

import demo.game.*

fun Game.settle(whoseTurn: Player, declared: MutableList<Player>, winners: MutableList<Player>) {
    for (p in players) for (s in p.skills) if (s is ChangeGameResultSkill) s.changeGameResult(p, declared, winners)
}

class TurnOver(val whoseTurn: Player) : Fsm {
    fun checkLoneWin(game: Game): Boolean {
        if (whoseTurn.messageCards.size < 5) return false
        val declaredWinner = DECLARED
        val winner = arrayListOf(whoseTurn)
        game.settle(whoseTurn, declaredWinner, winner)
        game.end(declaredWinner, winner)
        return true
    }
}
"""


def test_whom_a_win_hands_the_result_skills_as_declared_winners_is_read(tmp_path):
    def declared(tag, value):
        src = _tree(tmp_path / tag)
        (src / "phase" / "TurnOver.kt").write_text(WIN.replace("DECLARED", value), encoding="utf-8")
        return extract(src).engine["result_pass.declared"].value
    one = declared("a", "arrayListOf(whoseTurn)")
    assert one == ("declared := whoseTurn if TurnOver.checkLoneWin calls the result pass",)
    assert declared("b", "mutableListOf(whoseTurn)") == one            # another kind of list: the same players
    none = declared("c", "ArrayList<Player>()")
    assert none == ("declared := nobody if TurnOver.checkLoneWin calls the result pass",)
    with lang.using("en"):
        assert clauses_words(one, none) == (
            "no longer: the game-result skills see the turn player as a declared winner when TurnOver.checkLoneWin "
            "finds a win. now: the game-result skills see nobody as a declared winner when TurnOver.checkLoneWin "
            "finds a win")


HURL = """package demo.game.skill

import demo.game.*
import demo.game.phase.*

class Hurl : TriggeredSkill {
    override val skillId = SkillId.BLOCKADE

    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        val lockPlayer = g.players.first { it !== askWhom }
        return ResolveResult(Hand(askWhom, askWhom, askWhom.cards.first(), LOCKS), true)
    }

    fun aiPick(g: Game, askWhom: Player) = Hand(askWhom, askWhom, askWhom.cards.first(), faceUp = false)
}
"""


def test_the_send_a_skill_makes_is_read_with_its_arguments_and_named_with_the_skill(tmp_path):
    def sends(tag, locks):
        src = _tree(tmp_path / tag)
        (src / "phase" / "Way.kt").write_text(WAY.replace("FACE", "faceUp").replace("STOP", RETURN_IF),
                                              encoding="utf-8")
        (src / "skill" / "Hurl.kt").write_text(HURL.replace("LOCKS", locks), encoding="utf-8")
        return extract(src).engine
    face_up = sends("a", "faceUp = true")["send.Hurl.execute"]
    assert face_up.value == ("Hand(whoseTurn = askWhom, sender = askWhom, card = askWhom.cards.first(), faceUp = true)",)
    assert face_up.about == ("Hurl",) and face_up.one
    eng = sends("b", "true")                                         # positional: the same send
    assert eng["send.Hurl.execute"].value == face_up.value
    assert "send.Hurl.aiPick" not in eng                             # a robot's pick is no rule
    assert sends("c", "false")["send.Hurl.execute"].value != face_up.value


def test_a_changed_player_property_getter_is_worded_in_the_games_terms():
    from skillproof.checks.diff_clauses import prop_words
    with lang.using("en"):
        assert prop_words("prop.Data.isFemale", ("female and isFaceUp",), ("female",)) == (
            "a player counts as a woman when: was the role is female and the role is face up; now the role is female "
            "(whether the role is face up or not)")
        assert prop_words("prop.Data.isMale", ("isFaceUp and not female",), ("not female",)).startswith(
            "a player counts as a man when: was the role is face up and not (the role is female)")
        assert prop_words("win.check", ("a",), ("b",)) == ""
    with lang.using("zh"):
        assert prop_words("prop.Data.isFemale", ("female and isFaceUp",), ("female",)) == (
            "一名角色算作女性角色的条件：原为 角色是女性且角色面朝上，现为 角色是女性（无论角色面朝上与否）")
