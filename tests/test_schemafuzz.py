"""The typed fuzz in the normal suite (tests/schemafuzz.py): every key of the catalogue format and of the
configuration (from their JSON Schemas), every option of every command (from the parser), and odd files in
catalogue directories, given hostile values — each case ends in a verdict or located errors, never exit 4, a
traceback, an INT001 disagreement of the twins or a hang. The long run is benchmarks/fuzz_inputs.py --typed."""
from __future__ import annotations

import pytest

import schemafuzz as SF

CASES = {"catalogue": 300, "config": 120, "cli": 140, "files": 110}
BLOCKS = 2
SECONDS_PER_CASE = 8.0
SEEN: dict = {k: {} for k in CASES}


@pytest.mark.parametrize("kind", sorted(CASES))
@pytest.mark.parametrize("block", range(BLOCKS))
def test_typed_fuzz(tmp_path, kind, block):
    n = CASES[kind] // BLOCKS
    bad = []
    for seed in range(block * n, (block + 1) * n):
        r = SF.case(kind, seed, tmp_path)
        SEEN[kind][seed] = r["rc"]
        if r["problem"] or r["seconds"] > SECONDS_PER_CASE:
            bad.append((seed, r["what"], r["problem"] or f"took {r['seconds']:.1f}s", r["argv"], r["stderr"][:300]))
    assert not bad, bad


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_key_is_fuzzed(kind):
    """The first cases of a kind cover each of its keys (the seed picks the key in turn)."""
    assert CASES[kind] >= SF.keys_of(kind)


def test_a_new_key_is_fuzzed_without_anyone_remembering(monkeypatch):
    """The keys come from the schema: a key added to it is among those fuzzed, with a host entry made for it."""
    schema = SF.catalogue_schema()
    schema["properties"]["skill"]["items"]["properties"]["brand_new"] = {"type": "integer"}
    paths = [p for p, _ in SF.key_paths(schema)]
    assert ("skill", "[]", "brand_new") in paths and ("skill", "[]", "fires", "at") in paths
    import tomllib
    data = tomllib.loads(SF.TEMPLATE.read_text(encoding="utf-8"))
    assert SF._hosts(data, ("skill", "[]", "brand_new"))          # placed in a skill of the template
    cfg = [p for p, _ in SF.key_paths(SF.config_schema())]
    assert ("jobs",) in cfg and ("timeout",) in cfg and ("paths",) in cfg
    opts = {(c, f) for c, f, _ in SF.cli_options()}
    assert ("check", "--jobs") in opts and ("diff", "--kotlin") in opts and ("ask", "--seats") in opts


def test_the_template_is_valid_and_uses_every_key(tmp_path):
    """The host catalogue loads, and every key of the schema has a place in it (so each is fuzzed where it
    means something, not only as an unknown key)."""
    import tomllib
    rc, out, err, _ = SF.F.run_cli(["catalogue", str(SF.TEMPLATE), "--no-config"])
    assert rc == 0, err
    data = tomllib.loads(SF.TEMPLATE.read_text(encoding="utf-8"))
    other = {"skill": "grant", "grant": "skill"}          # a key of rules is used in a skill or in a grant
    missing = [p for p, _ in SF.key_paths(SF.catalogue_schema())
               if p[-1] != "[]" and not SF._hosts(data, p)
               and not (p[0] in other and SF._hosts(data, (other[p[0]],) + p[1:]))]
    assert not missing, missing


def test_the_fuzz_is_not_vacuous(tmp_path):
    """Some fuzzed catalogues still load and some are refused; the same for the other kinds."""
    for kind in CASES:
        if not SEEN[kind]:
            SEEN[kind] = {s: SF.case(kind, s, tmp_path)["rc"] for s in range(0, 40)}
        rcs = set(SEEN[kind].values())
        assert 2 in rcs and rcs & {0, 1, 3}, (kind, rcs)


def test_judge_catches_what_it_should():
    assert SF.judge(["check"], 3, "INT001 backends-disagree", "")
    assert SF.judge(["catalogue"], 4, "", "skillproof catalogue: internal error (X)")
    assert SF.judge(["catalogue"], 2, "", "error: no place\n", strict=True)
    assert SF.judge(["check"], 2, "", "error: a.toml:1: [k] 'a\u2028b'\n", strict=True)
    assert SF.judge(["check"], 2, "", "error: a.toml:1: [k] " + "x" * 3000 + "\n", strict=True)
    assert SF.judge(["catalogue"], 2, "", "error: a.toml:3: [k] bad\n1 error in the catalogue; nothing was checked\n",
                    strict=True) is None
    assert SF.judge(["check"], 3, "INC001", "") is None
