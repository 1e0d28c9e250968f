"""The long random-catalogue cross-check: interpreter vs z3 encoder over N random catalogues.

    python benchmarks/crosscheck_randcat.py --catalogues 1000 --states 100 [--traces 20] [--active 40] [--seed S]
    python benchmarks/crosscheck_randcat.py --families 300 [--seed S]     # every check family, every [rules] value

``--active N``: N more traces a catalogue around a grant handed out by an ActiveSkill (tests/randactive.py:
legal or not by the skill's windows and actors, or the site's own moment), on the catalogues that have such a site.

``--families N``: every check family run on N random catalogues, each drawn under the next value of a [rules]
key (randcat.rules_settings: every subset of must_receive / skip_fight / skip_dying, each boolean both ways, …),
every witness replayed by the interpreter; an INT001 (the twins disagree) or a crash is a disagreement.

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
from randactive import active_sites, run_active  # noqa: E402
from randcat import load_random, rules_settings  # noqa: E402


def run_families(n: int, seed: int) -> int:
    from skillproof.checks.context import Options, run
    settings = rules_settings()
    t0, bad, findings = time.perf_counter(), [], 0
    for i in range(n):
        s = seed * 1000 + i
        try:
            _, cat = load_random(s, settings[i % len(settings)], must_fire=True)
            res = run(cat, Options(timeout_ms=3000), jobs=1)
        except Exception as e:          # noqa: BLE001 — a crash of a family is what we look for
            bad.append(f"catalogue {s} {settings[i % len(settings)]}: {type(e).__name__}: {e}")
            continue
        findings += len(res.findings)
        bad += [f"catalogue {s} {settings[i % len(settings)]}: {f.message_en[:200]}" for f in res.findings
                if f.check == "INT001"]
    for b in bad:
        print("DISAGREE", b)
    print(f"{n} catalogues under {len(settings)} [rules] settings, every family: {findings} findings, "
          f"{time.perf_counter() - t0:.1f} s, {len(bad)} disagreements or crashes")
    return 1 if bad else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--catalogues", type=int, default=200)
    ap.add_argument("--states", type=int, default=100)
    ap.add_argument("--traces", type=int, default=0)
    ap.add_argument("--active", type=int, default=0, help="traces a catalogue around an ActiveSkill's give")
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--families", type=int, default=0, help="run every check family on this many catalogues instead")
    a = ap.parse_args(argv)
    if a.families:
        return run_families(a.families, a.seed)
    t0, c0 = time.perf_counter(), time.process_time()
    pairs, bad, active = 0, [], 0
    for i in range(a.catalogues):
        seed = a.seed * 1000 + i
        _, cat = load_random(seed, must_fire=True)
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
        if a.active and active_sites(cat):
            seen, msg = run_active(h, a.active, seed * 7 + 3, f"catalogue {seed}")
            pairs += seen["compared"]
            active += seen["compared"]
            if msg:
                bad.append(msg.splitlines()[0])
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    for b in bad:
        print("DISAGREE", b)
    print(f"{a.catalogues} catalogues, {pairs} pairs, {cpu:.1f} s CPU ({wall:.1f} s wall), "
          f"{pairs / max(cpu, 1e-9):.0f} pairs/s CPU, {len(bad)} disagreements"
          + (f" ({active} of the pairs ActiveSkill-give traces)" if a.active else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
