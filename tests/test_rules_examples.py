"""Every check's page shows a catalogue that triggers it (issue 26, point 6): the example `skillproof rules CODE`
prints, copied from the page as a person would copy it, loads without an error and — checked alone, as
`skillproof check FILE --select CODE` — reports that code. A code without an example says why on its page."""
from __future__ import annotations

import re

import pytest

from skillproof.checks import context as CX
from skillproof.checks.registry import RUN_CODES, families
from skillproof.model import lang, loader


def every_code():
    return [(f, c) for f in families() for c in f.codes] + [(None, c) for c in RUN_CODES.values()]


def example_of_page(page: str) -> str | None:
    """The example catalogue of a page as `skillproof rules CODE` prints it: the block indented by four spaces
    after the line that announces it."""
    lines = page.splitlines()
    for i, line in enumerate(lines):
        if line in ("Example catalogue that triggers it:", "会触发它的目录示例："):
            block = []
            for x in lines[i + 2:]:
                if x and not x.startswith("    "):
                    break
                block.append(x[4:])
            return "\n".join(block).strip("\n") + "\n"
    return None


@pytest.mark.parametrize("code", [c.code for _f, c in every_code()])
def test_the_page_example_loads_and_triggers_its_code(tmp_path, code):
    from skillproof.reports.ruledocs import text_page
    fam, c = next((f, x) for f, x in every_code() if x.code == code)
    with lang.using("zh"):
        page = text_page(c, fam)
    example = example_of_page(page)
    if fam is None or not c.example:         # the run's own codes, and a check nothing the loader accepts triggers
        assert example is None and (fam is None or c.todo and c.todo_zh), code
        return
    assert example == c.example.strip("\n") + "\n"
    path = tmp_path / f"{code}.toml"
    path.write_text(example, encoding="utf-8")
    cat = loader.load([str(path)])            # raises (a located error) if the example does not load
    found = CX.run(cat, CX.Options(only=(code,))).findings
    assert [f.check for f in found if f.check == code], (code, [f.check for f in found])
    assert not [f for f in found if f.inconclusive], code


def test_an_example_on_the_command_line(tmp_path):
    """The same, as a person runs it: CV002's page (its example used to give 4 load errors)."""
    from reportkit import sp
    page = sp("rules", "CV002").stdout
    path = tmp_path / "cv002.toml"
    path.write_text(example_of_page(page), encoding="utf-8")
    r = sp("check", str(path), "--select", "CV002", "--fail-on", "none")
    assert r.returncode == 0 and "CV002" in r.stdout and "错误：" not in r.stderr, r.stderr
    assert re.search(r"警告 CV002", r.stdout)
