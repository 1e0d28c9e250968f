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
