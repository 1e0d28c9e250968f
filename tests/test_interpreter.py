"""The reference interpreter, one rule at a time, on scenarios built from real characters."""
from __future__ import annotations

import dataclasses

import pytest

from skillproof.model.interp.bans import banned, banned_all
from skillproof.model.interp.conversion import conversion
from skillproof.model.interp.decide import decide, matches
from skillproof.model.interp.draw import draw_count
from skillproof.model.interp.grants import invalidate
from skillproof.model.interp.lifetime import turn_end
from skillproof.model.interp.plays import can_play
from skillproof.model.interp.receive import receive, receive_parts
from skillproof.model.interp.result import game_result
from skillproof.model.interp.send import send_allowed, send_in_force
from skillproof.model.interp.skip import could_act_dying, could_act_fight, skip_dying, skip_fight
from skillproof.model.interp.snapshot import reachable
from skillproof.model import loader
from skillproof.model.state import Seat, SkillInst, State


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def seat(cat, char, **kw):
    s = Seat(char, skills=[SkillInst(r) for r in cat.characters[char].skills])
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def bzt(A, B, giver=1):
    return SkillInst("BianZeTong2", {"A": A, "B": B}, giver=giver, site="BianZeTong#0")


def via(cat, st, actual, declared):
    c = conversion(cat, st, 0, actual, declared)
    return c.ok, (st.seats[0].skills[c.via].rule if c.via is not None else None)


# --------------------------------------------------------------------------- conversion (note L109-113)
def test_yingbian_alone(cat):
    st = State([seat(cat, "sp_li_ning_yu")])
    assert via(cat, st, "Jie_Huo", "Wu_Dao") == (True, "YingBian")       # rule 3
    assert via(cat, st, "Jie_Huo", "Jie_Huo") == (True, None)            # rule 2: no conversion
    assert via(cat, st, "Jie_Huo", "Po_Yi") == (False, None)


def test_bianzetong_vetoes_yingbian(cat):
    me = seat(cat, "sp_li_ning_yu")
    me.skills.append(bzt("Jie_Huo", "Po_Yi"))
    st = State([me, seat(cat, "chen_da_er")], turn=1)
    assert reachable(cat, st) == []
    assert via(cat, st, "Jie_Huo", "Wu_Dao") == (False, None)            # rule 1: vetoed
    assert via(cat, st, "Jie_Huo", "Jie_Huo") == (False, None)
    assert via(cat, st, "Jie_Huo", "Po_Yi") == (True, "BianZeTong2")


def test_must_conversion_beats_optional(cat):
    me = seat(cat, "sp_li_ning_yu")
    me.skills.append(bzt("Jie_Huo", "Wu_Dao"))
    st = State([me, seat(cat, "chen_da_er")], turn=1)
    assert via(cat, st, "Jie_Huo", "Wu_Dao") == (True, "BianZeTong2")


def test_hunshuimoyu_converts_any_card_once(cat):
    me = seat(cat, "sp_a_fu_luo_la")
    st = State([me])
    for card in ("Cheng_Qing", "Jie_Huo", "Ping_Heng"):
        assert via(cat, st, card, "Diao_Hu_Li_Shan") == (True, "HunShuiMoYu")
        assert via(cat, st, card, "Yu_Qin_Gu_Zong") == (True, "HunShuiMoYu")
    used_up = dataclasses.replace(me, skills=[s for s in me.skills if s.rule != "HunShuiMoYu"])
    st2 = State([used_up])
    assert reachable(cat, st2) == []          # consumed skills may be gone
    assert via(cat, st2, "Jie_Huo", "Diao_Hu_Li_Shan") == (False, None)


def test_face_down_initial_conversions_do_not_apply(cat):
    st = State([seat(cat, "sp_li_ning_yu", face_up=False)])
    assert via(cat, st, "Jie_Huo", "Wu_Dao") == (False, None)
    assert "public role" in " ".join(reachable(cat, st))       # and SP李宁玉 is never face down


# ------------------------------------------------------------------------------- bans (note L101)
def test_qiangling_ban_looks_at_the_declared_type(cat):
    me = seat(cat, "sp_li_ning_yu", hand_count=2)
    me.skills.append(SkillInst("CannotPlayCard", {"cards": ("Jie_Huo",), "all_cards": False}, giver=1,
                               site="QiangLing#0"))
    st = State([me, seat(cat, "zhang_yi_ting")], turn=1, sender=1)     # 强令 bans when 张一挺 sends
    assert reachable(cat, st) == []
    assert banned(cat, st, 0, "Jie_Huo")
    assert not can_play(cat, st, 0, "Jie_Huo", "Jie_Huo")
    assert can_play(cat, st, 0, "Jie_Huo", "Wu_Dao")                 # 应变 sidesteps the ban


def test_jinbi_bans_everything_and_invalidates(cat):
    st = State([seat(cat, "sp_li_ning_yu", hand_count=3), seat(cat, "wang_tian_xiang")], turn=1)
    st = invalidate(cat, st, 0)
    st.seats[0].skills.append(SkillInst("CannotPlayCard", {"cards": (), "all_cards": True}, giver=1, site="JinBi#1"))
    assert reachable(cat, st) == []
    assert banned(cat, st, 0, "Cheng_Qing") and banned_all(cat, st, 0)
    assert via(cat, st, "Jie_Huo", "Wu_Dao") == (False, None)           # 应变 wrapped
    assert skip_fight(cat, st, 0)                                     # cards, but all banned; skills gone


