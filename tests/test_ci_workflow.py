"""docs/ci.md end to end: its GitHub Actions workflow's shell steps run, in order, as GitHub runs them on a
pull request from the same repository, in a scratch git repository whose pull request adds a finding (and
one that adds none); its GitLab job's script runs too. The steps that call other actions are checked for
what they are given (the files exist, the permissions are there, forks are skipped)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import yaml

from reportkit import FAM

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)          # the skillproof under test is the one on PATH first
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}


def blocks():
    text = open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8").read()
    return [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S)]


def workflow():
    wf = next(b for b in blocks() if isinstance(b, dict) and "jobs" in b and "skillproof" in b["jobs"])
    return wf, wf["jobs"]["skillproof"]


def server_workflow():
    wf = next(b for b in blocks() if isinstance(b, dict) and "jobs" in b and "rules-gate" in b["jobs"])
    return wf, wf["jobs"]["rules-gate"]


#: the current major version of every action the recipes use (December 2026: codeql-action v3 is deprecated)
CURRENT = {"actions/checkout": "v6", "actions/setup-python": "v6", "github/codeql-action/upload-sarif": "v4",
           "actions/upload-artifact": "v7", "marocchino/sticky-pull-request-comment": "v2"}


def wheel_name() -> str:
    import tomllib
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        project = tomllib.load(fh)["project"]
    return f"{project['name'].replace('-', '_')}-{project['version']}-py3-none-any.whl"


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout


def scratch_repo(tmp_path, adds_finding: bool):
    """A game repository: main has a clean catalogue in rules/; the pull request's branch adds a rule file."""
    repo = tmp_path / "game"
    (repo / "rules").mkdir(parents=True)
    (repo / "rules" / "base.toml").write_text(open(os.path.join(FAM, "base.toml"), encoding="utf-8").read(),
                                              encoding="utf-8")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(repo, "checkout", "-qb", "pr")
    src = os.path.join(FAM, "conversion", "trigger.toml" if adds_finding else "clean.toml")
    (repo / "rules" / "more.toml").write_text(open(src, encoding="utf-8").read(), encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "pull request")
    return repo


def condition(expr: str | None, event: str) -> bool:
    """The `if:` conditions of the workflow, for a same-repository event (forks are checked separately)."""
    if not expr:
        return True
    e = expr.replace("always()", "true").replace("github.event.pull_request.head.repo.full_name == github.repository",
                                                   "true")
    e = re.sub(r"hashFiles\('([^']+)'\) != ''", "true", e)
    e = e.replace("github.event_name == 'pull_request'", str(event == "pull_request").lower())
    e = e.replace("github.event_name != 'pull_request'", str(event != "pull_request").lower())
    e = e.replace("&&", " and ").replace("||", " or ").replace("true", "True").replace("false", "False")
    return bool(eval(e, {}))         # only True/False/and/or/parentheses are left


def run_workflow(repo, tmp_path, event="pull_request"):
    wf, job = workflow()
    outputs: dict[str, dict] = {}
    summary = tmp_path / "summary.md"
    summary.write_text("", encoding="utf-8")
    log = []
    for i, step in enumerate(job["steps"]):
        if not condition(step.get("if"), event):
            continue
        if "uses" in step:
            log.append(("uses", step, None))
            continue
        script = step["run"]
        if step.get("name") == "install skillproof":       # tests/test_install.py installs that wheel and runs it
            assert script.strip() == 'pip install "$SKILLPROOF"'
            assert job["env"]["SKILLPROOF"] == f"tools/{wheel_name()}"
            continue

        def sub(m):
            sid, name, default = m.group(1), m.group(2), m.group(3)
            return outputs.get(sid, {}).get(name, default or "")
        script = re.sub(r"\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)(?:\s*\|\|\s*'([^']*)')?\s*\}\}", sub, script)
        assert "${{" not in script, script
        out_file = tmp_path / f"out-{i}"
        out_file.write_text("", encoding="utf-8")
        env = {**os.environ, **job.get("env", {}), "PATH": BIN + os.pathsep + os.environ["PATH"],
               "GITHUB_OUTPUT": str(out_file), "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_EVENT_NAME": event,
               "GITHUB_BASE_REF": "main" if event == "pull_request" else "", "PYTHONIOENCODING": "utf-8"}
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=600)
        assert "Traceback" not in r.stderr, r.stderr
        if "id" in step:
            outputs[step["id"]] = dict(x.split("=", 1) for x in out_file.read_text(encoding="utf-8").splitlines() if "=" in x)
        log.append(("run", step, r))
    return wf, job, outputs, summary.read_text(encoding="utf-8"), log


