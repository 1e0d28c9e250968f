"""Readers of the gate's real side written at the tenth stop (issue 24; planted9 as the held-out sample they were
measured on): a trigger guard's test that the received message is still in the receiver's area
(``receiver.findMessageCard(event.messageCard.id) != null``) is the event's word ``message_in_area`` — so a guard read
whole, and a condition added beside it (the holder's face, 谨慎 on planted9) is a change the gate names, not code
left unread. Each on a small Kotlin server of our own (tests/fixtures/kotlin/server), never the game's code — a real
change is told apart, a quiet spelling of the same code is not."""
from __future__ import annotations

from skillproof.checks.diff_rules import rule_changes
from skillproof.model import expr as E
from skillproof.model.extract import extract

KEEP = """package demo.game.skill

import demo.game.*

class Duet : TriggeredSkill {
    override val skillId = SkillId.DUET
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        val event = g.findEvent<ReceiveCardEvent>(this) { event ->
GUARD
        } ?: return null
        askWhom.draw(1)
        return null
    }
}
"""


def _ex(tmp_path, sub: str, guard: str):
    from test_effects_read import _server as eff_server
    d = eff_server(tmp_path / sub)
    (d / "skill" / "Duet.kt").write_text(KEEP.replace("GUARD", guard), encoding="utf-8")
    ids = d / "skill" / "SkillId.kt"
    ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", 'DUET("和"),\n    ECHO(', 1), encoding="utf-8")
    roles = d / "skill" / "Roles.kt"
    roles.write_text(roles.read_text(encoding="utf-8").replace("Echo()", "Echo(), Duet()", 1), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def _when(ex) -> str:
    on = ex.catalogue.skills["Duet"].on[0]
    return E.to_text(on.when).replace("(", "").replace(")", "") if on.when is not None else ""


def _changed(a, b) -> list:
    return [(c.id, c.key) for c in rule_changes(a.catalogue, b.catalogue) if c.id == "Duet"]


BASE = ("            askWhom === event.inFrontOfWhom || return@findEvent false\n"
        "            event.messageCard.colors.size == 2 || return@findEvent false\n"
        "            askWhom.findMessageCard(event.messageCard.id) != null")


def test_the_message_still_in_the_receivers_area_is_read(tmp_path):
    """The asked player is the receiver (``whose = receiver``): his ``findMessageCard(event.messageCard.id) !=
    null`` is ``message_in_area``; ``== null`` its negation; the event's receiver named by its field reads the same."""
    assert _when(_ex(tmp_path, "a", BASE)) == "message_colours == 2 and message_in_area"
    neg = BASE.replace("!= null", "== null")
    assert _when(_ex(tmp_path, "b", neg)) == "message_colours == 2 and not message_in_area"
    field = BASE.replace("askWhom.findMessageCard", "event.inFrontOfWhom.findMessageCard")
    assert _when(_ex(tmp_path, "c", field)) == "message_colours == 2 and message_in_area"


def test_another_players_area_or_another_card_is_not_the_word(tmp_path):
    """The sender's area, or a card other than the event's message, is no ``message_in_area``: it stays unread."""
    sender = BASE.replace("askWhom.findMessageCard", "event.sender.findMessageCard")
    assert "message_in_area" not in _when(_ex(tmp_path, "a", sender))
    other = BASE.replace("event.messageCard.id) != null", "event.messageCard.id + 1) != null")
    assert "message_in_area" not in _when(_ex(tmp_path, "b", other))
    # the holder is the sender: his own area is not the receiver's
    senders = BASE.replace("askWhom === event.inFrontOfWhom", "askWhom === event.sender")
    assert "message_in_area" not in _when(_ex(tmp_path, "c", senders))


def test_a_face_test_added_to_the_guard_is_a_change_named(tmp_path):
    """谨慎 on planted9: ``… != null && !askWhom.roleFaceUp`` — with the area test read, both guards are read whole
    and the gate names the skill's ``on``; before, both read ``… and unknown`` and the change was only unread code.
    A quiet spelling (the test as an ``if … return`` line, operands swapped) changes nothing."""
    a = _ex(tmp_path, "a", BASE)
    b = _ex(tmp_path, "b", BASE + " && !askWhom.roleFaceUp")
    assert _when(b) == "message_colours == 2 and message_in_area and not face_up"
    assert _changed(a, b) == [("Duet", "on")]
    quiet = ("            askWhom === event.inFrontOfWhom || return@findEvent false\n"
             "            if (event.messageCard.colors.size != 2) return@findEvent false\n"
             "            null != askWhom.findMessageCard(event.messageCard.id)")
    c = _ex(tmp_path, "c", quiet)
    assert _changed(a, c) == []


# ------------------------------------------------------------------------------ where a card of a hand goes
TAKE = """package demo.game.card

import demo.game.*
import demo.protos.Common.card_type.Wei_Bi
import demo.protos.Common.color
import demo.protos.Common.direction

class Squeeze(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Wei_Bi

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean = true

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val target = args[0] as Player
        val card = target.cards.random()
        if (PICK) {
MOVE
        }
    }
}
"""


def _card(tmp_path, sub: str, move: str, pick: str = "g.isEarly(target)"):
    import shutil
    from test_extract_readers9 import SERVER
    d = tmp_path / sub / "server"
    shutil.copytree(SERVER, d)
    (d / "card" / "Squeeze.kt").write_text(TAKE.replace("MOVE", move).replace("PICK", pick), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def _ops(ex, cid="Wei_Bi") -> list:
    return [(o.op, dict((k, str(v)) for k, v in o.args.items() if k in ("from", "to", "who"))) for o in
            ex.catalogue.cards[cid].do if o.op != "prose"]


def test_a_card_of_a_hand_deleted_into_another_hand_is_a_take(tmp_path):
    """``r.cards.add(target.deleteCard(card.id)!!)``: the target's card goes to the user's hand (``take``), a third
    player's hand a ``give``; before, the deleted card was no value the walk knew ("a card goes into a hand")."""
    take = _card(tmp_path, "a", "            r.cards.add(target.deleteCard(card.id)!!)")
    assert _ops(take) == [("take", {"from": "target", "to": "self"})]
    disc = _card(tmp_path, "b", "            g.playerDiscardCard(target, card)")
    assert _ops(disc) == [("discard", {"who": "target"})]
    quiet = _card(tmp_path, "c", "            val gone = target.deleteCard(card.id)!!\n            r.cards.add(gone)")
    assert _ops(quiet) == _ops(take)


def test_the_kind_of_an_op_changed_under_the_same_unread_condition_is_named(tmp_path):
    """试探 on planted9: the card discarded → taken by the user, under a condition not read (``if`` holding
    ``unknown`` the same on both sides) — the gate names the card's ``do``; the same op under a condition whose unread
    part differs is not claimed."""
    disc = _card(tmp_path, "a", "            g.playerDiscardCard(target, card)")
    take = _card(tmp_path, "b", "            r.cards.add(target.deleteCard(card.id)!!)")
    assert any("unknown" in E.to_text(o.cond) for o in take.catalogue.cards["Wei_Bi"].do if o.cond is not None)
    assert [(c.id, c.key) for c in rule_changes(disc.catalogue, take.catalogue) if c.id == "Wei_Bi"] == \
        [("Wei_Bi", "do")]
    other = _card(tmp_path, "c", "            r.cards.add(target.deleteCard(card.id)!!)",
                  pick="g.isEarly(target) && g.isLate(r)")
    assert [(c.id, c.key) for c in rule_changes(take.catalogue, other.catalogue) if c.id == "Wei_Bi"] == []


def test_a_message_deleted_into_the_discard_pile_or_a_hand_is_where_it_goes(tmp_path):
    """对症下药 on planted9: ``g.deck.discard(target.deleteMessageCard(id)!!)`` is the target's message removed to the
    discard pile (before, a deleted card as ``discard``'s argument was read as nothing at all); ``r.cards.add(…)`` of
    the same card removes it into a hand — the gate names the rule's ``do``. The delete kept in a local first reads
    the same."""
    disc = _card(tmp_path, "a", "            g.deck.discard(target.deleteMessageCard(card.id)!!)")
    hand = _card(tmp_path, "b", "            r.cards.add(target.deleteMessageCard(card.id)!!)")
    quiet = _card(tmp_path, "c", "            val gone = target.deleteMessageCard(card.id)!!\n"
                                 "            g.deck.discard(gone)")

    def rm(ex):
        return [(o.op, str(o.args.get("whose")), str(o.args.get("to", ""))) for o in ex.catalogue.cards["Wei_Bi"].do
                if o.op == "remove_message"]
    assert rm(disc) and rm(disc)[0][:2] == ("remove_message", "target") and rm(disc)[0][2] != "hand"
    assert rm(hand) == [("remove_message", "target", "hand")]
    assert [(c.id, c.key) for c in rule_changes(disc.catalogue, hand.catalogue) if c.id == "Wei_Bi"] == \
        [("Wei_Bi", "do")]
    assert rm(quiet) == rm(disc)


# ------------------------------------------------------------------------------ a refusal spelled as one return
def test_a_refusal_returning_the_error_message_is_a_refusal(tmp_path):
    """``if (c) return r.sendErrorMessage("…")`` in a handler returning nothing is the same refusal as ``if (c) {
    r.sendErrorMessage("…"); return }`` (planted9's new send checks: 诱敌深入's two-colour card sent Up, the send and
    receive handlers): added, the handler's ``refuse.*`` rule changes; the block spelling of it reads the same."""
    from test_extract_readers5 import _handler, _named, _pair, _quiet
    rel, name = "skill/Courier.kt", "refuse.Courier.executeProtocol"
    base = _handler()
    anchor = "        r.draw(1)\n"
    short = base.replace(anchor, "        if (message.cardDir == Up && card.colors.size > 1) return r.sendErrorMessage("
                                 "\"no\")\n" + anchor)
    block = base.replace(anchor, "        if (message.cardDir == Up && card.colors.size > 1) {\n"
                                 "            r.sendErrorMessage(\"no\")\n            return\n        }\n" + anchor)
    ra, rb, same = _pair(tmp_path / "x", rel, base, short, name)
    assert _named(ra, rb, same)
    assert any("refuse if message.cardDir == Up" in c for c in rb.value)
    assert _quiet(*_pair(tmp_path / "y", rel, block, short, name))


USE_TOS = """package demo.game.handler

import demo.game.*

class UseSwitchTos : AbstractProtoHandler<Any>() {
    override fun handle0(r: HumanPlayer, pb: Any) {
        val card = r.findCard(pb.cardId) ?: return r.sendErrorMessage("no such card")
        if (pb.cardDir == Up) return r.sendErrorMessage("not up")
        card.execute(r.game!!, r)
    }
}
"""


def test_a_card_use_handlers_refusal_is_about_the_card(tmp_path):
    """``Use<CardClass>Tos.handle0`` takes the request to use that card: its refusals are about the card (欲擒故纵's
    sent message barred from going Up, planted9, now names 欲擒故纵); a handler of no card's name is about nothing."""
    from test_extract_readers5 import _ex as ex5
    from test_extract_readers9 import CARD
    card = CARD.replace("GUARD", "")
    ex = ex5(tmp_path / "a", {"card/Switch.kt": card, "handler/UseSwitchTos.kt": USE_TOS})
    rule = ex.engine["refuse.UseSwitchTos.handle0"]
    assert rule.about == ("Diao_Bao",) and "refuse if pb.cardDir == Up" in rule.value
    other = ex5(tmp_path / "b", {"card/Switch.kt": card,
                                 "handler/UseOtherTos.kt": USE_TOS.replace("UseSwitchTos", "UseOtherTos")})
    assert other.engine["refuse.UseOtherTos.handle0"].about == ()
