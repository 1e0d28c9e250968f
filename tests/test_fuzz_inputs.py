"""Seeded fuzzing in the normal suite: mutated catalogues through `skillproof catalogue` (the loader) and
mutated scenario files through `skillproof replay` (tests/fuzzkit.py makes them). Every case must end
with exit 0, 1 or 2 — on 2 with located one-line messages — never a traceback or an internal error, and
within a few seconds. The long run is benchmarks/fuzz_inputs.py."""
from __future__ import annotations

import pytest

import fuzzkit as F

CATALOGUE_CASES = 120
SCENARIO_CASES = 120
SECONDS_PER_CASE = 5.0
SEEN: dict = {"catalogue": set(), "scenario": set()}        # exit codes met, for the last test


@pytest.fixture(scope="module")
def texts():
    return F.shipped_texts()


@pytest.mark.parametrize("block", range(4))
def test_mutated_catalogues(tmp_path, texts, block):
    n = CATALOGUE_CASES // 4
    bad = []
    for seed in range(block * n, (block + 1) * n):
        r = F.catalogue_case(seed, tmp_path, texts)
        SEEN["catalogue"].add(r["rc"])
        if r["problem"] or r["seconds"] > SECONDS_PER_CASE:
            bad.append((seed, r["what"], r["problem"] or f"took {r['seconds']:.1f}s", r["stderr"][:300]))
    assert not bad, bad


@pytest.mark.parametrize("block", range(4))
def test_mutated_scenarios(tmp_path, block):
    n = SCENARIO_CASES // 4
    bad = []
    for seed in range(block * n, (block + 1) * n):
        r = F.scenario_case(seed, tmp_path)
        SEEN["scenario"].add(r["rc"])
        if r["problem"] or r["seconds"] > SECONDS_PER_CASE:
            bad.append((seed, r["what"], r["problem"] or f"took {r['seconds']:.1f}s", r["stderr"][:300]))
    assert not bad, bad


def test_the_mutations_reach_every_exit(tmp_path, texts):
    """The fuzz is not vacuous: among the first cases some catalogues still load (exit 0) and some
    scenarios still replay (exit 0 or 1)."""
    if not SEEN["catalogue"]:                    # run on its own: look at a few cases
        SEEN["catalogue"] = {F.catalogue_case(s, tmp_path, texts)["rc"] for s in range(30)}
    if not SEEN["scenario"]:
        SEEN["scenario"] = {F.scenario_case(s, tmp_path)["rc"] for s in range(40)}
    assert SEEN["catalogue"] == {0, 2} and {0, 1, 2} <= SEEN["scenario"]


def test_verdict_catches_what_it_should():
    assert F.verdict(1, "", "Traceback (most recent call last):\n  ...\nRecursionError: x\n")
    assert F.verdict(4, "", "skillproof catalogue: internal error (X)\n")
    assert F.verdict(2, "", "error: something without a place\n")
    assert F.verdict(2, "", "error: a.toml:3: [k] unknown 'a\u2028b'\n")
    assert F.verdict(2, "", "error: a.toml:3: [k] unknown 'a\\u2028b'\n1 error in the catalogue; nothing was checked\n") is None
