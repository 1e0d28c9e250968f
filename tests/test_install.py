"""The install line works without a clone (issue 26, point 1): the wheel is built from the source tree, installed
into an empty virtual environment, and `skillproof check` runs from it — in another directory, on the catalogue
the wheel carries, with the gate of the README passing.

Fast and offline: the wheel is built with the installed setuptools (`pip wheel --no-deps --no-build-isolation`) from
a copy of the tree, installed without its dependencies into a venv that has no pip and no site packages; the
dependencies are then made visible from this test's environment by a path file (they are what pip would fetch from
the package index, and the wheel's metadata is checked to name every one the code imports). The real thing, with
the dependencies from the package index, is `benchmarks/install_size.py` (the install size in the README)."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("src") / "tree"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build",
                                                             "dist", ".pytest_cache", ".hypothesis", "out"))
    out = tmp_path_factory.mktemp("dist")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                        "-q", "-w", str(out), str(src)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    env = tmp_path_factory.mktemp("venv") / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=300)
    py = env / "bin" / "python"
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", "-q",
                        str(wheel)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies, as the package index would have installed them: this environment's site packages
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return env


def test_the_wheel_is_the_distribution_of_its_own_name(wheel):
    p = project()
    assert wheel.name == f"{p['name'].replace('-', '_')}-{p['version']}-py3-none-any.whl"
    assert p["name"] == "fengsheng-skillproof"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode("utf-8")
        entry = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode("utf-8")
    assert "Name: fengsheng-skillproof" in meta and "skillproof = skillproof.cli:entry" in entry
    # the data the commands read: the shipped catalogue (every file of it), the schema
    shipped = sorted(str(p.relative_to(ROOT / "model")) for p in (ROOT / "model" / "catalogue").rglob("*.toml"))
    assert sorted(n[len("skillproof/model/"):] for n in names if n.startswith("skillproof/model/catalogue/")
                  and n.endswith(".toml")) == shipped
    assert "skillproof/model/schema.json" in names
    # no project address that does not exist
    assert "Project-URL" not in meta or "skillproof/skillproof" not in meta


def _imports(path: Path) -> set:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def test_the_metadata_names_every_dependency_the_code_imports(wheel):
    """Every third-party module the installed code imports is a Requires-Dist of the wheel (else a fresh machine
    would fail at run time), and none is numpy or scipy."""
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode("utf-8")
    requires = {line.split(":", 1)[1].strip().split(";")[0] for line in meta.splitlines()
                if line.startswith("Requires-Dist:") and "extra ==" not in line}
    names = {r.split("<")[0].split(">")[0].split("=")[0].split("[")[0].strip().lower().replace("_", "-")
             for r in requires}
    assert not names & {"numpy", "scipy"}
    module_of = {"z3-solver": "z3", "networkx": "networkx", "jsonschema": "jsonschema", "tree-sitter": "tree_sitter",
                 "tree-sitter-kotlin": "tree_sitter_kotlin", "prompt-toolkit": "prompt_toolkit", "tomlkit": "tomlkit",
                 "wcwidth": "wcwidth"}
    provided = {module_of.get(n, n) for n in names}
    used = set()
    for d in ("cli", "model", "checks", "reports"):
        for p in (ROOT / d).rglob("*.py"):
            used |= _imports(p)
    third_party = {m for m in used if m not in sys.stdlib_module_names and m not in ("skillproof", "__future__")}
    assert third_party - provided == set(), third_party - provided


def test_skillproof_check_runs_from_the_fresh_environment(venv, tmp_path):
    exe = venv / "bin" / "skillproof"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONIOENCODING"] = "utf-8"
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import skillproof, sys; print(skillproof.__file__); "
                            "print('numpy' in sys.modules)"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert where.returncode == 0 and where.stdout.startswith(str(venv)), where.stdout + where.stderr
    r = subprocess.run([str(exe), "check"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    n = len(list((ROOT / "model" / "catalogue").rglob("*.toml")))
    assert lines[0] == f"skillproof check：<shipped>/（{n} 个文件）"      # the catalogue the wheel carries
    assert lines[1].startswith("通过：") and "个意图已证明" in lines[1]
    # the gate of the README, with the repository's baseline, and an HTML report (its graph needs no numpy)
    shutil.copy(ROOT / "skillproof-baseline.toml", tmp_path / "skillproof-baseline.toml")
    r = subprocess.run([str(exe), "check", "--baseline", "skillproof-baseline.toml", "--fail-on", "warning",
                        "-f", "html", "-o", "report.html"], capture_output=True, text=True, cwd=tmp_path, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count('class="node') > 50
    r = subprocess.run([str(exe), "--version"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.stdout.strip() == f"skillproof {project()['version']}"
