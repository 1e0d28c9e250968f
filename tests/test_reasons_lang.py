"""The interpreter's reasons in one language per run (issue 13, item 5): why a trace is illegal (``model.interp.trace``),
why an untimed state is unreachable and why a table cannot be (``model.interp``), why a witness does not
replay (``checks.context.replay_problems``) — each a ``model.reason.Reason`` holding Chinese and English.

Many illegal traces are made — random ones (tests/randtrace.py), legal witnesses broken on purpose (the turn
dropped, a character seated twice, a grant handed out by a seat that holds nothing, a site used past its
per-turn limit, a window out of order, …) and tables that cannot be — and every reason is held to its
languages: the Chinese text has no English prose (tests/langcheck.py ``english_prose``), the English text no
CJK outside the catalogue's names, no enum id and no Python repr (``foreign_in_english``). The set of reasons
seen is checked to reach (nearly) every reason the interpreter can give, so the check cannot pass by making
few. `skillproof replay` of a broken scenario file prints its reasons in Chinese by default and in English
under --lang en (a subprocess, as a designer runs it)."""
from __future__ import annotations

import copy
import dataclasses
import json
import os
import pickle
import random
import subprocess
import sys

import pytest

from skillproof.checks import context as CX
from skillproof.checks import mismatch as MM
from skillproof.model.interp.snapshot import reachable
from skillproof.model import lang, loader
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.reason import Reason, at_event, both, en, join, zh
from skillproof.model.state import Seat, SkillInst, State
from skillproof.model.interp.trace import Event, Trace

from langcheck import english_prose, foreign_in_english, names_of
from randstate import random_state
from randtrace import random_trace

E = Event
#: what the reasons may quote that is the same in both languages: the catalogue key of a rule, and the
#: unknown names the broken witnesses below give (echoed as written, in 「」 / “”)
ALLOWED = ["[rules] lock_self = false", "「mian」", "「PoYi」", "「jump」", "「Nope#0」", "「nobody」", "「laohan」"]


@pytest.fixture(scope="module")
def cat():
    return loader.load(None)


def seat(cat, cid, **kw) -> Seat:
    s = Seat(character=cid, face_up=True, ever_face_up=True, identity="red")
    s.skills = [SkillInst(r) for r in cat.characters[cid].skills]
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def base(cat) -> Trace:
    """A legal witness: 陈大耳's turn, 变则通 hands SP李宁玉 变则通·宣言 as the message is sent, the fight phase."""
    return Trace(State([seat(cat, "sp_li_ning_yu"), seat(cat, "chen_da_er")], turn=1), [
        E("turn", seat=1), E("window", window="send_start"),
        E("give", seat=0, giver=1, site="BianZeTong#0", args={"A": "Jie_Huo", "B": "Po_Yi"}),
        E("window", window="send", in_front=0), E("window", window="fight", in_front=0)])


def check_languages(cat, reasons, allowed=()) -> list:
    """Every reason a Reason, its Chinese free of English prose and its English of foreign text; the leaks."""
    bad = []
    for r in reasons:
        if not isinstance(r, Reason):
            bad.append(f"not a Reason: {r!r}")
            continue
        # (the catalogue's names are taken out first: a random catalogue's 牌K2 holds its id K2)
        ok = ALLOWED + list(allowed) + names_of(cat)
        leaks = english_prose(r.zh, cat, ok) + foreign_in_english(r.en, cat, ok)
        if leaks or not r.zh or not r.en:
            bad.append(f"{r!r}: {leaks}")
    return bad


def reasons_of(cat, trace) -> list:
    return [why for _, why in play_run(cat, trace).errors]


