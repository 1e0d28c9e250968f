"""A grant of ``lifetime = "resolution"`` is held from its give until the answers to the next card's finishing end
(issues 22/23: every witness a legal game; questions answered as the server plays).

The server: 将计就计 answers the UseCardEvent of a 误导 by adding its follow-up to its holder's list
(skill/JiangJiJiuJi.kt, ``askWhom.skills += JiangJiJiuJi2()``; 顺势而为 with 截获 and 就计 with 试探/威逼/利诱 alike,
ShunShiErWei.kt, JiuJi.kt); the card's ResolveCard goes on to OnFinishResolveCard (card/WuDao.kt resolveFunc), whose
onSwitch raises the FinishResolveCardEvent the follow-up answers — it draws and turns the role face down (将计就计),
or takes the card into the hand (就计) — and removes itself as it fires. Before, neither game twin ever put such a
grant in the list (model/interp/trace.Runner.on_give, checks/enc/game.GameEncoding.on_give), so its firing was
refused in every game ("seat 0 does not hold 将计就计·待发") and no question could reach the draw or the flip. Every case
is compared with the z3 twin (test_witness_causes.check).
"""
from __future__ import annotations

import pytest

from skillproof.model import loader

from test_witness_causes import check, errors, seat, send, setup


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def han_mei():
    return setup(seat("adult_han_mei", ["LianXin", "JiangJiJiuJi"], identity="red"),
                 seat("li_shu_yun", ["DingLun", "ZhenLi"], identity="blue"),
                 seat("gao_qiao_zhi_zi", ["HuoXin"], identity="black"))


# 韩梅 sends up to seat 1, who passes it back in front of her; she plays 误导 on seat 1 (the message is in front of
# her: the site's condition holds), 将计就计 answers the use and hands her its follow-up, the 误导 resolves
WU_DAO = [{"event": "turn", "seat": 0}, {"event": "draw", "n": 3}, {"event": "window", "window": "main"},
          {"event": "window", "window": "send_start"}, send(0, 1),
          {"event": "window", "window": "send", "in_front": 0},
          {"event": "window", "window": "fight", "in_front": 0},
          {"event": "play", "seat": 0, "card": "Wu_Dao", "target": 1},
          {"event": "fire", "seat": 0, "rule": "JiangJiJiuJi", "on": "use_card"},
          {"event": "give", "site": "JiangJiJiuJi#0", "giver": 0, "seat": 0, "args": {}},
          {"event": "resolve"}]
FOLLOW = {"event": "fire", "seat": 0, "rule": "JiangJiJiuJi2", "on": "card_resolved"}
ON = {"event": "window", "window": "fight", "in_front": 1}


def held(r, s: int) -> list:
    return [i.rule for i in r.state.seats[s].skills]


def test_the_follow_up_fires_as_the_card_finishes_resolving(cat):
    """将计就计·待发 answers the 误导's finishing: one card drawn, the role turned face down (before: refused)."""
    r = check(cat, han_mei(), WU_DAO + [FOLLOW])
    assert r.legal, errors(r)
    s = r.state.seats[0]
    assert (s.hand_count, s.face_up) == (3 + 1, False)


def test_held_between_its_give_and_the_end_of_that_resolution_then_gone(cat):
    r = check(cat, han_mei(), WU_DAO)
    assert r.legal, errors(r)
    assert "JiangJiJiuJi2" in held(r, 0)                 # the trace stops inside the card's finishing
    for tail in ([FOLLOW, ON], [ON]):                    # fired or not, gone once the answers to the finishing end
        r = check(cat, han_mei(), WU_DAO + tail)
        assert r.legal, errors(r)
        assert "JiangJiJiuJi2" not in held(r, 0)


def test_not_after_the_resolution_ended(cat):
    r = check(cat, han_mei(), WU_DAO + [ON, FOLLOW])
    assert not r.legal
    assert any("does not hold" in e for e in errors(r)), errors(r)


def test_not_carried_to_the_next_card(cat):
    """Not fired at the 误导's finishing, it does not answer the next card's: gone with the resolution it came in."""
    nxt = [ON, {"event": "play", "seat": 2, "card": "Wu_Dao", "target": 0}, {"event": "resolve"}, FOLLOW]
    r = check(cat, han_mei(), WU_DAO + nxt)
    assert not r.legal
    assert any("does not hold" in e for e in errors(r)), errors(r)


def test_not_before_the_card_resolved(cat):
    """The follow-up answers the finishing, not the use it was handed out on."""
    r = check(cat, han_mei(), WU_DAO[:-1] + [dict(FOLLOW, on="use_card")])
    assert not r.legal


def test_jiu_ji_takes_the_card_that_targeted_her(cat):
    """就计·收牌: the 试探 that named face-down 李宁玉 goes into her hand once it has resolved (JiuJi2: the card added to
    her hand, discardAfterResolve = false). The site's condition (a real card) is an ``unknown`` the setup fixes."""
    st = setup(seat("bai_cang_lang", ["BoAi"], identity="red", hand=3),
               seat("li_ning_yu", ["JiuJi", "ChengFu", "YiXin"], identity="blue", face_up=False),
               seat("gao_qiao_zhi_zi", ["HuoXin"], identity="black"))
    st["unknowns"] = {"JiuJi.gives0.when#0": True}
    evs = [{"event": "turn", "seat": 0}, {"event": "draw", "n": 3}, {"event": "window", "window": "main"},
           {"event": "play", "seat": 0, "card": "Shi_Tan", "target": 1},
           {"event": "fire", "seat": 1, "rule": "JiuJi", "on": "use_card"},
           {"event": "give", "site": "JiuJi#0", "giver": 1, "seat": 1, "args": {}},
           {"event": "resolve"}]
    without = check(cat, st, evs + [{"event": "window", "window": "send_start"}])
    r = check(cat, st, evs + [{"event": "fire", "seat": 1, "rule": "JiuJi2", "on": "card_resolved"},
                              {"event": "window", "window": "send_start"}])
    assert without.legal and r.legal, (errors(without), errors(r))
    assert r.state.seats[1].hand_count == without.state.seats[1].hand_count + 1
    assert "JiuJi2" not in held(r, 1)


# ------------------------------------------------------------------------------------------ asked as the server plays
@pytest.mark.parametrize("text, follow", [
    ("将计就计会让成年韩梅摸牌吗？", "JiangJiJiuJi2"),           # JiangJiJiuJi2.execute: askWhom.draw(1)
    ("将计就计会让成年韩梅面朝下吗？", "JiangJiJiuJi2"),         # … g.playerSetRoleFaceUp(askWhom, false)
    ("顺势而为会让成年小九摸牌吗？", "ShunShiErWei2"),            # ShunShiErWei2 alike, after a 截获
])
def test_an_effect_done_by_the_follow_up_is_answered_with_its_game(cat, text, follow):
    """Before: *unknown* (no game could fire the follow-up). Now *yes*, with a game in which the follow-up answers the
    card's finishing; the interpreter replays it."""
    from askkit import assert_replays, outcome
    from skillproof.checks import ask as Q
    got, shown, res = outcome(cat, Q.Session(cat), text)
    assert got == "yes", shown
    assert_replays(cat, res)
    evs = res.witness["trace"]["events"]
    assert any(e["event"] == "fire" and e.get("rule") == follow and e.get("on") == "card_resolved" for e in evs), evs
