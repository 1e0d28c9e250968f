"""The long game cross-check: the interpreter of game traces (model/interp/game.py) vs its z3 twin
(checks/enc/game.py) over many random games.

    python benchmarks/crosscheck_game.py --traces 100000 [--seed S] [--random-share 0.4] [--per-catalogue 20]
                                         [--symbolic 500] [--fill 500] [--show 5]

``--traces``: traces compared on the pinned fast path (every hole of the trace's template pinned; see
tests/gamekit.py), a ``--random-share`` of them on random catalogues with effects (tests/randcat.py, ``effects=True``,
``--per-catalogue`` traces each), the rest on the shipped catalogue; ``--symbolic``: traces whose template's holes
are solver variables pinned by equations; ``--fill``: legal traces' templates with holes left open, solved and filled.

Prints the counts (compared, legal / illegal, generated), the time per pinned check, per symbolic check and per
template solve, and every disagreement (with the trace that reproduces it); exit 1 if any.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

import gamekit as GK  # noqa: E402
from randcat import load_random  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--traces", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--random-share", type=float, default=0.4)
    ap.add_argument("--per-catalogue", type=int, default=20)
    ap.add_argument("--symbolic", type=int, default=0)
    ap.add_argument("--fill", type=int, default=0)
    ap.add_argument("--show", type=int, default=5, help="disagreements printed in full")
    a = ap.parse_args(argv)
    from skillproof.model import loader
    shipped = loader.load()
    n_random = int(a.traces * a.random_share)
    n_shipped = a.traces - n_random
    t0 = time.perf_counter()
    total = GK.Tally()
    s = GK.run_pinned(shipped, n_shipped, a.seed, "shipped", stop_after=10 ** 9)
    print(s.summary("shipped catalogue"), flush=True)
    total.add(s)
    r = GK.Tally()
    i = 0
    while r.compared < n_random:
        seed = a.seed * 1000 + i
        _, cat = load_random(seed, effects=True, must_fire=True)
        r.add(GK.run_pinned(cat, min(a.per_catalogue, n_random - r.compared), seed, f"random catalogue {seed}",
                            stop_after=10 ** 9))
        i += 1
    if n_random:
        print(r.summary(f"random catalogues ({i})"), flush=True)
    total.add(r)
    print(total.summary("all pinned"), flush=True)
    bad = list(total.disagreements)
    if a.symbolic:
        sy = GK.run_symbolic(shipped, a.symbolic, a.seed + 1, "shipped, symbolic")
        print(f"symbolic: {sy.compared} traces ({sy.legal} legal), {len(sy.disagreements)} disagreements, "
              f"{sy.per_check_ms():.0f} ms per encoding + solve", flush=True)
        bad += sy.disagreements
    if a.fill:
        fi = GK.run_fill(shipped, a.fill, a.seed + 3, "shipped, fill")
        print(f"fill: {fi.compared} templates solved, {fi.legal} fills accepted, {len(fi.disagreements)} "
              f"disagreements, {fi.per_check_ms():.0f} ms per template solve", flush=True)
        bad += fi.disagreements
    print(f"{time.perf_counter() - t0:.0f} s in all; {len(bad)} disagreements")
    for d in bad[:a.show]:
        print("\n" + d[:4000])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
