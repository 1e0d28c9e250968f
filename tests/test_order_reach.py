"""OD002 for WinSkills that block each other: asked where a game of the server reaches the check
(checks/families/order.py _REACH; the realiser's receive answered by a skill putting a card into an area)."""
from __future__ import annotations

import os

import pytest

from skillproof.checks.context import Options, replay_problems, run
from skillproof.checks.realise import puts_on_receive, receive_putters
from skillproof.model import loader
from skillproof.model.state import State

from conftest import FIXTURES

FAM = os.path.join(FIXTURES, "families")


def _order(variant):
    cat = loader.load([os.path.join(FAM, "base.toml"), os.path.join(FAM, "order", f"{variant}.toml")])
    return cat, run(cat, Options(only=("order",)))


@pytest.fixture(scope="module")
def game():
    return _order("win-game")


def test_blocking_win_skills_are_reported_with_a_game(game):
    cat, res = game
    found = [f for f in res.findings if f.check == "OD002"]
    assert len(found) == 1 and not res.inconclusive
    w = found[0].witness
    assert "unrealised" not in w and w["trace"]["table"] is True
    assert replay_problems(cat, w) == []


def test_the_game_ends_at_the_check_after_a_receive_and_its_answer(game):
    """Both conditions meet at one check only if two areas changed since the node before: the turn's receive and
    the turn player's answer putting a card into her own area, then the check (nobody declared before the fold)."""
    cat, res = game
    w = next(f for f in res.findings if f.check == "OD002").witness
    ev = w["trace"]["events"]
    assert ev[-2]["event"] == "window" and ev[-2]["window"] == "receive"
    assert ev[-1]["event"] == "fire" and ev[-1]["rule"] == "KeepColour" and ev[-1]["on"] == "receive"
    st = State.from_dict(w["state"])
    turn = w["question"]["turn"]
    assert st.seats[turn].character == "poet" and ev[-1]["seat"] == turn
    assert w["question"]["declared"] == [] and st.winners is not None
    # the two orders disagree on the game's own last table
    assert w["expect"] != w["also"][0]["expect"]


def test_skills_that_never_block_each_other_are_not_reported():
    _, res = _order("win-clean")
    assert [f.check for f in res.findings if f.family == "order"] == []


def test_which_skills_put_a_card_into_an_area_on_a_receive():
    cat = loader.load()
    sk = cat.skills
    assert puts_on_receive(sk["ChiZiZhiXin"], own=True)           # SP小九: into her own area, as the sender
    assert puts_on_receive(sk["LianXin"]) and not puts_on_receive(sk["LianXin"], own=True)   # the sender's area
    assert not puts_on_receive(sk["AnCangShaJi"])                 # a pure black card: no colour to count
    assert not puts_on_receive(sk["ZhuangZhiManHuai"])            # takes a card out
    assert not puts_on_receive(sk["XianFaZhiRen"])                # answers no receive


def test_the_answers_are_asked_from_the_turn_player_round_the_table(game):
    cat, res = game
    w = next(f for f in res.findings if f.check == "OD002").witness
    st = State.from_dict(w["state"])
    turn = w["question"]["turn"]
    alive = [i for i, s in enumerate(st.seats) if s.alive]
    got = receive_putters(cat, st, turn, alive)
    assert got and got[0] == (turn, "KeepColour")
