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


LOCKED_INTENT = '''
[[card]]
id = "K"
name = "卡"
windows = { main = "turn" }
[[card]]
id = "Wei_Bi"
name = "威逼"
windows = { main = "turn" }
target = "other"
[[intent]]
id = "locked-in-main"
claim = "always anyone use 威逼 in the main phase where locked"
source = "card.md › 威逼 › 威逼"
'''


def test_nobody_is_locked_while_no_message_travels():
    """The timed model left `locked` free in every window: a player locked in 出牌阶段 (no message travels) was a
    reachable moment, so an intent given `where locked` in the main phase was refuted (IN001) instead of vacuous (IN002).
    Both twins: the z3 trace (checks/enc/trace.py) and the interpreter's (model/interp/trace.py) refuse it."""
    cat = loader.load(texts={"x.toml": LOCKED_INTENT + BUSY})
    got = sorted(f.check for f in run(cat, Options(only=("intent",))).findings)
    assert got == ["IN002"]
    from skillproof.model.interp.play import run as run_trace
    from skillproof.model.interp.trace import Event, Trace
    from skillproof.model.state import Seat, SkillInst, State
    setup = State([Seat(c, skills=[SkillInst(r) for r in cat.characters[c].skills]) for c in ("p1", "p2")])
    setup.seats[1].locked = True
    main = run_trace(cat, Trace(setup, [Event("turn", seat=0), Event("window", window="main")]))
    assert any("locked" in str(r.en) for _, r in main.errors), main.errors
    fight = run_trace(cat, Trace(setup, [Event("turn", seat=0), Event("window", window="send", in_front=1),
                                         Event("window", window="fight", in_front=1)]))
    assert not any("locked" in str(r.en) for _, r in fight.errors), fight.errors
