"""A fourth set of designers' questions, on the table moving (issues 22/23), written fresh from the rule book's FAQ
and rules and asked as written: the table ``tests/fixtures/ask-designer4.toml`` (each with the server's answer, read
from its code), then the general readings this set needed — a target of two words and of a gender (面朝下的男性角色:
the character's gender, face up or down; a result skill's pick of ``p.male`` reads it face up only), the user before
the target frame (濒死的角色能对自己使用澄清吗), the target first (没有手牌的角色能成为威逼的目标吗), the last player alive
(只剩一个人存活时), a dead player's receive (死亡后还能收到情报吗: the premise before the receive, the engine's rule), a
game won at its turn's end (搅局者), and the premises a death or win question does not read said so (被利诱放入情报后)."""
from __future__ import annotations

import pytest

from skillproof.checks.ask import targets as TG

from askkit import assert_replays, cat, outcome, sess, table_tests  # noqa: F401  (fixtures)

OTHER_TABLES = ["ask-triggers.toml", "ask-effects.toml", "ask-targets.toml", "ask-designer2.toml", "ask-designer3.toml"]
QUESTIONS, test_the_table_holds_its_questions, test_each_question_is_answered_as_the_server_plays = \
    table_tests("ask-designer4.toml", OTHER_TABLES, at_least=40, answered_at_least=40)


# ------------------------------------------------------------------------------------------ targets
def test_player_words_of_two_words_and_of_a_gender():
    assert TG.player_word("面朝下的男性角色") == "face_down+male"
    assert TG.player_word("没有手牌的女性角色") == "no_hand+female"
    assert TG.player_word("男性角色") == "male"
    assert TG.player_word("面朝下的角色") == "face_down"
    assert TG.player_word("面朝下的老汉") is None              # a character is no player word
    assert TG.shown("face_down+male")[0] == "面朝下的男性角色"
    assert TG.never_one("male+female") and not TG.never_one("face_down+male")


def test_a_face_down_target_of_a_gender_is_the_characters_gender(cat, sess):
    """试探 targets a face-down player whatever her hidden character: a face-down female one is a female character."""
    got, _, res = outcome(cat, sess, "面朝下的女性角色能成为试探的目标吗")
    assert got == "yes"
    assert_replays(cat, res)
    seats = res.witness["trace"]["setup"]["seats"]
    assert any(cat.characters[s["character"]].female and cat.characters[s["character"]].hidden for s in seats[1:])


def test_a_result_skills_pick_refuses_a_face_down_player(cat, sess):
    """比翼双飞 picks a declared winner who is male: server isMale is face up only, so never a face-down player —
    told from the catalogue's pick; whom it picks otherwise is not searched (unknown, saying so)."""
    got, text, _ = outcome(cat, sess, "面朝下的男性角色能成为比翼双飞的目标吗")
    assert got == "no" and "p.male" in text and "qin_yuan_yuan.toml" in text
    got, text, _ = outcome(cat, sess, "男性角色能成为比翼双飞的目标吗")
    assert got == "unknown" and "pick" in text


def test_the_user_before_the_target_frame_is_the_questions_player(sess):
    q = sess.parse("濒死的角色能对自己使用澄清吗")
    assert q.claim.kind == "target" and q.claim.value == "self"
    assert any(g.kind == "where" and "dying" in str(g.claim.value) for g in q.givens)
    q = sess.parse("老鳖能对自己使用利诱吗")
    assert q.subject == "lao_bie" and q.claim.value == "self"


def test_the_target_first(sess):
    for text, who in (("没有手牌的角色能成为威逼的目标吗", "no_hand"), ("没有手牌的角色能被密令指定吗", "no_hand"),
                      ("自己能成为平衡的目标吗", "self")):
        q = sess.parse(text)
        assert q.claim.kind == "target" and q.claim.value == who, text


