"""The triggers family (TR001–TR005): what each code finds on small catalogues, what it must not find, and what it
reports on the shipped catalogue — each shipped finding read against the server (CuteReimu/TheMessage)."""
from __future__ import annotations

import os

import pytest

from skillproof.checks import firing as F
from skillproof.checks.context import Options, run
from skillproof.checks import trigger_checks as T
from skillproof.model import loader

from conftest import FIXTURES

BASE = os.path.join(FIXTURES, "families", "base.toml")

HEAD = '''[[character]]
id = "p1"
name = "甲"
hidden = true
female = false
skills = SKILLS1
[[character]]
id = "p2"
name = "乙"
hidden = true
female = true
skills = SKILLS2
'''


def _base() -> str:
    with open(BASE, encoding="utf-8") as fh:
        return fh.read()


def check(text: str, code: str | None = None, skills1=(), skills2=()):
    head = HEAD.replace("SKILLS1", str(list(skills1)).replace("'", '"')).replace(
        "SKILLS2", str(list(skills2)).replace("'", '"'))
    cat = loader.load(texts={"base.toml": _base(), "t.toml": head + text})
    res = run(cat, Options(only=(code or "triggers",)))
    assert not res.inconclusive
    return cat, [f for f in res.findings if f.family == "triggers"]


# ------------------------------------------------------------------------------------------------ TR001
GIFT = '''[[skill]]
id = "HuiZeng"
name = "回赠"
kinds = ["TriggeredSkill"]
on = { event = "give_card", whose = "taker", when = "giver != self and giver.alive GUARD" }
do = [{ op = "give", to = "giver" MAY}]
'''


def test_a_chain_that_feeds_itself_is_an_error_with_its_rules_and_events():
    _, found = check(GIFT.replace(" GUARD", "").replace(" MAY", ""), "TR001", ["HuiZeng"], ["HuiZeng"])
    assert [(f.check, f.severity) for f in found] == [("TR001", "error")]
    f = found[0]
    assert f.details["cycle"] == [{"rule": "HuiZeng", "raises": "give_card", "answers": "give_card"}]
    assert {r.role for r in f.rules} == {"trigger", "raises"} and all(r.line > 0 for r in f.rules)
    assert "100" in f.message and "100 passes" in f.message_en


def test_a_step_the_player_may_decline_makes_it_a_warning():
    _, found = check(GIFT.replace(" GUARD", "").replace(" MAY", ", may = true"), "TR001", ["HuiZeng"], ["HuiZeng"])
    assert [(f.check, f.severity) for f in found] == [("TR001", "warning")]


def test_once_a_turn_stops_the_chain():
    _, found = check(GIFT.replace(" GUARD", " and not used").replace(" MAY", ""), "TR001", ["HuiZeng"],
                     ["HuiZeng"])
    assert found == []


def test_a_chain_that_drains_a_hand_ends():
    # 回赠 answering any gift by giving the taker another card: its holder's hand only shrinks, the chain ends
    text = GIFT.replace(" GUARD", "").replace(" MAY", "").replace('whose = "taker"', 'whose = "any"').replace(
        'to = "giver"', 'to = "taker"').replace('giver != self and giver.alive', 'taker != self')
    _, found = check(text, "TR001", ["HuiZeng"], [])
    assert found == []


def test_one_holder_cannot_answer_the_card_he_gives_away():
    # the chain needs the other player to hold 回赠 too: held once, the card given back is not the holder's to answer
    _, found = check(GIFT.replace(" GUARD", "").replace(" MAY", ""), "TR001", ["HuiZeng"], [])
    assert found == []


def test_a_chain_of_two_skills():
    text = '''[[skill]]
id = "Fang"
name = "放"
kinds = ["TriggeredSkill"]
on = { event = "discard", whose = "other" }
do = [{ op = "put_message", to = "self", from = "deck_top" }]
[[skill]]
id = "Qi"
name = "弃"
kinds = ["TriggeredSkill"]
on = { event = "add_message", when = "by_skill" }
do = [{ op = "draw" }, { op = "discard", who = "self" }]
'''
    # each lap 弃's holder draws and discards: his hand stays, the deck feeds the areas — nothing ends it
    _, found = check(text.replace('{ op = "draw" }, ', ""), "TR001", ["Fang"], ["Qi"])
    assert found == []                      # without the draw each lap costs 弃's holder a card: the chain ends
    _, found = check(text, "TR001", ["Fang"], ["Qi"])
    assert [f.details["cycle"] for f in found] == [[
        {"rule": "Fang", "raises": "add_message", "answers": "discard"},
        {"rule": "Qi", "raises": "discard", "answers": "add_message"}]]
    # a card puts no message "by a skill": 弃 answering only cards' messages breaks the chain
    _, found = check(text.replace('when = "by_skill"', 'when = "not by_skill"'), "TR001", ["Fang"], ["Qi"])
    assert found == []


