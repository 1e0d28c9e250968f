"""Designers' questions about what an effect does and about skills invalidated by another skill (issue 23), asked as
written: the table ``tests/fixtures/ask-effects.toml`` (each with the server's answer), then what the answers rest on —
the ops each effect did, recorded alike by both twins (model/interp/ops.done_entry, checks/enc/ops.enc_done_entry), a
*no* from the catalogue's ``do`` alone, and a game in which a skill (禁闭) invalidates the player first."""
from __future__ import annotations


import pytest
import z3

from skillproof.checks import ask as Q
from skillproof.checks.enc.game import GameEncoding
from skillproof.model import lang
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.trace import Trace

from askkit import FIXTURES, answered_as_expected, assert_replays, cat, outcome, questions, sess  # noqa: F401  (fixtures)

TABLE = FIXTURES / "ask-effects.toml"
QUESTIONS = questions("ask-effects.toml")


def test_the_table_holds_real_questions():
    assert len(QUESTIONS) >= 20
    assert len({q["ask"] for q in QUESTIONS}) == len(QUESTIONS)
    for q in QUESTIONS:
        assert set(q) >= {"ask", "expect", "cites", "server", "source"}, q["ask"]


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["ask"] for q in QUESTIONS])
def test_each_question_is_answered_as_the_server_plays(cat, sess, q):
    got, res = answered_as_expected(cat, sess, q)
    if got == "yes":                                  # a game: the interpreter replays it
        assert_replays(cat, res)


def test_an_effect_claim_is_an_effect_atom(cat, sess):
    a = Q.atoms_of(sess.parse("城府还会让试探无效吗？").claim)[0]
    assert a.kind == "effect" and a.rule == "ChengFu" and a.value.ops == ("cancel",) and a.value.card == "Shi_Tan"
    b = Q.atoms_of(sess.parse("遗信能把手牌放入别人的情报区吗？").claim)[0]
    # 放入…情报区: a card put into an area, or a message moved into another's area (如归, 转交: remove_message to an area)
    assert b.value.ops == ("put_message", "remove_message") and b.value.who == "other" and b.value.place == "area"
    assert b.value.args == {"put_message": "to", "remove_message": "into"}
    d = Q.atoms_of(sess.parse("坚韧能弃置别人的黑色情报吗？").claim)[0]    # a message discarded, not a hand card
    assert d.value.ops == ("remove_message",) and d.value.args == {"remove_message": "whose"}
    assert d.value.place == "discard_pile" and "black" in d.value.colours and d.value.who == "other"
    c = Q.atoms_of(sess.parse("澄清能救濒死的人吗？").claim)[0]
    assert c.rule == "Cheng_Qing" and c.value.dying and c.value.colours


def test_the_game_shows_the_op_done_by_both_twins(cat, sess):
    """城府 cancels the 试探 played on her: the fire event's recorded ops, the interpreter's and the z3 twin's pinned
    to the same game, both hold the cancel."""
    res = sess.ask("城府还会让试探无效吗？")
    game = Trace.from_dict(res.witness["trace"])
    run = play_run(cat, game)
    k = next(i for i, e in enumerate(game.events) if e.kind == "fire" and e.rule == "ChengFu")
    assert [e["op"] for e in run.done[k]] == ["cancel"]
    assert any(e.kind == "play" and e.card == "Shi_Tan" for e in game.events[:k])
    enc = GameEncoding(cat, game)
    s = z3.Solver()
    s.add(enc.legal_expr())
    assert s.check() == z3.sat
    conds = [c for c, e in enc.done[k] if e["op"] == "cancel"]
    assert conds and s.check(z3.Not(z3.Or([z3.BoolVal(c) if isinstance(c, bool) else c for c in conds]))) == z3.unsat


def test_a_no_from_the_effect_data_names_the_rule(cat, sess):
    with lang.using("en"):
        res = sess.ask("博爱能让别人摸牌吗？")
    assert res.answer == "no"
    assert any(r["file"].endswith("bai_cang_lang.toml") for b in res.because for r in b["rules"])
    assert "to the player asked about" in res.headline or any("to the player asked about" in b["says"]
                                                                for b in res.because)


def test_invalidation_by_a_skill_is_played_in_the_game(cat, sess):
    res = sess.ask("被禁闭后，城府还能发动吗？")
    assert res.answer == "no"
    near = Trace.from_dict(res.illustration["trace"])
    use = next(e for e in near.events if e.kind == "use")
    assert use.rule == "JinBi" and use.target == 0
    gives = [e.site for e in near.events if e.kind == "give" and e.seat == 0]
    assert any(g.startswith("JinBi#") for g in gives)
    fire = next(k for k, e in enumerate(near.events) if e.kind == "fire")
    assert any("invalidated" in str(w) for k, w in play_run(cat, near).errors if k == fire)


def test_make_die_is_refused_as_two_readings(cat, sess):
    with pytest.raises(Q.QueryError) as e:
        sess.parse("利诱能让别人死吗？")
    assert "两种读法" in str(e.value) or "two ways" in str(e.value)


def test_a_draw_count_without_a_phase_says_it_is_the_draw_phase(cat, sess):
    """'老汉能摸两张牌吗' is read as the draw phase's count, which the headline says (and points to an effect
    question): 视死 does draw him two cards, so a bare 'no' would mislead the designer."""
    got, text, res = outcome(cat, sess, "老汉能摸两张牌吗")
    assert got == "no" and "摸牌阶段的摸牌数" in res.headline
    got, _, _ = outcome(cat, sess, "视死能让老汉摸牌吗")
    assert got == "yes"
    got, _, res = outcome(cat, sess, "老汉在摸牌阶段能摸两张牌吗")
    assert "读作" not in res.headline
