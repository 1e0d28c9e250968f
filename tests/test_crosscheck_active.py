"""Grants handed out by ActiveSkills in the cross-check (tests/randactive.py): traces whose legality turns on
whether the skill may be used when it hands its grant out — its windows and actors, or the site's own later
moment (``at`` with ``on`` other than ``use``) — compared between interpreter and z3 encoder on legality and on
every decision of the state reached. On the shipped catalogue (禁闭, 冷血训练, 诱敌深入), on
fixtures/active_gives (every form of site and every actor) and on random catalogues (tests/randcat.py).
SKILLPROOF_CROSSCHECK_STATES scales it (a fortieth of it, at least 100 traces a catalogue); the long run is
``benchmarks/crosscheck_randcat.py --active N``."""
from __future__ import annotations

import os

import pytest

from skillproof.model import loader

from crosskit import Harness
from randactive import active_sites, run_active
from randcat import load_random

N = max(100, int(os.environ.get("SKILLPROOF_CROSSCHECK_STATES", "10000")) // 40)
SEED = 20261231
FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "active_gives")
#: random catalogues with an ActiveSkill's site (seeds of tests/randcat.py), a few traces each
RANDOM_SEEDS = (4, 5, 12, 17, 30, 36)


@pytest.mark.parametrize("which", ["shipped", "fixture"])
def test_active_gives_match(which):
    cat = loader.load() if which == "shipped" else loader.load([FIXTURE])
    seen, failure = run_active(Harness(cat), N, SEED + (which == "fixture"), which)
    if failure:
        pytest.fail(failure)
    # the generator must reach both sides, and traces decided by the ActiveSkill rule alone
    assert seen["compared"] > N * 0.8 and seen["legal"] > N // 5 and seen["illegal"] > N // 5, seen
    assert seen["refused"] > N // (20 if which == "fixture" else 40), seen
    if which == "fixture":                  # the shipped sites' later moments lie in their skill's windows but one
        assert seen["at its moment"] > N // 50, seen


def test_active_gives_match_on_random_catalogues():
    compared = 0
    for seed in RANDOM_SEEDS:
        _, cat = load_random(seed)
        assert active_sites(cat), f"randcat seed {seed} has no ActiveSkill site any more: pick another"
        seen, failure = run_active(Harness(cat), 25, SEED + seed, f"catalogue {seed}")
        if failure:
            pytest.fail(failure)
        compared += seen["compared"]
    assert compared > 25 * len(RANDOM_SEEDS) // 2, compared
