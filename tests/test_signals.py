"""SIGTERM (a cancelled CI job) and SIGINT (Ctrl-C, sent to the whole process group) end `skillproof check`
and every worker process within 2 s, print one line, and leave every report file or none (model/signals.py)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from skillproof.model.signals import write_all

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


# ------------------------------------------------------------------ where a signal cannot be raised (model/signals.py)
def _py(code: str, *args, env=None, timeout=60, module=False):
    """Run ``code`` (a script, or with ``module`` a module of that text run with -m) in a fresh interpreter."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "case.py"), "w", encoding="utf-8") as fh:
            fh.write(code)
        argv = [sys.executable, "-m", "case"] if module else [sys.executable, os.path.join(d, "case.py")]
        return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=timeout, cwd=d,
                              env={**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join(sys.path)})


def test_a_signal_inside_a_finaliser_is_raised_once_it_returns_not_dropped():
    """z3's terms free themselves in ``__del__``: a SIGINT handled there was printed as "Exception ignored in"
    with its traceback and dropped — the run went on to its end and exited 1."""
    r = _py("""
import signal
from skillproof.model import signals
signals.install()
done = []
class Term:
    def __del__(self):
        signal.raise_signal(signal.SIGINT)      # handled at the next check: inside this finaliser
        for _ in range(1000):
            pass
        done.append(True)
try:
    t = Term()
    del t
    for _ in range(10 ** 8):
        pass
    print("not raised")
except KeyboardInterrupt as e:
    print("raised", type(e).__name__, "after the finaliser ran:", done == [True])
""")
    assert r.stdout == "raised Interrupted after the finaliser ran: True\n", (r.stdout, r.stderr)
    assert r.stderr == ""


def test_a_signal_lost_in_a_callback_is_raised_again():
    """An exception Python cannot propagate (a weakref callback here) reaches sys.unraisablehook: the signal's is
    not printed, and raised again where it can propagate."""
    r = _py("""
import signal, weakref
from skillproof.model import signals
signals.install()
class A:
    pass
a = A()
def gone(_ref):
    signal.raise_signal(signal.SIGINT)          # handled at the next check: inside this callback
    for _ in range(1000):
        pass
r = weakref.ref(a, gone)
try:
    del a
    for _ in range(10 ** 9):
        pass
    print("not raised")
except KeyboardInterrupt as e:
    print("raised", type(e).__name__)
""", timeout=30)
    assert (r.stdout, r.stderr) == ("raised Interrupted\n", "")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_a_running_z3_question_and_is_raised(sig):
    """z3 took SIGINT for itself during a check (the search cancelled, 'interrupted from keyboard', or, as the
    check was ending, nothing at all) and Python never saw it: the question became inconclusive and the run
    carried on. SIGTERM waited for the question to end. Now z3 leaves both to Python, and the signal watcher
    stops the question (checks/z3signals.py)."""
    r = _py(f"""
import os, signal, threading, time
import z3
from skillproof.model import signals
from skillproof.checks import solve     # noqa: F401 — a module that makes solvers
signals.install()
n = 12                                  # pigeonhole: seconds to refute
p = [[z3.Bool(f"p{{i}}_{{j}}") for j in range(n - 1)] for i in range(n)]
s = z3.Solver()
for i in range(n):
    s.add(z3.Or(p[i]))
for j in range(n - 1):
    for i in range(n):
        for k in range(i + 1, n):
            s.add(z3.Not(z3.And(p[i][j], p[k][j])))
threading.Timer(0.3, lambda: os.kill(os.getpid(), {int(sig)})).start()
t = time.time()
try:
    print("answered", s.check())
except (KeyboardInterrupt, signals.Terminated) as e:
    print(type(e).__name__, time.time() - t < 3)
""", timeout=120)
    assert r.stdout == ("Terminated True\n" if sig == signal.SIGTERM else "Interrupted True\n"), (r.stdout, r.stderr)


def test_a_signal_during_a_kotlin_parse_is_not_turned_into_a_system_error():
    """tree-sitter drops an exception raised in its read callback: a SIGINT handled there came out of the next
    callback as "SystemError: <built-in function monotonic> returned a result with an exception set" (exit 4)."""
    r = _py("""
import signal
import tree_sitter as ts, tree_sitter_kotlin as tk
from skillproof.model import signals
from skillproof.model.extract.budget import Budget, parse_within
signals.install()
class Source(bytes):
    reads = 0
    def __getitem__(self, k):                       # the parser's read callback slices the source
        Source.reads += 1
        if Source.reads == 2:
            signal.raise_signal(signal.SIGINT)
            (lambda: None)()                        # handled here: inside the read callback
        return bytes.__getitem__(self, k)
parser = ts.Parser(ts.Language(tk.language()))
try:
    parse_within(parser, Source(b"fun f() { val x = 1 }\\n" * 50000), Budget())
    print("not raised")
except BaseException as e:
    print(type(e).__name__)
""")
    assert r.stdout == "Interrupted\n", (r.stdout, r.stderr)