# --------------------------------------------------------------------------------------------- the type
def test_a_reason_is_a_string_in_the_language_it_was_made_in_and_keeps_both():
    with lang.using("zh"):
        r = Reason("经过没有开始任何回合", "the trace starts no turn")
    assert r == "经过没有开始任何回合" and str(r) == r.zh and f"{r}" == r.zh and json.dumps(r) == json.dumps(r.zh)
    with lang.using("en"):
        r = Reason("经过没有开始任何回合", "the trace starts no turn")
    assert r == "the trace starts no turn" and "starts no turn" in r and r.zh == "经过没有开始任何回合"
    back = pickle.loads(pickle.dumps(r))                  # a check's lanes send findings across processes
    assert isinstance(back, Reason) and back == r and (back.zh, back.en) == (r.zh, r.en)
    assert copy.deepcopy(r).zh == r.zh
    assert zh("plain") == en("plain") == "plain"          # a plain string is the same in both
    j = join([r, "x"])
    assert (j.zh, j.en) == ("经过没有开始任何回合；x", "the trace starts no turn; x")
    assert (at_event(-1, 3, r).en, at_event(3, 3, r).zh, at_event(1, 3, r).en) == \
        ("the table at the start: the trace starts no turn", "结尾：经过没有开始任何回合", "event 1: the trace starts no turn")
    assert both(lang.pick, "中", "en") == Reason("中", "en") and both(lang.pick, "中", "en").zh == "中"


def test_a_reason_made_under_zh_reads_chinese(cat):
    t = base(cat)
    t.events = t.events[1:]                                 # no turn
    with lang.using("zh"):
        why = reasons_of(cat, t)
    assert "经过没有开始任何回合" in why and all(isinstance(w, Reason) for w in why)
    assert english_prose("；".join(why), cat) == []
    assert "the trace starts no turn" in [w.en for w in why]


