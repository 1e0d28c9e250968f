"""Mistakes that used to pass silently (issue 27), each now found with its code — and the look-alike that is
no mistake, which must stay quiet."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import FIXTURES
from skillproof.checks.context import Options, run
from skillproof.model import loader
from skillproof.model import turn as T

FAM = Path(FIXTURES) / "families"


def _kinds(variant):
    cat = loader.load([str(FAM / "base.toml"), str(FAM / "kinds" / f"{variant}.toml")])
    return {f.key for f in run(cat, Options(only=("kinds",)), jobs=1).findings}


def test_never_acts():
    assert T.never_acts("main", "nobody") and T.never_acts("fight", "dying_player")
    assert not T.never_acts("dying", "dying_player") and not T.never_acts("send", "in_front")
    assert T.dead_windows({"main": "turn", "fight": "nobody"}) == ["fight"]


def test_windows_nobody_can_act_in_are_kd007_and_kd008():
    keys = _kinds("trigger")
    assert "KD007|NoHand|actors" in keys            # main = "nobody", fight = "dying_player"
    assert "KD008|TooLate|actors" in keys           # send = "dying_player"
    clean = _kinds("clean")
    assert not [k for k in clean if k.startswith(("KD007|LastWord", "KD008|Plead"))]    # dying = "dying_player"


def _load(tmp_path, text):
    p = tmp_path / "c.toml"
    p.write_text((FAM / "base.toml").read_text(encoding="utf-8") + text, encoding="utf-8")
    return loader.load([str(p)])


PLAYS = '''
[[character]]
id = "p"
name = "甲方"
hidden = false
female = false
skills = ["Pl"]
[[skill]]
id = "Pl"
name = "出"
kinds = ["ActiveSkill"]
windows = {{ fight = "anyone" }}
plays = {{ as = ["A"], checks_bans = true, {extra} }}
'''


@pytest.mark.parametrize("extra,key", [('bans_of = "target", card_of = "none"', "plays.bans_of"),
                                       ('resolves = "physical"', "plays.resolves")])
def test_contradictory_plays_settings_are_a_load_error_naming_both_keys(tmp_path, extra, key):
    with pytest.raises(loader.CatalogueErrors) as e:
        _load(tmp_path, PLAYS.format(extra=extra))
    errs = [x for x in e.value.errors if x.key == key]
    assert errs and "card_of" in errs[0].render("en") and errs[0].line > 1


def test_consistent_plays_settings_load(tmp_path):
    _load(tmp_path, PLAYS.format(extra='bans_of = "target", card_of = "target", resolves = "physical"'))
    _load(tmp_path, PLAYS.format(extra='bans_of = "user", card_of = "none"'))


def test_with_sites_without_a_common_window_are_a_load_error(tmp_path):
    text = '''
[[character]]
id = "g"
name = "给者"
hidden = false
female = false
skills = ["Gv"]
[[skill]]
id = "Gv"
name = "给"
kinds = ["ActiveSkill"]
windows = { main = "turn", fight = "turn" }
[[skill.gives]]
grant = "W"
to = "target"
at = "main"
[[skill.gives]]
grant = "V"
to = "target"
at = "fight"
with = "W"
[[grant]]
id = "W"
name = "无效"
kinds = ["InvalidSkill"]
lifetime = "turn"
[[grant]]
id = "V"
name = "禁"
kinds = ["OneTurnSkill", "CannotPlayCard"]
lifetime = "turn"
ban = { all = true }
'''
    with pytest.raises(loader.CatalogueErrors) as e:
        _load(tmp_path, text)
    assert any(x.key == "with" and "share no window" in x.render("en") for x in e.value.errors)
    cat = _load(tmp_path, text.replace('at = "fight"\n', ""))       # a site without 'at' takes its partner's
    assert [g.at for g in cat.skills["Gv"].gives] == [("main",), ("main",)]


ROLE = '''
[[character]]
id = "hero"
name = "英雄"
hidden = false
female = false
skills = {skills}
[[skill]]
id = "Conv"
name = "转"
kinds = ["ConvertCardSkill"]
convert = {{ from = "A", to = ["B"], must = false }}
[[skill]]
id = "Conv2"
name = "转二"
kinds = ["ConvertCardSkill"]
convert = {{ from = "A", to = ["C"], must = true }}
[[skill]]
id = "Drw"
name = "摸"
kinds = ["ChangeDrawCardCountSkill"]
draw = "count + 1"
'''


def _diff(tmp_path, old, new):
    from skillproof.cli import main
    a, b = tmp_path / "old", tmp_path / "new"
    for d, skills in ((a, old), (b, new)):
        d.mkdir(exist_ok=True)
        (d / "c.toml").write_text((FAM / "base.toml").read_text(encoding="utf-8") + ROLE.format(skills=skills),
                                  encoding="utf-8")
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main(["diff", str(a), str(b), "--no-config", "--lang", "en", "--format", "json"])
    import json
    return rc, json.loads(out.getvalue())


def test_diff_is_quiet_on_a_reordering_that_changes_no_decision(tmp_path):
    rc, rep = _diff(tmp_path, '["Conv", "Drw", "Conv2"]', '["Drw", "Conv", "Conv2"]')
    assert rc == 0 and not rep["diff"]["changed_rules"]


def test_diff_still_sees_a_swap_within_a_kind(tmp_path):
    rc, rep = _diff(tmp_path, '["Conv", "Drw", "Conv2"]', '["Conv2", "Drw", "Conv"]')
    assert [c["id"] for c in rep["diff"]["changed_rules"]] == ["hero"]
