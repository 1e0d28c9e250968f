"""Nothing breaks: an internal error is exit code 4 with one line (the traceback only with --debug); the
tool's own saved witnesses replay; --time-budget always yields a report; progress counts questions."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from skillproof import cmd_catalogue
from skillproof.checks import budget as B
from skillproof.checks import context as CX
from skillproof.cli import main
from skillproof.model import loader
from skillproof.reports import FORMATS

from fuzzkit import run_cli


# ---------------------------------------------------------------------------------- exit code 4
@pytest.fixture
def broken(monkeypatch):
    def boom(args):
        raise AssertionError("witness does not replay:\nsecond line")
    monkeypatch.setattr(cmd_catalogue, "run", boom)


def test_an_internal_error_is_exit_4_with_one_line(broken):
    rc, out, err, _ = run_cli(["catalogue", "--lang", "en"])
    assert rc == 4
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("skillproof catalogue: internal error (AssertionError: witness does not replay:\\nsecond line)")
    assert "please report it" in err and "--debug" in err


@pytest.mark.parametrize("argv", [["--debug", "catalogue", "--lang", "en"], ["catalogue", "--debug", "--lang", "en"]])
def test_debug_shows_the_traceback(broken, argv):
    rc, out, err, _ = run_cli(argv)
    assert rc == 4 and "Traceback (most recent call last)" in err and "internal error" in err


def test_a_crash_in_a_lane_process_is_exit_4(monkeypatch):
    def boom(cat, options, lane, progress=None, tally=None):
        raise RuntimeError("lane failed")
    monkeypatch.setattr(CX, "_run_lane", boom)
    rc, out, err, _ = run_cli(["check", "-q", "--lang", "en"])
    assert rc == 4 and "skillproof check: internal error (RuntimeError: lane failed)" in err


def test_every_help_documents_exit_4():
    from skillproof.cli import COMMANDS
    r = subprocess.run([sys.executable, "-m", "skillproof", "--help"], capture_output=True, text=True)
    assert "4  内部错误" in r.stdout                                   # Chinese by default
    r = subprocess.run([sys.executable, "-m", "skillproof", "--lang", "en", "--help"], capture_output=True, text=True)
    assert "4  internal error" in r.stdout
    for cmd in COMMANDS:
        rc, out, err, _ = run_cli([cmd, "--help"])
        assert rc == 0 and "退出码 4 表示内部错误" in out, cmd
        rc, out, err, _ = run_cli(["--lang", "en", cmd, "--help"])
        assert rc == 0 and "exit code 4 means an internal error" in out, cmd


def test_a_real_subprocess_crash_prints_no_traceback(tmp_path):
    """End to end, in a fresh process: a crash that Python would print as a traceback."""
    code = ("import sys; from skillproof import cmd_schema\n"
            "cmd_schema.run = lambda a: 1 / 0\n"
            "from skillproof.cli import main; sys.exit(main(['schema']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 4 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [r.stderr.strip()]
    # schema takes no --lang: the default language, Chinese
    assert "skillproof schema：内部错误（ZeroDivisionError: division by zero）" in r.stderr


# ---------------------------------------------------------------------------- witnesses replay
@pytest.fixture(scope="module")
def shipped_run():
    cat = loader.load(None)
    return cat, CX.run(cat, CX.Options())


def test_every_saved_witness_of_check_replays(shipped_run, tmp_path, monkeypatch):
    """`explain ID --save f.json` then `replay f.json` on the command line, for one finding of each check code of
    `check` on the shipped catalogue (explain's re-run of the family is served from the one run above). Every
    witness of every finding is saved and replayed in-process by tests/test_witness_same.py; here the command line's
    path, once per code."""
    cat, res = shipped_run
    by_family: dict = {}
    for f in res.findings:
        by_family.setdefault(f.family, []).append(f)
    monkeypatch.setattr(CX, "run", lambda c, opts, **kw: CX.Result(by_family.get(opts.only[0], []), {}, []))
    witnesses = [f for f in res.findings if f.witness is not None]
    assert len(witnesses) >= 40 and any(f.check == "OD002" for f in witnesses)
    one_per_code = {}
    for f in sorted(witnesses, key=lambda f: f.id):
        one_per_code.setdefault(f.check, f)
    assert len(one_per_code) >= 8, sorted(one_per_code)
    for f in one_per_code.values():
        p = tmp_path / f"{f.id}.json"
        rc, out, err, _ = run_cli(["explain", "--lang", "en", f.id, "--save", str(p)])
        assert rc == 0, (f.id, err)
        rc, out, err, _ = run_cli(["replay", "--lang", "en", str(p)])
        assert rc == 0 and "ok:" in out and "DIFFERS" not in out, (f.id, err, out[-500:])


def test_explain_save_then_replay_end_to_end(shipped_run, tmp_path):
    cat, res = shipped_run
    od = next(f for f in res.findings if f.check == "OD002")
    p = tmp_path / "od.json"
    assert main(["explain", "--lang", "en", od.id, "--save", str(p)]) == 0
    assert isinstance(json.loads(p.read_text())["question"]["declared"], list)   # the list that used to crash
    assert main(["replay", "--lang", "en", str(p)]) == 0


@pytest.mark.parametrize("question", [
    "can SP李宁玉 still play 截获 as 误导 while 变则通 is active?",
    "can SP李宁玉 play 截获 as 误导 under 变则通(A=截获, B=破译)?",
    "which 变则通 declarations let SP李宁玉 play 截获 as 误导?",
    "can 顾小梦 be skipped in 濒死求澄清 while she holds cards?",
    "how many cards does CP小九 draw",
])
def test_ask_save_then_replay(tmp_path, question):
    p = tmp_path / "a.json"
    rc, out, err, _ = run_cli(["ask", "--lang", "en", question, "--save", str(p)])
    assert rc == 0 and p.exists(), err
    rc, out, err, _ = run_cli(["replay", "--lang", "en", str(p)])
    assert rc == 0 and "DIFFERS" not in out, (err, out[-500:])


# ----------------------------------------------------------------------------------- time budget
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_spent_time_budget_still_writes_a_report(tmp_path, fmt):
    out = tmp_path / f"report.{fmt}"
    rc, _, err, secs = run_cli(["check", "-q", "--time-budget", "0.001", "--format", fmt, "-o", str(out)])
    assert rc == 3, err
    text = out.read_text(encoding="utf-8")
    from skillproof.checks.registry import families
    n = len(families())
    assert text.count("INC001") >= n and "--time-budget" in text     # one per family, none run
    if fmt == "json":
        fs = json.loads(text)["findings"]
        assert len(fs) == n and all(f["inconclusive"] and f["check"] == "INC001" for f in fs)


def test_budget_findings_name_every_family_and_question():
    cat = loader.load(None)
    import time
    res = CX.run(cat, CX.Options(deadline=time.time() - 1))
    assert {f.family for f in res.findings} == {f.name for f in __import__(
        "skillproof.checks.registry", fromlist=["families"]).families()}
    assert all(f.inconclusive and f.check == "INC001" for f in res.findings)
    assert all("--time-budget" in f.message and f.details["time_budget"] == "not run" for f in res.findings)
    # started before the deadline: findings so far are kept, each unasked question is listed
    ctx = CX.Context(cat, CX.Options(deadline=time.time() - 1))
    a = ctx.find(None, None)
    assert a.status == "unknown" and ctx.stats["unasked"] == 1
    assert "未提问" in ctx.inconclusive("receive", "某个问题", [], a).message


def test_a_family_stopped_half_way_keeps_what_it_found(monkeypatch):
    from skillproof.checks.findings import Finding
    from skillproof.checks.registry import families
    fam = families()[0]

    def half(ctx):
        out = [Finding("KD001", fam.name, "error", "找到的", key="found-before")]
        raise B.BudgetExceeded()
        return out                                              # noqa: unreachable — as a family returns
    monkeypatch.setattr(fam, "run", half)
    cat = loader.load(None)
    found, ran, _ = CX._run_lane(cat, CX.Options(only=(fam.name,)), fam.lane_for(CX.is_shared(cat, CX.Options())))
    assert [f.key for f in found] == ["found-before", f"inconclusive|{fam.name}|time-budget"]
    assert found[1].details["time_budget"] == "stopped"


def test_a_generous_budget_changes_nothing(shipped_run):
    cat, res = shipped_run
    import time
    res2 = CX.run(cat, CX.Options(deadline=time.time() + 600))
    assert [f.id for f in res2.findings] == [f.id for f in res.findings]


def test_the_hard_stop_interrupts_a_busy_family(monkeypatch):
    """A family busy in plain Python (say, building a huge encoding) past the budget is stopped
    shortly after it, even inside an ``except Exception``."""
    import time
    from skillproof.checks.registry import families
    fam = families()[0]

    def busy(ctx):
        while True:
            try:
                sum(range(1000))
            except Exception:                                   # noqa: BLE001 — must not swallow the stop
                pass
    monkeypatch.setattr(fam, "run", busy)
    monkeypatch.setattr(B, "HARD_STOP_GRACE", 0.2)
    cat = loader.load(None)
    t = time.perf_counter()
    found, ran, _ = CX._run_lane(cat, CX.Options(only=(fam.name,), deadline=time.time() + 0.3), fam.lane_for(CX.is_shared(cat, CX.Options())))
    assert time.perf_counter() - t < 3
    assert found[-1].details["time_budget"] == "stopped"


def test_time_budget_is_validated():
    rc, out, err, _ = run_cli(["check", "--time-budget", "-1", "--lang", "en"])
    assert rc == 2 and "--time-budget must be greater than 0" in err
    rc, out, err, _ = run_cli(["check", "--time-budget", "-1"])
    assert rc == 2 and "参数 --time-budget：--time-budget 必须大于 0\n" in err          # Chinese by default
    for bad in ("nan", "inf", "1e309"):                 # the same validation as the configuration's (cli.optvalues)
        rc, out, err, _ = run_cli(["check", "--time-budget", bad, "--lang", "en"])
        assert rc == 2 and "--time-budget must be a finite number, not inf" in err.replace("nan", "inf")


# -------------------------------------------------------------------------------------- progress
class _TTY(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("forked", [True, False])
def test_progress_counts_questions_in_every_path(monkeypatch, tmp_path, forked):
    import multiprocessing as mp
    import re
    monkeypatch.setenv("SKILLPROOF_PROGRESS_AFTER", "0")
    if not forked:                      # the path without fork: lanes one after the other, in process
        real = mp.get_context

        def no_fork(method=None):
            if method == "fork":
                raise ValueError("no fork")
            return real(method)
        monkeypatch.setattr(mp, "get_context", no_fork)
    err = _TTY()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["check", "--select", "receive,override", "-f", "json", "-o", str(tmp_path / "r.json"),
                 "--lang", "en"]) == 0
    text = err.getvalue()
    assert "2/2 families" in text
    counts = [int(m.group(1)) for m in re.finditer(r"(\d+) questions? ·", text)]
    assert counts and counts[-1] > 0 and counts == sorted(counts)


def test_the_hard_stop_repeats_when_a_family_swallows_it(monkeypatch):
    """Raised inside a ctypes call (z3), the stop comes out wrapped — as ctypes.ArgumentError — and a
    family may swallow that; the alarm repeats until the stop gets through."""
    import time
    from skillproof.checks.registry import families
    fam = families()[0]
    swallowed = []

    def wrapping(ctx):
        try:
            while not swallowed:            # the first stop comes out wrapped, and is swallowed …
                try:
                    try:
                        sum(range(1000))
                    except B.BudgetExceeded as e:
                        raise ValueError("argument 2: BudgetExceeded") from e
                except ValueError:
                    swallowed.append(1)
        except B.BudgetExceeded:            # (it landed between the loop's own steps: swallowed all the same)
            swallowed.append(1)
        while True:                         # … the family goes on working, until the next alarm
            sum(range(1000))
    monkeypatch.setattr(fam, "run", wrapping)
    monkeypatch.setattr(B, "HARD_STOP_GRACE", 0.1)
    cat = loader.load(None)
    t = time.perf_counter()
    found, ran, _ = CX._run_lane(cat, CX.Options(only=(fam.name,), deadline=time.time() + 0.1), fam.lane_for(CX.is_shared(cat, CX.Options())))
    assert time.perf_counter() - t < 5 and found[-1].details["time_budget"] == "stopped" and swallowed


def test_an_error_in_a_family_is_not_taken_for_the_budget(monkeypatch):
    from skillproof.checks.registry import families
    fam = families()[0]

    def broken(ctx):
        raise RuntimeError("a real bug")
    monkeypatch.setattr(fam, "run", broken)
    cat = loader.load(None)
    import time
    with pytest.raises(RuntimeError, match="a real bug"):
        CX._run_lane(cat, CX.Options(only=(fam.name,), deadline=time.time() + 60), fam.lane_for(CX.is_shared(cat, CX.Options())))
