"""The law of test_crosscheck.py over random *catalogues*, not only random states of fixed ones.

For each of SKILLPROOF_RANDCAT_CATALOGUES catalogues written by ``randcat.random_catalogue`` (seeded by
SKILLPROOF_RANDCAT_SEED) and read through the real loader, the decision terms are built once
(``crosskit.Harness``) and SKILLPROOF_RANDCAT_STATES random states and SKILLPROOF_RANDCAT_TRACES random
traces are compared, decision by decision, between the interpreter and the z3 encoder — the same decisions
as test_crosscheck.py (conversion, bans, the window check of a play, what resolves, triggered skills
firing, receive, send groups, skipping, could-act, draw count, turn-end survivors; legality for traces).
A disagreement fails with the catalogue's seed, its TOML text and the state or trace.

Default: 100 catalogues × 100 states = 10,000 (catalogue, state) pairs, and 100 catalogues × 40 traces: about
3,000 compared (catalogue, trace) pairs (4,000 drawn; a trace outside the symbolic bounds, or illegal only
through events the symbolic trace does not hold, is skipped) — two tests, so that pytest-xdist runs them side
by side; about 80 s of CPU in all. The longer run is
benchmarks/crosscheck_randcat.py (``--traces``).
"""
from __future__ import annotations

import os

import pytest

from skillproof.model import kinds as K
from skillproof.model import loader

from crosskit import Harness, run_states, run_traces
from randcat import load_random, random_catalogue

N_CATALOGUES = int(os.environ.get("SKILLPROOF_RANDCAT_CATALOGUES", "100"))
N_STATES = int(os.environ.get("SKILLPROOF_RANDCAT_STATES", "100"))
N_TRACES = int(os.environ.get("SKILLPROOF_RANDCAT_TRACES", "40"))
SEED = int(os.environ.get("SKILLPROOF_RANDCAT_SEED", "20261207"))


def catalogue_seed(i: int) -> int:
    return SEED * 1000 + i


def failure(seed: int, text: str, what: str) -> str:
    return (f"{what}\n\nthe catalogue (randcat.random_catalogue({seed}, must_fire=True)):\n{text}\n"
            f"reproduce: tests/randcat.py load_random({seed}, must_fire=True); crosskit.run_states/run_traces with the seed above")


def test_random_catalogues_encoder_matches_interpreter_on_states():
    pairs = 0
    for i in range(N_CATALOGUES):
        seed = catalogue_seed(i)
        text, cat = load_random(seed, must_fire=True)
        n, bad = run_states(Harness(cat), N_STATES, seed * 7 + 1, f"random catalogue {seed}")
        if bad:
            pytest.fail(failure(seed, text, bad))
        pairs += n
    assert pairs >= 0.8 * N_CATALOGUES * N_STATES, pairs       # the run compares what it says it does


def test_random_catalogues_encoder_matches_interpreter_on_traces():
    traces = legal = 0
    for i in range(N_CATALOGUES):
        seed = catalogue_seed(i)
        text, cat = load_random(seed, must_fire=True)
        lg, compared, skipped, bad = run_traces(Harness(cat), N_TRACES, seed * 7 + 2, f"random catalogue {seed}")
        if bad:
            pytest.fail(failure(seed, text, bad))
        traces += compared
        legal += lg
    # most drawn traces are compared, not skipped, on both sides of legality
    assert traces >= 0.6 * N_CATALOGUES * N_TRACES, traces
    if N_TRACES * N_CATALOGUES >= 100:
        assert legal > 0 and traces - legal > 0, (legal, traces)


def test_generator_is_deterministic_and_valid():
    a = random_catalogue(catalogue_seed(0))
    assert a == random_catalogue(catalogue_seed(0)) and a != random_catalogue(catalogue_seed(1))
    for i in range(200):                   # the loader refuses nothing the generator writes
        loader.load(texts={"x.toml": random_catalogue(catalogue_seed(i))})


