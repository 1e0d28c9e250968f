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
    wf = next(b for b in blocks() if isinstance(b, dict) and "jobs" in b)
    return wf, wf["jobs"]["skillproof"]


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
        if step.get("name") == "install skillproof":
            assert re.search(r'pip install "skillproof @ git\+https://github\.com/[\w.-]+/[\w.-]+@[\w.]+"', script)
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
    assert all(r["helpUri"].startswith("https://github.com/") for r in run["tool"]["driver"]["rules"])
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


def test_fork_pull_requests_skip_the_steps_that_need_write_access():
    _, job = workflow()
    for step in job["steps"]:
        uses = step.get("uses", "")
        if uses.startswith(("github/codeql-action/upload-sarif", "marocchino/sticky-pull-request-comment")):
            assert "github.event.pull_request.head.repo.full_name == github.repository" in step["if"], uses
    check = next(s for s in job["steps"] if s.get("id") == "check")
    assert "--format github" in check["run"]           # annotations need no token: forks get them too


def test_gitlab_job(tmp_path):
    repo = scratch_repo(tmp_path, adds_finding=True)
    job = next(b for b in blocks() if isinstance(b, dict) and "skillproof" in b and "script" in b["skillproof"])["skillproof"]
    env = {**os.environ, **job["variables"], "PATH": BIN + os.pathsep + os.environ["PATH"], "PYTHONIOENCODING": "utf-8"}
    for line in job["script"]:
        if line.startswith("pip install"):
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


@pytest.mark.parametrize("name", ["docs/ci.md", "README.md"])
def test_no_placeholders_left(name):
    text = open(os.path.join(ROOT, name), encoding="utf-8").read()
    assert "OWNER" not in text and "@TAG" not in text
    from skillproof import REPOSITORY
    pyproject = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    assert f'Repository = "{REPOSITORY}"' in pyproject
    if name == "docs/ci.md":
        assert f"git+{REPOSITORY}@" in text
