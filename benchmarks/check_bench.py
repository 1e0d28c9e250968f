"""Speed of `skillproof check`: figures and ratios measured in one run (these machines are noisy).

    .venv/bin/python benchmarks/check_bench.py [--runs 3] [--big] [--cold-only]

Prints:
  1. the full check of the shipped catalogue, cold (a fresh `skillproof check --no-cache` process), median of runs:
     wall time and CPU time (user + sys of the process and its lanes: on a loaded machine the CPU time is the
     steadier figure), its peak memory, the load average before and after; one `ask` question cold (median); then,
     in process, each lane's CPU time (the lanes run side by side: the slowest bounds the wall time) and the share of
     it spent making witnesses games;
  2. the solver against brute-force enumeration with the interpreter, on a catalogue small enough for
     brute force to finish: (a) over the projection of the state space the conversion questions read —
     the most favourable brute force there is — run to completion; (b) over the same bounded space the
     solver covers (every attribute of every seat), estimated from the measured evaluation rate;
  3. synthetic catalogues 1x, 2x and 3x (10x with --big) the size of the real one: k copies of the
     shipped catalogue, each with its own card types and ids. Copies still meet through rules that range
     over every card (浑水摸鱼 converts any card, 强令 may ban any declared type): those interactions are
     real and checked, so findings grow about as k squared, and time with them; the script prints findings
     and time per finding next to the ratios.
     Each size also prints its solver questions and the time per question (wall time of the whole check
     divided by its questions: loading and reporting included, so it overstates small runs).
Targets (from the tracker): full shipped check <= 2 s cold on 2 cores; >= 100x faster than brute force at
equal coverage; the time per solver question at 10x at most 1.5x that at 1x, and the 10x check <= 60 s
(--big).
"""
from __future__ import annotations

import argparse
import itertools
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SK = [sys.executable, "-m", "skillproof"]


def cold(args, runs, bytecode: bool = True, cpu: list | None = None, rss: list | None = None):
    """Median wall time of ``skillproof ARGS`` in a fresh process. ``bytecode``: the modules' bytecode cached,
    as after the first run of any normal install (pip compiles it; this machine's environment sets
    PYTHONDONTWRITEBYTECODE, which would compile every module at every start); else compiled every time.
    ``cpu``: a list to append each run's CPU seconds to (user + sys of the process and its lanes); ``rss``: a list to
    append each run's peak resident memory to, in MiB (its largest process: the main one or a lane; measured in a
    child of its own, whose children's peak is that run's alone)."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="skillproof-pyc-"))   # empty: nothing cached
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run(SK + args, capture_output=True, env=env)        # writes the .pyc files (not timed)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    times = []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run(SK + args, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if cpu is not None:
            cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        if r.returncode not in (0, 1):
            raise SystemExit(f"check failed ({r.returncode}): {r.stderr[-500:]}")
    if rss is not None:
        rss.append(peak_rss(args, env))
    return statistics.median(times)


_PEAK = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True); "
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def peak_rss(args, env) -> float:
    """Peak resident memory (MiB) of ``skillproof ARGS``'s largest process, run once more under a fresh parent (the
    kernel keeps the largest of a process's waited-for descendants: of this run alone)."""
    r = subprocess.run([sys.executable, "-c", _PEAK] + SK + args, capture_output=True, text=True, env=env)
    try:
        return int(r.stdout.strip()) / 1024          # ru_maxrss is in KiB on Linux
    except ValueError:
        return float("nan")


