"""A grant an effect hands to one player comes to that player right after the effect, and the message an effect sends
locked is locked on the player it names (issue 22, witnesses are games).

The server hands such a grant out inside the effect itself — ``r.skills += MustLockOne()`` as 冷血训练 resolves
(skill/LengXueXunLian.kt ExecuteLengXueXunLian.resolve), ``InvalidSkill`` to the player 先发制人 chose
(skill/XianFaZhiRen.kt), the grant of the alternative 调虎离山's user picked to its target (card/DiaoHuLiShan.kt) —
and 冷血训练 sends its card with ``listOf(lockPlayer)``, the player its user chose (resolveProtocol → OnSendCard). The
catalogue says so by the grant op's ``to`` naming one player (``self``, ``target``, ``chosen`` …) and the
``send_message`` op's ``lock``; both twins of the game (model/interp/game.GameRunner.gives_to_one and on_send,
checks/enc/game.GameEncoding.gives_to_one and on_send) require one give of the giver's site to each player the effect's
grant ops named, once per op that ran, with only gives and fires between (the design of ``gives_at_once``,
tests/test_gives_at_once.py), none without such an effect, and the send locked on that player alone. Before, four
witnesses of the shipped check used 冷血训练 with no MustLockOne and a send locking nobody, and one gave 调虎离山's other
grant than the one its resolution chose. Every case is compared with the z3 twin (test_witness_causes.check); the
refusals marked "before: accepted" were legal games for the code before (main 7f7a04e), the others it refused for
another reason (the send rules, the site's ``to`` or ``per_turn``).
"""
from __future__ import annotations

import random

import pytest

from skillproof.model import loader
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Trace

import gamekit as GK
import randgame as RG
from test_witness_causes import check, errors, send, seat, setup


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def give(site: str, giver: int, to: int, **args) -> dict:
    return {"event": "give", "site": site, "giver": giver, "seat": to, "args": args}


TO_SEND = [{"event": "turn", "seat": 0}, {"event": "draw"}, {"event": "window", "window": "main"},
           {"event": "window", "window": "send_start"}]
DIAO_BAO = {"cards": ["Diao_Bao"], "all_cards": False}
FIGHT = {"event": "window", "window": "fight", "in_front": 1}


def leng_xue(n: int = 2):
    st = setup(seat("sp_han_mei", ["LengXueXunLian"], identity="red"),
               seat("li_shu_yun", ["DingLun", "ZhenLi"], identity="blue"),
               *([seat("gao_qiao_zhi_zi", ["HuoXin"], identity="black")] if n == 3 else []))
    return st


def leng_xue_game(chosen: int, gives_to, locks, n: int = 2) -> list:
    use = {"event": "use", "seat": 0, "rule": "LengXueXunLian", "chosen": chosen}
    snd = dict(send(0, 1, d="right"), source="deck_top", locks=list(locks))
    return TO_SEND + [use] + [give("LengXueXunLian#0", 0, s) for s in gives_to] + [snd] + \
        [give("LengXueXunLian#1", 0, s, **DIAO_BAO) for s in range(n)] + [FIGHT]


@pytest.mark.parametrize("chosen, gives_to, locks, legal, why", [
    (1, [0], [1], True, None),
    (0, [0], [0], True, None),                     # the server lets her lock herself (canSendCard: no such check)
    (1, [], [1], False, "right after it, it goes to nobody"),           # 冷血训练 used, MustLockOne never given
    (1, [], [], False, "right after it, it goes to nobody"),            # the shipped witnesses' class (before: accepted)
    (1, [1], [1], False, "it goes to seat 1"),                          # given to another player than its user
    (1, [0, 0], [1], False, "it goes to seat 0"),                       # given twice
    (1, [0], [], False, "locked on the player it names"),               # the send locks nobody
    (1, [0], [0], False, "locked on the player it names"),              # … another one than chosen (before: accepted)
])
def test_leng_xue_xun_lian_gives_its_user_must_lock_one_and_locks_the_chosen_player(cat, chosen, gives_to, locks,
                                                                                    legal, why):
    r = check(cat, leng_xue(), leng_xue_game(chosen, gives_to, locks))
    assert r.legal is legal, errors(r)
    if why:
        assert any(why in e for e in errors(r)), errors(r)


