"""`skillproof diff` in every report format: a small catalogue where one optional conversion is made a
must-conversion (as 应变 in the issue's acceptance test), compared with the original through the real
command. Each format names the changed decisions with their witnesses, the new and the resolved findings;
the SARIF validates; the HTML marks the changed rule in headless Chromium."""
from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET

import pytest

from reportkit import CONVERSION, sp
from test_reports_html import Elements, chromium, dom  # noqa: F401  (the chromium fixture)
from test_reports_junit import assert_schema_shape
from test_reports_markdown import table_rows
from test_reports_sarif import assert_valid, validator  # noqa: F401  (the validator fixture)

OPT = 'convert = { from = "A", to = ["B"], must = false }'
MUST = 'convert = { from = "A", to = ["B"], must = true }'


def make_sides(root, name, before, after):
    """old/ and new/ copies of the conversion fixture, ``before`` replaced by ``after`` in new/NAME; the JSON diff."""
    for side in ("old", "new"):
        os.makedirs(root / side)
        for i, p in enumerate(CONVERSION):
            shutil.copy(p, root / side / f"{i}-{os.path.basename(p)}")
    f = root / "new" / name
    text = f.read_text(encoding="utf-8")
    assert before in text
    f.write_text(text.replace(before, after), encoding="utf-8")
    r = sp("diff", "old", "new", "--format", "json", cwd=root)
    assert r.returncode == 1, r.stderr
    return root, json.loads(r.stdout)


@pytest.fixture(scope="module")
def sides(tmp_path_factory):
    return make_sides(tmp_path_factory.mktemp("diff"), "1-trigger.toml", OPT, MUST)


def run_diff(root, fmt):
    out = root / f"out.{fmt}"
    r = sp("diff", "old", "new", "--format", fmt, "--lang", "en", "--output", str(out), cwd=root)
    assert r.returncode == 1, r.stderr
    assert r.stdout == ""
    return out.read_text(encoding="utf-8")


def test_the_fixture_changes_decisions(sides):
    _, doc = sides
    d = doc["diff"]
    assert d["changed_rules"] == [{"id": "OptAB", "change": "changed"}]
    assert len(d["decision_changes"]) >= 2 and d["resolved"] and doc["findings"]


def test_sarif(sides, validator):  # noqa: F811
    root, doc = sides
    s = json.loads(run_diff(root, "sarif"))
    assert_valid(validator, s)
    results = s["runs"][0]["results"]
    changes = [r for r in results if r["ruleId"] == "decision-changed"]
    assert len(changes) == len(doc["diff"]["decision_changes"])
    for r, c in zip(changes, doc["diff"]["decision_changes"]):
        assert r["properties"]["decisionChange"] == c
        assert "OLD: allowed = yes" in r["message"]["text"] and "NEW: allowed = no" in r["message"]["text"]
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "new/1-trigger.toml" and loc["region"]["startLine"] == c["rules"][0]["line"]
        assert any(x.startswith("seat 0 转化者") for x in r["properties"]["witnessText"])
    assert {r["partialFingerprints"]["skillproofFindingId/v1"] for r in results if r.get("baselineState") == "new"} \
        == {f["id"] for f in doc["findings"]}
    assert {r["partialFingerprints"]["skillproofFindingId/v1"] for r in results if r.get("baselineState") == "absent"} \
        == {f["id"] for f in doc["diff"]["resolved"]}
    assert s["runs"][0]["properties"]["diff"]["changedRules"] == [{"id": "OptAB", "change": "changed"}]


def test_junit(sides):
    root, doc = sides
    x = ET.fromstring(run_diff(root, "junit").encode("utf-8"))
    assert_schema_shape(x)
    suite = next(s for s in x.iter("testsuite") if s.get("name") == "skillproof.diff")
    fails = [c for c in suite.iter("testcase") if c.find("failure") is not None]
    assert len(fails) == len(doc["diff"]["decision_changes"])
    assert all("witness:" in c.find("failure").text for c in fails)
    assert suite.find("properties/property").attrib == {"name": "rule OptAB", "value": "changed"}
    resolved = [c for c in suite.iter("testcase") if c.get("classname") == "skillproof.diff.resolved"]
    assert len(resolved) == len(doc["diff"]["resolved"])


def test_markdown(sides):
    root, doc = sides
    text = run_diff(root, "markdown")
    assert text.startswith("## skillproof diff: ❌ failing")
    assert "Rules changed: <code>OptAB</code> changed" in text
    rows = table_rows(text, "| Decision | OLD | NEW |")
    assert len(rows) == len(doc["diff"]["decision_changes"])
    assert all(r[1].startswith("allowed = yes") and r[2].startswith("allowed = no") and "<code>new/1-trigger.toml:" in r[3]
               and r[4].startswith("<details>") for r in rows)
    assert text.index("### Decisions changed") < text.index("### New findings") < text.index("### Resolved findings")
    assert len(table_rows(text[text.index("### Resolved findings"):], "| | Check |")) == len(doc["diff"]["resolved"])


