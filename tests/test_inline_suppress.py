"""Inline suppressions: `# skillproof: ignore[CODE] reason` next to a rule's table accepts that rule's
findings of CODE (or one finding by id); a reason is required; SARIF marks them `inSource` at the comment;
a comment that accepts nothing is stale; a bad comment is a located catalogue error (exit 2)."""
from __future__ import annotations

import json
import os

from reportkit import FAM, sp

TRIGGER = os.path.join(FAM, "conversion", "trigger.toml")
BASE = os.path.join(FAM, "base.toml")


def catalogue(tmp_path, edit) -> list[str]:
    text = open(TRIGGER, encoding="utf-8").read()
    out = tmp_path / "trigger.toml"
    out.write_text(edit(text), encoding="utf-8")
    return [BASE, str(out)]


def header_of(text: str, ident: str) -> int:
    """The index in ``text`` of the [[skill]] header of ``ident``."""
    i = text.index(f'id = "{ident}"')
    return text.rindex("[[", 0, i)


def above(ident: str, comment: str):
    def edit(text):
        i = header_of(text, ident)
        return text[:i] + comment + "\n" + text[i:]
    return edit


def run_json(paths, *extra):
    r = sp("check", *paths, "-q", "--format", "json", *extra)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_a_comment_above_the_table_accepts_that_rules_findings(tmp_path):
    plain = run_json([BASE, TRIGGER])
    cv002 = [f for f in plain["findings"] if f["check"] == "CV002"]
    assert len(cv002) == 2 and all(f["rules"][0]["id"] == "OptAB" for f in cv002)
    paths = catalogue(tmp_path, above("OptAB", "# skillproof: ignore[CV002] 否决是有意的：甲只能当丙"))
    doc = run_json(paths)
    assert [f["check"] for f in doc["findings"]] == ["CV001"]
    assert sorted(s["id"] for s in doc["suppressed"]) == sorted(f["id"] for f in cv002)
    assert all(s["reason"] == "否决是有意的：甲只能当丙" and s["accepted"]["inline"]["rule"] == "OptAB"
               for s in doc["suppressed"])
    assert doc["summary"]["suppressed_inline"] == 2 and doc["stale"] == []
    sarif = json.loads(sp("check", *paths, "-q", "--format", "sarif").stdout)
    from test_reports_sarif import SCHEMA_PATH, assert_valid
    import jsonschema
    schema = json.load(open(SCHEMA_PATH, encoding="utf-8"))
    assert_valid(jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER), sarif)
    sup = [r for r in sarif["runs"][0]["results"] if r.get("suppressions")]
    assert len(sup) == 2
    for r in sup:
        s = r["suppressions"][0]
        assert s["kind"] == "inSource" and s["justification"] == "否决是有意的：甲只能当丙"
        loc = s["location"]["physicalLocation"]
        assert loc["artifactLocation"]["uri"].endswith("trigger.toml")
        line = open(paths[1], encoding="utf-8").read().splitlines()[loc["region"]["startLine"] - 1]
        assert line.startswith("# skillproof: ignore[CV002]")
    text = sp("check", *paths).stdout
    assert "2 个在规则旁被忽略" in text.splitlines()[-1]


def test_a_finding_id_inside_the_table_and_on_another_rule(tmp_path):
    plain = run_json([BASE, TRIGGER])
    one = next(f for f in plain["findings"] if f["check"] == "CV002")
    must = one["rules"][1]["id"]                           # the vetoing rule is involved too

    def edit(text):
        i = text.index('id = "' + must + '"')
        j = text.index("\n", i)
        return text[:j + 1] + f"# skillproof: ignore[{one['id']}] accepted by id\n" + text[j + 1:]
    doc = run_json(catalogue(tmp_path, edit))
    assert [s["id"] for s in doc["suppressed"]] == [one["id"]]
    assert one["id"] not in {f["id"] for f in doc["findings"]}


def test_stale_comment_is_flagged_but_does_not_fail(tmp_path):
    paths = catalogue(tmp_path, above("OptAB", "# skillproof: ignore[BN001] there is no ban here"))
    doc = run_json(paths, "--fail-on", "none")
    assert [(e["id"], e["kind"], e["rule"]) for e in doc["stale"]] == [("BN001", "inline", "OptAB")]
    assert doc["summary"]["stale_inline_suppressions"] == 1 and doc["summary"]["exit_code"] == 0
    r = sp("check", *paths, "--fail-on", "none")
    assert r.returncode == 0 and "过时的规则旁的忽略" in r.stdout and "1 条过时的规则旁忽略" in r.stdout
    doc = run_json(paths, "--select", "conversion", "--fail-on", "none")     # BN001 did not run: not stale
    assert doc["stale"] == []
    gh = sp("check", *paths, "-f", "github", "--fail-on", "none").stdout
    assert any(x.startswith("::warning file=") and "title=过时的规则旁的忽略" in x for x in gh.splitlines())


def test_bad_comments_are_located_errors(tmp_path):
    for comment, want in (("# skillproof: ignore[CV002]", "needs a reason"),
                          ("# skillproof: ignore reason only", "name the checks"),
                          ("# skillproof: ignore[CV02] typo", "is not a check code"),
                          ("# skillproof: ignore[CV003] no such check", "unknown check 'CV003' — did you mean"),
                          ("# skillproof: ignore[INC001] give up", "inconclusive question cannot be accepted")):
        paths = catalogue(tmp_path, above("OptAB", comment))
        r = sp("check", *paths, "--lang", "en")
        assert r.returncode == 2, (comment, r.stdout)
        line = open(paths[1], encoding="utf-8").read().splitlines().index(comment) + 1
        assert f"trigger.toml:{line}: [skillproof: ignore]" in r.stderr and want in r.stderr, (comment, r.stderr)
    paths = catalogue(tmp_path, lambda t: '[meta]\n# skillproof: ignore[CV002] in [meta]\nnote = "x"\n' + t)
    r = sp("catalogue", *paths, "--lang", "en")
    assert r.returncode == 2 and "must stand next to a rule's table" in r.stderr


def test_baseline_leaves_inline_accepted_findings_out(tmp_path):
    paths = catalogue(tmp_path, above("OptAB", "# skillproof: ignore[CV002] intended"))
    r = sp("baseline", *paths, "--quiet")
    assert r.returncode == 0 and 'check = "CV002"' not in r.stdout and 'check = "CV001"' in r.stdout
