"""explain, replay and check tell the same witness for the same id (issue 26, point 4).

Over the shipped catalogue the families of a lane share one solver, so a witness depends on the questions asked
before it. `explain` runs only the finding's family, `check --select` only some: both used to start that
family's questions from another solver history than `check`, and told another game (IN001-fbf92b4ac7: check
showed 白昆山's turn, explain 钱敏's). Now every family of the lane up to the last selected one is asked
(``checks.context.lane_families``): the witness of an id no longer depends on what else was selected.

The runs are made in a fresh process, as the command line makes them (a lane forks from a parent that has not
used z3 yet)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from reportkit import sp

#: every family that reports a finding on the shipped catalogue, run alone (as `explain` runs it), each in fresh
#: lane processes of one parent
SCRIPT = r"""
import json, sys
from skillproof.checks import context as CX
from skillproof.model import loader
cat = loader.load(None)
full = CX.run(cat, CX.Options())
out = {"check": {f.id: f.witness for f in full.findings}, "alone": {}}
for fam in sorted({f.family for f in full.findings if not f.inconclusive}):
    out["alone"].update({f.id: f.witness for f in CX.run(cat, CX.Options(only=(fam,))).findings})
json.dump(out, sys.stdout)
"""


@pytest.fixture(scope="module")
def witnesses():
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def test_every_finding_has_one_witness_whatever_ran_with_it(witnesses):
    check = witnesses["check"]
    assert len(check) > 40
    assert sorted(witnesses["alone"]) == sorted(check)          # each family alone finds what it found in check
    differ = [i for i, w in witnesses["alone"].items() if w != check[i]]
    assert differ == []
    _every_saved_witness_replays_as_told(witnesses)     # (one test: the fixture is computed once per process)


def test_a_selection_asks_its_lane_up_to_the_last_family_selected():
    """`check --select CODE` asks what `--select FAMILY` asks: every family of the lane up to it (its findings
    only are reported) — the whole lane for a family that leaves work to the lane's end (``defers``: the order
    family's OD002 tables asked again, Context.later), none for one that asks the lane's solver nothing
    (``solverless``: table, run after the lane's deferred work); over slices (a large catalogue) each family runs
    alone."""
    from skillproof.checks import context as CX
    from skillproof.checks.registry import families
    from skillproof.model import loader
    cat = loader.load(None)
    assert CX.is_shared(cat, CX.Options())
    for fam in families():
        for only in ((fam.name,), (fam.codes[0].code,)):
            opts = CX.Options(only=only)
            lane = fam.lane_for(True)
            got = CX.lane_families(cat, opts, lane)
            whole = [f for f, _ in CX.lane_families(cat, CX.Options(), lane)]
            # a family that asks the lane's solver nothing (table) needs no history: it runs alone
            want = [fam] if fam.solverless else (whole if fam.defers else whole[:whole.index(fam) + 1])
            assert [f for f, _ in got] == want
            assert [f.name for f, sel in got if sel] == [fam.name]
        sliced = CX.Options(only=(fam.name,), shared_query=False)
        assert [(f.name, sel) for f, sel in CX.lane_families(cat, sliced, fam.lane_for(False))] == [(fam.name, True)]


def test_the_command_lines_agree(witnesses, tmp_path):
    """`check` prints, `explain` tells and `replay` replays the same game for IN001-fbf92b4ac7 (the id of the
    report) and for a finding of the other lane."""
    text_out = tmp_path / "check.txt"
    doc = json.loads(sp("check", "-f", "json", "--fail-on", "none", "--output-format", f"text:{text_out}").stdout)
    printed = {f["id"]: f["witness"] for f in doc["findings"]}
    assert printed == witnesses["check"]
    # the report's example: whose turn it is, as check prints it and explain tells it
    save = tmp_path / "in001.json"
    r = sp("explain", "IN001-fbf92b4ac7", "--save", str(save))
    assert r.returncode == 0, r.stderr
    line = next(x for x in text_out.read_text(encoding="utf-8").splitlines() if "IN001-fbf92b4ac7" in x)
    turn = line.split("反例：", 1)[1].split("的回合", 1)[0].split("，")[-1]
    assert turn and f"{turn}的回合" in r.stdout
    saved = {"IN001-fbf92b4ac7": save}
    cv002 = next(i for i in printed if i.startswith("CV002-"))
    save = saved[cv002] = tmp_path / "cv002.json"
    r = sp("explain", cv002, "--json", "--save", str(save))
    assert r.returncode == 0, r.stderr
    told = json.loads(r.stdout)
    assert told["finding"]["witness"] == printed[cv002] and told["trace"] == printed[cv002].get("trace")
    for fid, path in saved.items():
        assert json.loads(path.read_text(encoding="utf-8"))["trace"] == printed[fid]["trace"]
        rep = sp("replay", str(path), "--json")
        assert rep.returncode == 0, rep.stdout + rep.stderr
        assert json.loads(rep.stdout)["state"]["seats"] == printed[fid]["state"]["seats"]


def _every_saved_witness_replays_as_told(witnesses):
    """Every witness of check, saved as `explain --save` writes it, replays to the state check printed and to
    every answer it claims."""
    from skillproof.cmd_ask import scenario_file
    from skillproof.cmd_replay import replay
    from skillproof.checks import scenario as SC
    from skillproof.model import loader
    cat = loader.load(None)
    n = 0
    for fid, w in witnesses["check"].items():
        if not w:
            continue
        d = json.loads(json.dumps(scenario_file(w, finding=fid)))        # as written to the file
        assert SC.validate(cat, d) == [], fid
        r = replay(cat, d)
        assert r["ok"], (fid, r["problems"])
        assert r["state"].to_dict()["seats"] == w["state"]["seats"], fid
        n += 1
    assert n > 40
