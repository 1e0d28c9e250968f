"""The effect ops added for issue 23 (effects as data), each on the shipped rule it was added for, in a game the
server can play: the interpreter (model/interp/ops.py) does what the server's Kotlin does — cited in each test — and
its z3 twin (checks/enc/ops.py) gives the same verdict and the same table after every event (tests/gamekit.py).

``take_message`` (定论, 搜缉, 妙手, 应变自如), ``receive three = to_hand`` (定论), ``replace_message`` from a message
area (妙手), ``draw from`` (就计·收牌, 惑心), ``as`` / ``where`` / ``up_to`` (交际, 羁绊, 猴子窃信, 妙笔巧辩,
江湖令·弃情报), ``each`` / ``repeat`` (共焚, 风云变幻, 广发报, 后来人); and 试探 / 密令 no longer giving the card away."""
from __future__ import annotations

import pytest

from skillproof.model import loader
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Event as Ev, Trace
from skillproof.model.state import Seat, SkillInst, State

import gamekit as GK


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def table(cat, seats) -> State:
    """Seats as (character, identity, hand, area, face_up); each black identity dealt a secret task (Game.start)."""
    out = []
    tasks = ["collector", "stealer", "pioneer", "killer"]
    for ch, ident, hand, area, up in seats:
        s = Seat(character=ch, identity=ident, face_up=up, ever_face_up=up, hand_count=hand,
                 task=tasks.pop(0) if ident == "black" else None)
        s.skills = [SkillInst(r) for r in cat.characters[ch].skills]
        s.area = tuple(sorted(area.items()))
        out.append(s)
    return State(seats=out)


def both(cat, setup, events):
    """The interpreter's run, checked against the z3 twin: the same verdict, the same table after every event."""
    tr = Trace(setup, events, True)
    r = run(cat, tr)
    g = GK.pinned_verdict(cat, tr, keep_states=True)
    assert g.verdict() == r.legal, ([str(e) for e in r.errors], [lab.label for lab in g.legal])
    if r.legal:
        assert GK.step_disagreement(cat, tr, g) is None
    return r


def area(r, seat) -> dict:
    return dict(r.state.seats[seat].area or ())


def to_fight(colours, to=1, sender=0):
    """The turn of seat ``sender`` up to 争夺阶段 with a message of ``colours`` in front of ``to``."""
    return [Ev("turn", seat=sender), Ev("draw"), Ev("window", window="main"), Ev("window", window="send_start"),
            Ev("send", seat=sender, colours=colours, arrow="up", lockable=False, dir="up", to=to, locks=[]),
            Ev("window", window="fight", in_front=to)]


PLAIN = ("bai_xiao_nian", "blue")       # a character whose skills the games below leave alone


def test_dinglun_receives_or_takes_the_message_into_his_hand(cat):
    """skill/DingLun.kt: checkThreeSameMessageCard(messageCard) — into his hand and NextTurn; else OnReceiveCard."""
    three = table(cat, [("li_ning_yu", "red", 2, {}, True), ("li_shu_yun", "black", 0, {"black": 2}, False),
                        (PLAIN[0], "blue", 2, {}, True)])
    r = both(cat, three, to_fight(["black"]) + [Ev("use", seat=1, rule="DingLun"), Ev("window", window="turn_end"),
                                                Ev("turn", seat=1)])
    assert r.legal and r.state.seats[1].hand_count == 1 and area(r, 1) == {"black": 2}
    r = both(cat, three, to_fight(["black"]) + [Ev("use", seat=1, rule="DingLun"), Ev("window", window="receive", in_front=1)])
    assert not r.legal                                       # nobody receives it
    two = table(cat, [("li_ning_yu", "red", 2, {}, True), ("li_shu_yun", "black", 0, {"black": 1}, False),
                      (PLAIN[0], "blue", 2, {}, True)])
    r = both(cat, two, to_fight(["black"]) + [Ev("use", seat=1, rule="DingLun"), Ev("window", window="receive", in_front=1)])
    assert r.legal and r.state.seats[1].hand_count == 0 and area(r, 1) == {"black": 2}


def test_jiaoji_gives_back_between_taken_less_black_and_taken(cat):
    """skill/JiaoJi.kt: two random cards of the target (all when he has at most two); needReturnCount =
    (taken - messageCards.count(Black)).coerceAtLeast(0)..taken."""
    setup = table(cat, [("pei_ling", "red", 0, {"black": 1}, True), (PLAIN[0], "blue", 3, {}, True),
                        ("li_ning_yu", "black", 1, {}, True)])
    start = [Ev("turn", seat=0), Ev("draw"), Ev("window", window="main")]
    for k, legal in ((0, False), (1, True), (2, True), (3, False)):
        r = both(cat, setup, start + [Ev("use", seat=0, rule="JiaoJi", target=1, choices={"1": {"n": k}})])
        assert r.legal == legal, k
        if legal:
            assert r.state.seats[1].hand_count == 1 + k and r.state.seats[0].hand_count == 3 + 2 - k


