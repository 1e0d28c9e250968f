"""`skillproof extract` in one language per run (issue 13): it takes --lang like the other commands, and what it
writes to the terminal — the report's lines, the summary, notes, errors, the differences of --compare — is
Chinese by default and English with --lang en (model/extract/terminal.py). The TOML catalogue and
extraction-report.md follows the run's language too, the TOML it writes does not.

The fixture servers (tests/fixtures/kotlin: invented, in the shapes of the real one) are the input, as in
tests/test_extract.py.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from langcheck_err import catalogue_words, cjk_prose
from langcheck_err import english_prose as error_english

from skillproof.cli import main
from skillproof.model import lang
from skillproof.model.extract import ExtractError, compare, extract
from skillproof.model.extract import terminal as T
from skillproof.model.loader import load

FIX = Path(__file__).parent / "fixtures" / "kotlin"
SERVER = FIX / "server"

#: code the Chinese sentences carry as it is: values and keys of the catalogue format, names of the server's
#: code (an identifier in camelCase, snake_case or dotted is code by its shape), the tools
CODE = {"unknown", "fight", "id", "skills", "from", "any", "must", "false", "true", "when", "to", "target", "cards",
        "consumed", "name", "vararg", "Skill", "Config", "Kotlin", "pip", "install", "tree", "sitter", "kotlin",
        "female", "all", "self", "others", "hand", "free", "card", "missing"}
_IDENT = re.compile(r"\b(?:\w+(?:\.\w+)+|\w*[a-z][A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|\w+_\w+)\b")


def chinese_leaks(line: str, typed=()) -> list[str]:
    """English prose in a Chinese line of extract's output, once what the input names (ids, paths), code and
    the catalogue format's words are out."""
    line = re.sub(r"`[^`\n]*`|\[\[?[\w.…]+\]\]?|[\w./-]+\.(?:toml|json|md|kt)(?::\d+)?", " ", line)  # code, tables, files
    for w in sorted({t for t in typed if t}, key=len, reverse=True):
        line = re.sub(r"(?<![A-Za-z0-9_.])" + re.escape(w) + r"(?![A-Za-z0-9_.])", " ", line)
    return error_english(_IDENT.sub(" ", line), CODE)


def typed_of(*cats) -> set[str]:
    """What catalogues name: ids, names and aliases, and the parameters of grants."""
    out: set[str] = set()
    for cat in cats:
        out |= catalogue_words(cat) | {p for r in cat.skills.values() for p in getattr(r, "params", {}) or {}}
    return out


@pytest.fixture(scope="module")
def ex():
    return extract(SERVER)


@pytest.fixture(scope="module")
def shipped():
    return load(None)


def _edited(ex) -> dict:
    f = dict(ex.files)

    def edit(name, old, new):
        assert f[name].count(old) == 1, old
        f[name] = f[name].replace(old, new)
    edit("characters.toml", 'skills = ["Fuse", "Echo", "Mute", "Lock", "Shed"]', 'skills = ["Echo", "Fuse", "Mute", "Lock", "Shed"]')
    edit("characters.toml", 'skills = ["Signal", "Blockade"]', 'skills = ["Signal"]')
    edit("characters.toml", 'name = "甲"', 'name = "甲甲"')
    edit("skills.toml", 'convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }',
         'convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = true }')
    edit("skills.toml", 'kinds = ["SendMessageCanLockSkill"]', 'kinds = ["SendMessageDirectionSkill"]')
    edit("skills.toml", '[[skill.gives]]\ngrant = "Fuse2"\nto = "self"\nwhen = "unknown"\n', '')
    f["skills.toml"] = re.sub(r'(?m)^do = \[.*"Fuse2".*\]\n', '', f["skills.toml"])    # its effect hands it out
    edit("skills.toml", 'args = { banned = ["Diao_Bao"], everything = false }', 'args = { banned = ["Jie_Huo"], everything = false }')
    edit("skills.toml", '[[skill.gives]]\ngrant = "Deaf"\nto = "target"', '[[skill.gives]]\ngrant = "Deaf"\nto = "others"')
    edit("grants.toml", 'params = { banned = "set<card>", everything = "bool" }',
         'params = { banned = "set<card>", everything = "bool", extra = "card" }')
    f["more.toml"] = '[[skill]]\nid = "Ghost"\nname = "鬼"\nkinds = ["TriggeredSkill"]\n'
    return f


