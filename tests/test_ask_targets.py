"""Designers' questions of whom a card or a skill may be used on (issues 22/23, issue 23 item 5): the table
``tests/fixtures/ask-targets.toml`` (each with the server's answer, read from its code), then what the answers rest on
— a ``target`` atom (checks/ask/targets.py) asked of games in which both twins check the play's target
(model/interp/game.py target_errors, checks/enc/game.py target_ok), a *no* the catalogue's target data decides alone,
and a located refusal of a target phrase that is no player word."""
from __future__ import annotations

from pathlib import Path

import pytest

from skillproof.checks import ask as Q
from skillproof.cli import main
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.trace import Trace

from askkit import FIXTURES, answered_as_expected, assert_replays, cat, outcome, questions, sess  # noqa: F401  (fixtures)

TABLE = FIXTURES / "ask-targets.toml"
QUESTIONS = questions("ask-targets.toml")


def test_the_table_holds_real_questions():
    assert len(QUESTIONS) >= 15
    assert len({q["ask"] for q in QUESTIONS}) == len(QUESTIONS)
    assert {q["expect"] for q in QUESTIONS} >= {"yes", "no"}
    for q in QUESTIONS:
        assert set(q) >= {"ask", "expect", "cites", "server", "source"}, q["ask"]
        assert ".kt" in q["server"], q["ask"]          # every answer read from the server's code


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["ask"] for q in QUESTIONS])
def test_each_question_is_answered_as_the_server_plays(cat, sess, q):
    got, res = answered_as_expected(cat, sess, q)
    if got == "yes" and res.witness and "trace" in res.witness:      # a game: the interpreter replays it
        assert_replays(cat, res)


def test_a_target_question_is_a_target_atom(cat, sess):
    q = sess.parse("试探能对自己使用吗？")
    a = Q.atoms_of(q.claim)[0]
    assert (a.kind, a.rule, a.value) == ("target", "Shi_Tan", "self")
    b = Q.atoms_of(sess.parse("能对没有手牌的人使用平衡吗？").claim)[0]
    assert (b.kind, b.rule, b.value) == ("target", "Ping_Heng", "no_hand")
    c = Q.atoms_of(sess.parse("can 威逼 be used on a player with no hand cards?").claim)[0]
    assert (c.kind, c.rule, c.value) == ("target", "Wei_Bi", "no_hand")
    d = sess.parse("濒死时澄清能对没有濒死的人使用吗？")
    assert [g.window for g in d.givens if g.kind == "window"] == ["dying"]
    e = Q.atoms_of(sess.parse("误导能把情报转移给传出者吗").claim)[0]   # the message moved: an effect of 误导
    assert e.kind == "effect" and e.value.ops == ("move_message",) and e.value.who == "sender"


def test_the_game_plays_the_card_on_the_target_asked(cat, sess):
    """调虎离山可以指定自己吗: the game found plays 调虎离山 with its user (seat 0) as the target, and the interpreter
    accepts it; 试探能对别人使用吗: on another seat."""
    for text, pick_seat in (("调虎离山可以指定自己吗", lambda t: t == 0), ("试探能对别人使用吗？", lambda t: t != 0)):
        res = sess.ask(text)
        assert res.answer == "yes"
        game = Trace.from_dict(res.witness["trace"])
        plays = [e for e in game.events if e.kind == "play" and e.seat == 0]
        assert plays and pick_seat(plays[-1].target), (text, plays)
        assert play_run(cat, game).errors == []


def test_the_dying_window_refuses_another_target_by_the_rules(cat, sess):
    """濒死时 澄清 only on the dying player (ChengQing.kt:50): the no comes from the games' rules (the target's
    condition), not the bound — and without the window, in 出牌阶段, anyone with a black message will do."""
    got, text, res = outcome(cat, sess, "濒死时澄清能对没有濒死的人使用吗？")
    assert got == "no" and "不是界限" in text and "目标不满足条件" in text
    assert outcome(cat, sess, "出牌阶段澄清能对没有濒死的人使用吗？")[0] == "yes"


def test_a_no_from_the_data_cites_the_catalogue(cat, sess):
    got, text, _ = outcome(cat, sess, "能对死亡角色使用利诱吗")
    assert got == "no" and "cards.toml" in text and "存活" in text
    got, text, _ = outcome(cat, sess, "借刀杀人能对没有手牌的人使用吗？")     # its requires: target.hand_count > 0
    assert got == "no" and "target.hand_count > 0" in text and "shang_yu.toml" in text


def test_an_unreadable_target_is_refused_at_the_phrase(capsys):
    """A target frame whose player phrase is no player word: exit 2, one located line naming the phrase and the
    words a target may be written with — no traceback."""
    text = "试探能对穿红衣服的人使用吗？"
    assert main(["ask", "--lang", "zh", text]) == 2
    err = capsys.readouterr().err
    col = text.index("穿红衣服的人") + 1
    assert f"query:1:{col}:" in err and "穿红衣服的人" in err and "自己" in err and "没有手牌的人" in err
    assert "Traceback" not in err
    assert main(["ask", "--lang", "en", "can 试探 target the tall one?"]) == 2
    err = capsys.readouterr().err
    assert "the tall one" in err and "oneself" in err and "Traceback" not in err


def test_other_questions_still_read_their_way(cat, sess):
    """A frame that reads another way is not taken for a target (遗信能把手牌放入别人的情报区吗: an effect)."""
    a = Q.atoms_of(sess.parse("遗信能把手牌放入别人的情报区吗？").claim)[0]
    assert a.kind == "effect"


def test_the_targets_phrasebook_in_the_docs_is_the_parsers():
    from skillproof.checks.ask import targets
    text = (Path(__file__).parent.parent / "docs" / "query-language.md").read_text(encoding="utf-8")
    got = text.split("<!-- targets: generated", 1)[1].split("-->\n", 1)[1].split("<!-- end of the targets -->")[0]
    assert got == targets.table(), "docs/query-language.md: the targets' phrasebook differs from checks/ask/targets.py"


def test_a_triggered_skills_chosen_player_is_read_as_its_effects_player(cat, sess):
    """信鸽联络 is a triggered skill: the player it chooses (its grant's ``to = chosen``) is asked as the effect's player
    (table.chosen_as_effect) — 信鸽联络能指定自己吗 is *yes* (server skill/XinGeLianLuo.kt: any living player, herself
    included), with a game; a triggered skill that picks nobody (城府) is still *unknown*, saying so and offering the
    grammar's reading of the skill it hands out, which still reads as before (a skill handed to oneself)."""
    got, text, res = outcome(cat, sess, "信鸽联络能指定自己吗")
    assert got == "yes", text
    assert_replays(cat, res)
    got, text, res = outcome(cat, sess, "城府能指定自己吗")
    assert got == "unknown" and "触发技能" in text and "能用城府指定自己吗" in text
    a = Q.atoms_of(sess.parse("小铃铛能用信鸽联络指定自己吗").claim)[0]
    assert a.kind == "granted" and a.rule == "XinGeLianLuo2"
