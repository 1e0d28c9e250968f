"""Does a signal to `skillproof check` leave any process it started behind (issue 27: SIGTERM, what a cancelled CI
job sends, used to leave its workers running)?

    .venv/bin/python benchmarks/signal_leftovers.py [--runs 3] [--jobs 2] [--delays 0.5,4]

For each signal (SIGTERM ``--runs`` times per delay, SIGINT once per delay) a cold ``skillproof check --no-cache
--jobs N`` of the shipped catalogue is started with three reports (json to ``--output``, sarif and markdown by
``--output-format``); once its worker processes exist and have worked for the delay, the signal is sent to the main
process alone. Recorded: the workers seen, the exit status, seconds from the signal to the exit, which of those
processes are still alive 2 s after the exit (then killed), the last line on stderr, and the report files left
(all three or none). Exit status 1 if a process was left behind, a run did not exit within 10 s, or the reports
were not all or none.
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _children() -> dict:
    kids: dict = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    return kids


def descendants(pid: int) -> list:
    kids, out, todo = _children(), [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return out


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def one(sig: int, delay: float, jobs: int) -> dict:
    out = Path(tempfile.mkdtemp(prefix="skillproof-sig-"))
    p = subprocess.Popen([sys.executable, "-m", "skillproof", "check", "--no-cache", "--jobs", str(jobs),
                          "--format", "json", "--output", str(out / "r.json"),
                          "--output-format", f"sarif:{out / 'r.sarif'}", "--output-format", f"markdown:{out / 'r.md'}"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t0 = time.monotonic()
    while not descendants(p.pid) and p.poll() is None and time.monotonic() - t0 < 120:
        time.sleep(0.1)
    time.sleep(delay)
    kids = descendants(p.pid)
    t1 = time.monotonic()
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=10)
        hung = False
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        hung = True
    secs = time.monotonic() - t1
    time.sleep(2.0)
    left = [k for k in kids if alive(k)]
    for k in left:
        os.kill(k, signal.SIGKILL)
    files = sorted(f.name for f in out.iterdir())
    for f in out.iterdir():
        f.unlink()
    out.rmdir()
    lines = err.decode(errors="replace").strip().splitlines()
    return {"signal": signal.Signals(sig).name, "delay": delay, "workers": len(kids), "exit": p.returncode,
            "seconds": round(secs, 2), "left": left, "hung": hung, "stderr_last": lines[-1] if lines else "",
            "stderr_lines": len(lines), "files": files}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="SIGTERM runs per delay (SIGINT: one)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--delays", default="0.5,4", help="seconds the workers work before the signal, comma-separated")
    a = ap.parse_args(argv)
    delays = [float(x) for x in a.delays.split(",")]
    bad = 0
    for sig, runs in ((signal.SIGTERM, a.runs), (signal.SIGINT, 1)):
        for delay in delays:
            for _ in range(runs):
                r = one(sig, delay, a.jobs)
                ok = not r["left"] and not r["hung"] and len(r["files"]) in (0, 3) and r["workers"] > 0
                bad += not ok
                print(("ok   " if ok else "BAD  ") + " ".join(f"{k}={v}" for k, v in r.items()), flush=True)
    print("no process left behind" if not bad else f"{bad} run(s) with a problem")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
