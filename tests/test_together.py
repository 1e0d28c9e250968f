"""Gives sites handed out together (``with``): 禁闭 invalidates its target and bans all cards in one resolution.

Both twins: the interpreter refuses a trace that holds one event of the pair without the other (interp.trace._uncoupled),
the encoder pinned to the same trace agrees (enc.trace._coupled), and the questions a designer asks about it are
answered as the server plays it."""
from __future__ import annotations

import pytest

from skillproof.checks import ask as Q
from skillproof.model import loader
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.loader import CatalogueErrors
from skillproof.model.state import Seat, SkillInst, State

from crosskit import Harness, prepare_trace, trace_disagreement


@pytest.fixture(scope="module")
def cat():
    return loader.load()


@pytest.fixture(scope="module")
def harness(cat):
    return Harness(cat)


def _trace(events):
    setup = State(seats=[Seat(character="shao_xiu", skills=[SkillInst("MianLiCangZhen")]),
                         Seat(character="wang_tian_xiang", skills=[SkillInst("JinBi")])], turn=1)
    return TR.Trace(setup, [TR.Event("turn", seat=1), TR.Event("window", window="main")] + events)


INV = TR.Event("give", seat=0, giver=1, site="JinBi#0")
BAN = TR.Event("give", seat=0, giver=1, site="JinBi#1", args={"cards": (), "all_cards": True})


def test_the_pair_is_mutual_in_the_catalogue(cat):
    a, b = cat.skills["JinBi"].gives
    assert (a.partner_id, b.partner_id) == ("JinBi#1", "JinBi#0")
    assert (a.with_grant, b.with_grant) == ("CannotPlayCard", "InvalidSkill")      # written once, on the ban


@pytest.mark.parametrize("events, legal", [([INV, BAN], True), ([BAN, INV], True), ([BAN], False), ([INV], False)])
def test_both_twins_want_both_events(cat, harness, events, legal):
    tr = _trace(events)
    run = play_run(cat, tr)
    assert run.legal == legal, run.errors
    if not legal:
        assert run.uncoupled and "together" in run.errors[-1][1].en
    prepared = prepare_trace(harness, tr)
    assert prepared is not None                 # the player's events: the symbolic trace holds them all
    run, eqs = prepared
    assert trace_disagreement(harness, run, eqs, "Jie_Huo", "Jie_Huo", "left", 0) == {}


@pytest.mark.parametrize("q, answer", [
    ("can anyone hold 不能出牌 from 禁闭 when not invalidated", "no"),
    ("can 郑文先 use 偷天 under 禁闭", "no"),
    ("can anyone be banned all after 禁闭", "yes"),
])
def test_questions_about_jinbi(cat, q, answer):
    res = Q.Session(cat).ask(q)
    assert res.answer == answer
    if answer == "yes":
        sites = [e["site"] for e in res.witness["trace"]["events"] if e["event"] == "give"]
        assert {"JinBi#0", "JinBi#1"} <= set(sites)


@pytest.mark.parametrize("gives, needle", [
    ('with = "Nothing"', "'with' names the grant of exactly one other gives site"),
    ('with = "G"', "'with' names the grant of exactly one other gives site"),     # only itself hands G out
])
def test_a_bad_with_is_located(gives, needle):
    text = f'''[[character]]
id = "c"
name = "甲"
hidden = false
female = false
skills = ["S"]
[[skill]]
id = "S"
name = "技"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "H"
to = "self"
[[skill.gives]]
grant = "G"
to = "self"
{gives}
[[grant]]
id = "G"
name = "获"
kinds = ["CannotPlayCard", "OneTurnSkill"]
lifetime = "turn"
ban = {{ cards = [], all = true }}
[[grant]]
id = "H"
name = "禁"
kinds = ["CannotPlayCard", "OneTurnSkill"]
lifetime = "turn"
ban = {{ cards = [], all = false }}
'''
    with pytest.raises(CatalogueErrors) as ei:
        loader.load(texts={"bad.toml": text})
    errs = [e for e in ei.value.errors if needle in e.message]
    assert errs and errs[0].key == "with" and errs[0].line == 17


OTHER = TR.Event("give", seat=0, giver=1, site="Diao_Hu_Li_Shan#1", args={"cards": (), "all_cards": True})


@pytest.mark.parametrize("events", [[BAN, OTHER, INV], [INV, OTHER, BAN]])
def test_a_pair_is_not_split_by_another_event(cat, harness, events):
    """One resolution deals both: another grant (here 调虎离山's ban) handed out between the two is no trace the
    server can play — both twins refuse it (review of the first version, which only asked for the same window)."""
    tr = _trace(events)
    run = play_run(cat, tr)
    assert not run.legal and run.uncoupled
    prepared = prepare_trace(harness, tr)
    assert prepared is not None
    run, eqs = prepared
    assert trace_disagreement(harness, run, eqs, "Jie_Huo", "Jie_Huo", "left", 0) == {}
