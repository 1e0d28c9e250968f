"""The long random-catalogue cross-check: interpreter vs z3 encoder over N random catalogues.

    python benchmarks/crosscheck_randcat.py --catalogues 1000 --states 100 [--traces 20] [--seed S]

Prints pairs per second and every disagreement (catalogue seed, decision, first line), exit 1 if any.
Reproduce one with tests/randcat.py ``load_random(seed)`` and tests/crosskit.py ``run_states`` / ``run_traces``.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

from crosskit import Harness, run_states, run_traces  # noqa: E402
from randcat import load_random  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--catalogues", type=int, default=200)
    ap.add_argument("--states", type=int, default=100)
    ap.add_argument("--traces", type=int, default=0)
    ap.add_argument("--seed", type=int, default=20261207)
    a = ap.parse_args(argv)
    t0, c0 = time.perf_counter(), time.process_time()
    pairs, bad = 0, []
    for i in range(a.catalogues):
        seed = a.seed * 1000 + i
        _, cat = load_random(seed)
        h = Harness(cat)
        n, msg = run_states(h, a.states, seed * 7 + 1, f"catalogue {seed}")
        pairs += n
        if msg:
            bad.append(msg.splitlines()[0])
        if a.traces:
            _, compared, _, msg = run_traces(h, a.traces, seed * 7 + 2, f"catalogue {seed}")
            pairs += compared
            if msg:
                bad.append(msg.splitlines()[0])
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    for b in bad:
        print("DISAGREE", b)
    print(f"{a.catalogues} catalogues, {pairs} pairs, {cpu:.1f} s CPU ({wall:.1f} s wall), "
          f"{pairs / max(cpu, 1e-9):.0f} pairs/s CPU, {len(bad)} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