def ask_cold(runs: int) -> float:
    """Median wall time of one `skillproof ask` question in a fresh process (benchmarks/ask_latency.py's first
    query, modules' bytecode cached): the check's changes to the twins and the realiser reach `ask` too."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ask_latency import QUERIES
    env = dict(os.environ, PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="skillproof-pyc-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(SK + ["ask", QUERIES[0]], capture_output=True, env=env)     # writes the .pyc files (not timed)
    xs = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(SK + ["ask", QUERIES[0]], capture_output=True, env=env)
        xs.append(time.perf_counter() - t)
    return statistics.median(xs)


def load_average() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


# ------------------------------------------------------------------------------------------ brute force
def brute_force_projection(cat, n=2, G=2, budget_s=None, grants_filter=None):
    """Enumerate every state of the conversion projection: who sits, the player's face-up and invalidated
    flags, whose turn, up to G grants (template, giver, site, parameters), and every (actual, declared)
    pair; evaluate the CV001/CV002 questions with the interpreter. Returns (states, seconds, answers)."""
    from skillproof.checks.graph import site_args
    from skillproof.model.interp.bans import banned
    from skillproof.model.interp.conversion import conversion
    from skillproof.model.interp.snapshot import reachable
    from skillproof.model.state import Seat, SkillInst, State
    chars = list(cat.characters)
    cards = list(cat.cards)
    grant_choices = []
    for g in cat.grants:
        if grants_filter and not grants_filter(g):
            continue
        for give in cat.sites(g.id):
            for args in site_args(cat, give):
                grant_choices.append((g.id, give, args))
    t = time.perf_counter()
    states = 0
    vetoed = dead = 0
    for k in range(1, n + 1):
        for seating in itertools.permutations(chars, k):
            for face_up, inv in itertools.product((True, False), repeat=2):
                for turn in range(k):
                    for m in range(G + 1):
                        for grants in itertools.product(grant_choices, repeat=m):
                            for givers in itertools.product(range(k), repeat=m):
                                seats = [Seat(c, skills=[SkillInst(r) for r in cat.characters[c].skills])
                                         for c in seating]
                                me = seats[0]
                                me.face_up = me.ever_face_up = face_up
                                me.hand_count = 1
                                for inst in me.skills:
                                    inst.invalid = inv and cat.skills[inst.rule].initial
                                for (gid, give, args), gv in zip(grants, givers):
                                    me.skills.append(SkillInst(gid, dict(args), giver=gv,
                                                               site=f"{give.giver}#{give.index}"))
                                st = State(seats, turn=turn)
                                states += 1
                                if budget_s and states % 200 == 0 and time.perf_counter() - t > budget_s:
                                    return states, time.perf_counter() - t, (vetoed, dead)
                                if reachable(cat, st):
                                    continue
                                for x in cards:
                                    ok_any = False
                                    for y in cards:
                                        c = conversion(cat, st, 0, x, y)
                                        ok_any |= c.ok
                                        if not c.ok and any(cat.skills[i.rule].convert and not cat.skills[i.rule].convert.must
                                                            for i in me.skills):
                                            vetoed += 1
                                    if not ok_any and not banned(cat, st, 0, x):
                                        dead += 1
    return states, time.perf_counter() - t, (vetoed, dead)


def projection_size(cat, n=2, G=2, grants_filter=None):
    from skillproof.checks.graph import site_args
    chars = len(cat.characters)
    choices = sum(len(site_args(cat, give)) for g in cat.grants if not grants_filter or grants_filter(g)
                  for give in cat.sites(g.id))
    total = 0
    for k in range(1, n + 1):
        total += math.perm(chars, k) * 4 * k * sum((choices * k) ** m for m in range(G + 1))
    return total


def full_space_size(cat, n=2, G=2):
    """How many states the solver's bounded space holds (n seats, G grants, every attribute)."""
    from skillproof.checks.graph import site_args
    from skillproof.model import vocab as V
    per_seat = 2 ** 5 * len(V.COLOURS)
    for f, (lo, hi) in V.INT_BOUNDS.items():
        if f not in ("lock_count", "count"):
            per_seat *= hi - lo + 1
    chars = len(cat.characters)
    grant_choices = sum(len(site_args(cat, give)) for g in cat.grants for give in cat.sites(g.id))
    total = 0
    for k in range(1, n + 1):
        seatings = math.perm(chars, k)
        grants = sum((grant_choices * k) ** m for m in range(G + 1))
        globals_ = k * (k + 1) ** 3 * 2 ** 3 * 3 * 2          # turn, sender, in front, dying, message, arrow, lock
        total += seatings * per_seat ** k * grants * globals_
    return total * len(cat.cards) ** 2


