"""benchmarks/mutate_interpreter.py's mutant generator (no cross-check is run here): valid, distinct Python,
one small edit each, located by function and line, deterministic samples."""
from __future__ import annotations

import ast
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))

import mutate_interpreter as M  # noqa: E402


@pytest.fixture(scope="module")
def mutants():
    return M.generate_all()


def _original(target: str) -> str:
    return M.TARGETS[target][1].read_text(encoding="utf-8")


def test_every_operator_class_is_generated(mutants):
    ops = {m.op for m in mutants}
    assert ops == {"cmp", "boolop", "not-", "not+", "const", "body", "return", "int+1", "int-1"}
    assert len(mutants) > 300


def test_mutants_are_distinct_and_differ_from_the_original(mutants):
    assert set(M.TARGETS) >= {"conversion", "bans", "receive", "send", "skip", "draw", "trace", "decide"}
    for target in M.TARGETS:
        mine = [m for m in mutants if m.target == target]
        sources = [m.source for m in mine]
        assert _original(target) not in sources
        assert len(set(sources)) == len(sources)
        assert [m.id for m in mine] == list(range(len(mine)))


def test_sampled_mutants_parse_and_change_one_function(mutants):
    for m in M.sample(mutants, 25, seed=3):
        original = ast.parse(_original(m.target))
        funcs = {n.name: ast.dump(n) for n in original.body if isinstance(n, ast.FunctionDef)}
        tree = ast.parse(m.source)                         # valid Python
        changed = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and funcs.get(n.name) != ast.dump(n)]
        top = m.func.split(".")[0]
        assert changed == ([top] if top in funcs else []), (m.describe(), changed)
        # the edit sits on the line the mutant names
        assert m.before in "".join(m.source.splitlines(keepends=True)[m.line - 1:]) or m.after in m.source


def test_sample_is_deterministic_and_only_filters(mutants):
    a = [m.id for m in M.sample(mutants, 40, seed=7)]
    assert a != [m.id for m in M.sample(mutants, 40, seed=8)]
    # generated again (two modules: the whole set once more costs half a minute), the same mutants, the same sample
    two = ["receive", "skip"]
    again = M.generate_all(targets=two)
    assert [(m.target, m.id, m.source) for m in again] == [(m.target, m.id, m.source) for m in mutants if m.target in two]
    assert [m.id for m in M.sample(again, 10, seed=7)] == [m.id for m in M.sample(again, 10, seed=7)]
    only = M.generate_all({"receive"})
    assert only and {m.func for m in only} == {"receive"}


def test_functions_outside_the_crosscheck_are_not_mutated(mutants):
    funcs = {m.func for m in mutants}
    assert not funcs & set(M.NOT_CROSSCHECKED)
    assert {"conversion", "game_result", "evaluate", "turn_end"} <= funcs


def test_trace_module_mutants(mutants):
    # the timed model's interpreter is trace.py's Runner: its loop, a clause per event kind and the end of a trace
    from skillproof.model.interp.trace import EVENT_KINDS
    tr = M.generate("trace")
    assert tr and all(m.target == "trace" for m in tr)
    assert {"Runner.run", "Runner.finish"} | {f"Runner.on_{k}" for k in EVENT_KINDS} <= {m.func for m in tr}


def test_the_crosscheck_files_exist():
    assert all((M.ROOT / t).is_file() for t in M.CROSSCHECK)


def test_every_explained_survivor_names_one_mutant(mutants):
    # and the twin's modules that EXPLAINED names, their functions of the keys only (the whole of enc.game: 1.5 s)
    every = mutants + M.generate_all({k[0] for k in M.EXPLAINED}, targets=list(M.EXPLAINED_TWINS))
    for key, cls in M.EXPLAINED.items():
        assert cls in ("equivalent", "no twin", "full strength")
        named = [m for m in every if m.key == key]
        # not stale after an edit of the file; two mutants share a key only as the same edit of one line (the
        # two 15s of table.DECK), explained by the same reason
        assert named and len({(m.target, m.line, m.op, m.before) for m in named}) == 1, key


