"""JUnit XML: one test suite per check family, a test case per code (passing) or per finding (failing at or
above --fail-on, error when inconclusive, skipped below it or when accepted in the baseline), and nothing
the Jenkins xunit schema (junit-10.xsd) or GitLab's parser would reject."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from reportkit import CONVERSION, report_for, sp

from skillproof.checks.findings import Finding, RuleRef
from skillproof.checks.registry import all_codes
from skillproof.reports import junit

# what junit-10.xsd (the schema Jenkins' xunit plugin validates against) allows, element by element
ALLOWED = {
    "testsuites": ({"name", "time", "tests", "failures", "disabled", "errors"}, set(), ["testsuite"]),
    "testsuite": ({"name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp", "hostname",
                   "id", "package", "file", "log", "url", "version"}, {"name", "tests"},
                  ["properties", "testcase", "system-out", "system-err"]),
    "testcase": ({"name", "assertions", "time", "classname", "status"}, {"name"},
                 ["skipped", "error", "failure", "system-out", "system-err"]),
    "skipped": ({"message"}, set(), []),
    "error": ({"message", "type"}, set(), []),
    "failure": ({"message", "type"}, set(), []),
    "system-out": (set(), set(), []),
    "properties": (set(), set(), ["property"]),
    "property": ({"name", "value"}, {"name", "value"}, []),
}


def assert_schema_shape(el):
    attrs, required, children = ALLOWED[el.tag]
    assert set(el.attrib) <= attrs, (el.tag, set(el.attrib) - attrs)
    assert required <= set(el.attrib), (el.tag, required - set(el.attrib))
    for k in ("tests", "failures", "errors", "skipped"):
        if k in el.attrib:
            assert el.attrib[k].isdigit()
    if "time" in el.attrib:
        float(el.attrib["time"])
    order = [children.index(c.tag) for c in el]          # children in the schema's sequence order
    assert order == sorted(order), (el.tag, [c.tag for c in el])
    if el.tag == "testcase":
        assert sum(c.tag == "skipped" for c in el) <= 1
        assert sum(c.tag in ("failure", "error", "skipped") for c in el) <= 1   # one outcome per case
    for c in el:
        assert_schema_shape(c)


def parse(rep, cat=None):
    text = junit.render(rep, cat=cat)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(text.encode("utf-8"))
    assert_schema_shape(root)
    for s in root.iter("testsuite"):                    # counts agree with the cases
        cases = s.findall("testcase")
        assert int(s.get("tests")) == len(cases)
        for tag, attr in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            assert int(s.get(attr)) == sum(1 for c in cases if c.find(tag) is not None)
    for attr in ("tests", "failures", "errors"):
        assert int(root.get(attr)) == sum(int(s.get(attr)) for s in root.iter("testsuite"))
    return root


def cases_by_id(root):
    """Finding id -> its test case in the family suites (not the diff / baseline suites)."""
    out = {}
    cases = [c for s in root.iter("testsuite") if s.get("name") not in ("skillproof.diff", "skillproof.baseline")
             for c in s.iter("testcase")]
    for c in cases:
        name = c.get("name")
        if name.endswith("]"):
            out[name[name.rindex("[") + 1:-1]] = c
    return out


def test_suites_cases_and_outcomes_follow_fail_on():
    cat, result, rep = report_for()
    root = parse(rep, cat)
    suites = [s.get("name") for s in root.iter("testsuite")]
    assert suites == [f"skillproof.{f}" for f in result.families]
    by_id = cases_by_id(root)
    assert set(by_id) == {f.id for f in result.findings}
    failing = {f.id for f in rep.failing()}
    assert failing and len(failing) < len(result.findings)
    for f in result.findings:
        c = by_id[f.id]
        assert c.get("classname") == f"skillproof.{f.family}.{f.check}"
        if f.id in failing:
            fail = c.find("failure")
            assert fail is not None and fail.get("message") == f.text() and fail.get("type") == f"{f.check} {f.severity}"
            assert f.id in fail.text and f"{f.rules[0].file}:{f.rules[0].line}" in fail.text
            if f.witness:
                assert "witness:" in fail.text and "question:" in fail.text
        else:
            sk = c.find("skipped")
            assert sk is not None and "below --fail-on=error" in sk.get("message")
    # every code of a family that found nothing is one passing case
    hit = {f.check for f in result.findings}
    for code, (fam, _c) in all_codes().items():
        if fam.name in result.families and code not in hit:
            passing = [c for c in root.iter("testcase") if c.get("classname") == f"skillproof.{fam.name}.{code}"]
            assert len(passing) == 1 and len(passing[0]) == 0
    assert int(root.get("failures")) == len(failing)
    # --fail-on note: every finding is a failure
    _, _, rep = report_for(fail_on="note")
    root = parse(rep, cat)
    assert int(root.get("failures")) == len(result.findings)


def test_baseline_inconclusive_and_diff():
    cat, result, _ = report_for()
    inc = Finding("INC001", "conversion", "error", "无法判定：某问题", "inc", inconclusive=True,
                  rules=[RuleRef("MustAC", "甲必丙", "tests/fixtures/synthetic/rules.toml", 62)])
    acc = result.findings[0]
    stale = [{"id": "CV001-0123456789", "check": "CV001", "reason": "old", "file": "b.toml", "line": 4}]
    change = {"decision": "conversion", "question": {"decision": "conversion", "seat": 0, "actual": "A", "declared": "B"},
              "old": {"ok": True, "via": "OptAB"}, "new": {"ok": False, "via": None}}
    _, _, rep = report_for(findings=[inc] + result.findings[1:], suppressed=[(acc, "intended <design> & \"so\"")],
                           stale=stale, extra={"decision_changes": [change], "resolved": [acc.to_dict()]})
    root = parse(rep, cat)
    by_id = cases_by_id(root)
    assert by_id[inc.id].find("error").get("type") == "INC001 inconclusive"
    assert by_id[acc.id].find("skipped").get("message").startswith('accepted in the baseline: intended <design> & "so"')
    base = [s for s in root.iter("testsuite") if s.get("name") == "skillproof.baseline"]
    assert len(base) == 1 and "CV001-0123456789" in base[0].find("testcase/skipped").get("message")
    diff = [s for s in root.iter("testsuite") if s.get("name") == "skillproof.diff"][0]
    fail = diff.find("testcase/failure")
    assert diff.get("failures") == "1" and fail.get("message") == "conversion: play 甲 as 乙"
    assert "OLD: allowed = yes, via = 甲变乙" in fail.text and "NEW: allowed = no, via = —" in fail.text


def test_control_characters_do_not_break_the_xml():
    f = Finding("CV001", "conversion", "error", "bad \x01 char \x1b[31m", "k",
                rules=[RuleRef("X", "名", "a.toml", 1)])
    _, _, rep = report_for(findings=[f])
    root = parse(rep)
    assert "\ufffd" in cases_by_id(root)[f.id].find("failure").get("message")


def test_cli(tmp_path):
    out = tmp_path / "junit.xml"
    r = sp("check", *CONVERSION, "-f", "junit", "-o", str(out))
    assert r.returncode == 1 and r.stdout == ""
    root = ET.parse(out).getroot()
    assert_schema_shape(root)
    assert int(root.get("failures")) == 1
