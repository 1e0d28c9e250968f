"""Table questions (checks/ask/table.py): death, dying, winning, the sender receiving his own message, message
counts and a triggered skill's firing, asked of games of the server — every *yes* a game the interpreter replays,
every *no* a refusal by the rules of the question's own events (never the bound: that is *unknown*, exit 3)."""
from __future__ import annotations

import json

import pytest

from skillproof.checks import ask as Q
from skillproof.checks.ask import table as TB
from skillproof.model import loader
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.trace import Trace


@pytest.fixture(scope="module")
def cat():
    return loader.load(None)


@pytest.fixture(scope="module")
def sess(cat):
    return Q.Session(cat)


def game_of(res) -> Trace:
    return Trace.from_dict(res.witness["trace"])


def replays(cat, res):
    """The witness is a game trace the interpreter runs without a complaint; its run."""
    tr = game_of(res)
    assert tr.table
    run = play_run(cat, tr)
    assert run.errors == [], run.errors
    return tr, run


def test_a_player_can_die_in_his_own_turn_and_the_game_shows_it(cat, sess):
    from skillproof.model import lang
    with lang.using("zh"):
        res = sess.ask("老汉能在自己的回合死吗？")
    assert res.answer == "yes" and res.bounds["table"]
    tr, run = replays(cat, res)
    die = [k for k, e in enumerate(tr.events) if e.kind == "die" and e.seat == 0]
    assert die, "the game shows the death"
    turn = [e for e in tr.events[:die[0]] if e.kind == "turn"][-1]
    assert turn.seat == 0 and not run.state.seats[0].alive
    assert res.witness["expect"]["alive"] is False
    told = " ".join(s.text for s in res.origin)
    assert "死亡" in told and "濒死" in told                      # every table change told


def test_the_same_in_english(cat, sess):
    from skillproof.model import lang
    with lang.using("en"):
        res = sess.ask("can 老汉 die in his own turn?")
    assert res.answer == "yes"
    replays(cat, res)


def test_the_sender_can_receive_his_own_message(cat, sess):
    for text in ("传出者能收到自己的情报吗？", "can the sender receive his own message?"):
        res = sess.ask(text)
        assert res.answer == "yes", text
        tr, run = replays(cat, res)
        st = run.state
        assert st.message_received and st.in_front == 0 and st.sender == 0
        assert any(e.kind == "send" and e.seat == 0 for e in tr.events)


def test_a_player_can_win_and_a_secret_task_is_read(cat, sess):
    res = sess.ask("篡夺者能获胜吗？")
    assert res.answer == "yes"
    _, run = replays(cat, res)
    s0 = run.state.seats[0]
    assert 0 in run.state.winners and s0.identity == "black" and s0.task == "stealer"


def test_dying_is_a_claim(cat, sess):
    res = sess.ask("老汉能濒死吗？")
    assert res.answer == "yes"
    _, run = replays(cat, res)
    assert run.state.window == "dying" and run.state.dying == 0 and run.state.seats[0].alive


def test_a_refusal_by_a_trigger_guard_is_a_no_with_its_rule(cat, sess):
    """如归 asks that its owner die outside his own turn (skill/RuGui.kt askWhom !== event.whoseTurn)."""
    res = sess.ask("老汉在自己的回合死亡时能发动如归吗？")
    assert res.answer == "no"
    rules = [r["id"] for b in res.because for r in b["rules"]]
    assert "RuGui" in rules
    assert any(b["kind"] == "bound" for b in res.because)
    near = Trace.from_dict(res.illustration["trace"])          # the situation happens; the interpreter refuses
    run = play_run(cat, near)
    fire = next(k for k, e in enumerate(near.events) if e.kind == "fire")
    assert [k for k, _ in run.errors] == [fire]
    assert sess.ask("老汉在别人的回合死亡时能发动如归吗？").answer == "yes"


def test_a_card_is_not_a_receive(cat, sess):
    """视死 answers a ReceiveCardEvent; 利诱 raises an AddMessageCardEvent (card/LiYou.kt)."""
    res = sess.ask("老汉被利诱放入情报后，能发动视死吗？")
    assert res.answer == "no" and "ShiSi" in [r["id"] for b in res.because for r in b["rules"]]


def test_a_conversion_the_question_names_is_the_one_that_fires(cat, sess):
    res = sess.ask("SP李宁玉用应变把截获当作误导使用后，能发动诱导吗？")
    assert res.answer == "yes"
    tr, _ = replays(cat, res)
    play = next(e for e in tr.events if e.kind == "play")
    assert (play.seat, play.actual, play.card) == (0, "Jie_Huo", "Wu_Dao")
    assert tr.events[-1].kind == "fire" and tr.events[-1].rule == "YouDao"


def test_the_wins_are_checked_before_the_dying(cat, sess):
    """ProcessFsm.resolve: checkWin, then checkDying — a red player reaching three red and three black wins."""
    res = sess.ask("潜伏战线有两张红色情报和两张黑色情报时，收到含红色和黑色的情报后会濒死吗？")
    assert res.answer == "no"
    assert any("ProcessFsm" in r["name"] for b in res.because for r in b["rules"])
    assert sess.ask("潜伏战线有两张红色情报和两张黑色情报时，收到含红色和黑色的情报后能获胜吗？").answer == "yes"


