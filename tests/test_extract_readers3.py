"""Readers of issue 24's planted3/planted4 misses in skill effects, card conditions and trigger guards, each general
(never one skill's): a trigger's guard reading the fight state its event happened in (``(event.currentFsm as?
FightPhaseIdle)?.inFrontOfWhom``) and a constant list of card types of the rule's companion; the cards a rule picks
one by one in ``List(n) { val c = X.findCard(id); checks; c }`` with their colour check on the op that moves them; a
card's ``canUse`` branching on the game state, whose checks of its target hold in that window only (``target.when``),
compared by the gate. Every fixture is our own Kotlin, written for these tests; each test fails on the code before
these readers."""
from __future__ import annotations

from skillproof.model.extract import extract

from test_effects_read import _server
from test_extract_readers import _entry, _with_skill

USE_EVENT = """package demo.game

import demo.protos.Common.card_type

class UseCardEvent(val whoseTurn: Player, val player: Player, val targetPlayer: Player?, val cardType: card_type,
                   val currentFsm: Fsm)
"""

TWIST = """package demo.game.skill

import demo.game.*
import demo.game.phase.FightPhaseIdle
import demo.protos.Common.card_type.Ping_Heng
import demo.protos.Common.card_type.Wu_Dao

class Twist : TriggeredSkill {
    override val skillId = SkillId.TWIST
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        g.findEvent<UseCardEvent>(this) { event ->
            event.cardType in cardTypes || return@findEvent false
            askWhom.roleFaceUp || return@findEvent false
            WHO
        } ?: return null
        askWhom.draw(1)
        return null
    }

    companion object {
        private val cardTypes = listOf(TYPES)
    }
}
"""


def _twist(tmp_path, who="askWhom === event.player || askWhom === (event.currentFsm as? FightPhaseIdle)?.inFrontOfWhom",
           types="Wu_Dao, Ping_Heng"):
    d = _with_skill(tmp_path, "Twist", "TWIST", TWIST.replace("WHO", who).replace("TYPES", types))
    (d / "Event2.kt").write_text(USE_EVENT, encoding="utf-8")
    return extract(d)


def test_a_trigger_guard_reads_the_fight_state_of_its_event_and_a_companion_list(tmp_path):
    ex = _twist(tmp_path / "a")
    e = _entry(ex, "Twist")
    assert e["on"]["event"] == "use_card"
    assert e["on"]["when"] == "(user == self or in_front) and card in {Ping_Heng, Wu_Dao} and face_up"
    assert ex.reads[("skill/Twist.kt", "Twist", "execute")] is True
    only_front = _entry(_twist(tmp_path / "b", who="askWhom === (event.currentFsm as? FightPhaseIdle)?.inFrontOfWhom"),
                        "Twist")
    assert set(only_front["on"]["when"].split(" and ")) == {"card in {Ping_Heng, Wu_Dao}", "face_up", "in_front"}
    one_type = _entry(_twist(tmp_path / "c", types="Wu_Dao"), "Twist")
    assert "card in {Wu_Dao} and" in one_type["on"]["when"] or "card == Wu_Dao" in one_type["on"]["when"]


FRISK = """package demo.game.skill

import demo.game.*
import demo.protos.Common.color.Black

class Frisk : MainPhaseSkill() {
    override val skillId = SkillId.FRISK
    override val isInitialSkill = true

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        val target = g.players[r.getAbstractLocation(message.targetPlayerId)]!!
        val cards = List(message.cardIdsCount) {
            val card = target.findCard(message.getCardIds(it))
            if (card == null) {
                logger.error("no such card")
                return
            }
            if (!CHECK) {
                logger.error("not black")
                return
            }
            card
        }
        target.cards.removeAll(cards.toSet())
        r.cards.addAll(cards)
    }
}
"""


def test_cards_picked_one_by_one_keep_their_colour_check(tmp_path):
    black = _entry(extract(_with_skill(tmp_path / "a", "Frisk", "FRISK", FRISK.replace("CHECK", "card.isBlack()"))),
                   "Frisk")
    pure = _entry(extract(_with_skill(tmp_path / "b", "Frisk", "FRISK", FRISK.replace("CHECK", "card.isPureBlack()"))),
                  "Frisk")
    take = [o for o in black["do"] if o["op"] == "take"]
    assert len(take) == 1 and take[0]["colour"] == "black"
    assert [o for o in pure["do"] if o["op"] == "take"][0]["colour"] == "pure_black"
    assert not any(o["op"] == "prose" for o in black["do"])


CLEAR = """package demo.game.card

import demo.game.*
import demo.game.phase.MainPhaseIdle
import demo.game.phase.WaitForChengQing
import demo.protos.Common.card_type.Cheng_Qing

class Clear(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Cheng_Qing

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        val target = args[0] as Player
        val fsm = g.fsm
        if (fsm is MainPhaseIdle) {
            if (r !== fsm.whoseTurn) return false
        } else if (fsm is WaitForChengQing) {
            if (r !== fsm.askWhom) return false
            if (DYING) return false
        } else {
            return false
        }
        if (ALIVE) return false
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val target = args[0] as Player
        r.deleteCard(id)
        target.draw(1)
    }
}
"""


def _clear(tmp_path, dying="target !== fsm.whoDie", alive="!target.alive"):
    d = _server(tmp_path)
    (d / "card" / "Clear.kt").write_text(CLEAR.replace("DYING", dying).replace("ALIVE", alive), encoding="utf-8")
    return extract(d)


def test_a_cards_checks_in_one_window_are_its_targets_there(tmp_path):
    ex = _clear(tmp_path / "a")
    assert ex.load_errors == []
    card = ex.catalogue.cards["Cheng_Qing"]
    from skillproof.model import expr as E
    assert {w: E.to_text(c) for w, c in card.target.when.items()} == {"dying": "dying == target"}
    assert E.to_text(card.requires) == "target.alive"
    assert ex.reads[("card/Clear.kt", "Clear", "canUse")] is True
    main_own = _clear(tmp_path / "b", alive="!target.alive || fsm is MainPhaseIdle && target !== r")
    when = {w: E.to_text(c) for w, c in main_own.catalogue.cards["Cheng_Qing"].target.when.items()}
    assert when == {"dying": "dying == target", "main": "target == self"}


def test_the_gate_names_a_cards_target_that_changed(tmp_path):
    from skillproof.checks.diff_rules import rule_changes
    a = _clear(tmp_path / "a").catalogue
    b = _clear(tmp_path / "b", dying="target !== fsm.whoDie && target !== r").catalogue
    ch = [c for c in rule_changes(a, b) if c.key == "target"]
    assert len(ch) == 1 and ch[0].id == "Cheng_Qing"
    assert ch[0].new == "any when dying: (dying == target) or (target == self)"
    assert rule_changes(a, _clear(tmp_path / "c").catalogue) == []
