"""Readers of the gate's real side written at the seventh stop (issue 24; planted1–6 as the dev set): what a
construct the extractor once read "whole" leaves unsaid is no longer vouched for, and what the catalogue can say is
read into it. Each on a small Kotlin server of our own (tests/fixtures/kotlin/server), never the game's code."""
from __future__ import annotations

import shutil

from skillproof.model.extract import extract

from conftest import FIXTURES

SERVER = f"{FIXTURES}/kotlin/server"

#: a card used while someone is dying (the 濒死求澄清 state asks each living player in turn: ``askWhom``)
RESCUE = """package demo.game.card

import demo.game.Game
import demo.game.Player
import demo.game.phase.WaitForChengQing
import demo.protos.Common.card_type.Cheng_Qing
import demo.protos.Common.color
import demo.protos.Common.direction

class Rescue(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Cheng_Qing

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        val target = args[0] as Player
        val fsm = g.fsm
        if (fsm is WaitForChengQing) {
ASKED            if (target !== fsm.whoDie) return false
        } else return false
        return true
    }
}
"""


def _tree(tmp_path, asked: bool):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    (d / "card" / "Rescue.kt").write_text(RESCUE.replace(
        "ASKED", "            if (r !== fsm.askWhom) return false\n" if asked else ""), encoding="utf-8")
    return d


def test_a_card_used_in_an_asking_round_by_anyone_is_not_read_whole(tmp_path):
    """The catalogue's windows say 濒死求澄清 asks each player in turn: a canUse that tests the asked player is read
    whole; without that test anyone may use the card at any moment, which no window says — the construct is not
    read, so dropping the test is named (UNR001), not passed (planted6's 澄清 on anyone while dying)."""
    key = ("card/Rescue.kt", "Rescue", "canUse")
    asked = extract(_tree(tmp_path / "a", True))
    anyone = extract(_tree(tmp_path / "b", False))
    assert asked.reads[key] is True
    assert anyone.reads[key] is False
    assert asked.catalogue.cards["Cheng_Qing"].windows == anyone.catalogue.cards["Cheng_Qing"].windows


def test_a_card_test_handed_to_the_next_state_as_a_lambda_is_not_read(tmp_path):
    """A rule that builds its next state with a lambda testing a card (``ExecuteX(…) { card -> card.colors.any {
    it !in colours } }``) which that state only applies (``cards.any(check)``), never runs as an effect: what the
    lambda decides is in no catalogue key, so the construct that wrote it is not read whole and a change of the
    test is named (UNR001) — planted6's 密信 edit (any colour the message lacks → no colour of the message) passed."""
    from test_effects_read import HAMMER, _server
    key = ("skill/Hammer.kt", "Hammer", "executeProtocol")
    plain = _server(tmp_path / "a")
    assert extract(plain).reads[key] is True
    lam = _server(tmp_path / "b")
    text = HAMMER.replace("EXTRA", "1").replace("UNREAD", "")
    text = text.replace("g.resolve(ExecuteHammer(g.fsm!!, r, target, count))",
                        "g.resolve(ExecuteHammer(g.fsm!!, r, target, count) { card -> card.colors.any { it != Black } })")
    text = text.replace("val cardCount: Int) : WaitingFsm", "val cardCount: Int, val check: (Card) -> Boolean) : "
                                                            "WaitingFsm")
    text = text.replace("            if (player !== target) return null\n",
                        "            if (player !== target) return null\n            if (!target.cards.any(check)) "
                        "return null\n")
    assert "check: (Card)" in text and "cards.any(check)" in text
    (lam / "skill" / "Hammer.kt").write_text(text, encoding="utf-8")
    assert extract(lam).reads[key] is False


#: a triggered skill that reads the receive phase (a game state, not an event) and draws once a turn while alive
WATCH = """package demo.game.skill

import demo.game.Game
import demo.game.Player
import demo.game.phase.ReceivePhaseIdle

class Watch : TriggeredSkill {
    override val skillId = SkillId.WATCH

    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        val fsm = g.fsm as? ReceivePhaseIdle ?: return null
        fsm.inFrontOfWhom === askWhom || return null
ALIVE        askWhom.getSkillUseCount(skillId) == 0 || return null
        askWhom.addSkillUseCount(skillId)
        askWhom.draw(1)
        return null
    }
}
"""


def _watch(tmp_path, alive: bool):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    phases = d / "phase" / "Phases.kt"
    phases.write_text(phases.read_text(encoding="utf-8") + "\nclass ReceivePhaseIdle(val whoseTurn: Player, val "
                      "inFrontOfWhom: Player, val messageCard: Card) : Fsm\n", encoding="utf-8")
    ids = d / "skill" / "SkillId.kt"
    ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", 'WATCH("守"),\n    ECHO(', 1), encoding="utf-8")
    (d / "skill" / "Watch.kt").write_text(WATCH.replace(
        "ALIVE", "        askWhom.alive || return null\n" if alive else ""), encoding="utf-8")
    return extract(d)