def test_workflow_on_a_pull_request_that_adds_a_finding(tmp_path):
    repo = scratch_repo(tmp_path, adds_finding=True)
    wf, job, outputs, summary, log = run_workflow(repo, tmp_path)
    perms = job["permissions"]
    assert perms["security-events"] == "write" and perms["pull-requests"] == "write" and perms["contents"] == "read"
    runs = {s.get("name") or s.get("id"): r for kind, s, r in log if kind == "run"}
    # annotations on the pull request's lines, at checkout paths
    ann = [x for x in runs["check"].stdout.splitlines() if x.startswith("::")]
    assert any(x.startswith("::error file=rules/more.toml,line=") and "title=CV001" in x for x in ann), ann
    assert outputs["check"]["exit"] == "1"
    # the diff: the finding is new, and the step says so in its annotations
    assert outputs["diff"]["exit"] == "1"
    assert any(x.startswith("::error file=rules/more.toml") for x in runs["diff against the pull request's base"].stdout.splitlines())
    # every report of the single check run
    sarif = json.loads((repo / "skillproof.sarif").read_text(encoding="utf-8"))
    run = sarif["runs"][0]
    assert run["invocations"][0]["exitCode"] == 1 and run["results"]
    assert all(loc["physicalLocation"]["artifactLocation"]["uri"].startswith("rules/")
               for res in run["results"] for loc in res.get("locations", []))
    assert all("helpUri" not in r and r["help"]["markdown"] for r in run["tool"]["driver"]["rules"])   # no dead link
    # the first location of the new finding is in the file the pull request added
    new = [res for res in run["results"] if res["ruleId"] == "CV001"]
    assert new and all(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "rules/more.toml"
                       for res in new)
    comment = (repo / "skillproof-comment.md").read_text(encoding="utf-8")
    assert comment.startswith("## skillproof diff: ❌ 未通过") and "## skillproof check: ❌ 未通过" in comment
    assert len(comment.encode("utf-8")) <= 65000 and comment in summary
    # the actions get files that exist
    uses = {s["uses"].split("@")[0]: s for kind, s, _ in log if kind == "uses"}
    up = uses["github/codeql-action/upload-sarif"]
    assert (repo / up["with"]["sarif_file"]).is_file()
    sticky = uses["marocchino/sticky-pull-request-comment"]
    assert sticky["with"]["header"] and (repo / sticky["with"]["path"]).is_file()
    for p in uses["actions/upload-artifact"]["with"]["path"].split():
        assert (repo / p).is_file(), p
    # the verdict fails the job and says why
    verdict = runs["verdict"]
    assert verdict.returncode != 0
    assert "skillproof check exited 1" in verdict.stdout and "skillproof diff exited 1" in verdict.stdout


def test_workflow_on_a_clean_pull_request_and_on_push(tmp_path):
    repo = scratch_repo(tmp_path, adds_finding=False)
    *_, outputs, summary, log = run_workflow(repo, tmp_path)
    runs = {s.get("name"): r for kind, s, r in log if kind == "run"}
    assert outputs["check"]["exit"] == "0" and outputs["diff"]["exit"] == "0"
    assert runs["verdict"].returncode == 0, runs["verdict"].stdout
    assert "✅ 通过" in summary
    (tmp_path / "push").mkdir()
    *_, outputs, summary, log = run_workflow(repo, tmp_path / "push", event="push")
    kinds = [(k, f"{s.get('name', '')} {s.get('uses', '')}") for k, s, _ in log]
    assert not any("diff" in (n or "") for _, n in kinds) and "diff" not in outputs
    assert not any("sticky" in (n or "") for _, n in kinds)
    assert any("upload-sarif" in (n or "") for _, n in kinds)


@pytest.mark.parametrize("which", ["game", "server"])
def test_fork_pull_requests_skip_the_steps_that_need_write_access(which):
    _, job = workflow() if which == "game" else server_workflow()
    guarded = 0
    for step in job["steps"]:
        uses = step.get("uses", "")
        if uses.startswith(("github/codeql-action/upload-sarif", "marocchino/sticky-pull-request-comment")):
            assert "github.event.pull_request.head.repo.full_name == github.repository" in step["if"], uses
            guarded += 1
    assert guarded == 2
    if which == "game":
        check = next(s for s in job["steps"] if s.get("id") == "check")
        assert "--format github" in check["run"]           # annotations need no token: forks get them too


