"""Readers of issue 24's planted2 misses, each general (never one skill's): a state built with its last property given
as a trailing lambda (``ExecuteX(fsm, event) { card -> … }``) is followed like any state; a trigger draining every
pending event (``while (true) { e = g.findEvent<E>(this) { … } ?: break; found = true }``) answers the guard of that
``findEvent``; a guard that picks the other party with a ``when`` whose ``else`` rejects the event is a case split
(``whose`` both roles, the rest ``if … then … else``); an answer the state refuses without a condition (``if
(message.show && !c) return null``) gives that choice the condition; the engine's reset of skill-use counts is the
named engine rule ``turn.use_counts_reset``; the colour of a card a rule holds decides a branch (a ``choose``, the card
carrying the colour) and a message card checked before it moves gives that op its ``where`` and a name (``as``) its
later tests read; what a card's handler checks of the card it hands to ``execute`` is the card's. Every fixture is our
own Kotlin, written for these tests; each test fails on the code before these readers."""
from __future__ import annotations

import tomllib

from skillproof.model.extract import extract

from test_effects_read import _server


def _with_skill(tmp_path, name: str, sid: str, text: str):
    d = _server(tmp_path)
    (d / "skill" / f"{name}.kt").write_text(text, encoding="utf-8")
    ids = d / "skill" / "SkillId.kt"
    ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", f'{sid}("{name}"),\n    ECHO(', 1), encoding="utf-8")
    roles = d / "skill" / "Roles.kt"
    roles.write_text(roles.read_text(encoding="utf-8").replace("Echo()", f"Echo(), {name}()", 1), encoding="utf-8")
    return d


def _entry(ex, rid: str) -> dict:
    for name in ("skills.toml", "grants.toml"):
        data = tomllib.loads(ex.files.get(name, ""))
        for e in data.get("skill", []) + data.get("grant", []):
            if e["id"] == rid:
                return e
    raise AssertionError(f"{rid} not extracted")


def _ops(e: dict) -> list:
    out = []
    for o in e.get("do", []):
        out.append(o)
        for alt in o.get("of", []):
            out.extend(alt)
    return out


CHIME = """package demo.game.skill

import demo.game.*
import demo.game.card.Card

class Chime : TriggeredSkill {
    override val skillId = SkillId.CHIME
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        val event = g.findEvent<ReceiveCardEvent>(this) { event ->
            askWhom === event.inFrontOfWhom
        } ?: return null
        return ResolveResult(ExecuteChime(g.fsm!!, event) { card -> card.isBlack() }, true)
    }

    private data class ExecuteChime(val fsm: Fsm, val event: ReceiveCardEvent, val check: (Card) -> Boolean) :
        WaitingFsm {
        override fun resolve(): Any? = null

        override fun resolveProtocol(player: Player, message: Any): Any? {
            if (player !== event.inFrontOfWhom) return null
            event.inFrontOfWhom.draw(COUNT)
            return ResolveResult(fsm, true)
        }
    }
}
"""


def test_a_state_given_a_trailing_lambda_is_followed(tmp_path):
    two = _entry(extract(_with_skill(tmp_path / "a", "Chime", "CHIME", CHIME.replace("COUNT", "2"))), "Chime")
    one = _entry(extract(_with_skill(tmp_path / "b", "Chime", "CHIME", CHIME.replace("COUNT", "1"))), "Chime")
    draws = [o for o in _ops(two) if o["op"] == "draw"]
    assert draws and draws[0]["n"] == 2 and draws[0]["who"] == "receiver"
    assert [o for o in _ops(one) if o["op"] == "draw"][0]["n"] == 1
    assert not any(o["op"] == "prose" and "ExecuteChime" in o.get("note", "") for o in _ops(two))


PEAL = """package demo.game.skill

import demo.game.*
import demo.protos.Common.color.Red

class Peal : TriggeredSkill {
    override val skillId = SkillId.PEAL
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        var found = false
        var last: ReceiveCardEvent? = null
        while (true) {
            last = g.findEvent<ReceiveCardEvent>(this) { event ->
                askWhom === event.sender || return@findEvent false
                !askWhom.roleFaceUp || return@findEvent false
                Red in event.messageCard.colors
            } ?: break
            found = true
        }
        if (!found) return null
        askWhom.draw(1)
        return null
    }
}
"""


