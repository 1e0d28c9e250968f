"""A third set of designers' questions, written fresh in a designer's Chinese and asked as written: the table
``tests/fixtures/ask-designer3.toml`` (each with the server's answer, read from its code), then the general readings
this set needed — trigger-timing phrasings (发动时机, 发动条件, 什么时候可以发动), a pure-colour message received
(纯黑色情报), a message received by its own sender (被自己接收后), the sender, the receiver and the dead player as an
effect's player (传出者, 接收者, 死亡角色), a hand card's colour before the verb (把黑色手牌放入…), a card's target face down
or with no message, the player a triggered skill picks asked as a target (惊梦能指定自己吗), a once-a-game conversion used
again (译文暗号能再次使用吗), and 暗藏杀机's other party read as the server does (herself when she receives her own message)."""
from __future__ import annotations

import pytest

from skillproof.checks import ask as Q
from skillproof.checks.ask import table as T

from askkit import answered_as_expected, assert_a_fresh_table, assert_replays, cat, outcome, questions, sess  # noqa: F401  (fixtures)

QUESTIONS = questions("ask-designer3.toml")
OTHER_TABLES = ["ask-triggers.toml", "ask-effects.toml", "ask-targets.toml", "ask-designer2.toml"]
#: the open questions of an earlier table this one carries over (answered since this set's fixes)
CARRIED = {"承志能拿走死亡角色的手牌吗？"}


def test_the_table_holds_forty_new_questions():
    assert len(QUESTIONS) == 40
    assert_a_fresh_table(QUESTIONS, OTHER_TABLES, CARRIED)


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["ask"] for q in QUESTIONS])
def test_each_question_is_answered_as_the_server_plays(cat, sess, q):
    got, res = answered_as_expected(cat, sess, q)
    if got == "yes" and getattr(res, "bounds", {}).get("table"):     # a game: the interpreter replays it
        assert_replays(cat, res)


def test_a_pure_colour_message_is_one_colour_and_no_other(sess):
    q = sess.parse("金生火接收纯黑色情报后能发动谨慎吗？")
    said = {g.text for g in q.givens} | {str(g.claim.value) for g in q.givens if g.kind == "where"}
    text = " ".join(sorted(said))
    assert "black" in text and "red" in text and "blue" in text


def test_the_tables_players_as_an_effects_player(cat, sess):
    """传出者 / 接收者 / 死亡角色 after an effect verb name the template's sender, receiver and dead player."""
    for text, who in (("以牙还牙能把手牌放入传出者的情报区吗？", "sender"), ("绵里藏针能让接收者摸牌吗？", "receiver"),
                      ("承志能拿走死亡角色的手牌吗？", "dead")):
        a = Q.atoms_of(sess.parse(text).claim)[0]
        assert a.kind == "effect" and a.value.who == who, text
    # 让别人死 still reads 死 as the verb (refused: two readings), not as a dead player
    got, text, _ = outcome(cat, sess, "利诱能让别人死吗？")
    assert got == "refused" and "两种读法" in text


def test_a_hand_cards_colour_narrows_the_ops(cat, sess):
    """暗藏杀机 puts a pure black card: a red hand card never goes (no from the data); a card holding black does."""
    got, text, _ = outcome(cat, sess, "暗藏杀机能把红色手牌放入别人的情报区吗？")
    assert got == "no" and "cp_han_mei.toml" in text
    got, _, res = outcome(cat, sess, "暗藏杀机能把黑色手牌放入别人的情报区吗？")
    assert got == "yes"
    assert_replays(cat, res)


def test_the_player_a_triggered_skill_picks(cat):
    """惊梦's ops name ``chosen``; 以牙还牙's choose tells its alternatives apart by the area it puts into; 视死 picks
    nobody (its draw is its holder's)."""
    assert T.chosen_args(cat, "JingMeng") == {"show": "who", "discard": "who"}
    assert T.chosen_args(cat, "YiYaHuanYa") == {"put_message": "to"}
    assert T.chosen_args(cat, "ShiSi") == {}


def test_a_face_down_target_is_a_hidden_character(cat, sess):
    got, _, res = outcome(cat, sess, "试探能对面朝下的角色使用吗？")
    assert got == "yes"
    setup = res.witness["trace"]["setup"]["seats"]
    hidden = [s["character"] for s in setup if cat.characters[s["character"]].hidden]
    assert hidden


def test_a_conversion_once_a_game_is_not_used_again_and_one_without_a_limit_is(cat, sess):
    res = sess.ask("译文暗号能再次使用吗？")
    assert res.answer == "no" and any(r["file"].endswith("chen_an_na.toml") for b in res.because for r in b["rules"])
    assert sess.ask("应变能再次使用吗？").answer == "yes"          # no limit: asked of the solver


def test_an_cang_sha_jis_other_party_is_herself_when_she_receives_her_own_message(cat, sess):
    """Server AnCangShaJi.execute: the other party is the receiver when she sent the message — herself when the
    message comes back to her; the game puts her pure black card into her own area."""
    got, _, res = outcome(cat, sess, "暗藏杀机能把纯黑色手牌放入自己的情报区吗？")
    assert got == "yes"
    assert_replays(cat, res)
    setup = res.witness["trace"]["setup"]["seats"]
    assert setup[0]["character"] == "cp_han_mei"


def test_a_sender_needs_a_card_to_send(cat, sess):
    """Server phase/SendPhaseStart.kt: a sender with no hand card loses instead of sending — unless a live skill sends
    from elsewhere (冷血训练 sends from the deck's top): both twins (evaluate.has_card_to_send, compile.can_send) and
    the interpreter's send question say so."""
    res = sess.ask("老鳖没有手牌时能传出情报吗？")
    assert res.answer == "no"
    assert sess.ask("SP韩梅没有手牌时能传出情报吗？").answer == "yes"
    assert sess.ask("老鳖能传出情报吗？").answer == "yes"


def test_a_message_taken_is_a_message_out_of_an_area_into_the_hand(cat, sess):
    """拿走别人的情报: a message of another's area into the taker's hand (壮志满怀), not a hand card; a two-colour
    message is of both colours (拿走别人的红色情报: a red-black one is black too)."""
    a = Q.atoms_of(sess.parse("壮志满怀能拿走别人的情报吗？").claim)[0]
    assert a.value.ops == ("remove_message",) and a.value.place == "hand" and a.value.who == "other"
    assert sess.ask("壮志满怀能拿走别人的红色情报吗？").answer == "yes"
    assert sess.ask("承志能拿走别人的手牌吗？").answer == "yes"          # a hand card still: take
    assert sess.ask("视死能拿走别人的情报吗？").answer == "no"