def test_generator_covers_the_format():
    """Over the catalogues a run uses: every kind, parameter type and table of the format shows up."""
    seen: set = set()
    for i in range(max(N_CATALOGUES, 60)):
        text, cat = load_random(catalogue_seed(i))
        r = cat.rules
        seen |= {f"rules:{k}" for k in loader.RULES_KEYS if f"\n{k} = " in text.split("\n[[")[0]}
        for c in cat.cards.values():
            seen.add("card:windows" if "windows" in text and c.windows else "card:none")
            seen |= {f"actor:{a}" for a in c.windows.values()}
        for rule in cat.skills.values():
            seen |= {f"kind:{k}" for k in rule.closure}
            seen |= {f"param:{t}" for t in rule.params.values()}
            seen.add(f"lifetime:{rule.lifetime}" if rule.is_grant else "skill")
            if rule.convert:
                seen.add(f"convert:{rule.convert.source.kind}:{'must' if rule.convert.must else 'may'}")
                seen |= {f"convert.to:{t.kind}" for t in rule.convert.targets}
            if rule.ban:
                seen.add("ban:param" if not isinstance(rule.ban.cards, tuple) else "ban:list")
                seen.add(f"ban.all:{type(rule.ban.all).__name__}")
            for key in ("receive", "send", "draw", "fires", "plays", "fight", "dying", "main", "remind"):
                if f"\n{key} = " in text and getattr(rule, key, None) is not None:
                    seen.add(f"table:{key}")
            for eff in list(rule.win) + list(rule.result):
                seen.add("effect:each" if eff.each else "effect:pick" if eff.pick else "effect:plain")
            if rule.replaces_role:
                seen.add("replaces_role")
            if rule.initial and K.generated_kinds(rule.kinds):
                seen.add("generated-initial")
            for g in rule.gives:
                seen |= {f"to:{g.to}", f"on:{g.on}"} | {f"at:{w}" for w in g.at}
                if g.args:
                    seen.add("gives:args")
                if g.where is not None:
                    seen.add("gives:where")
        for c in cat.cards.values():
            if c.gives:
                seen.add("card:gives")
        if "phases = " in text:
            seen.add("card:phases")
        for word in ("unknown", "any(", "all(", "count(", "if ", " played", "in_winners", "in_declared",
                     "lock_count", "message_dir", "message_lockable", " * "):
            if word in text:
                seen.add(f"expr:{word.strip()}")
        seen.add(f"seats:{r.seats}")
    want = ({f"kind:{k}" for k in K.KINDS} | {f"param:{t}" for t in ("card", "bool", "int", "colour", "set<card>")}
            | {f"lifetime:{x}" for x in loader.LIFETIMES} | {f"rules:{k}" for k in loader.RULES_KEYS}
            | {"convert:card:must", "convert:card:may", "convert:any:may", "convert:param:must",
               "convert.to:card", "convert.to:param", "ban:param", "ban:list", "ban.all:bool", "ban.all:Ref"}
            | {f"table:{k}" for k in ("receive", "send", "draw", "fires", "plays", "fight", "dying", "main", "remind")}
            | {"effect:each", "effect:pick", "effect:plain", "replaces_role", "generated-initial", "gives:args",
               "gives:where", "card:gives", "card:phases", "card:windows", "card:none"}
            | {f"to:{t}" for t in ("self", "target", "others", "all")}
            | {f"actor:{a}" for a in ("turn", "others", "anyone", "in_front", "not_in_front", "sender",
                                      "dying_player", "nobody")}
            | {"expr:unknown", "expr:any(", "expr:all(", "expr:count(", "expr:if", "expr:played", "expr:in_winners",
               "expr:in_declared", "expr:lock_count", "expr:message_dir", "expr:message_lockable", "expr:*"}
            | {"seats:2", "seats:9"})
    assert want - seen == set()