# ------------------------------------------------------------------------------------ synthetic scaling
def clone_catalogue(k: int, out: Path):
    """k copies of the shipped catalogue; copy i renames every id with a suffix (cards included)."""
    from skillproof.model import loader
    src = loader.shipped_path()
    texts = {p.relative_to(src).as_posix(): p.read_text(encoding="utf-8") for p in loader.catalogue_files([src])}
    from skillproof.model.loader import load
    cat = load()
    ids = sorted(set(cat.cards) | set(cat.characters) | set(cat.skills), key=len, reverse=True)
    pat = re.compile(r'(?<![A-Za-z0-9_])(' + "|".join(re.escape(i) for i in ids) + r')(?![A-Za-z0-9_])')
    out.mkdir(parents=True, exist_ok=True)
    for i in range(k):
        for name, text in texts.items():
            if i and name.startswith("intents/"):     # the rule book's promises are about copy 0's names
                continue
            body = text if i == 0 else "".join(
                line if line.startswith("kinds") else pat.sub(lambda m: f"{m.group(1)}_c{i}", line)
                for line in text.splitlines(keepends=True))
            if i:
                body = re.sub(r'^name = "([^"]*)"', lambda m: f'name = "{m.group(1)}·{i}"', body, flags=re.M)
                body = _drop_rules_table(body)
            dest = out / f"{i:03d}" / name          # copy i in its own directory, laid out as the shipped one
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(body, encoding="utf-8")