def test_a_trigger_draining_every_pending_event_answers_its_guard(tmp_path):
    ex = extract(_with_skill(tmp_path, "Peal", "PEAL", PEAL))
    on = _entry(ex, "Peal")["on"]
    on = on[0] if isinstance(on, list) else on
    assert on["event"] == "receive" and on.get("whose") == "sender"
    assert "unknown" not in on["when"]
    assert "red in message" in on["when"] and "not face_up" in on["when"]
    assert ex.reads[("skill/Peal.kt", "Peal", "execute")] is True


KNELL = """package demo.game.skill

import demo.game.*

class Knell : TriggeredSkill {
    override val skillId = SkillId.KNELL
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        var other = askWhom
        g.findEvent<ReceiveCardEvent>(this) { event ->
            other = when {
                askWhom === event.sender -> event.inFrontOfWhom
                askWhom === event.inFrontOfWhom -> event.sender
                else -> return@findEvent false
            }
            other.cards.isNotEmpty()
        } ?: return null
        askWhom.draw(1)
        return null
    }
}
"""


def test_a_guard_picking_the_other_party_with_a_when_is_a_case_split(tmp_path):
    on = _entry(extract(_with_skill(tmp_path, "Knell", "KNELL", KNELL)), "Knell")["on"]
    on = on[0] if isinstance(on, list) else on
    assert on["whose"] == ["sender", "receiver"]
    assert on["when"] in ("if sender == self then receiver.hand_count > 0 else sender.hand_count > 0",
                          "(if sender == self then receiver.hand_count > 0 else sender.hand_count > 0)")


GONG = """package demo.game.skill

import demo.game.*

class Gong : MainPhaseSkill() {
    override val skillId = SkillId.GONG
    override val isInitialSkill = true

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        g.resolve(ExecuteGong(g.fsm!!, r))
    }

    private data class ExecuteGong(val fsm: Fsm, val r: Player) : WaitingFsm {
        override fun resolve(): Any? = null

        override fun resolveProtocol(player: Player, message: Any): Any? {
            if (player !== r) return null
            if (message.show && !r.roleFaceUp) {
                r.sendErrorMessage("face down")
                return null
            }
            if (message.show) r.draw(1)
            return ResolveResult(fsm, true)
        }
    }
}
"""


def test_an_answer_refused_without_a_condition_gives_its_choice_that_condition(tmp_path):
    e = _entry(extract(_with_skill(tmp_path, "Gong", "GONG", GONG)), "Gong")
    choose = [o for o in e["do"] if o["op"] == "choose"]
    assert choose and choose[0]["of"][0][0]["op"] == "draw"
    assert choose[0].get("if") == "face_up"


NEXT_ROUND = """package demo.game.phase

import demo.game.*

class NextRound(val whoseTurn: Player) : Fsm {
    fun resolve(): Any? {
        val game = whoseTurn.game!!
        RESET
        return null
    }
}
"""


def test_the_reset_of_skill_use_counts_is_an_engine_rule(tmp_path):
    values = []
    for i, reset in enumerate(("game.players.forEach { it!!.resetSkillUseCount() }",
                               "for (p in game.players) p!!.resetSkillUseCount()", "whoseTurn.resetSkillUseCount()")):
        d = _server(tmp_path / str(i))
        (d / "phase" / "NextRound.kt").write_text(NEXT_ROUND.replace("RESET", reset), encoding="utf-8")
        values.append(extract(d).engine["turn.use_counts_reset"].value)
    assert values[0] == values[1] == ("NextRound.resolve: every player",)
    assert values[2] == ("NextRound.resolve: one player",)


SNARE = """package demo.game.skill

import demo.game.*
import demo.protos.Common.color.Red

class Snare : MainPhaseSkill() {
    override val skillId = SkillId.SNARE
    override val isInitialSkill = true

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        val pb = message as skill_snare_tos
        val target = g.players[r.getAbstractLocation(pb.targetPlayerId)]!!
        val card = target.findMessageCard(pb.cardId) ?: return
        if (Red !in card.colors) return
        target.deleteMessageCard(card.id)
        if (card.TEST()) r.draw(1)
    }
}
"""