def test_a_character_as_the_target_first_is_read_as_the_target(cat, sess):
    """成为利诱的目标 after a character was a claim the timed model could not read (a ValueError traceback), then
    refused pointing at the target phrasing; since designer8 the character is a target word: 老汉, seated, is 利诱's
    target in the game shown."""
    got, text, res = outcome(cat, sess, "老汉能成为利诱的目标吗")
    assert got == "yes"
    game = res.witness["trace"]
    play = next(e for e in game["events"] if e.get("event") == "play" and e.get("card") == "Li_You")
    assert game["setup"]["seats"][play["target"]]["character"] == "lao_han"


# ------------------------------------------------------------------------------------------ the moving table
def test_the_last_player_alive(cat, sess):
    """Game.checkOnlyOneAliveIdentityPlayers: the last one alive wins — tried from the fewest seats a game has (every
    other seat must die); a pioneer dying with a true message wins first (CheckKillerWin), so not always."""
    got, _, res = outcome(cat, sess, "只剩一个人存活时能获胜吗")
    assert got == "yes"
    assert_replays(cat, res)
    assert res.bounds["seats"] == 2
    got, _, res = outcome(cat, sess, "只剩一名角色存活时，他一定会获胜吗")
    assert got == "no"
    got, text, _ = outcome(cat, sess, "只剩一个人存活时能接收情报吗")       # the timed model: refused, said so
    assert got == "refused" and "牌桌问题" in text


def test_a_game_won_at_its_turns_end(cat, sess):
    """搅局者 wins at his own turn's end (phase/NextTurn.kt checkDisturberWin): both game twins let a game won there end
    there (they refused every game ending at a turn's end: the answer was a wrong no)."""
    got, _, res = outcome(cat, sess, "搅局者能获胜吗")
    assert got == "yes"
    assert_replays(cat, res)
    assert res.witness["trace"]["events"][-1].get("window") == "turn_end"


def test_a_dead_player_never_receives(cat, sess):
    """死亡后 before a receive is read before it (it was read at the end: a receive, then a death, answered yes);
    the engine's rule answers no (phase/MessageMoveNext.kt)."""
    for text in ("老汉死亡后还能收到情报吗", "传出者死亡后还能收到情报吗"):
        got, shown, _ = outcome(cat, sess, text)
        assert got == "no" and "MessageMoveNext" in shown, text
    assert sess.ask("传出者能收到自己的情报吗").answer == "yes"


def test_a_card_put_before_a_death_is_not_dropped(cat, sess):
    """被利诱放入情报后 is read for a firing only; a death question said nothing of it and answered with a game without
    利诱 — now unknown, saying so."""
    got, text, _ = outcome(cat, sess, "被利诱放入情报后会获胜吗")
    assert got == "unknown" and "只在问触发技能的发动时读" in text
    assert sess.ask("老汉被利诱放入情报后，能发动视死吗").answer == "no"


def test_the_event_an_action_raises(cat, sess):
    """置入情报区 is no receive (strategy/faq.md): a put raises AddMessageCardEvent, ReceiveCardEvent only the receive
    phase — told from the engine's event table (raises.py), with the skills answering each; the same event: yes."""
    got, text, _ = outcome(cat, sess, "置入情报区会触发接收情报的技能吗")
    assert got == "no" and "AddMessageCardEvent" in text and "惊梦" in text and "先发制人" in text
    assert sess.ask("接收情报会触发接收情报的技能吗").answer == "yes"
    q = sess.parse("死亡算接收情报吗")
    assert q.which.kind == "raises" and q.which.rules == ("die", "receive")
    got, _, _ = outcome(cat, sess, "穿红衣服会触发接收情报的技能吗")     # an action it does not know: not this reading
    assert got != "no"


def test_the_messages_path_is_refused_saying_what_may_be_asked(cat, sess):
    """情报还会继续传递吗 / 情报会被弃置吗: no template holds a death on the message's path — a located refusal naming the
    questions of receiving that are answered (parser.MESSAGE_PATH)."""
    for text in ("情报面前的角色死亡后情报还会继续传递吗", "传出者死亡后情报会被弃置吗"):
        got, shown, err = outcome(cat, sess, text)
        assert got == "refused" and "情报的去向" in shown and "老汉死亡后还能收到情报吗" in shown, text
