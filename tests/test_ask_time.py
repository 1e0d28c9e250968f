"""`skillproof ask` on the timed model, on a small catalogue written for it: every atom is decided at its
decision moment, `play X as Y` only where a Y may be used now, `always` / `never` range over those moments,
the window words of the language fix the moment, `after X` and `in the previous turn` read the trace, and
every witness is a trace the interpreter runs event by event (and `replay` runs again from a saved file)."""
from __future__ import annotations

import json

import pytest

from skillproof.checks import ask as Q
from skillproof.cli import main
from skillproof.model.interp.plays import can_play
from skillproof.model.interp.receive import receive
from skillproof.model import loader
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run

from test_ask import core_minimal, holds_in_interpreter, replayed

TIMED = """
[rules]
seats = 4
draw_base = 2

[[card]]
id = "Jia"
name = "甲"
windows = { fight = "anyone" }
[[card]]
id = "Yi"
name = "乙"
windows = { fight = "anyone" }
[[card]]
id = "Bing"
name = "丙"
windows = { main = "turn" }
[[card]]
id = "Ding"
name = "丁"
windows = { main = "turn", dying = "anyone" }

# a player who converts 甲 into 乙, and (at the start of their own send phase) must lock one player
[[character]]
id = "li"
name = "李"
hidden = false
female = true
skills = ["Turn", "Lock"]
[[skill]]
id = "Turn"
name = "转"
kinds = ["ConvertCardSkill"]
convert = { from = "Jia", to = ["Yi"], must = false }
[[skill]]
id = "Lock"
name = "锁"
kinds = ["ActiveSkill"]
windows = { send_start = "turn" }
[[skill.gives]]
grant = "LockOne"
to = "self"
at = "send_start"
[[grant]]
id = "LockOne"
name = "锁·必锁一人"
kinds = ["SendMessageCanLockSkill", "OneTurnSkill"]
lifetime = "turn"
send = { rule = "lock_count == 1" }

# a declaration for the whole table at the start of its owner's send phase: A may only be used as B
[[character]]
id = "chen"
name = "陈"
hidden = false
female = false
skills = ["Declare"]
[[skill]]
id = "Declare"
name = "宣"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Decl"
to = "all"
when = "my_turn"
at = "send_start"
where = "A != B"
[[grant]]
id = "Decl"
name = "宣·宣言"
kinds = ["ConvertCardSkill", "OneTurnSkill"]
lifetime = "turn"
params = { A = "card", B = "card" }
convert = { from = "A", to = ["B"], must = true }

# a main-phase skill of the turn player: invalidates another player, or bans every card of theirs
[[character]]
id = "jailer"
name = "狱"
hidden = false
female = false
skills = ["Jail"]
[[skill]]
id = "Jail"
name = "禁"
kinds = ["MainPhaseSkill"]
windows = { main = "turn" }
[[skill.gives]]
grant = "InvalidSkill"
to = "others"
at = "main"
[[skill.gives]]
grant = "NoCards"
to = "others"
at = "main"
args = { all_cards = true }
[[grant]]
id = "InvalidSkill"
name = "被无效"
kinds = ["InvalidSkill"]
lifetime = "turn"
[[grant]]
id = "NoCards"
name = "不能出牌"
kinds = ["CannotPlayCard", "OneTurnSkill"]
lifetime = "turn"
params = { all_cards = "bool" }
ban = { cards = [], all = "all_cards" }

# a hidden role that, dying face down, becomes another character (后来人)
[[character]]
id = "phoenix"
name = "凤"
hidden = true
female = true
skills = ["Reborn"]
[[skill]]
id = "Reborn"
name = "重生"
kinds = ["ActiveSkill"]
dying = "dying and not face_up"
windows = { dying = "dying_player" }
replaces_role = true

# who must receive: a red message, this turn (handed out at the start of its owner's send phase)
[[character]]
id = "post"
name = "邮"
hidden = false
female = false
skills = ["Post", "Draw"]
[[skill]]
id = "Post"
name = "收"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "RedRule"
to = "all"
when = "my_turn"
at = "send_start"
[[grant]]
id = "RedRule"
name = "收·红必收"
kinds = ["MustReceiveMessage"]
lifetime = "turn"
receive = { must = "red in message", cannot = "false" }
[[skill]]
id = "Draw"
name = "摸"
kinds = ["ChangeDrawCardCountSkill"]
draw = "if my_turn then count + 1 else count"

[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
"""


