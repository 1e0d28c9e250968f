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


def test_the_shipped_catalogue_has_one_card_reading_a_target_it_lacks():
    """误导: target = "none" (its destination is its effect's choice), yet requires — the server's canUse — reads
    the target (card/WuDao.kt)."""
    cat = loader.load()
    got = run(cat, Options(only=("table",))).findings
    assert [(f.key, f.details["cause"]) for f in got] == [("TB001|Wu_Dao|unbound|target", "unbound")]


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
