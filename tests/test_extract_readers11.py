"""Readers of the gate's real side written at the eleventh stop (issue 24; measured on the seeded rule mutations of
benchmarks/rule_mutations.py): where a mutant of rule code passed the gate silently, the reader had read the construct
"whole" while skipping the changed part. A construct that holds code the reader does not translate is partly read, so
the gate names a change there (UNR001, file:line and method) instead of passing it. Each on a small Kotlin server of
our own (tests/fixtures/kotlin/server plus the skill below), never the game's code — a real change is told apart (a
catalogue difference, or the construct not read whole), a quiet spelling of the same code is not."""
from __future__ import annotations

from skillproof.model.extract import extract

GIFT = """package demo.game.skill

import demo.game.*

class Gift : MainPhaseSkill() {
    override val skillId = SkillId.GIFT
    override val isInitialSkill = true

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        if (r.getSkillUseCount(skillId) > 0) {
            r.sendErrorMessage("once a turn")
            return
        }
        r.addSkillUseCount(skillId)
        g.resolve(ExecuteGift(g.fsm!!, r))
    }

    private data class ExecuteGift(val fsm: Fsm, val r: Player) : WaitingFsm {
        override fun resolve(): Any? {
            return null
        }

        override fun resolveProtocol(player: Player, message: Any): Any? {
            if (player !== r) return null
            val g = r.game!!
            if (message.cardId == 0) {
                r.incrSeq()
                return ResolveResult(fsm, true)
            }
            if (message.targetPlayerId == 0) {
                player.sendErrorMessage("not yourself")
                return null
            }
            val target = g.players[r.getAbstractLocation(message.targetPlayerId)]!!
            if (!target.alive) return null
            val card = r.findCard(message.cardId)
            if (card == null) return null
            r.incrSeq()
BODY
            return ResolveResult(fsm, true)
        }
    }
}
"""
GIVE = "            r.deleteCard(card.id)\n            target.cards.add(card)"
HANDLER = ("skill/Gift.kt", "Gift.ExecuteGift", "resolveProtocol")


