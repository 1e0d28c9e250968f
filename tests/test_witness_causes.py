"""Witnesses are games (issue 22): the causes of the illegal moves an audit of the shipped check's witnesses against the
server found, each fixed in the catalogue and in both twins — the interpreter (model/interp/*) and the z3 encoder
(checks/enc/*) — and each tested here on the shipped catalogue, both twins compared (gamekit.pinned_verdict for a game
trace, crosskit.Harness for a decision on a state). Each test fails on the code before the fix.

* 误导 targets a neighbour of the player the message is in front of (card/WuDao.kt canUse: ``target !==
  inFrontOfWhom`` and it is ``getNextLeftAlivePlayer`` or ``getNextRightAlivePlayer`` of him); its effect moves the
  message in front of the target (WuDao.onUseCard). It was ``target = "none"``, so no play of it named a target.
* A card is played or converted only from a hand (``Player.findCard``): a question about playing a card asks a player
  who holds one (``has_card`` beside the rule's answer; ``can_play`` false with an empty hand).
* 诱敌深入's send is checked as sent by its user (skill/YouDiShenRu.kt ``r.canSendCard(r, …)``: never to him, left /
  right his own neighbour), though the turn player is the message's sender (OnSendCard(whoseTurn, whoseTurn, …)).
* 后来人's role replacement applies its cost (the role turned face up) and its effect (every message but one red or blue
  discarded: skill/HouLaiRen.kt executeProtocol) before the new role.
* 应变自如 acts as 截获 only on a red or blue message, as 误导 only on a black one (skill/YingBianZiRu.kt:
  ``colors.size == 1``, black → WuDao, else JieHuo; two colours neither): ``plays.when``.
"""
from __future__ import annotations

import copy

import pytest

from skillproof.model import loader
from skillproof.model.interp.decide import decide
from skillproof.model.interp.play import run
from skillproof.model.interp.trace import Trace
from skillproof.model.state import State

import gamekit as GK


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def seat(character: str, skills, hand: int = 2, identity: str = "red", face_up: bool = True, area=None,
         task: str | None = None) -> dict:
    """A seat of a game; a black identity is dealt a secret task (Game.start: 收集者 unless told)."""
    area = dict(area or {})
    out = {"alive": True, "area": area, "character": character, "ever_face_up": face_up, "face_up": face_up,
           "hand_count": hand, "identity": identity, "locked": False, "skills": [{"rule": r} for r in skills],
           "task": task if task is not None or identity != "black" else "collector"}
    from skillproof.model.interp.table import counts
    out.update(counts(area))
    return out


def setup(*seats) -> dict:
    return {"dying": None, "in_front": None, "message": [], "message_dir": "left", "message_lockable": False,
            "seats": list(seats), "sender": None, "turn": 0, "unknowns": {}}


def send(sender: int, to: int, colours=("black",), d: str = "up") -> dict:
    return {"event": "send", "seat": sender, "colours": list(colours), "arrow": d, "lockable": False, "dir": d,
            "to": to, "locks": [], "source": "hand", "face_up": False}


def check(cat, st: dict, events: list):
    """The interpreter's run of the game, and the twin's verdict equal to the interpreter's (and, when legal, the table
    it leaves)."""
    tr = Trace.from_dict({"setup": copy.deepcopy(st), "events": copy.deepcopy(events), "table": True})
    r = run(cat, tr)
    g = GK.pinned_verdict(cat, Trace.from_dict(tr.to_dict()), keep_states=r.legal)
    assert g.verdict() == r.legal, ([(k, e.en) for k, e in r.errors], r.legal)
    if r.legal:
        a, b = GK.interp_state(r.state), GK.twin_state(g)
        assert {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)} == {}
    return r


def errors(r) -> list:
    return [e.en for _, e in r.errors]


# three plain seats (their skills act only when used: 秦圆圆's 左右逢源 / 比翼双飞, 李书云's 定论 / 真理 …)
PLAIN = [("qin_yuan_yuan", ["ZuoYouFengYuan", "BiYiShuangFei"]), ("li_shu_yun", ["DingLun", "ZhenLi"]),
         ("gao_qiao_zhi_zi", ["HuoXin"])]
IDS = ("red", "blue", "black")        # a deal of three seats
TO_FIGHT = [{"event": "turn", "seat": 0}, {"event": "draw", "n": 3}, {"event": "window", "window": "main"},
            {"event": "window", "window": "send_start"}, send(0, 1),
            {"event": "window", "window": "fight", "in_front": 1}]