@pytest.fixture(scope="module")
def cat():
    return loader.load(texts={"timed.toml": TIMED})


@pytest.fixture(scope="module")
def sess(cat):
    return Q.Session(cat)


def ask(cat, sess, text):
    res = sess.ask(text)
    assert res.answer in ("yes", "no"), (text, res.reason)
    holds_in_interpreter(cat, res)
    if res.core:
        assert core_minimal(res.core), text
    return res


def witness_state(cat, res):
    return replayed(cat, res.witness)


# ------------------------------------------------------------------------ decisions at their moments
def test_a_play_is_possible_only_where_the_declared_card_is_used(cat, sess):
    res = ask(cat, sess, "can 李 play 甲 as 乙")
    assert res.answer == "yes"
    st = witness_state(cat, res)
    assert st.window == "fight" and can_play(cat, st, 0, "Jia", "Yi")
    # 乙 is used in 争夺阶段 only: in the main phase the play is impossible, and the reason is the window
    res = ask(cat, sess, "can 李 play 甲 as 乙 in the main phase")
    assert res.answer == "no"
    assert any("not usable by this player now" in b["says"] for b in res.because if b["kind"] == "decides")
    # 丙 is the turn player's, in their main phase
    st = witness_state(cat, ask(cat, sess, "can anyone play 丙 as 丙"))
    assert st.window == "main" and st.turn == 0


def test_always_ranges_over_the_moments_a_decision_is_taken(cat, sess):
    # 转 always lets 李 play 甲 as 乙 where a 乙 may be used — unless 宣 declares 甲 → something else
    # (with a card in hand: a card is played from the hand)
    res = ask(cat, sess, "always 李 play 甲 as 乙 when not invalidated and not banned 乙 and hand_count > 0")
    assert res.answer == "no" and res.witness_role == "counterexample"
    st = witness_state(cat, res)
    assert st.window == "fight"                         # a moment where 乙 is used: not a vacuous one
    decl = [i for i in st.seats[0].skills if i.rule == "Decl"]
    assert decl and decl[0].args["A"] == "Jia" and decl[0].args["B"] != "Yi"
    res = ask(cat, sess, "always 李 play 甲 as 乙 when not invalidated and not banned 乙 and hand_count > 0 "
                         "without 宣·宣言")
    assert res.answer == "yes"
    assert res.illustration is not None and replayed(cat, res.illustration).window == "fight"
    # with a window that is not one of 乙's, 'always' is read as it stands: never playable there
    res = ask(cat, sess, "always 李 play 甲 as 乙 when not invalidated in the main phase")
    assert res.answer == "no" and witness_state(cat, res).window == "main"


def test_decisions_are_asked_where_they_are_taken(cat, sess):
    # receive: in 传递阶段 by the player the message is in front of
    st = witness_state(cat, ask(cat, sess, "can 邮 must receive under 收"))
    assert st.window == "send" and st.in_front == 0 and receive(cat, st, 0) == "must"
    res = ask(cat, sess, "never 邮 may choose under 收 where red in message")
    assert res.answer == "yes"
    # draw: in the player's own draw phase — so 摸's 'my_turn' always holds there
    res = ask(cat, sess, "how many cards does 邮 draw")
    assert [v["value"] for v in res.values] == [3]
    st = replayed(cat, res.values[0]["witness"])
    assert st.window == "draw" and st.turn == 0
    # send: at the start of the player's send phase, where 锁 hands out its rule
    res = ask(cat, sess, "which send rule for lock for 李")
    assert {v["value"] for v in res.values} == {None, "LockOne"}
    for v in res.values:
        st = replayed(cat, v["witness"])
        assert st.window == "send_start" and st.turn == 0


