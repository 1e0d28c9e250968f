"""The readings the thirteenth designers' table needed (tests/fixtures/ask-designer13.toml), each tested on questions
of its class that the table does not ask: a spoken form is answered as the question language's own form of it —
the same answer, never refused — and the plain reading it stands for is the one asked."""
from __future__ import annotations

import pytest

from askkit import cat, outcome, sess  # noqa: F401  (fixtures)
from skillproof.checks.ask import lexer
from skillproof.checks.ask.targets import player_word

# (as a designer says it, the question language's own form)
SAME = [
    # 发 / 打 for 发动 / 使用
    ("李醒面朝上时能发搜缉吗", "李醒面朝上时能发动搜缉吗"),
    ("被禁闭的角色本回合还能打截获吗", "被禁闭的角色本回合还能使用截获吗"),
    # the target said before the modal; a target with a leading 一个 / 已经, or in speech
    ("白昆山对没有手牌的角色能发动毒计吗", "白昆山能对没有手牌的角色发动毒计吗"),
    ("能对已经死掉的人使用利诱吗", "能对死亡角色使用利诱吗"),
    ("威逼能对一个没手牌的人使用吗", "威逼能对没有手牌的人使用吗"),
    # a skill's name as the verb after a modal, its object as the target; 两回 for 两次
    ("肥原龙川能诡诈自己吗", "肥原龙川能对自己发动诡诈吗"),
    ("能试探自己吗", "能对自己使用试探吗"),
    ("别人的回合能截获吗", "别人的回合能使用截获吗"),
    ("裴玲一回合能交际两次吗", "裴玲一回合能发动交际两次吗"),
    ("秦无命一回合能发动两回拼命三郎吗", "秦无命一回合能发动两次拼命三郎吗"),
    # a flip said with 把; the face of the message a skill sends
    ("就计会把李宁玉翻开吗", "就计会让李宁玉翻开吗"),
    ("冷血训练传的情报是面朝上吗", "冷血训练会让情报面朝上吗"),
    # the message in front of another player; 自己 stressing who acts; a count without its modal
    ("情报在别人面前时能使用破译吗", "情报不在自己面前时能使用破译吗"),
    ("哑炮自己对别人使用试探时，守口如瓶会发动吗", "哑炮对别人使用试探时，守口如瓶会发动吗"),
    ("小九发动广发报摸几张牌", "小九发动广发报能摸几张牌"),
    # 角色牌正面朝上; a window said without 在 / 的
    ("白昆山角色牌正面朝上时能发动毒计吗", "白昆山面朝上时能发动毒计吗"),
    ("老虎自己出牌阶段能用运筹帷幄吗", "老虎在自己的出牌阶段能用运筹帷幄吗"),
    ("高桥智子一个出牌阶段能发动两次惑心吗", "高桥智子在出牌阶段能发动两次惑心吗"),
]


@pytest.mark.parametrize("spoken,plain", SAME, ids=[s for s, _ in SAME])
def test_a_spoken_form_is_answered_as_its_plain_form(cat, sess, spoken, plain):
    got, text, _ = outcome(cat, sess, spoken)
    want, wtext, _ = outcome(cat, sess, plain)
    assert want != "refused", f"{plain}: {wtext}"
    assert got == want, f"{spoken}: {got}, {plain}: {want}\n{text}"


def test_an_english_window_may_say_during(cat, sess):
    got, text, _ = outcome(cat, sess, "can 老虎 use 运筹帷幄 during another player's main phase?")
    want, _, _ = outcome(cat, sess, "can 老虎 use 运筹帷幄 in another player's main phase?")
    assert got == want == "no", text


def test_forms_that_name_no_skill_are_left_as_they_are(sess):
    """Each rewrite reads a skill's or character's name where it rewrites: a word that is none stays as written."""
    for text in ("张三自己对别人使用试探吗", "苹果会把老虎翻开吗", "香蕉传出的情报会面朝上吗", "能对别人香蕉吗"):
        assert lexer.designer_forms(text, sess.names) == text


def test_a_name_where_no_name_may_stand_is_not_said_to_be_unknown(cat, sess):
    """A character named where the question expects a verb is refused, but not as 'unknown word X — did you mean X'."""
    got, text, _ = outcome(cat, sess, "Does 守口如瓶 fire when 哑炮 is the target of 利诱?")
    assert got == "refused"
    assert "未知的词" not in text and "哑炮" in text


def test_player_words_said_in_speech():
    assert player_word("已经死掉的人") == "dead"
    assert player_word("一个没手牌的人") == "no_hand"
    assert player_word("手里没牌的人") == "no_hand"
    assert player_word("一个香蕉") is None
