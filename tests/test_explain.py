"""`skillproof explain ID`: the story of a finding, and its witness saved as a replayable scenario."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from skillproof.checks import context as CX
from skillproof.cli import main
from skillproof.model import loader


@pytest.fixture(scope="module")
def findings():
    cat = loader.load(None)
    res = CX.run(cat, CX.Options(only=("conversion", "skip")))
    return {f.check: f for f in res.findings}


def test_explain_tells_the_story(findings, capsys):
    f = findings["CV002"]
    assert main(["explain", "--lang", "en", f.id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f.id) and "conversion-vetoed" in out
    assert f.text() in out
    for r in f.rules:
        assert f"{r.file}:{r.line}" in out
    assert "the interpreter replays it" in out
    assert "how it happens in a game, step by step:" in out and "the interpreter, step by step:" in out
    assert "the question is asked now" in out and "turn 1, " in out     # the trace, its turns and windows
    assert "vetoed" in out                              # the narrated veto
    assert "seat 0:" in out and "window: " in out


def test_explain_json(findings, capsys):
    f = findings["SK004"]
    assert main(["explain", "--lang", "en", f.id, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["finding"]["id"] == f.id and d["replays"] is True and d["steps"] and d["origin"]
    assert d["steps"][0]["answer"]["skip"] is False


def _cli(*argv):
    """The command in a process of its own, as a user runs it: a z3 witness depends on the terms made before it
    in the process (z3 numbers them), so two commands agree when each starts fresh, not when one runs after
    other tests in a pytest worker."""
    r = subprocess.run([sys.executable, "-m", "skillproof.cli", *argv], capture_output=True, text=True,
                       env={**os.environ, "SKILLPROOF_NO_CACHE": "1"}, timeout=300)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def test_explain_save_and_replay(findings, tmp_path, capsys):
    f = findings["CV002"]
    p, rep = tmp_path / "cv002.json", tmp_path / "check.json"
    assert _cli("check", "--select", "CV002", "-f", "json", "--fail-on", "none", "-o", str(rep)).returncode == 0
    shown = {g["id"]: g for g in json.loads(rep.read_text(encoding="utf-8"))["findings"]}[f.id]["witness"]
    assert _cli("explain", "--lang", "en", f.id, "--save", str(p)).returncode == 0
    d = json.loads(p.read_text(encoding="utf-8"))
    # the scenario is the trace (setup and events) and the questions, the very witness `check` printed; the
    # state is what the trace makes
    assert d["trace"] == shown["trace"] and "state" not in d
    assert d["expect"] == shown["expect"] and d["finding"] == f.id
    assert main(["replay", "--lang", "en", str(p)]) == 0
    out = capsys.readouterr().out
    assert "as expected" in out and "ok:" in out and "legal: every event" in out
    # the same through the 'scenario' spelling of the option
    p2 = tmp_path / "again.json"
    # (a fresh process as well: a z3 witness depends on the terms made earlier in the same process)
    assert _cli("explain", "--lang", "en", f.id, "--scenario", str(p2)).returncode == 0
    assert json.loads(p2.read_text(encoding="utf-8"))["trace"] == d["trace"]


def test_explain_unknown_ids(findings, capsys):
    assert main(["explain", "--lang", "en", "CV002-0000000000"]) == 2
    err = capsys.readouterr().err
    assert "no finding CV002-0000000000" in err and "Traceback" not in err and err.count("\n") == 1
    assert main(["explain", "--lang", "en", "CX002-abc"]) == 2
    err = capsys.readouterr().err
    assert "no check has the code 'CX002'" in err and "did you mean" in err
    f = findings["CV002"]
    typo = f.id[:-1] + ("0" if f.id[-1] != "0" else "1")
    assert main(["explain", "--lang", "en", typo]) == 2
    assert f"did you mean {f.id}" in capsys.readouterr().err


def test_every_finding_of_the_shipped_catalogue_is_told():
    """Every finding `check` reports can be explained: its witness replays, every narrated walk reaches the
    interpreter's answer, and the story names every rule of the finding."""
    from skillproof.checks.registry import all_codes
    from skillproof.cmd_explain import tell
    from skillproof.model import narrate as N
    from skillproof.model.interp import trace as TR
    from skillproof.model.interp.play import run as play_run
    from skillproof.model.state import State
    cat = loader.load(None)
    codes = all_codes()
    res = CX.run(cat, CX.Options())
    assert res.findings
    for f in res.findings:
        if f.inconclusive:
            continue
        fam, code = codes[f.check]
        story = tell(cat, f, fam, code)
        text = "\n".join(story["lines"])
        for r in f.rules:                 # a rule by its name; an intent by its id
            assert (r.id if r.name == "意图" else r.name) in text
        if f.witness is None:
            continue
        assert story["json"]["replays"], (f.id, story["json"]["problems"])
        if "trace" in f.witness:          # the story tells the trace, event by event, to the question's moment
            assert "how it happens in a game, step by step:" in text and "the question is asked now" in text
            st = play_run(cat, TR.Trace.from_dict(f.witness["trace"])).state
        else:
            st = State.from_dict(f.witness["state"])
        for item in [{"question": f.witness["question"]}] + f.witness.get("also", []):
            assert N.narrate(cat, st, item["question"]).agrees, f.id
