"""Designers' questions about triggers, effects, death and winning (issue 23), asked as written: the question table
``tests/fixtures/ask-triggers.toml`` (each with the server's answer and the rule the answer must cite), then the
forms it rests on — a firing on a premise the engine never asks (invalidated, a dead holder), the order of two
triggered skills on one event, a bare 发动 of a character's only triggered skill, 再次使用."""
from __future__ import annotations


import pytest

from skillproof.checks import ask as Q
from skillproof.model import lang
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.trace import Trace

from askkit import FIXTURES, answered_as_expected, assert_replays, cat, outcome, questions, sess  # noqa: F401  (fixtures)

TABLE = FIXTURES / "ask-triggers.toml"
QUESTIONS = questions("ask-triggers.toml")


def test_the_table_holds_real_questions():
    assert len(QUESTIONS) >= 30
    assert len({q["ask"] for q in QUESTIONS}) == len(QUESTIONS)
    for q in QUESTIONS:
        assert set(q) >= {"ask", "expect", "cites", "server", "source"}, q["ask"]
        assert set(q["expect"].split("|")) <= {"yes", "no", "data", "unknown", "refused"}, q["ask"]


@pytest.mark.parametrize("q", QUESTIONS, ids=[q["ask"] for q in QUESTIONS])
def test_each_question_is_answered_as_the_server_plays(cat, sess, q):
    got, res = answered_as_expected(cat, sess, q)
    if got == "yes" and getattr(res, "bounds", {}).get("table"):     # a game: the interpreter replays it
        assert_replays(cat, res)


def test_an_invalidated_skill_is_refused_by_the_engine_not_its_guard(cat, sess):
    with lang.using("en"):
        res = sess.ask("城府被无效时还能发动吗？")
    assert res.answer == "no"
    says = " ".join(b["says"] for b in res.because)
    assert "InvalidSkill" in says
    assert "fires only when" not in says                 # not the guard: the skill is not asked at all
    near = Trace.from_dict(res.illustration["trace"])
    gives = [e for e in near.events if e.kind == "give" and e.seat == 0]
    assert gives and gives[0].site.startswith("Diao_Hu_Li_Shan#")      # invalidated by a card of the turn
    fire = [k for k, e in enumerate(near.events) if e.kind == "fire"]
    assert fire and fire[0] > near.events.index(gives[0])
    run = play_run(cat, near)
    assert any("invalidated" in str(w) for k, w in run.errors if k == fire[0])
    before = play_run(cat, Trace(near.setup, near.events[:fire[0]], True)).state
    assert before.seats[0].face_up                       # its guard holds: only the invalidation refuses it


def test_a_dead_holder_and_a_before_die_skill(cat, sess):
    with lang.using("en"):
        dead = sess.ask("奇货可居在毛不拔死亡后还能发动吗？")
        before_die = sess.ask("遗信在自己死亡后能发动吗？")
    assert dead.answer == "no"
    assert any("Game.kt:361" in r["name"] for b in dead.because for r in b["rules"])
    near = Trace.from_dict(dead.illustration["trace"])
    k_die = next(k for k, e in enumerate(near.events) if e.kind == "die" and e.seat == 0)
    k_fire = next(k for k, e in enumerate(near.events) if e.kind == "fire")
    assert k_die < k_fire                                # he died a turn before the event his skill answers
    assert before_die.answer == "yes"
    run = play_run(cat, Trace.from_dict(before_die.witness["trace"]))
    assert run.errors == [] and not run.state.seats[0].alive


def test_a_premise_the_engine_never_asks_on_needs_no_template(cat, sess):
    """A dead player is no target: no template has the situation; the engine's rule alone answers no."""
    with lang.using("en"):
        res = sess.ask("李宁玉能在自己死亡后发动就计吗？")
    assert res.answer == "no"
    assert any("Game.kt:361" in r["name"] for b in res.because for r in b["rules"])
    assert any(b["kind"] == "bound" and "whatever the bound" in b["says"] for b in res.because)


def test_the_order_of_two_skills_on_one_event(cat, sess):
    with lang.using("en"):
        res = sess.ask("承志和遗信在角色死亡时怎么结算？")
    assert res.answer == "data" and res.query.which.kind == "order" and res.query.which.event == "die"
    assert [v["rule"] for v in res.values] == ["ChengZhi", "YiXin"]
    assert all(v["file"].endswith(".toml") and v["line"] > 0 for v in res.values)
    notes = " ".join(res.notes)
    assert "seat by seat from the turn player" in notes and "Game.kt:350" in notes and "Event.kt:18" in notes
    assert "承志's “take" in notes and "遗信's guard reads" in notes       # 承志 first leaves 遗信 no hand card