def test_a_grant_given_at_send_start_cannot_be_used_before_it(cat, sess):
    # 宣's declaration is handed out at send-phase start: in the main phase of that turn it is not there yet
    assert ask(cat, sess, "can 李 play 甲 as 乙 under 宣·宣言(A=甲, B=丙) in the main phase").answer == "no"
    res = ask(cat, sess, "can anyone hold 宣·宣言 in the main phase")
    assert res.answer == "no"
    # … unless it came in the previous turn — a one-turn skill, dropped at that turn's end
    assert ask(cat, sess, "can anyone hold 宣·宣言 in the main phase under 宣 in the previous turn").answer == "no"
    st = witness_state(cat, ask(cat, sess, "can anyone hold 宣·宣言 at the send"))
    assert st.window == "send"


def test_skip_and_use_windows(cat, sess):
    # 禁 invalidates and bans every card: the player is skipped in 濒死求澄清 — in the jailer's turn
    res = ask(cat, sess, "can anyone be skipped in 濒死求澄清 while holding cards")
    st = witness_state(cat, res)
    assert res.answer == "yes" and st.window == "dying"
    assert ask(cat, sess, "can anyone use 禁 in the main phase").answer == "yes"
    assert ask(cat, sess, "can anyone use 禁 in 争夺阶段").answer == "no"
    res = ask(cat, sess, "can 凤 use 重生 in 濒死求澄清")
    st = witness_state(cat, res)
    assert res.answer == "yes" and st.window == "dying" and st.dying == 0


# ----------------------------------------------------------------------------------- window words
@pytest.mark.parametrize("text, window", [
    ("can anyone hold 锁·必锁一人 at send-phase start", "send_start"),
    ("can anyone hold 锁·必锁一人 at the send phase start", "send_start"),
    ("在传递阶段开始时，李能否持有锁·必锁一人", "send_start"),
    ("can anyone play 丁 as 丁 when someone is dying", "dying"),
    ("有人濒死时，任何人能否打出丁当作丁", "dying"),
    ("can anyone play 甲 as 乙 in 争夺阶段", "fight"),
    ("can anyone play 甲 as 乙 in the fight phase", "fight"),
    ("can anyone hold 摸 in the draw phase", "draw"),
])
def test_window_words(cat, sess, text, window):
    res = ask(cat, sess, text)
    assert res.answer == "yes"
    assert witness_state(cat, res).window == window
    assert [g.window for g in res.query.givens if g.kind == "window"] == [window]


def test_dying_in_a_window_and_whose_turn(cat, sess):
    st = witness_state(cat, ask(cat, sess, "can anyone play 丁 as 丁 when someone is dying in the main phase"))
    assert (st.window, st.interrupted) == ("dying", "main")
    res = ask(cat, sess, "can 李 play 甲 as 乙 in 陈's turn")
    st = witness_state(cat, res)
    assert st.seats[st.turn].character == "chen"
    st = witness_state(cat, ask(cat, sess, "在陈的回合，李能否把甲当作乙打出"))
    assert st.seats[st.turn].character == "chen"
    assert witness_state(cat, ask(cat, sess, "can 李 hold 转 in her own turn")).turn == 0
    assert ask(cat, sess, "can 李 play 丙 as 丙 in 陈's turn").answer == "no"      # 丙: the turn player's


