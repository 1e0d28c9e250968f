"""What `extract` reads of what rules and cards do (model/extract/effects_read.py): a trigger's guard (`on.when`), the
effect ops (`do`) with their amounts, players and conditions, an ActiveSkill's or a card's checks (`requires`),
`limit` and `flips`, and which constructs were read whole — on small Kotlin files written for these tests (the
fixture server plus the classes below), never the server's own code."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillproof.model.extract import extract

SERVER = Path(__file__).parent / "fixtures" / "kotlin" / "server"

EVENTS = """package demo.game

class ReceiveCardEvent(val whoseTurn: Player, val sender: Player, val inFrontOfWhom: Player, val messageCard: Card)
class GiveCardEvent(val whoseTurn: Player, val fromPlayer: Player, val toPlayer: Player)
class DiscardCardEvent(val whoseTurn: Player, val player: Player)
"""

#: a triggered skill: its guard, two effects, a flip
BELL = """package demo.game.skill

import demo.game.*
import demo.protos.Common.color.Red
import demo.protos.Common.color.Blue

class Bell : TriggeredSkill {
    override val skillId = SkillId.BELL
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        g.findEvent<ReceiveCardEvent>(this) { event ->
            askWhom === event.sender || return@findEvent false
            askWhom !== event.inFrontOfWhom || return@findEvent false
            askWhom.roleFaceUp || return@findEvent false
            Red in event.messageCard.colors || Blue in event.messageCard.colors
        } ?: return null
        logger.info("bell")
        askWhom.draw(COUNT)
        g.playerSetRoleFaceUp(askWhom, false)
        return null
    }
}
"""

#: an ActiveSkill: its checks before the use, effects with an amount and a branch, a state class followed
HAMMER = """package demo.game.skill

import demo.game.*
import demo.game.phase.MainPhaseIdle
import demo.protos.Common.color.Black

class Hammer : MainPhaseSkill() {
    override val skillId = SkillId.HAMMER
    override val isInitialSkill = true

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) {
            logger.error("not now")
            return
        }
        if (r.getSkillUseCount(skillId) > 0) {
            r.sendErrorMessage("once a turn")
            return
        }
        val pb = message as skill_hammer_tos
        if (pb.targetPlayerId == 0) {
            return
        }
        val target = g.players[r.getAbstractLocation(pb.targetPlayerId)]!!
        if (!target.alive) return
        r.addSkillUseCount(skillId)
        g.playerSetRoleFaceUp(r, true)
        val count = r.messageCards.count(Black) + EXTRA
        if (count >= target.cards.size) {
            g.playerDiscardCard(target, target.cards.toList())
        } else {
            g.resolve(ExecuteHammer(g.fsm!!, r, target, count))
        }
    }

    private data class ExecuteHammer(val fsm: Fsm, val r: Player, val target: Player, val cardCount: Int) : WaitingFsm {
        override fun resolve(): Any? {
            if (target is RobotPlayer) {
                GameExecutor.post(target.game!!, { autoPick() }, 1, TimeUnit.SECONDS)
            }
            return null
        }

        override fun resolveProtocol(player: Player, message: Any): Any? {
            if (player !== target) return null
            if (cardCount != message.cardIdsCount) return null
            val cards = message.cardIdsList.map { target.findCard(it)!! }
            target.game!!.playerDiscardCard(target, *cards.toTypedArray())
            target.game!!.addEvent(DiscardCardEvent(r, target))
            UNREAD
            return ResolveResult(fsm, true)
        }
    }
}
"""

#: a card: its checks and what it does
NUDGE = """package demo.game.card

import demo.game.*
import demo.game.phase.MainPhaseIdle
import demo.protos.Common.card_type.Ping_Heng

class Nudge(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Ping_Heng

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        val target = args[0] as Player
        if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) return false
        SELF_CHECK
        if (!target.alive) return false
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val target = args[0] as Player
        r.deleteCard(id)
        target.draw(2)
        g.addEvent(GiveCardEvent(r, r, target))
    }
}
"""


#: code that listens for the events the skills raise (a raised event no code of the revision answers changes nothing)
LISTEN = """package demo.game

