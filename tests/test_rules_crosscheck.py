"""Engine rules in the cross-check of the check families: every family run on random catalogues drawn under
each value of each [rules] key in turn (tests/randcat.py ``rules_settings``), every witness replayed by the
interpreter — an INT001 (the z3 twin and the interpreter disagree) fails. And the receive family under every
``must_receive``: it used to read the engine's 'must receive' as the sender and the locked player whatever
[rules] said, so any other setting made the twins disagree (INT001) and every RC001 vanished.
The long run: benchmarks/crosscheck_randcat.py --families N."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import randcat
from skillproof.checks.context import Options, run
from skillproof.model import loader

FIX = Path(__file__).parent / "fixtures" / "families"
SEED = 20261215


def _check(cat, only=()):
    return run(cat, Options(timeout_ms=3000, only=only), jobs=1)


def disagreements(cat, only=()) -> list:
    return [f"{f.id}: {f.message_en or f.message}" for f in _check(cat, only).findings if f.check == "INT001"]


SETTINGS = randcat.rules_settings()


@pytest.mark.parametrize("block", range(3))
def test_families_agree_with_the_interpreter_under_every_engine_rule(block):
    bad = []
    for i in range(block, len(SETTINGS), 3):
        seed = SEED + i
        text, cat = randcat.load_random(seed, SETTINGS[i])
        for d in disagreements(cat):
            bad.append((seed, SETTINGS[i], d[:300]))
    assert not bad, bad


def _with_rules(extra: str):
    texts = {p.name: p.read_text(encoding="utf-8") for p in (FIX / "base.toml", FIX / "receive" / "trigger.toml")}
    texts["rules.toml"] = "[rules]\n" + extra
    return loader.load(texts=texts)


MUST = list(itertools.chain.from_iterable(itertools.combinations(("sender", "turn", "locked"), n) for n in range(4)))


@pytest.mark.parametrize("must", MUST, ids=lambda m: "+".join(m) or "none")
def test_receive_under_every_must_receive(must):
    cat = _with_rules(f"must_receive = {list(must)!r}\n".replace("'", '"'))
    res = _check(cat, ("receive",))
    assert not [f for f in res.findings if f.check == "INT001"]
    core = {f.key.split("|")[1] for f in res.findings if f.check == "RC001"} & {"sender", "turn", "locked"}
    assert core == set(must)                           # one RC001 per source of the engine's 'must receive'
    assert any(f.check == "RC002" for f in res.findings)
