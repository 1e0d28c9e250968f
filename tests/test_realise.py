"""checks/realise.py: a timed-model witness made a game of the server — its templates, the twin's filling, the
interpreter's replay — and how check reports a witness with no game under it."""
from __future__ import annotations

import pytest

from skillproof.checks.context import Options, run
from skillproof.checks.realise import active_in, current_window, realise, sends_from, templates
from skillproof.model import loader
from skillproof.model.interp.decide import decide, matches
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.trace import Event, Trace
from skillproof.model.interp.hole import Hole
from skillproof.model.state import Seat, SkillInst, State


@pytest.fixture(scope="module")
def cat():
    return loader.load()


@pytest.fixture(scope="module")
def shipped(cat):
    return run(cat, Options(), jobs=2)


def _skeleton(cat, chars, events, turn=0):
    seats = []
    for c in chars:
        s = Seat(character=c, identity="red", face_up=True, ever_face_up=True)
        s.skills = [SkillInst(r) for r in cat.characters[c].skills]
        seats.append(s)
    return Trace(State(seats=seats, turn=turn), events)


def test_a_grant_handed_out_at_the_send_phase_start_becomes_a_game(cat):
    """变则通 (陈大耳) hands 变则通·宣言 out at 传递阶段开始时: the game draws, fires 变则通, sends a message to SP李宁玉
    and asks in 争夺阶段 — the interpreter replays it legally and answers as the skeleton did."""
    sk = _skeleton(cat, ["sp_li_ning_yu", "chen_da_er"], [
        Event("turn", seat=1), Event("window", window="send_start"),
        Event("give", seat=0, giver=1, site="BianZeTong#0", args={"A": "Jie_Huo", "B": "Diao_Bao"}),
        Event("window", window="fight", in_front=0, sender=1)], turn=1)
    base = play_run(cat, sk)
    assert base.legal, base.errors
    q = {"decision": "can_play", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"}
    expect = {"can_play": False}
    assert matches(decide(cat, base.state, q), expect)
    game, why = realise(cat, sk, base.state, [(q, expect)])
    assert game is not None, why
    assert game.table
    got = play_run(cat, game)
    assert got.legal, got.errors
    kinds = [e.kind for e in game.events]
    assert kinds.index("draw") < kinds.index("fire") < kinds.index("give") < kinds.index("send")
    assert next(e for e in game.events if e.kind == "draw").n is not None      # the trace tells what was drawn
    assert matches(decide(cat, got.state, q), expect)


def test_a_skill_used_in_place_of_the_send_comes_before_it_and_gives_its_card(cat):
    """冷血训练 hands 不能出牌(调包) out at the send: its use is put right before the send, which takes its card from
    the deck's top (the effect's send_message ``from``), not from the hand; its MustLockOne comes to its user right
    after the use (realise.to_one: GameRunner.gives_to_one), and the send locks the player it chose — a hole the
    solver ties to the use's ``chosen`` (its send_message ``lock``)."""
    sk = _skeleton(cat, ["chen_da_er", "sp_han_mei"], [
        Event("turn", seat=1), Event("window", window="send", in_front=0, sender=1),
        Event("give", seat=0, giver=1, site="LengXueXunLian#1", args={"all_cards": False, "cards": ("Diao_Bao",)}),
        Event("window", window="fight", in_front=0, sender=1)], turn=1)
    base = play_run(cat, sk)
    assert base.legal, base.errors
    tmpl = templates(cat, sk, base)[0]
    kinds = [e.kind for e in tmpl.events]
    use = kinds.index("use")
    assert tmpl.events[use].rule == "LengXueXunLian" and kinds[use + 1:use + 3] == ["give", "send"]
    g = tmpl.events[use + 1]
    assert (g.site, g.giver, g.seat) == ("LengXueXunLian#0", 1, 1)
    assert tmpl.events[use + 2].source == sends_from(cat.skills["LengXueXunLian"].do) == "deck_top"
    assert isinstance(tmpl.events[use + 2].locks, Hole) and isinstance(tmpl.events[use].chosen, Hole)


def test_the_walks_helpers():
    assert current_window([Event("turn", seat=0), Event("draw")]) is None
    assert current_window([Event("window", window="main"), Event("use", seat=0, rule="X")]) == "main"
    assert current_window([Event("window", window="send_start"), Event("send", seat=0)]) == "send"


def test_active_in_reads_windows_and_their_conditions(cat):
    xf = cat.skills["XianFaZhiRen"]              # 先发制人: 争夺阶段 only (its dying condition is false)
    assert active_in(xf, "fight") and not active_in(xf, "dying") and not active_in(xf, "send")


def test_most_shipped_witnesses_are_games_and_the_rest_say_so(cat, shipped):
    """Every finding's witness is either a game the interpreter replays (``"table": true``) or the timed model's
    trace marked ``unrealised`` with its reason — never a timed trace passed off as a game."""
    games = unrealised = 0
    for f in shipped.findings:
        w = f.witness or {}
        if "trace" not in w:
            continue
        if "unrealised" in w:
            unrealised += 1
            assert w["unrealised"]["zh"] and w["unrealised"]["en"]
            assert not w["trace"].get("table")
            continue
        if w["trace"].get("table"):
            games += 1
            got = play_run(cat, Trace.from_dict(w["trace"]))
            assert got.legal, (f.id, got.errors)
            assert matches(decide(cat, got.state, w["question"]), w["expect"]), f.id
    assert games >= 30 and games > unrealised, (games, unrealised)


def test_require_games_makes_an_unrealised_witness_inconclusive(cat, shipped):
    if not any("unrealised" in (f.witness or {}) for f in shipped.findings):
        pytest.skip("every witness is a game")
    strict = run(cat, Options(require_games=True), jobs=2)
    inc = [f for f in strict.findings if f.inconclusive and f.details.get("why")]
    assert inc and all(f.check == "INC001" for f in inc)
    assert not any("unrealised" in (f.witness or {}) and not f.inconclusive for f in strict.findings)


def test_a_template_is_skipped_only_where_no_filling_can_answer(cat):
    """``asks_there``: the window a template ends in is its events' (the interpreter's final window on every filled
    game), and a template ending outside a question's decision windows is not solved; ``stop_at_false``: a check the
    concrete parts make False stops the encoding (Illegal), where the full encoding's constraints are unsatisfiable."""
    import z3
    from skillproof.checks.enc.game import GameEncoding, Illegal
    from skillproof.checks.realise import asks_there, end_window, solve
    sk = _skeleton(cat, ["sp_li_ning_yu", "chen_da_er"], [
        Event("turn", seat=1), Event("window", window="send_start"),
        Event("give", seat=0, giver=1, site="BianZeTong#0", args={"A": "Jie_Huo", "B": "Diao_Bao"}),
        Event("window", window="fight", in_front=0, sender=1)], turn=1)
    base = play_run(cat, sk)
    ts = templates(cat, sk, base)
    assert ts
    for t in ts:
        game = solve(cat, t, base.state)
        if game is not None:
            assert play_run(cat, game).state.window == end_window(t.events) == "fight"
    fight = {"decision": "skip_fight", "seat": 0}
    receive = {"decision": "receive", "seat": 0}
    assert asks_there(ts[0], [(fight, {})]) and not asks_there(ts[0], [(fight, {}), (receive, {})])
    # a send window right after the fight window: illegal whatever the holes hold
    bad = Trace(ts[0].setup, list(ts[0].events) + [Event("window", window="send", in_front=0)], table=True)
    with pytest.raises(Illegal):
        GameEncoding(cat, bad, keep_states=False, stop_at_false=True)
    full = GameEncoding(cat, bad)
    s = z3.Solver()
    s.add([lab.expr for lab in full.legal])
    assert s.check() == z3.unsat
    assert solve(cat, bad, base.state) is None


def test_a_result_pass_question_is_answered_by_a_game_that_ends_in_its_win_check():
    """OD002-kind questions ask the result pass over given declared winners in a given turn; the server folds it only
    in a win check (ProcessFsm.checkWin after a receive: Game.checkWin, changeGameResult from whose turn). The
    template plays the turns up to the question's (each a whole message cycle) and has the message received there;
    the game must end at that check, in that turn, its check handing the pass the question's declared winners
    (before, the game went on with nobody winning and only the pass's arithmetic answered)."""
    import os
    from skillproof.checks.realise import won_as_asked
    fam = os.path.join(os.path.dirname(__file__), "fixtures", "families")
    cat = loader.load([os.path.join(fam, "base.toml"), os.path.join(fam, "order", "trigger.toml")])
    seats = [Seat(character=c, identity=i, face_up=True, ever_face_up=True,
                  skills=[SkillInst(r) for r in cat.characters[c].skills])
             for c, i in (("w1", "red"), ("w2", "blue"), ("g1", "black"))]
    seats[0].red_messages = seats[0].true_messages = seats[0].non_black_messages = 3
    sk = Trace(State(seats=seats, turn=0), [Event("turn", seat=0), Event("window", window="send_start")])
    base = play_run(cat, sk)
    assert base.legal, base.errors
    qs = []
    for seating in ([0, 1, 2], [1, 0, 2]):
        q = {"decision": "result", "kind": "result", "turn": 2, "declared": [0], "winners": [0], "picks": {},
             "seating": seating}
        qs.append((q, decide(cat, base.state, q)))
    assert qs[0][1] == {"declared": [0], "winners": [1]}     # 搅局 takes the win from the red declarer
    game, why = realise(cat, sk, base.state, qs)
    assert game is not None, why
    got = play_run(cat, game)
    assert got.legal, got.errors
    assert got.state.winners is not None and got.state.turn == 2
    assert [e.kind for e in game.events][-1] == "window" and game.events[-1].window == "receive"
    assert sorted(got.state.declared) == [0] and sorted(got.state.winners) == [1]
    for q, e in qs:
        assert matches(decide(cat, got.state, q), e) and won_as_asked(cat, got.state, q)


def test_a_matters_question_rules_out_the_windows_where_its_rule_cannot_matter(cat):
    """``matters_windows`` (what ``asks_there`` skips a template by, for a ``matters`` question) only rules out moments:
    for every rule of the shipped catalogue and every window, a state at that window where ``grant_matters`` holds —
    seat 0 the turn player, the sender, in front of the message and dying, so that every actor is him — is at one of
    its windows. And it does rule some out: a receive rule matters only in 传递阶段, a ban of 破译 only where 破译 is used."""
    from skillproof.model.catalogue import Ref
    from skillproof.model.interp.grants import grant_matters, matters_windows
    from skillproof.model.turn import WINDOWS
    checked = 0
    for rid, rule in cat.skills.items():
        args = {}
        if rule.ban is not None:
            if isinstance(rule.ban.all, Ref):
                args[rule.ban.all.value] = False
            if isinstance(rule.ban.cards, Ref):
                args[rule.ban.cards.value] = tuple(cat.cards)
        wins = matters_windows(cat, rid, args)
        if wins is None:
            continue
        for w in WINDOWS:
            st = _skeleton(cat, ["sp_li_ning_yu", "chen_da_er"], []).setup
            st.window, st.sender, st.in_front, st.dying, st.turn_sender = w, 0, 0, 0, 0
            if grant_matters(cat, st, 0, SkillInst(rid, args)):
                assert w in wins, (rid, w, sorted(wins))
            checked += 1
    assert checked > 50
    assert matters_windows(cat, "WorkersAreKnowledgable2", {}) == {"send"}
    ban = next(r for r in cat.skills.values() if r.ban is not None and isinstance(r.ban.cards, Ref))
    only_po_yi = {ban.ban.cards.value: ("Po_Yi",)} | ({ban.ban.all.value: False} if isinstance(ban.ban.all, Ref) else {})
    assert matters_windows(cat, ban.id, only_po_yi) == set(cat.cards["Po_Yi"].windows)
    # a template ending in 争夺阶段 is not solved for a receive rule's question (without the catalogue: no rule read)
    from skillproof.checks.realise import asks_there
    sk = _skeleton(cat, ["sp_li_ning_yu", "chen_da_er"], [
        Event("turn", seat=1), Event("window", window="send_start"),
        Event("give", seat=0, giver=1, site="BianZeTong#0", args={"A": "Jie_Huo", "B": "Diao_Bao"}),
        Event("window", window="fight", in_front=0, sender=1)], turn=1)
    t = templates(cat, sk)[0]
    recv = {"decision": "matters", "seat": 0, "rule": "WorkersAreKnowledgable2", "args": {}}
    assert not asks_there(t, [(recv, {"matters": True})], cat) and asks_there(t, [(recv, {"matters": True})])


def test_realisation_runs_in_a_z3_context_of_its_own(cat):
    """``realise`` solves its fillings in a z3 context of its own (checks/terms.own_context): the caller's context
    gets no term from it — the next term the caller makes has the number it would have had — and the caller's cache
    of constants (enc/val.z) is its own again after it; the game found is the same when realised twice from a fresh
    context (one per lane: fresh_own_context)."""
    import z3
    from skillproof.checks.enc.val import z
    from skillproof.checks.terms import fresh_own_context, own_context, renew_own_context
    sk = _skeleton(cat, ["sp_li_ning_yu", "chen_da_er"], [
        Event("turn", seat=1), Event("window", window="send_start"),
        Event("give", seat=0, giver=1, site="BianZeTong#0", args={"A": "Jie_Huo", "B": "Diao_Bao"}),
        Event("window", window="fight", in_front=0, sender=1)], turn=1)
    base = play_run(cat, sk)
    q = {"decision": "can_play", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"}
    main = z3.main_ctx()
    seven = z(7)
    z3.Int("own_ctx_probe_a")
    n0 = z3.Int("own_ctx_probe_b").get_id()
    games = []
    for _ in range(2):
        fresh_own_context()
        game, why = realise(cat, sk, base.state, [(q, {"can_play": False})])
        assert game is not None, why
        games.append(game.to_dict())
        z3.Int("own_ctx_probe_a")
        assert z3.Int("own_ctx_probe_b").get_id() == n0      # no term of this context was made or freed meanwhile
    assert games[0] == games[1]
    assert z3.main_ctx() is main and z(7) is seven
    with own_context() as mine:
        assert mine is not main and z3.main_ctx() is mine and z3.Int("v").ctx is mine
        assert z(7) is not seven and z(7).ctx is mine
        renew_own_context()                                   # a fresh one from here on (solve's second try)
        assert z3.main_ctx() is not mine and z3.main_ctx() is not main
    assert z3.main_ctx() is main and z(7) is seven
    renew_own_context()                                       # outside a block: nothing
    assert z3.main_ctx() is main