fun Game.heard(): Boolean = findEvent<GiveCardEvent>() != null || findEvent<DiscardCardEvent>() != null
"""


def _server(tmp_path, count="1", extra="1", unread="", self_check="if (r === target) return false",
            listen=True) -> Path:
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    (d / "Event.kt").write_text(EVENTS, encoding="utf-8")
    if listen:
        (d / "Listen.kt").write_text(LISTEN, encoding="utf-8")
    (d / "skill" / "Bell.kt").write_text(BELL.replace("COUNT", count), encoding="utf-8")
    (d / "skill" / "Hammer.kt").write_text(HAMMER.replace("EXTRA", extra).replace("UNREAD", unread), encoding="utf-8")
    (d / "card" / "Nudge.kt").write_text(NUDGE.replace("SELF_CHECK", self_check), encoding="utf-8")
    ids = d / "skill" / "SkillId.kt"
    ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", 'BELL("铃"),\n    HAMMER("锤"),\n    ECHO(', 1),
                   encoding="utf-8")
    roles = d / "skill" / "Roles.kt"
    text = roles.read_text(encoding="utf-8")
    roles.write_text(text.replace("Echo()", "Echo(), Bell(), Hammer()", 1), encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def ex(tmp_path_factory):
    e = extract(_server(tmp_path_factory.mktemp("eff")))
    assert e.load_errors == []
    return e


def test_a_triggers_guard_and_effects_are_read(ex):
    bell = ex.catalogue.skills["Bell"]
    (on,) = bell.on
    assert (on.event, on.whose) == ("receive", ("sender",))
    assert on.text == "receiver != self and (red in message or blue in message) and face_up"   # one order
    assert [(o.op, o.args) for o in bell.do] == [("draw", {"who": "self", "n": 1}),
                                                ("flip", {"who": "self", "what": "role", "face": "down"})]
    assert ex.reads[("skill/Bell.kt", "Bell", "execute")] is True          # read whole
    assert ex.key_lines["Bell"][("do", 0)] == "skill/Bell.kt:19"           # the Kotlin line of each op


def _entry(ex, rid: str) -> dict:
    import tomllib
    for table in ("skills.toml", "cards.toml"):
        doc = tomllib.loads(ex.files[table])
        for e in doc.get("skill", []) + doc.get("card", []):
            if e["id"] == rid:
                return e
    raise KeyError(rid)


def test_an_active_skills_checks_effects_and_state_class(ex):
    h = ex.catalogue.skills["Hammer"]
    assert _entry(ex, "Hammer")["requires"] == "target != self and not used and target.alive"
    assert h.limit == "turn" and h.flips                  # the flip as it is used is `flips`, not an op
    assert _entry(ex, "Hammer")["do"] == [
        {"op": "discard", "who": "target", "which": "all", "if": "black_messages + 1 >= target.hand_count"},
        {"op": "discard", "who": "target", "n": "black_messages + 1", "if": "black_messages + 1 < target.hand_count"},
        {"op": "raise", "event": "discard", "who": "target", "if": "black_messages + 1 < target.hand_count"}]
    assert [o.op for o in h.do] == ["discard", "discard", "raise"]
    # the robot's branch and the protocol checks are no rule: the state class is read whole
    assert ex.reads[("skill/Hammer.kt", "Hammer.ExecuteHammer", "resolve")] is True
    assert ex.reads[("skill/Hammer.kt", "Hammer.ExecuteHammer", "resolveProtocol")] is True


def test_a_cards_checks_and_effects(ex):
    n = ex.catalogue.cards["Ping_Heng"]
    assert _entry(ex, "Ping_Heng")["requires"] == "target != self and target.alive"
    assert [(o.op, o.args.get("who"), o.args.get("n")) for o in n.do] == [("draw", "target", 2),
                                                                         ("raise", "self", None)]


def test_an_event_nobody_answers_is_no_effect(tmp_path):
    """A raised event that no code of the revision listens for (a moment added before any trigger answers it) is no
    effect: raising it or not is the same play."""
    e = extract(_server(tmp_path, listen=False))
    assert [o.op for o in e.catalogue.cards["Ping_Heng"].do] == ["draw"]
    assert [o.op for o in e.catalogue.skills["Hammer"].do] == ["discard", "discard"]


def test_what_is_not_translated_is_prose_and_the_construct_partly_read(tmp_path):
    e = extract(_server(tmp_path, unread="target.game!!.shuffleTheDeck(target)"))
    h = e.catalogue.skills["Hammer"]
    assert h.do[-1].op == "prose" and "shuffleTheDeck" in h.do[-1].args["note"]
    assert e.reads[("skill/Hammer.kt", "Hammer.ExecuteHammer", "resolveProtocol")] is False
    assert e.reads[("skill/Hammer.kt", "Hammer", "executeProtocol")] is True


def test_extraction_is_deterministic(tmp_path):
    a = extract(_server(tmp_path / "a"))
    b = extract(_server(tmp_path / "b"))
    assert a.files == b.files and a.key_lines == b.key_lines
