"""The end-of-main-phase reminder (issue 23, item 4): the catalogue keys ``remind`` and ``main`` as the loader reads
them, the interpreter's decision on the shipped catalogue as the server plays it (handler/EndMainPhaseTos.kt,
each skill's mainPhaseNeedNotify), the decision's moment, and the ask language's ``remind G`` in both languages.
The twins' agreement on random states and traces is tests/test_crosscheck*.py's (crosskit.Harness: ``remind``)."""
from __future__ import annotations

import pytest

from skillproof.checks import ask as Q
from skillproof.model import loader, turn as TW
from skillproof.model import narrate as N
from skillproof.model.interp.decide import decide
from skillproof.model.interp.remind import remind_parts, reminds, usable_at_end
from skillproof.model.interp.windows import at_decision
from skillproof.model.state import Seat, SkillInst, State

from test_ask import holds_in_interpreter

BASE = '''
[[card]]
id = "A"
name = "甲"
phases = ["main"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[character]]
id = "holder"
name = "持有者"
hidden = false
female = false
skills = ["S"]
'''


@pytest.fixture(scope="module")
def cat():
    return loader.load(None)


@pytest.fixture(scope="module")
def sess(cat):
    return Q.Session(cat)


def load_one(rule: str):
    return loader.load(texts={"x.toml": BASE + rule})


def errors_of(rule: str) -> list:
    with pytest.raises(loader.CatalogueErrors) as e:
        load_one(rule)
    return [(x.key, x.line, str(x)) for x in e.value.errors]


# ------------------------------------------------------------------------------------------- the catalogue keys
def test_the_default_reminder_is_the_servers():
    """skill/Skill.kt: ``open fun mainPhaseNeedNotify(r) = r.getSkillUseCount(skillId) == 0``."""
    cat = load_one('[[skill]]\nid = "S"\nname = "技"\nkinds = ["MainPhaseSkill"]\nlimit = "turn"\n')
    r = cat.skills["S"]
    from skillproof.model.expr import to_text
    assert to_text(r.remind) == "not used" and to_text(r.main) == "true"
    st = State(seats=[Seat("holder", skills=[SkillInst("S")]), Seat("plain")], turn=0, window="main")
    assert reminds(cat, st, 0) == {"remind": True, "skills": ["S"]}
    st.seats[0].skills[0].used = True
    assert reminds(cat, st, 0) == {"remind": False, "skills": []}


@pytest.mark.parametrize("rule, key, says", [
    ('[[skill]]\nid = "S"\nname = "技"\nkinds = ["ActiveSkill"]\nfight = "true"\nremind = "not used"\n',
     "remind", "MainPhaseSkill"),
    ('[[skill]]\nid = "S"\nname = "技"\nkinds = ["MainPhaseSkill"]\nremind = 3\n', "remind", "expression"),
    ('[[skill]]\nid = "S"\nname = "技"\nkinds = ["MainPhaseSkill"]\nremind = "not usd"\n', "remind", "used"),
    ('[[skill]]\nid = "S"\nname = "技"\nkinds = ["MainPhaseSkill"]\nremind = "message_dir == up"\n', "remind",
     "message_dir"),
    ('[[skill]]\nid = "S"\nname = "技"\nkinds = ["TriggeredSkill"]\nmain = "true"\n', "main", "ActiveSkill"),
    ('[[skill]]\nid = "S"\nname = "技"\nkinds = ["ActiveSkill"]\nfight = "true"\nmain = "hand_count > 0"\n', "main",
     "main phase"),
])
def test_a_wrong_remind_or_main_is_a_located_error(rule, key, says):
    import skillproof.model.lang as lang
    text = BASE + rule
    line = next(n for n, x in enumerate(text.split("\n"), 1) if x.startswith(f"{key} = "))
    with lang.using("en"):
        errs = errors_of(rule)
    assert any(k == key and ln == line and says in text for k, ln, text in errs), errs


def test_every_shipped_mainphaseskill_says_its_reminder(cat):
    mains = [r for r in cat.skills.values() if r.has("MainPhaseSkill")]
    assert len(mains) == 14                       # the server's 14 MainPhaseSkill classes, all initial
    assert all("remind" in r.key_locs and r.initial and not r.is_grant for r in mains)
    assert [r.id for r in cat.skills.values() if r.remind is not None and not r.has("MainPhaseSkill")] == []


# ------------------------------------------------------------------------------------ the decision, as the server
def qin(hand=1, black=0, used_pm=False):
    pm = SkillInst("PinMingSanLang")
    pm.used = used_pm
    return State(seats=[Seat("qin_wu_ming", skills=[pm, SkillInst("YuSiWangPo")], hand_count=hand, black_messages=black),
                        Seat("pei_ling", skills=[SkillInst("JiaoJi")], hand_count=0)], turn=0, window="main")


