"""checks/realise.py: the classes of timed-model witnesses the templates now put a game under — each a skeleton the
shipped check found (tests/fixtures/realise-skeletons.json, ``from``: the finding it was the witness of), realised,
replayed by the interpreter and asked the finding's questions again — and the intents' counterexamples made games.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillproof.checks.context import Options, run
from skillproof.checks.realise import Builder, kills, realise, templates
from skillproof.model import loader
from skillproof.model.effects import walk
from skillproof.model.interp.decide import decide, matches
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.trace import Trace

SKELETONS = json.loads((Path(__file__).parent / "fixtures" / "realise-skeletons.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def _game(cat, name: str):
    """(the skeleton's game, its run) — asserting it is a game of the server that answers the finding's
    questions as the skeleton did."""
    w = SKELETONS[name]
    sk = Trace.from_dict(w["trace"])
    base = play_run(cat, sk)
    assert base.legal, base.errors
    qs = [(w["question"], w["expect"])] + [(a["question"], a["expect"]) for a in w["also"]]
    for q, e in qs:
        assert matches(decide(cat, base.state, q), e), (q, e)
    game, why = realise(cat, sk, base.state, qs)
    assert game is not None, why
    assert game.table
    got = play_run(cat, game)
    assert got.legal, got.errors
    for q, e in qs:
        assert matches(decide(cat, got.state, q), e), (q, e)
    back = play_run(cat, Trace.from_dict(game.to_dict()))           # as a report writes it
    assert back.legal and [decide(cat, back.state, q) for q, _ in qs] == [decide(cat, got.state, q) for q, _ in qs]
    return game, got


def _windows(game):
    return [(e.window, e.in_front, e.dying) for e in game.events if e.kind == "window"]


def test_a_dying_player_nothing_of_the_window_kills_receives_the_turns_message(cat):
    """SK004: 张一挺 dying in 李书云's 出牌阶段 — no card or skill of the table gives him a third black message there
    (利诱 gives the user its card instead), so he receives the turn's message; 李书云 sheds the card she kept so
    that she holds none when she is asked."""
    game, got = _game(cat, "dying_nothing_kills_in_the_window")
    ws = _windows(game)
    assert ("receive", 1, None) in ws and ws[-1] == ("dying", None, 1)
    assert ws.index(("receive", 1, None)) < len(ws) - 1
    assert not any(e.kind == "play" and e.card == "Li_You" for e in game.events)
    assert got.state.seats[0].hand_count == 0


def test_the_turn_player_sheds_cards_where_the_reminder_needs_fewer(cat):
    """RM002: 拼命三郎 usable but not reminded needs 秦无命 with a card in hand and two black messages, 鱼死网破 not
    reminding (one card at most): after the draw he plays cards that change only hands (试探 / 威逼)."""
    game, got = _game(cat, "main_phase_reminder_needs_fewer_cards")
    plays = [e for e in game.events if e.kind == "play"]
    assert plays and all(e.card in ("Shi_Tan", "Wei_Bi") and e.seat == 0 for e in plays)
    assert got.state.seats[0].hand_count == 1


def test_the_senders_own_window_is_the_send_and_the_next_is_the_first_stop(cat):
    """RC001: the skeleton has the message in front of its sender right after the send (where 咱们工人有知识 hands its
    grant out), then in front of 王富贵 — the game sends it to 王富贵 directly: never a pass beyond its sender."""
    game, _ = _game(cat, "sender_window_then_first_stop")
    send = next(e for e in game.events if e.kind == "send")
    assert send.to == 0
    assert [e for e in game.events if e.kind == "window" and e.window == "send"] == []


def test_a_message_is_passed_back_to_its_sender_before_he_receives_it(cat):
    """IN001: sent to seat 1, received by its sender — seat 1 lets it pass back (a send window in front of the
    sender), he accepts and receives it."""
    game, _ = _game(cat, "passed_back_to_the_sender")
    ws = _windows(game)
    assert ws[-3:] == [("send", 0, None), ("fight", 0, None), ("receive", 0, None)]


def test_a_dying_excursion_nothing_causes_is_left_out_and_the_grant_goes_to_whom_the_effect_chose(cat):
    """IV001: no card or skill of 钱敏 and 陈大耳 makes 陈大耳 dying in 争夺阶段; the game leaves the timed model's dying
    window out and 钱敏 uses 先发制人 in 争夺阶段, choosing 陈大耳 as the one whose skills it invalidates."""
    game, got = _game(cat, "dying_excursion_nothing_causes")
    assert not any(w == "dying" for w, _, _ in _windows(game))
    use = next(e for e in game.events if e.kind == "use" and e.rule == "XianFaZhiRen")
    give = next(e for e in game.events if e.kind == "give" and e.site == "XianFaZhiRen#0")
    assert use.chosen2 == give.seat == 1
    assert got.state.seats[1].invalidated


def test_killers_are_ops_that_may_make_three_of_a_colour(cat):
    li_you = next(o for o in walk(cat.cards["Li_You"].do) if o.op == "put_message")
    jie_dao = next(o for o in walk(cat.skills["JieDaoShaRen"].do) if o.op == "put_message")
    guang_fa = next(o for o in walk(cat.skills["GuangFaBao"].do) if o.op == "put_message")
    assert kills(jie_dao) and not kills(li_you) and not kills(guang_fa)


def test_shed_cards_change_only_hands(cat):
    b = Builder.__new__(Builder)
    b.cat = cat
    assert b.shed_cards() == ["Shi_Tan", "Wei_Bi"]


def test_templates_walk_every_branch_once_in_order(cat):
    """The walk's leaves are distinct and start with the simplest (every branch point's first way)."""
    w = SKELETONS["dying_nothing_kills_in_the_window"]
    sk = Trace.from_dict(w["trace"])
    ts = templates(cat, sk)
    keys = [json.dumps(t.to_dict(), sort_keys=True, default=str) for t in ts]
    assert len(ts) > 1 and len(set(keys)) == len(keys)
    assert not any(e.kind == "play" and e.card in ("Shi_Tan", "Wei_Bi") for e in ts[0].events)


def test_every_intent_counterexample_is_a_game_that_replays(cat):
    """IN001 witnesses go through the realiser as a check's own do (Context.game_witness)."""
    res = run(cat, Options(only=("intent",)), jobs=1)
    broken = [f for f in res.findings if f.check == "IN001" and f.witness and "trace" in f.witness]
    assert broken
    for f in broken:
        w = f.witness
        assert w["trace"].get("table") or w.get("unrealised"), f.id
        if w["trace"].get("table"):
            got = play_run(cat, Trace.from_dict(w["trace"]))
            assert got.legal, (f.id, got.errors)
            for item in [{"question": w["question"], "expect": w["expect"]}] + w.get("also", []):
                assert matches(decide(cat, got.state, item["question"]), item["expect"]), f.id
    assert sum(1 for f in broken if f.witness["trace"].get("table")) >= len(broken) - 1