def test_after_reads_the_trace(cat, sess):
    # after 重生: the role was replaced this turn — the player is the new character, their list anew
    res = ask(cat, sess, "can anyone play 甲 as 乙 after 重生")
    st = witness_state(cat, res)
    assert res.answer == "yes"
    assert any(e.kind == "replace" for e in st.trace.events)
    # a replacement wipes what the old role was handed this turn (后来人 drops the turn's bans)
    res = ask(cat, sess, "can anyone be banned all after 重生 and after 禁")
    assert res.answer == "yes"
    st = witness_state(cat, res)
    kinds = [e.kind for e in st.trace.events if e.kind in ("give", "replace")]
    assert kinds.index("replace") < max(i for i, k in enumerate(kinds) if k == "give")   # the ban came after
    # after 禁: invalidated or banned this turn, by the jailer
    st = witness_state(cat, ask(cat, sess, "can anyone be invalidated after 禁"))
    assert any(e.kind == "give" and e.site == "Jail#0" for e in st.trace.events)
    # in the previous turn: the invalidation is released at that turn's end
    assert ask(cat, sess, "can anyone be invalidated after 禁 in the previous turn").answer == "no"
    res = ask(cat, sess, "can anyone hold 转 after 禁 in the previous turn")
    st = witness_state(cat, res)
    assert res.answer == "yes" and sum(e.kind == "turn" for e in st.trace.events) == 2


def test_invalidation_given_reads_its_giver_on_the_trace(cat, sess):
    # 'under 禁' counts being invalidated by 禁 (an event of the trace), not just being invalidated
    res = ask(cat, sess, "can 李 hold 转 under 禁")
    assert res.answer == "yes"
    st = witness_state(cat, res)
    assert any(e.kind == "give" and e.site in ("Jail#0", "Jail#1") and e.seat == 0 for e in st.trace.events)
    # invalidated or banned by 禁, 转 no longer lets 李 play 甲 as 乙
    res = ask(cat, sess, "can 李 play 甲 as 乙 under 禁")
    assert res.answer == "no"
    assert any("bans every card" in b["says"] or "invalidated" in b["says"] for b in res.because)


@pytest.mark.parametrize("text, col, needle", [
    ("can 邮 must receive in the main phase", 6, "is decided in the send phase"),
    ("can anyone draw 3 at the send", 11, "is decided in the draw phase"),
    ("can anyone play 甲 in the main phase in 争夺阶段", 36, "two windows"),
    ("can anyone play 甲 in the draw phase when someone is dying", 18, "the dying window interrupts"),
    ("can anyone play 甲 in the previous turn", 18, "says when a grant was handed out"),
    ("can anyone play 甲 after 转", 24, "makes none of them"),
    ("can anyone play 甲 after 转x", 24, "unknown skill or card"),
    ("can anyone be skipped in the main phase", 29, "expected a phase"),
    ("can anyone play 甲 in the mian phase", 25, "unknown window 'mian' — did you mean 'main'?"),
    ("can anyone play 甲 in 路仁's turn", 21, "unknown character '路仁' — did you mean 路人?"),
])
def test_moment_errors_are_located(cat, text, col, needle):
    with pytest.raises(Q.QueryError) as ei:
        Q.parse(cat, text)
    assert ei.value.col == col, (ei.value.col, ei.value.msg)
    assert needle in ei.value.msg


# ------------------------------------------------------------------------------ traces, saved and replayed
@pytest.mark.zh
def test_the_witness_is_told_step_by_step(cat, sess):
    from skillproof.cmd_ask import render
    res = ask(cat, sess, "can 李 play 甲 as 乙 under 宣·宣言(A=乙, B=甲)")
    text = render(cat, res)
    assert "在游戏中如何发生：" in text
    lines = text.splitlines()
    i, j = lines.index("在游戏中如何发生："), lines.index("解释器的推理：")
    story = lines[i + 1:j]
    assert all(ln.startswith("  ") and ln.strip()[0].isdigit() for ln in story)
    assert story[0].strip().startswith("1. 第1回合·摸牌阶段：") and "的回合开始" in story[0]
    assert any("传递阶段开始时" in ln and "【宣】" in ln and "宣·宣言" in ln for ln in story)
    assert "此时提问" in story[-1] and "·争夺阶段：" in story[-1]
    assert text.index("在游戏中如何发生：") < text.index("解释器的推理：")


