"""The smaller defects of issue 27, each as it was met: one validation of option values for the command line
and the configuration, `--output ""`, odd files in catalogue directories, a missing configured path, the
English summary after a spent --time-budget, a revision echoed raw by `diff --kotlin`, the exit-4s."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from fuzzkit import run_cli

BASE = str(Path(FIXTURES) / "families" / "base.toml")


@pytest.mark.parametrize("flag,value,says", [
    ("--jobs", "0", "must be at least 1"), ("--jobs", "-3", "must be at least 1"),
    ("--rlimit", "-1", "must be at least 0"), ("--timeout", "nan", "must be a finite number"),
    ("--timeout", "inf", "must be a finite number"), ("--timeout", "1e309", "must be a finite number"),
    ("--max-seats", "100", "must be at most 9"), ("--timeout", "0", "must be greater than 0")])
def test_option_values_are_refused_alike_on_the_command_line_and_in_the_configuration(tmp_path, flag, value, says):
    rc, out, err, _ = run_cli(["check", BASE, "--no-config", "--lang", "en", flag, value] if not value.startswith("-")
                              else ["check", BASE, "--no-config", "--lang", "en", f"{flag}={value}"])
    assert rc == 2 and f"{flag} {says}" in err and "Traceback" not in err
    cfg = tmp_path / "skillproof.toml"
    cfg.write_text(f"{flag[2:]} = {value}\n", encoding="utf-8")
    rc, out, err, _ = run_cli(["check", BASE, "--config", str(cfg), "--lang", "en"])
    assert rc == 2 and f"skillproof.toml:1: [{flag[2:]}] '{flag[2:]}' {says}" in err


def test_empty_output_is_refused(tmp_path):
    rc, out, err, _ = run_cli(["check", BASE, "--no-config", "--lang", "en", "--output", ""])
    assert rc == 2 and "the path is empty" in err and out == ""


def test_directory_links_and_fifos_in_a_catalogue_are_refused_by_name(tmp_path):
    d = tmp_path / "cat"
    d.mkdir()
    (d / "base.toml").write_text(Path(BASE).read_text(encoding="utf-8"), encoding="utf-8")
    os.symlink(tmp_path, d / "up")
    os.mkfifo(d / "pipe.toml")
    rc, out, err, _ = run_cli(["catalogue", str(d), "--no-config", "--lang", "en"])
    assert rc == 2
    assert "up:1: a symbolic link to a directory" in err and "pipe.toml:1: not a regular file" in err


def test_a_long_path_is_a_located_error_not_a_crash(tmp_path):
    for argv in (["catalogue", "a" * 5000], ["catalogue", "/".join(["abc"] * 1500)]):
        rc, out, err, _ = run_cli(argv + ["--no-config", "--lang", "en"])
        assert rc == 2 and "internal error" not in err and len(err.splitlines()[0]) < 400
    cfg = tmp_path / "skillproof.toml"
    cfg.write_text(f'paths = ["{"a" * 5000}"]\n', encoding="utf-8")
    rc, out, err, _ = run_cli(["catalogue", "--config", str(cfg), "--lang", "en"])
    assert rc == 2 and "skillproof.toml:1: [paths] the path is 5,000 characters long" in err


def test_a_configuration_nested_5000_deep_is_a_located_error(tmp_path):
    cfg = tmp_path / "skillproof.toml"
    cfg.write_text("timeout = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    rc, out, err, _ = run_cli(["catalogue", BASE, "--config", str(cfg), "--lang", "en"])
    assert rc == 2 and "skillproof.toml:1: arrays or inline tables nested more than" in err


def test_a_missing_configured_path_is_reported_at_the_configuration_line(tmp_path):
    cfg = tmp_path / "skillproof.toml"
    cfg.write_text('# the catalogue\n\npaths = ["rules", "more"]\nbaseline = "gone.toml"\n', encoding="utf-8")
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "base.toml").write_text(Path(BASE).read_text(encoding="utf-8"), encoding="utf-8")
    rc, out, err, _ = run_cli(["catalogue", "--config", str(cfg), "--lang", "en"])
    assert rc == 2 and "skillproof.toml:3: [paths] no such file or directory: " in err and "rules" in err
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.toml").write_text("", encoding="utf-8")
    rc, out, err, _ = run_cli(["check", "--config", str(cfg), "--lang", "en", "-q"])
    assert rc == 2 and "skillproof.toml:4: [baseline] no such baseline file" in err


def test_fires_at_of_a_wrong_type_is_located(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text(Path(BASE).read_text(encoding="utf-8") + '[[skill]]\nid = "T"\nname = "t"\nkinds = ["TriggeredSkill"]\n'
                 'fires = { at = 3 }\n', encoding="utf-8")
    rc, out, err, _ = run_cli(["catalogue", str(p), "--no-config", "--lang", "en"])
    assert rc == 2 and "[fires.at] fires.at must be a window or a non-empty list of windows" in err


def test_the_summary_after_a_spent_time_budget_is_in_one_language():
    r = subprocess.run([sys.executable, "-m", "skillproof", "--lang", "en", "check", "--no-config", "--no-cache",
                        "--time-budget", "0.3"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 3
    last = r.stderr.strip().splitlines()[-1]
    assert "--time-budget ran out: raise --time-budget" in last and "--timeout" not in last
    assert not any("\u4e00" <= c <= "\u9fff" for c in last)


def test_diff_kotlin_echoes_a_revision_escaped_and_cut():
    repo = str(Path(__file__).resolve().parent.parent)
    if not (Path(repo) / ".git").exists():
        pytest.skip("not a git checkout")
    for rev, want in (("a\nb\u202e", "no such revision: a\\nb\\u202e"), ("r" * 100_000, "(100,000 characters)")):
        rc, out, err, _ = run_cli(["diff", "--kotlin", repo, rev, "HEAD", "--no-config", "--lang", "en"])
        assert rc == 2 and want in err and len(err) < 1000 and "\u202e" not in err
