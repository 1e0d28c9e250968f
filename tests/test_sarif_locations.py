"""SARIF for code scanning (issue 26, points 1 and 5): GitHub shows a result at its first location only, so that is
the rule the finding is about — in a `diff`, a rule the pull request changed; every rule carries its page inline
in the run's language; a ``helpUri`` only where the documentation is published ([project.urls] Documentation),
never a link to a repository that does not exist."""
from __future__ import annotations

import json

import pytest
from reportkit import report_for, sp

import skillproof
from skillproof.checks.registry import all_codes
from skillproof.model import lang
from skillproof.reports import sarif
from skillproof.reports.i18n import CODE_ZH


def first_uri(res) -> str:
    return res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]


def test_a_check_result_is_first_located_at_its_finding_s_first_rule():
    cat, result, rep = report_for()
    doc = json.loads(sarif.render(rep, cat=cat))
    for res, f in zip(doc["runs"][0]["results"], result.findings):
        located = [r for r in f.rules if r.file]
        if located:
            assert res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == located[0].id


def test_in_a_diff_the_changed_rule_comes_first():
    """A new finding of a pull request that edited 应变-like rule B, whose first rule is A: the result sits at B."""
    cat, result, _rep = report_for()
    f = next(x for x in result.findings if len({r.id for r in x.rules if r.file}) >= 2)
    first, second = [r for r in f.rules if r.file][:2]
    _c, _r, rep = report_for(extra={"diff": {"old": ["OLD:rules"], "new": ["rules"], "resolved": [],
                                             "decision_changes": [], "allow_changes": True,
                                             "changed_rules": [{"id": second.id, "change": "changed"}]}})
    doc = json.loads(sarif.render(rep, cat=cat))
    res = next(r for r in doc["runs"][0]["results"] if r["partialFingerprints"][sarif.FINGERPRINT] == f.id)
    assert res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == second.id
    assert res["locations"][1]["logicalLocations"][0]["fullyQualifiedName"] == first.id
    assert first_uri(res).endswith(second.file.replace("\\", "/").rsplit("/", 1)[-1])
    # a changed decision: its changed rule first too
    change = {"decision": "can_play", "message": "x", "old": {"ok": True}, "new": {"ok": False},
              "rules": [{"id": first.id, "name": first.name, "file": first.file, "line": first.line},
                        {"id": second.id, "name": second.name, "file": second.file, "line": second.line,
                         "change": "changed"}]}
    res = sarif.decision_result(change, {"decision-changed": 0}, {}, cat)
    assert res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == second.id


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_rules_help_is_inline_in_the_run_s_language(language):
    cat, _result, rep = report_for()
    with lang.using(language):
        doc = json.loads(sarif.render(rep, cat=cat))
    rules = {r["id"]: r for r in doc["runs"][0]["tool"]["driver"]["rules"]}
    for code, (_fam, c) in all_codes().items():
        r = rules[code]
        assert "helpUri" not in r                          # nothing published yet: no dead link
        if language == "zh":
            assert r["shortDescription"]["text"] == CODE_ZH[code]
            assert c.summary_zh in r["help"]["text"] and c.why_zh in r["help"]["text"]
            assert c.why_zh in r["help"]["markdown"] and c.why not in r["help"]["text"]
        else:
            from skillproof.reports.i18n import page_text
            with lang.using("en"):
                why = page_text(c, "why")
            assert why in r["help"]["text"] and c.summary_zh not in r["help"]["text"]
        if c.example:
            assert c.example in r["help"]["text"] and f"```toml\n{c.example}\n```" in r["help"]["markdown"]


def test_a_help_uri_where_the_documentation_is_published(monkeypatch):
    cat, _result, rep = report_for()
    monkeypatch.setattr(skillproof, "project_urls", lambda: {"Documentation": "https://docs.example.org/skillproof"})
    doc = json.loads(sarif.render(rep, cat=cat))
    for r in doc["runs"][0]["tool"]["driver"]["rules"]:
        assert r["helpUri"] == f"https://docs.example.org/skillproof/rules/{r['id']}.md"


def test_the_command_line_sarif_has_no_dead_link():
    doc = json.loads(sp("check", "-f", "sarif", "--fail-on", "none").stdout)
    text = json.dumps(doc, ensure_ascii=False)
    assert "helpUri" not in text and "skillproof/skillproof" not in text
    assert doc["runs"][0]["tool"]["driver"]["rules"][0]["help"]["markdown"]
