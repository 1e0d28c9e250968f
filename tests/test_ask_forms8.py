"""The general readings the eighth designers' table (tests/fixtures/ask-designer8.toml) needed, each on questions of
its class: a clause opened by another named player is that player's, a pronoun for the player a given names, the card
a ``three = to_hand`` op puts into a hand (利诱), full-width letters, the passive target frame (X能被Y吗), a ban said as
an effect (让所有角色不能使用截获), 目标 as the player an effect is done to, and the cards of the send phase's start
(密令, 欲擒故纵) in the effect and target searches."""
from __future__ import annotations

import pytest

from askkit import assert_replays, cat, outcome, sess  # noqa: F401  (fixtures)


# ------------------------------------------------------------------------------------------ another player's clause
def test_a_clause_opened_by_another_named_player_is_his(cat, sess):
    """李宁玉使用误导后，SP李宁玉能发动诱导吗 answered yes (李宁玉's play read as SP李宁玉's own, no 李宁玉 at the table):
    the clause's claims and its conditions on the player are another player's — read as such, else refused."""
    q = sess.parse("王魁有两张黑色情报时，李宁玉能发动遗信吗")
    assert q.subject == "li_ning_yu" and [g.other for g in q.givens if g.kind == "where"] == [True]
    assert [g.other for g in sess.parse("李宁玉有两张黑色情报时，她能发动遗信吗").givens if g.kind == "where"] == [False]
    assert outcome(cat, sess, "李宁玉使用误导后，SP李宁玉能发动诱导吗")[0] == "no"
    assert outcome(cat, sess, "SP李宁玉使用误导后，她能发动诱导吗")[0] == "yes"
    assert outcome(cat, sess, "王魁面朝下时，李宁玉能使用截获吗")[0] == "refused"


def test_a_pronoun_stands_for_the_player_a_given_names(cat, sess):
    """火车司机传出情报后，他自己还能使用误导吗: 他 is the sender the given names (anyone before: 边云疆 played it)."""
    assert sess.parse("火车司机传出情报后，他自己还能使用误导吗").subject == "huo_che_si_ji"
    got, _, res = outcome(cat, sess, "火车司机传出情报后，他自己还能使用误导吗")
    assert got == "yes"                       # his skills invalid (调虎离山 on himself): 借车运货 does not fire
    seats = res.witness["trace"]["setup"]["seats"]
    assert seats[0]["character"] == "huo_che_si_ji"


# ------------------------------------------------------------------------------------------ 利诱: into the user's hand
def test_the_card_a_three_to_hand_op_puts_into_a_hand(cat, sess):
    """利诱能让使用者获得手牌吗 answered no (the data's put_message has no give / take): the card that would make three of
    a colour goes into the user's hand (card/LiYou.kt joinIntoHand) — an op done of its own, into_hand, in both twins."""
    from skillproof.model.effects import INTO_HAND
    from skillproof.model.interp.play import run as play_run
    from skillproof.model.interp.trace import Trace
    got, _, res = outcome(cat, sess, "利诱能让使用者获得手牌吗")
    assert got == "yes"
    assert_replays(cat, res)
    game = Trace.from_dict(res.witness["trace"])
    run = play_run(cat, game)
    assert any(e["op"] == INTO_HAND and e["seats"]["who"] == (0,) for es in run.done.values() for e in es)
    import gamekit as GK                      # the twin records the same op, under the same condition
    assert GK.done_disagreement(run, GK.pinned_verdict(cat, game)) is None
    assert outcome(cat, sess, "利诱能让别人获得手牌吗")[0] == "no"        # by = self: the user only
    assert outcome(cat, sess, "澄清能让使用者获得手牌吗")[0] == "no"