def test_houziqiexin_swaps_a_message_for_a_hand_card_of_its_exact_colours(cat):
    """skill/HouZiQieXin.kt: handCard.colorExactlyTheSame(messageCard), else refused."""
    setup = table(cat, [("xiao_ling_dang", "red", 0, {}, True), (PLAIN[0], "blue", 1, {"red_black": 1}, True),
                        ("li_ning_yu", "black", 1, {}, True)])
    start = [Ev("turn", seat=0), Ev("draw"), Ev("window", window="main")]
    ok = both(cat, setup, start + [Ev("use", seat=0, rule="HouZiQieXin", target=1,
                                      choices={"0": {"cls": "red_black"}, "1": {"cls": "red_black"}})])
    assert ok.legal and area(ok, 1) == {"red_black": 1} and ok.state.seats[0].hand_count == 3
    bad = both(cat, setup, start + [Ev("use", seat=0, rule="HouZiQieXin", target=1,
                                       choices={"0": {"cls": "red_black"}, "1": {"cls": "red"}})])
    assert not bad.legal


def test_gongfen_turns_the_deck_top_for_every_living_player(cat):
    """skill/GongFen.kt: for each living player from the holder on, the deck top: pure black into that player's
    area, else into the holder's hand."""
    setup = table(cat, [("li_ning_yu", "red", 2, {}, True), ("sp_cheng_xiao_die", "black", 0, {}, False),
                        (PLAIN[0], "blue", 2, {}, True)])
    ch = {"0.1.0": {"alt": 0}, "0.2.0": {"alt": 1}, "0.2.0.1.0": {"cls": "black"}, "0.0.0": {"alt": 0}}
    r = both(cat, setup, to_fight(["red"]) + [Ev("use", seat=1, rule="GongFen", choices=ch)])
    assert r.legal and r.state.seats[1].hand_count == 2 and area(r, 2) == {"black": 1}
    ch["0.2.0.1.0"] = {"cls": "red_black"}                   # not pure black: it cannot go into an area
    assert not both(cat, setup, to_fight(["red"]) + [Ev("use", seat=1, rule="GongFen", choices=ch)]).legal


def test_fengyunbianhuan_puts_a_card_into_an_area_only_with_no_shared_colour(cat):
    """card/FengYunBianHuan.kt: asMessageCard refused when a message of his shares a colour (hasSameColor)."""
    setup = table(cat, [(PLAIN[0], "red", 1, {"red": 1}, True), ("li_ning_yu", "blue", 1, {}, True),
                        ("pei_ling", "black", 1, {}, True)])
    start = [Ev("turn", seat=0), Ev("draw"), Ev("window", window="main"), Ev("play", seat=0, card="Feng_Yun_Bian_Huan")]
    ch = {"1.0.0": {"alt": 1}, "1.0.0.1.0": {"cls": "blue"}, "1.1.0": {"alt": 1}, "1.1.0.1.0": {"cls": "red"},
          "1.2.0": {"alt": 0}}
    r = both(cat, setup, start + [Ev("resolve", choices=ch)])
    assert r.legal and area(r, 0) == {"red": 1, "blue": 1} and area(r, 1) == {"red": 1}
    assert r.state.seats[2].hand_count == 2
    ch["1.0.0.1.0"] = {"cls": "red_blue"}                    # shares red with his red message
    assert not both(cat, setup, start + [Ev("resolve", choices=ch)]).legal


def test_houlairen_keeps_one_message_never_the_last_with_red_or_blue(cat):
    """skill/HouLaiRen.kt: the kept message (remainCardId) is not pure black; all the others are discarded."""
    setup = table(cat, [(PLAIN[0], "red", 2, {}, True), ("sp_duan_mu_jing", "black", 0, {"black": 2, "red": 1}, False),
                        ("li_ning_yu", "blue", 2, {}, True)])
    start = to_fight(["black"]) + [Ev("window", window="receive", in_front=1), Ev("window", window="dying", dying=1)]
    keep_red = {"0.0.0": {"cls": "black"}, "0.1.0": {"cls": "black"}, "0.2.0": {"cls": "black"}}
    r = both(cat, setup, start + [Ev("use", seat=1, rule="HouLaiRen", choices=keep_red)])
    assert r.legal and area(r, 1) == {"red": 1}
    keep_black = {"0.0.0": {"cls": "red"}, "0.1.0": {"cls": "black"}, "0.2.0": {"cls": "black"}}
    assert not both(cat, setup, start + [Ev("use", seat=1, rule="HouLaiRen", choices=keep_black)]).legal


