"""Two checkouts' lanes of the shipped check, run interleaved: each lane's CPU seconds and its realisation's.

    .venv/bin/python benchmarks/lanes_ab.py OTHER_PYTHON [--runs 3]

OTHER_PYTHON: the interpreter of another checkout's environment (e.g. ``/tmp/base/.venv/bin/python``, a checkout of
the commit to compare with, installed with ``pip install -e .``); this one is ``sys.executable``. On this shared,
noisy machine a cold `check`'s wall clock (benchmarks/check_bench.py) moves by seconds between two runs of the same
code; a lane's CPU seconds, measured in a fresh process per lane, before and after side by side (A B A B …), move
far less — the figure to compare a change by. Each lane runs as the command runs it (``checks.context._run_lane``
after the catalogue is loaded, the collector frozen), with ``PYTHONHASHSEED=0``; the medians are printed per lane.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import gc, sys, time
from skillproof.model import loader
from skillproof.checks.context import Options, _run_lane, lanes_of
from skillproof.checks.registry import families
cat = loader.load(); opts = Options(); families()
lane = int(sys.argv[1])
if lane >= len(lanes_of(cat, opts)):
    print("none"); raise SystemExit
gc.disable(); gc.freeze()
c0 = time.process_time()
out, ran, st = _run_lane(cat, opts, lane)
print(f"{time.process_time() - c0:.3f} {st.get('realise_cpu', 0.0):.3f} {len(out)}")
"""


def lane_cpu(python: str, lane: int, env: dict) -> tuple | None:
    r = subprocess.run([python, "-c", CHILD, str(lane)], capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if r.returncode != 0:
        raise SystemExit(f"{python}: lane {lane} failed: {r.stderr[-400:]}")
    if r.stdout.strip() == "none":
        return None
    cpu, real, found = r.stdout.split()
    return float(cpu), float(real), int(found)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("other", help="the other checkout's Python (its .venv/bin/python)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lanes", type=int, default=2)
    a = ap.parse_args()
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="skillproof-pyc-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    pythons = {"other": a.other, "this": sys.executable}
    got: dict = {(k, lane): [] for k in pythons for lane in range(a.lanes)}
    for py in pythons.values():                     # bytecode written first (not timed)
        subprocess.run([py, "-c", "import skillproof.checks.context, skillproof.checks.registry as r; r.families()"],
                       env=env, capture_output=True)
    for _ in range(a.runs):
        for lane in range(a.lanes):
            for k, py in pythons.items():
                v = lane_cpu(py, lane, env)
                if v is not None:
                    got[(k, lane)].append(v)
    print(f"load average at the end: {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for lane in range(a.lanes):
        for k in pythons:
            xs = got[(k, lane)]
            if xs:
                print(f"lane {lane} {k:5s}: CPU {statistics.median(x[0] for x in xs):.2f} s (runs "
                      f"{', '.join(f'{x[0]:.2f}' for x in xs)}), realisation {statistics.median(x[1] for x in xs):.2f} s, "
                      f"{xs[0][2]} findings")


if __name__ == "__main__":
    main()