def test_a_skill_that_draws_in_the_main_phase_is_followed_by_as_many_sheds_as_it_takes(cat):
    """RM002: 鱼死网破 usable but not reminded after 拼命三郎 (one card put, three drawn) needs one card in hand: 秦无命
    sheds the rest."""
    game, got = _game(cat, "main_phase_reminder_after_a_draw")
    kinds = [(e.kind, e.rule or e.card) for e in game.events]
    assert kinds.index(("use", "PinMingSanLang")) < kinds.index(next(k for k in kinds if k[0] == "play"))
    assert got.state.seats[0].hand_count == 1


@pytest.fixture(scope="module")
def cat_send_start(tmp_path_factory):
    """The shipped catalogue as it was when the shipped check found this skeleton: 先发制人's grant site also naming
    传递阶段开始时 (the shipped site no longer does: nothing there puts a message into an area for its triggered half
    to answer) — a site naming a window where its giver cannot act yet."""
    import shutil
    src = Path(loader.__file__).parent / "catalogue"
    dst = tmp_path_factory.mktemp("cat") / "catalogue"
    shutil.copytree(src, dst)
    p = dst / "characters" / "qian_min.toml"
    text = p.read_text("utf-8")
    old = 'at = ["main", "send", "fight", "receive", "dying"]'
    assert text.count(old) == 1
    p.write_text(text.replace(old, 'at = ["main", "send_start", "send", "fight", "receive", "dying"]'), "utf-8")
    return loader.load([str(dst)])


def test_a_grant_whose_giver_cannot_act_yet_is_handed_out_in_the_next_fight_phase(cat_send_start):
    """IV001: the skeleton has 先发制人 invalidate 陈大耳 at 传递阶段开始时, where 钱敏 cannot act (no skill put a message
    into an area there); the game has him use it in the 争夺阶段 that follows, after 变则通 handed its grant out."""
    game, got = _game(cat_send_start, "grant_deferred_to_the_fight_phase")
    kinds = [(e.kind, e.window or e.rule or e.site) for e in game.events]
    use = kinds.index(("use", "XianFaZhiRen"))
    assert kinds[use - 1] == ("window", "fight") and kinds[use + 1] == ("give", "XianFaZhiRen#0")
    assert kinds.index(("give", "BianZeTong#0")) < use
    assert got.state.seats[1].invalidated


