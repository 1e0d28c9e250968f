"""Readers of the gate's real side written at the ninth stop (issue 24; planted8 as the held-out sample they were
measured on): a refusal of a card's or an ActiveSkill's use on a test of the game state that says more than the
windows and their actor (the player the message lies in front of barred) — a condition of the use when it translates,
else code not read; the size of a message area; a message-area tally run on messages of colours the joining card
lacks. Each on a small Kotlin server of our own (tests/fixtures/kotlin/server plus the classes below), never the
game's code — a real change is told apart, a quiet spelling of the same code is not."""
from __future__ import annotations

import shutil
from pathlib import Path

from skillproof.checks.diff_rules import rule_changes
from skillproof.model import expr as E
from skillproof.model.extract import extract

SERVER = Path(__file__).parent / "fixtures" / "kotlin" / "server"

CARD = """package demo.game.card

import demo.game.*
import demo.game.phase.FightPhaseIdle
import demo.game.phase.MainPhaseIdle
import demo.protos.Common.card_type.Diao_Bao
import demo.protos.Common.color
import demo.protos.Common.direction

class Switch(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Diao_Bao

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        if (r !== (g.fsm as? FightPhaseIdle)?.whoseFightTurn) {
            logger.error("not now")
            return false
        }
GUARD        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        r.draw(1)
    }
}
"""

SKILL = """package demo.game.skill

import demo.game.Game
import demo.game.Player
import demo.game.phase.FightPhaseIdle

class Probe : ActiveSkill {
    override val skillId = SkillId.ECHO

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        val fsm = g.fsm as? FightPhaseIdle
        if (fsm == null || r !== fsm.whoseFightTurn) {
            logger.error("not now")
            return
        }
GUARD        r.draw(1)
    }
}
"""