# ----------------------------------------------------------------------------- broken witnesses, by hand
def _mutants(cat):
    """(name, trace or state, what the English reason says) — each a legal witness broken in one way, or a
    table that cannot be; ``state`` entries are untimed states for ``interp.snapshot.reachable``."""
    b = base(cat)

    def m(f):
        t = copy.deepcopy(b)
        f(t)
        return t

    def ev(t, i, **kw):
        for k, v in kw.items():
            setattr(t.events[i], k, v)

    def ins(t, i, e):
        t.events.insert(i, e)

    out = [
        ("turn dropped", m(lambda t: t.events.pop(0)), "the trace starts no turn"),
        ("turn dropped", m(lambda t: t.events.pop(0)), "a window before any turn started"),
        ("character twice", m(lambda t: setattr(t.setup.seats[0], "character", "chen_da_er")), "a character sits twice"),
        ("a giver holding nothing", m(lambda t: ev(t, 2, giver=0)), "does not hold a live 变则通"),
        ("per turn exceeded", m(lambda t: ins(t, 3, copy.deepcopy(t.events[2]))), "at most 1 time(s) a turn"),
        ("unknown window", m(lambda t: ev(t, 3, window="mian")), "unknown window"),
        ("window out of order", m(lambda t: ins(t, 4, E("window", window="main"))), "cannot follow"),
        ("a turn mid-turn", m(lambda t: ins(t, 4, E("turn", seat=0))), "a new turn starts in the send phase"),
        ("the same player again", m(lambda t: t.events.extend([E("window", window="receive", in_front=0),
                                                               E("window", window="turn_end"), E("turn", seat=1),
                                                               E("window", window="main")])),
         "the next turn is another player's"),
        ("a turn of no seat", m(lambda t: ev(t, 0, seat=7)), "whose turn: not a seat"),
        ("dying no seat", m(lambda t: ins(t, 5, E("window", window="dying", dying=9))), "the dying player is not a seat"),
        ("message before no seat", m(lambda t: ev(t, 3, in_front=8)), "the message must be in front of a seat"),
        ("sender no seat", m(lambda t: ev(t, 3, sender=8)), "the sender is not a seat"),
        ("use unheld", m(lambda t: t.events.append(E("use", seat=0, rule="BianZeTong"))), "holds no unused 变则通"),
        ("use no seat", m(lambda t: t.events.append(E("use", seat=5, rule="YingBian"))), "use: not a seat"),
        ("play no seat", m(lambda t: t.events.append(E("play", seat=5, card="Po_Yi"))), "play: not a seat"),
        ("play unknown", m(lambda t: t.events.append(E("play", seat=0, card="PoYi"))), "play: unknown card"),
        ("play out of window", m(lambda t: ins(t, 1, E("play", seat=1, card="Po_Yi"))), "cannot use 破译 in the draw phase"),
        ("unknown event", m(lambda t: t.events.append(E("jump", seat=0))), "unknown event"),
        ("unknown site", m(lambda t: ev(t, 2, site="BianZeTong#7")), "no gives site “变则通#7”"),
        ("unknown site giver", m(lambda t: ev(t, 2, site="Nope#0")), "no gives site “Nope#0”"),
        # a site past a card's last, named by the card's name as a skill's is (site_name: every kind of giver)
        ("unknown site of a card", m(lambda t: ev(t, 2, site="Diao_Hu_Li_Shan#7")), "no gives site “调虎离山#7”"),
        ("give before a turn", m(lambda t: t.events.pop(0)), "a grant before any turn started"),
        ("give after the turn", m(lambda t: t.events.extend([E("window", window="receive", in_front=0),
                                                             E("window", window="turn_end"),
                                                             copy.deepcopy(t.events[2])])), "the turn has ended"),
        ("ends after the turn", m(lambda t: t.events.extend([E("window", window="receive", in_front=0),
                                                             E("window", window="turn_end")])),
         "the trace ends after the turn ended"),
        ("giver no seat", m(lambda t: ev(t, 2, giver=9)), "giver or receiver is not a seat"),
        ("wrong window", m(lambda t: ev(t, 1, window="main")), "hands this out only at the start of the send phase, not in the main phase"),
        ("when broken", m(lambda t: ev(t, 0, seat=0)), "does not meet the condition 变则通 hands this out on"),
        ("where broken", m(lambda t: ev(t, 2, args={"A": "Jie_Huo", "B": "Jie_Huo"})), "break the condition"),
        ("a parameter missing", m(lambda t: ev(t, 2, args={"A": "Jie_Huo"})), "parameter B has no value"),
        ("setup granted", m(lambda t: t.setup.seats[0].skills.append(SkillInst("BianZeTong2", {"A": "Jie_Huo", "B": "Po_Yi"},
                                                                              giver=1, site="BianZeTong#0"))),
         "a granted skill at the start"),
        ("setup invalidated", m(lambda t: setattr(t.setup.seats[1], "invalidated", True)), "invalidated at the start"),
        ("setup played", m(lambda t: setattr(t.setup.seats[1], "played", frozenset({"Po_Yi"}))), "cards played at the start"),
        ("no identity", m(lambda t: setattr(t.setup.seats[1], "identity", "none")), "always has an identity"),
        ("one seat", m(lambda t: (t.setup.seats.pop(0), [ev(t, i, seat=0, giver=0, in_front=0)
                                                         for i in range(len(t.events))])), "1 seats: a game has 2 to 9"),
        ("turn of the table", m(lambda t: setattr(t.setup, "turn", 5)), "the turn player is not a seat"),
        ("setup dying", m(lambda t: setattr(t.setup, "dying", 5)), "the dying player is not a seat"),
        ("unknown character", m(lambda t: (setattr(t.setup.seats[0], "character", "nobody"),
                                           setattr(t.setup.seats[0], "skills", []))), "unknown character “nobody”"),
        ("public face down", m(lambda t: setattr(t.setup.seats[0], "face_up", False)), "public role and cannot be face down"),
        ("never face up", m(lambda t: setattr(t.setup.seats[1], "ever_face_up", False)), "face up, yet never face up"),
        ("true messages", m(lambda t: setattr(t.setup.seats[1], "true_messages", 2)), "red or blue messages do not fit"),
        ("non-black", m(lambda t: setattr(t.setup.seats[1], "non_black_messages", 1)), "more messages with no black"),
        ("skill missing", m(lambda t: t.setup.seats[0].skills.pop(0)), "is missing from SP李宁玉's skills"),
        ("not its skill", m(lambda t: t.setup.seats[0].skills.append(SkillInst("BianZeTong"))),
         "变则通 is not SP李宁玉's skill"),
    ]
    # a card that hands out a grant, used where it cannot be; a site that reaches only its giver; fixed arguments
    out += [
        ("card out of window", Trace(State([seat(cat, "sp_li_ning_yu"), seat(cat, "chen_da_er")]), [
            E("turn", seat=0), E("window", window="main"), E("give", seat=1, giver=1, site="Diao_Hu_Li_Shan#0")]),
         "cannot use 调虎离山 in the main phase"),
        ("to self", Trace(State([seat(cat, "sp_li_ning_yu"), seat(cat, _holder(cat, "LengXueXunLian"))], turn=1), [
            E("turn", seat=1), E("window", window="send_start"), E("give", seat=0, giver=1, site="LengXueXunLian#0")]),
         "hands this out to the giver alone: it cannot reach seat 0"),
        ("to others", Trace(State([seat(cat, _holder(cat, "JinBi")), seat(cat, "chen_da_er")]), [
            E("turn", seat=0), E("window", window="main"), E("give", seat=0, giver=0, site="JinBi#0")]),
         "other players only"),
        ("fixed args", Trace(State([seat(cat, _holder(cat, "JieCheYunHuo")), seat(cat, "chen_da_er")]), [
            E("turn", seat=0), E("window", window="send_start"), E("window", window="send", in_front=1),
            E("give", seat=1, giver=0, site="JieCheYunHuo#0", args={"cards": ("Po_Yi",), "all_cards": False})]),
         "parameter cards must be {误导}"),
        ("active out of window", Trace(State([seat(cat, "sp_li_ning_yu"), seat(cat, _holder(cat, "JinBi"))], turn=1), [
            E("turn", seat=1), E("window", window="main"), E("window", window="dying", dying=0),
            E("give", seat=0, giver=1, site="JinBi#0")]), "hands this out only in the main phase"),
    ]
    # role replacement
    r = _holder(cat, "HouLaiRen")
    # 后来人: used while dying, face down, with a red or blue message
    rep = Trace(State([seat(cat, r, face_up=False, red_messages=1, true_messages=1, non_black_messages=1),
                       seat(cat, "chen_da_er")], turn=1), [E("turn", seat=1), E("window", window="main")])

    def rm(f):
        t = copy.deepcopy(rep)
        f(t)
        return t
    out += [
        ("replace no seat", rm(lambda t: t.events.append(E("replace", seat=6, character="lao_han"))), "replace: not a seat"),
        ("replace unheld", rm(lambda t: t.events.append(E("replace", seat=1, character="lao_han"))),
         "holds no live skill that replaces its role"),
        ("replace out of window", rm(lambda t: t.events.append(E("replace", seat=0, character="lao_han"))),
         "cannot use its role-replacing skill in the main phase"),
        ("replace unknown", rm(lambda t: t.events.append(E("window", window="dying", dying=0)) or
                               t.events.append(E("replace", seat=0, character="laohan"))), "unknown character “laohan”"),
        ("replace with one at the table", rm(lambda t: t.events.append(E("window", window="dying", dying=0)) or
                                             t.events.append(E("replace", seat=0, character="chen_da_er"))),
         "陈大耳 is already at the table"),
    ]
    return out


