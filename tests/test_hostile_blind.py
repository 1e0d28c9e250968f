"""Defects found by the blind run of issue 27 (stop 44, benchmarks/hostile_inputs.py), each at its cause."""
from __future__ import annotations

from skillproof.checks.context import Options, run
from skillproof.model import loader

#: two characters who both hold a rule: no "quiet" character for every seat of a table
BUSY = '''
[[character]]
id = "p1"
name = "甲人"
hidden = false
female = false
skills = ["Zhuan"]
[[character]]
id = "p2"
name = "乙人"
hidden = false
female = true
skills = ["Zhuan2"]
[[skill]]
id = "Zhuan"
name = "转"
kinds = ["ConvertCardSkill"]
convert = { from = "K", to = ["K2"], must = false }
[[skill]]
id = "Zhuan2"
name = "转二"
kinds = ["MainPhaseSkill"]
[[card]]
id = "K2"
name = "卡二"
windows = { fight = "anyone" }
'''


def test_table_family_builds_tables_from_busy_characters_too():
    """TB001 took only characters holding no rule for the seats: with fewer of them than seats it checked no table at
    all and said nothing about a card no one can use (target another player, requires the user himself)."""
    card = '[[card]]\nid = "K"\nname = "卡"\nwindows = { main = "turn" }\ntarget = "other"\nrequires = "target == self"\n'
    cat = loader.load(texts={"x.toml": card + BUSY})
    got = [f for f in run(cat, Options(only=("table",))).findings if f.check == "TB001"]
    assert [f.rules[0].id for f in got] == ["K"]
    ok = card.replace('requires = "target == self"', 'requires = "target != self"')
    cat = loader.load(texts={"x.toml": ok + BUSY})
    assert [f for f in run(cat, Options(only=("table",))).findings if f.check == "TB001"] == []


def test_a_misspelt_one_word_target_is_one_error_at_target():
    """`target = "others"` was reported at a key the file does not have ([who]) and, the target dropped, again as a
    requires reading the target of a card with target = "none"."""
    import pytest
    card = ('[[card]]\nid = "K"\nname = "卡"\nwindows = { main = "turn" }\ntarget = "others"\n'
            'requires = "target != self"\n')
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load(texts={"x.toml": card + BUSY})
    text = str(e.value)
    assert "x.toml:5: [target]" in text and "'others'" in text and "'other'" in text
    assert "[who]" not in text and "[requires]" not in text
