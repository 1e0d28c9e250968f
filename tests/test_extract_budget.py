"""`extract` / `diff --kotlin` have a size and time budget like `check` (model/extract/budget.py): past it, exit 3
saying what was read; and their own cost grows linearly with the source (a per-class count over all classes
made 20,000 small classes take minutes)."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

from conftest import FIXTURES
from fuzzkit import run_cli

SERVER = Path(FIXTURES) / "kotlin" / "server"


def _server_with(tmp_path, n: int, one_line: bool = False) -> Path:
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    lines = ["package demo.game.skill", "", "import demo.game.Game", "import demo.game.Player", ""]
    for i in range(n):
        if one_line:
            lines.append(f"class Big{i} : TriggeredSkill {{ override val skillId = SkillId.MUTE; "
                         f"override val isInitialSkill = true }}")
        else:
            lines.append(f"class Big{i} : TriggeredSkill {{\n    override val skillId = SkillId.MUTE\n"
                         f"    override val isInitialSkill = true\n}}\n")
    (d / "skill" / "Big.kt").write_text("\n".join(lines), encoding="utf-8")
    return d


def test_many_small_classes_are_read_in_linear_time(tmp_path):
    d = _server_with(tmp_path, 8000)
    t = time.perf_counter()
    rc, out, err, _ = run_cli(["extract", "--kotlin", str(d), "-q", "--lang", "en", "--output", str(tmp_path / "o")])
    took = time.perf_counter() - t
    # no hang (the measured growth is benchmarks/', not a timed test's: 8,000 classes take ~10 s on an idle machine)
    assert "8015 skills" in err.replace(",", "") and took < 90, (took, err[-300:])


def test_past_the_time_budget_extract_exits_3_saying_what_was_read(tmp_path):
    d = _server_with(tmp_path, 6000, one_line=True)      # tree-sitter's error recovery is slow on these
    t = time.perf_counter()
    rc, out, err, _ = run_cli(["extract", "--kotlin", str(d), "-q", "--lang", "en", "--time-budget", "1",
                               "--output", str(tmp_path / "o")])
    assert rc == 3 and time.perf_counter() - t < 15
    assert "inconclusive: the time budget (1 s) ran out: read " in err and "Kotlin files" in err
    assert not (tmp_path / "o").exists()


def test_past_the_size_budget_extract_exits_3(tmp_path, monkeypatch):
    from skillproof.model.extract import budget
    monkeypatch.setattr(budget, "FILE_BYTES", 1000)
    rc, out, err, _ = run_cli(["extract", "--kotlin", str(SERVER), "-q", "--lang", "en"])
    assert rc == 3 and "bytes, over the 1,000 of one Kotlin file" in err and "nothing was written" in err
