"""A fifth set of designers' questions, on die / win / receive as the server plays them (issues 22/23), written fresh in
a designer's Chinese: the table ``tests/fixtures/ask-designer5.toml`` (each with the server's answer, read from its code
before the tool was run), then the general rules this set needed — a dead player acts in no window (both twins:
interp.windows.in_window / enc.windows.enc_in_window), a death in the main phase by the turn player's own skill
(拼命三郎), 收到X情报后 in a table question is the player's receive, an always / never whose premise holds in no game is
unknown (not a vacuous yes), a public role is never face down, an effect op's own condition rules a player out
(遗信: chosen != self and chosen.alive), 当前回合角色 as an effect's player, the target 没有黑色情报的角色, and the
refusals that say what may be asked instead (一起获胜, 把两张…, 让…获胜, a triggered skill's 再次发动, two players dying together)."""
from __future__ import annotations

import pytest

from skillproof.checks import ask as Q
from skillproof.checks.ask import targets as TG
from skillproof.model.interp.windows import in_window
from skillproof.model.state import Seat, State

from askkit import assert_replays, cat, outcome, sess, table_tests  # noqa: F401  (fixtures)

OTHER_TABLES = ["ask-triggers.toml", "ask-effects.toml", "ask-targets.toml", "ask-designer2.toml", "ask-designer3.toml",
                "ask-designer4.toml"]
QUESTIONS, test_the_table_holds_its_questions, test_each_question_is_answered_as_the_server_plays = \
    table_tests("ask-designer5.toml", OTHER_TABLES, at_least=50, answered_at_least=50)


# ------------------------------------------------------------------------------------------ a dead player
def test_a_dead_player_acts_in_no_window():
    """MainPhaseIdle ends a dead turn player's turn, FightPhaseIdle passes a dead whoseFightTurn over,
    WaitNextForChengQing asks the living only: in_window is false for a dead seat (an untimed state aside)."""
    st = State(seats=[Seat(character="qian_min"), Seat(character="wang_tian_xiang")], turn=0, window="fight")
    assert in_window(st, 0, {"fight": "anyone"})
    st.seats[0].alive = False
    assert not in_window(st, 0, {"fight": "anyone"})
    st.window = None
    assert in_window(st, 0, {"fight": "anyone"})


def test_a_dead_player_uses_no_card_nor_skill(cat, sess):
    """Both twins: a dead 钱敏 used 先发制人 and a dead player played 截获 (a wrong yes) — now no, said so."""
    for text in ("钱敏死亡后还能发动先发制人吗", "死亡的角色能使用截获吗", "王田香死亡后还能发动禁闭吗"):
        got, shown, _ = outcome(cat, sess, text)
        assert got == "no", f"{text}\n{shown}"
    _, shown, _ = outcome(cat, sess, "王田香死亡后还能发动禁闭吗")
    assert "死亡的角色不能行动" in shown


# ------------------------------------------------------------------------------------------ dying and death
def test_a_death_in_the_main_phase_by_the_players_own_skill(cat, sess):
    """拼命三郎 puts a pure black hand card into his own area in his main phase: MainPhaseIdle checks dying, nobody
    saves — the death templates use the turn player's main-phase skills that put a message (it was a no 'by the
    rules'); 利诱 never makes three of a colour (card/LiYou.kt), so 老汉 stays no."""
    got, _, res = outcome(cat, sess, "秦无命能在出牌阶段死亡吗")
    assert got == "yes"
    assert_replays(cat, res)
    assert any(e.get("rule") == "PinMingSanLang" for e in res.witness["trace"]["events"])
    assert sess.ask("老汉能在出牌阶段死亡吗").answer == "no"


def test_a_public_role_is_never_face_down(cat, sess):
    got, shown, _ = outcome(cat, sess, "老汉面朝下时死亡，能发动如归吗")
    assert got == "no" and "公开角色始终面朝上" in shown
    assert sess.ask("李宁玉面朝下时死亡，能发动遗信吗").answer == "no"       # a hidden role: 遗信's own guard


