"""Latency of `skillproof ask`: one question from a cold start, and questions at a warm prompt.

Targets (issue 5): a single query from a cold start ≤ 1 s; a warm query in the prompt ≤ 100 ms, for queries
like the issue's examples. Prints the figures and their ratio to the target (< 1.00 is within target).

    .venv/bin/python benchmarks/ask_latency.py [--runs N] [--no-pty]

* cold: `skillproof ask QUERY` as a fresh process (interpreter start, imports, catalogue, z3, the answer
  and its rendering), wall clock, N runs per query;
* warm (in process): `Session.ask` with one solver for every question, built at start (what the prompt
  does), and with solvers narrowed to each question's shape (what a one-shot `ask QUERY` does; "first" is
  the first question of its shape, which builds its solver);
* warm (prompt): the real prompt under a pseudo-terminal — from Enter to the next prompt, rendering
  included;
* parse only: `Session.parse` on each query, the catalogue's names built once (as at the prompt);
* the corpus at the prompt: every question of tests/fixtures/ask-corpus (the rule book's, as designers write
  them) asked twice in one warm session (the prompt's): median, 90th percentile and slowest of the second asking.
Load average is printed: other work on a 2-core machine inflates every figure.
Not a timed test: machines differ; run it on the machine the targets are for.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERIES = [
    "张一挺禁用了截获，SP李宁玉还能发动应变将截获视为误导使用吗？",
    "在别人的回合，SP韩梅发动冷血训练后能否向上传出并锁定1人？",
    "被锁定的角色能选择不接收吗？",
    "can SP李宁玉 still play 截获 as 误导 while 变则通 is active?",
    "can SP李宁玉 play 截获 as 误导 under 变则通(A=截获, B=破译)",
    "if 变则通 declares 截获→破译, can SP李宁玉 use 应变?",
    "can a player under 强令's ban on 截获 still get a 截获 into play?",
    "can 顾小梦 be skipped in 濒死求澄清 while she holds cards?",
    "always SP李宁玉 convert 截获 to 误导 when not invalidated",
    "can anyone be skipped in 争夺阶段 when holding cards and not banned all?",
    "can SP李宁玉 play 截获 as 误导 in the main phase?",
    "which conversion fires when anyone plays 截获 as ? under 强令's ban on 截获",      # last: the 'which' row
]
#: table questions (checks/ask/table.py: asked of games of the server), measured cold with --table
TABLE_QUERIES = [
    "老汉能在自己的回合死吗？",
    "传出者能收到自己的情报吗？",
    "篡夺者能获胜吗？",
    "老汉在自己的回合死亡时能发动如归吗？",
    "潜伏战线有两张红色情报和两张黑色情报时，收到含红色和黑色的情报后会濒死吗？",
    "王响能有四张黑色情报吗？",
]
COLD_TARGET, WARM_TARGET = 1.0, 0.100
EXE = str(Path(sys.executable).with_name("skillproof"))
ENV = dict(os.environ, TERM="xterm", LANG="C.UTF-8", LC_ALL="C.UTF-8", NO_COLOR="1", PROMPT_TOOLKIT_NO_CPR="1")


def row(label: str, xs: list, target: float) -> str:
    med = statistics.median(xs)
    return (f"  {label[:66]:66s} median {med * 1000:7.1f} ms  min {min(xs) * 1000:7.1f}  max {max(xs) * 1000:7.1f}"
            f"  ratio {med / target:5.2f}")


def cold(runs: int, bytecode: bool) -> list:
    env = dict(ENV, PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="skillproof-pyc-"))    # empty: nothing cached yet
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([EXE, "ask", QUERIES[0]], capture_output=True, env=env)     # writes the .pyc files
        how = "modules' bytecode cached, as after any first run of a normal install"
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        how = "PYTHONDONTWRITEBYTECODE=1 and no cached bytecode: every module compiled at every start"
    print(f"cold start: `skillproof ask QUERY` in a fresh process, {runs} runs each (target {COLD_TARGET:.0f} s)"
          f"\n  [{how}]")
    meds = []
    for q in QUERIES:
        xs = []
        for _ in range(runs):
            t = time.perf_counter()
            r = subprocess.run([EXE, "ask", q], capture_output=True, env=env)
            xs.append(time.perf_counter() - t)
            assert r.returncode == 0, r.stderr.decode()
        meds.append(statistics.median(xs))
        print(row(q, xs, COLD_TARGET))
    return meds


def table_cold(runs: int) -> None:
    """Table questions (checks/ask/table.py) from a cold start: wall clock and the search alone (``--json``'s
    time is not printed: the search is read from a second, in-process asking after the catalogue is loaded)."""
    env = dict(ENV)
    subprocess.run([EXE, "ask", TABLE_QUERIES[0]], capture_output=True, env=env)          # bytecode cached
    print(f"table questions, cold start: `skillproof ask QUERY` in a fresh process, {runs} runs each")
    for q in TABLE_QUERIES:
        xs = []
        for _ in range(runs):
            t = time.perf_counter()
            r = subprocess.run([EXE, "ask", "--brief", q], capture_output=True, env=env)
            xs.append(time.perf_counter() - t)
            assert r.returncode in (0, 3), r.stderr.decode()
        print(row(q, xs, COLD_TARGET))
    from skillproof.checks import ask as Q
    from skillproof.model import loader
    t = time.perf_counter()
    sess = Q.Session(loader.load(None))
    print(f"in process: the catalogue loaded in {(time.perf_counter() - t) * 1000:.0f} ms; the search alone:")
    for q in TABLE_QUERIES:
        res = sess.ask(q)
        print(f"  {q[:60]:60s} {res.answer:8s} {res.seconds * 1000:7.1f} ms  ({res.bounds.get('templates')} templates)")


def warm_in_process(runs: int, general: bool) -> tuple[list, list]:
    from skillproof.checks import ask as Q
    from skillproof.model import loader
    sess = Q.Session(loader.load(None), general=general)
    t = time.perf_counter()
    sess.warm()
    built = time.perf_counter() - t
    if general:
        print(f"\nwarm, in process, as the prompt runs (Session(general=True): one solver for every question, "
              f"built once in {built * 1000:.0f} ms at start; target {WARM_TARGET * 1000:.0f} ms)")
    else:
        print(f"\nwarm, in process, narrowed solvers as `ask QUERY` uses them (a solver per question shape, "
              f"built the first time; target {WARM_TARGET * 1000:.0f} ms)")
    firsts, agains = [], []
    for q in QUERIES:
        t = time.perf_counter()
        sess.ask(q)
        first = time.perf_counter() - t
        xs = []
        for _ in range(runs):
            t = time.perf_counter()
            sess.ask(q)
            xs.append(time.perf_counter() - t)
        firsts.append(first)
        agains.append(statistics.median(xs))
        print(row(q, xs, WARM_TARGET) + f"   first {first * 1000:6.1f} ms")
    return firsts, agains


def parse_times(runs: int) -> list:
    """The parser alone, as the prompt runs it (`Session.parse`: the catalogue's names built once)."""
    from skillproof.checks import ask as Q
    from skillproof.model import loader
    sess = Q.Session(loader.load(None))
    print(f"\nparse only, at the prompt (Session.parse, names built once; median of {runs} × 100 parses)")
    meds = []
    for q in QUERIES:
        sess.parse(q)
        xs = []
        for _ in range(runs):
            t = time.perf_counter()
            for _ in range(100):
                sess.parse(q)
            xs.append((time.perf_counter() - t) / 100)
        meds.append(statistics.median(xs))
        print(f"  {q[:66]:66s} median {meds[-1] * 1e6:7.1f} µs  min {min(xs) * 1e6:7.1f}")
    return meds


def corpus_at_the_prompt() -> list:
    """Every corpus question, asked in the prompt's warm session: the seconds of each, asked a second time."""
    import tomllib
    from skillproof.checks import ask as Q
    from skillproof.model import loader
    sess = Q.Session(loader.load(None), general=True)
    sess.warm()
    corpus = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "ask-corpus"
    texts = []
    for f in sorted(corpus.glob("*.toml")):
        if f.name == "pending.toml":
            continue
        for q in tomllib.loads(f.read_text(encoding="utf-8"))["question"]:
            texts.append(q["ask"] if q.get("accepted", True) else q["instead"])
    xs = []
    for t in texts:
        sess.ask(t)
        t0 = time.perf_counter()
        sess.ask(t)
        xs.append(time.perf_counter() - t0)
    xs.sort()
    print(f"\nthe corpus at the prompt: {len(xs)} questions, one warm session, the second asking of each: median "
          f"{statistics.median(xs) * 1000:.1f} ms, 90th percentile {xs[int(len(xs) * 0.9)] * 1000:.1f} ms, slowest "
          f"{xs[-1] * 1000:.1f} ms; {sum(x <= WARM_TARGET for x in xs)} of {len(xs)} within {WARM_TARGET * 1000:.0f} ms")
    return xs


def warm_prompt(runs: int) -> list:
    try:
        import pexpect
    except ImportError:
        print("\n(pexpect not installed: prompt latency skipped)")
        return []
    print(f"\nwarm, at the prompt under a pseudo-terminal (Enter → next prompt; target {WARM_TARGET * 1000:.0f} ms)")
    c = pexpect.spawn(EXE, ["ask", "--lang", "en", "--brief", "--history", os.devnull], env=ENV, encoding="utf-8", timeout=60,
                      dimensions=(50, 250))
    c.expect("ask>")
    c.delaybeforesend = None                           # pexpect's default 50 ms pause would be counted
    meds = []
    for q in QUERIES:
        c.sendline(q)                                  # the first time: builds this shape's solver
        c.expect("searched:")
        c.expect("ask>")
        xs = []
        for _ in range(runs):
            c.send(q)
            c.expect_exact(q[-6:])
            t = time.perf_counter()
            c.send("\r")
            c.expect("searched:")
            c.expect("ask>")
            xs.append(time.perf_counter() - t)
        meds.append(statistics.median(xs))
        print(row(q, xs, WARM_TARGET))
    c.sendline(":quit")
    c.expect(pexpect.EOF)
    return meds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-pty", action="store_true", help="skip the pseudo-terminal measurement")
    ap.add_argument("--quick", action="store_true", help="skip the no-bytecode cold start")
    ap.add_argument("--table", action="store_true", help="only the table questions, cold (TABLE_QUERIES)")
    a = ap.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (other work on the machine inflates every figure)\n")
    if a.table:
        table_cold(a.runs)
        return
    c = cold(a.runs, bytecode=True)
    print()
    c_nobc = [] if a.quick else cold(a.runs, bytecode=False)
    parses = parse_times(max(a.runs, 5))
    firsts, agains = warm_in_process(max(a.runs, 5), general=True)
    n_firsts, n_agains = warm_in_process(max(a.runs, 5), general=False)
    corp = corpus_at_the_prompt()
    p = [] if a.no_pty else warm_prompt(a.runs)
    print("\nsummary (ratio = median / target; ≤ 1.00 meets the target)")
    print(f"  cold start, worst query median  {max(c) * 1000:7.1f} ms   ratio {max(c) / COLD_TARGET:5.2f}")
    print(f"  cold start, median over queries {statistics.median(c) * 1000:7.1f} ms   ratio "
          f"{statistics.median(c) / COLD_TARGET:5.2f}")
    if c_nobc:
        print(f"  cold, no bytecode, worst median {max(c_nobc) * 1000:7.1f} ms   ratio {max(c_nobc) / COLD_TARGET:5.2f}")
    print(f"  parse only, worst median            {max(parses) * 1e6:7.1f} µs   (median over queries "
          f"{statistics.median(parses) * 1e6:.1f} µs)")
    one = [x for q, x in zip(QUERIES, agains) if not q.startswith("which")]
    print(f"  warm (prompt solver), worst median, yes/no questions {max(one) * 1000:7.1f} ms   ratio "
          f"{max(one) / WARM_TARGET:5.2f}")
    print(f"  warm (prompt solver), 'which' (lists every answer)  {agains[-1] * 1000:7.1f} ms   ratio "
          f"{agains[-1] / WARM_TARGET:5.2f}")
    print(f"  warm (prompt solver), first time asked, worst        {max(firsts) * 1000:7.1f} ms   ratio "
          f"{max(firsts) / WARM_TARGET:5.2f}")
    print(f"  narrowed solvers, repeated, worst median            {max(n_agains) * 1000:7.1f} ms   ratio "
          f"{max(n_agains) / WARM_TARGET:5.2f}")
    print(f"  narrowed solvers, first of a shape, worst           {max(n_firsts) * 1000:7.1f} ms   ratio "
          f"{max(n_firsts) / WARM_TARGET:5.2f}")
    print(f"  the corpus at the prompt, median / p90 / slowest       {statistics.median(corp) * 1000:6.1f} / "
          f"{corp[int(len(corp) * 0.9)] * 1000:.1f} / {corp[-1] * 1000:.1f} ms")
    if p:
        pone = [x for q, x in zip(QUERIES, p) if not q.startswith("which")]
        print(f"  prompt (pty), worst median, yes/no questions        {max(pone) * 1000:7.1f} ms   ratio "
              f"{max(pone) / WARM_TARGET:5.2f}")
        print(f"  prompt (pty), 'which'                               {p[-1] * 1000:7.1f} ms   ratio "
              f"{p[-1] / WARM_TARGET:5.2f}")


if __name__ == "__main__":
    main()