def test_a_signal_while_a_node_text_is_read_does_not_crash_the_interpreter():
    """py-tree-sitter reads a node's text through the parse's read callback, for the tree's whole life: a
    KeyboardInterrupt raised in it there crashed the interpreter (SIGSEGV: no line, the checkout left behind)."""
    r = _py("""
import signal
import tree_sitter as ts, tree_sitter_kotlin as tk
from skillproof.model import signals
from skillproof.model.extract.budget import Budget, parse_within
signals.install()
class Source(bytes):
    armed = False
    def __getitem__(self, k):                       # the read callback slices the source
        if Source.armed:
            Source.armed = False
            signal.raise_signal(signal.SIGINT)
            (lambda: None)()                        # handled here: inside the callback, reading a node's text
        return bytes.__getitem__(self, k)
parser = ts.Parser(ts.Language(tk.language()))
tree = parse_within(parser, Source(b"fun f() { val x = 1 }\\n" * 100), Budget())
Source.armed = True
try:
    text = tree.root_node.children[0].text
    for _ in range(10 ** 8):
        pass
    print("not raised")
except KeyboardInterrupt as e:
    print(type(e).__name__, text)
""")
    assert (r.returncode, r.stdout) == (0, "Interrupted b'fun f() { val x = 1 }'\n"), r


def test_a_caught_interrupt_in_a_string_exec_does_not_kill_python_m_at_exit():
    """CPython marks a plain KeyboardInterrupt that ends a string exec (dataclasses and namedtuple make their
    methods so, while a module is imported) as unhandled even when it is caught; `python -m` then killed itself
    with SIGINT at exit (status -2) after main had printed its line and returned 130."""
    r = _py("""
import sys
from skillproof.model import signals
signals.install()
try:
    exec("import signal\\nsignal.raise_signal(signal.SIGINT)\\nfor _ in range(100):\\n    pass\\n")
except KeyboardInterrupt:
    sys.exit(130)
""", module=True)
    assert r.returncode == 130, r


def test_the_temporary_tree_is_removed_whole_whenever_the_signal_comes(tmp_path):
    """A signal that came while diff --kotlin removed its checkouts stopped the removal half-way."""
    r = _py("""
import os, signal, sys, tempfile
from skillproof.model import signals
signals.install()
cleanup = tempfile.TemporaryDirectory.cleanup
def slow(self):
    signal.raise_signal(signal.SIGTERM)         # in the middle of the removal
    for _ in range(1000):
        pass
    cleanup(self)
tempfile.TemporaryDirectory.cleanup = slow
try:
    with signals.temporary_directory("skillproof-gate-") as d:
        for i in range(50):
            os.makedirs(os.path.join(d, str(i), "a"))
            open(os.path.join(d, str(i), "a", "f.kt"), "w").close()
    print("not raised")
except signals.Terminated:
    print("terminated", sorted(os.listdir(os.environ["TMPDIR"])))
""", env={"TMPDIR": str(tmp_path)})
    assert r.stdout == "terminated []\n", (r.stdout, r.stderr)


def test_a_signal_a_command_swallowed_still_ends_it_as_the_signal_asks():
    """However the signal's exception was lost on the way (an ``except`` it should not have met), the command
    ends with the signal's line and exit code, not its own."""
    r = _py("""
import signal, sys
import skillproof.cmd_schema as C
def run(args):
    try:
        signal.raise_signal(signal.SIGINT)
        for _ in range(100):
            pass
    except BaseException:
        pass
    return 0
C.run = run
from skillproof.cli import main
sys.exit(main(["--lang", "en", "schema"]))
""")
    assert (r.returncode, r.stderr) == (130, "interrupted\n"), r


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_while_the_command_starts_waits_for_its_handlers_across_the_exec(sig):
    """Sent before the handlers are in place — while the command imports, or as cli.entry runs itself again with
    a fixed string hash — a signal ended the interpreter with a traceback or was lost in the exec; it is held
    (blocked, and still pending after the exec) until main has its handlers, then handled as any other."""
    r = _py(f"""
import os, sys
from skillproof.model import signals
signals.hold_until_installed()
os.kill(os.getpid(), {int(sig)})               # pending: blocked until main is ready
sys.argv = ["skillproof", "--lang", "en", "schema"]
from skillproof.cli import entry
entry()
""", env={"PYTHONHASHSEED": "random"})
    assert r.returncode == (143 if sig == signal.SIGTERM else 130), r
    assert r.stderr == ("terminated (SIGTERM)\n" if sig == signal.SIGTERM else "interrupted\n")
    assert r.stdout == ""


def test_a_signal_after_the_command_had_its_outcome_still_ends_the_process_with_its_line():
    """The command was over, the process not yet: the interpreter's teardown had put the default handlers back,
    and the signal killed it without a word (status -15 / -2). cli.entry ends the process itself, and says it."""
    r = _py("""
import signal, sys
from skillproof import cli
real = cli.main
def main(argv=None):
    rc = real(argv)
    signal.raise_signal(signal.SIGTERM)         # the report is out; the process is still there
    for _ in range(100):
        pass
    return rc
cli.main = main
sys.argv = ["skillproof", "--lang", "en", "schema"]
cli.entry()
""")
    assert (r.returncode, r.stderr) == (143, "terminated (SIGTERM)\n"), r
    assert r.stdout.startswith("{")                 # the command's own output, whole
