"""The second planted sample (benchmarks/history/planted2.toml), built by benchmarks/planted.py --spec: well formed,
covers issue 24's kinds with at least 50 real and 20 quiet edits, shares no edit id with planted.toml, and every edit
applies on a clone of the server with its brackets balanced. The clone comes from $SKILLPROOF_SERVER_REPO or the
local mirror; the tests that need it are skipped without one (nothing is downloaded)."""
import collections
import re
import subprocess
import tomllib

import pytest

from test_planted import ROOT, SERVER, history_bench, needs_server, planted

SPEC2 = ROOT / "benchmarks" / "history" / "planted2.toml"
SPEC1 = ROOT / "benchmarks" / "history" / "planted.toml"


def test_the_second_sample_covers_every_kind_and_counts_its_header():
    spec = planted.load_spec(SPEC2)
    kinds = collections.Counter(e["kind"] for e in spec["edits"])
    assert set(kinds) == set(planted.REAL_KINDS) | set(planted.QUIET)
    real = sum(kinds[k] for k in planted.REAL_KINDS)
    assert real >= 50 and sum(kinds[k] for k in planted.QUIET) >= 20
    # weighted like the server's history: effects, trigger conditions and card rules are the most common kinds
    top = sorted(planted.REAL_KINDS, key=lambda k: -kinds[k])[:3]
    assert set(top) == {"skill_effect", "trigger", "card_effect"}
    head = SPEC2.read_text(encoding="utf-8").split("\nbase =")[0]
    n = len(spec["edits"])
    assert f"Counts: {n} edits, {real} real changes, {n - real} quiet." in head
    assert "By kind: " + " · ".join(f"{k} {kinds[k]}" for k in planted.REAL_KINDS + planted.QUIET) in head
    assert spec["base"] == planted.load_spec(SPEC1)["base"]


def test_the_second_sample_is_apart_from_the_first():
    first, second = planted.load_spec(SPEC1)["edits"], planted.load_spec(SPEC2)["edits"]
    assert not {e["id"] for e in first} & {e["id"] for e in second}
    lines = lambda edits: {(c["path"], c["line"]) for e in edits for c in e["change"]}
    assert len(lines(second) & lines(first)) <= 3      # a different set of places, not a re-labelling
    assert sum(len(e["change"]) > 1 for e in second) >= 10
    assert sum(len({c["path"] for c in e["change"]}) > 1 for e in second) >= 3


def test_the_second_sample_names_catalogue_ids_and_keeps_old_text_short():
    ids = set()
    for path in (ROOT / "model" / "catalogue").rglob("*.toml"):
        ids |= set(re.findall(r'^id = "([^"]+)"', path.read_text(encoding="utf-8"), re.M))
    for e in planted.load_spec(SPEC2)["edits"]:
        assert set(e["rules"]) <= ids, (e["id"], set(e["rules"]) - ids)
        assert e.get("notes") or e["kind"] in planted.REAL_KINDS, e["id"]
        for c in e["change"]:
            assert len(c.get("old", c.get("delete", ""))) <= 60, (e["id"], c)


@pytest.fixture(scope="module")
def built2(tmp_path_factory):
    out = tmp_path_factory.mktemp("planted2") / "repo"
    return out, planted.build(SERVER, out, SPEC2)


def _git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


@needs_server
def test_every_edit_of_the_second_sample_applies_and_replays(built2):
    out, pairs = built2
    spec = planted.load_spec(SPEC2)
    assert [p["subject"] for p in pairs] == [f"planted {e['id']}: {e['kind']}" for e in spec["edits"]]
    for e, p in zip(spec["edits"], pairs):
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