def test_simple_cycles_are_each_found_once():
    g = {"a": {"b"}, "b": {"a", "c"}, "c": {"a"}, "d": {"d"}}
    assert sorted(T.simple_cycles(g, 6)) == [["a", "b"], ["a", "b", "c"], ["d"]]


# ------------------------------------------------------------------------------------------------ TR002
def test_an_op_its_trigger_rules_out():
    text = '''[[skill]]
id = "ShouHei"
name = "收黑"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "black in message and hand_count > 2" }
do = [{ op = "draw", n = 2, if = "hand_empty" }, { op = "draw", if = "hand_count > 3" }]
'''
    _, found = check(text, "TR002", ["ShouHei"])
    assert [(f.key.split("|")[1], f.details["path"]) for f in found] == [("dead", "0")]
    assert "手牌" in found[0].message or "hand" in found[0].message_en


def test_an_op_inside_an_alternative_inherits_the_choice_condition():
    text = '''[[skill]]
id = "Xuan"
name = "选"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "red in message" }
do = [{ op = "choose", if = "not (red in message)", of = [[{ op = "draw" }], [{ op = "draw", n = 2 }]] }]
'''
    _, found = check(text, "TR002", ["Xuan"])
    assert sorted(f.details["path"] for f in found) == ["0", "0.0.0", "0.1.0"]


def test_a_player_the_event_does_not_bind_and_a_card_with_no_target():
    text = '''[[skill]]
id = "Shuang"
name = "双"
kinds = ["TriggeredSkill"]
do = [{ op = "draw", who = "sender" }, { op = "draw", who = "turn_player" }]
[[skill.on]]
event = "receive"
whose = "receiver"
[[skill.on]]
event = "turn_end"
[[skill]]
id = "Mu"
name = "目"
kinds = ["TriggeredSkill"]
on = { event = "use_card", whose = "user", when = "CARD" }
do = [{ op = "draw", who = "target" }]
'''
    cards = '''[[card]]
id = "Zhi"
name = "指"
windows = { main = "turn" }
target = "other"
'''
    _, found = check(cards + text.replace("CARD", "true"), "TR002", ["Shuang", "Mu"])
    got = sorted((f.details["event"], tuple(f.details["unbound"])) for f in found)
    assert got == [("turn_end", ("sender",)), ("use_card", ("target",))]
    # the guard says which card: one with a target
    _, found = check(cards + text.replace("CARD", "card == Zhi"), "TR002", ["Shuang", "Mu"])
    assert [tuple(f.details["unbound"]) for f in found] == [("sender",)]


# ------------------------------------------------------------------------------------------------ TR003
FOLLOW = '''[[skill]]
id = "JiYu"
name = "寄语"
kinds = ["TriggeredSkill"]
on = { event = "send", whose = "sender" }
do = [{ op = "grant", grant = "JiYu2" }]
[[skill.gives]]
grant = "JiYu2"
to = "self"
at = "send"
on = "send"
[[grant]]
id = "JiYu2"
name = "寄语·收尾"
kinds = KINDS
lifetime = "turn"
on = { event = "EVENT", when = "GUARD" }
do = [{ op = "draw", who = "turn_player" }]
'''


@pytest.mark.parametrize("event, guard, kinds, expect", [
    ("turn_end", "true", '["TriggeredSkill", "OneTurnSkill"]', ["TR003"]),
    ("turn_end", "alive", '["TriggeredSkill", "OneTurnSkill"]', []),       # as the server's follow-ups test it
    ("die", "true", '["TriggeredSkill", "OneTurnSkill"]', ["TR003"]),      # someone else's death, or his own
])
def test_a_granted_skill_firing_for_a_dead_holder(event, guard, kinds, expect):
    text = FOLLOW.replace("EVENT", event).replace("GUARD", guard).replace("KINDS", kinds)
    _, found = check(text, "TR003", ["JiYu"])
    assert [f.check for f in found] == expect
    if found:
        assert found[0].details["lifetime"] == "turn" and "JiYu" in {r.id for r in found[0].rules}