def _holder(cat, rule: str) -> str:
    return next(c for c, ch in sorted(cat.characters.items()) if rule in ch.skills)


def _untimed(cat):
    """(name, state, what the English reason says) — untimed states that no game reaches."""
    def st(*seats, **kw):
        return State(list(seats), **kw)

    me, cde = seat(cat, "sp_li_ning_yu"), seat(cat, "chen_da_er")
    g = SkillInst("BianZeTong2", {"A": "Jie_Huo", "B": "Po_Yi"}, giver=1, site="BianZeTong#0")
    out = []

    def with_grant(inst, turn=1, **kw):
        a = copy.deepcopy(me)
        a.skills.append(inst)
        return st(a, copy.deepcopy(cde), turn=turn, **kw)

    out += [
        ("no giver", with_grant(dataclasses.replace(g, giver=None)), "needs its giver seat and site"),
        ("no site", with_grant(dataclasses.replace(g, site="BianZeTong#3")), "no gives site 变则通#3 hands out this grant"),
        ("giver no seat", with_grant(dataclasses.replace(g, giver=4)), "the giver is not a seat"),
        ("giver lacks it", with_grant(dataclasses.replace(g, giver=0)), "does not have 变则通, which gives it"),
        ("when", with_grant(g, turn=0), "given this turn, but the giver does not meet the condition"),
        ("where", with_grant(dataclasses.replace(g, args={"A": "Jie_Huo", "B": "Jie_Huo"})), "break the condition"),
        ("per turn", st(copy.deepcopy(me), copy.deepcopy(cde), turn=1), None),
        ("seats", st(*[seat(cat, c) for c in sorted(cat.characters)[:10]]), "10 seats: a game has 1 to 9"),
        ("sender", st(copy.deepcopy(me), copy.deepcopy(cde), sender=4), "the sender is not a seat"),
        ("in front", st(copy.deepcopy(me), copy.deepcopy(cde), in_front=4),
         "the player the message is in front of is not a seat"),
        ("granted first", st(dataclasses.replace(copy.deepcopy(me), skills=[g] + [SkillInst(r) for r in
                                                                           cat.characters["sp_li_ning_yu"].skills]),
                             copy.deepcopy(cde), turn=1), "a granted skill stands before an initial one"),
    ]
    a = copy.deepcopy(me)
    a.skills += [g, dataclasses.replace(g, args={"A": "Po_Yi", "B": "Wu_Dao"})]
    out.append(("per turn", st(a, copy.deepcopy(cde), turn=1), "2 grants from 变则通#0 this turn, at most 1"))
    a = copy.deepcopy(me)
    a.skills[0].invalid = True                          # only one initial skill wrapped
    out.append(("half invalidated", st(a, copy.deepcopy(cde)), "invalidation wraps every initial skill and nothing else"))
    return [x for x in out if x[2] is not None]


