"""Every check family: a catalogue that triggers it, one that must not, and witnesses that replay."""
from __future__ import annotations

import os
import shutil

import pytest

from skillproof.checks.context import Options, replay_problems, run
from skillproof.checks.registry import families
from skillproof.model import loader

from conftest import FIXTURES

FAM = os.path.join(FIXTURES, "families")
BASE = os.path.join(FAM, "base.toml")

EXPECTED = {
    "conversion": {"CV001", "CV002"},
    "bans": {"BN001", "BN002", "BN003", "BN004"},
    "unreachable": {"UR001", "UR002", "UR003", "UR004"},
    "receive": {"RC001", "RC002"},
    "override": {"OV001"},
    "invalidation": {"IV001", "IV002", "IV003"},
    "skip": {"SK002", "SK003", "SK004"},
    "order": {"OD001", "OD002"},
    "kinds": {"KD001", "KD002", "KD003", "KD004", "KD005", "KD006", "KD007", "KD008", "KD009",
              "KD010"},
    "replacement": {"RR001"},
    "intent": {"IN001", "IN002"},
    "triggers": {"TR001", "TR002", "TR003", "TR004", "TR005"},
    "remind": {"RM001", "RM002"},
    "table": {"TB001"},
}


def _run(name, variant):
    cat = loader.load([BASE, os.path.join(FAM, name, f"{variant}.toml")])
    return cat, run(cat, Options(only=(name,)))


def test_every_registered_family_has_fixtures():
    assert {f.name for f in families()} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_trigger_catalogue_triggers_the_family(name):
    cat, res = _run(name, "trigger")
    got = {f.check for f in res.findings if f.family == name}
    assert got == EXPECTED[name]
    assert not res.inconclusive
    for f in res.findings:
        assert f.rules, f"{f.id} names no rule"
        for r in f.rules:
            assert r.file.endswith(".toml") and r.line >= 1
        assert f.message and "【" in f.message or f.check.startswith("SK")
        if f.witness is not None:
            assert replay_problems(cat, f.witness) == [], f.id


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_clean_catalogue_does_not_trigger_the_family(name):
    _, res = _run(name, "clean")
    assert [f.check for f in res.findings if f.family == name] == []


def test_ids_depend_on_meaning_not_on_lines_or_file_order(tmp_path):
    src = os.path.join(FAM, "conversion", "trigger.toml")
    _, first = _run("conversion", "trigger")
    moved = tmp_path / "zz-moved.toml"
    moved.write_text("# a comment that shifts every line\n\n\n" + open(src, encoding="utf-8").read(), encoding="utf-8")
    shutil.copy(BASE, tmp_path / "aa-base.toml")
    cat = loader.load([tmp_path])
    second = run(cat, Options(only=("conversion",)))
    assert sorted(f.id for f in first.findings) == sorted(f.id for f in second.findings)
    lines1 = sorted(r.line for f in first.findings for r in f.rules)
    lines2 = sorted(r.line for f in second.findings for r in f.rules)
    assert lines2 == [n + 3 for n in lines1]


def test_witnesses_are_minimal_in_grants():
    # CV002: the optional conversion of a character vetoed by one granted must-conversion —
    # the witness holds exactly one grant, and exactly the two characters involved
    cat, res = _run("conversion", "trigger")
    f = next(x for x in res.findings if x.check == "CV002")
    seats = f.witness["state"]["seats"]
    grants = [s for s in seats[0]["skills"] if cat.skills[s["rule"]].is_grant]
    assert len(grants) == 1 and len(seats) == 2


def test_no_wasted_prompt_claims_without_card_phases():
    # a catalogue whose cards do not say where they are played gives the skip check nothing to compare
    cat = loader.load(texts={"x.toml": '[[card]]\nid = "A"\nname = "甲"\n[[character]]\nid = "x"\nname = "某"\n'
                                       'hidden = false\nfemale = false\nskills = []\n'})
    assert run(cat, Options(only=("skip",))).findings == []


# ---------------------------------------------------------------- found by the audit of planted mistakes
_FIRES = """
[[character]]
id = "bettor"
name = "押注者"
hidden = false
female = false
skills = ["Bet"]
[[skill]]
id = "Bet"
name = "押注"
kinds = ["TriggeredSkill"]
fires = {{ at = ["receive"], when = "{when}" }}
"""