def test_html_in_chromium(sides, chromium):  # noqa: F811
    root, doc = sides
    run_diff(root, "html")
    el = dom(chromium, root / "out.html")
    assert len(el.cls("tr", "decision")) == len(doc["diff"]["decision_changes"])
    assert [n["data-node"] for n in el.cls("g", "changed")] == ["OptAB"]
    assert all(r["data-nodes"] == "OptAB" for r in el.cls("tr", "decision"))
    assert len(el.cls("tr", "resolved")) == len(doc["diff"]["resolved"])


# ---------------------------------------------------------------- situations possible in one version only
GAINS = 'id = "plain"\nname = "路人"\nhidden = false\nfemale = false\nskills = []'


@pytest.fixture(scope="module")
def gains(tmp_path_factory):
    """路人 gains 甲变乙: playing 路人 with it is possible only in NEW, without it only in OLD."""
    return make_sides(tmp_path_factory.mktemp("gains"), "0-base.toml", GAINS,
                      GAINS.replace("skills = []", 'skills = ["OptAB"]'))


def test_possible_in_one_version_json(gains):
    _, doc = gains
    d = doc["diff"]
    assert d["changed_rules"] == [{"id": "plain", "change": "changed"}]
    pos = [c for c in d["decision_changes"] if c["decision"] == "possible"]
    assert sorted(c["side"] for c in pos) == ["new", "old"]
    now = next(c for c in pos if c["side"] == "new")
    assert now["message"].startswith("now possible (NEW only): 玩家扮演路人（技能：甲变乙")
    # (the interpreter's reason is in the run's language: model/reason.py)
    assert now["new"] == "可能" and now["old"].startswith("不可能：under OLD, the table at the start: 座位0：")
    assert now["witness"]["steps"][0]["text"] == "路人的回合开始"
    assert now["witness"]["other"]["kind"] == "illegal" and now["witness"]["other"]["event"] == -1
    assert now["rules"] == [{"id": "plain", "name": "路人", "file": "new/0-base.toml", "line": 19, "change": "changed"},
                            {"id": "OptAB", "name": "甲变乙", "file": "new/1-trigger.toml", "line": 20,
                             "change": "added to 路人's skills"}]


def run_gains(root, fmt):
    out = root / f"out.{fmt}"
    r = sp("diff", "old", "new", "--format", fmt, "--lang", "en", "--output", str(out), cwd=root)
    assert r.returncode == 1, r.stderr
    return out.read_text(encoding="utf-8")


def test_possible_in_one_version_text_and_github(gains):
    root, _ = gains
    text = run_gains(root, "text")
    assert "situations possible in one version only" in text
    assert "now possible (NEW only): 玩家扮演路人" in text and "no longer possible (OLD only): 玩家扮演路人" in text
    assert "经过（NEW）：" in text and "OLD：under OLD, the table at the start" in text
    assert "0 changed decisions, 2 situations possible in one version only" in text
    gh = run_gains(root, "github")
    assert gh.count("title=possible only in NEW::") == 1 and gh.count("title=possible only in OLD::") == 1


def test_possible_in_one_version_markdown(gains):
    root, _ = gains
    text = run_gains(root, "markdown")
    assert "### Decisions changed (0)" in text and "### Situations possible in one version only (2)" in text
    rows = table_rows(text, "| Situation | OLD | NEW |")
    assert len(rows) == 2
    assert {(r[1][:3], r[2][:3]) for r in rows} == {("不可能", "可能"), ("可能", "不可能")}
    assert all("<code>new/0-base.toml:19</code>" in r[3] and "经过" in r[4] for r in rows)


def test_possible_in_one_version_sarif_and_junit(gains, validator):  # noqa: F811
    root, doc = gains
    s = json.loads(run_gains(root, "sarif"))
    assert_valid(validator, s)
    res = [r for r in s["runs"][0]["results"] if r["ruleId"] == "possible-in-one-version"]
    assert len(res) == 2
    assert {r["id"] for r in s["runs"][0]["tool"]["driver"]["rules"]} >= {"possible-in-one-version"}
    for r in res:
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "new/0-base.toml" and loc["region"]["startLine"] == 19
        assert any(x.startswith("经过（") for x in r["properties"]["witnessText"])
    assert s["runs"][0]["properties"]["diff"]["possibleInOneVersion"] == 2
    x = ET.fromstring(run_gains(root, "junit").encode("utf-8"))
    assert_schema_shape(x)
    suite = next(t for t in x.iter("testsuite") if t.get("name") == "skillproof.diff")
    fails = [c for c in suite.iter("testcase") if c.find("failure") is not None]
    assert sorted(c.get("name").split(":")[0] for c in fails) == ["possible only in NEW", "possible only in OLD"]
    assert all(c.find("failure").get("type") == "possible-in-one-version" and "witness:" in c.find("failure").text
               for c in fails)


def test_possible_in_one_version_html(gains, chromium):  # noqa: F811
    root, _ = gains
    run_gains(root, "html")
    el = dom(chromium, root / "out.html")
    rows = el.cls("tr", "possible")
    assert len(rows) == 2 and all(r["data-nodes"] == "OptAB" for r in rows)