# ------------------------------------------------------------------------------------------------ TR004
PAIR = '''[[skill]]
id = "FanMian"
name = "翻面"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "not face_up" }
do = [{ op = "flip", face = "up" }]
[[skill]]
id = "AnShou"
name = "暗收"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "GUARD" }
do = [DO]
'''


def test_one_skill_turns_on_the_other_in_list_order():
    _, found = check(PAIR.replace("GUARD", "face_up").replace("DO", '{ op = "draw" }'), "TR004",
                     ["FanMian", "AnShou"])
    assert [(f.check, f.details["order"], f.details["interference"]) for f in found] == [
        ("TR004", ["FanMian", "AnShou"], "guard")]
    assert "反过来，【暗收】先被询问时不会发动" in found[0].message
    # the other list order: 暗收 is asked first, 翻面's change comes too late for it
    _, found = check(PAIR.replace("GUARD", "face_up").replace("DO", '{ op = "draw" }'), "TR004",
                     ["AnShou", "FanMian"])
    assert [(f.details["order"], f.details["interference"]) for f in found] == [(["AnShou", "FanMian"], "guard_back")]


def test_effects_on_one_hand_do_not_commute_but_two_draws_do():
    take = '{ op = "discard", who = "receiver" }'
    _, found = check(PAIR.replace("GUARD", "true").replace("DO", take).replace('"not face_up"', '"true"')
                     .replace('{ op = "flip", face = "up" }', '{ op = "draw", who = "receiver" }'), "TR004",
                     ["FanMian", "AnShou"])
    assert [f.details["interference"] for f in found] == ["effects"]
    _, found = check(PAIR.replace("GUARD", "true").replace("DO", '{ op = "draw" }').replace('"not face_up"', '"true"')
                     .replace('{ op = "flip", face = "up" }', '{ op = "draw" }'), "TR004", ["FanMian", "AnShou"])
    assert found == []


def test_skills_of_two_players_are_not_a_pair():
    _, found = check(PAIR.replace("GUARD", "face_up").replace("DO", '{ op = "draw" }'), "TR004", ["FanMian"],
                     ["AnShou"])
    assert found == []


# ------------------------------------------------------------------------------------------------ TR005
@pytest.mark.parametrize("on, expect", [
    ('{ event = "receive", whose = "receiver", when = "not face_up" }', []),        # 甲 is hidden: he can be
    ('{ event = "die", whose = "victim", when = "victim.alive" }', ["TR005"]),      # the dead victim alive
    ('{ event = "send_phase_start", whose = "other", when = "my_turn" }', ["TR005"]),
    ('{ event = "receive", whose = "receiver", when = "message_colours == 3" }', ["TR005"]),
    ('{ event = "add_message", when = "by_skill" }', ["TR005"]),                    # only cards put messages
])
def test_a_trigger_that_never_fires(on, expect):
    text = f'''[[skill]]
id = "X"
name = "某技"
kinds = ["TriggeredSkill", "BeforeDieSkill"]
on = {on}
do = [{{ op = "draw" }}]
[[card]]
id = "Li"
name = "置"
windows = {{ main = "turn" }}
target = "any"
do = [{{ op = "put_message", to = "target", from = "deck_top" }}]
'''
    if '"die"' not in on:
        text = text.replace(', "BeforeDieSkill"', "")
    _, found = check(text, "TR005", ["X"])
    assert [f.check for f in found] == expect
    for f in found:
        assert f.details["because"] and f.details["because"][-1]["en"].startswith("the facts every state keeps")


def test_an_initial_skill_answering_its_own_death_never_fires():
    """No BeforeDieSkill: a dead holder's initial skills are not asked (server Game.dealListeningSkill)."""
    text = '''[[skill]]
id = "X"
name = "某技"
kinds = ["TriggeredSkill"]
on = { event = "die", whose = "victim" }
do = [{ op = "draw" }]
'''
    _, found = check(text, "TR005", ["X"])
    assert [f.check for f in found] == ["TR005"]
    assert any("alive" in b["en"] for b in found[0].details["because"])
    _, found = check(text.replace('["TriggeredSkill"]', '["TriggeredSkill", "BeforeDieSkill"]'), "TR005", ["X"])
    assert found == []