def test_the_bound_is_never_a_no(cat, sess):
    """Four black messages: no game within the bound, and no rule of the question's events forbids it — unknown."""
    res = sess.ask("王响能有四张黑色情报吗？")
    assert res.answer == "unknown"
    assert res.bounds["table"] and res.bounds["templates"] > 0


def test_never_and_always(cat, sess):
    assert sess.ask("老汉不会在自己的回合死吗？").answer == "no"          # it happens: a counterexample
    res = sess.ask("never 老汉 fire 如归 in his own turn where not alive")
    assert res.answer == "yes"


def test_who_wins_lists_identities_and_tasks(cat, sess):
    res = sess.ask("谁会赢？")
    got = {v["value"] for v in res.values}
    assert {"red", "blue", "stealer", "killer"} <= got
    for v in res.values:
        run = play_run(cat, Trace.from_dict(v["witness"]["trace"]))
        assert run.errors == [] and 0 in run.state.winners


def test_a_secret_task_outside_a_table_question_is_refused(cat):
    with pytest.raises(Q.QueryError):
        Q.Session(cat).ask("篡夺者能把截获当作误导使用吗？")


def test_the_parts_a_table_question_cannot_read_say_so(cat, sess):
    res = sess.ask("被禁闭后，老汉能在自己的回合死吗？")
    assert res.answer == "unknown" and res.headline


def test_labels_name_their_events():
    assert TB.label_event("event 12: the game is not over") == 12
    assert TB.label_event("setup: seat 0: message counts fit") is None
    assert TB.is_invariant("setup: seat 1: message counts fit")
    assert not TB.is_invariant("setup: the deal of identities")


def test_the_witness_replays_as_a_scenario_file(cat, sess, tmp_path):
    from skillproof.cmd_ask import save_witness
    from skillproof.checks import scenario as SC
    res = sess.ask("传出者能收到自己的情报吗？")
    path = tmp_path / "w.json"
    save_witness(res, str(path))
    d = json.loads(path.read_text(encoding="utf-8"))
    assert d["trace"]["table"] is True and d["question"] == {"decision": "table", "seat": 0}
    assert SC.validate(cat, d, str(path)) == []


def test_the_cli_exits_3_when_the_bound_stops_it(tmp_path):
    from skillproof.cli import main
    assert main(["ask", "--brief", "王响能有四张黑色情报吗？"]) == 3
    assert main(["ask", "--brief", "传出者能收到自己的情报吗？"]) == 0
    out = tmp_path / "w.json"
    assert main(["ask", "--brief", "--save", str(out), "老汉能在自己的回合死吗？"]) == 0
    assert main(["replay", str(out)]) == 0


def test_a_generic_subject_and_her_own_message(cat, sess):
    """一个人 / 一个角色 are anyone; 收到自己传出的情报 makes her the sender of the message she received (the words
    自己传出 were once dropped: any message received answered it)."""
    res = sess.ask("一个人能在自己的回合死亡吗？")
    assert res.answer == "yes"
    for text in ("一个角色能收到自己传出的情报吗？", "can a player receive their own message?"):
        res = sess.ask(text)
        assert res.answer == "yes", text
        _, run = replays(cat, res)
        st = run.state
        assert st.message_received and st.in_front == 0 and st.sender_of_turn() == 0, text


def test_the_frame_is_read_from_the_game_not_the_template(sess):
    """Her own message in another player's turn needs 密令 (its target sends in another's turn); the templates
    have the turn player send, so the answer is the bound's — never a game of her own turn (it once was)."""
    res = sess.ask("老汉能在别人的回合收到自己传出的情报吗？")
    assert res.answer == "unknown"


def test_a_given_read_before_the_firing_is_the_table_of_that_moment(cat, sess):
    """遗信 (BeforeDieSkill) fires on his death with his hand still held: the server discards a dead player's cards
    only after the PlayerDieEvent was dealt (phase/AfterDieGiveCard.kt). The interpreter read the givens on the
    table of a game cut short and closed there (the dead's cards discarded), the encoder on the moment itself:
    the twins disagreed and the answer was unknown. Now both read the moment (play.state_after)."""
    from skillproof.model import lang
    from skillproof.model.interp.play import state_after
    with lang.using("zh"):
        yes = sess.ask("李宁玉有手牌时死亡，能发动遗信吗")
        no = sess.ask("李宁玉没有手牌时死亡，能发动遗信吗")
    assert yes.answer == "yes", yes.headline
    assert no.answer == "no"
    tr, run = replays(cat, yes)
    die = next(k for k, e in enumerate(tr.events) if e.kind == "die" and e.seat == 0)
    fire = next(k for k, e in enumerate(tr.events) if e.kind == "fire" and e.rule == "YiXin")
    assert die < fire
    moment = state_after(cat, tr, fire)
    assert not moment.seats[0].alive and moment.seats[0].hand_count > 0       # dead, his hand not yet discarded
    closed = play_run(cat, Trace(tr.setup, tr.events[:fire], True)).state
    assert closed.seats[0].hand_count == 0                                     # a game ending there discards it