def test_the_give_comes_right_after_the_effect(cat):
    """After the send (MustLockOne must be held as she sends), or with no effect just done: refused."""
    use = {"event": "use", "seat": 0, "rule": "LengXueXunLian", "chosen": 1}
    snd = dict(send(0, 1, d="right"), source="deck_top", locks=[1])
    bans = [give("LengXueXunLian#1", 0, s, **DIAO_BAO) for s in range(2)]
    late = TO_SEND + [use, snd] + bans + [give("LengXueXunLian#0", 0, 0), FIGHT]
    r = check(cat, leng_xue(), late)
    assert not r.legal and any("no such effect was just done" in e for e in errors(r)), errors(r)
    # a game that stops right after the use stops inside its step (as gives_at_once's ban before the send): excused;
    # one that stops after some of its gives must have given them right
    assert check(cat, leng_xue(), TO_SEND + [use]).legal
    assert check(cat, leng_xue(), TO_SEND + [use, give("LengXueXunLian#0", 0, 0)]).legal
    assert not check(cat, leng_xue(), TO_SEND + [use, give("LengXueXunLian#0", 0, 1)]).legal


def diao_hu(alt: int, site: int, to: int = 1, target: int = 1):
    st = setup(seat("li_shu_yun", ["DingLun", "ZhenLi"], identity="red"),
               seat("gao_qiao_zhi_zi", ["HuoXin"], identity="blue"))
    ev = [{"event": "turn", "seat": 0}, {"event": "draw"}, {"event": "window", "window": "main"},
          {"event": "play", "seat": 0, "card": "Diao_Hu_Li_Shan", "actual": "Diao_Hu_Li_Shan", "target": target},
          {"event": "resolve", "choices": {"0": {"alt": alt}}}]
    g = [give(f"Diao_Hu_Li_Shan#{site}", 0, to, **({"all_cards": True, "cards": []} if site == 1 else {}))] \
        if site is not None else []
    return st, ev + g + [{"event": "window", "window": "send_start"}]


@pytest.mark.parametrize("alt, site, to, legal", [          # every refusal here: before, accepted
    (0, 0, 1, True), (1, 1, 1, True),
    (0, 1, 1, False),        # the resolution chose 被无效, the give is 不能出牌 (RR001's witness before)
    (1, 0, 1, False),
    (0, 0, 0, False),        # to another player than the target
    (0, None, 1, False),     # nothing given
])
def test_diao_hu_li_shan_gives_the_alternative_chosen_to_its_target(cat, alt, site, to, legal):
    st, evs = diao_hu(alt, site, to)
    r = check(cat, st, evs)
    assert r.legal is legal, errors(r)


def xian_fa(chosen2: int, to: int):
    st = setup(seat("qian_min", ["XianFaZhiRen"], identity="red", face_up=False, area={"red": 1}),
               seat("li_shu_yun", ["DingLun", "ZhenLi"], identity="blue"),
               seat("gao_qiao_zhi_zi", ["HuoXin"], identity="black"))
    use = {"event": "use", "seat": 0, "rule": "XianFaZhiRen", "chosen": 0, "chosen2": chosen2,
           "choices": {"0": {"cls": "red"}, "2": {"skip": True}}}
    return st, TO_SEND + [send(0, 1, d="up"), FIGHT, use, give("XianFaZhiRen#0", 0, to), FIGHT]


@pytest.mark.parametrize("chosen2, to, legal", [(2, 2, True), (1, 1, True),
                                                (2, 1, False), (1, 0, False)])      # before: both refusals accepted
def test_xian_fa_zhi_ren_invalidates_the_player_it_chose(cat, chosen2, to, legal):
    st, evs = xian_fa(chosen2, to)
    r = check(cat, st, evs)
    assert r.legal is legal, errors(r)


def test_a_declined_may_hands_nothing_out(cat):
    """江湖令 declined (its ``may``): no 江湖令·弃情报 (the fixture of test_crosscheck_game_cases had it given anyway;
    before: accepted)."""
    st = setup(seat("wang_fu_gui", ["JiangHuLing"], identity="red"), seat("li_shu_yun", ["DingLun", "ZhenLi"],
                                                                         identity="blue"))
    for skip, gives, legal in ((True, 0, True), (True, 1, False), (False, 1, True), (False, 0, False)):
        evs = TO_SEND + [send(0, 1, d="up"),
                         {"event": "fire", "seat": 0, "rule": "JiangHuLing", "on": "send",
                          "choices": {"0": {"skip": skip}}}] + \
            [give("JiangHuLing#0", 0, 0, color="black")] * gives + [FIGHT]
        r = check(cat, st, evs)
        assert r.legal is legal, (skip, gives, errors(r))


def test_the_refusal_reads_in_both_languages(cat):
    tr = Trace.from_dict({"setup": leng_xue(), "events": leng_xue_game(1, [], [1]), "table": True})
    r = run(cat, tr)
    zh = [e.zh for _, e in r.errors]
    assert any("冷血训练的效果把冷血训练·必锁一人给座位0" in z for z in zh), zh
    assert GK.pinned_verdict(cat, Trace.from_dict(tr.to_dict())).verdict() is False


