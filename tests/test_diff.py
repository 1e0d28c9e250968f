"""`skillproof diff`: decisions whose outcome changed, found over both encodings at once."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from skillproof.checks.diff import Differ, changed_rules
from skillproof.model.interp.decide import decide, matches
from skillproof.model import loader
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run

MUST = 'convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = true }'
OPT = 'convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }'


SPLNY = "characters/sp_li_ning_yu.toml"          # SP李宁玉's file: 应变 (YingBian)


def shipped_texts(prefix):
    d = loader.shipped_path()
    return {f"{prefix}/{p.relative_to(d).as_posix()}": p.read_text(encoding="utf-8")
            for p in loader.catalogue_files([d])}


@pytest.fixture(scope="module")
def versions():
    old = loader.load(texts=shipped_texts("old"))
    texts = shipped_texts("new")
    assert OPT in texts[f"new/{SPLNY}"]
    texts[f"new/{SPLNY}"] = texts[f"new/{SPLNY}"].replace(OPT, MUST)
    return old, loader.load(texts=texts)


def test_changed_rules_are_named(versions):
    old, new = versions
    assert changed_rules(old, new) == {"YingBian": "changed"}
    assert changed_rules(old, old) == {}


def test_yingbian_made_must_changes_conversions_with_replayable_witnesses(versions):
    old, new = versions
    d = Differ(old, new)
    changes = d.changes()
    assert not d.inconclusive
    assert changes and {c.decision for c in changes} == {"conversion"}
    for c in changes:
        # the witness is a trace each version runs with its own catalogue; the question is answered on each run
        tr = TR.Trace.from_dict(c.trace)
        run_o, run_n = play_run(old, TR.Trace.from_dict(c.old_trace) if c.old_trace else tr), play_run(new, tr)
        assert run_o.legal and run_n.legal
        assert run_n.state.to_dict() == c.state
        assert matches(decide(old, run_o.state, c.question), c.old)
        assert matches(decide(new, run_n.state, c.question), c.new)
        assert c.old != c.new
        assert [r["id"] for r in c.rules] == ["YingBian"]
    assert d.possible() == [] and not d.inconclusive      # 应变's definition is the same but for its condition
    # playing 截获 as itself is what the must-conversion forbids now
    assert any(c.question["actual"] == c.question["declared"] == "Jie_Huo" and c.old["ok"] and not c.new["ok"]
               for c in changes)


def test_same_version_has_no_changes(versions):
    old, _ = versions
    d = Differ(old, old)
    assert d.changes() == [] and not d.inconclusive


def sp(*args, cwd=None):
    r = subprocess.run([sys.executable, "-m", "skillproof", *args], capture_output=True, text=True, cwd=cwd)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def test_cli_exit_codes_and_json(tmp_path):
    new = tmp_path / "new"
    shutil.copytree(loader.shipped_path(), new)
    p = new / SPLNY
    p.write_text(p.read_text(encoding="utf-8").replace(OPT, MUST), encoding="utf-8")
    r = sp("diff", "-q", "--format", "json", str(loader.shipped_path()), str(new))
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    ch = doc["diff"]["decision_changes"]
    assert ch and all(c["witness"]["state"]["seats"] and c["witness"]["trace"]["events"] for c in ch)
    assert any(f["check"] == "CV001" for f in doc["findings"])       # 截获 now dead under 变则通 A=截获
    assert any(f["id"].startswith("CV002") for f in doc["diff"]["resolved"])
    r = sp("diff", "-q", "--allow-changes", "--fail-on", "none", str(loader.shipped_path()), str(new))
    assert r.returncode == 0
    r = sp("diff", "-q", str(loader.shipped_path()), str(loader.shipped_path()))
    assert r.returncode == 0 and "0 个判定改变" in r.stdout
    r = sp("diff", str(tmp_path / "nope"), str(new))
    assert r.returncode == 2 and "没有这个文件或目录" in r.stderr
    r = sp("diff", "--lang", "en", str(tmp_path / "nope"), str(new))
    assert r.returncode == 2 and "no such file" in r.stderr


def test_git_revisions_as_sides(tmp_path):
    repo = tmp_path / "game"
    shutil.copytree(loader.shipped_path(), repo / "rules")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    run = lambda *a: subprocess.run(["git", *a], cwd=repo, env=env, check=True, capture_output=True)
    run("init", "-q")
    run("add", ".")
    run("commit", "-qm", "rules")
    p = repo / "rules" / SPLNY
    p.write_text(p.read_text(encoding="utf-8").replace(OPT, MUST), encoding="utf-8")
    r = sp("diff", "-q", "--format", "json", "HEAD:rules/", "rules", cwd=repo)
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert doc["diff"]["old"][0].startswith("HEAD:rules/")
    assert f"HEAD:rules/{SPLNY}" in doc["diff"]["old"] and len(doc["diff"]["old"]) == len(doc["diff"]["new"])
    assert doc["diff"]["changed_rules"] == [{"id": "YingBian", "change": "changed", "name": "应变"}]
    r = sp("diff", "HEAD~5:rules/", "rules", cwd=repo)
    assert r.returncode == 2 and "错误：" in r.stderr


def test_a_changes_witness_is_a_game_both_versions_play(versions):
    """A change's witness goes through the realiser (Differ._as_game): a game of the server under NEW that OLD
    reads alike and plays legally, each version answering as claimed — or the timed trace with why not."""
    old, new = versions
    changes = Differ(old, new).changes()
    games = [c for c in changes if c.trace.get("table")]
    assert games, [c.unrealised for c in changes]
    for c in games:
        assert c.unrealised is None and c.old_trace is None
        tr = TR.Trace.from_dict(c.trace)
        run_o, run_n = play_run(old, tr), play_run(new, tr)
        assert run_o.legal and run_n.legal, (run_o.errors, run_n.errors)
        assert any(e.kind == "draw" for e in tr.events)      # the table moves: the turn's draw at least
        assert matches(decide(old, run_o.state, c.question), c.old)
        assert matches(decide(new, run_n.state, c.question), c.new)
    for c in changes:
        assert c.trace.get("table") or c.unrealised