def test_a_card_the_skeleton_plays_in_the_fight_phase_moves_the_message(cat):
    """IN001: 孙守謨 plays 误导 in 争夺阶段 (the timed model leaves the message where it was); in the game it moves the
    message to his side of the front, and a card brings it back before seat 1 receives it."""
    game, _ = _game(cat, "a_played_card_moves_the_message")
    plays = [e for e in game.events if e.kind == "play"]
    assert plays[0].card == "Wu_Dao" and len(plays) >= 2
    assert _windows(game)[-1] == ("receive", 1, None)


def test_a_dying_window_after_anothers_receive_that_nothing_causes_is_left_out(cat):
    """IV001: seat 1 dying right after 孙守謨 received his own message — nothing of the game gives seat 1 a message
    there, so the game leaves that dying window out; 先发制人 is used in 争夺阶段."""
    game, _ = _game(cat, "dying_of_another_in_the_receive_phase")
    assert not any(w == "dying" for w, _, _ in _windows(game))
    assert any(e.kind == "use" and e.rule == "XianFaZhiRen" for e in game.events)


def test_an_ask_witness_is_a_game_with_its_story(cat):
    """ask (Session.games, on for the command): a yes answer's witness is the game under the timed model's trace —
    replayed, answering its questions, its story told from the game's events (the draw, the send)."""
    from skillproof.checks.ask import Session
    sess = Session(cat)
    sess.games = True
    res = sess.ask("can SP李宁玉 still play 截获 as 误导 while 变则通 is active?")
    assert res.answer == "yes"
    w = res.witness
    assert w["trace"].get("table") and "unrealised" not in w
    got = play_run(cat, Trace.from_dict(w["trace"]))
    assert got.legal, got.errors
    for item in [{"question": w["question"], "expect": w["expect"]}] + w.get("also", []):
        assert matches(decide(cat, got.state, item["question"]), item["expect"])
    assert len(res.origin) >= len([e for e in w["trace"]["events"] if e["event"] in ("draw", "send")])
    plain = Session(cat)                              # off (the intent family realises through its Context)
    assert not plain.ask("can SP李宁玉 still play 截获 as 误导 while 变则通 is active?").witness["trace"].get("table")


def test_an_invalidation_in_the_send_phase_is_a_game_with_a_third_seat(cat):
    """IV001 (咱们工人有知识·拒收 outliving its invalidated giver): the two-seat witness has no game (先发制人 can act in
    传递阶段 only after a skill put a message into an area, and neither 钱敏 nor 火车司机 has one there), but the
    finding is one the server plays with 金自来: 赌命 answers the message's move and puts a pure black card into his
    area, 先发制人 answers that and invalidates 火车司机, and 钱敏 then faces the message unable to accept it."""
    from skillproof.checks.realise import CLASSES, _Names, aimed, effect_holes, setup_template, solve
    from skillproof.model.interp.hole import Hole
    from skillproof.model.interp.trace import Event
    from skillproof.model.state import Seat, SkillInst, State
    seats = []
    for c in ("qian_min", "huo_che_si_ji", "jin_zi_lai"):
        s = Seat(character=c, identity="red", face_up=not cat.characters[c].hidden)
        s.skills = [SkillInst(r) for r in cat.characters[c].skills]
        seats.append(s)
    setup = State(seats=seats, turn=1)
    new = _Names()
    start = setup_template(cat, setup, new)
    start.seats[0].face_up = False                   # 先发制人 turns 钱敏 face up: he starts face down

    def fields(rule, **fixed):
        f = effect_holes(cat.skills[rule].do, new)
        f.update(fixed)
        return f
    xf = aimed(fields("XianFaZhiRen"), cat.skills["XianFaZhiRen"].do, "InvalidSkill", 1)
    events = [Event("turn", seat=1), Event("draw"), Event("window", window="main"),
              Event("window", window="send_start"),
              Event("send", seat=1, colours=Hole(new("message"), "class", CLASSES), arrow=Hole(new("arrow"), "dir"),
                    lockable=Hole(new("lockable"), "bool"), dir="right", to=2, locks=[], face_up=False, source="hand"),
              Event("fire", seat=1, rule="WorkersAreKnowledgable", on="send", **fields("WorkersAreKnowledgable", chosen=0)),
              # its grant inside its own resolution, before 赌命 is asked (Game.dealListeningSkill; issue 22)
              Event("give", seat=0, giver=1, site="WorkersAreKnowledgable#0"),
              Event("fire", seat=2, rule="DuMing", on="move", **fields("DuMing")),
              Event("fire", seat=0, rule="XianFaZhiRen", on="add_message", **xf),
              Event("give", seat=1, giver=0, site="XianFaZhiRen#0"),
              Event("window", window="send", in_front=0)]
    game = solve(cat, Trace(start, events, table=True), play_run(cat, Trace(setup, [Event("turn", seat=1)])).state)
    assert game is not None
    got = play_run(cat, game)
    assert got.legal, got.errors
    assert matches(decide(cat, got.state, {"decision": "holds", "rule": "WorkersAreKnowledgable2", "seat": 0}),
                   {"holds": True, "live": True})
    assert matches(decide(cat, got.state, {"decision": "holds", "rule": "WorkersAreKnowledgable", "seat": 1}),
                   {"holds": True, "invalidated": True, "live": False})
    assert matches(decide(cat, got.state, {"decision": "matters", "rule": "WorkersAreKnowledgable2", "seat": 0,
                                           "args": {}}), {"matters": True})


