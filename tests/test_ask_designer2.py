"""A second set of designers' questions (issues 22 and 23), written fresh in a designer's Chinese and asked as written:
the table ``tests/fixtures/ask-designer2.toml`` (each with the server's answer, read from its code), then the general
readings this set needed — the holder of a skill (持有者) as oneself, a message as an effect's object (放入 / 弃置 …情报),
the final question mark never a card left open, someone else's death as a condition on the table, a one-option choose
played in a game, a card that makes its target give a card raising the give-card event, a consumed skill not used again,
and an effect that turns another's role seated beside hidden characters."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from skillproof.checks import ask as Q
from skillproof.checks.ask import table as T
from skillproof.checks.realise import decision_holes
from skillproof.model.interp.hole import values as hole_values
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.trace import Trace

from askkit import FIXTURES, answered_as_expected, assert_replays, cat, outcome, questions, sess  # noqa: F401  (fixtures)

TABLE = FIXTURES / "ask-designer2.toml"
QUESTIONS = questions("ask-designer2.toml")
OTHER_TABLES = ["ask-triggers.toml", "ask-effects.toml"]


def test_the_table_holds_forty_new_questions():
    assert len(QUESTIONS) == 40
    assert len({q["ask"] for q in QUESTIONS}) == len(QUESTIONS)
    seen = set()
    fx = Path(__file__).parent / "fixtures"
    for name in OTHER_TABLES:
        seen |= {q["ask"] for q in tomllib.loads((fx / name).read_text(encoding="utf-8"))["question"]}
    for f in sorted((fx / "ask-corpus").glob("*.toml")):
        seen |= {q["ask"] for q in tomllib.loads(f.read_text(encoding="utf-8")).get("question", []) if "ask" in q}
    for q in QUESTIONS:
        assert set(q) >= {"ask", "expect", "cites", "server", "source"}, q["ask"]
        assert set(q["expect"].split("|")) <= {"yes", "no", "data", "unknown", "refused"}, q["ask"]
        assert q["ask"] not in seen, f"{q['ask']} is already asked by another table"


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["ask"] for q in QUESTIONS])
def test_each_question_is_answered_as_the_server_plays(cat, sess, q):
    got, res = answered_as_expected(cat, sess, q)
    if got == "yes" and getattr(res, "bounds", {}).get("table"):     # a game: the interpreter replays it
        assert_replays(cat, res)


def test_the_holder_of_a_skill_is_the_player_herself(sess):
    a = sess.parse("遗信在持有者死亡后能发动吗？")
    b = sess.parse("遗信在自己死亡后能发动吗？")
    for q in (a, b):
        [g] = q.givens
        v = g.claim.value                           # not alive, of the player asked about
        assert g.kind == "where" and v.op == "not" and v.arg.name == "alive" and v.arg.obj.name == "self"


def test_the_question_mark_is_no_card_left_open(sess):
    """别人的情报吗？ — 情报 and 吗 are fillers: the final mark must not read as `?` (a card left open) after 别人的."""
    a = Q.atoms_of(sess.parse("先发制人能弃掉别人的情报吗？").claim)[0]
    assert a.kind == "effect" and a.value.ops == ("remove_message",) and a.value.who == "other"


def test_a_message_moved_into_an_area_is_put_there_and_a_discard_is_not(cat, sess):
    """如归 moves a message into the turn player's area (remove_message to = area): 放入别人的情报区 is it; 先发制人's
    discard (to = discard_pile) is not; the place is recorded alike by both twins (effects.place_of)."""
    put = Q.atoms_of(sess.parse("如归能把情报放入别人的情报区吗？").claim)[0].value
    rugui = [o for o in T.effect_ops(cat, "RuGui") if o["op"] == "remove_message"]
    xian = [o for o in T.effect_ops(cat, "XianFaZhiRen") if o["op"] == "remove_message"]
    assert rugui and all(T.effect_entry_ok(put, o) for o in rugui)
    assert xian and not any(T.effect_entry_ok(put, o) for o in xian)
    res = sess.ask("如归能把情报放入别人的情报区吗？")
    game = Trace.from_dict(res.witness["trace"])
    run = play_run(cat, game)
    k = next(i for i, e in enumerate(game.events) if e.kind == "fire" and e.rule == "RuGui")
    done = [e for e in run.done[k] if e["op"] == "remove_message"]
    assert done and done[0]["place"] == "area" and done[0]["seats"]["into"] != (0,)


def test_someone_elses_death_is_read_on_the_table(sess):
    """有人死亡时 / 别人死亡后: another player's death, not the player asked about dead (承志: yes; 如归: no)."""
    assert sess.ask("有人死亡时，顾小梦能发动承志吗？").answer == "yes"
    assert sess.ask("别人死亡后，老汉能发动如归吗？").answer == "no"


def test_a_one_option_choose_is_a_decision_with_one_value(cat):
    """坚韧's choose has one alternative: its alt hole's domain has exactly one value (it had none)."""
    holes = decision_holes(cat.skills["JianRen"].do, lambda base: base)
    alts = [d["alt"] for d in holes.values() if "alt" in d]
    assert alts and all(hole_values(h, 3, (), (), ()) == (0,) for h in alts)


def test_a_consumed_skill_is_not_used_again_in_any_turn(sess):
    res = sess.ask("诱敌深入能再次发动吗？")
    assert res.answer == "no"
    assert any("consumed" in b["says"] for b in res.because)
    assert sess.ask("博爱能再次发动吗？").answer == "unknown"      # once a turn: a later turn is not searched
