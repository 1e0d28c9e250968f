"""Same inputs, byte-identical reports: every format (and the written baseline) from two processes with
different hash seeds, on the synthetic catalogue with a baseline applied (suppressed and stale entries)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from reportkit import CONVERSION, SYNTHETIC, checked, sp

from skillproof.reports import FORMATS

HERE = os.path.dirname(__file__)

SCRIPT = r"""
import os, sys
sys.path.insert(0, sys.argv[3])
from reportkit import SYNTHETIC, args_for
from skillproof.cmd_check import emit, make_report, run_checks
from skillproof.model.loader import load
from skillproof.reports import FORMATS, baseline as B
out, base = sys.argv[1], sys.argv[2]
cat = load([SYNTHETIC])
result = run_checks(cat, args_for())
b = B.load(base)
active, suppressed, stale = B.apply(b, result.findings)
assert suppressed and stale
for fmt in FORMATS:
    a = args_for(fmt, output=os.path.join(out, "report." + fmt))
    assert emit(make_report(cat, result, a, suppressed, stale, active), a, cat) == 0
with open(os.path.join(out, "baseline.toml"), "w", encoding="utf-8") as fh:
    fh.write(B.dumps(result.findings, keep=b))
"""


def run_with_seed(seed: str, out, base):
    os.makedirs(out, exist_ok=True)
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONIOENCODING": "utf-8"}
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(out), str(base), HERE], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    return {name: open(os.path.join(out, name), "rb").read() for name in sorted(os.listdir(out))}


def test_every_format_is_byte_identical_across_hash_seeds(tmp_path):
    _, result = checked((SYNTHETIC,))
    base = tmp_path / "baseline.toml"
    lines = ["version = 1\n"]
    for f in result.findings[::4]:
        lines.append(f'\n[[accepted]]\nid = "{f.id}"\nreason = "accepted for the test"\n')
    lines.append('\n[[accepted]]\nid = "CV001-0123456789"\nreason = "stale on purpose"\n')
    base.write_text("".join(lines), encoding="utf-8")
    a = run_with_seed("1", tmp_path / "a", base)
    b = run_with_seed("4242", tmp_path / "b", base)
    assert sorted(a) == sorted([f"report.{f}" for f in FORMATS] + ["baseline.toml"])
    for name in a:
        assert len(a[name]) > 500, name
        assert a[name] == b[name], f"{name} differs between hash seeds"


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_stdout_and_output_agree_across_hash_seeds(tmp_path, fmt):
    """Every format goes to --output or, without it, to stdout — the same bytes, whatever the hash seed."""
    p = tmp_path / f"report.{fmt}"
    r1 = sp("check", *CONVERSION, "-f", fmt, "-o", str(p), env={"PYTHONHASHSEED": "0"})
    r2 = sp("check", *CONVERSION, "-f", fmt, env={"PYTHONHASHSEED": "987654", "SKILLPROOF_NO_CACHE": "1"})
    assert r1.returncode == r2.returncode == 1, (r1.stderr, r2.stderr)
    assert r1.stdout == ""
    assert len(r2.stdout) > 200 and p.read_text(encoding="utf-8") == r2.stdout


def test_the_shipped_check_gives_one_report_whatever_the_hash_seed(tmp_path):
    """The command runs with string hashing fixed (cli.cli.entry): without it, hash seeds 1 and 2 gave 21 of the 64
    shipped findings another witness than seeds 0 and 7 (sets of names iterated while z3 terms are made)."""
    out = {}
    for seed in ("1", "7"):
        r = sp("check", "-f", "json", "--fail-on", "none", env={"PYTHONHASHSEED": seed, "SKILLPROOF_NO_CACHE": "1"})
        assert r.returncode == 0, r.stderr
        out[seed] = r.stdout
    assert len(out["1"]) > 10_000 and out["1"] == out["7"]