def _ex(tmp_path, rel: str, text: str):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    (d / rel).write_text(text, encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def _card(tmp_path, guard: str):
    return _ex(tmp_path, "card/Switch.kt", CARD.replace("GUARD", guard))


def _req(ex, cid="Diao_Bao") -> str:
    r = ex.catalogue.cards[cid].requires
    return "" if r is None else E.to_text(r).replace("(", "").replace(")", "")


def _changed(a, b, rid) -> list:
    return [(c.id, c.key) for c in rule_changes(a.catalogue, b.catalogue) if c.id == rid]


CAN_USE = ("card/Switch.kt", "Switch", "canUse")


# ------------------------------------------------------------------------------ a refusal beyond the windows' actor
def test_a_card_barring_the_player_in_front_is_a_condition_of_its_use(tmp_path):
    """``if (r === (g.fsm as? FightPhaseIdle)?.inFrontOfWhom) return false`` in a fight card's canUse: the state's
    field is not the player the window asks (whoseFightTurn), so it is no window test — it is read as a condition of
    the use (``requires``, over ``front``) and the gate names the card. Before, every test naming the game state was
    taken for the windows and dropped: no catalogue difference, and the construct counted as read whole."""
    base = _card(tmp_path / "a", "")
    barred = _card(tmp_path / "b", "        if (r === (g.fsm as? FightPhaseIdle)?.inFrontOfWhom) return false\n")
    assert _req(base) == ""
    assert _req(barred) in ("self != front", "front != self")
    assert barred.reads[CAN_USE] is True
    assert _changed(base, barred, "Diao_Bao") == [("Diao_Bao", "requires")]
    assert barred.catalogue.cards["Diao_Bao"].windows == base.catalogue.cards["Diao_Bao"].windows


def test_quiet_spellings_of_the_window_and_of_the_bar_read_the_same(tmp_path):
    """The window's own actor test written through a local and a null test stays a window test (no condition); the
    bar written the other way round, or through the local, reads as the same condition."""
    local = CARD.replace("        if (r !== (g.fsm as? FightPhaseIdle)?.whoseFightTurn) {\n",
                         "        val fsm = g.fsm as? FightPhaseIdle\n"
                         "        if (fsm == null || fsm.whoseFightTurn !== r) {\n")
    base = _ex(tmp_path / "a", "card/Switch.kt", local.replace("GUARD", ""))
    assert _req(base) == "" and base.reads[CAN_USE] is True
    bar = _card(tmp_path / "b", "        if (r === (g.fsm as? FightPhaseIdle)?.inFrontOfWhom) return false\n")
    swapped = _card(tmp_path / "c", "        if ((g.fsm as? FightPhaseIdle)?.inFrontOfWhom === r) return false\n")
    via_local = _ex(tmp_path / "d", "card/Switch.kt",
                    local.replace("GUARD", "        if (r === fsm.inFrontOfWhom) return false\n"))
    assert _changed(bar, swapped, "Diao_Bao") == []
    assert _changed(bar, via_local, "Diao_Bao") == []


def test_a_state_test_the_catalogue_cannot_say_is_named_unread(tmp_path):
    """A refusal on the state that does not translate (the asked player barred: ``r === …whoseFightTurn``, a field
    with no word) marks the construct not read whole, so a change there is named (UNR001) rather than passed."""
    barred = _card(tmp_path / "a", "        if (r === (g.fsm as? FightPhaseIdle)?.whoseFightTurn) return false\n")
    assert barred.reads[CAN_USE] is False
    assert _card(tmp_path / "b", "").reads[CAN_USE] is True


def test_an_active_skills_own_actor_tests_stay_its_windows_and_a_bar_is_read(tmp_path):
    """An ActiveSkill's executeProtocol: ``r !== fsm.whoDie`` / ``r !== fsm.inFrontOfWhom`` (who may use it: its
    windows' actors ``dying_player`` / ``in_front``) add no condition; barring the player in front does."""
    rid = "ECHO"

    def skill(sub, guard):
        ex = _ex(tmp_path / sub, "skill/Probe.kt", SKILL.replace("GUARD", guard))
        return ex

    base = skill("a", "")
    actor = skill("b", "        if (r !== fsm.inFrontOfWhom) return\n")
    barred = skill("c", "        if (r === fsm.inFrontOfWhom) return\n")
    probe = [k for k in base.catalogue.skills if "Probe" in str(base.locations.get(k, "")) or k == rid]
    assert probe, sorted(base.catalogue.skills)
    sid = probe[0]
    assert _changed(base, actor, sid) == []
    assert _changed(base, barred, sid) == [(sid, "requires")]
    req = E.to_text(barred.catalogue.skills[sid].requires).replace("(", "").replace(")", "")
    assert req in ("self != front", "front != self")


# ------------------------------------------------------------------------------------------- a message area's size
def test_a_message_areas_size_is_the_count_of_its_messages(tmp_path):
    """``r.messageCards.size < 2`` (欲擒故纵 needing two messages, planted8): ``black_messages + non_black_messages``
    — a red-black message is one message (``true_messages + black_messages`` would count it twice). The same test
    written the other way round reads the same."""
    base = _card(tmp_path / "a", "")
    two = _card(tmp_path / "b", "        if (r.messageCards.size < 2) return false\n")
    assert _req(two) == "black_messages + non_black_messages >= 2"
    assert _changed(base, two, "Diao_Bao") == [("Diao_Bao", "requires")]
    flipped = _card(tmp_path / "c", "        if (!(r.messageCards.size >= 2)) return false\n")
    assert _changed(two, flipped, "Diao_Bao") == []


# --------------------------------------------------------------------- a tally on colours the joining card lacks
def test_a_tally_counting_a_colour_the_joining_card_lacks_is_told_apart(tmp_path):
    """The three-of-a-colour test run on messages of colours the joining card shares none with: the game's test (a
    colour counts only when the joining card has it) lists none — its value is the same-colour rows alone — while a
    branch that no longer needs the colour among the new cards (planted8's red) lists ``blue on red: 3``."""
    import test_extract_readers8 as R8

    def engine(sub, result):
        d = tmp_path / sub / "server"
        shutil.copytree(SERVER, d)
        (d / "Tally.kt").write_text(R8.PLAYER_TALLY.replace("RESULT", result), encoding="utf-8")
        return extract(d).engine["tally.Tally.wouldMakeThree"]
    game = engine("a", "hasRed && red >= 3 || hasBlack && black >= 3")
    assert game.value == ("red: 2", "blue: never", "black: 2", "red-black: 2", "blue-black: 2")
    any_red = engine("b", "true && red >= 3 || hasBlack && black >= 3")
    assert any_red.value[:5] == game.value
    assert "blue on red: 3" in any_red.value and "black on red: 3" in any_red.value
    assert not any(" on black" in v for v in any_red.value)
    swapped = engine("c", "black >= 3 && hasBlack || red > 2 && hasRed")
    assert swapped.value == game.value


# ------------------------------------------------------------------------------------------------ a card's own bans
OTHER = """package demo.game.card

import demo.game.*
import demo.game.phase.MainPhaseIdle
import demo.protos.Common.card_type.Ping_Heng
import demo.protos.Common.color
import demo.protos.Common.direction

class Even(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Ping_Heng

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        if (r.cannotPlayCard(type)) return false
        if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) return false
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        r.draw(2)
    }
}
"""

BAN = "        if (r.cannotPlayCard(type)) {\n            logger.error(\"banned\")\n            return false\n        }\n"


def test_a_cards_own_ban_test_is_read_and_its_loss_or_change_is_named(tmp_path):
    """Where the code's cards test their user's bans in canUse (``r.cannotPlayCard(type)``), that test is what the
    catalogue's bans say of every card: a canUse with it is read whole; one without it, or testing another card
    type's ban, is not (a change there is named, UNR001) — before, any ``cannotPlayCard(…)`` was dropped as read."""
    def card(sub, guard):
        d = tmp_path / sub / "server"
        shutil.copytree(SERVER, d)
        (d / "card" / "Even.kt").write_text(OTHER, encoding="utf-8")
        (d / "card" / "Switch.kt").write_text(CARD.replace("GUARD", "").replace(
            "    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {\n",
            "    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {\n" + guard), encoding="utf-8")
        return extract(d)
    assert card("a", BAN).reads[CAN_USE] is True
    assert card("b", "").reads[CAN_USE] is False
    assert card("c", BAN.replace("(type)", "(Jie_Huo)")).reads[CAN_USE] is False
    assert card("d", BAN.replace("(type)", "(Diao_Bao)")).reads[CAN_USE] is True      # its own type, named
    # a server whose cards never test bans in canUse (this fixture alone): nothing to miss
    assert _card(tmp_path / "e", "").reads[CAN_USE] is True
