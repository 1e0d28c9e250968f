"""Role replacements in the cross-check (tests/randreplace.py): traces with a replacement put anywhere — legal
or not by seat, window, condition and new role — and interpreter and z3 encoder compared on legality and on
every decision of the state reached. SKILLPROOF_CROSSCHECK_STATES scales it (a twentieth of it, at least 300)."""
from __future__ import annotations

import os
import random

from skillproof.model import loader

from crosskit import Harness, focused_cards, hot_cards, interesting_characters, prepare_trace, \
    replaced_list_disagreement, trace_disagreement
from randreplace import replacement_trace
from skillproof.model import vocab as V

N = max(300, int(os.environ.get("SKILLPROOF_CROSSCHECK_STATES", "10000")) // 20)
SEED = 20261227


def _run(cat, n, seed):
    h = Harness(cat)
    rng = random.Random(seed)
    hot, interesting = hot_cards(cat), interesting_characters(cat)
    compared = legal = illegal = 0
    for k in range(n):
        tr = replacement_trace(rng, cat, n_max=h.S.n, g_max=h.S.G, turns_max=h.S.T, unknown_keys=h.unknown_keys,
                               hot=hot, interesting=interesting)
        prepared = prepare_trace(h, tr)
        if prepared is None:
            continue
        run, eqs = prepared
        x, y = focused_cards(rng, cat, run.state, hot)
        d, lc = rng.choice(V.DIRECTIONS), rng.randint(0, 2)
        diff = trace_disagreement(h, run, eqs, x, y, d, lc) or replaced_list_disagreement(h, tr, run, eqs)
        assert not diff, f"trace #{k} (seed {seed}): {diff}\nerrors={run.errors}\ntrace={tr.to_dict()}"
        compared += 1
        legal += run.legal
        illegal += not run.legal
    return compared, legal, illegal


def test_replacements_anywhere_match():
    compared, legal, illegal = _run(loader.load(), N, SEED)
    assert compared > N // 2 and legal > N // 50 and illegal > N // 4, (compared, legal, illegal)