def test_random_games_with_their_one_player_gives_dropped_or_moved(cat):
    """Random legal games of the shipped catalogue (tests/randgame.py): each give of a grant to one player taken out,
    or sent to another seat, makes an illegal game the interpreter refuses — the twin with it; the games as played
    stay legal in both."""
    from skillproof.model.interp.grants import one_granted, site_of
    rng = random.Random(22)
    seen = refused = 0
    for _ in range(400):
        tr = RG.random_game(rng, cat, n_max=4, turns_max=2, p_keep_bad=0.0)
        if run(cat, Trace.from_dict(tr.to_dict())).errors:
            continue
        evs = tr.to_dict()["events"]
        ks = [k for k, e in enumerate(evs) if e["event"] == "give" and site_of(cat, e.get("site")) is not None
              and one_granted(cat, site_of(cat, e["site"]))]
        if not ks:
            continue
        seen += 1
        assert GK.pinned_verdict(cat, Trace.from_dict(tr.to_dict())).verdict() is True
        k = rng.choice(ks)
        n = len(tr.setup.seats)
        for bad in (evs[:k] + evs[k + 1:], evs[:k] + [dict(evs[k], seat=(evs[k]["seat"] + 1) % n)] + evs[k + 1:]):
            d = dict(tr.to_dict(), events=bad)
            r = run(cat, Trace.from_dict(d))
            assert r.errors, bad
            assert GK.pinned_verdict(cat, Trace.from_dict(d)).verdict() is False
            refused += 1
        if seen >= 25:
            break
    assert seen >= 10, seen


def jiu_ji(gives: int, after_resolve: bool = False) -> tuple:
    """李宁玉 (seat 1, face down) is the target of 试探: 就计 answers its use; its grant (就计·收牌) comes only for a real
    card — a condition the catalogue cannot say (the site's ``when = "unknown"``): at most one give, maybe none. It
    comes as 就计 resolves (skill/JiuJi.kt: ``event.card?.let { r.skills += … }`` before it returns to the card's
    resolution), so before the card resolves; ``after_resolve``: once it has (the old model's order)."""
    st = setup(seat("li_shu_yun", ["DingLun", "ZhenLi"], identity="red"),
               seat("li_ning_yu", ["JiuJi", "ChengFu", "YiXin"], identity="blue", face_up=False))
    evs = [{"event": "turn", "seat": 0}, {"event": "draw"}, {"event": "window", "window": "main"},
           {"event": "play", "seat": 0, "card": "Shi_Tan", "actual": "Shi_Tan", "target": 1},
           {"event": "fire", "seat": 1, "rule": "JiuJi", "on": "use_card", "choices": {"0": {"skip": False}}}]
    st["unknowns"] = {"JiuJi.gives0.when#0": gives > 0}       # a real card (the give's condition), or 诡诈's
    res = [{"event": "resolve", "choices": {"1": {"alt": 0}}}]
    gv = [give("JiuJi#0", 1, 1)] * gives
    return st, evs + (res + gv if after_resolve else gv + res)


@pytest.mark.parametrize("gives, legal", [(0, True), (1, True), (2, False)])
def test_a_site_with_an_unknown_condition_gives_at_most_what_the_effect_did(cat, gives, legal):
    st, evs = jiu_ji(gives)
    r = check(cat, st, evs)
    assert r.legal is legal, errors(r)


def test_the_grant_of_an_answer_to_a_card_comes_before_the_card_resolves(cat):
    """就计's grant after the 试探 it answered resolved (accepted before: no give came while a card was used)."""
    st, evs = jiu_ji(1, after_resolve=True)
    r = check(cat, st, evs)
    assert r.legal is False
    assert any("right after its effect" in e for e in errors(r)), errors(r)


@pytest.mark.parametrize("task, legal", [(None, False), ("killer", True)])
def test_every_black_identity_has_a_secret_task(cat, task, legal):
    """Game.start deals a secret task to every black identity (``if (identity == Black) tasks[secretIndex++]``), and
    an identity changes hands with its task: a black seat with none is no table of the server (14 of the shipped
    check's 59 witnesses had one, and ``ask`` answers read it as a black player who can win in no task's way)."""
    st = setup(seat("li_shu_yun", ["DingLun", "ZhenLi"], identity="red"),
               seat("gao_qiao_zhi_zi", ["HuoXin"], identity="black"))
    st["seats"][1]["task"] = task
    r = check(cat, st, [{"event": "turn", "seat": 0}, {"event": "draw"}])
    assert r.legal is legal, errors(r)
    if not legal:
        assert "every black identity has a secret task" in errors(r)
