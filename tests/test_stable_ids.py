"""Finding ids mean what a finding says, not where its rules stand: reordering the [[skill.gives]] tables
of one giver keeps every id (they used to contain the site's index), and the same site reached through
another order is still told apart from its sibling sites by what it gives, to whom, with which args."""
from __future__ import annotations

import os

from conftest import FIXTURES
from reportkit import args_for

from skillproof.checks.findings import site_key

FAM = os.path.join(FIXTURES, "families")
WRAP = '[[skill.gives]]\ngrant = "Wrap"\nto = "all"\n'
TURN = '[[skill.gives]]\ngrant = "TurnConv"\nto = "self"\n'


def _texts(swap: bool) -> dict:
    base = open(os.path.join(FAM, "base.toml"), encoding="utf-8").read()
    trig = open(os.path.join(FAM, "invalidation", "trigger.toml"), encoding="utf-8").read()
    assert WRAP + TURN in trig                   # the fixture's Wrapper gives Wrap, then TurnConv
    if swap:
        trig = trig.replace(WRAP + TURN, TURN + WRAP)
    return {"base.toml": base, "trigger.toml": trig}


def _ids(swap: bool) -> list[str]:
    from skillproof.cmd_check import run_checks
    from skillproof.model.loader import load
    cat = load(texts=_texts(swap))
    sites = [(g.grant, g.index) for g in cat.skills["Wrapper"].gives]
    assert sites == ([("TurnConv", 0), ("Wrap", 1)] if swap else [("Wrap", 0), ("TurnConv", 1)])
    return sorted(f.id for f in run_checks(cat, args_for()).findings)


def test_ids_do_not_depend_on_the_order_of_gives_tables():
    before, after = _ids(False), _ids(True)
    assert any(i.startswith("IV001-") for i in before)
    assert before == after


def test_site_key_names_the_site_by_its_meaning():
    from skillproof.model.loader import load
    cat = load(texts=_texts(False))
    a, b = cat.skills["Wrapper"].gives
    assert site_key(a) == "Wrapper>Wrap>all>{}" and site_key(b) == "Wrapper>TurnConv>self>{}"
    twin = load(texts={"t.toml": '''
[[card]]
id = "A"
name = "甲"
[[skill]]
id = "G"
name = "给"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Ban"
to = "others"
args = { cards = ["A"] }
[[skill.gives]]
grant = "Ban"
to = "others"
args = { cards = [] }
[[grant]]
id = "Ban"
name = "禁"
kinds = ["CannotPlayCard"]
lifetime = "turn"
params = { cards = "set<card>" }
ban = { cards = "cards" }
'''})
    k1, k2 = (site_key(g) for g in twin.skills["G"].gives)
    assert k1 != k2 and '["A"]' in k1              # same giver, grant and receiver: the args tell them apart