# ------------------------------------------------------------------------------------------------ 误导's target
@pytest.mark.parametrize("target, legal", [(2, True), (0, True), (1, False)])
def test_wudao_targets_a_neighbour_of_the_message_holder_and_moves_the_message_there(cat, target, legal):
    """The message is in front of seat 1: 误导 may name seat 0 or seat 2 (his neighbours; seat 2 plays it — the user may
    be the neighbour), never seat 1; the message goes in front of the target. (Before: ``target = "none"``, every
    play naming a target was refused: "误导 has no target".)"""
    st = setup(*(seat(c, s, identity=i) for (c, s), i in zip(PLAIN, IDS)))
    r = check(cat, st, TO_FIGHT + [{"event": "play", "seat": 2, "card": "Wu_Dao", "target": target},
                                   {"event": "resolve"}])
    assert r.legal == legal, errors(r)
    if legal:
        assert r.state.in_front == target
    else:
        assert errors(r) == ["the target of 误导 does not meet its condition"]


def test_a_requires_reading_the_target_of_a_card_with_no_target_is_a_catalogue_error():
    text = ('[[card]]\nid = "K"\nname = "卡"\nwindows = { fight = "anyone" }\nrequires = "target != front"\n'
            '[[character]]\nid = "p"\nname = "甲"\nhidden = false\nfemale = false\nskills = []\n')
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load(texts={"x.toml": text})
    assert "x.toml:5: [requires]" in str(e.value)


# ------------------------------------------------------------------------------------------------ a card in hand
@pytest.fixture(scope="module")
def harness(cat):
    from crosskit import Harness
    return Harness(cat, n=2, G=1)


def _state(cat, hand: int) -> State:
    """SP李宁玉 (应变: 截获 as 误导) in 争夺阶段 of seat 1's turn, the message in front of seat 1."""
    st = State.from_dict(setup(seat("sp_li_ning_yu", ["YingBian", "YouDao"], hand=hand),
                               seat("qin_yuan_yuan", ["ZuoYouFengYuan", "BiYiShuangFei"], identity="blue")))
    st.turn, st.sender, st.in_front, st.window = 1, 1, 1, "fight"
    st.message, st.message_sent = frozenset({"black"}), True
    return st


