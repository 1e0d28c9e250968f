"""`skillproof diff --kotlin SERVER_REPO BASE HEAD` on a tiny git repository of the invented server built in the
test (tests/gitrepo.py), and the history benchmark replaying labelled pairs of it."""
from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

import pytest

from skillproof.cli import main

from gitrepo import git, labels_toml, make_server_repo

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("gate")
    shas = make_server_repo(root)
    return str(root / "server"), shas


def gate(repo, a, b, tmp_path, *extra, fmt="json"):
    out = tmp_path / f"report-{a[:7]}-{b[:7]}.{fmt}"
    rc = main(["diff", "--kotlin", repo, a, b, "--format", fmt, "--output", str(out), "-q", *extra])
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    doc = json.loads(text) if fmt == "json" and text else text
    if fmt == "json" and doc and rc in (0, 1, 3):
        # what a CI job reading the JSON sees is what the command did: a failing gate is failing there too
        assert doc["summary"]["exit_code"] == rc
        assert (doc["summary"]["failing"] > 0) == (rc == 1)
    return rc, doc


def test_refactor_is_quiet_and_newly_understood(repo, tmp_path):
    path, s = repo
    rc, rep = gate(path, s["base"], s["refactor"], tmp_path)
    assert rc == 0
    d = rep["diff"]
    assert d["decision_changes"] == []
    assert [(u["id"], u["field"]) for u in d["newly_understood"]] == [("Ledger", "fight")]
    assert d["newly_understood"][0]["where"] == "src/main/kotlin/skill/Ledger.kt:7"
    assert d["revisions"] == {"base": s["base"], "head": s["refactor"]}


def test_engine_change_fails_naming_the_rule(repo, tmp_path):
    path, s = repo
    rc, rep = gate(path, s["refactor"], s["engine"], tmp_path)
    assert rc == 1
    eng = [c for c in rep["diff"]["decision_changes"] if c["decision"] == "engine"]
    assert [c["question"]["engine_rule"] for c in eng] == ["face_down_converts"]
    assert eng[0]["old"] == {"face_down_converts": "false"} and eng[0]["new"] == {"face_down_converts": "true"}
    assert eng[0]["rules"][0]["file"] == "src/main/kotlin/skill/Engine.kt"


def test_rule_change_fails_with_a_witness_located_in_the_server(repo, tmp_path):
    path, s = repo
    rc, rep = gate(path, s["engine"], s["rule"], tmp_path)
    assert rc == 1
    ch = [c for c in rep["diff"]["decision_changes"] if c["decision"] != "engine"]
    assert ch and all(c["witness"]["state"] for c in ch)
    assert {"id": "Ledger", "file": "src/main/kotlin/skill/Ledger.kt", "line": 7} in \
        [{k: r[k] for k in ("id", "file", "line")} for c in ch for r in c["rules"]]
    rc, _ = gate(path, s["engine"], s["rule"], tmp_path, "--allow-changes")
    assert rc == 0


def test_a_skill_added_to_a_role_fails_with_what_is_now_possible(repo, tmp_path):
    path, s = repo
    work = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", path, str(work)], check=True, capture_output=True)
    git(work, "checkout", "-q", s["rule"])
    roles = work / "src" / "main" / "kotlin" / "skill" / "Roles.kt"
    text = roles.read_text(encoding="utf-8")
    before = 'RoleSkillsData("SP乙", sp_beta, true, true, Ledger())'
    assert before in text
    roles.write_text(text.replace(before, before[:-1] + ", Mirror())"), encoding="utf-8")
    git(work, "commit", "-qam", "SP乙 gains Mirror")
    rc, rep = gate(str(work), s["rule"], git(work, "rev-parse", "HEAD"), tmp_path)
    assert rc == 1
    d = rep["diff"]
    assert d["changed_rules"] == [{"id": "sp_beta", "change": "changed", "name": "SP乙"}]
    pos = [c for c in d["decision_changes"] if c["decision"] == "possible"]
    assert sorted(c["side"] for c in pos) == ["new", "old"]
    now = next(c for c in pos if c["side"] == "new")
    assert [r["id"] for r in now["rules"]] == ["sp_beta", "Mirror"]
    assert now["rules"][0]["file"] == "src/main/kotlin/skill/Roles.kt"        # located at the role table
    assert now["witness"]["trace"]["setup"]["seats"][0]["character"] == "sp_beta"
    assert "在旧版中，开局时的牌桌" in now["old"] and "under OLD, the table at the start" in now["witness"]["other"]["text_en"]
    rc, _ = gate(str(work), s["rule"], git(work, "rev-parse", "HEAD"), tmp_path, "--allow-changes")
    assert rc == 0