def test_a_which_answers_values_are_games(cat):
    """Each value of a ``which`` answer that holds has its own witness made a game (or a note says why not)."""
    from skillproof.checks.ask import Session
    sess = Session(cat)
    sess.games = True
    res = sess.ask("which send rule for lock for SP韩梅")
    vals = [v for v in res.values if v.get("witness")]
    assert len(vals) >= 2
    for v in vals:
        w = v["witness"]
        if not w["trace"].get("table"):
            assert w.get("unrealised") and res.notes
            continue
        got = play_run(cat, Trace.from_dict(w["trace"]))
        assert got.legal, got.errors
        assert matches(decide(cat, got.state, w["question"]), w["expect"])
    assert any(v["witness"]["trace"].get("table") for v in vals)


def test_a_game_that_leaves_the_questions_moment_out_is_no_witness(cat):
    """A skeleton whose question is asked in a dying window nothing of the game can cause (the shipped check's SK004
    skeleton for 秦圆圆 once 强令 banned 澄清): the realiser may leave that window out, but then the question is not
    asked at its decision moment — no game answers it, so none is returned (it was returned, and the witness's
    replay failed as INT001)."""
    from skillproof.model.interp.windows import at_decision
    seat = {"alive": True, "face_up": True, "ever_face_up": True, "identity": "red", "red_messages": 0,
            "blue_messages": 0, "black_messages": 0, "true_messages": 0, "non_black_messages": 0, "locked": False}
    sk = Trace.from_dict({
        "setup": {"seats": [dict(seat, character="qin_yuan_yuan", hand_count=1,
                                 skills=[{"rule": "ZuoYouFengYuan"}, {"rule": "BiYiShuangFei"}]),
                            dict(seat, character="zhang_yi_ting", hand_count=0, skills=[{"rule": "QiangLing"}])],
                  "turn": 1, "sender": None, "in_front": None, "dying": None, "message": [], "message_dir": "left",
                  "message_lockable": False, "unknowns": {}},
        "events": [{"event": "turn", "seat": 1},
                   {"event": "window", "window": "fight", "in_front": 1, "sender": 1},
                   {"event": "give", "seat": 0, "giver": 1, "site": "QiangLing#1",
                    "args": {"all_cards": False, "cards": ["Cheng_Qing"]}},
                   {"event": "window", "window": "receive", "in_front": 1, "sender": 1},
                   {"event": "window", "window": "dying", "dying": 0}]})
    base = play_run(cat, sk)
    assert base.legal, base.errors
    q, e = {"decision": "skip_dying", "seat": 0}, {"skip": False, "could_act": False}
    assert matches(decide(cat, base.state, q), e)
    game, why = realise(cat, sk, base.state, [(q, e)])
    if game is not None:
        got = play_run(cat, game)
        assert got.legal and at_decision(got.state, "skip_dying", 0)
        assert matches(decide(cat, got.state, q), e)
    else:
        assert why["en"]


