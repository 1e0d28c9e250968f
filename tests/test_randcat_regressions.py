"""Bugs the random-catalogue cross-check found, each kept fixed."""
from __future__ import annotations

import pytest

from skillproof.checks.symstate import SymState
from skillproof.model import loader

from crosskit import Harness, run_traces
from randcat import load_random

BASE = """
[[card]]
id = "K0"
name = "甲"
windows = { main = "turn" }
[[character]]
id = "c0"
name = "零"
hidden = false
female = false
skills = ["S0"]
[[skill]]
id = "S0"
name = "技"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "G0"
to = "self"
[[skill.gives]]
grant = "G1"
to = "self"
[[grant]]
id = "G0"
name = "授零"
kinds = ["ConvertCardSkill"]
lifetime = "turn"
params = { X = "card" }
convert = { from = "X", to = ["K0"], must = false }
"""


def test_a_parameter_name_has_one_type_in_a_catalogue():
    g1 = '[[grant]]\nid = "G1"\nname = "授一"\nkinds = ["CannotPlayCard"]\nlifetime = "turn"\n' \
         'params = { X = "bool" }\nban = { all = "X" }\n'
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load(texts={"c.toml": BASE + g1})
    msg = str(e.value)
    assert "c.toml:" in msg and "parameter 'X' is a bool here but a card in G0" in msg
    ok = g1.replace('X = "bool"', 'Y = "bool"').replace('all = "X"', 'all = "Y"')
    loader.load(texts={"c.toml": BASE + ok})


def test_the_symbolic_table_has_at_least_min_seats():
    cat = loader.load(texts={"c.toml": "[rules]\nseats = 5\nmin_seats = 4\n" + BASE.split("[[skill.gives]]")[0]
                             .replace('kinds = ["TriggeredSkill"]', 'kinds = ["TriggeredSkill"]\n')})
    assert SymState(cat, n=3).n == 4 and SymState(cat, n=9).n == 5


def test_another_seats_initial_one_turn_skill_is_gone_after_the_turn_end():
    """randcat seed 20261207036: a character's initial OneTurnSkill (KD001) gives after the turn end in
    the encoder's trace, but the interpreter dropped it (seat 1 does not hold a live 技S6)."""
    _, cat = load_random(20261207036)
    *_, bad = run_traces(Harness(cat), 14, 141828449254, "random catalogue 20261207036")
    assert bad is None, bad
