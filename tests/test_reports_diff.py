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


@pytest.fixture(scope="module")
def sides(tmp_path_factory):
    root = tmp_path_factory.mktemp("diff")
    for side in ("old", "new"):
        os.makedirs(root / side)
        for i, p in enumerate(CONVERSION):
            shutil.copy(p, root / side / f"{i}-{os.path.basename(p)}")
    f = root / "new" / "1-trigger.toml"
    text = f.read_text(encoding="utf-8")
    assert OPT in text
    f.write_text(text.replace(OPT, MUST), encoding="utf-8")
    r = sp("diff", "old", "new", "--format", "json", cwd=root)
    assert r.returncode == 1, r.stderr
    return root, json.loads(r.stdout)


def run_diff(root, fmt):
    out = root / f"out.{fmt}"
    r = sp("diff", "old", "new", "--format", fmt, "--output", str(out), cwd=root)
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
        assert "OLD: ok = 是" in r["message"]["text"] and "NEW: ok = 否" in r["message"]["text"]
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "new/1-trigger.toml" and loc["region"]["startLine"] == c["rules"][0]["line"]
        assert any(x.startswith("座位0 转化者") for x in r["properties"]["witnessText"])
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
    assert all(r[1].startswith("ok = 是") and r[2].startswith("ok = 否") and "<code>new/1-trigger.toml:" in r[3]
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