def _write(tmp_path, text):
    p = tmp_path / "extra.toml"
    p.write_text(text, encoding="utf-8")
    return loader.load([BASE, str(p)])


@pytest.mark.parametrize("when, dead", [("alive and not used", False), ("alive and hand_count < 0", True),
                                        ("false", True)])
def test_a_triggered_effect_that_never_fires_is_ur003(tmp_path, when, dead):
    cat = _write(tmp_path, _FIRES.format(when=when))
    res = run(cat, Options(only=("unreachable",)))
    got = [f for f in res.findings if f.check == "UR003" and f.rules[0].id == "Bet"]
    assert bool(got) == dead
    if dead:
        assert "fires.when" in got[0].message_en and got[0].rules[0].line > 1


_ACTIVE_GIVER = """
[[character]]
id = "trainer"
name = "教官"
hidden = false
female = false
skills = ["Train"]
[[skill]]
id = "Train"
name = "训练"
kinds = ["ActiveSkill"]
initial = true
fight = "false"
dying = "false"
windows = {{ {window} = "turn" }}
[[skill.gives]]
grant = "Lock"
to = "self"
at = "send_start"
on = "use"
[[grant]]
id = "Lock"
name = "必锁"
kinds = ["SendMessageCanLockSkill", "OneTurnSkill"]
initial = false
lifetime = "turn"
send = {{ rule = "lock_count == 1" }}
"""


@pytest.mark.parametrize("window, never", [("send_start", False), ("main", True)])
def test_a_grant_given_on_use_only_in_a_window_the_skill_is_used_in(tmp_path, window, never):
    """A site handed out as an ActiveSkill is used (on = "use") needs the skill usable in that window: moved
    to another window, the grant is never handed out — both the interpreter and the encoder say so."""
    from skillproof.model.interp import trace as TR
    from skillproof.model.interp.play import run as play_run
    from skillproof.model.state import Seat, State
    cat = _write(tmp_path, _ACTIVE_GIVER.format(window=window))
    res = run(cat, Options(only=("unreachable",)))
    lock_dead = any(f.check == "UR003" and f.rules[0].id == "Lock" for f in res.findings)
    assert lock_dead == never
    from skillproof.model.state import SkillInst
    setup = State(seats=[Seat(character="trainer", skills=[SkillInst("Train")]), Seat(character="plain")], turn=0)
    events = [TR.Event("turn", seat=0), TR.Event("window", window="send_start"),
              TR.Event("give", seat=0, giver=0, site="Train#0")]
    errors = play_run(cat, TR.Trace(setup, events)).errors
    assert bool(errors) == never


def test_a_gives_site_that_never_hands_out_is_ur003_at_its_line(tmp_path):
    """A grant with another, live site still appears (no UR002): the dead site itself is reported, located at
    its own [[skill.gives]] table — here handed out on use in a window the skill is not used in."""
    text = _ACTIVE_GIVER.format(window="main").replace('''[[skill.gives]]
grant = "Lock"
to = "self"
at = "send_start"
on = "use"''', '''[[skill.gives]]
grant = "Lock"
to = "self"
at = "main"
on = "use"
[[skill.gives]]
grant = "Lock"
to = "self"
at = "send_start"
on = "use"''')
    cat = _write(tmp_path, text)
    res = run(cat, Options(only=("unreachable",)))
    dead = [f for f in res.findings if f.check == "UR003" and "site" in f.key]
    assert [f.rules[0].line for f in dead] == [cat.skills["Train"].gives[1].loc.line]
    assert not any(f.check in ("UR002",) for f in res.findings)
    assert not any(f.check == "UR003" and f.rules[0].id == "Lock" for f in res.findings)


def test_wasted_prompts_name_their_cause():
    """RM001 on its trigger fixture: one finding per cause — the main condition, a used-up skill that prompts
    anyway, every card a skill acts as banned — each keyed by it."""
    _, res = _run("remind", "trigger")
    got = {f.key for f in res.findings if f.check == "RM001"}
    assert got == {"RM001|Move|condition", "RM001|Spend|spent", "RM001|Fake|banned"}
    assert {f.key for f in res.findings if f.check == "RM002"} == {"RM002|Draw"}
