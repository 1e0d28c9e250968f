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
        rx = re.compile(h["files"])
        assert rx.search("rules/skills.toml") and not rx.search("src/main.py")


def run_hook(hook_id, *args):
    entry = shlex.split(hooks()[hook_id]["entry"])
    return sp(*entry[1:], *args)


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