# ------------------------------------------------------------------------------------------ the tables
def test_every_chinese_sentence_of_the_tables_is_chinese():
    for table in (T.ITEMS, T.ENGINE, T.DIFFERENCES, T.ERRORS):
        for pat, zh in table:
            if callable(zh):
                continue
            filled = re.sub(r"\{\w+\}", "0", zh)
            assert re.search(r"[\u4e00-\u9fff]", filled) and chinese_leaks(filled) == [], (pat, zh)


def test_every_report_line_of_the_fixture_servers_is_translated(tmp_path):
    root = tmp_path / "checkout" / "src" / "main" / "kotlin"
    shutil.copytree(SERVER, root)
    (root / "Broken.kt").write_text("class Broken { fun f( = }\n", encoding="utf-8")
    extractions = [extract(src) for src in (SERVER, FIX / "oldforms", tmp_path / "checkout")]
    items = [i for e in extractions for i in e.report]
    assert {"engine", "when", "args", "role", "site", "to", "parse", "unused", "params", "receive"} <= {i.kind for i in items}
    untranslated = [i.message for i in items if T.translated(i.message, T.ITEMS) is None]
    assert untranslated == []
    with lang.using("zh"):
        lines = [T.item_line(i) for i in items]
    assert not [ln for ln in lines if "「" in ln and "通不过检查" not in ln]        # no nested sentence left English
    words = {i.subject for i in items} | typed_of(*(e.catalogue for e in extractions))
    assert [(ln, chinese_leaks(ln.split("] ", 1)[1], words)) for ln in lines
            if chinese_leaks(ln.split("] ", 1)[1], words)] == []


def test_every_difference_is_translated(ex, shipped):
    hand = load(texts=_edited(ex))
    diffs = compare(ex.catalogue, hand) + compare(ex.catalogue, shipped)
    kinds = {d.kind for d in diffs}
    assert {"card", "character", "order", "skills", "convert", "kinds", "gives", "rule", "params"} <= kinds
    assert [d.message for d in diffs if T.translated(d.message, T.DIFFERENCES) is None] == []
    assert all(k in T.DIFFERENCE_KINDS for k in kinds)
    words = typed_of(ex.catalogue, hand, shipped)
    with lang.using("zh"):
        lines = [T.difference_line(d) for d in diffs]
    assert [(ln, chinese_leaks(ln, words)) for ln in lines if chinese_leaks(ln, words)] == []
    with lang.using("en"):
        assert [T.difference_line(d) for d in diffs] == [str(d) for d in diffs]
    params = next(d for d in diffs if d.kind == "params")                   # as the catalogue writes it, no repr
    assert "{'" not in params.message and 'extra = "card"' in params.message


@pytest.mark.parametrize("where, zh, en", [
    ("missing", "没有这个文件夹：", "no such directory: "),
    ("norole", "下没有角色表：", "no role table under "),
    ("empty", "下没有 Kotlin 文件（*.kt）", "no Kotlin files (*.kt) under "),
])
def test_bad_input_in_the_run_language(tmp_path, where, zh, en):
    path = {"missing": tmp_path / "nope", "norole": FIX / "norole", "empty": tmp_path}[where]
    with pytest.raises(ExtractError) as e:
        extract(path)
    with lang.using("zh"):
        assert zh in str(e.value) and chinese_leaks(str(e.value), [str(path)]) == []
    with lang.using("en"):
        assert en in str(e.value)


