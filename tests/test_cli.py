"""The command line as users meet it: exit codes, located errors without tracebacks, JSON shapes."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import FIXTURES

FAM = os.path.join(FIXTURES, "families")


def sp(*args, cwd=None):
    r = subprocess.run([sys.executable, "-m", "skillproof", *args], capture_output=True, text=True, cwd=cwd,
                       env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert "Traceback" not in r.stderr, r.stderr
    return r


def fixture(name, variant):
    return [os.path.join(FAM, "base.toml"), os.path.join(FAM, name, f"{variant}.toml")]


def test_version_and_help():
    r = sp("--version")
    assert r.returncode == 0 and r.stdout.startswith("skillproof ")
    r = sp("--help")
    assert r.returncode == 0 and "退出码" in r.stdout and "0  没有达到 --fail-on 级别的问题" in r.stdout
    r = sp("--lang", "en", "--help")
    assert r.returncode == 0 and "exit codes" in r.stdout.lower() and "0  nothing" in r.stdout
    r = sp()
    assert r.returncode == 2
    r = sp("check", "--nonsense")
    assert r.returncode == 2 and "错误：无法识别的参数：--nonsense" in r.stderr      # Chinese by default
    r = sp("check", "--nonsense", "--lang", "en")
    assert r.returncode == 2 and "error: unrecognized arguments: --nonsense" in r.stderr


def test_catalogue_lists_every_character():
    r = sp("catalogue")
    assert r.returncode == 0
    assert "63 个角色（1 个只在规则书中）" in r.stdout and "目录：" in r.stdout.splitlines()[0]
    assert "SP李宁玉" in r.stdout and "应变、诱导" in r.stdout
    r = sp("catalogue", "--lang", "en")
    assert "63 characters (1 only in the rule book)" in r.stdout and "public·female" in r.stdout
    assert "SP李宁玉" in r.stdout and "应变, 诱导" in r.stdout


def test_catalogue_json_shape():
    r = sp("catalogue", "--format", "json")
    doc = json.loads(r.stdout)
    assert len(doc["cards"]) == 13 and {"id", "name"} <= set(doc["cards"][0])
    sp_lny = next(c for c in doc["characters"] if c["id"] == "sp_li_ning_yu")
    assert sp_lny == {**sp_lny, "name": "SP李宁玉", "hidden": False, "female": True, "skills": ["应变", "诱导"]}
    yb = next(s for s in doc["skills"] if s["id"] == "YingBian")
    assert yb["convert"] == {"from": "Jie_Huo", "to": ["Wu_Dao"], "must": False}
    assert yb["kinds"] == ["ConvertCardSkill"] and yb["initial"] is True
    hs = next(s for s in doc["skills"] if s["id"] == "HunShuiMoYu")
    assert hs["convert"]["from"] is None
    bz = next(g for g in doc["grants"] if g["id"] == "BianZeTong2")
    assert bz["to"] == ["all"] and bz["lifetime"] == "turn" and bz["initial"] is False


def test_bad_catalogue_exits_2_with_every_error_located(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[skill]]\nid = "S"\nname = "x"\nkinds = ["ConvertCardSkill"]\n'
                   'convert = { from = "Jie_Hou", to = ["Wu_Dao"], must = false }\nbogus = 1\n', encoding="utf-8")
    r = sp("check", str(bad), "--lang", "en")
    assert r.returncode == 2
    shown = os.path.relpath(bad) if not os.path.relpath(bad).startswith("..") else str(bad)
    assert f"{shown}:5: [convert.from] unknown card 'Jie_Hou'" in r.stderr
    assert f"{shown}:6: [bogus] unknown key 'bogus'" in r.stderr
    assert "nothing was checked" in r.stderr
    r = sp("catalogue", str(tmp_path / "missing.toml"))
    assert r.returncode == 2 and "没有这个文件" in r.stderr


def test_exit_codes_follow_fail_on():
    kinds = fixture("kinds", "trigger")            # has error-level findings
    assert sp("check", "-q", *kinds).returncode == 1
    override = fixture("override", "trigger")      # only a note
    assert sp("check", "-q", *override).returncode == 0
    assert sp("check", "-q", "--fail-on", "note", *override).returncode == 1
    assert sp("check", "-q", "--fail-on", "none", *kinds).returncode == 0
    assert sp("check", "-q", *fixture("override", "clean")).returncode == 0


def test_inconclusive_is_never_clean():
    r = sp("check", "-q", "--rlimit", "2000", "--format", "json", *fixture("conversion", "trigger"))
    assert r.returncode == 3
    doc = json.loads(r.stdout)
    assert doc["summary"]["inconclusive"] > 0
    assert all(f["check"] == "INC001" and f["inconclusive"] for f in doc["findings"])


def test_json_report_schema():
    r = sp("check", "-q", "--format", "json", *fixture("conversion", "trigger"))
    doc = json.loads(r.stdout)
    assert set(doc) >= {"findings", "summary"}
    f = doc["findings"][0]
    assert set(f) >= {"id", "check", "severity", "message", "rules", "witness"}
    assert set(f["rules"][0]) >= {"id", "name", "file", "line"}
    assert set(f["witness"]) >= {"state", "question", "expect"}
    assert doc["summary"]["total"] == len(doc["findings"])


def test_selection_is_validated():
    r = sp("check", "--select", "convresion", "--lang", "en")
    assert r.returncode == 2 and "did you mean 'conversion'" in r.stderr
    r = sp("check", "-q", "--select", "CV002", "--format", "json", *fixture("conversion", "trigger"))
    assert {f["check"] for f in json.loads(r.stdout)["findings"]} == {"CV002"}


def test_rules_command():
    r = sp("rules")
    assert r.returncode == 0 and "CV002" in r.stdout and "SK004" in r.stdout
    assert "conversion — 转化矛盾" in r.stdout and "可选转化的宣言用法被必须转化否决" in r.stdout
    r = sp("rules", "--lang", "en")
    assert "conversion — Contradictory conversions" in r.stdout and not re.search(r"[\u4e00-\u9fff]", r.stdout)
    r = sp("rules", "BN001")
    assert r.returncode == 0 and "为什么重要：" in r.stdout and "[[skill]]" in r.stdout
    r = sp("rules", "BN001", "--lang", "en")
    assert r.returncode == 0 and "Why it matters" in r.stdout and "[[skill]]" in r.stdout
    assert sp("rules", "BN01").returncode == 2


def test_schema_command_prints_json_schema():
    r = sp("schema")
    assert json.loads(r.stdout)["$schema"].startswith("https://json-schema.org/")


def test_output_file(tmp_path):
    out = tmp_path / "r.json"
    r = sp("check", "-q", "--format", "json", "--output", str(out), *fixture("receive", "trigger"))
    assert r.stdout == "" and json.loads(out.read_text(encoding="utf-8"))["findings"]
