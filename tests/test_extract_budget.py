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


def test_a_big_file_is_parsed_in_parts_cut_at_top_level_declarations():
    """A file over 64 KiB is parsed in parts cut at top-level declarations (model/extract/syntax.py
    ``parse_kotlin``): the parts' top-level nodes are the whole parse's — same types, same byte ranges and points —
    and a cut never falls inside a bracket, a comment or a string (braces in them are not counted). The one-line
    classes tree-sitter-kotlin recovers from slowly take linear time then (benchmarks/extract_scaling.py: 1,000 /
    4,000 / 16,000 classes)."""
    from skillproof.model.extract.syntax import CHUNK_BYTES, _make_parser, parse_kotlin, top_level_cuts

    body = "".join(f'class C{i} : Skill {{ /* {{ */\n    val s = "}}{{ // "\n    val c = \'{{\'\n    fun f() = listOf({i},\n'
                   f"{i})\n}}\n" for i in range(1500))
    data = ("package x\n\n" + body + "\nfun last() = 1\n").encode()
    assert len(data) > CHUNK_BYTES
    cuts = top_level_cuts(data)
    assert len(cuts) >= 3 and all(data[c:c + 6] == b"class " or data[c:c + 3] == b"fun" for c in cuts), \
        [data[c:c + 12] for c in cuts if data[c:c + 6] != b"class "]
    parser = _make_parser()
    whole, parts = parser.parse(data).root_node, parse_kotlin(parser, data).root_node
    assert not whole.has_error and not parts.has_error
    shape = lambda root: [(n.type, n.start_byte, n.end_byte, tuple(n.start_point)) for n in root.named_children]  # noqa: E731
    assert shape(parts) == shape(whole)
    assert parser.parse(b"class A").root_node.end_byte == 7                # the parser reads whole files again