def test_every_hand_made_illegal_trace_is_named_in_both_languages(cat):
    seen_en, leaks = [], []
    for name, t, says in _mutants(cat):
        why = reasons_of(cat, t)
        assert why, name
        assert any(says in w.en for w in why), (name, says, [w.en for w in why])
        leaks += check_languages(cat, why)
        seen_en += [w.en for w in why]
    assert leaks == []
    assert len(set(seen_en)) >= 50


def test_every_unreachable_state_is_named_in_both_languages(cat):
    leaks = []
    for name, st, says in _untimed(cat):
        why = reachable(cat, st)
        assert any(says in w.en for w in why), (name, says, [w.en for w in why])
        leaks += check_languages(cat, why)
    # invalidated where nothing at the table (and no card) invalidates
    c = copy.copy(cat)
    c.invalidation_sites = lambda: []
    a = seat(cat, "sp_li_ning_yu")
    for i in a.skills:
        i.invalid = True
    why = reachable(c, State([a, seat(cat, "chen_da_er")]))
    assert [w.en for w in why] == ["seat 0: nothing in this game can invalidate skills"]
    assert leaks + check_languages(cat, why) == []


def test_lock_self_false_names_the_rule(cat):
    c = copy.copy(cat)
    c.rules = dataclasses.replace(cat.rules, lock_self=False)
    t = base(c)
    t.setup.seats[0].locked = True
    t.events[3].sender = 0
    why = reasons_of(c, t)
    assert [w.zh for w in why] == ["座位0传出了情报，却被它锁定（[rules] lock_self = false：传出者不锁定自己）"]
    assert check_languages(c, why) == []


