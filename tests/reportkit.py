"""Shared by the report tests: one real check run per catalogue (cached for the session), Reports built the
way `skillproof check` builds them, and a runner for the command line."""
from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys

from conftest import FIXTURES

SYNTHETIC = os.path.join(FIXTURES, "synthetic")
FAM = os.path.join(FIXTURES, "families")
CONVERSION = [os.path.join(FAM, "base.toml"), os.path.join(FAM, "conversion", "trigger.toml")]


def args_for(fmt="json", fail_on="error", **kw) -> argparse.Namespace:
    d = dict(format=fmt, output=None, fail_on=fail_on, color="never", quiet=True, select="", ignore="",
             baseline=None, timeout=20.0, rlimit=0, max_grants=2, max_seats=3, jobs=1)
    d.update(kw)
    return argparse.Namespace(**d)


@functools.lru_cache(maxsize=None)
def checked(paths: tuple):
    """(catalogue, check result) for catalogue paths — the real checks, run once per session."""
    from skillproof.cmd_check import run_checks
    from skillproof.model.loader import load
    cat = load(list(paths))
    return cat, run_checks(cat, args_for())


def report_for(paths=(SYNTHETIC,), fmt="json", fail_on="error", suppressed=(), stale=(), findings=None, extra=None):
    from skillproof.cmd_check import make_report
    cat, result = checked(tuple(paths))
    rep = make_report(cat, result, args_for(fmt, fail_on), suppressed, stale, findings)
    if extra:
        rep.extra.update(extra)
    return cat, result, rep


def sp(*args, cwd=None, env=None):
    """Run the command line; a traceback is always a test failure."""
    r = subprocess.run([sys.executable, "-m", "skillproof", *args], capture_output=True, text=True, cwd=cwd,
                       env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}, timeout=600)
    assert "Traceback" not in r.stderr, r.stderr
    return r
