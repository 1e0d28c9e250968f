"""Every command names its catalogue the same way (issue 26, point 6): `-c/--catalogue PATH` (repeatable) on every
command that reads one, `PATH …` too where the command takes no other free words (`ask`'s words are the question:
`ask -c PATH` stays as it was), and the configuration's `paths` when neither is given — a path on the command line
overrides the configuration's. And `extract --help` says one thing about the language of its report."""
from __future__ import annotations

import json
import os

import pytest

from reportkit import FAM, SYNTHETIC, sp

COMMANDS = ["check", "baseline", "catalogue", "explain", "replay", "ask"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_dash_c(command):
    from skillproof.cli import build_parser
    from skillproof.model import lang
    with lang.using("en"):
        sub = build_parser()._commands[command]
    opts = {o: a for a in sub._actions for o in a.option_strings}
    assert "-c" in opts and "--catalogue" in opts and opts["-c"] is opts["--catalogue"]
    assert opts["-c"].dest == "catalogue" and opts["-c"].default == []
    positional = [a.dest for a in sub._actions if not a.option_strings]
    assert ("paths" in positional) == (command != "ask")


def test_the_same_catalogue_however_it_is_named(tmp_path):
    syn = str(SYNTHETIC)
    summary = lambda *a, **k: json.loads(sp("catalogue", *a, "--format", "json", **k).stdout)["characters"]  # noqa
    want = summary(syn)
    assert summary("--catalogue", syn) == want
    # the configuration's paths, overridden by the command line
    (tmp_path / "skillproof.toml").write_text(f'paths = ["{syn}"]\n', encoding="utf-8")
    assert summary(cwd=tmp_path) == want
    other = os.path.join(FAM, "base.toml")
    mine = summary("-c", other, cwd=tmp_path)
    assert mine != want and mine == summary(other, cwd=tmp_path)
    # ask: -c as before, and --catalogue; the configuration's paths too
    q = "how many cards does 阿尔法 draw"
    a = sp("ask", "-c", syn, q, "--json")
    c = sp("ask", q, "--json", cwd=tmp_path)
    assert a.returncode == c.returncode == 0, a.stderr + c.stderr
    assert json.loads(a.stdout)["answer"] == json.loads(c.stdout)["answer"]
    # check alike
    r1 = json.loads(sp("check", "-c", syn, "-f", "json", "--fail-on", "none", "--select", "conversion").stdout)
    r2 = json.loads(sp("check", syn, "-f", "json", "--fail-on", "none", "--select", "conversion").stdout)
    assert [f["id"] for f in r1["findings"]] == [f["id"] for f in r2["findings"]] and r1["findings"]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_extract_help_says_the_report_follows_the_language(language):
    text = sp("extract", "--help", "--lang", language).stdout
    flat = " ".join(text.split())
    if language == "en":
        assert "the report is in English" not in flat
        assert "--lang is the language of what is written to the terminal and of DIR/extraction-report.md" in flat
        assert "the language of what is written to the terminal and of extraction-report.md" in flat
    else:
        assert "报告是英文的" not in flat and "extraction-report.md 不随它变化" not in flat
        assert "终端上输出的内容和 extraction-report.md 的语言" in flat
