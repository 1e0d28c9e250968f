"""The formats CI reads besides SARIF and JUnit: GitHub workflow commands (annotations, forks included)
and GitLab Code Quality; and what SARIF gained for code scanning: a helpUri per rule (a page in
docs/rules/ kept in step with the registry), the invocation's exitCode, and `diff` locations that are
files of the checkout. Every finding carries a fix hint in every format; severities agree between
`skillproof rules` and `check`."""
from __future__ import annotations

import json
import os
import re

from reportkit import CONVERSION, FAM, SYNTHETIC, checked, report_for, sp

from skillproof.reports import github, gitlab, sarif

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_github_annotations():
    cat, result, rep = report_for()
    text = github.render(rep, cat=cat)
    lines = text.splitlines()
    assert len(lines) == len(result.findings) + 1 and lines[-1].startswith("FAIL: ")
    for line, f in zip(lines, result.findings):
        level = {"error": "error", "warning": "warning", "note": "notice"}[f.severity]
        m = re.match(r"^::(\w+) file=([^,]+),line=(\d+),title=([^:]+)::(.*)$", line)
        assert m, line
        assert m.group(1) == ("error" if f.inconclusive else level)
        assert (m.group(2), int(m.group(3))) == (f.rules[0].file, f.rules[0].line)
        assert m.group(4).startswith(f.check)
        body = m.group(5)
        assert "\n" not in body and body.startswith(f.text().replace("%", "%25"))
        assert f"%0Afix: {f.hint()}" in body and body.endswith(f"[{f.id}]")
    assert github.command("warning", "a%b\nc", "x,y.toml", 3, "t:1") == \
        "::warning file=x%2Cy.toml,line=3,title=t%3A1::a%25b%0Ac"


