"""A disagreement between the z3 encoding and the interpreter at run time is never a traceback: `check`
reports it as an INT001 finding naming the question (what the solver claimed, what the interpreter says)
and exits 3 (inconclusive) — forced here by breaking one interpreter function."""
from __future__ import annotations

import json
import os

import pytest

from skillproof.checks import mismatch as MM
from skillproof.checks.registry import RUN_CODES
from skillproof.model.interp import decide as D

from fuzzkit import run_cli

SYNTHETIC = os.path.join(os.path.dirname(__file__), "fixtures", "synthetic")


@pytest.fixture
def send_broken(monkeypatch):
    """The interpreter's send rule in force is always 'none' (as ``decide`` asks it): every override witness stops
    replaying."""
    monkeypatch.setattr(D, "send_in_force", lambda cat, state, seat, group: None)


def test_a_witness_that_does_not_replay_is_an_int001_finding_and_exit_3(send_broken, tmp_path):
    out = tmp_path / "r.json"
    rc, _, err, _ = run_cli(["check", SYNTHETIC, "--select", "override", "-q", "--format", "json",
                             "--output", str(out)])
    assert rc == 3, err
    assert "Traceback" not in err
    found = json.loads(out.read_text())["findings"]
    assert [f["check"] for f in found] == ["INT001"], found
    f = found[0]
    assert f["family"] == "override" and f["severity"] == "error"
    d = f["details"]
    assert d["question"]["decision"] == "send" and "group" in d["question"]
    assert "in_force" in d["solver_claims"]
    assert any("interpreter says" in p for p in d["interpreter"])
    # the message names the question and quotes the interpreter, in words, in each language
    assert "问题「传出方向规则」" in f["message"] and "所述为生效的规则 = 方向二，解释器得出生效的规则 = 无" in f["message"]
    assert "direction send rule" in f["message_en"] and "interpreter says in force = none" in f["message_en"]
    from skillproof.model import loader
    from langcheck import english_prose, foreign_in_english
    cat = loader.load([SYNTHETIC])
    assert english_prose(f["message"], cat, allowed=["override"]) == []
    assert foreign_in_english(f["message_en"], cat) == []


def test_without_the_break_the_same_run_reports_the_override_findings(tmp_path):
    out = tmp_path / "r.json"
    rc, _, err, _ = run_cli(["check", SYNTHETIC, "--select", "override", "-q", "--format", "json",
                             "--output", str(out)])
    found = json.loads(out.read_text())["findings"]
    assert found and {f["check"] for f in found} == {"OV001"}, found
    assert rc in (0, 1), err


def test_text_report_and_rules_page(send_broken):
    rc, out, err, _ = run_cli(["check", SYNTHETIC, "--select", "override", "-q"])
    assert rc == 3 and "INT001" in out and "Traceback" not in err
    rc, out, _, _ = run_cli(["rules", "INT001"])
    assert rc == 0 and "backends-disagree" in out
    assert os.path.exists(os.path.join(os.path.dirname(__file__), "..", "docs", "rules", "INT001.md"))


def test_int001_cannot_be_accepted_or_suppressed(tmp_path):
    from skillproof.reports import baseline as BL
    assert "INT001" in RUN_CODES
    p = tmp_path / "b.toml"
    p.write_text('[[accepted]]\nid = "INT001-0123456789"\nreason = "no"\n')
    with pytest.raises(BL.BaselineError, match="cannot be accepted"):
        BL.load(str(p))


def test_mismatch_exception_carries_the_question():
    e = MM.WitnessMismatch({"decision": "draw", "seat": 0}, {"draw": 3}, ["… interpreter says {'draw': 4}"])
    assert e.question["decision"] == "draw" and e.expect == {"draw": 3} and "does not replay" in str(e)