@pytest.mark.parametrize("question", [
    "偷天能再次使用吗？",                                        # 'use again' records only 'holds': weaker than the claim
    "can SP李宁玉 still play 截获 as 误导 while 变则通 is active?",
    "传出者能接收自己的情报吗？",
])
def test_an_ask_game_shows_the_claim_itself(cat, question):
    """A yes answer's game is kept only where the question's own claim and givens hold on its last state (the
    witness's recorded questions can be weaker: 'use S again' records 'holds S', and a game where the role was turned
    face up by the use answered that while showing the skill could not be used again); otherwise the timed model's
    trace stays, with a note."""
    from skillproof.checks.ask import Session, eval_claim, eval_given
    sess = Session(cat)
    sess.games = True
    res = sess.ask(question)
    q = res.query
    assert res.answer == "yes"
    w = res.witness
    if not w["trace"].get("table"):
        assert any("timed model" in n or "时序模型" in n for n in res.notes)
        return
    got = play_run(cat, Trace.from_dict(w["trace"]))
    st = got.state
    st.trace = Trace.from_dict(w["trace"])
    assert eval_claim(cat, st, q.claim, True, q.windowed)
    assert all(eval_given(cat, st, g) for g in q.givens)


def test_a_templates_open_areas_are_not_bound_by_the_skeletons_counts(cat):
    """The realiser opens every message area (holes) and clears the five counts beside it: counts written beside an
    area bind it (interp table.counts_are_area, twin enc.table.enc_counts_are_area), and the skeleton's counts at the
    start are only the timed model's guess (``solve`` pins the end softly). Here the skeleton's seats hold messages at
    the start; the twin still fills an area of none."""
    import z3
    from skillproof.checks.enc.game import GameEncoding
    from skillproof.model.interp.table import COUNT_FIELDS
    sk = Trace.from_dict(SKELETONS["main_phase_reminder_needs_fewer_cards"]["trace"])
    assert any(getattr(s, f) for s in sk.setup.seats for f in COUNT_FIELDS)
    tpl = templates(cat, sk)[0]
    assert all(getattr(s, f) == 0 for s in tpl.setup.seats for f in COUNT_FIELDS)
    g = GameEncoding(cat, tpl)
    s = z3.Solver()
    s.add(g.legal_expr())
    s.add([g.vars[n] == 0 for n in g.vars if ".area" in n or n.startswith("area")] or [z3.BoolVal(True)])
    assert any(n.startswith("area") or ".area" in n for n in g.vars)
    assert s.check() == z3.sat


def test_a_dying_player_nothing_kills_receives_the_message_instead_of_the_skeletons_receiver(cat):
    """SK004: 秦圆圆 dying right after 张一挺 received his own message — nothing of the game gives her a third black
    message there; the game takes 张一挺's receive back: she moves the message to herself with a card of 争夺阶段 (截获;
    强令 banned only 澄清) and receives it — her dying window is the game's last, where she is asked."""
    game, got = _game(cat, "dying_player_receives_instead")
    ws = _windows(game)
    assert ws[-2:] == [("receive", 0, None), ("dying", None, 0)]
    assert ("receive", 1, None) not in ws
    assert any(e.kind == "play" and e.seat == 0 and e.card == "Jie_Huo" for e in game.events)
    assert got.state.window == "dying" and got.state.dying == 0


def test_a_dying_window_nothing_causes_before_later_windows_is_caused_by_the_turns_message(cat):
    """RR001: SP端木静 dying in her own 出牌阶段 (no card or skill there gives her a third black message), replaced by
    后来人, the skeleton going on in 出牌阶段: the game sends her message on and back to her, she receives it, dies
    into 后来人 — and the skeleton's later windows of the turn are dropped (the game ends in her dying window)."""
    game, got = _game(cat, "dying_window_before_later_windows")
    ws = _windows(game)
    assert ws[-2:] == [("receive", 0, None), ("dying", None, 0)]
    assert game.events[-1].kind == "replace"
    assert got.state.seats[0].character == "sp_han_mei"


def test_a_play_the_game_has_banned_its_player_from_is_never_a_way(cat):
    """SK003: 强令 banned 调包, 截获 and 误导 for SP端木静 before the message must come back in front of her: the
    simplest template no longer has her play 截获 (which the server refuses). Nor has 张一挺 play 误导 (the game this
    test took before): his 强令 bans them for every player, himself too (skill/QiangLing.kt ``players.forEach``;
    the twins' GameRunner.gives_at_once) — so nothing moves the message back to her. The game stays in front of
    张一挺 (``reach``'s last way: the skeleton's 争夺阶段 window in front of her left out), where she is asked again
    and answers alike."""
    game, _ = _game(cat, "a_play_the_player_is_banned_from")
    assert not any(e.kind == "play" for e in game.events)
    assert [e.seat for e in game.events if e.kind == "give" and e.site == "QiangLing#1"] == [0, 1]
    assert [w for w in _windows(game) if w[0] == "fight"] == [("fight", 1, None)]
    w = SKELETONS["a_play_the_player_is_banned_from"]
    first = templates(cat, Trace.from_dict(w["trace"]))[0]
    assert not any(e.kind == "play" and e.seat == 0 for e in first.events)