def test_shipped_reminders_as_the_server(cat):
    # YuSiWangPo.kt: r.cards.size > 1; PinMingSanLang.kt: a pure black card and fewer than two black messages
    assert reminds(cat, qin(hand=2), 0) == {"remind": True, "skills": ["PinMingSanLang", "YuSiWangPo"]}
    parts = remind_parts(cat, qin(hand=1, black=2, used_pm=False), 0)
    assert parts == {"PinMingSanLang": {"remind": False, "usable": True},
                     "YuSiWangPo": {"remind": False, "usable": True}}
    # JiaoJi.kt: only another living player's hand counts for the reminder; executeProtocol takes her own
    st = State(seats=[Seat("pei_ling", skills=[SkillInst("JiaoJi")], hand_count=1), Seat("qin_wu_ming", hand_count=0)],
               turn=0, window="main")
    assert remind_parts(cat, st, 0) == {"JiaoJi": {"remind": False, "usable": True}}
    st.seats[1].hand_count = 2
    assert remind_parts(cat, st, 0) == {"JiaoJi": {"remind": True, "usable": True}}


def test_an_invalidated_skill_never_prompts_and_the_prompt_comes_once(cat):
    st = qin(hand=3)
    for inst in st.seats[0].skills:
        inst.invalid = True                        # InvalidSkill is no MainPhaseSkill (note L92)
    assert reminds(cat, st, 0)["remind"] is False
    assert all(not usable_at_end(cat, st, 0, i) for i in st.seats[0].skills)
    assert decide(cat, qin(hand=3), {"decision": "remind", "already": True})["remind"] is False  # mainPhaseAlreadyNotify


def test_the_decision_is_taken_by_the_turn_player_in_the_main_phase(cat):
    assert TW.DECISION_WINDOWS["remind"] == (("main",), "turn")
    st = qin()
    assert at_decision(st, "remind", 0) and not at_decision(st, "remind", 1)
    st.window = "fight"
    assert not at_decision(st, "remind", 0)


def test_the_decision_about_one_rule_and_its_narration(cat):
    st = qin(hand=1)
    q = {"decision": "remind", "seat": 0, "rule": "YuSiWangPo"}
    ans = decide(cat, st, q)
    assert ans["prompts"] is False and ans["usable_now"] is True and ans["remind"] is True   # 拼命三郎 prompts
    tr = N.narrate(cat, st, q)
    assert tr.agrees and tr.answer == ans and any(s.rule == "YuSiWangPo" for s in tr.steps)


# -------------------------------------------------------------------------------------------------- ask
@pytest.mark.parametrize("text, answer", [
    ("出牌阶段结束时会提醒我发动鱼死网破吗？", "yes"),
    ("秦无命只有一张手牌时，结束出牌阶段会提醒他发动鱼死网破吗？", "no"),          # YuSiWangPo.kt: cards.size > 1
    ("秦无命有两张黑色情报时，出牌阶段结束时不会提醒拼命三郎吗？", "yes"),          # PinMingSanLang.kt: black < 2
    ("没有手牌时，结束出牌阶段会提醒新思潮吗？", "no"),                             # XinSiChao.kt: cards.isNotEmpty()
    ("结束出牌阶段时会提醒王田香发动禁闭吗", "yes"),                                # the default: not used
    ("can 秦无命 use 鱼死网破 and not remind", "yes"),       # usable with one hand card, and nothing prompts
    ("is 秦无命 prompted about 鱼死网破 when ending the main phase where hand_count == 1?", "no"),
    ("never remind 拼命三郎 where black_messages >= 2", "yes"),
    ("can 白沧浪 use 博爱 and not remind 博爱", "no"),        # BoAi.kt: the default, exactly when it can be used
])
def test_remind_questions_are_answered_as_the_server(sess, text, answer):
    res = sess.ask(text)
    assert res.answer == answer, res.headline
    holds_in_interpreter(sess.cat, res)


def test_remind_is_read_at_its_moment_and_names_a_mainphaseskill(cat):
    with pytest.raises(Q.QueryError) as e:
        Q.parse(cat, "传递阶段结束时会提醒我发动鱼死网破吗？")
    assert "出牌阶段" in e.value.msg or "main phase" in e.value.msg
    with pytest.raises(Q.QueryError) as e:
        Q.parse(cat, "can anyone remind 截获")
    assert "截获" in e.value.msg
    with pytest.raises(Q.QueryError):
        Q.parse(cat, "can anyone remind 应变")          # 应变 is no MainPhaseSkill
    q = Q.parse(cat, "出牌阶段结束时会提醒秦无命发动鱼死网破吗？")
    assert (q.subject, q.claim.kind, q.claim.rule) == ("qin_wu_ming", "remind", "YuSiWangPo")
    assert [g.window for g in q.givens if g.kind == "window"] == ["main"]
