"""A grant an effect hands to every player comes to every player at once (issue 22, witnesses are games): 借车运货,
强令, 冷血训练's ban, 变则通's declaration and 诱敌深入's receive rule are handed out in one
``g.players.forEach { it.skills += … }`` of the server (skill/JieCheYunHuo.kt, QiangLing.kt, LengXueXunLian.kt
resolveProtocol, BianZeTong.kt, YouDiShenRu.kt executeProtocol) — every seat, the user and the dead included. The
catalogue says so by the grant op's ``to = "all"``; both twins of the game (model/interp/game.GameRunner.gives_at_once,
checks/enc/game.GameEncoding.gives_at_once) require one run of gives right after the effect — consecutive, every seat
once, one site and giver, the same arguments; only gives, fires and the effect's own send between — as many runs as
the effect's grant ops ran, and none without. Before, a witness gave the grant to one seat only (40 of the shipped
check's 59 game witnesses). Each case is compared with the z3 twin (gamekit.pinned_verdict); the refusals fail on the
code before.
"""
from __future__ import annotations

import copy

import pytest

from skillproof.model import loader
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Trace

import gamekit as GK
from test_witness_causes import check, errors, send, seat, setup


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def give(site: str, giver: int, to: int, **args) -> dict:
    return {"event": "give", "site": site, "giver": giver, "seat": to, "args": args}


WU_DAO = {"cards": ["Wu_Dao"], "all_cards": False}
DIAO_BAO = {"cards": ["Diao_Bao"], "all_cards": False}
TO_SEND = [{"event": "turn", "seat": 0}, {"event": "draw"}, {"event": "window", "window": "main"},
           {"event": "window", "window": "send_start"}]


def jie_che(n: int = 3):
    """火车司机 (seat 0) sends to seat 1; 借车运货 answers the send."""
    st = setup(seat("huo_che_si_ji", ["JieCheYunHuo", "WorkersAreKnowledgable"], identity="red"),
               seat("li_shu_yun", ["DingLun", "ZhenLi"], identity="blue"),
               *([seat("gao_qiao_zhi_zi", ["HuoXin"], identity="black")] if n == 3 else []))
    return st, TO_SEND + [send(0, 1, d="right"),
                          {"event": "fire", "seat": 0, "rule": "JieCheYunHuo", "on": "send"}]


FIGHT = {"event": "window", "window": "fight", "in_front": 1}


def test_every_seat_gets_jie_che_yun_huo_s_ban_at_once(cat):
    st, evs = jie_che()
    r = check(cat, st, evs + [give("JieCheYunHuo#0", 0, s, **WU_DAO) for s in range(3)] + [FIGHT])
    assert r.legal, errors(r)


@pytest.mark.parametrize("seats", [[1], [0, 1], [2, 0]])
def test_a_ban_to_every_player_given_to_some_seats_only_is_refused(cat, seats):
    st, evs = jie_che()
    r = check(cat, st, evs + [give("JieCheYunHuo#0", 0, s, **WU_DAO) for s in seats] + [FIGHT])
    assert not r.legal
    assert any("hands its grant to every player at once" in e for e in errors(r)), errors(r)


def test_the_dead_get_it_too(cat):
    """The server walks every seat of g.players, the dead ones too."""
    st, evs = jie_che(3)
    st["seats"][2].update(alive=False, hand_count=0)
    for seats, legal in (([0, 1], False), ([0, 1, 2], True)):
        r = check(cat, st, evs + [give("JieCheYunHuo#0", 0, s, **WU_DAO) for s in seats] + [FIGHT])
        assert r.legal is legal, errors(r)


def test_the_effect_done_hands_it_out_right_after_it(cat):
    st, evs = jie_che()
    r = check(cat, st, evs + [FIGHT])                      # no give at all
    assert not r.legal and any("not handed out right after it" in e for e in errors(r)), errors(r)
    late = evs + [FIGHT] + [give("JieCheYunHuo#0", 0, s, **WU_DAO) for s in range(3)]
    r = check(cat, st, late)                               # after the message moved on
    assert not r.legal and any("not handed out right after it" in e for e in errors(r)), errors(r)
    split = evs + [give("JieCheYunHuo#0", 0, 0, **WU_DAO), FIGHT, give("JieCheYunHuo#0", 0, 1, **WU_DAO),
                   give("JieCheYunHuo#0", 0, 2, **WU_DAO)]
    r = check(cat, st, split)                              # a window between two of its gives
    assert not r.legal, errors(r)


def test_no_run_without_the_effect(cat):
    st, evs = jie_che()
    r = check(cat, st, evs[:-1] + [give("JieCheYunHuo#0", 0, s, **WU_DAO) for s in range(3)] + [FIGHT])
    assert not r.legal, errors(r)
    twice = evs + [give("JieCheYunHuo#0", 0, s, **WU_DAO) for s in range(3)] * 2 + [FIGHT]
    assert not check(cat, st, twice).legal


def qiang_ling(skip: bool):
    st = setup(seat("zhang_yi_ting", ["QiangLing"], identity="red"), seat("li_shu_yun", ["DingLun", "ZhenLi"],
                                                                         identity="blue"))
    return st, TO_SEND + [send(0, 1, d="right"),
                          {"event": "fire", "seat": 0, "rule": "QiangLing", "on": "send", "choices": {"0": {"skip": skip}}}]


