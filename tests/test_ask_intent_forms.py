"""The ask language grown for intents: 'resolve X' (a card or a 视为 skill), 'fire G' (a triggered skill's
`fires`), 'played' (the cards used this turn, 'play' trace events), 'locked' and [rules] lock_self, 'use S
again', grants 'from herself', set sizes ('declares more than 2 cards'), 'hold G(…)' as a claim, 'in another
player's turn', 'for anyone'. Every yes is a witness the interpreter replayed (Run.found); the answers below are
what the catalogue implies."""
from __future__ import annotations

import pytest

from skillproof.checks import ask as Q
from skillproof.model import loader
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run

CAT = '''
[[card]]
id = "A"
name = "甲"
windows = { fight = "anyone" }
[[card]]
id = "B"
name = "乙"
windows = { fight = "anyone" }
[[card]]
id = "C"
name = "丙"
windows = { main = "turn" }

[[character]]
id = "thief"
name = "偷儿"
hidden = true
female = false
skills = ["Steal"]
[[skill]]
id = "Steal"
name = "偷"
kinds = ["ActiveSkill"]
fight = "not face_up"
plays = { as = ["A"], checks_bans = false }        # acts as 甲 with no card, bans not consulted

[[character]]
id = "honest"
name = "老实人"
hidden = false
female = false
skills = ["Honest"]
[[skill]]
id = "Honest"
name = "守法"
kinds = ["ActiveSkill"]
fight = "not used"
plays = { as = ["A"], checks_bans = true }         # acts as 甲, but respects bans

[[character]]
id = "banner"
name = "禁者"
hidden = false
female = true
skills = ["Ban"]
[[skill]]
id = "Ban"
name = "下禁令"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "NoCards"
to = "all"
at = "fight"
[[skill.gives]]
grant = "Mark"
to = "target"
at = "send"

[[character]]
id = "bettor"
name = "赌徒"
hidden = false
female = false
skills = ["Bet"]
[[skill]]
id = "Bet"
name = "押注"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "BetG"
to = "self"
at = "send"

[[grant]]
id = "NoCards"
name = "禁牌"
kinds = ["CannotPlayCard"]
lifetime = "turn"
params = { cards = "set<card>" }
ban = { cards = "cards", all = false }
[[grant]]
id = "Mark"
name = "标记"
kinds = ["MustReceiveMessage"]
lifetime = "turn"
receive = { must = "false", cannot = "true" }
[[grant]]
id = "BetG"
name = "赌注"
kinds = ["TriggeredSkill", "OneTurnSkill"]
lifetime = "turn"
fires = { at = ["receive"], when = "alive and not used and A not in played" }
'''


@pytest.fixture(scope="module")
def sess():
    return Q.Session(loader.load(texts={"c.toml": CAT}))


def ask(sess, text):
    return sess.ask(text)


@pytest.mark.parametrize("text, answer", [
    ("can 偷儿 resolve 甲 under 禁牌 declares 甲", "yes"),           # a 视为 skill that ignores bans
    ("never 老实人 resolve 甲 under 禁牌 declares 甲", "yes"),        # … one that respects them, and the card itself
    ("can 老实人 resolve 甲 under 禁牌 declares 乙", "yes"),
    ("never anyone resolve 丙 in 争夺阶段", "yes"),                   # 丙 is used in 出牌阶段 only
    ("never 老实人 use 守法 again", "yes"),                          # its condition: not used
    ("can 偷儿 use 偷 again", "yes"),                                # no limit
    ("can 赌徒 fire 赌注", "yes"),
    ("never 赌徒 fire 赌注 where 甲 in played", "yes"),              # its `fires` excludes a 甲 played this turn
    ("can 赌徒 fire 赌注 where 乙 in played", "yes"),
    ("never anyone fire 赌注 in 争夺阶段", "yes"),                    # fires in 接收阶段 only
    ("can anyone hold 标记 from herself", "yes"),                     # 'target' may be the giver
    ("never 赌徒 hold 标记 from herself", "yes"),                     # … but 赌徒 gives no 标记
    ("can anyone hold 禁牌 declares more than 2 cards", "yes"),       # a free set parameter
    ("never anyone hold 禁牌 from 下禁令 declares more than 2 cards", "no"),
    ("never anyone hold 禁牌 from 下禁令 declares more than 3 cards", "yes"),    # there are three cards
    ("can 赌徒 hold 赌注 in another player's turn", "yes"),           # 'self' at the send: any sender
    ("is 甲 banned for anyone under 禁牌", "yes"),
    ("can anyone be locked where is_sender", "yes"),                  # [rules] lock_self defaults to true
])
def test_answers(sess, text, answer):
    res = ask(sess, text)
    assert res.answer == answer, (text, res.headline, res.reason)


def test_played_comes_from_a_play_event_of_the_trace(sess):
    res = ask(sess, "can 赌徒 hold 赌注 where 乙 in played")
    assert res.answer == "yes"
    events = res.witness["trace"]["events"]
    plays = [e for e in events if e["event"] == "play"]
    assert plays == [{"event": "play", "seat": 0, "card": "B"}]
    # the trace replays: the play is legal in its window (乙 is used in 争夺阶段) and the state records it
    run = play_run(sess.cat, TR.Trace.from_dict(res.witness["trace"]))
    assert run.legal and run.state.seats[0].played == frozenset({"B"})


def test_an_illegal_play_is_named_by_the_interpreter(sess):
    tr = TR.Trace.from_dict({"setup": {"seats": [{"character": "bettor", "skills": [{"rule": "Bet"}]},
                                                 {"character": "thief", "face_up": False, "ever_face_up": False,
                                                  "skills": [{"rule": "Steal"}]}]},
                             "events": [{"event": "turn", "seat": 0}, {"event": "window", "window": "main"},
                                        {"event": "play", "seat": 0, "card": "A"}]})
    run = play_run(sess.cat, tr)
    assert run.errors and "cannot use 甲 in the main phase" in run.errors[0][1]


def test_the_sender_never_locks_himself_when_the_rules_say_so():
    cat = loader.load(texts={"c.toml": CAT + "\n[rules]\nlock_self = false\n"})
    res = Q.Session(cat).ask("can anyone be locked where is_sender")
    assert res.answer == "no"
    assert any("lock_self" in b["says"] for b in res.because)


@pytest.mark.parametrize("text, col, needle", [
    ("never anyone fire 标记", 19, "not a conversion skill (ConvertCardSkill) nor a triggered skill"),
    ("never anyone hold 赌注 where 甲 in playd", 33, "did you mean 'played'"),
    ("never anyone hold 标记 declares more than 2 cards", 22, "has none"),
])
def test_errors_are_located(sess, text, col, needle):
    with pytest.raises(Q.QueryError) as e:
        sess.parse(text)
    assert e.value.col + 1 == col and needle in e.value.msg, (e.value.col + 1, e.value.msg)


def test_played_is_only_known_where_a_question_or_a_fires_reads_it():
    bad = CAT.replace('to = "self"\nat = "send"', 'to = "self"\nat = "send"\nwhen = "A in played"')
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load(texts={"c.toml": bad})
    assert "'played' is only known in a question's 'where' and a triggered skill's 'fires'" in str(e.value)