def test_a_second_dying_window_nothing_causes_is_left_out(cat):
    """IV001: 陈大耳 dying right after 钱敏's dying window — nothing of the game makes him dying there: the game keeps
    钱敏's dying window (she received her third black message) and leaves his out."""
    game, got = _game(cat, "a_second_dying_window_nothing_causes")
    dying = [d for w, _, d in _windows(game) if w == "dying"]
    assert dying == [0]
    assert got.state.seats[1].invalidated


def test_a_send_window_after_the_game_moved_on_to_the_fight_phase_ends_the_game(cat):
    """IV001: the skeleton passes the message on after 先发制人 invalidated 孙守謨 in 传递阶段; the game has 钱敏 use it in
    争夺阶段 (nothing put a message into an area for its triggered half), after which the message stops in front of
    nobody again: the skeleton's later 传递阶段 window is dropped and the game ends in 争夺阶段."""
    game, got = _game(cat, "a_send_window_after_the_fight_phase")
    ws = _windows(game)
    assert ws[-1][0] == "fight" and "send" not in [w for w, _, _ in ws[ws.index(ws[-1]):]]
    assert game.events[-1].kind == "give" and game.events[-1].site == "XianFaZhiRen#0"
    assert got.state.seats[0].invalidated


def test_youdishenru_of_the_player_whose_turn_it_is_not_never_reaches_him_at_two_seats(cat):
    """RC001: 诱敌深入's receive rule binds 边云疆 when his identity is in the message; the skeleton has him use it in
    小铃铛's turn, two seats, and the message in front of him in 传递阶段. No game does that (issue 22): YouDiShenRu.kt
    checks the send as sent by its user (``r.canSendCard``: never to him), so its first stop is 小铃铛, the sender, who
    must accept it. (The game this test took before sent it to 边云疆 himself.)"""
    w = SKELETONS["a_receive_rule_reads_message_and_identity"]
    sk = Trace.from_dict(w["trace"])
    base = play_run(cat, sk)
    qs = [(w["question"], w["expect"])] + [(a["question"], a["expect"]) for a in w["also"]]
    game, why = realise(cat, sk, base.state, qs)
    assert game is None and why is not None


def test_a_killer_skill_is_offered_only_to_its_windows_actor(cat):
    """IV001: 王田香 dying in his own 出牌阶段: 小铃铛's 猴子窃信 (a MainPhaseSkill: the turn player's) is no killer
    there; nothing else is, and 王田香 receives his own message into his dying window."""
    w = SKELETONS["a_killer_skill_of_the_turn_player_only"]
    for t in templates(cat, Trace.from_dict(w["trace"])):
        assert not any(e.kind == "use" and e.rule == "HouZiQieXin" for e in t.events)
    game, _ = _game(cat, "a_killer_skill_of_the_turn_player_only")
    assert _windows(game)[-2:] == [("receive", 1, None), ("dying", None, 1)]


def test_a_no_answers_illustration_is_a_game(cat):
    """ask: a 'no' answer's illustration (the givens hold, the claim fails) is a game of the server too, replayed,
    the claim still failing on its last state."""
    from skillproof.checks.ask import Session
    from skillproof.model.interp.plays import can_play
    sess = Session(cat)
    sess.games = True
    res = sess.ask("can SP李宁玉 play 截获 as 误导 under 变则通(A=截获, B=调包)?")
    assert res.answer == "no"
    ill = res.illustration
    assert ill["trace"].get("table") and "unrealised" not in ill
    got = play_run(cat, Trace.from_dict(ill["trace"]))
    assert got.legal, got.errors
    assert not can_play(cat, got.state, 0, "Jie_Huo", "Wu_Dao")
    assert any(e["event"] == "send" for e in ill["trace"]["events"])


def test_jianghuling_hands_its_grant_out_on_its_owners_send_only(cat):
    """江湖令 answers only a send whose sender is its owner (server skill/JiangHuLing.kt: askWhom === event.sender):
    the timed model no longer lets 王富贵 hand 江湖令·弃情报 out on 钱敏's send — the witness of IV001 that did is no
    game, and the one on his own send is."""
    def give_on_send_of(sender):
        setup = {"seats": [{"character": "wang_fu_gui", "identity": "red", "skills": [{"rule": "JiangHuLing"}]},
                           {"character": "qian_min", "identity": "blue", "skills": [{"rule": "XianFaZhiRen"}]}],
                 "turn": sender}
        return Trace.from_dict({"setup": setup, "events": [
            {"event": "turn", "seat": sender},
            {"event": "window", "window": "send", "in_front": 1 - sender, "sender": sender},
            {"event": "give", "giver": 0, "seat": 0, "site": "JiangHuLing#0", "args": {"color": "red"}}]})
    assert play_run(cat, give_on_send_of(0)).legal
    assert not play_run(cat, give_on_send_of(1)).legal


