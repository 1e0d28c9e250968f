"""The law: on every state, each z3 decision (state fixed) equals the interpreter's; on every trace,
the encoder's legality equals the interpreter's execution, and the decisions on the state it reaches agree.

Draws SKILLPROOF_CROSSCHECK_STATES random states and as many random traces (default 10,000 each; seeded
by SKILLPROOF_CROSSCHECK_SEED, default 20261129) over the shipped catalogue and a small synthetic one,
and compares conversion (ok and which skill fires), bans, the window check of a play, receive, send
groups, skipping, could-act, draw count, turn-end survivors — and, for traces, legality.
"""
from __future__ import annotations

import os

import pytest

from skillproof.model import loader

from crosskit import Harness, run_states, run_traces

N_STATES = int(os.environ.get("SKILLPROOF_CROSSCHECK_STATES", "10000"))
SEED = int(os.environ.get("SKILLPROOF_CROSSCHECK_SEED", "20261129"))


def _run(cat, n_states, seed, label) -> int:
    """Random states: every decision agrees. Returns how many states were compared."""
    n, failure = run_states(Harness(cat), n_states, seed, label)
    if failure:
        pytest.fail(failure)
    return n


def _run_traces(cat, n_traces, seed, label):
    """Random traces (see crosskit.run_traces): returns (legal, compared, skipped)."""
    legal, compared, skipped, failure = run_traces(Harness(cat), n_traces, seed, label)
    if failure:
        pytest.fail(failure)
    return legal, compared, skipped


SYNTHETIC = os.path.join(os.path.dirname(__file__), "fixtures", "synthetic")
# at least N_STATES states per run in all: 60% on the shipped catalogue, 40% on the synthetic one
N_SHIPPED = (N_STATES * 3 + 4) // 5
N_SYNTH = N_STATES - N_SHIPPED


def test_shipped_catalogue_encoder_matches_interpreter():
    _run(loader.load(), N_SHIPPED, SEED, "shipped")


def test_synthetic_catalogue_encoder_matches_interpreter():
    _run(loader.load([SYNTHETIC]), N_SYNTH, SEED + 1, "synthetic")


def test_shipped_catalogue_traces_match():
    legal, compared, skipped = _run_traces(loader.load(), N_SHIPPED, SEED + 2, "shipped")
    # the generator must exercise both sides of legality and stay mostly inside the bounds
    assert 0 < legal < compared and compared >= 0.6 * N_SHIPPED, (legal, compared, skipped)


def test_synthetic_catalogue_traces_match():
    legal, compared, skipped = _run_traces(loader.load([SYNTHETIC]), N_SYNTH, SEED + 3, "synthetic")
    assert 0 < legal < compared and compared >= 0.6 * N_SYNTH, (legal, compared, skipped)