def test_a_trigger_reading_the_receive_phase_has_its_guards_read(tmp_path):
    """``val fsm = g.fsm as? ReceivePhaseIdle ?: return null`` stands for the receive phase (no event): the guards
    after it are the on entry's when (详尽思索's grant: its owner alive, once a turn) — dropping one changes the
    catalogue (planted6's 详尽思索 drawing for a dead owner was unread code only)."""
    alive = _watch(tmp_path / "a", True)
    dead = _watch(tmp_path / "b", False)
    a, b = alive.catalogue.skills["Watch"], dead.catalogue.skills["Watch"]
    assert [o.event for o in a.on] == ["receive_phase"] == [o.event for o in b.on]
    assert "alive" in a.on[0].text and "alive" not in b.on[0].text
    assert "used" in a.on[0].text and "used" in b.on[0].text


def _flip(tmp_path, remember: bool):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    game = d / "Game.kt"
    text = game.read_text(encoding="utf-8").replace("    var alive = true\n", "    var alive = true\n    var "
                                                     "hasEverFaceUp = false\n", 1)
    text = text.replace("    fun resolve(next: Fsm) {", "    fun playerSetRoleFaceUp(player: Player, faceUp: Boolean) {\n"
                        "        if (faceUp) {\n            player.roleFaceUp = true\n"
                        + ("            player.hasEverFaceUp = true\n" if remember else "") +
                        "        } else {\n            player.roleFaceUp = false\n        }\n    }\n\n"
                        "    fun resolve(next: Fsm) {", 1)
    game.write_text(text, encoding="utf-8")
    return extract(d)


def test_a_function_of_the_game_setting_a_players_mark_is_an_engine_rule(tmp_path):
    """Turning a role face up also marks it as having been face up (the mark the fight and dying windows' skips
    read): the game's function setting a mark the model reads is the engine rule ``game.<function>``, so dropping
    the mark is named (planted6's face-up memory dropped was unread code)."""
    kept = _flip(tmp_path / "a", True).engine["game.playerSetRoleFaceUp"]
    lost = _flip(tmp_path / "b", False).engine["game.playerSetRoleFaceUp"]
    assert kept.where.startswith("Game.kt:")
    assert any("hasEverFaceUp = true" in c for c in kept.value)
    assert not any("hasEverFaceUp" in c for c in lost.value)
    assert "game.resolve" not in _flip(tmp_path / "c", True).engine          # sets no mark: no rule


#: a base game state with a flag its subclasses may override, and two states
STATES = """package demo.game.phase

import demo.game.Fsm

abstract class Process : Fsm {
    protected open val checksAfter = true
}

class Quiet : Process() {
OVERRIDE}

class Loud : Process()
"""


def test_a_game_states_constant_flag_is_an_engine_rule_for_every_state(tmp_path):
    """``open val checksAfter = true`` of a base state and ``override val checksAfter = false`` of one state: every
    state's value is the engine rule ``state.<Class>.<flag>`` — dropping the override changes it (planted6's wins
    checked before the dead give their cards was unread code)."""
    def engine(sub, override):
        d = tmp_path / sub / "server"
        shutil.copytree(SERVER, d)
        (d / "phase" / "Process.kt").write_text(STATES.replace(
            "OVERRIDE", "    override val checksAfter = false\n" if override else ""), encoding="utf-8")
        return extract(d).engine
    kept, dropped = engine("a", True), engine("b", False)
    assert kept["state.Quiet.checksAfter"].value is False and kept["state.Loud.checksAfter"].value is True
    assert kept["state.Quiet.checksAfter"].where.startswith("phase/Process.kt:")
    assert dropped["state.Quiet.checksAfter"].value is True
    assert dropped["state.Loud.checksAfter"].value == kept["state.Loud.checksAfter"].value


def test_whether_the_secret_tasks_are_shuffled_before_they_are_dealt_is_read(tmp_path):
    """``tasks.shuffle()`` after the list of secret tasks is built: the named set-up rule ``setup.tasks_shuffled``
    (dropped, the same seats get the same tasks every game: planted6's tasks not shuffled was unread code)."""
    from test_extract_deck import _tree, SETUP
    import test_extract_deck as D
    shuffled = extract(_tree(tmp_path / "a")).engine["setup.tasks_shuffled"]
    assert shuffled.value is True and shuffled.where.startswith("phase/Setup.kt:")
    old = D.SETUP
    try:
        D.SETUP = SETUP.replace("        tasks.shuffle()\n", "")
        assert "tasks.shuffle()" not in D.SETUP
        assert extract(_tree(tmp_path / "b")).engine["setup.tasks_shuffled"].value is False
    finally:
        D.SETUP = old


def test_whether_the_identities_are_shuffled_before_they_are_dealt_is_read(tmp_path):
    """The same for the identities: ``setup.identities_shuffled`` (tests/test_setup_send_reads.py's set-up)."""
    from test_setup_send_reads import SETUP_IDS, _tree as _ids_tree
    assert "identities.shuffle()" in SETUP_IDS
    for sub, text, want in (("a", SETUP_IDS, True), ("b", SETUP_IDS.replace("identities.shuffle()", ""), False)):
        src = _ids_tree(tmp_path / sub)
        (src / "phase" / "Setup.kt").write_text(text, encoding="utf-8")
        assert extract(src).engine["setup.identities_shuffled"].value is want
