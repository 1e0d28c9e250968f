"""SIGTERM (a cancelled CI job) and SIGINT (Ctrl-C, sent to the whole process group) end `skillproof check`
and every worker process within 2 s, print one line, and leave every report file or none (cli/signals.py)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from skillproof.signals import write_all

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    parts = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(parts[1]) == pid and parts[0] != "Z":
                out.append(int(d))
    return out


def _alive(pids) -> list[int]:
    alive = []
    for k in pids:
        try:
            with open(f"/proc/{k}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(k)
        except OSError:
            pass
    return alive


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_ends_every_worker_and_leaves_no_half_reports(tmp_path, sig):
    argv = [sys.executable, "-m", "skillproof", "--lang", "en", "check", "-q", "--no-config", "--jobs", "2",
            "--format", "json", "--output", str(tmp_path / "main.json"),
            "--output-format", f"sarif:{tmp_path / 'x.sarif'}", "--output-format", f"markdown:{tmp_path / 'c.md'}"]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 60
    workers: list[int] = []
    while time.time() < deadline and p.poll() is None:
        workers = _children(p.pid)
        if len(workers) >= 2:
            break
        time.sleep(0.05)
    if p.poll() is not None:
        pytest.skip("the run ended before its workers started")
    time.sleep(0.3)
    workers = _children(p.pid) or workers
    t = time.time()
    if sig == signal.SIGINT:
        os.killpg(p.pid, sig)                  # as a terminal does
    else:
        os.kill(p.pid, sig)                    # as a CI runner does: the main process only
    out, err = p.communicate(timeout=10)
    took = time.time() - t
    gone_by = time.time() + 2
    while _alive(workers) and time.time() < gone_by:
        time.sleep(0.05)
    assert not _alive(workers), "workers left behind"
    assert took < 2.0
    assert p.returncode == (143 if sig == signal.SIGTERM else 130)
    lines = err.decode().splitlines()
    assert lines == ["terminated (SIGTERM)" if sig == signal.SIGTERM else "interrupted"], lines
    left = sorted(os.listdir(tmp_path))
    assert left in ([], ["c.md", "main.json", "x.sarif"]), left        # every report or none, no temporary file


def test_reports_are_written_all_or_none(tmp_path):
    ok = [(str(tmp_path / "a.json"), "{}"), (str(tmp_path / "b.md"), "# b")]
    assert write_all(ok) is None and sorted(os.listdir(tmp_path)) == ["a.json", "b.md"]
    mask = os.umask(0)
    os.umask(mask)
    assert os.stat(tmp_path / "a.json").st_mode & 0o777 == 0o666 & ~mask        # as open() makes it, not 0600
    bad = [(str(tmp_path / "c.json"), "{}"), (str(tmp_path / "no" / "d.md"), "x")]
    failed = write_all(bad)
    assert failed and failed[0].endswith("d.md")
    assert sorted(os.listdir(tmp_path)) == ["a.json", "b.md"]            # c.json not written either