def test_a_public_role_face_down_names_the_holders_and_the_guard():
    text = '''[[character]]
id = "pub"
name = "明"
hidden = false
female = false
skills = ["AnFa"]
[[skill]]
id = "AnFa"
name = "暗发"
kinds = ["TriggeredSkill"]
on = { event = "receive", whose = "receiver", when = "not face_up" }
do = [{ op = "draw" }]
'''
    _, found = check(text, "TR005")
    assert [f.check for f in found] == ["TR005"]
    because = [b["en"] for b in found[0].details["because"]]
    assert "the guard (on.when)" in because


# ------------------------------------------------------------------------------------------------ the model
def test_effects_raise_the_events_the_interpreter_raises():
    """model/interp/ops.py: discard -> discard, give / take -> give_card, put_message and remove_message into an area
    -> add_message, kill -> die."""
    text = '''[[skill]]
id = "Zuo"
name = "做"
kinds = ["ActiveSkill"]
fight = "true"
do = [{ op = "discard" }, { op = "give", to = "target" }, { op = "take", from = "target" },
      { op = "put_message", from = "deck_top" }, { op = "remove_message", to = "area", into = "target" },
      { op = "remove_message", to = "hand" }, { op = "kill", who = "target" }, { op = "draw" }]
'''
    cat = loader.load(texts={"base.toml": _base(), "t.toml": HEAD.replace("SKILLS1", '["Zuo"]').replace("SKILLS2", "[]")
                             + text})
    got = [(x.kind, dict(x.roles)) for x in F.raises(cat.skills["Zuo"], True)]
    assert got == [("discard", {"discarder": "self"}), ("give_card", {"giver": "self", "taker": "target"}),
                   ("give_card", {"giver": "target", "taker": "self"}), ("add_message", {}), ("add_message", {}),
                   ("die", {"victim": "target"})]


# ------------------------------------------------------------------------------------------------ the real game
@pytest.fixture(scope="module")
def shipped():
    cat = loader.load()
    return cat, run(cat, Options(only=("triggers",)))


def test_the_shipped_catalogue(shipped):
    """Each finding read against the server:

    * TR004 知音 / 惊梦 (warning, baselined): skill/RoleCache.kt lists ZhiYin() before JingMeng(); Game.dealListeningSkill
      asks a player's skills in list order; skill/ZhiYin.kt execute draws at once and returns null, so skill/JingMeng.kt
      is asked in the same pass, after the draws — the rule book lets 程小蝶 choose the order (skills/base.md tip).
    * TR004 就计 / 城府 (a note, designed: intent jiuji-then-chengfu): skill/JiuJi.kt turns the role face up in
      ExecuteJiuJi; skill/ChengFu.kt, asked after it (RoleCache: JiuJi(), ChengFu()), finds the role face up and sets
      event.valid = false — the rule book's tip says so.
    * no TR003: every granted triggered skill of the server tests askWhom.alive (JiangHuLing2, JiangJiJiuJi2, JiuJi2,
      ShunShiErWei2, XiangJinSiSuo2) and the catalogue's guards say alive.
    """
    cat, res = shipped
    got = {(f.key, f.severity) for f in res.findings}
    assert got == {("TR004|ZhiYin|JingMeng|receive", "warning"), ("TR004|JiuJi|ChengFu|use_card", "note")}
    note = next(f for f in res.findings if f.severity == "note")
    assert note.details["intended_by"]["intent"] == "jiuji-then-chengfu"
    for f in res.findings:
        assert f.rules and all(r.file.endswith(".toml") and r.line >= 1 for r in f.rules)
    grants = [r for r in cat.skills.values() if r.has("TriggeredSkill") and not r.initial]
    assert sorted(r.id for r in grants) == ["JiangHuLing2", "JiangJiJiuJi2", "JiuJi2", "ShunShiErWei2",
                                            "XiangJinSiSuo2"]
    assert all("alive" in o.text for r in grants for o in r.on)


def test_the_shipped_catalogue_asks_few_questions():
    """The family's cost on the real game, in solver questions (the time target of `skillproof check`)."""
    from skillproof.checks.context import Context
    cat = loader.load()
    ctx = Context(cat, Options())
    T.Analysis(ctx).run()
    assert ctx.stats["queries"] <= 100