def test_miaoshou_makes_a_card_of_an_area_the_message(cat):
    """skill/MiaoShou.kt: the message is discarded; a card of the target's hand or message area (deleteMessageCard)
    becomes the message, face up, in front of any living player."""
    setup = table(cat, [(PLAIN[0], "red", 2, {}, True), ("a_fu_luo_la", "black", 0, {}, False),
                        ("li_ning_yu", "blue", 0, {"blue": 1}, True)])
    use = Ev("use", seat=1, rule="MiaoShou", target=2, chosen=0, choices={"2": {"alt": 1}, "2.1.0": {"cls": "blue"}})
    r = both(cat, setup, to_fight(["red"]) + [use])
    assert r.legal and area(r, 2) == {} and r.state.message == frozenset({"blue"}) and r.state.in_front == 0
    assert r.state.message_face_up


def test_yingbianziru_acts_as_wudao_for_a_black_message(cat):
    """skill/YingBianZiRu.kt: a pure black message: WuDao.onUseCard with no card and two cards drawn; two colours: the
    message is discarded, three drawn, NextTurn."""
    setup = table(cat, [(PLAIN[0], "red", 2, {}, True), ("sp_a_fu_luo_la", "black", 0, {}, False),
                        ("li_ning_yu", "blue", 2, {}, True)])
    r = both(cat, setup, to_fight(["black"], to=2) + [Ev("use", seat=1, rule="YingBianZiRu", choices={"4": {"alt": 0}})])
    assert r.legal and r.state.seats[1].hand_count == 2 and r.state.in_front != 2
    r = both(cat, setup, to_fight(["red", "black"], to=2) + [Ev("use", seat=1, rule="YingBianZiRu"),
                                                            Ev("window", window="turn_end"), Ev("turn", seat=1)])
    assert r.legal and r.state.seats[1].hand_count == 3 and area(r, 2) == {}


def test_shitan_is_not_given_to_its_target(cat):
    """card/ShiTan.kt: the card leaves the user's hand as it is played and is shown to the target, never put into his
    hand (discardAfterResolve = false: out of the game); he draws one or discards one."""
    setup = table(cat, [(PLAIN[0], "red", 1, {}, True), ("li_ning_yu", "blue", 2, {}, True),
                        ("pei_ling", "black", 1, {}, True)])
    start = [Ev("turn", seat=0), Ev("draw"), Ev("window", window="main"), Ev("play", seat=0, card="Shi_Tan", target=1)]
    r = both(cat, setup, start + [Ev("resolve", choices={"1": {"alt": 0}})])
    assert r.legal and r.state.seats[0].hand_count == 3 and r.state.seats[1].hand_count == 3
    r = both(cat, setup, start + [Ev("resolve", choices={"1": {"alt": 1}})])
    assert r.legal and r.state.seats[0].hand_count == 3 and r.state.seats[1].hand_count == 1


def test_miaobiqiaobian_takes_a_second_message_sharing_no_colour(cat):
    """skill/MiaoBiQiaoBian.kt: the second message may not share a colour with the first (hasSameColor refused)."""
    setup = table(cat, [(PLAIN[0], "red", 2, {}, True), ("lian_yuan", "black", 0, {}, False),
                        ("li_ning_yu", "blue", 2, {"red_black": 1, "blue": 1, "red": 1}, True)])
    ok = {"0": {"cls": "red_black"}, "1": {"cls": "blue"}}
    r = both(cat, setup, to_fight(["red"]) + [Ev("use", seat=1, rule="MiaoBiQiaoBian", target=2, chosen=2, choices=ok)])
    assert r.legal and area(r, 2) == {"red": 1} and r.state.seats[1].hand_count == 2
    bad = {"0": {"cls": "red_black"}, "1": {"cls": "red"}}
    assert not both(cat, setup, to_fight(["red"]) + [Ev("use", seat=1, rule="MiaoBiQiaoBian", target=2, chosen=2,
                                                        choices=bad)]).legal


def test_guangfabao_puts_any_number_of_cards_into_each_area(cat):
    """skill/GuangFaBao.kt: after drawing three, batches of hand cards into one living player's area at a time,
    refused when they would give him three of a colour (checkThreeSameMessageCard)."""
    setup = table(cat, [(PLAIN[0], "red", 2, {}, True), ("xiao_jiu", "black", 0, {}, False),
                        ("li_ning_yu", "blue", 2, {"black": 1}, True)])
    ch = {"1.2.0": {"n": 2}, "1.2.0.0.0": {"cls": "blue"}, "1.2.0.1.0": {"cls": "black"}, "1.0.0": {"n": 1},
          "1.0.0.0.0": {"cls": "red"}}
    r = both(cat, setup, to_fight(["red"]) + [Ev("use", seat=1, rule="GuangFaBao", choices=ch)])
    assert r.legal and r.state.seats[1].hand_count == 0 and area(r, 2) == {"black": 2, "blue": 1} and area(r, 0) == {"red": 1}
    ch["1.2.0"] = {"n": 3}                                   # a third card: the holder has none left
    ch["1.0.0"] = {"n": 0}
    ch["1.2.0.2.0"] = {"cls": "black"}                       # and a third black would be refused anyway
    assert not both(cat, setup, to_fight(["red"]) + [Ev("use", seat=1, rule="GuangFaBao", choices=ch)]).legal
