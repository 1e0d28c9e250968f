"""The pieces a game repository plugs in: the pre-commit hooks run and exit as documented, and the CI
examples in docs/ci.md are valid YAML whose skillproof command lines the CLI accepts."""
from __future__ import annotations

import os
import re
import shlex

import pytest
import yaml

from reportkit import CONVERSION, FAM, sp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def hooks():
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        return {h["id"]: h for h in yaml.safe_load(fh)}


def test_hooks_are_well_formed():
    hs = hooks()
    assert set(hs) == {"skillproof-check", "skillproof-catalogue"}
    for h in hs.values():
        assert h["language"] == "python" and h["name"] and h["description"]
        assert h["entry"].split()[0] == "skillproof"
        assert h["pass_filenames"] is False           # a catalogue is checked as a whole
        assert "--require-paths" in h["entry"].split()   # the repository's catalogue, never the shipped one
        rx = re.compile(h["files"])
        assert rx.search("rules/skills.toml") and rx.search("pyproject.toml") and not rx.search("src/main.py")


def run_hook(hook_id, *args, cwd=None):
    entry = shlex.split(hooks()[hook_id]["entry"])
    return sp(*entry[1:], *args, cwd=cwd)


def game_repo(tmp_path, rules: dict, config: str | None):
    """A game repository as pre-commit runs a hook in it: its root, a rules/ directory, its pyproject.toml."""
    repo = tmp_path / "game"
    (repo / "rules").mkdir(parents=True)
    for name, text in rules.items():
        (repo / "rules" / name).write_text(text, encoding="utf-8")
    (repo / "pyproject.toml").write_text('[project]\nname = "game"\n' + (config or ""), encoding="utf-8")
    return repo


@pytest.mark.parametrize("hook_id", ["skillproof-check", "skillproof-catalogue"])
def test_hooks_check_the_configured_catalogue_and_fail_loudly_without_one(tmp_path, hook_id):
    base = open(os.path.join(FAM, "base.toml"), encoding="utf-8").read()
    broken = 'id = "X"\n[[skill]]\nid = "Y"\nname = "y"\nkinds = ["NoSuchKind"]\n'
    # configured, broken: the hook fails with the located error (it used to check the shipped catalogue and pass)
    repo = game_repo(tmp_path / "a", {"base.toml": base, "bad.toml": broken}, '[tool.skillproof]\npaths = ["rules"]\n')
    r = run_hook(hook_id, cwd=repo)
    assert r.returncode == 2 and re.search(r"rules/bad\.toml:\d+:", r.stderr), r.stderr
    # configured, clean: passes, and checked rules/ (not the shipped catalogue)
    repo = game_repo(tmp_path / "b", {"base.toml": base}, '[tool.skillproof]\npaths = ["rules"]\n')
    r = run_hook(hook_id, cwd=repo)
    assert r.returncode == 0, r.stdout + r.stderr
    if hook_id == "skillproof-catalogue":
        assert "rules" in r.stdout and "model/catalogue" not in r.stdout
    # nothing configured and no args: a loud exit 2 that says what to write
    repo = game_repo(tmp_path / "c", {"base.toml": base}, None)
    r = run_hook(hook_id, cwd=repo)
    assert r.returncode == 2 and r.stdout == ""
    assert "paths" in r.stderr and "[tool.skillproof]" in r.stderr and "--require-paths" in r.stderr
    # the paths in args do as well as the configuration's
    assert run_hook(hook_id, "rules", cwd=repo).returncode == 0


def test_check_hook_exit_codes(tmp_path):
    r = run_hook("skillproof-check", *CONVERSION)
    assert r.returncode == 1 and "CV001" in r.stdout and r.stderr == ""
    clean = [os.path.join(FAM, "base.toml"), os.path.join(FAM, "conversion", "clean.toml")]
    r = run_hook("skillproof-check", *clean, "--fail-on", "note")
    assert r.returncode == 0, r.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('[[skill]]\nid = "X"\nname = "x"\nkinds = ["NoSuchKind"]\n', encoding="utf-8")
    r = run_hook("skillproof-check", str(bad))
    assert r.returncode == 2 and re.search(r"bad\.toml:4: \[kinds\]", r.stderr), r.stderr


def test_catalogue_hook_exit_codes(tmp_path):
    assert run_hook("skillproof-catalogue", *CONVERSION).returncode == 0
    bad = tmp_path / "bad.toml"
    bad.write_text('[[character]]\nid = "x"\nname = "x"\nhidden = "yes"\n', encoding="utf-8")
    r = run_hook("skillproof-catalogue", str(bad))
    assert r.returncode == 2 and re.search(r"bad\.toml:\d+:", r.stderr), r.stderr


# ------------------------------------------------------------------------------------------- docs/ci.md
def yaml_blocks():
    with open(os.path.join(ROOT, "docs", "ci.md"), encoding="utf-8") as fh:
        text = fh.read()
    return [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S)]


def skillproof_lines(script: str):
    """The skillproof command lines of a shell script, without redirections and `|| …`."""
    for line in script.replace("\\\n", " ").splitlines():
        line = line.strip()
        if not line.startswith("skillproof "):
            continue
        line = re.split(r"\s(?:>>|>|\|\||&&|;)\s", line)[0]
        yield shlex.split(line)[1:]


def test_ci_examples_parse_and_use_real_options():
    from skillproof.cli import build_parser
    blocks = yaml_blocks()
    gh = next(b for b in blocks if isinstance(b, dict) and "jobs" in b)
    steps = gh["jobs"]["skillproof"]["steps"]
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    check = next(s for s in steps if s.get("id") == "check")
    sarif_out = re.search(r"--output-format sarif:(\S+)", check["run"]).group(1)
    assert upload["with"]["sarif_file"] == sarif_out
    assert "--baseline" in check["run"]
    assert any("skillproof diff" in s.get("run", "") and "origin/" in s.get("run", "") for s in steps)
    parser = build_parser()
    available = set(parser._subparsers._group_actions[0].choices)
    seen = set()
    scripts = [s.get("run", "") for s in steps] + [" \n".join(b["skillproof"]["script"]) for b in blocks
                                                     if isinstance(b, dict) and "skillproof" in b]
    for script in scripts:
        for argv in skillproof_lines(script):
            seen.add(argv[0])
            if argv[0] not in available:       # `diff` is described by the docs before it is installed
                assert argv[0] == "diff", argv
                continue
            try:
                parser.parse_args(argv)
            except SystemExit as e:             # pragma: no cover - the failure message says which line
                pytest.fail(f"docs/ci.md: `skillproof {' '.join(argv)}` is rejected by the CLI ({e.code})")
    assert {"check", "diff"} <= seen
    pre = next(b for b in blocks if isinstance(b, dict) and "repos" in b)
    ids = {h["id"] for r in pre["repos"] for h in r["hooks"]}
    assert ids == set(hooks())
    # the local hooks of docs/ci.md are the shipped ones, run from the installed skillproof
    for h in (h for r in pre["repos"] for h in r["hooks"]):
        shipped = hooks()[h["id"]]
        assert h["entry"] == shipped["entry"] and h["language"] == "system"
        assert h["files"] == shipped["files"] and h["pass_filenames"] is False