def test_a_message_card_checked_before_it_moves_gives_the_op_its_where_and_a_name(tmp_path):
    black = _entry(extract(_with_skill(tmp_path / "a", "Snare", "SNARE", SNARE.replace("TEST", "isBlack"))), "Snare")
    pure = _entry(extract(_with_skill(tmp_path / "b", "Snare", "SNARE", SNARE.replace("TEST", "isPureBlack"))),
                  "Snare")
    gone = [o for o in black["do"] if o["op"] == "remove_message"]
    assert gone and gone[0]["where"] == "red in it" and gone[0]["as"] == "gone"
    assert [o for o in black["do"] if o["op"] == "draw"][0]["if"] == "black in gone"
    assert [o for o in pure["do"] if o["op"] == "draw"][0]["if"] == "gone == {black}"


LURE = """package demo.game.skill

import demo.game.*

class Lure : MainPhaseSkill() {
    override val skillId = SkillId.LURE
    override val isInitialSkill = true

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        val pb = message as skill_lure_tos
        val target = g.players[r.getAbstractLocation(pb.targetPlayerId)]!!
        val card = target.cards.random()
        target.deleteCard(card.id)
        r.cards.add(card)
        if (!card.TEST()) {
            r.draw(1)
            return
        }
        r.deleteCard(card.id)
        target.messageCards.add(card)
    }
}
"""


def test_the_colour_of_a_held_card_decides_a_branch_and_the_card_keeps_it(tmp_path):
    black = _entry(extract(_with_skill(tmp_path / "a", "Lure", "LURE", LURE.replace("TEST", "isBlack"))), "Lure")
    pure = _entry(extract(_with_skill(tmp_path / "b", "Lure", "LURE", LURE.replace("TEST", "isPureBlack"))), "Lure")
    for e in (black, pure):
        choose = [o for o in e["do"] if o["op"] == "choose"]
        assert choose and [o["op"] for o in choose[0]["of"][0]] == ["draw"]
    put = lambda e: [o for o in e["do"] if o["op"] == "put_message"]
    assert put(black) and put(black)[0]["colour"] == "black"
    assert put(pure) and put(pure)[0]["colour"] == "pure_black"


#: a card's own handler checks the message it is handed before the card runs (the shape of a use-card handler)
PUSH_HANDLER = """package demo.game.handler

import demo.game.*
import demo.protos.Common.card_type.Yu_Qin_Gu_Zong
import demo.protos.Common.color.Red
import demo.protos.Common.color.Blue

class UsePushTos {
    fun handle(r: Player, pb: use_push_tos) {
        var card = r.findCard(pb.cardId) ?: return
        val (ok, convert) = r.canUseCardTypes(Yu_Qin_Gu_Zong, card)
        if (!ok) return
        val messageCard = r.findMessageCard(pb.messageCardId) ?: return
        if (TEST) {
            r.sendErrorMessage("not that one")
            return
        }
        if (card.canUse(r.game!!, r, messageCard, pb.cardDir, pb.target, pb.locks)) {
            card.execute(r.game!!, r, messageCard, pb.cardDir, pb.target, pb.locks)
        }
    }
}
"""


def _push(tmp_path, test: str):
    from test_extract_card_effects import LOOSE
    d = _server(tmp_path)
    (d / "card" / "Loose.kt").write_text(LOOSE.replace("FACE", "true"), encoding="utf-8")
    (d / "handler").mkdir(exist_ok=True)
    (d / "handler" / "UsePushTos.kt").write_text(PUSH_HANDLER.replace("TEST", test), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    data = tomllib.loads(ex.files["cards.toml"])
    card = next(c for c in data["card"] if c["id"] == "Yu_Qin_Gu_Zong")
    return [o for o in card["do"] if o["op"] == "send_message"][0]


def test_what_a_cards_handler_checks_of_the_card_it_hands_on_is_the_cards(tmp_path):
    mixed = _push(tmp_path / "a", "Red !in messageCard.colors && Blue !in messageCard.colors")
    no_black = _push(tmp_path / "b", "messageCard.isBlack()")
    assert mixed["colour"] == "red_or_blue" and mixed["from"] == "message_area"
    assert no_black["colour"] == "non_black"
