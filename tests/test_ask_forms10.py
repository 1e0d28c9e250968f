"""Readings the tenth designers' table (tests/fixtures/ask-designer10.toml) needed, each tested on a question of its
class that the table does not ask: how many cards a skill's effect draws (…发动X能摸几张牌), told from the catalogue's
``do`` — not the draw phase's count."""
from __future__ import annotations

from askkit import cat, outcome, sess  # noqa: F401  (fixtures)


def test_the_draws_of_a_skills_effect_are_told_from_the_catalogue(cat, sess):
    # 博爱 (BoAi.kt:67, :145): one card, one more when the card went to a woman — was "no" (the draw phase's count
    # never showing under the premise): no answer to 几张
    got, text, _ = outcome(cat, sess, "白沧浪发动博爱能摸几张牌")
    assert got == "data", text
    head = text.splitlines()[0]
    assert head.count("摸1张") == 2 and "女性" in head, text
    assert "bai_cang_lang.toml" in text
    # 明饵's draws hang on whether the sender received it himself (MingEr.kt:26-29): each branch said with its condition
    got, text, _ = outcome(cat, sess, "老鳖发动明饵后摸几张牌")
    assert got == "data" and "摸2张（当传出者是接收者）" in text, text


def test_an_effect_drawing_nothing_is_said_so_and_the_draw_phase_count_stays(cat, sess):
    got, text, _ = outcome(cat, sess, "肥原龙川发动诡诈能摸几张牌")
    assert got == "data" and "不摸牌" in text, text
    got, text, _ = outcome(cat, sess, "CP韩梅摸几张牌？")        # no premise: the draw phase's count, searched
    assert got == "yes" and "白月光" in text, text