def _drop_rules_table(text: str) -> str:
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("["):
            skipping = line.strip() == "[rules]"
        if not skipping:
            out.append(line)
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--big", action="store_true", help="also the 10x catalogue (slow)")
    ap.add_argument("--cold-only", action="store_true",
                    help="only the full check of the shipped catalogue (wall, CPU, the lanes' CPU, realisation's share)")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from skillproof.checks.context import Options, run
    from skillproof.model import loader

    print("== 1. full check of the shipped catalogue")
    print(f"load average before (1 / 5 / 15 min): {load_average()}")
    cpus: list = []
    rss: list = []
    t_cold = cold(["check", "-q", "--no-cache"], a.runs, cpu=cpus, rss=rss)
    print(f"cold (new process, bytecode cached as after a first run, median of {a.runs}): {t_cold:.2f} s wall, "
          f"{statistics.median(cpus):.2f} s CPU (user + sys, lanes included), peak memory {rss[0]:.0f} MiB (its "
          f"largest process)   target <= 2 s: {'met' if t_cold <= 2 else 'NOT met'}   (load average now "
          f"{load_average()})")
    print(f"`skillproof ask` one question cold (benchmarks/ask_latency.py's first), median of {a.runs}: "
          f"{ask_cold(a.runs):.2f} s wall")
    if not a.cold_only:
        t_compile = cold(["check", "-q", "--no-cache"], a.runs, bytecode=False)
        print(f"cold with every module compiled at start (PYTHONDONTWRITEBYTECODE=1, no cached bytecode): "
              f"{t_compile:.2f} s")
    cat = loader.load()
    # the lanes' CPU is what the wall time follows on idle cores; on a shared machine it still varies run to run:
    # each figure is the median of ``--runs`` in-process checks (each lane a fresh process, as the command runs it)
    runs = []
    for _ in range(a.runs):
        t = time.perf_counter()
        runs.append((run(cat, Options()), time.perf_counter() - t))
    res = runs[0][0]
    lanes = [statistics.median(r.stats["lanes_cpu"][k] for r, _ in runs)
             for k in range(len(res.stats.get("lanes_cpu", [])))]
    realise_cpu = statistics.median(r.stats.get("realise_cpu", 0.0) for r, _ in runs)
    print(f"in process (catalogue loaded, z3 imported): {statistics.median(t for _, t in runs):.2f} s; "
          f"{len(res.findings)} findings, {res.stats['queries']} solver questions")
    if lanes:
        print(f"lanes' CPU (median of {a.runs}): {' + '.join(f'{c:.2f}' for c in lanes)} s (the slowest lane bounds "
              f"the wall time: ~ it + 0.2 s start-up on idle cores); making witnesses games (checks/realise.py): "
              f"{realise_cpu:.2f} s CPU, {100 * realise_cpu / max(sum(lanes), 1e-9):.0f}% of the lanes'   "
              f"(load average now {load_average()})")
        bare = run(cat, Options(realise=False)).stats.get("lanes_cpu", [])
        if bare:
            print(f"the same without making witnesses games (Options(realise=False)): lanes' CPU "
                  f"{' + '.join(f'{c:.2f}' for c in bare)} s: the slowest lane {max(lanes) / max(bare):.2f}x as long "
                  f"with it")
    if a.cold_only:
        return

    print("\n== 2. solver vs brute force (conversion questions, fixture tests/fixtures/families/conversion)")
    fam = ROOT / "tests" / "fixtures" / "families"
    small = loader.load([fam / "base.toml", fam / "conversion" / "trigger.toml"])
    t = time.perf_counter()
    sres = run(small, Options(only=("conversion",)), jobs=1)
    t_solver = time.perf_counter() - t
    states, t_bf, answers = brute_force_projection(small)
    print(f"solver: {t_solver:.2f} s for the conversion family ({len(sres.findings)} findings)")
    print(f"brute force over the conversion projection: {states} states in {t_bf:.2f} s "
          f"(found {answers[0]} vetoed uses, {answers[1]} dead cards) -> ratio {t_bf / t_solver:.1f}x")
    full = full_space_size(small)
    rate = states / t_bf
    est = full / rate
    print(f"same bounded space as the solver (every attribute): {full:.3g} states; at {rate:.0f} states/s "
          f"brute force needs ~{est:.3g} s -> ratio ~{est / t_solver:.3g}x   target >= 100x: "
          f"{'met' if est / t_solver >= 100 else 'NOT met'}")

    conv = lambda g: g.convert is not None
    t = time.perf_counter()
    sres = run(cat, Options(only=("conversion",)), jobs=1)
    t_solver_real = time.perf_counter() - t
    states, t_bf, _ = brute_force_projection(cat, budget_s=5.0, grants_filter=conv)
    total = projection_size(cat, grants_filter=conv)
    est = total / (states / t_bf)
    print(f"shipped catalogue, conversion family: solver {t_solver_real:.2f} s; brute force over the same "
          f"conversion projection ({total:.3g} states, {states / t_bf:.0f} states/s measured for {t_bf:.1f} s) "
          f"needs ~{est:.3g} s -> ratio ~{est / t_solver_real:.0f}x   target >= 100x: "
          f"{'met' if est / t_solver_real >= 100 else 'NOT met'}")

    print("\n== 3. synthetic catalogues (k copies of the real one, own card types each)")
    sizes = [1, 2, 3] + ([10] if a.big else [])
    per_q = {}
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        for k in sizes:
            d = Path(tmp) / f"x{k}"
            clone_catalogue(k, d)
            t = time.perf_counter()
            r = subprocess.run(SK + ["check", "-q", "--fail-on", "none", "--format", "json", str(d)],
                               capture_output=True, text=True)
            tk = time.perf_counter() - t
            import json
            doc = json.loads(r.stdout) if r.returncode in (0, 1, 3) and r.stdout.strip() else None
            nf = len(doc["findings"]) if doc else -1
            nq = doc["summary"].get("solver_queries", 0) if doc else 0
            per_q[k] = tk / max(nq, 1)
            base = base or (tk, nf)
            print(f"{k:>4}x: {tk:7.2f} s  ({tk / base[0]:5.1f}x the 1x time)  {nf} findings "
                  f"({nf / base[1]:.1f}x)  {nq} solver questions, {per_q[k] * 1000:.0f} ms per question "
                  f"({per_q[k] / per_q[1]:.2f}x the 1x cost)", flush=True)
        if 10 in per_q:
            ratio = per_q[10] / per_q[1]
            print(f"time per question at 10x: {ratio:.2f}x that at 1x   target <= 1.5x: "
                  f"{'met' if ratio <= 1.5 else 'NOT met'}")
    print("\nratios above are within one run; compare them, not absolute seconds, across machines")


if __name__ == "__main__":
    main()
