"""SARIF 2.1.0: validates against the OASIS schema (vendored, see fixtures/sarif/README.md) and carries
what code scanning needs: rules with descriptions and help, results at each rule's file and line,
fingerprints from the meaning-based ids, witnesses, suppressions from the baseline."""
from __future__ import annotations

import json
import os

import jsonschema
import pytest
import rfc3987

from conftest import FIXTURES
from reportkit import CONVERSION, SYNTHETIC, report_for, sp

from skillproof.checks.findings import Finding, RuleRef
from skillproof.checks.registry import all_codes
from skillproof.reports import sarif

SCHEMA_PATH = os.path.join(FIXTURES, "sarif", "sarif-schema-2.1.0.json")


@pytest.fixture(scope="module")
def validator():
    with open(SCHEMA_PATH, encoding="utf-8") as fh:
        schema = json.load(fh)
    assert schema["id"].endswith("/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def assert_valid(validator, doc):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:10])
    # uri-reference is not a draft-04 format, so check every artifact URI by hand (RFC 3986)
    for run in doc["runs"]:
        for res in run["results"]:
            for loc in res.get("locations", []):
                uri = loc["physicalLocation"]["artifactLocation"]["uri"]
                rfc3987.parse(uri, rule="URI_reference")


def test_the_schema_rejects_what_it_should(validator):
    """The vendored schema really constrains: a broken log does not validate."""
    cat, _, rep = report_for()
    doc = json.loads(sarif.render(rep, cat=cat))
    doc["runs"][0]["results"][0]["level"] = "fatal"
    assert list(validator.iter_errors(doc))
    doc = json.loads(sarif.render(rep, cat=cat))
    doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    assert list(validator.iter_errors(doc))
    doc = json.loads(sarif.render(rep, cat=cat))
    doc["version"] = "2.0.0"
    assert list(validator.iter_errors(doc))


def test_synthetic_catalogue_validates_and_says_everything(validator):
    cat, result, rep = report_for()
    doc = json.loads(sarif.render(rep, cat=cat))
    assert_valid(validator, doc)
    assert doc["version"] == "2.1.0" and len(doc["runs"]) == 1
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert set(ids) == set(all_codes()) | {"INC001", "INT001", "UNR001", "UNR002"} and ids == sorted(ids)   # the run's codes
    for r in rules:
        assert r["shortDescription"]["text"] and r["fullDescription"]["text"] and r["help"]["text"]
        assert r["defaultConfiguration"]["level"] in ("error", "warning", "note")
    by_id = {r["id"]: r for r in rules}
    fam, cv001 = all_codes()["CV001"]
    assert cv001.example and cv001.example in by_id["CV001"]["help"]["text"]
    assert "```toml" in by_id["CV001"]["help"]["markdown"] and cv001.why in by_id["CV001"]["fullDescription"]["text"]
    assert by_id["CV001"]["properties"]["family"] == fam.name

    results = run["results"]
    assert len(results) == len(result.findings) > 10
    files = [a["location"]["uri"] for a in run["artifacts"]]
    for res, f in zip(results, result.findings):
        assert res["ruleId"] == f.check and rules[res["ruleIndex"]]["id"] == f.check
        assert res["level"] == f.severity
        assert res["message"]["text"] == f"{f.text()}\nfix: {f.hint()}" and res["properties"]["fix"] == f.fix
        assert res["partialFingerprints"] == {sarif.FINGERPRINT: f.id}
        if f.witness:           # (an "is never effective" finding has no witness state)
            assert res["properties"]["witness"] == json.loads(json.dumps(f.witness))
            assert any(x.startswith("question: ") for x in res["properties"]["witnessText"])
        else:
            assert "witness" not in res["properties"]
        located = {(r.id, r.file, r.line) for r in f.rules if r.file}
        assert len(res["locations"]) == len({(r.id, r.file, r.line) for r in f.rules})
        got = set()
        for loc in res["locations"]:
            pl = loc["physicalLocation"]
            al = pl["artifactLocation"]
            assert al["uriBaseId"] == "%SRCROOT%" and not al["uri"].startswith(("/", "file:"))
            assert al["uri"] == files[al["index"]]
            got.add((loc["logicalLocations"][0]["fullyQualifiedName"], al["uri"], pl["region"]["startLine"]))
        assert got == located
        assert "suppressions" not in res
    # the lines are the catalogue's: e.g. MustAC is the [[skill]] at line 63 of the synthetic catalogue
    mustac = [loc for res in results for loc in res["locations"]
              if loc["logicalLocations"][0]["fullyQualifiedName"] == "MustAC"]
    assert mustac and {m["physicalLocation"]["region"]["startLine"] for m in mustac} == {63}
    assert run["properties"]["summary"]["total"] == len(result.findings)


def test_suppressed_and_stale(validator):
    cat, result, _ = report_for()
    accepted, rest = result.findings[:3], result.findings[3:]
    stale = [{"id": "CV001-0123456789", "check": "CV001", "reason": "old", "file": "baseline.toml", "line": 9}]
    _, _, rep = report_for(suppressed=[(f, f"reason {i}") for i, f in enumerate(accepted)], stale=stale,
                           findings=rest)
    doc = json.loads(sarif.render(rep, cat=cat))
    assert_valid(validator, doc)
    results = doc["runs"][0]["results"]
    assert len(results) == len(result.findings)
    sup = [r for r in results if "suppressions" in r]
    assert len(sup) == 3
    for r in sup:
        f = next(f for f in accepted if f.id == r["partialFingerprints"][sarif.FINGERPRINT])
        assert r["suppressions"] == [{"kind": "external", "status": "accepted",
                                      "justification": f"reason {accepted.index(f)}"}]
    notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert len(notes) == 1 and "CV001-0123456789" in notes[0]["message"]["text"]
    assert notes[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 9


def test_diff_report_validates(validator):
    """A `diff` report (Report.extra with new / resolved findings and decision changes) renders valid SARIF."""
    cat, result, _ = report_for()
    gone = Finding("CV002", "conversion", "warning", "旧的发现", "resolved-key",
                   rules=[RuleRef("OptAB", "甲变乙", "old/rules.toml", 56)])
    change = {"decision": "conversion", "message": "【应变】把截获当作误导使用：OLD 可以，NEW 不行",
              "old": {"ok": True}, "new": {"ok": False},
              "rules": [{"id": "OptAB", "name": "甲变乙", "file": "tests/fixtures/synthetic/rules.toml", "line": 56}],
              "witness": result.findings[0].witness}
    _, _, rep = report_for(extra={"new": [result.findings[0]], "resolved": [gone.to_dict()],
                                  "decision_changes": [change]})
    doc = json.loads(sarif.render(rep, cat=cat))
    assert_valid(validator, doc)
    results = doc["runs"][0]["results"]
    states = {r["partialFingerprints"][sarif.FINGERPRINT]: r.get("baselineState") for r in results}
    assert states[result.findings[0].id] == "new" and states[gone.id] == "absent"
    resolved = next(r for r in results if r.get("baselineState") == "absent")
    assert resolved["kind"] == "pass" and resolved["level"] == "none"      # not an alert
    dec = [r for r in results if r["ruleId"] == sarif.DECISION_RULE]
    assert len(dec) == 1 and "OLD" in dec[0]["message"]["text"]
    assert dec[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 56


def test_uris_are_encoded_and_relative():
    loc = sarif.artifact_location("规则 目录/a b#1.toml")
    assert loc["uriBaseId"] == "%SRCROOT%"
    rfc3987.parse(loc["uri"], rule="URI_reference")
    assert " " not in loc["uri"] and "#" not in loc["uri"]
    assert sarif.artifact_location("./x/../rules/a.toml")["uri"] == "rules/a.toml"
    absolute = sarif.artifact_location("/srv/game/rules.toml")
    assert absolute == {"uri": "file:///srv/game/rules.toml"}
    rfc3987.parse(absolute["uri"], rule="URI")


def test_inconclusive_and_empty_reports_validate(validator):
    cat, result, _ = report_for()
    inc = Finding("INC001", "conversion", "error", "无法判定：某问题（求解器返回 unknown：timeout）", "inc-key",
                  rules=[RuleRef("MustAC", "甲必丙", "tests/fixtures/synthetic/rules.toml", 62)], inconclusive=True)
    _, _, rep = report_for(findings=[inc])
    doc = json.loads(sarif.render(rep, cat=cat))
    assert_valid(validator, doc)
    assert doc["runs"][0]["results"][0]["properties"]["inconclusive"] is True
    _, _, rep = report_for(findings=[])
    doc = json.loads(sarif.render(rep))
    assert_valid(validator, doc)
    assert doc["runs"][0]["results"] == []


def test_cli_writes_valid_sarif(validator, tmp_path):
    out = tmp_path / "r.sarif"
    r = sp("check", *CONVERSION, "--format", "sarif", "--output", str(out))
    assert r.returncode == 1, r.stderr          # the conversion fixture has an error-level finding
    assert r.stdout == ""
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert_valid(validator, doc)
    assert {res["ruleId"] for res in doc["runs"][0]["results"]} >= {"CV001", "CV002"}
    # to stdout when there is no --output
    r2 = sp("check", *CONVERSION, "-f", "sarif")
    assert r2.returncode == 1 and json.loads(r2.stdout) == doc