# ---------------------------------------------------------------------------- receive (note L117-121)
def test_youdishenru_with_xingelianluo(cat):
    me = seat(cat, "duan_mu_jing", identity="red")
    me.skills += [SkillInst("YouDiShenRu2", giver=1, site="YouDiShenRu#0"),
                  SkillInst("XinGeLianLuo2", giver=2, site="XinGeLianLuo#0")]
    st = State([me, seat(cat, "bian_yun_jiang"), seat(cat, "xiao_ling_dang")], turn=2, sender=2, in_front=0,
               message=frozenset({"red"}))
    assert reachable(cat, st) == []
    assert receive_parts(cat, st, 0) == (True, True)
    assert receive(cat, st, 0) == "must"                             # must wins
    st.message = frozenset({"blue"})
    assert receive(cat, st, 0) == "cannot"
    st.seats[0].locked = True
    assert receive(cat, st, 0) == "must"                             # locked players must receive


# --------------------------------------------------------------------- send groups (note L125-129)
def test_qiangyingxialing_and_invalidation_fallback(cat):
    st = State([seat(cat, "sun_shou_mo")], message_lockable=False, message_dir="left")
    g = "SendMessageCanLockSkill"
    assert send_in_force(cat, st, 0, g) == 1                         # 强硬下令, after 详尽思索
    assert send_allowed(cat, st, 0, g, "left", 1)                     # may lock without a lock mark
    wrapped = invalidate(cat, st, 0)
    assert send_in_force(cat, wrapped, 0, g) is None                  # back to the default rule
    assert not send_allowed(cat, wrapped, 0, g, "left", 1)
    assert send_allowed(cat, State([seat(cat, "lao_bie")]), 0, "SendMessageDirectionSkill", "up", 0)


# -------------------------------------------------------------------------- skipping (note L94-97)
def test_skip_rules(cat):
    st = State([seat(cat, "bai_kun_shan", hand_count=0)])             # 毒计 needs face down
    assert skip_fight(cat, st, 0) and not could_act_fight(cat, st, 0)
    assert not skip_dying(cat, st, 0)                               # asked: has a non-main ActiveSkill
    assert not could_act_dying(cat, st, 0)                          # …that cannot be used then
    hidden = State([seat(cat, "li_ning_yu", face_up=False, ever_face_up=False)])
    assert not skip_fight(cat, hidden, 0)                           # never face up: always asked
    assert skip_fight(cat, invalidate(cat, hidden, 0), 0)         # …unless every skill is invalidated
    gu = State([seat(cat, "gu_xiao_meng", face_up=False, ever_face_up=True, hand_count=0)])
    assert not skip_fight(cat, gu, 0) and could_act_fight(cat, gu, 0)   # 集智 while face down


# --------------------------------------------------------------------------- draw count (note L143-145)
def test_draw_count_fold(cat):
    cp = State([seat(cat, "cp_han_mei"), seat(cat, "sp_xiao_jiu")])
    assert draw_count(cat, cp, 0) == cat.rules.draw_base + 1        # a 小九 is in the game
    cp.seats[1].alive = False
    assert draw_count(cat, cp, 0) == cat.rules.draw_base
    train = State([seat(cat, "huo_che_si_ji", red_messages=1, blue_messages=1, true_messages=2)])
    assert draw_count(cat, train, 0) == cat.rules.draw_base + 2


# ----------------------------------------------------------------------- results (note L131-137)
def test_weisheng_and_dead_owners(cat):
    st = State([seat(cat, "gu_xiao_meng", identity="red"), seat(cat, "lao_han", identity="none")])
    d, w = game_result(cat, st, {0}, {0})
    assert w == {0, 1}
    st.seats[0].alive = False                                          # a dead owner's initial skill is skipped
    assert game_result(cat, st, {0}, {0})[1] == {0}


# --------------------------------------------------------------- invalidation and turn end (note L82-85)
def test_turn_end_restores_then_drops(cat):
    me = seat(cat, "sp_li_ning_yu")
    me.skills.append(bzt("Jie_Huo", "Po_Yi"))
    st = invalidate(cat, State([me, seat(cat, "chen_da_er")], turn=1), 0)
    assert [i.invalid for i in st.seats[0].skills] == [True, True, False]   # only initial skills
    after = turn_end(cat, st)
    assert [(i.rule, i.invalid) for i in after.seats[0].skills] == [("YingBian", False), ("YouDao", False)]


def test_reachability_of_grants(cat):
    me = seat(cat, "sp_li_ning_yu")
    me.skills.append(bzt("Jie_Huo", "Jie_Huo"))
    st = State([me, seat(cat, "chen_da_er")], turn=1)
    assert any("break the condition" in w and "A differs from B" in w for w in reachable(cat, st))  # A != B
    me.skills[-1] = bzt("Jie_Huo", "Po_Yi")
    st.turn = 0
    assert any("does not meet the condition" in w for w in reachable(cat, st))  # only in 陈大耳's turn
    st.turn = 1
    me.skills.append(bzt("Po_Yi", "Wu_Dao"))
    assert any("at most 1" in w for w in reachable(cat, st))       # once per turn


def test_decide_and_matches(cat):
    st = State([seat(cat, "sp_li_ning_yu")])
    ans = decide(cat, st, {"decision": "conversion", "actual": "Jie_Huo", "declared": "Wu_Dao"})
    assert ans["via"] == "YingBian" and matches(ans, {"ok": True})
    assert not matches(ans, {"ok": False})
    with pytest.raises(ValueError):
        decide(cat, st, {"decision": "nope"})
