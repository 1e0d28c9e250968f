"""The table family (checks/families/table.py, TB001): cards whose conditions never hold together on an open table."""
from __future__ import annotations

import pytest

from skillproof.checks.context import Options, run
from skillproof.checks.families import table as TBF
from skillproof.model import loader

CHARS = '''
[[character]]
id = "p1"
name = "甲人"
hidden = false
female = false
skills = []
[[character]]
id = "p2"
name = "乙人"
hidden = false
female = true
skills = []
'''


def found(text: str) -> list:
    cat = loader.load(texts={"x.toml": text + CHARS})
    return [f for f in run(cat, Options(only=("table",))).findings if f.check == "TB001"]


def test_the_shipped_catalogue_has_no_card_nobody_can_use():
    """误导 targets a neighbour of the player the message is in front of (card/WuDao.kt canUse): its target's condition
    and its requires hold together (it was target = "none", its requires reading a target it lacked: TB001)."""
    cat = loader.load()
    assert run(cat, Options(only=("table",))).findings == []


def test_a_requires_reading_the_target_of_a_card_with_none_is_a_catalogue_error():
    """No finding: the loader refuses it, file:line: [requires] (exit 2)."""
    text = '[[card]]\nid = "K"\nname = "卡"\nwindows = { fight = "anyone" }\ntarget = "none"\nrequires = "target != front"\n'
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load(texts={"x.toml": text + CHARS})
    assert "x.toml:6: [requires]" in str(e.value) and "target" in str(e.value)


@pytest.mark.parametrize("card, never", [
    ('windows = { fight = "anyone" }\ntarget = { who = "any", when = { fight = "target != front and '
     '(target == front_left or target == front_right)" } }\nrequires = "target != front"', False),     # 误导
    ('windows = { fight = "anyone" }\ntarget = { who = "any", when = "target == front_left and target == front" }', True),
])
def test_a_target_condition_reads_the_message_holder_and_his_neighbours(card, never):
    text = f'[[card]]\nid = "K"\nname = "卡"\n{card}\n'
    assert bool(found(text)) == never


@pytest.mark.parametrize("card, never", [
    ('windows = { main = "turn" }\ntarget = "other"\nrequires = "target != self and target.alive"', False),
    ('windows = { main = "turn" }\ntarget = "other"\nrequires = "target == self"', True),           # other, yet self
    ('windows = { main = "turn" }\ntarget = "any"\nrequires = "target.hand_count < 0"', True),
    ('windows = { dying = "anyone" }\ntarget = { who = "any", when = { dying = "target == dying" } }\n'
     'requires = "target.black_messages >= 3"', False),                                        # the dying have three
    ('windows = { fight = "anyone" }\ntarget = "any"\nrequires = "not in_front and target == front"', False),
    ('windows = { fight = "anyone" }\ntarget = "any"\nrequires = "target.alive and not target.alive"', True),
    ('windows = { main = "turn", fight = "anyone" }\ntarget = "any"\nrequires = "front == target"', False),  # in 争夺阶段
])
def test_a_card_is_reported_exactly_when_it_can_never_be_used(card, never):
    text = f'[[card]]\nid = "K"\nname = "卡"\n{card}\n'
    assert bool(found(text)) == never


def test_a_condition_on_who_the_character_is_is_not_checked():
    """The open table's characters are not free values: a condition reading them is left alone (never a false
    finding)."""
    text = '[[card]]\nid = "K"\nname = "卡"\nwindows = { main = "turn" }\ntarget = "any"\nrequires = "target.female and not target.female"\n'
    assert found(text) == []
    cat = loader.load(texts={"x.toml": text + CHARS})
    assert not TBF.checkable(cat.cards["K"])


def test_the_wall_clock_is_a_safety_net_never_a_silent_no_finding(monkeypatch):
    """The question is bounded in work (a resource limit: spent, no finding on every machine); a machine so busy that
    the clock stops it gets an inconclusive finding (INC001), not the silence of "no finding" (issue 27)."""
    class Slow(TBF.z3.Solver):
        def check(self, *a):
            return TBF.z3.unknown

        def reason_unknown(self):
            return "timeout"
    monkeypatch.setattr(TBF.z3, "Solver", Slow)
    text = ('[[card]]\nid = "K"\nname = "卡"\nwindows = { main = "turn" }\ntarget = "other"\n'
            'requires = "target == self"\n')
    res = run(loader.load(texts={"x.toml": text + CHARS}), Options(only=("table",)))
    assert [f.check for f in res.findings] == ["INC001"] and "time budget spent" in res.findings[0].message_en