def test_the_twin_is_mutated_only_when_named(mutants):
    # the default is the interpreter alone (its ids unchanged); ``enc.MODULE`` names a module of checks/enc
    assert {m.target for m in mutants} <= set(M.INTERP_TARGETS)
    assert not any(t.startswith("enc.") for t in M.INTERP_TARGETS)
    tw = M.generate("enc.windows")
    assert tw and [m.id for m in tw] == list(range(len(tw)))
    assert M.TARGETS["enc.windows"][0] == "skillproof.checks.enc.windows"
    assert all(m.describe().startswith("enc/windows.py:") for m in tw)
    assert {"enc_actor_ok", "enc_in_window"} <= {m.func for m in tw}
    # the solver-term edits (And / Or swapped, a Not removed) come after the others, whose ids they leave alone
    solver = [m for m in tw if m.op.startswith("z3")]
    assert {m.op for m in solver} == {"z3andor"} and solver == tw[len(tw) - len(solver):]
    assert any(m.before.startswith("And(") and m.after.startswith("(Or(") for m in solver)
    assert "z3not-" in {m.op for m in M.generate("enc.grants")}
    for m in solver:
        ast.parse(m.source)
    assert M._diff(tw[0]).startswith("--- a/checks/enc/windows.py")
    # the whole-game twins run the game cross-check right after the hand-made cases, as their interpreters do
    assert M.ordered_tests(M.CROSSCHECK, "enc.game") == M.ordered_tests(M.CROSSCHECK, "game")
    assert M.ordered_tests(M.CROSSCHECK, "enc.windows") == M.CROSSCHECK


def test_a_mutant_runs_the_files_that_run_its_function_cheapest_first(mutants):
    """The coverage map picks the files a mutant is run against: those that ran the mutated function (a nested one by
    its dotted name), cheapest first; an edit run at import (module or class level, a def's header) runs them all."""
    by = {(m.target, m.func, m.op, m.context): m for m in mutants}
    body = next(m for m in mutants if m.target == "grants" and m.func == "must_fire")
    assert body.scope == "must_fire"
    nested = next(m for m in mutants if m.target == "hole" and m.func == "holes_of.add")
    assert nested.scope == "holes_of.add"
    deco = by[("hole", "Hole", "const", "@dataclass(frozen=True)")]
    header = by[("path", "first_stop_ok", "const", "def first_stop_ok(state, sender: int, direction: str, to: int, "
                 "to_self: bool = False) -> bool:")]
    module = next(m for m in mutants if m.target == "table" and m.func == "<module>")
    assert deco.scope is header.scope is module.scope is None
    fmap = {"files": {"a.py": {"cpu": 9.0, "passed": True, "ran": {"grants": ["must_fire"], "hole": ["holes_of.add"]}},
                      "b.py": {"cpu": 2.0, "passed": True, "ran": {"grants": ["must_fire", "site_of"]}},
                      "c.py": {"cpu": 1.0, "passed": True, "ran": {"hole": ["holes_of"]}}}}
    assert M.tests_for(body, fmap) == ["b.py", "a.py"]
    assert M.tests_for(nested, fmap) == ["a.py"]                     # holes_of ran in c.py, its inner add did not
    assert M.tests_for(deco, fmap) == M.tests_for(module, fmap) == ["c.py", "b.py", "a.py"]
    assert M.tests_for(next(m for m in mutants if m.target == "grants" and m.func == "one_grants"), fmap) == []


def test_a_resumed_run_reads_the_verdicts_it_recorded(tmp_path, capsys):
    """--resume: the mutants whose verdicts the file holds are not run again, and count in the totals."""
    import json
    ms = M.generate("enc.draw")
    f = tmp_path / "v.jsonl"
    f.write_text("".join(json.dumps({"target": m.target, "id": m.id, "before": m.before, "after": m.after,
                                     "caught": m.id != 0, "how": "passes" if m.id == 0 else "crash", "detail": "",
                                     "seconds": 1.0}) + "\n" for m in ms), encoding="utf-8")
    rc = M.main(["--target", "enc.draw", "--mutants", "0", "--no-map", "--no-baseline", "--resume", str(f), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1 and out["run"] == len(ms) and out["caught"] == len(ms) - 1 and out["survived"] == 1
    assert len(f.read_text(encoding="utf-8").splitlines()) == len(ms)          # nothing run, nothing added
