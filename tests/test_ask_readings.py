"""No wrong readings (issue 25): each decision is asked of whoever takes it in the server, an ambiguous question
says which reading it took and what the other gives, a decision never taken under the givens is a proof (not
an *unknown*), and an explanation gives the real reason."""
from __future__ import annotations

import pytest

from skillproof.checks import ask as Q
from skillproof.model import loader

from test_ask import holds_in_interpreter


@pytest.fixture(scope="module")
def sess():
    return Q.Session(loader.load(None))


def test_the_target_of_miling_sends_by_her_own_rules(sess):
    """card/MiLing.kt ExecuteMiLing has the target send through her own canSendCard, and skill/LengXueXunLian.kt
    accepts 冷血训练 from 密令's target: SP韩梅 sends up locking one in another player's turn."""
    res = sess.ask("can SP韩梅 send up locking 1 under 冷血训练 in another player's turn?")
    assert res.answer == "yes", res.headline
    holds_in_interpreter(sess.cat, res)
    st = res.witness["state"]
    assert st["turn"] != 0 and st["turn_sender"] == 0
    # and in Chinese, as a designer writes it
    zh = sess.ask("在别人的回合，SP韩梅发动冷血训练后能否向上传出并锁定1人？")
    assert zh.answer == "yes"
    holds_in_interpreter(sess.cat, zh)


def test_which_send_rule_in_another_players_turn(sess):
    res = sess.ask("which send rule for direction for 老鳖 in another player's turn")
    assert res.answer == "yes"
    assert "LianLuo" in [v["value"] for v in res.values]


def test_a_decision_never_taken_under_the_givens_is_a_proof(sess):
    """The draw count is read in the draw phase of the turn player: in another player's turn there is no
    such moment — a 'no' whose reasons name that moment, not an unknown."""
    res = sess.ask("which draw count for 老鳖 in another player's turn")
    assert res.answer == "no"
    says = " ".join(b["says"] for b in res.because)
    assert "draw phase" in says and "another player's turn" in says


def test_play_x_says_which_reading_it_took(sess):
    """借车运货 bans 误导 (declared) for everyone; the 误导 card itself still reaches play as another card."""
    res = sess.ask("can 王响 play 误导 under 借车运货")
    assert res.answer == "no"
    assert res.reading == {"took": "declared", "other": "physical", "other_query": ["play 误导 as ?"],
                           "other_answer": "yes", "same": False}
    assert "the physical 误导 card: yes" in res.headline
    assert sess.ask("can 王响 play 误导 as ? under 借车运货").answer == "yes"
    assert sess.ask("can 王响 get a 误导 into play under 借车运货").answer == "yes"
    assert sess.ask("can 王响 play 截获 as 误导").reading is None       # not ambiguous


def test_guizha_is_explained_by_its_window(sess):
    """诡诈 acts as 威逼 / 利诱 without a card and ignores bans, but only in 出牌阶段: the explanation says so, and
    does not blame a ban it ignores."""
    res = sess.ask("can 肥原龙川 resolve 利诱 in the fight phase")
    assert res.answer == "no"
    told = [t for t in res.illustration_traces if t.question.get("decision") == "resolves"]
    assert told, res.illustration_traces
    text = " ".join(s.text for s in told[0].steps) + " " + told[0].conclusion
    assert "main phase" in text and "it is banned" not in text
    res = sess.ask("can 肥原龙川 resolve 威逼 under 强令's ban on 威逼")
    assert res.answer == "no"
    told = [t for t in res.illustration_traces if t.question.get("decision") == "resolves"]
    assert "it is banned" not in told[0].conclusion and "main phase" in told[0].conclusion


def test_skipped_after_houlairen_agrees_with_the_interpreter(sess):
    res = sess.ask("can anyone be skipped in 濒死求澄清 after 后来人 when not holding cards and not invalidated")
    assert res.answer == "yes", (res.headline, res.reason)
    holds_in_interpreter(sess.cat, res)
