"""What `extract` reads of card effects and the effect ops issue 24's held-out misses left in words: a check ``canUse``
makes of a card the client names by id, kept for the op that moves that card in ``execute`` (its colour); a card put
into an area that goes into a hand instead when it would make three of a colour (``three = to_hand``); a message sent
by a rule (``OnSendCard`` → ``send_message``: who, from where, its face); a card type the client names, checked against
a constant list, and a test of what a hand holds (an open choice of its holder, ``hidden_card``); cards taken out of a
hand (the whole hand, or ``List(n)`` random ones, joined over a branch); ``listOf(a, b).forEach``; a player picked by a
test the reader can translate; the deck read as never running dry. Each on small Kotlin classes written for these
tests (the fixture server plus the cards below), never the server's own code — and each time the gate's comparison
(``checks.diff_rules.rule_changes``) tells the two versions apart, naming the card."""
from __future__ import annotations

import shutil
from pathlib import Path

from skillproof.checks.diff_rules import rule_changes
from skillproof.model.effects_words import op_key, read_ops
from skillproof.model.extract import extract
from skillproof.model import expr as E

SERVER = Path(__file__).parent / "fixtures" / "kotlin" / "server"

HEAD = """package demo.game.card

import demo.game.*
import demo.game.phase.MainPhaseIdle
import demo.game.phase.SendPhaseStart
import demo.protos.Common.card_type
import demo.protos.Common.card_type.Cheng_Qing
import demo.protos.Common.card_type.Jie_Huo
import demo.protos.Common.card_type.Wu_Dao
import demo.protos.Common.card_type.Diao_Bao
import demo.protos.Common.card_type.Wei_Bi
import demo.protos.Common.card_type.Li_You
import demo.protos.Common.card_type.Yu_Qin_Gu_Zong
import demo.protos.Common.card_type.Feng_Yun_Bian_Huan
import demo.protos.Common.color
import demo.protos.Common.direction
"""

#: takes a message the client names out of the target's area, after canUse checked its colour
WIPE = HEAD + """
class Wipe(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Cheng_Qing

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        val target = args[0] as Player
        val pickedId = args[1] as Int
        if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) return false
        if (!target.alive) return false
        val picked = target.messageCards.find { it.id == pickedId }
        if (picked == null) return false
        if (!picked.COLOURTEST()) {
            logger.error("wrong colour")
            return false
        }
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val target = args[0] as Player
        val pickedId = args[1] as Int
        r.deleteCard(id)
        val gone = target.deleteMessageCard(pickedId)!!
        g.deck.discard(gone)
    }
}
"""

#: the deck's top card into the target's area, or into the user's hand when a three-of-a-colour test says so
BAIT = HEAD + """
class Bait(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Li_You

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        val target = args[0] as Player
        if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) return false
        if (!target.alive) return false
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val target = args[0] as Player
        r.deleteCard(id)
        val top = g.deck.draw(1)
        if (top.isNotEmpty()) {
            if (TESTED.checkThreeSameMessageCard(top)) {
                r.cards.addAll(top)
            } else {
                target.messageCards.addAll(top)
            }
        }
    }
}
"""

#: sends a message of the user's own area instead of a hand card, then draws
LOOSE = HEAD + """
class Loose(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Yu_Qin_Gu_Zong

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        if (r !== (g.fsm as? SendPhaseStart)?.whoseTurn) return false
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val fsm = g.fsm as SendPhaseStart
        val sent = args[0] as Card
        val dir = args[1] as direction
        val target = args[2] as Player
        val locks = args[3] as List<Player>
        r.deleteCard(id)
        r.deleteMessageCard(sent.id)
        r.draw(2)
        g.resolve(OnSendCard(fsm.whoseTurn, fsm.whoseTurn, sent, dir, target, locks, isMessageCardFaceUp = FACE))
    }
}
"""

#: the user names a card type from a list; the target hands over one of it when his hand holds one
DEMAND = HEAD + """
class Demand(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Wei_Bi

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        val target = args[0] as Player
        val wanted = args[1] as card_type
        if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) return false
        if (r === target) return false
        if (!namable.contains(wanted)) return false
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val target = args[0] as Player
        val wanted = args[1] as card_type
        r.deleteCard(id)
        if (holds(target, wanted)) {
            val c = target.cards.first { it.type == wanted }
            target.deleteCard(c.id)
            r.cards.add(c)
        }
    }

    private fun holds(p: Player, t: card_type): Boolean {
        for (c in p.cards) if (c.type == t) return true
        return false
    }

    companion object {
        val namable = listOf(LIST)
    }
}
"""

#: takes the target's hand (all of it, or KEEP random cards), then some players draw one each
SHARE = HEAD + """
class Share(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Feng_Yun_Bian_Huan

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        val target = args[0] as Player
        if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) return false
        if (!target.alive) return false
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val target = args[0] as Player
        r.deleteCard(id)
        val taken: List<Card>
        if (target.cards.size <= KEEP) {
            taken = target.cards.toList()
            target.cards.clear()
        } else {
            taken = List(KEEP) { target.deleteCard(target.cards.random().id)!! }
        }
        r.cards.addAll(taken)
        g.sortedFrom(listOf(WHO), r.location).forEach { it.draw(1) }
        val last = if (target.roleFaceUp) target else r
        last.draw(3)
    }
}
"""