def test_save_and_replay_a_trace(cat, tmp_path, capsys):
    cfile = tmp_path / "timed.toml"
    cfile.write_text(TIMED, encoding="utf-8")
    f = tmp_path / "s.json"
    assert main(["ask", "--lang", "en", "-c", str(cfile), "can 李 play 甲 as 乙 under 宣·宣言(A=乙, B=甲)", "--save", str(f)]) == 0
    capsys.readouterr()
    d = json.loads(f.read_text(encoding="utf-8"))
    assert set(d) >= {"trace", "question", "expect", "query"} and "state" not in d
    assert [e["event"] for e in d["trace"]["events"]][0] == "turn"
    assert main(["replay", "--lang", "en", str(f), str(cfile)]) == 0
    out = capsys.readouterr().out
    assert "legal: every event" in out and "as expected" in out
    # the designer moves the declaration to the main phase: 宣 hands it out at send-phase start only
    ev = d["trace"]["events"]
    give = next(i for i, e in enumerate(ev) if e["event"] == "give")
    ev.insert(give, {"event": "window", "window": "main"})
    ev[:] = [e for e in ev if not (e["event"] == "window" and e.get("window") == "send_start")]
    f.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", "--lang", "en", str(f), str(cfile)]) == 1
    out = capsys.readouterr().out
    assert f"event {give}:" in out and "only at the start of the send phase, not in the main phase" in out \
        and "ILLEGAL" in out


def test_a_trace_that_ends_in_the_wrong_window_is_not_asked_there(cat):
    """The interpreter's own check (context.replay_problems) refuses a witness asked away from its moment."""
    from skillproof.checks.context import replay_problems
    setup = {"seats": [{"character": "post", "skills": [{"rule": "Post"}, {"rule": "Draw"}]},
                       {"character": "plain"}]}
    events = [{"event": "turn", "seat": 1}, {"event": "window", "window": "main"}]
    w = {"trace": {"setup": setup, "events": events}, "question": {"decision": "receive", "seat": 0},
         "expect": {"receive": "free"}}
    assert any("not asked at its decision moment (the trace ends in the main phase)" in p
               for p in replay_problems(cat, w))
    w["trace"]["events"] = events + [{"event": "window", "window": "send", "in_front": 0}]
    assert replay_problems(cat, w) == []
    run = play_run(cat, TR.Trace.from_dict(w["trace"]))
    assert run.errors == [] and run.state.window == "send"


def test_a_witness_without_a_decision_still_asks_a_question_at_its_moment(cat, sess):
    """Claims about no decision (hand, face, where …) save a question askable at any moment — never the older
    snapshot check — so the scenario replays as a trace."""
    res = ask(cat, sess, "can 路人 hold cards")                 # a player with no skill at all
    assert res.witness["question"]["decision"] == "banned"
    res = ask(cat, sess, "can 李 hold cards where identity == blue")
    assert res.witness["question"] == {"decision": "holds", "seat": 0, "rule": "Turn"}


def test_max_turns_bounds_the_trace(cat, tmp_path, capsys):
    cfile = tmp_path / "timed.toml"
    cfile.write_text(TIMED, encoding="utf-8")
    q = "can 李 hold 转 after 禁 in the previous turn"
    assert main(["ask", "--lang", "en", "-c", str(cfile), q]) == 0
    assert capsys.readouterr().out.startswith("yes")
    assert main(["ask", "--lang", "en", "-c", str(cfile), "--max-turns", "1", q]) == 0      # no previous turn to look at
    out = capsys.readouterr().out
    assert out.startswith("no") and "traces of 1 turn)" in out
    with pytest.raises(SystemExit) as e:               # refused as the command line's usage error (cli.optvalues)
        main(["ask", "--lang", "en", "-c", str(cfile), "--max-turns", "0", q])
    assert e.value.code == 2 and "--max-turns must be at least 1" in capsys.readouterr().err