@pytest.mark.parametrize("skip,gives,legal", [
    (True, 0, True),         # 强令 declined: nothing handed out
    (True, 2, False),        # … and a ban handed out anyway
    (False, 2, True),
    (False, 0, False),       # declared, and nobody got the ban
])
def test_qiang_ling_declined_hands_out_nothing(cat, skip, gives, legal):
    st, evs = qiang_ling(skip)
    ban = {"cards": ["Jie_Huo"], "all_cards": False}
    r = check(cat, st, evs + [give("QiangLing#0", 0, s, **ban) for s in range(gives)] + [FIGHT])
    assert r.legal is legal, errors(r)


def test_qiang_ling_bans_the_same_cards_for_everyone(cat):
    st, evs = qiang_ling(False)
    r = check(cat, st, evs + [give("QiangLing#0", 0, 0, cards=["Jie_Huo"], all_cards=False),
                              give("QiangLing#0", 0, 1, cards=["Wu_Dao"], all_cards=False), FIGHT])
    assert not r.legal and any("the same grant" in e for e in errors(r)), errors(r)


def leng_xue():
    """SP韩梅 (seat 0) uses 冷血训练 at 传递阶段开始时: she must lock one player (her own grant), sends the deck's top
    card, and every seat is banned from 调包 as it is sent (the site's ``at = "send"``)."""
    st = setup(seat("sp_han_mei", ["LengXueXunLian"], identity="red"), seat("li_shu_yun", ["DingLun", "ZhenLi"],
                                                                            identity="blue"))
    use = [{"event": "use", "seat": 0, "rule": "LengXueXunLian", "chosen": 1}, give("LengXueXunLian#0", 0, 0)]
    snd = dict(send(0, 1, d="right"), source="deck_top", locks=[1])
    return st, use, snd


def test_leng_xue_xun_lian_bans_every_seat_as_it_sends(cat):
    st, use, snd = leng_xue()
    ok = TO_SEND + use + [snd] + [give("LengXueXunLian#1", 0, s, **DIAO_BAO) for s in range(2)] + [FIGHT]
    r = check(cat, st, ok)
    assert r.legal, errors(r)
    r = check(cat, st, TO_SEND + use + [snd, give("LengXueXunLian#1", 0, 1, **DIAO_BAO), FIGHT])
    assert not r.legal, errors(r)
    # a game that stops before her message is sent owes nothing yet
    r = check(cat, st, TO_SEND + use)
    assert r.legal, errors(r)


def test_you_di_shen_ru_and_bian_ze_tong_reach_every_seat(cat):
    st = setup(seat("chen_da_er", ["BianZeTong"], identity="red", hand=1),
               seat("bian_yun_jiang", ["YouDiShenRu", "JianDiFengXing"], identity="blue", hand=1))
    bzt = [{"event": "turn", "seat": 0}, {"event": "draw"}, {"event": "window", "window": "main"},
           {"event": "window", "window": "send_start"},
           {"event": "fire", "seat": 0, "rule": "BianZeTong", "on": "send_phase_start", "choices": {"1": {"skip": False}}}]
    decl = {"A": "Jie_Huo", "B": "Diao_Bao"}
    ydsr = [{"event": "use", "seat": 1, "rule": "YouDiShenRu"}]
    for seats_b, seats_y, legal in (([0, 1], [0, 1], True), ([0], [0, 1], False), ([0, 1], [1], False)):
        evs = bzt + [give("BianZeTong#0", 0, s, **decl) for s in seats_b] + ydsr + \
            [give("YouDiShenRu#0", 1, s) for s in seats_y]
        r = check(cat, st, evs)
        assert r.legal is legal, (seats_b, seats_y, errors(r))


def test_a_game_trace_stays_readable(cat):
    """The refusal names the seats reached, in both languages."""
    st, evs = jie_che()
    tr = Trace.from_dict({"setup": copy.deepcopy(st), "events": copy.deepcopy(evs + [give("JieCheYunHuo#0", 0, 1,
                                                                                          **WU_DAO), FIGHT]),
                          "table": True})
    r = run(cat, tr)
    zh = [e.zh for _, e in r.errors]
    assert any("座位0、1、2" in z and "只给了座位1" in z for z in zh), zh
    assert GK.pinned_verdict(cat, Trace.from_dict(tr.to_dict())).verdict() is False


def test_a_grant_to_every_player_is_not_handed_out_after_the_message_is_sent(cat):
    """Only the effect that sends the message (冷血训练's ban) may hand its grant out as the message goes: 变则通's
    declaration, done at 传递阶段开始时, is handed out right after it — a send between settles it, and gives after the
    send are refused (interp GameRunner.gives_at_once, twin GameEncoding.gives_at_once). ``--target game`` #134 (seed
    35: any owed effect, not only a sending one, let the send pass without settling) survived: every case sent only
    after the gives, or with the sending effect alone owed."""
    st = setup(seat("chen_da_er", ["BianZeTong"], identity="red", hand=2),
               seat("bian_yun_jiang", ["YouDiShenRu", "JianDiFengXing"], identity="blue", hand=1))
    bzt = TO_SEND + [{"event": "fire", "seat": 0, "rule": "BianZeTong", "on": "send_phase_start",
                      "choices": {"1": {"skip": False}}}]
    decl = {"A": "Jie_Huo", "B": "Diao_Bao"}
    gives = [give("BianZeTong#0", 0, s, **decl) for s in (0, 1)]
    ok = check(cat, st, bzt + gives + [send(0, 1, d="right")])
    assert ok.legal, errors(ok)
    late = check(cat, st, bzt + [send(0, 1, d="right")] + gives)
    assert not late.legal and any("not handed out right after it" in e for e in errors(late)), errors(late)