# ------------------------------------------------------------------------------------------ forms
@pytest.mark.parametrize("text, answer", [
    ("ＳＰ李宁玉使用误导后能发动诱导吗？", "yes"),                 # full-width letters
    ("当前回合角色能被平衡吗", "no"),                             # card/PingHeng.kt: target != the user
    ("强令能让所有角色本回合不能使用截获吗", "yes"),               # skill/QiangLing.kt: every player's CannotPlayCard
    ("禁闭能让别人本回合不能使用手牌吗", "yes"),                   # skill/JinBi.kt: forbidAllCard
    ("平衡的目标会摸三张牌吗", "yes"),                             # card/PingHeng.kt: target.draw(3)
    ("平衡会弃置目标的手牌吗", "yes"),
    ("利诱的目标会摸牌吗", "no"),
    ("平衡能让目标摸四张牌吗", "no"),
    ("当前回合角色能被密令指定吗", "no"),                         # card/MiLing.kt: r !== target, r the turn player
    ("欲擒故纵会让使用者摸两张牌吗", "yes"),                       # card/YuQinGuZong.kt: r.draw(2)
    ("欲擒故纵会让情报面朝上吗", "yes"),        # a wrong no: its message is sent face up (isMessageCardFaceUp = true)
    ("调包后的情报是面朝下的吗", "yes"),                           # card/DiaoBao.kt: isMessageCardFaceUp = false
    ("调包后的情报是面朝上的吗", "no"),
    ("破译能翻开纯黑色的情报吗", "yes"),     # card/PoYi.kt: shown when messageCard.isBlack()
    ("破译能翻开蓝色的情报吗", "yes"),       # a blue-black message is blue, and black
    ("破译能翻开纯红色的情报吗", "no"),  # 非黑牌不能翻开 (PoYi.kt:101): the effect's own condition refuses it (stop 45)
])
def test_the_forms_this_set_needed(cat, sess, text, answer):
    got, shown, res = outcome(cat, sess, text)
    assert got == answer, f"{text}: {got}\n{shown}"
    if got == "yes" and getattr(res, "bounds", {}).get("table"):
        assert_replays(cat, res)


def test_a_ban_said_of_a_rule_that_bans_nothing_is_refused(cat, sess):
    """视死能让别人不能使用截获吗: 视死 hands out nothing — refused at 让 (never a yes from the rewriting)."""
    assert outcome(cat, sess, "视死能让别人不能使用截获吗")[0] == "refused"


def test_fullwidth_letters_keep_their_columns(cat, sess):
    from skillproof.checks.ask.parser import FULLWIDTH_ALNUM
    text = "ＳＰ李宁玉能发动诱导吗"
    assert len(text.translate(FULLWIDTH_ALNUM)) == len(text) and text.translate(FULLWIDTH_ALNUM).startswith("SP")
    assert sess.parse(text).subject == "sp_li_ning_yu"


# ------------------------------------------------------------------------------------------ a character as the target
def test_a_character_as_the_target_and_a_use_on_oneself(cat, sess):
    """李宁玉能被利诱吗 was refused (a character is no target word): the character, seated, is the target.
    当前回合角色能成为禁闭的目标吗 answered yes with 王田香's 禁闭 on himself (no twin read a skill's ``requires`` in a
    game); both twins refuse that use now (tests/test_game_requires.py), so it and 王田香能被禁闭吗 are *no*, citing
    禁闭's rule — the server's answer (skill/JinBi.kt: 不能以自己为目标)."""
    got, _, res = outcome(cat, sess, "李宁玉能被利诱吗")
    assert got == "yes"
    game = res.witness["trace"]
    play = next(e for e in game["events"] if e.get("event") == "play" and e.get("card") == "Li_You")
    assert game["setup"]["seats"][play["target"]]["character"] == "li_ning_yu"
    assert outcome(cat, sess, "当前回合角色能成为禁闭的目标吗")[0] == "no"
    assert outcome(cat, sess, "王田香能被禁闭吗")[0] == "no"
    assert outcome(cat, sess, "别人能成为禁闭的目标吗")[0] == "yes"


def test_having_chosen_to_receive(cat, sess):
    """张一挺选择接收情报后能发动强令吗 was refused at 后 (选择接收 read as a claim): the message is in front of him."""
    assert outcome(cat, sess, "张一挺选择接收情报后能发动强令吗")[0] == "yes"
    assert outcome(cat, sess, "别人选择接收情报后，张一挺能发动强令吗")[0] == "refused"
