"""The package's layout (docs/layout.md): the static import graph of every module — every ``import`` and
``from … import`` statement, those inside functions and ``if TYPE_CHECKING`` blocks too — has no circle; imports
run one way, model ← checks ← reports ← cli; and every rule is found in two places named alike: each module of
the interpreter (``model/interp``) has its z3 twin of the same name in ``checks/enc`` and the other way round."""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent

#: the layers, lowest first: a module may import its own layer and those below it, never one above
LAYERS = ["skillproof.model", "skillproof.checks", "skillproof.reports", "skillproof"]

#: the package root (cli/__init__.py: the version and the project's addresses) is loaded before any module of the
#: package anyway; any layer may read it, and it imports nothing of the project
ROOT_PACKAGE = "skillproof"

INTERP, ENC = "skillproof.model.interp", "skillproof.checks.enc"

#: modules of one side with no twin of the same name on the other, and why
NO_TWIN = {
    (INTERP, "decide"): "the dispatcher of decide-form questions (scenario files, witnesses) on a concrete state; on "
                        "the symbolic side each kind of question builds its terms from the areas itself "
                        "(checks/ask/compile.py, checks/diff.py, the families)",
    (INTERP, "play"): "runs a trace of either kind (the timed model's Runner, a whole game's GameRunner): the symbolic "
                      "side states each kind on its own (checks/enc/trace.py, checks/enc/game.py)",
    (INTERP, "hole"): "data: the values a game-trace template leaves open (checks/enc/game.py makes each a variable)",
    (ENC, "state"): "the symbolic state and the compilation of expressions: the twin of model/state.py (State) and "
                    "of model/interp/core.py's evaluate",
    (ENC, "cond"): "the game's compilation of conditions on the symbolic table, folding constants: the twin of "
                   "model/interp/core.py's evaluate / player_attr for a whole game (state.py is it for a question)",
    (ENC, "val"): "the game encoder's values (a constant where known, a z3 term where a hole reaches): machinery of the "
                  "symbolic side, no rule",
    (ENC, "view"): "one seat of the symbolic table as the question encoders' SymState, so the game asks the existing "
                   "encoders (draw, plays, receive, send, usable, windows) rather than stating those rules a third time",
    (ENC, "witness"): "between concrete and symbolic traces (a solver model read back as a trace, a concrete trace "
                      "pinned): the bridge the cross-check and every witness go through, no rule of its own",
}

#: the shared core of each side, which imports no module of its side but these
CORE = {(INTERP, "core"): set(), (ENC, "state"): set(), (ENC, "core"): {"state"}}
#: the top of each side, which no module of its side imports
TOP = {INTERP: {"decide", "play"}, ENC: {"trace", "witness"}}


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name, from pyproject.toml's package-dir."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    out: dict[str, Path] = {}
    for pkg, where in conf["package-dir"].items():
        base = ROOT / where
        for f in base.rglob("*.py"):
            rel = f.relative_to(base).with_suffix("").parts
            if any(p in ("__pycache__",) for p in rel):
                continue
            parts = rel[:-1] if rel[-1] == "__init__" else rel
            name = ".".join((pkg, *parts))
            out.setdefault(name, f)
    return out


def _graph() -> nx.DiGraph:
    mods = _modules()
    g = nx.DiGraph()
    g.add_nodes_from(mods)

    def known(name: str | None) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    for name, path in mods.items():
        is_pkg = path.name == "__init__.py"
        here = name if is_pkg else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module
                targets = [mod] + [f"{mod}.{a.name}" for a in node.names]     # a name may be a module
            else:
                continue
            for t in targets:
                t = known(t)
                if t is not None and t != name:
                    g.add_edge(name, t)
    return g


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return _graph()


def _layer(name: str) -> int:
    return next(i for i, top in enumerate(LAYERS) if name == top or name.startswith(top + "."))


def test_the_graph_sees_the_package(graph):
    assert {"skillproof.cli", "skillproof.model.interp.decide", "skillproof.checks.enc.trace",
            "skillproof.reports.text"} <= set(graph)
    assert graph.has_edge("skillproof.model.interp.decide", "skillproof.model.interp.receive")


def test_no_import_circles(graph):
    bad = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not bad, "import circles (move what both sides need into a lower module): " + "; ".join(
        " ↔ ".join(c) for c in bad)


def test_imports_run_one_way(graph):
    """model ← checks ← reports ← cli: no module imports one of a higher layer."""
    up = sorted(f"{a} → {b}" for a, b in graph.edges
                if b != ROOT_PACKAGE and _layer(a) < _layer(b))
    assert not up, "imports against the layers (model ← checks ← reports ← cli): " + ", ".join(up)
    assert not list(graph.successors(ROOT_PACKAGE)), "the package root imports nothing of the project"


def _side(graph, side: str) -> set[str]:
    return {m.rpartition(".")[2] for m in graph if m.startswith(side + ".")}


def test_every_interpreter_module_has_its_twin_and_back(graph):
    interp, enc = _side(graph, INTERP), _side(graph, ENC)
    assert {"core", "conversion", "bans", "receive", "send", "skip", "draw", "result", "grants", "lifetime",
            "trace"} <= interp
    missing = sorted(f"checks/enc/{m}.py (twin of model/interp/{m}.py)" for m in interp - enc
                     if (INTERP, m) not in NO_TWIN)
    missing += sorted(f"model/interp/{m}.py (twin of checks/enc/{m}.py)" for m in enc - interp
                      if (ENC, m) not in NO_TWIN)
    assert not missing, "modules without a twin of the same name: " + ", ".join(missing)
    stale = sorted(f"{side}.{m}" for side, m in NO_TWIN if m not in _side(graph, side)
                   or m in _side(graph, ENC if side == INTERP else INTERP))
    assert not stale, "NO_TWIN names modules that are gone or have a twin now: " + ", ".join(stale)


def test_shared_core_below_areas_below_the_top(graph):
    """Each side: the shared core imports nothing of its side (but the core below it), and nothing of the side
    imports its top (the dispatcher, the trace, the witness)."""
    for (side, m), allowed in CORE.items():
        mine = {t.rpartition(".")[2] for t in graph.successors(f"{side}.{m}") if t.startswith(side + ".")}
        assert mine <= allowed, f"{side}.{m} is the shared core, yet imports {sorted(mine - allowed)}"
    for side, top in TOP.items():
        for t in top:
            users = sorted(a for a in graph.predecessors(f"{side}.{t}") if a.startswith(side + "."))
            assert not users, f"{side}.{t} sits on top of its side, yet {users} import it"


def test_every_module_imports():
    """Every module of the package imports: a merge that moves a module (``model.trace`` → ``model.interp.trace``)
    cannot leave an import of the old place behind (the import graph above maps a missing module to its package)."""
    import importlib
    bad = []
    for name in sorted(_modules()):
        if name.endswith("__main__"):
            continue
        try:
            importlib.import_module(name)
        except Exception as e:          # noqa: BLE001 - every failure is the finding
            bad.append(f"{name}: {e!r}")
    assert not bad, "modules that do not import: " + "; ".join(bad)