def test_gitlab_code_quality():
    cat, result, rep = report_for()
    issues = json.loads(gitlab.render(rep, cat=cat))
    assert len(issues) == len(result.findings)
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    by_fp = {i["fingerprint"]: i for i in issues}
    import hashlib
    for f in result.findings:
        i = by_fp[hashlib.md5(f.id.encode()).hexdigest()]
        assert i["check_name"] == f.check and f.text() in i["description"]
        assert i["severity"] == {"error": "critical", "warning": "major", "note": "info"}[f.severity]
        assert i["location"] == {"path": f.rules[0].file, "lines": {"begin": f.rules[0].line}}
        assert f.hint() in i["content"]["body"]
    keys = [(i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"], i["fingerprint"]) for i in issues]
    assert keys == sorted(keys)
    assert gitlab.render(rep, cat=cat) == gitlab.render(report_for()[2], cat=cat)


def test_sarif_help_uri_pages_and_exit_code(tmp_path):
    cat, result, rep = report_for()
    doc = json.loads(sarif.render(rep, cat=cat))
    run = doc["runs"][0]
    from skillproof import docs_url
    for rule in run["tool"]["driver"]["rules"]:
        # no dead link: a helpUri only where the documentation is published, the page inline always
        assert rule.get("helpUri") == (f"{docs_url()}/rules/{rule['id']}.md" if docs_url() else None)
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert os.path.isfile(os.path.join(ROOT, "docs", "rules", f"{rule['id']}.md")), rule["id"]
    assert run["invocations"][0]["exitCode"] == rep.exit_code() == 1
    clean = sp("check", os.path.join(FAM, "base.toml"), "-f", "sarif")
    assert clean.returncode == 0 and json.loads(clean.stdout)["runs"][0]["invocations"][0]["exitCode"] == 0


def test_rule_pages_are_up_to_date(tmp_path):
    from skillproof.reports import ruledocs
    pages = ruledocs.pages()
    have = sorted(os.listdir(os.path.join(ROOT, "docs", "rules")))
    assert have == sorted(pages), "run `skillproof rules --write-docs docs/rules`"
    for name, text in pages.items():
        with open(os.path.join(ROOT, "docs", "rules", name), encoding="utf-8") as fh:
            assert fh.read() == text, f"docs/rules/{name} is out of date: run `skillproof rules --write-docs docs/rules`"
    r = sp("rules", "--write-docs", str(tmp_path / "out"))
    assert r.returncode == 0 and sorted(os.listdir(tmp_path / "out")) == have


def test_severities_agree_between_rules_and_check():
    from skillproof.checks.registry import INCONCLUSIVE, all_codes
    codes = dict(all_codes())
    codes[INCONCLUSIVE.code] = (None, INCONCLUSIVE)
    listing = sp("rules", "--lang", "en").stdout
    for code, (_fam, c) in codes.items():
        m = re.search(rf"^\s*{code}\s+(\S+)\s", listing, re.M)
        assert m and m.group(1) == "|".join(c.severities), code
        if len(c.severities) > 1:
            assert c.also_when and c.also_when in sp("rules", code, "--lang", "en").stdout
            assert c.also_when_zh and c.also_when_zh in sp("rules", code).stdout
    seen = set()
    for paths in ((SYNTHETIC,), tuple(CONVERSION)):
        for f in checked(paths)[1].findings:
            assert f.severity in codes[f.check][1].severities, (f.check, f.severity)
            seen.add((f.check, f.severity))
    from skillproof.model.loader import load
    from reportkit import args_for
    from skillproof.cmd_check import run_checks
    for f in run_checks(load(), args_for()).findings:           # the shipped catalogue
        if f.details.get("intended_by"):                        # designed behaviour an [[intent]] documents:
            assert f.severity == "note"                         # a note, whatever its code
            continue
        assert f.severity in codes[f.check][1].severities, (f.check, f.severity)
        seen.add((f.check, f.severity))
    assert ("RC001", "note") in seen and ("RC001", "warning") in seen     # both documented, both real


def test_every_format_shows_the_fix_hint():
    cat, result, rep = report_for()
    f = result.findings[0]
    assert f.fix and all(x.fix for x in result.findings)
    from skillproof.reports import formatter
    for fmt in ("text", "json", "sarif", "junit", "markdown", "html", "github", "gitlab"):
        mod = formatter(fmt)
        text = mod.render(rep, cat=cat) if "cat" in mod.render.__code__.co_varnames else mod.render(rep)
        if fmt in ("json", "sarif", "gitlab"):
            text = json.dumps(json.loads(text), ensure_ascii=False)
        import html as H
        assert f.hint() in H.unescape(text).replace("\\_", "_").replace("\\[", "[").replace("\\]", "]"), fmt


def test_diff_sarif_locations_are_checkout_paths(tmp_path):
    import subprocess
    repo = tmp_path / "game"
    (repo / "rules").mkdir(parents=True)
    base = open(os.path.join(FAM, "base.toml"), encoding="utf-8").read()
    trig = open(os.path.join(FAM, "conversion", "trigger.toml"), encoding="utf-8").read()
    (repo / "rules" / "base.toml").write_text(base, encoding="utf-8")
    (repo / "rules" / "trigger.toml").write_text(trig, encoding="utf-8")
    git = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, capture_output=True,
                                    env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                                         "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})
    git("init", "-q", "-b", "main")
    git("add", ".")
    git("commit", "-qm", "base")
    (repo / "rules" / "trigger.toml").unlink()               # the change resolves every finding
    r = sp("diff", "HEAD:rules/", "rules/", "-f", "sarif", "--allow-changes", cwd=repo)
    assert r.returncode in (0, 1), r.stderr
    doc = json.loads(r.stdout)
    from test_reports_sarif import SCHEMA_PATH, assert_valid
    import jsonschema
    schema = json.load(open(SCHEMA_PATH, encoding="utf-8"))
    assert_valid(jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER), doc)
    res = doc["runs"][0]["results"]
    gone = [x for x in res if x.get("baselineState") == "absent"]
    assert gone
    for x in res:
        for loc in x.get("locations", []):
            uri = loc["physicalLocation"]["artifactLocation"]["uri"]
            assert "HEAD" not in uri and "%3A" not in uri and uri.startswith("rules/"), uri