@pytest.mark.parametrize("hand", [0, 1])
def test_a_card_is_played_or_converted_only_from_a_hand(cat, harness, hand):
    """With an empty hand nothing is played (can_play false in both twins) and a conversion question says there is no
    card (``has_card``); with one card 应变 plays 截获 as 误导. (Before: can_play true with an empty hand.)"""
    st = _state(cat, hand)
    got = decide(cat, st, {"decision": "can_play", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"})
    assert (got["can_play"], got["has_card"]) == (hand > 0, hand > 0)
    conv = decide(cat, st, {"decision": "conversion", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"})
    assert conv["ok"] and conv["has_card"] == (hand > 0)
    zi = harness.z3_decisions(st, "Jie_Huo", "Wu_Dao", "up", 0)
    ii = harness.interp_decisions(st, "Jie_Huo", "Wu_Dao", "up", 0)
    assert zi["can_play"] == ii["can_play"] == (hand > 0)


def test_an_empty_hand_plays_nothing_in_a_game(cat):
    """The game twins refused it already; what a witness asks at its end now does too (above)."""
    st = setup(*(seat(c, s, hand=h, identity=i) for (c, s), h, i in zip(PLAIN, (2, 2, 0), IDS)))
    r = check(cat, st, TO_FIGHT + [{"event": "play", "seat": 2, "card": "Wu_Dao", "target": 2}, {"event": "resolve"}])
    assert "seat 2 has no card in hand to play" in errors(r)


# ------------------------------------------------------------------------------------------------ 诱敌深入's send
def _youdi(to: int, d: str = "up") -> list:
    """Seat 1's turn; 边云疆 (seat 0) uses 诱敌深入 at 传递阶段开始时: seat 1, the turn player, sends seat 0's card."""
    return [{"event": "turn", "seat": 1}, {"event": "draw", "n": 3}, {"event": "window", "window": "main"},
            {"event": "window", "window": "send_start"}, {"event": "use", "seat": 0, "rule": "YouDiShenRu"},
            {"event": "give", "giver": 0, "seat": 0, "site": "YouDiShenRu#0"},
            {"event": "give", "giver": 0, "seat": 1, "site": "YouDiShenRu#0"},
            {"event": "give", "giver": 0, "seat": 2, "site": "YouDiShenRu#0"},
            dict(send(1, to, ("red",), d), face_up=True)]


@pytest.mark.parametrize("to, d, legal", [(0, "up", False), (2, "up", True), (1, "up", True),
                                          (2, "left", True), (1, "right", True), (1, "left", False)])
def test_youdishenru_sends_as_from_its_user(cat, to, d, legal):
    """The first stop is never the user (seat 0), and left / right are his neighbours (seat 2 on his left, seat 1 on
    his right) — not the turn player's. (Before: checked from the turn player, seat 1: a send to seat 0, the user, was
    taken.)"""
    st = setup(seat("bian_yun_jiang", ["YouDiShenRu", "JianDiFengXing"]),
               seat("qin_yuan_yuan", ["ZuoYouFengYuan", "BiYiShuangFei"], identity="blue"),
               seat("gao_qiao_zhi_zi", ["HuoXin"], identity="black"))
    st["turn"] = 1
    r = check(cat, st, _youdi(to, d))
    assert r.legal == legal, errors(r)


# ------------------------------------------------------------------------------------------------ 后来人
def test_houlairen_turns_face_up_and_keeps_one_red_or_blue_message(cat):
    """SP端木静 (face down) dies of a third black message and uses 后来人: every message but one red or blue is
    discarded (the effect's choices name each), and the new role replaces hers. (Before: the replace kept her area —
    three black messages, still dying.)"""
    st = setup(seat("sp_duan_mu_jing", ["HouLaiRen"], face_up=False, area={"black": 2, "blue": 1}),
               seat("qin_yuan_yuan", ["ZuoYouFengYuan", "BiYiShuangFei"], identity="blue"))
    events = [{"event": "turn", "seat": 1}, {"event": "draw", "n": 3}, {"event": "window", "window": "main"},
              {"event": "window", "window": "send_start"}, send(1, 0),
              {"event": "window", "window": "fight", "in_front": 0},
              {"event": "window", "window": "receive", "in_front": 0},
              {"event": "window", "window": "dying", "dying": 0},
              {"event": "replace", "seat": 0, "character": "gao_qiao_zhi_zi",
               "choices": {"0.0.0": {"cls": "black"}, "0.1.0": {"cls": "black"}, "0.2.0": {"cls": "black"}}}]
    r = check(cat, st, events)
    assert r.legal, errors(r)
    s = r.state.seats[0]
    assert (s.black_messages, s.blue_messages, s.character) == (0, 1, "gao_qiao_zhi_zi")
    # the blue one may not go (the last red or blue stays: its where)
    bad = copy.deepcopy(events)
    bad[-1]["choices"]["0.2.0"] = {"cls": "blue"}
    assert not check(cat, st, bad).legal
    # face up already: no 后来人
    up = copy.deepcopy(st)
    up["seats"][0].update(face_up=True, ever_face_up=True)
    assert not check(cat, up, events).legal


# ------------------------------------------------------------------------------------------------ 应变自如's plays.when
@pytest.mark.parametrize("colours, jiehuo, wudao", [({"black"}, False, True), ({"red"}, True, False),
                                                    ({"blue"}, True, False), ({"red", "black"}, False, False)])
def test_yingbianziru_acts_as_jiehuo_on_red_or_blue_and_as_wudao_on_black(cat, colours, jiehuo, wudao):
    """Both twins: resolves (no card, 应变自如 only) by the message's colours. (Before: both cards on every message.)"""
    from crosskit import Harness
    st = State.from_dict(setup(seat("sp_a_fu_luo_la", ["YingBianZiRu", "HunShuiMoYu"], hand=0, face_up=False),
                               seat("qin_yuan_yuan", ["ZuoYouFengYuan", "BiYiShuangFei"], identity="blue")))
    st.turn, st.sender, st.in_front, st.window = 1, 1, 1, "fight"
    st.message, st.message_sent = frozenset(colours), True
    h = Harness(cat, n=2, G=1)
    for card, want in (("Jie_Huo", jiehuo), ("Wu_Dao", wudao)):
        got = decide(cat, st, {"decision": "resolves", "seat": 0, "declared": card})
        assert (got["resolves"], got["via"]) == (want, "YingBianZiRu" if want else None)
        assert h.z3_decisions(st, card, card, "up", 0)["resolves"] == want


@pytest.mark.parametrize("when, key", [('{ Po_Yi = "true" }', "plays.when"), ('3', "plays.when"),
                                       ('{ Jie_Huo = "hand_count" }', "plays.when")])
def test_plays_when_is_validated(when, key):
    text = (f'[[card]]\nid = "Jie_Huo"\nname = "截获"\nwindows = {{ fight = "anyone" }}\n'
            f'[[card]]\nid = "Po_Yi"\nname = "破译"\nwindows = {{ send = "in_front" }}\n'
            f'[[skill]]\nid = "S"\nname = "技"\nkinds = ["ActiveSkill"]\ninitial = true\nwindows = {{ fight = "anyone" }}\n'
            f'plays = {{ as = ["Jie_Huo"], checks_bans = false, when = {when} }}\n'
            f'[[character]]\nid = "p"\nname = "甲"\nhidden = false\nfemale = false\nskills = ["S"]\n')
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load(texts={"x.toml": text})
    assert f"x.toml:15: [{key}]" in str(e.value)


def test_plays_when_is_in_the_schema():
    from skillproof.model.schema import build
    plays = build()["properties"]["skill"]["items"]["properties"]["plays"]
    assert "when" in plays["properties"]


# ------------------------------------------------------------------------------------------------ who sends
def test_only_the_turn_player_sends_unless_another_players_card_names_the_sender(cat):
    """Seat 0's turn: seat 1 sends only after seat 0's 密令 on him (card/MiLing.kt: ExecuteMiLing, OnSendCard with the
    target as the sender). (Before: a turn naming another sender let him send with nothing that made him one.)"""
    st = setup(*(seat(c, s, identity=i) for (c, s), i in zip(PLAIN, IDS)))
    start = [{"event": "turn", "seat": 0, "sender": 1}, {"event": "draw", "n": 3}, {"event": "window", "window": "main"},
             {"event": "window", "window": "send_start"}]
    bare = check(cat, st, start + [send(1, 2)])
    assert "only the turn player sends the message (unless another player's card or skill makes him the sender, as " \
           "密令 does)" in errors(bare)
    named = check(cat, st, start + [{"event": "play", "seat": 0, "card": "Mi_Ling", "target": 1}, {"event": "resolve"},
                                    send(1, 2)])
    assert named.legal, errors(named)
    assert named.state.sender == 1 and named.state.in_front == 2


# ------------------------------------------------------------------- the timed model: 诱敌深入's user and its message
@pytest.fixture(scope="module")
def harness3(cat):
    from crosskit import Harness
    return Harness(cat, n=3, G=1)


def _ydsr_skeleton(turn: int, giver: int, alive=(True, True), third: bool = False) -> Trace:
    """A trace of the timed model: 边云疆 (seat 0) handed 诱敌深入's receive rule out on its use (giver ``giver``) in
    seat ``turn``'s turn, and the question's moment is 传递阶段 with the message in front of seat 0."""
    seats = [seat("bian_yun_jiang", ["YouDiShenRu", "JianDiFengXing"], hand=0),
             seat("xiao_ling_dang", ["XinGeLianLuo", "HouZiQieXin"], hand=0, identity="blue")]
    if third:
        seats.append(seat("li_shu_yun", ["DingLun", "ZhenLi"], hand=0, identity="black"))
    for s, a in zip(seats, alive):
        s["alive"] = a
    return Trace.from_dict({"setup": setup(*seats), "events": [
        {"event": "turn", "seat": turn}, {"event": "window", "window": "send_start"},
        {"event": "give", "giver": giver, "seat": 0, "site": "YouDiShenRu#0"},
        {"event": "window", "window": "send", "in_front": 0, "sender": turn}]})


@pytest.mark.parametrize("turn,third,alive,legal", [
    (1, False, (True, True), False),            # 边云疆 used it in 小铃铛's turn, two seats: never in front of him
    (1, True, (True, True, True), True),        # a third player may let it pass on to him
    (1, True, (True, True, False), False),      # … not a dead one
    (0, False, (True, True), True),             # his own turn: he is the sender, it comes back to him
])
def test_the_timed_model_knows_youdishenru_never_stops_first_at_its_user(cat, harness3, turn, third, alive, legal):
    """skill/YouDiShenRu.kt checks the send on its user (never to him), and the turn player is its sender, who must
    receive it when it stops first in front of him (MustReceiveMessage.kt ``inFrontOfWhom === sender``): with only the
    two of them alive the user is never in front of it in 传递阶段 (interp.path.user_in_front_errors, enc.trace
    ``_user_in_front``). Before, the timed model proposed such a skeleton (RC001) and no game was under it."""
    import z3
    from crosskit import prepare_trace
    tr = _ydsr_skeleton(turn, 0, alive, third)
    r = run(cat, tr)
    assert r.legal is legal, [e.en for _, e in r.errors]
    prepared = prepare_trace(harness3, tr)
    assert prepared is not None
    _, eqs = prepared
    s = z3.Solver()
    s.add(eqs + [harness3.reach])
    assert (s.check() == z3.sat) is legal
