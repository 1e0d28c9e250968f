"""The fourth planted sample (benchmarks/history/planted4.toml), the held-out one, built by benchmarks/planted.py
--spec: it is well formed, covers every kind of change with at least seven real edits each plus enough quiet ones,
counts them in its header, shares no edit id with planted.toml, planted2.toml and planted3.toml and few places (path,
line) with any of them, names catalogue ids, and every edit applies on a clone of the server with its brackets
balanced. The clone comes from $SKILLPROOF_SERVER_REPO or the local mirror; the tests that need it are skipped
without one (nothing is downloaded)."""
import collections
import re
import subprocess
import tomllib

import pytest

from test_planted import ROOT, SERVER, history_bench, needs_server, planted

HISTORY = ROOT / "benchmarks" / "history"
SPEC = HISTORY / "planted4.toml"
BEFORE = ("planted.toml", "planted2.toml", "planted3.toml")
REAL, QUIET, EACH, MULTI_LINE, MULTI_FILE = 55, 22, 7, 10, 3


def _edits(name):
    return planted.load_spec(HISTORY / name)["edits"]


def test_the_sample_covers_every_kind_and_counts_its_header():
    spec = planted.load_spec(SPEC)
    kinds = collections.Counter(e["kind"] for e in spec["edits"])
    assert set(kinds) == set(planted.REAL_KINDS) | set(planted.QUIET)
    real = sum(kinds[k] for k in planted.REAL_KINDS)
    assert real >= REAL and sum(kinds[k] for k in planted.QUIET) >= QUIET
    assert all(kinds[k] >= EACH for k in planted.REAL_KINDS), kinds
    assert kinds["refactor"] >= 10 and kinds["bot_logic"] >= 10, kinds
    head = SPEC.read_text(encoding="utf-8").split("\nbase =")[0]
    n = len(spec["edits"])
    assert f"Counts: {n} edits, {real} real changes, {n - real} quiet." in head
    assert "By kind: " + " · ".join(f"{k} {kinds[k]}" for k in planted.REAL_KINDS + planted.QUIET) in head
    assert spec["base"] == planted.load_spec(HISTORY / "planted.toml")["base"]


def test_the_sample_is_apart_from_the_three_before_it():
    edits = _edits("planted4.toml")
    places = lambda es: {(c["path"], c["line"]) for e in es for c in e["change"]}
    summaries = lambda es: {e["summary"] for e in es}
    for before in BEFORE:
        earlier = _edits(before)
        assert not {e["id"] for e in earlier} & {e["id"] for e in edits}, before
        assert len(places(edits) & places(earlier)) <= 3, before  # a different set of places, not a re-labelling
        assert not summaries(edits) & summaries(earlier), before
        # no edit repeats an earlier one: the same replacement at the same place
        same = lambda es: {(c["path"], c["line"], c.get("old"), c.get("new"), c.get("insert"), c.get("delete"))
                           for e in es for c in e["change"]}
        assert not same(edits) & same(earlier), before
    assert sum(len(e["change"]) > 1 for e in edits) >= MULTI_LINE
    assert sum(len({c["path"] for c in e["change"]}) > 1 for e in edits) >= MULTI_FILE


def test_the_sample_names_catalogue_ids_and_keeps_old_text_short():
    ids = set()
    for path in (ROOT / "model" / "catalogue").rglob("*.toml"):
        ids |= set(re.findall(r'^id = "([^"]+)"', path.read_text(encoding="utf-8"), re.M))
    for e in _edits("planted4.toml"):
        assert e["id"].startswith("p4-"), e["id"]
        assert set(e["rules"]) <= ids, (e["id"], set(e["rules"]) - ids)
        assert e.get("notes") or e["kind"] in planted.REAL_KINDS, e["id"]  # a quiet edit says how it was checked
        for c in e["change"]:
            assert len(c.get("old", c.get("delete", ""))) <= 60, (e["id"], c)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("planted4") / "repo"
    return out, planted.build(SERVER, out, SPEC)


def _git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


@needs_server
def test_every_edit_of_the_sample_applies_and_replays(built):
    out, pairs = built
    spec = planted.load_spec(SPEC)
    assert [p["subject"] for p in pairs] == [f"planted {e['id']}: {e['kind']}" for e in spec["edits"]]
    for e, p in zip(spec["edits"], pairs):
        assert _git(out, "rev-list", "--parents", "-n1", p["sha"]).split() == [p["sha"], spec["base"]]
        changed = _git(out, "diff", "--name-only", spec["base"], p["sha"]).split()
        assert changed == sorted({c["path"] for c in e["change"]}), e["id"]
        for path in changed:
            before, after = _git(out, "show", f"{spec['base']}:{path}"), _git(out, "show", f"{p['sha']}:{path}")
            for o, cl in ("{}", "()", "[]"):
                assert before.count(o) - before.count(cl) == after.count(o) - after.count(cl), (e["id"], path, o)
    with open(out / planted.LABELS_NAME, "rb") as fh:
        assert tomllib.load(fh)["commit"] == pairs
    for p in history_bench.load_labels(out / planted.LABELS_NAME):
        assert history_bench.kind_of(p) == p["kind"]
        assert (p["kind"] in history_bench.QUIET) == (p["label"] in history_bench.QUIET)