# ------------------------------------------------------------------------------------- the command line
def _run(argv, capsys):
    rc = main(["extract", *argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return rc, out.out, out.err


def test_output_in_chinese_by_default_and_english_with_lang_en(tmp_path, capsys, ex):
    rc, out, zh = _run(["--kotlin", str(SERVER), "--output", str(tmp_path / "zh")], capsys)
    assert rc == 0 and out == ""
    assert "从 " in zh and " 个 Kotlin 文件提取了 7 个角色、15 个技能、7 个给出的技能、8 个给出点、5 张牌" in zh
    assert "未定项（按种类）：" in zh and f"和 extraction-report.md 写进 {tmp_path / 'zh'}" in zh
    assert "[fight] Ledger：" in zh and "[提示：unused] Orphan：" in zh
    words = catalogue_words(ex.catalogue) | {i.subject for i in ex.report} | {i.kind for i in ex.report} | \
        {str(tmp_path / "zh"), str(tmp_path / "en")}
    report = [ln for ln in zh.splitlines() if re.match(r"\S+: \[", ln)]
    assert len(report) == len(ex.report)
    others = [ln for ln in zh.splitlines() if ln not in report]
    assert [ln for ln in others if chinese_leaks(ln, words)] == []
    rc, out, en = _run(["--kotlin", str(SERVER), "--output", str(tmp_path / "en"), "--lang", "en"], capsys)
    assert rc == 0 and "extracted 7 characters, 15 skills, 7 grants" in en and "undecided by kind:" in en
    assert [ln for ln in en.splitlines() if cjk_prose(ln, words)] == []
    # the catalogue is the same whatever the language; the report is in the run's language
    for name in ("rules.toml", "cards.toml", "characters.toml", "skills.toml", "grants.toml"):
        a, b = ((tmp_path / d / name).read_text(encoding="utf-8") for d in ("zh", "en"))
        assert a == b, name
    rep_zh = (tmp_path / "zh" / "extraction-report.md").read_text(encoding="utf-8")
    rep_en = (tmp_path / "en" / "extraction-report.md").read_text(encoding="utf-8")
    assert rep_en.startswith("# Extraction report") and rep_zh.startswith("# 提取报告")
    assert rep_en.count("\n- `") == rep_zh.count("\n- `") == len(ex.report)        # every item, in each
    assert "「" not in rep_zh                                          # every sentence known to the table
    prose = [ln for ln in rep_zh.splitlines() if not ln.startswith(("- `", "### ", "| "))]
    assert [ln for ln in prose if chinese_leaks(ln, words)] == []


def test_compare_in_both_languages(tmp_path, capsys):
    out_dir = tmp_path / "same"
    assert _run(["--kotlin", str(SERVER), "--output", str(out_dir), "-q"], capsys)[0] == 0
    rc, out, err = _run(["--kotlin", str(SERVER), "--compare", str(out_dir), "-q"], capsys)
    assert rc == 0 and out == f"服务器与 {out_dir} 之间没有不同\n" and err.count("\n") == 1
    chars = out_dir / "characters.toml"
    chars.write_text(chars.read_text(encoding="utf-8").replace('name = "甲"', 'name = "甲甲"'), encoding="utf-8")
    rc, out, _ = _run(["--kotlin", str(SERVER), "--compare", str(out_dir), "-q"], capsys)
    lines = out.splitlines()
    assert rc == 1 and len(lines) == 2 and lines[1] == f"服务器与 {out_dir} 之间有 1 处不同"
    assert re.fullmatch(rf"角色：alpha：name：服务器 '甲'，手写 '甲甲'  （{re.escape(str(chars))}:\d+）", lines[0])
    rc, out, _ = _run(["--kotlin", str(SERVER), "--compare", str(out_dir), "-q", "--lang", "en"], capsys)
    assert rc == 1 and "character: alpha: name: server '甲', hand '甲甲'" in out and "1 difference between" in out
    rc, out, _ = _run(["--kotlin", str(SERVER), "--compare", "-q"], capsys)
    assert rc == 1 and "之间有" in out.splitlines()[-1] and "服务器与随附的目录之间有" in out
    assert "（手写目录中只在规则书里的条目不比较：" in out


@pytest.mark.parametrize("args, zh, en", [
    (["--kotlin", "MISSING"], "没有这个文件夹：", "no such directory"),
    (["--kotlin", str(FIX / "norole")], "下没有角色表：", "no role table"),
    (["--kotlin", "EMPTY"], "下没有 Kotlin 文件", "no Kotlin files"),
    (["--kotlin", str(SERVER), "--output", "AFILE"], "已存在，且不是文件夹", "exists and is not a directory"),
])
def test_errors_in_both_languages(tmp_path, capsys, args, zh, en):
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    subst = {"MISSING": str(tmp_path / "missing"), "EMPTY": str(tmp_path / "empty"), "AFILE": str(tmp_path / "afile")}
    argv = [subst.get(a, a) for a in args]
    rc, out, err = _run(argv, capsys)
    assert rc == 2 and out == "" and err.startswith("skillproof extract：错误：") and zh in err and err.count("\n") == 1
    assert chinese_leaks(err, [*argv, "extract"]) == []
    rc, out, err = _run([*argv, "--lang", "en"], capsys)
    assert rc == 2 and err.startswith("skillproof extract: error: ") and en in err


def test_degraded_extraction_says_so_in_the_run_language(tmp_path, capsys):
    rc, _out, err = _run(["--kotlin", str(SERVER), "-q", "--undecided-baseline", "0"], capsys)
    assert rc == 2 and "skillproof extract：错误：提取降级：" in err and "个未定项，比基准的 0 个多" in err
    rc, _out, err = _run(["--kotlin", str(SERVER), "-q", "--undecided-baseline", "0", "--allow-degraded",
                          "--lang", "en"], capsys)
    assert rc == 0 and "skillproof extract: warning: the extraction is degraded: " in err
