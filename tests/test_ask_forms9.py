"""Readings the ninth designers' table (tests/fixtures/ask-designer9.toml) needed, each tested on a question of its
class that the table does not ask: two players in one receive clause (X传出的情报被Y接收后，Y能发动…) — the receiver named
and then asked about, the sender seated at the table and sending in its own turn."""
from __future__ import annotations

from askkit import cat, outcome, sess  # noqa: F401  (fixtures)


def test_a_named_receiver_asked_about_is_the_player_the_message_is_in_front_of(cat, sess):
    # 知音 (程小蝶): she receives a red or blue message; 白菲菲 sends it — read before: refused at '后'
    got, text, _ = outcome(cat, sess, "白菲菲传出的蓝色情报被程小蝶接收后，程小蝶能发动知音吗")
    assert got == "yes", text
    assert "白菲菲" in text.split("在游戏中如何发生")[0]          # the sender is at the table


def test_a_named_receiver_is_seated_and_receives_when_another_is_asked(cat, sess):
    # 绵里藏针 (邵秀, the sender) with 王魁 receiving: was refused at '后'
    got, text, res = outcome(cat, sess, "邵秀传出的蓝色情报被王魁接收后，邵秀能发动绵里藏针吗")
    assert got == "yes", text
    table = text.split("在游戏中如何发生")[0]
    assert any("王魁" in line and "情报在其面前" in line for line in table.splitlines()), text
    # 以牙还牙 answers its holder's own receiving only (YiYaHuanYa.kt:25): 王魁 is not the receiver named
    got, text, _ = outcome(cat, sess, "白菲菲传出的黑色情报被程小蝶接收后，王魁能发动以牙还牙吗")
    assert got == "no", text


def test_another_character_sending_is_seated_and_sends_in_its_turn(cat, sess):
    # was unknown: the sender named was never seated
    got, text, _ = outcome(cat, sess, "邵秀传出情报后，王魁能发动以牙还牙吗")
    assert got == "yes", text
    assert "邵秀" in text


def test_spoken_forms_read_as_the_question_language(cat, sess):
    # 挂了 (died), 手里没牌 (no hand cards) and a closing 不: 遗信 needs a hand (YiXin.kt:25) — was refused at '手里'
    got, text, _ = outcome(cat, sess, "李宁玉手里没牌，挂了还能发动遗信不")
    assert got == "no", text


def test_a_skill_right_after_neng_is_fired(cat, sess):
    # 发动 left out: 还能承志吗 — was refused (说出承志要做什么)
    got, text, _ = outcome(cat, sess, "有人死亡时，顾小梦还能承志吗")
    assert got == "yes", text


def test_a_name_in_spaced_pinyin_syllables_is_one_word(cat, sess):
    # Chen Anna / Yi Wen An Hao: was refused at 'Chen'
    got, text, _ = outcome(cat, sess, "Can Chen Anna hold Yi Wen An Hao?")
    assert got == "yes", text