def test_random_traces_give_reasons_in_both_languages(cat):
    """Random traces (a loose generator: most are illegal in some way) and the same traces with one event
    dropped, duplicated or moved: every reason holds to its languages, and many kinds of reason appear."""
    rng = random.Random(13)
    leaks, kinds = [], set()
    n_illegal = 0
    for _ in range(300):
        t = random_trace(rng, cat, n_max=4, g_max=3)
        variants = [t]
        if t.events:
            for op in ("drop", "dup", "swap"):
                v = copy.deepcopy(t)
                i = rng.randrange(len(v.events))
                if op == "drop":
                    v.events.pop(i)
                elif op == "dup":
                    v.events.insert(i, copy.deepcopy(v.events[i]))
                else:
                    j = rng.randrange(len(v.events))
                    v.events[i], v.events[j] = v.events[j], v.events[i]
                variants.append(v)
        for v in variants:
            why = reasons_of(cat, v)
            n_illegal += bool(why)
            leaks += check_languages(cat, why)
            kinds |= {_kind(w.en) for w in why}
    assert leaks == []
    assert n_illegal > 300 and len(kinds) >= 15, sorted(kinds)


def _kind(text: str) -> str:
    """A reason without its numbers and names: which clause gave it."""
    import re
    return re.sub(r"\d+", "N", re.sub(r"[^\x00-\x7f]+", "X", text))[:40]


def test_random_untimed_states_give_reasons_in_both_languages(cat):
    rng = random.Random(5)
    leaks, n = [], 0
    for _ in range(400):
        st = random_state(rng, cat, n_max=4, g_max=3)
        why = reachable(cat, st)
        n += bool(why)
        leaks += check_languages(cat, why)
    assert leaks == [] and n > 20


def test_random_catalogues_give_reasons_in_both_languages():
    """Under random catalogues (other names, other sites, other windows) the reasons still hold."""
    from randcat import load_random
    rng = random.Random(3)
    leaks = []
    for seed in range(4):
        _, c = load_random(seed)
        for _ in range(60):
            why = reasons_of(c, random_trace(rng, c, n_max=3, g_max=3))
            leaks += check_languages(c, why)
    assert leaks == []


# -------------------------------------------------------------------------- a witness that does not replay
def _witness(cat, t: Trace, question, expect) -> dict:
    return {"trace": t.to_dict(), "state": play_run(cat, t).state.to_dict(), "question": question, "expect": expect}