def test_one_players_two_skills_go_in_list_order(cat, sess):
    ch = next(c for c in cat.characters.values()
              if len([r for r in c.skills if cat.skills[r].on and cat.skills[r].has("TriggeredSkill")]) >= 2 and
              any(o.event == p.event for a in c.skills for b in c.skills if a < b and cat.skills[a].on and
                  cat.skills[b].on for o in cat.skills[a].on for p in cat.skills[b].on))
    pair = [(a, b) for i, a in enumerate(ch.skills) for b in ch.skills[i + 1:]
            if cat.skills[a].on and cat.skills[b].on and
            {o.event for o in cat.skills[a].on} & {o.event for o in cat.skills[b].on}][0]
    a, b = (cat.skills[x].name for x in pair)
    with lang.using("en"):
        res = sess.ask(f"{b}和{a}谁先发动？")
    assert res.answer == "data"
    assert any(f"{a} first, then {b}" in n for n in res.notes)          # the list's order, whichever is named first
    assert any("lets the player choose" in n for n in res.notes)         # the rule book differs: said


def test_two_skills_that_never_share_an_event(cat, sess):
    with lang.using("en"):
        res = sess.ask("视死和如归的结算顺序是什么？")
    assert res.answer == "data" and res.values == [] and "never answer one event" in res.headline
    assert res.query.which.event is None                 # 视死's own name is no event word


def test_a_bare_fire_names_the_characters_only_triggered_skill(cat, sess):
    q = sess.parse("毛不拔能在自己死亡后发动吗？")
    assert Q.atoms_of(q.claim)[0].rule == "QiHuoKeJu"
    with pytest.raises(Q.QueryError) as e:
        sess.parse("李宁玉能发动吗？")
    assert e.value.col == "李宁玉能".__len__() and "就计" in str(e.value)


def test_again_in_a_game_never_answers_a_within_turn_no(cat, sess):
    res = sess.ask("博爱能再次发动吗？")
    assert res.answer == "unknown"
    assert sess.ask("博爱一回合能发动两次吗？").answer == "no"        # within one turn: the timed model's no


def test_an_order_of_three_skills_is_refused_where_the_third_is(cat, sess):
    text = "承志和遗信和如归谁先发动？"
    with pytest.raises(Q.QueryError) as e:
        sess.parse(text)
    assert text[e.value.col:e.value.end] == "如归"


def test_toutian_again_is_shown_by_a_game_where_huanri_turns_him_face_down(cat):
    """偷天能再次使用吗: yes, and the game shows it — 偷天 used (his role turned face up: TouTian.kt), his 调包 or 破译
    resolved and 换日 turning him face down (HuanRi.kt, FinishResolveCardEvent), so that 偷天 can be used again in the
    same 争夺阶段 (canUse = !roleFaceUp, no use limit; after 截获 and after 调包 the fight turn is his again: JieHuo.kt,
    DiaoBao.kt whoseFightTurn)."""
    from skillproof.checks.ask import eval_claim
    s = Q.Session(cat)
    s.games = True
    res = s.ask("偷天能再次使用吗？")
    assert res.answer == "yes"
    tr = Trace.from_dict(res.witness["trace"])
    assert tr.table, res.notes                          # a game of the server, not the timed model's trace
    got = play_run(cat, tr)
    assert got.legal, got.errors
    ev = tr.events
    me = next(e.seat for e in ev if e.kind == "use" and e.rule == "TouTian")
    kinds = [(e.kind, e.rule if e.kind in ("use", "fire") else e.card if e.kind == "play" else None, e.seat)
             for e in ev]
    i = kinds.index(("use", "TouTian", me))
    j = next(k for k, x in enumerate(kinds) if k > i and x[0] == "play" and x[1] in ("Diao_Bao", "Po_Yi") and x[2] == me)
    assert ("fire", "HuanRi", me) in kinds[j:]
    st = got.state
    assert not st.seats[me].face_up and st.seats[me].ever_face_up
    st.trace = tr
    assert eval_claim(cat, st, res.query.claim, True, res.query.windowed)