# ------------------------------------------------------------------------------------------ winning and receiving
def test_a_receive_premise_is_the_players_receive(cat, sess):
    """收到蓝色情报后 read as the message's colour only let an always's counterexample be a game where another player
    received it: the counterexample now has the player receive (篡夺者 takes the win in his own turn)."""
    got, _, res = outcome(cat, sess, "特工机关有两张蓝色情报时，收到蓝色情报后一定会获胜吗")
    assert got == "no"
    assert_replays(cat, res)
    events = res.witness["trace"]["events"]
    assert any(e.get("event") == "window" and e.get("window") == "receive" and e.get("in_front") == 0 for e in events)
    assert sess.ask("潜伏战线有两张红色情报时，收到红色情报后能获胜吗").answer == "yes"


def test_an_always_with_no_game_of_its_premise_is_unknown(cat):
    """有三张蓝色情报时 is read before the decisive events, where the game is already over: no game meets the premise,
    so the always holds vacuously — unknown, said so (it was yes)."""
    long = Q.Session(cat, timeout_ms=120_000)
    got, shown, _ = outcome(cat, long, "特工机关有三张蓝色情报时一定会获胜吗")
    assert got == "unknown" and "空真" in shown


def test_the_rule_books_names_and_the_last_of_a_camp(sess):
    assert sess.ask("双面间谍能获胜吗").answer == "yes"                   # secret_task.md: 双面间谍 (server 双重间谍)
    assert sess.ask("只剩一个神秘人存活时，他能获胜吗").answer == "yes"


# ------------------------------------------------------------------------------------------ effects and targets
def test_an_effect_ops_condition_rules_its_player_out(cat, sess):
    """遗信: if = "chosen != self and chosen.alive" — never into her own area, never a dead one's; 如归 puts into the
    turn player's and fires only when self != turn_player — never into his own: no from the data."""
    for text in ("遗信能把手牌放入自己的情报区吗", "遗信能把手牌放入死亡角色的情报区吗"):
        got, shown, _ = outcome(cat, sess, text)
        assert got == "no" and "li_ning_yu.toml" in shown, text
    assert sess.ask("遗信能把手牌放入别人的情报区吗").answer == "yes"
    got, shown, _ = outcome(cat, sess, "如归能把情报放入自己的情报区吗")      # its trigger's guard: self != turn_player
    assert got == "no" and "lao_han.toml" in shown and "不对所问的角色做" in shown


def test_the_turn_player_as_an_effects_player(sess):
    q = sess.parse("如归能把情报放入当前回合角色的情报区吗")
    assert q.claim.kind == "effect" and q.claim.value.who == "turn"
    assert sess.ask("如归能把情报放入当前回合角色的情报区吗").answer == "yes"


def test_a_target_with_no_black_message():
    assert TG.player_word("没有黑色情报的角色") == "no_black"
    assert TG.shown("no_black")[0] == "没有黑色情报的角色"


def test_a_clause_closed_by_a_comma_after_a_card(sess):
    """李宁玉面朝下时被威逼，城府会发动吗: 被威逼 closed by the comma is the card played on her (it was refused)."""
    q = sess.parse("李宁玉面朝下时被威逼，城府会发动吗")
    assert q.claim.kind == "fires_on" and q.claim.rule == "ChengFu"
    assert any(g.kind == "role" and g.rule == "card_on" and g.who == "Wei_Bi" for g in q.givens)


@pytest.mark.parametrize("text, says", [
    ("潜伏战线获胜时，特工机关能一起获胜吗", "一起获胜还不是能问的事"),
    ("如归能把两张情报放入当前回合角色的情报区吗", "效果一次移动几张牌"),
    ("遗信能让别人获胜吗", "不是效果本身的一步"),
    ("如归能再次发动吗", "触发技能"),
    ("传出者和老汉都死亡时，老汉能发动如归吗", "两名角色同时死亡"),      # 和 would read 老汉 as the sender himself
])
def test_refusals_say_what_may_be_asked(cat, sess, text, says):
    got, shown, err = outcome(cat, sess, text)
    assert got == "refused" and isinstance(err, Q.QueryError) and says in shown, shown