def test_a_message_window_after_the_receive_ends_the_game(cat):
    """IV001: the skeleton has the message received by 钱敏 and then in front of 孙守謨 for a receive again; in a game
    the received message stops in front of nobody else that turn: the game ends in 钱敏's receive, 先发制人 used in
    争夺阶段 before it."""
    game, got = _game(cat, "a_window_after_the_receive")
    ws = _windows(game)
    assert ws[-1] == ("receive", 1, None) and [w for w, _, _ in ws].count("receive") == 1
    assert got.state.seats[0].invalidated


def test_a_giver_nothing_seated_can_answer_in_the_send_phase_acts_after_an_added_seats_skill(cat):
    """IV001 (咱们工人有知识·拒收 outliving its invalidated giver): 先发制人 acts in 传递阶段 only after a skill put a
    message into an area, which neither 钱敏 nor 火车司机 has there, and 钱敏 cannot accept the message (拒收) to use it
    in 争夺阶段. The template adds a seat — 金自来, whose 赌命 answers the message's move and may put a pure black card
    into his area —, sends the message to him first, and 先发制人 answers his 赌命; then 钱敏 faces the message unable to
    accept it (the game the hand-built test above plays, found by the realiser)."""
    game, got = _game(cat, "an_invalidation_in_the_send_phase_nothing_seated_answers")
    assert [s.character for s in game.setup.seats] == ["qian_min", "huo_che_si_ji", "jin_zi_lai"]
    send = next(e for e in game.events if e.kind == "send")
    assert send.to == 2
    fires = [(e.seat, e.rule) for e in game.events if e.kind == "fire"]
    assert fires.index((2, "DuMing")) < fires.index((0, "XianFaZhiRen"))
    assert _windows(game)[-1] == ("send", 0, None) and got.state.seats[1].invalidated
    w = SKELETONS["an_invalidation_in_the_send_phase_nothing_seated_answers"]
    for t in templates(cat, Trace.from_dict(w["trace"])):     # 钱敏 holds 拒收: she never accepts it
        assert not any(e.kind == "window" and e.window == "fight" and e.in_front == 0 for e in t.events)


def test_the_detour_brings_the_message_back_in_front_of_the_asked_player(cat):
    """IV001 (信鸽联络·拒收 outliving 小铃铛's invalidation by 先发制人 in 传递阶段): the skeleton ends with the message in
    front of 钱敏, who holds 拒收. The detour sends it to the added 金自来 first (his 赌命 answers its move, 先发制人
    answers 赌命's card); from him it is passed on — right, as it was sent — to 钱敏 again, where both questions
    are asked (before, the game ended in front of 金自来 and 拒收 mattered to nobody)."""
    setup = {"seats": [{"character": "qian_min", "identity": "red", "face_up": True, "ever_face_up": True,
                        "skills": [{"rule": "XianFaZhiRen"}]},
                       {"character": "xiao_ling_dang", "identity": "red", "face_up": True, "ever_face_up": True,
                        "skills": [{"rule": "XinGeLianLuo"}, {"rule": "HouZiQieXin"}]}], "turn": 1}
    sk = Trace.from_dict({"setup": setup, "events": [
        {"event": "turn", "seat": 1},
        {"event": "window", "window": "send", "in_front": 0, "sender": 1},
        {"event": "give", "giver": 1, "seat": 0, "site": "XinGeLianLuo#0"},
        {"event": "give", "giver": 0, "seat": 1, "site": "XianFaZhiRen#0"}]})
    base = play_run(cat, sk)
    assert base.legal, base.errors
    qs = [({"decision": "holds", "rule": "XinGeLianLuo2", "seat": 0}, {"holds": True, "live": True}),
          ({"decision": "holds", "rule": "XinGeLianLuo", "seat": 1}, {"holds": True, "invalidated": True, "live": False}),
          ({"decision": "matters", "rule": "XinGeLianLuo2", "seat": 0, "args": {}}, {"matters": True})]
    for q, e in qs:
        assert matches(decide(cat, base.state, q), e), q
    game, why = realise(cat, sk, base.state, qs)
    assert game is not None, why
    got = play_run(cat, game)
    assert got.legal, got.errors
    assert [s.character for s in game.setup.seats] == ["qian_min", "xiao_ling_dang", "jin_zi_lai"]
    assert next(e for e in game.events if e.kind == "send").to == 2
    assert _windows(game)[-1] == ("send", 0, None)
    kinds = [e.kind for e in game.events]
    assert kinds.index("give") < len(kinds) - 1          # the grants before the pass, next to their fires
    for q, e in qs:
        assert matches(decide(cat, got.state, q), e), q