def _ex(tmp_path, sub: str, body: str = GIVE, old: str = "", new: str = ""):
    from test_effects_read import _server as eff_server
    d = eff_server(tmp_path / sub)
    text = GIFT.replace("BODY", body)
    if old:
        assert text.count(old) == 1
        text = text.replace(old, new)
    (d / "skill" / "Gift.kt").write_text(text, encoding="utf-8")
    ids = d / "skill" / "SkillId.kt"
    ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", 'GIFT("赠"),\n    ECHO(', 1), encoding="utf-8")
    roles = d / "skill" / "Roles.kt"
    roles.write_text(roles.read_text(encoding="utf-8").replace("Echo()", "Echo(), Gift()", 1), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def _do(ex) -> list:
    return [(o.op, dict(o.args)) for o in ex.catalogue.skills["Gift"].do]


def test_a_card_taken_out_of_another_hand_than_it_was_found_in_is_not_read_whole(tmp_path):
    """``r.findCard`` then ``target.deleteCard(card.id)``: the give op says the card comes from ``r`` (where it was
    found), so the removal from ``target``'s hand (a copy made: the rule changed) is not read — the handler is partly
    read and a change there is named. The card taken out of the hand it was found in, or the taking written through
    the card's own id, reads whole."""
    base = _ex(tmp_path, "a")
    assert _do(base) == [("give", {"from": "self", "to": "target", "n": 1, "which": "choose"})]
    assert base.reads[HANDLER] is True
    swapped = _ex(tmp_path, "b", GIVE.replace("r.deleteCard", "target.deleteCard"))
    assert swapped.reads[HANDLER] is False
    # a quiet spelling: the card taken through a local holding its id
    local = _ex(tmp_path, "c", "            val id = card.id\n            r.deleteCard(id)\n            target.cards.add(card)")
    assert _do(local) == _do(base) and local.reads[HANDLER] is True


def test_the_answer_tested_against_a_number_is_not_read_whole(tmp_path):
    """``if (message.cardId == 1) return ResolveResult(…)``: which answer declines (or how many cards it must name)
    is a number the catalogue has no word for — the handler is partly read, so the change is named. The protocol's
    "none" (``== 0``) is the decline the reader knows; a refusal of an out-of-range target (``< 0``) says nothing
    more."""
    assert _ex(tmp_path, "a").reads[HANDLER] is True
    one = _ex(tmp_path, "b", old="message.cardId == 0", new="message.cardId == 1")
    assert one.reads[HANDLER] is False
    count = _ex(tmp_path, "c", old="message.targetPlayerId == 0)", new="message.targetPlayerId == 0 || "
                "message.cardIdsCount != 2)")
    assert count.reads[HANDLER] is False
    rng = _ex(tmp_path, "d", old="message.targetPlayerId == 0)", new="message.targetPlayerId <= 0)")
    assert rng.reads[HANDLER] is True


def test_a_card_put_into_a_hand_while_still_in_the_one_it_was_found_in_is_not_read_whole(tmp_path):
    """The removal dropped (``target.cards.add(card)`` with no ``r.deleteCard``): the card is copied, not given —
    the give op read says it moved, so the handler is partly read. Cards found one by one and taken out as a list
    (``r.cards.removeAll(cards)``) read whole, as before."""
    dropped = _ex(tmp_path, "a", "            target.cards.add(card)")
    assert dropped.reads[HANDLER] is False
    listed = _ex(tmp_path, "b", "            val cards = listOf(card)\n            r.cards.removeAll(cards.toSet())\n"
                 "            target.cards.addAll(cards)")
    assert listed.reads[HANDLER] is True
    # a card drawn at random from the target's hand and taken, with and without its removal
    rnd = "            val c = target.cards.random()\n            target.deleteCard(c.id)\n            r.cards.add(c)"
    assert _ex(tmp_path, "c", rnd).reads[HANDLER] is True
    assert _ex(tmp_path, "d", rnd.replace("            target.deleteCard(c.id)\n", "")).reads[HANDLER] is False


def test_the_answer_tested_against_a_constant_is_not_read_whole(tmp_path):
    """``if (message.color != Black && message.color != Red) return null``: which colours the answer may name is not
    in the catalogue (dropping Red from the test bars it) — partly read. A test of who answers reads as before."""
    colours = _ex(tmp_path, "a", old="message.targetPlayerId == 0)", new="message.color != Black && "
                  "message.color != Red)")
    assert colours.reads[HANDLER] is False
    who = _ex(tmp_path, "b", old="if (player !== r) return null", new="if (r !== player) return null")
    assert who.reads[HANDLER] is True


def test_the_expected_answer_refused_is_not_read_whole(tmp_path):
    """A handler's check turned round — the asked player refused (``player === r``), the check negated whole — refuses
    the very answer the state waits for: the catalogue has no word for it, so the handler is partly read."""
    same = _ex(tmp_path, "a", old="if (player !== r) return null", new="if (player === r) return null")
    assert same.reads[HANDLER] is False
    neg = _ex(tmp_path, "b", old="if (player !== r) return null", new="if (!(player !== r)) return null")
    assert neg.reads[HANDLER] is False
    # a refusal of a card the answer does not name (`card == null`) reads as before
    assert _ex(tmp_path, "c").reads[HANDLER] is True


def test_the_answer_tested_against_a_value_of_the_rule_is_not_read_whole(tmp_path):
    """``val need = …; if (message.cardIdsCount > need) return null``: how many cards the answer may name comes from
    a value the rule computed and the catalogue does not hold — partly read, so a change of that value is named."""
    need = _ex(tmp_path, "a", old="            val card = r.findCard(message.cardId)\n",
               new="            val need = r.messageCards.count(Black)\n"
                   "            if (message.cardIdsCount > need) return null\n"
                   "            val card = r.findCard(message.cardId)\n")
    assert need.reads[HANDLER] is False
