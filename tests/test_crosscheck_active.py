"""Grants handed out by ActiveSkills in the cross-check (tests/randactive.py): traces whose legality turns on
whether the skill may be used when it hands its grant out — its windows and actors, or the site's own later
moment (``at`` with ``on`` other than ``use``) — compared between interpreter and z3 encoder on legality and on
every decision of the state reached. On the shipped catalogue (禁闭, 冷血训练, 诱敌深入), on
fixtures/active_gives (every form of site and every actor) and on random catalogues (tests/randcat.py).
SKILLPROOF_CROSSCHECK_STATES scales it (a fortieth of it, at least 150 traces a catalogue)."""
from __future__ import annotations

import os
import random

import pytest

from skillproof.model import loader
from skillproof.model import trace as TR
from skillproof.model import vocab as V

from crosskit import Harness, focused_cards, hot_cards, interesting_characters, prepare_trace, trace_disagreement
from randactive import active_give_trace, active_sites
from randcat import load_random

N = max(150, int(os.environ.get("SKILLPROOF_CROSSCHECK_STATES", "10000")) // 40)
SEED = 20261231
FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "active_gives")
#: random catalogues with an ActiveSkill's site (seeds of tests/randcat.py), a few traces each
RANDOM_SEEDS = (4, 5, 12, 17, 30, 36)


def _active_verdict(cat, tr, run) -> str:
    """What the ActiveSkill rule decided in this trace: "refused" (every error is that the giver cannot use the
    skill then), "at its moment" (legal, handed out in a window that is not one of the skill's), "" else."""
    k, give = next((k, e) for k, e in enumerate(tr.events) if e.kind == "give")
    site = TR.site_of(cat, give.site)
    rule = cat.skills[site.giver]
    if run.errors and all(i == k and str(r.en).startswith(f"seat {give.giver} cannot use {rule.name} ")
                          for i, r in run.errors):
        return "refused"
    if run.legal and run.moments[k]["window"] not in rule.windows:
        return "at its moment"
    return ""


def _run(cat, n, seed) -> dict:
    h = Harness(cat)
    rng = random.Random(seed)
    hot, interesting = hot_cards(cat), interesting_characters(cat)
    seen = {"compared": 0, "legal": 0, "illegal": 0, "refused": 0, "at its moment": 0}
    for k in range(n):
        tr = active_give_trace(rng, cat, n_max=h.S.n, turns_max=h.S.T, unknown_keys=h.unknown_keys, hot=hot,
                               interesting=interesting, inv_seats=h.S.inv_seats)
        if tr is None:
            continue
        prepared = prepare_trace(h, tr)
        if prepared is None:
            continue
        run, eqs = prepared
        x, y = focused_cards(rng, cat, run.state, hot)
        d, lc = rng.choice(V.DIRECTIONS), rng.randint(0, 2)
        diff = trace_disagreement(h, run, eqs, x, y, d, lc)
        assert not diff, f"trace #{k} (seed {seed}): {diff}\nerrors={run.errors}\ntrace={tr.to_dict()}"
        seen["compared"] += 1
        seen["legal" if run.legal else "illegal"] += 1
        v = _active_verdict(cat, tr, run)
        if v:
            seen[v] += 1
    return seen


@pytest.mark.parametrize("which", ["shipped", "fixture"])
def test_active_gives_match(which):
    cat = loader.load() if which == "shipped" else loader.load([FIXTURE])
    seen = _run(cat, N, SEED + (which == "fixture"))
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
        compared += _run(cat, 25, SEED + seed)["compared"]
    assert compared > 25 * len(RANDOM_SEEDS) // 2, compared