def test_the_detour_goes_on_past_a_stop_at_the_sender(cat):
    """IV001 (强令's 不能出牌 outliving its invalidation): the skeleton has the message passed back to its sender 张一挺
    — where a passed message stops for good — for 先发制人 to act at, then in front of 钱敏 again. The detour makes
    金自来's 赌命 the moment instead and passes the message from him straight on to 钱敏."""
    setup = {"seats": [{"character": "qian_min", "identity": "red", "face_up": True, "ever_face_up": True,
                        "skills": [{"rule": "XianFaZhiRen"}]},
                       {"character": "zhang_yi_ting", "identity": "red", "face_up": True, "ever_face_up": True,
                        "skills": [{"rule": r} for r in cat.characters["zhang_yi_ting"].skills]}], "turn": 1}
    sk = Trace.from_dict({"setup": setup, "events": [
        {"event": "turn", "seat": 1},
        {"event": "window", "window": "send", "in_front": 0, "sender": 1},
        {"event": "give", "giver": 1, "seat": 0, "site": "QiangLing#0", "args": {"all_cards": False, "cards": ["Po_Yi"]}},
        {"event": "window", "window": "send", "in_front": 1, "sender": 1},
        {"event": "give", "giver": 0, "seat": 1, "site": "XianFaZhiRen#0"},
        {"event": "window", "window": "send", "in_front": 0, "sender": 1}]})
    base = play_run(cat, sk)
    assert base.legal, base.errors
    qs = [({"decision": "holds", "rule": "CannotPlayCard", "seat": 0}, {"holds": True, "live": True}),
          ({"decision": "holds", "rule": "QiangLing", "seat": 1}, {"holds": True, "invalidated": True, "live": False}),
          ({"decision": "matters", "rule": "CannotPlayCard", "seat": 0, "args": {"all_cards": False, "cards": ["Po_Yi"]}},
           {"matters": True})]
    for q, e in qs:
        assert matches(decide(cat, base.state, q), e), q
    game, why = realise(cat, sk, base.state, qs)
    assert game is not None, why
    assert [w for w in _windows(game) if w[0] == "send"] == [("send", 0, None)]
    assert got_legal(cat, game)


def got_legal(cat, game) -> bool:
    got = play_run(cat, game)
    return got.legal and not got.errors


def test_a_killer_skill_is_one_the_seat_holds_then_not_after_houlairen(cat):
    """RR001: SP端木静 dying in his own 出牌阶段 and made 小铃铛 by 后来人 in that dying window. 小铃铛's 猴子窃信 (a
    MainPhaseSkill that may put a message into an area) is a skill of the character he becomes only after the dying
    window: it is no killer of it (before, every template used it there, and none could be filled)."""
    def seat(c, face_up, **counts):
        return {"character": c, "identity": "red", "face_up": face_up, "ever_face_up": face_up,
                "skills": [{"rule": r} for r in cat.characters[c].skills], **counts}
    seats = [seat("sp_duan_mu_jing", False, blue_messages=1, true_messages=1, non_black_messages=1),
             seat("qian_min", True)]
    sk = Trace.from_dict({"setup": {"seats": seats, "turn": 0},
                          "events": [
        {"event": "turn", "seat": 0}, {"event": "window", "window": "main"},
        {"event": "give", "giver": 0, "seat": 0, "site": "Diao_Hu_Li_Shan#1", "args": {"all_cards": True, "cards": []}},
        {"event": "window", "window": "dying", "dying": 0},
        {"event": "replace", "seat": 0, "character": "xiao_ling_dang"},
        {"event": "window", "window": "main"}]})
    base = play_run(cat, sk)
    assert base.legal, base.errors
    ts = templates(cat, sk)
    assert ts
    for t in ts:
        k = next(i for i, e in enumerate(t.events) if e.kind == "replace")
        assert not any(e.kind == "use" and e.rule == "HouZiQieXin" for e in t.events[:k])
