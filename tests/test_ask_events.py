"""`which events SKILL` — when a triggered skill fires, told from the catalogue's `on` (checks/ask/events.py): the
forms a designer writes in Chinese and English, each event with its file:line, the engine's rules of the design
note, the answer for a skill whose trigger is prose, and for one that is not triggered."""
from __future__ import annotations

import json
import textwrap

import pytest

from skillproof.checks import ask as Q
from skillproof.cli import main
from skillproof.model import loader


@pytest.fixture(scope="module")
def cat():
    return loader.load(None)


@pytest.fixture(scope="module")
def sess(cat):
    return Q.Session(cat)


@pytest.mark.parametrize("text, rule", [
    ("遗信什么时候发动？", "YiXin"), ("如归在什么时候触发", "RuGui"), ("诱导的触发条件是什么", "YouDao"),
    ("什么时候能发动遗信", "YiXin"), ("遗信何时发动", "YiXin"), ("SP李宁玉的诱导什么时候发动？", "YouDao"),
    ("when does 遗信 fire?", "YiXin"), ("what triggers 如归", "RuGui"), ("which events 诱导", "YouDao"),
])
def test_the_forms_a_designer_writes(cat, text, rule):
    q = Q.parse(cat, text)
    assert q.mode == "which" and q.which.kind == "events" and q.which.rule == rule


def test_each_event_is_told_with_its_line_and_guard(cat, sess):
    res = sess.ask("when does 诱导 fire?")
    assert res.answer == "data" and len(res.values) == len(cat.skills["YouDao"].on)
    v = res.values[0]
    on = cat.skills["YouDao"].on[0]
    assert (v["event"], v["file"], v["line"]) == (on.event, on.loc.file, on.loc.line)
    assert v["server"] == "FinishResolveCardEvent" and "误导" in v["says"]["en"] and "误导" in v["says"]["zh"]
    # the lines named are the catalogue's: the 'on' entry is there
    lines = open(v["file"], encoding="utf-8").read().splitlines()
    assert "on" in lines[v["line"] - 1] or "event" in lines[v["line"] - 1]


def test_a_before_die_skill_is_asked_though_its_holder_is_dead(cat, sess):
    res = sess.ask("遗信什么时候发动？")
    assert cat.skills["YiXin"].has("BeforeDieSkill")
    assert res.values[0]["event"] == "die" and any("L141" in n for n in res.notes)
    other = sess.ask("诱导什么时候发动")                   # an initial skill that is not a BeforeDieSkill
    assert not any("L141" in n for n in other.notes) and any("dealListeningSkill" in n for n in other.notes)
    assert any("L84" in n for n in other.notes)           # invalidated: answers nothing until the turn ends


def test_a_skill_not_triggered_is_told_as_what_it_is(cat, sess):
    res = sess.ask("应变什么时候发动")
    assert res.answer == "data" and res.values == [] and "ConvertCardSkill" in res.headline


def test_a_trigger_only_in_prose_is_unknown_and_says_so(tmp_path, capsys):
    (tmp_path / "c.toml").write_text(textwrap.dedent('''
        [[character]]
        id = "x"
        name = "甲"
        hidden = false
        female = false
        skills = ["T"]
        [[skill]]
        id = "T"
        name = "触"
        kinds = ["TriggeredSkill"]
        initial = true
        trigger = "自己接收情报后"
    '''), encoding="utf-8")
    assert main(["ask", "--lang", "en", "-c", str(tmp_path / "c.toml"), "when does 触 fire?"]) == 3
    out = capsys.readouterr().out
    assert "only prose" in out and "自己接收情报后" in out and "solver" not in out


def test_on_the_command_line_in_each_language(capsys):
    assert main(["ask", "如归在什么时候触发"]) == 0
    out = capsys.readouterr().out
    assert "角色死亡" in out and "PlayerDieEvent" in out and "lao_han.toml:" in out and "引擎规则" in out
    assert main(["ask", "--lang", "en", "--json", "when does 如归 fire"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["answer"] == "data" and d["values"][0]["event"] == "die" and d["values"][0]["says"]["en"]