def test_degraded_extraction_is_exit_2_with_the_reason(repo, tmp_path, capsys):
    path, s = repo
    rc, _ = gate(path, s["rule"], s["broken"], tmp_path)
    assert rc == 2
    err = capsys.readouterr().err
    assert "新版" in err and "提取不完整" in err and "skill/Shadow.kt" in err and "丢了角色表给它的技能" in err
    rc, _ = gate(path, s["rule"], s["broken"], tmp_path, "--lang", "en")
    assert rc == 2
    err = capsys.readouterr().err
    assert "HEAD" in err and "degraded" in err and "skill/Shadow.kt" in err and "lost skills" in err


@pytest.mark.parametrize("fmt", ["text", "markdown", "sarif", "junit", "html"])
def test_every_format_renders_engine_changes(repo, tmp_path, fmt):
    path, s = repo
    rc, text = gate(path, s["refactor"], s["engine"], tmp_path, fmt=fmt)
    assert rc == 1 and "face_down_converts" in text.replace("\\_", "_")
    if fmt == "sarif":
        locs = [loc["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(text)["runs"][0]["results"]
                for loc in r.get("locations", [])]
        assert "src/main/kotlin/skill/Engine.kt" in locs


def test_bare_repository_and_bad_input(repo, tmp_path, capsys):
    path, s = repo
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", path, str(bare)], check=True, capture_output=True)
    rc, _ = gate(str(bare), s["refactor"], s["engine"], tmp_path)
    assert rc == 1
    assert main(["diff", "--kotlin", str(bare), "no-such-rev", s["engine"], "-q"]) == 2
    assert "没有这个版本：no-such-rev" in capsys.readouterr().err
    assert main(["diff", "--kotlin", str(bare), "no-such-rev", s["engine"], "-q", "--lang", "en"]) == 2
    assert "no such revision: no-such-rev" in capsys.readouterr().err
    assert main(["diff", "--kotlin", str(tmp_path / "nothing"), "a", "b", "-q", "--lang", "en"]) == 2
    assert "no such directory" in capsys.readouterr().err


def _bench():
    spec = importlib.util.spec_from_file_location("history_bench", ROOT / "benchmarks" / "history_bench.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_history_benchmark_on_labelled_pairs(repo, tmp_path, capsys):
    path, s = repo
    labels = tmp_path / "labels.toml"
    labels.write_text(labels_toml(s), encoding="utf-8")
    bench = _bench()
    out = tmp_path / "verdicts.json"
    assert bench.main(["--repo", path, "--labels", str(labels), "--only",
                       ",".join(s[k][:12] for k in ("refactor", "engine", "rule")), "--json", str(out)]) == 0
    got = {v["detail"].split()[0] if v["verdict"] == "caught" else v["verdict"]: v for v in
           json.loads(out.read_text(encoding="utf-8"))}
    verdicts = sorted(v["verdict"] for v in json.loads(out.read_text(encoding="utf-8")))
    assert verdicts == ["caught", "caught", "quiet"]
    assert got["names"]["rc"] == 1
    printed = capsys.readouterr().out
    assert "real changes caught (exit 1 naming the changed rule): 2/2 (100%)" in printed
    assert "refactor/bot-logic quiet: 1/1; false alarms: 0 (0%)" in printed
    assert "crashes: 0; exit 3: 0" in printed


def test_the_kept_labels_are_well_formed():
    bench = _bench()
    pairs = bench.load_labels(bench.LABELS)
    assert len(pairs) == 96 and len({p["sha"] for p in pairs}) == 96
    assert {p["label"] for p in pairs} == {"new_rule", "rule_change", "engine_change", "refactor", "bot_logic",
                                         "other_behaviour"}
    for p in pairs:
        assert len(p["sha"]) == 40 and len(p["parent"]) == 40 and p["summary"]
        assert all(f in bench.FIELD_NAMES for f in p["fields"] if f.startswith(("engine.", "rules.")))