def _cat(tmp_path, name: str, text: str):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    (d / "card" / f"{name}.kt").write_text(text, encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def _ops(card) -> list:
    return [op_key(o) for o in read_ops(card.do)]


def _changed(a, b, cid) -> list:
    return [(c.id, c.key) for c in rule_changes(a.catalogue, b.catalogue) if c.id == cid]


def test_a_colour_checked_in_can_use_holds_for_the_message_removed(tmp_path):
    black = _cat(tmp_path / "a", "Wipe", WIPE.replace("COLOURTEST", "isBlack"))
    pure = _cat(tmp_path / "b", "Wipe", WIPE.replace("COLOURTEST", "isPureBlack"))
    card = black.catalogue.cards["Cheng_Qing"]
    assert any(k.startswith("remove_message") and "colour=black" in k and "whose=target" in k for k in _ops(card))
    assert "unknown" not in E.to_text(card.requires)                 # the colour test is the op's, not unread
    assert any("colour=pure_black" in k for k in _ops(pure.catalogue.cards["Cheng_Qing"]))
    assert _changed(black, pure, "Cheng_Qing") == [("Cheng_Qing", "do")]


def test_a_card_into_an_area_or_a_hand_by_a_three_of_a_colour_test(tmp_path):
    same = _cat(tmp_path / "a", "Bait", BAIT.replace("TESTED", "target"))
    other = _cat(tmp_path / "b", "Bait", BAIT.replace("TESTED", "r"))
    ops = _ops(same.catalogue.cards["Li_You"])
    assert len(ops) == 1 and ops[0].startswith("put_message") and "three=to_hand" in ops[0] and "by=self" in ops[0] \
        and "from=deck_top" in ops[0] and "if=" not in ops[0]             # the deck never runs dry in the model
    # the user's own messages tested: not what `three` says — read as a branch, and the gate sees the difference
    assert not any("three=to_hand" in k for k in _ops(other.catalogue.cards["Li_You"]))
    assert _changed(same, other, "Li_You") == [("Li_You", "do")]


def test_a_message_sent_by_a_card(tmp_path):
    up = _cat(tmp_path / "a", "Loose", LOOSE.replace("FACE", "true"))
    down = _cat(tmp_path / "b", "Loose", LOOSE.replace("FACE", "false"))
    ops = _ops(up.catalogue.cards["Yu_Qin_Gu_Zong"])
    send = [k for k in ops if k.startswith("send_message")]
    assert send and "by=self" in send[0] and "from=message_area" in send[0] and "of=self" in send[0] \
        and "face=up" in send[0]
    assert not any(k.startswith("remove_message") for k in ops)       # said by send_message's `from`
    assert any("face=down" in k for k in _ops(down.catalogue.cards["Yu_Qin_Gu_Zong"]))
    assert up.reads[("card/Loose.kt", "Loose", "execute")] is True
    assert _changed(up, down, "Yu_Qin_Gu_Zong") == [("Yu_Qin_Gu_Zong", "do")]


def test_a_card_type_named_from_a_list_and_a_test_of_a_hand(tmp_path):
    four = _cat(tmp_path / "a", "Demand", DEMAND.replace("LIST", "Cheng_Qing, Jie_Huo, Diao_Bao, Wu_Dao"))
    three = _cat(tmp_path / "b", "Demand", DEMAND.replace("LIST", "Jie_Huo, Diao_Bao, Wu_Dao"))
    card = four.catalogue.cards["Wei_Bi"]
    assert E.to_text(card.requires).replace("(", "").replace(")", "") == "target != self"
    (choose,) = [o for o in card.do if o.op == "choose"]
    assert choose.args["who"] == "target" and choose.may                    # the holder's hand decides: open
    (take,) = [o for alt in choose.options for o in alt if o.op == "take"]
    assert list(take.args["card"]) == ["Cheng_Qing", "Jie_Huo", "Diao_Bao", "Wu_Dao"]
    assert [o.args.get("why") for o in card.do if o.op == "prose"] == ["hidden_card"]
    assert _changed(four, three, "Wei_Bi") == [("Wei_Bi", "do")]
    # the list is read whole: a change of it is a catalogue difference, not unread code
    assert four.reads[("card/Demand.kt", "Demand.Companion", "namable")] is True


def test_a_hand_taken_whole_or_in_part_and_players_listed(tmp_path):
    two = _cat(tmp_path / "a", "Share", SHARE.replace("KEEP", "2").replace("WHO", "r, target"))
    three = _cat(tmp_path / "b", "Share", SHARE.replace("KEEP", "3").replace("WHO", "r, target"))
    alone = _cat(tmp_path / "c", "Share", SHARE.replace("KEEP", "2").replace("WHO", "target"))
    ops = _ops(two.catalogue.cards["Feng_Yun_Bian_Huan"])
    assert ops[0] == "take from=target n=if target.hand_count <= 2 then target.hand_count else 2 to=self which=random"
    assert ops[1:3] == ["draw n=1 who=self", "draw n=1 who=target"]
    # a player the rule picks by a test it reads: a free `chosen`, pinned down by the test
    assert ops[3] == ("draw n=3 who=chosen if=(target.face_up and (chosen == target)) or (not target.face_up and "
                      "(chosen == self))")
    assert two.reads[("card/Share.kt", "Share", "execute")] is True
    assert _changed(two, three, "Feng_Yun_Bian_Huan") == [("Feng_Yun_Bian_Huan", "do")]
    assert _ops(alone.catalogue.cards["Feng_Yun_Bian_Huan"])[1:2] == ["draw n=1 who=target"]
    assert _changed(two, alone, "Feng_Yun_Bian_Huan") == [("Feng_Yun_Bian_Huan", "do")]
