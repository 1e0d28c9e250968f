"""Markdown for a pull-request comment: one table row per finding (severity, code, message, rules with
file:line) with the witness folded in, baseline and stale sections, and never over GitHub's limit."""
from __future__ import annotations

import re

from reportkit import CONVERSION, report_for, sp

from skillproof.checks.findings import Finding, RuleRef
from skillproof.reports import markdown


def table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the GFM table whose header line starts with ``header``, split into cells."""
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith(header))
    ncols = lines[i].count("|") - 1
    assert re.fullmatch(r"(\| --- )+\|", lines[i + 1]) and lines[i + 1].count("|") - 1 == ncols
    rows = []
    for ln in lines[i + 2:]:
        if not ln.startswith("|"):
            break
        cells = ln.strip("|").split(" | ")
        assert ln.count("|") - 1 == ncols, ln          # no stray pipe splits a row
        rows.append([c.strip() for c in cells])
    return rows


def test_one_row_per_finding_with_locations_and_witness():
    cat, result, rep = report_for()
    text = markdown.render(rep, cat=cat)
    assert text.startswith("## skillproof check: ❌ failing\n")
    rows = table_rows(text, "| | Check | Finding |")
    assert len(rows) == len(result.findings)
    for row, f in zip(rows, result.findings):
        sev, check, msg, rules, wit = row
        assert sev.endswith(f.severity) and f"<code>{f.check}</code>" in check
        assert f"<code>{f.id}</code>" in msg
        for r in f.rules:
            assert f"<code>{r.file}:{r.line}</code>" in rules
        if f.witness:
            assert wit.startswith("<details><summary>witness</summary>") and "question: " in wit
        else:
            assert wit == "—"
    assert len(text) < markdown.LIMIT


def test_escaping_keeps_rows_whole():
    f = Finding("CV001", "conversion", "error", "a | b\nc <script>x</script> *bold* `tick`", "k",
                rules=[RuleRef("R|1", "名|字", "dir|x/a.toml", 3)])
    _, _, rep = report_for(findings=[f])
    text = markdown.render(rep)
    (row,) = table_rows(text, "| | Check | Finding |")
    assert "<script>" not in text and "&lt;script&gt;" in row[2]
    assert "&#124;" in row[2] and "<br>" in row[2] and "\\*bold\\*" in row[2]


def test_baseline_sections_and_diff():
    cat, result, _ = report_for()
    acc = result.findings[:2]
    stale = [{"id": "CV001-0123456789", "check": "CV001", "reason": "old reason", "file": "b.toml", "line": 4}]
    change = {"decision": "can_play", "message": "【甲变乙】把甲当作乙", "old": {"ok": True}, "new": {"ok": False},
              "rules": [{"id": "OptAB", "name": "甲变乙", "file": "rules.toml", "line": 56}],
              "witness": result.findings[0].witness}
    _, _, rep = report_for(findings=result.findings[2:], suppressed=[(f, "intended") for f in acc], stale=stale,
                           extra={"decision_changes": [change], "new": [result.findings[2]], "resolved": []})
    text = markdown.render(rep, cat=cat)
    assert "<details><summary>2 findings accepted in the baseline</summary>" in text
    sup = table_rows(text, "| | Check | Finding | Reason |")
    assert [r[3] for r in sup] == ["intended", "intended"]
    assert "### Stale baseline entries (1)" in text and "<code>CV001-0123456789</code> (<code>b.toml:4</code>): old reason" in text
    dec = table_rows(text, "| Decision | OLD | NEW |")
    assert len(dec) == 1 and "<code>rules.toml:56</code>" in dec[0][3] and "seat 0 阿尔法" in dec[0][4]
    assert text.index("### Decisions changed (1)") < text.index("### New findings (1)") < text.index("### Findings (")


def test_stays_under_the_comment_limit():
    cat, result, _ = report_for()
    many = []
    for i in range(400):
        f = result.findings[i % len(result.findings)]
        many.append(Finding(f.check, f.family, f.severity, f.message * 3, f"{f.key}|{i}", f.rules, f.witness))
    _, _, rep = report_for(findings=many)
    text = markdown.render(rep, cat=cat)
    assert len(text) <= markdown.LIMIT
    assert "more findings not shown" in text
    shown = table_rows(text, "| | Check | Finding |")
    assert 20 < len(shown) < 400
    # the errors come first, and a bigger limit shows more
    assert all(r[0].endswith("error") for r in shown[:5])


def test_cli_markdown(tmp_path):
    out = tmp_path / "comment.md"
    r = sp("check", *CONVERSION, "-f", "markdown", "-o", str(out))
    assert r.returncode == 1 and r.stdout == ""
    assert len(table_rows(out.read_text(encoding="utf-8"), "| | 检查 | 问题 |")) == 3


def test_many_catalogue_files_are_named_by_their_directory():
    from skillproof.reports.util import catalogue_paths
    assert catalogue_paths(["a.toml", "b.toml"]) == (["a.toml", "b.toml"], "")
    many = ["model/catalogue/cards.toml"] + [f"model/catalogue/characters/c{i}.toml" for i in range(9)]
    assert catalogue_paths(many) == (["model/catalogue/"], " (10 files)")
    mixed = [f"x{i}.toml" for i in range(8)]                    # nothing shared: the first few and a count
    assert catalogue_paths(mixed) == (mixed[:6], ", … (8 files)")
    cat, result, rep = report_for()
    rep.catalogue_files = many
    assert "catalogue: <code>model/catalogue/</code> (10 files)</sub>" in markdown.render(rep, cat)
