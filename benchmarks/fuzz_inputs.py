"""The long fuzz run: many mutated catalogues through `skillproof catalogue` and mutated scenario files
through `skillproof replay` (the same seeded mutations as tests/test_fuzz_inputs.py, many more seeds), and the
typed fuzz of every key (tests/schemafuzz.py, as tests/test_schemafuzz.py: catalogue keys, configuration keys,
command-line options, odd files in directories).

    .venv/bin/python benchmarks/fuzz_inputs.py [--catalogues 3200] [--scenarios 600] [--typed 2000] [--seed 0]
                                               [--slow 2] [--timeout 60] [--show 10]

Prints, for each kind: cases, exit codes, problems (tracebacks, internal errors, exit codes other than
0/1/2, unlocated or multi-line messages), hangs (over --timeout, stopped), slow cases (over --slow
seconds), the slowest case and the total time; then the first --show problems with their seeds (a case
is reproduced by its seed: fuzzkit.catalogue_case(seed, dir) / fuzzkit.scenario_case(seed, dir)).
Exit status 1 if any case has a problem or hangs.
"""
from __future__ import annotations

import argparse
import collections
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import fuzzkit as F  # noqa: E402
import schemafuzz as SF  # noqa: E402


class _Hang(BaseException):
    pass


def _alarm(signum, frame):
    raise _Hang()


def run_kind(kind: str, n: int, first_seed: int, args, workdir: Path) -> tuple[dict, list]:
    texts = F.shipped_texts()
    rcs: collections.Counter = collections.Counter()
    problems, hangs, slow = [], [], []
    worst = (0.0, None)
    t0 = time.perf_counter()
    signal.signal(signal.SIGALRM, _alarm)
    for seed in range(first_seed, first_seed + n):
        signal.setitimer(signal.ITIMER_REAL, args.timeout)
        t = time.perf_counter()
        try:
            if kind.startswith("typed "):
                r = SF.case(kind.split()[1], seed, workdir)
            else:
                r = F.catalogue_case(seed, workdir, texts) if kind == "catalogue" else F.scenario_case(seed, workdir)
        except _Hang:
            hangs.append(seed)
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        secs = time.perf_counter() - t
        rcs[r["rc"]] += 1
        if secs > worst[0]:
            worst = (secs, seed)
        if secs > args.slow:
            slow.append((seed, secs, r["what"]))
        if r["problem"]:
            problems.append((seed, r["what"], r["problem"]))
    summary = {"kind": kind, "cases": n, "exit codes": dict(sorted(rcs.items())), "problems": len(problems),
               "tracebacks": sum(1 for p in problems if p[2].startswith("crashed")), "hangs": len(hangs),
               f"slow (> {args.slow:g} s)": len(slow), "max seconds": round(worst[0], 2),
               "slowest seed": worst[1], "total seconds": round(time.perf_counter() - t0, 1)}
    return summary, problems + [(s, "", f"hang over {args.timeout} s") for s in hangs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--catalogues", type=int, default=3200)
    ap.add_argument("--scenarios", type=int, default=600)
    ap.add_argument("--typed", type=int, default=2000, help="typed cases of each kind (tests/schemafuzz.py)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--slow", type=float, default=2.0, help="a case slower than this many seconds is slow")
    ap.add_argument("--timeout", type=float, default=60.0, help="stop a case after this many seconds (a hang)")
    ap.add_argument("--show", type=int, default=10, help="problems to print")
    args = ap.parse_args()
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        kinds = [("catalogue", args.catalogues), ("scenario", args.scenarios)]
        kinds += [(f"typed {k}", args.typed) for k in SF.KINDS]
        for kind, n in kinds:
            if n <= 0:
                continue
            summary, problems = run_kind(kind, n, args.seed, args, Path(tmp))
            print("  ".join(f"{k}: {v}" for k, v in summary.items()), flush=True)
            bad += [(kind, *p) for p in problems]
    for kind, seed, what, problem in bad[: args.show]:
        print(f"  {kind} seed {seed}: {what[:100]} -> {problem[:300]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