@pytest.mark.parametrize("which", ["game", "server"])
def test_current_action_versions(which):
    _, job = workflow() if which == "game" else server_workflow()
    used = [s["uses"] for s in job["steps"] if "uses" in s]
    assert used
    for u in used:
        name, _, version = u.partition("@")
        assert CURRENT.get(name) == version, u


def test_the_server_gate_runs_once_and_writes_every_report(tmp_path):
    """The server workflow's gate step, as written, on a scratch repository of an invented server whose pull
    request changes a rule: one `skillproof diff --kotlin` run writes the SARIF and the markdown."""
    from gitrepo import make_server_repo
    _, job = server_workflow()
    gate = next(s for s in job["steps"] if s.get("id") == "gate")
    assert gate["run"].count("skillproof diff") == 1
    shas = make_server_repo(tmp_path)
    repo = tmp_path / "server"
    out_file, summary = tmp_path / "out", tmp_path / "summary.md"
    out_file.write_text("", encoding="utf-8")
    summary.write_text("", encoding="utf-8")
    env = {**os.environ, "PATH": BIN + os.pathsep + os.environ["PATH"], "BASE": shas["refactor"],
           "HEAD": shas["rule"], "GITHUB_OUTPUT": str(out_file), "GITHUB_STEP_SUMMARY": str(summary),
           "PYTHONIOENCODING": "utf-8"}
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", gate["run"]], cwd=repo, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert out_file.read_text(encoding="utf-8").strip() == "code=1"          # 账本's condition changed
    sarif = json.loads((repo / "skillproof.sarif").read_text(encoding="utf-8"))
    results = sarif["runs"][0]["results"]
    assert results and results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith(
        "src/main/kotlin/")
    md = (repo / "skillproof.md").read_text(encoding="utf-8")
    assert md.startswith("## skillproof") and md in summary.read_text(encoding="utf-8")
    assert not (repo / "gate-errors.txt").read_text(encoding="utf-8").strip()


def test_gitlab_job(tmp_path):
    repo = scratch_repo(tmp_path, adds_finding=True)
    job = next(b for b in blocks() if isinstance(b, dict) and "skillproof" in b and "script" in b["skillproof"])["skillproof"]
    env = {**os.environ, **job["variables"], "PATH": BIN + os.pathsep + os.environ["PATH"], "PYTHONIOENCODING": "utf-8"}
    assert job["variables"]["SKILLPROOF"] == f"tools/{wheel_name()}"
    for line in job["script"]:
        if line.startswith("pip install"):
            assert line == 'pip install "$SKILLPROOF"'
            continue
        r = subprocess.run(["bash", "-c", line], cwd=repo, env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    reports = job["artifacts"]["reports"]
    issues = json.loads((repo / reports["codequality"]).read_text(encoding="utf-8"))
    assert issues and all(i["location"]["path"] == "rules/more.toml" for i in issues)
    assert {i["severity"] for i in issues} <= {"critical", "major", "info", "blocker"}
    suites = ET.parse(repo / reports["junit"]).getroot()
    assert int(suites.get("failures")) >= 1
    assert all((repo / p).is_file() for p in job["artifacts"]["paths"])


@pytest.mark.parametrize("name", ["docs/ci.md", "README.md", "pyproject.toml"])
def test_no_placeholders_and_no_dead_addresses(name):
    """The project has no public address yet ([project.urls] is unset): no document names one (the old
    github.com/skillproof/skillproof was nobody's), no install line needs one, and every address the docs give
    is [project.urls]' or a third party's that exists (the server, the rule book, standards)."""
    text = open(os.path.join(ROOT, name), encoding="utf-8").read()
    assert "OWNER" not in text and "@TAG" not in text and "example.invalid" not in text
    assert "skillproof/skillproof" not in text and "git+https" not in text
    from skillproof import project_urls
    known = set(project_urls().values())
    for url in re.findall(r"https?://[^\s)\"'`>]+", text):
        assert url in known or not re.search(r"skillproof", url, re.I), url