def test_replay_problems_name_the_question_and_the_answer_in_words(cat):
    t = base(cat)
    w = _witness(cat, t, {"decision": "can_play", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"},
                 {"can_play": True})
    w["also"] = [{"question": {"decision": "receive", "seat": 0}, "expect": {"receive": "free"}}]
    bad = copy.deepcopy(t)
    bad.events[2].giver = 0
    w["trace"] = bad.to_dict()
    with lang.using("zh"):
        ps = CX.replay_problems(cat, w)
    assert [p.zh for p in ps] == [
        "经过不合法：事件2：座位0没有持有生效的【变则通】",
        "把截获当作误导（能否使用）：所述为能使用 = 是，解释器得出能使用 = 否",
        "能否接收情报？：不是在其判定时机提出的（经过停在争夺阶段）"]
    assert [p.en for p in ps] == [
        "illegal trace: event 2: seat 0 does not hold a live 变则通",
        "截获 as 误导 (can play): expected can play = yes, interpreter says can play = no",
        "receive the message?: not asked at its decision moment (the trace ends in the fight phase)"]
    assert ps == [p.zh for p in ps]                       # made under zh: the strings are the Chinese
    assert check_languages(cat, ps) == []
    # an untimed state
    st = State([seat(cat, "sp_li_ning_yu", face_up=False), seat(cat, "chen_da_er")])
    ps = CX.replay_problems(cat, {"state": st.to_dict(), "question": {"decision": "draw"}, "expect": {"draw": 3}})
    assert [p.en for p in ps] == ["unreachable: seat 0: SP李宁玉 is a public role and cannot be face down"]
    assert ps[0].zh == "局面不可达：座位0：SP李宁玉是公开角色，不能面朝下"


def test_the_int001_finding_quotes_the_reasons_in_each_language(cat):
    from skillproof.checks.registry import INTERNAL
    fam = type("F", (), {"name": "override"})()
    p = Reason("经过不合法：事件2：座位0没有持有生效的【变则通】", "illegal trace: event 2: seat 0 does not hold a live 变则通")
    err = MM.WitnessMismatch({"decision": "draw", "seat": 0}, {"draw": 3}, [p])
    f = MM.mismatch_finding(fam, err, cat)
    assert f.check == INTERNAL.code
    assert "问题「摸牌数」" in f.message and "见证不能重放：经过不合法：事件2：座位0没有持有生效的【变则通】" in f.message
    assert "(the witness does not replay: illegal trace: event 2: seat 0 does not hold a live 变则通)" in f.message_en
    assert f.details["interpreter"] == [p.en]
    assert english_prose(f.message, cat, ["override"]) == [] and foreign_in_english(f.message_en, cat) == []
    assert "does not replay: illegal trace" in str(err)


def test_ask_tells_a_witness_that_does_not_replay_in_the_runs_language():
    from skillproof.checks.ask.present import no_replay, reason_text
    r = no_replay(join([Reason("事件2：座位0没有持有生效的【变则通】", "event 2: seat 0 does not hold a live 变则通")]))
    assert r.en == "the solver's witness does not replay in the interpreter: event 2: seat 0 does not hold a live 变则通"
    with lang.using("zh"):
        told = reason_text(r)
    assert told.startswith("求解器的例证在解释器中不能重放：事件2：座位0没有持有生效的【变则通】")
    with lang.using("en"):
        assert reason_text(r) == r.en


# ------------------------------------------------------------------------------------- replay, as a designer
def _broken_file(tmp_path, cat) -> str:
    t = base(cat)
    t.events[0].seat = 0                                # SP李宁玉's turn: 变则通's condition fails for 陈大耳
    t.events.insert(3, E("give", seat=0, giver=1, site="BianZeTong#0", args={"A": "Jie_Huo", "B": "Jie_Huo"}))
    t.setup.seats[0].face_up = False                    # a public role face down
    d = {"trace": t.to_dict(), "question": {"decision": "can_play", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"},
         "expect": {"can_play": False}}
    p = tmp_path / "broken.json"
    p.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    return str(p)


def _skillproof(*argv):
    env = dict(os.environ)
    env.pop("SKILLPROOF_LANG", None)
    return subprocess.run([sys.executable, "-m", "skillproof", *argv], capture_output=True, text=True, env=env,
                          timeout=300)


def test_replay_of_a_broken_file_prints_its_reasons_in_chinese_by_default(tmp_path, cat):
    path = _broken_file(tmp_path, cat)
    r = _skillproof("replay", "--brief", path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    out = r.stdout
    assert "不合法：经过违反了回合的规则：" in out
    assert "  - 开局的牌桌：座位0：SP李宁玉是公开角色，不能面朝下" in out
    assert "  - 事件2：给出者（座位1）不满足【变则通】给出的条件「在自己的回合」" in out
    assert "  - 事件3：参数不满足【变则通】给出处的条件「A与B不同且" in out
    assert english_prose(out, cat, [path]) == []
    r = _skillproof("replay", "--lang", "en", "--brief", path)
    assert r.returncode == 1
    out = r.stdout
    assert "  - the table at the start: seat 0: SP李宁玉 is a public role and cannot be face down" in out
    assert "  - event 2: the giver (seat 1) does not meet the condition 变则通 hands this out on: `in their own turn`" in out
    assert "  - event 3: its parameters break the condition of 变则通's gives site: `A differs from B and" in out
    assert foreign_in_english(out, cat, [path]) == []
    r = _skillproof("replay", "--json", path)           # the JSON's reasons: the run's language, as its narration
    js = json.loads(r.stdout)
    assert [p["reason"] for p in js["problems"]][0] == "座位0：SP李宁玉是公开角色，不能面朝下"
    assert js["why_not"] == [p["reason"] for p in js["problems"]]
