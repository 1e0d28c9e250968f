"""`skillproof rules CODE` / `rules FAMILY` in the run's language (issue 13: one language per run).

Every check's page is declared twice, next to each other: the English (``summary``, ``why``, ``also_when``,
``todo``; the family's docstring) and the Chinese (``summary_zh`` …; the family module's ``DOC_ZH``). A code
without its Chinese fails here, so no check ships English-only. Under zh a page holds no English prose (the
checker of tests/langcheck_diff.py: codes, the keys of the catalogue format, check names and code spans are
not prose; tests/langcheck.py's checker agrees once the code spans are taken out), under en no CJK character
but the catalogue's names; the example catalogue is printed as written in both.
"""
from __future__ import annotations

import re

import pytest
from langcheck import english_prose
from langcheck_diff import cjk_lines, english_words

from skillproof.checks.registry import RUN_CODES, Code, families
from skillproof.cli import main
from skillproof.model import loader
from skillproof.reports.i18n import CODE_ZH, FAMILY_ZH, SEVERITY

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def every_code():
    """(family or None, code) for every code a run can report."""
    return [(f, c) for f in families() for c in f.codes] + [(None, c) for c in RUN_CODES.values()]


def missing_chinese(c) -> list[str]:
    """The parts of a code's page that have English but no Chinese (or a 'Chinese' without a CJK character)."""
    out = []
    for field in ("summary", "why", "also_when", "todo"):
        en, zh = getattr(c, field), getattr(c, field + "_zh")
        if (en or field in ("summary", "why")) and not _CJK.search(zh or ""):
            out.append(f"{c.code}.{field}_zh")
        if zh and not en:
            out.append(f"{c.code}.{field} (Chinese without English)")
    if c.code not in CODE_ZH:
        out.append(f"{c.code}: no title in reports/i18n.py CODE_ZH")
    return out


def test_every_code_and_family_has_its_chinese_page():
    assert [m for _f, c in every_code() for m in missing_chinese(c)] == []
    fams = families()
    assert [f.name for f in fams if not _CJK.search(f.doc_zh) or f.name not in FAMILY_ZH] == []
    # each family's Chinese page lists the same codes as its English docstring
    for f in fams:
        assert sorted(set(re.findall(r"\b[A-Z]{2}\d{3}\b", f.doc_zh))) == \
            sorted(set(re.findall(r"\b[A-Z]{2}\d{3}\b", f.doc))) == sorted(c.code for c in f.codes), f.name


def test_the_test_catches_a_code_without_chinese():
    bare = Code("ZZ001", "new-check", "warning", "finds something", "it matters", also=("note",),
                also_when="note when it is mild")
    assert missing_chinese(bare) == ["ZZ001.summary_zh", "ZZ001.why_zh", "ZZ001.also_when_zh",
                                     "ZZ001: no title in reports/i18n.py CODE_ZH"]
    half = Code("KD001", "x", "error", "finds", "matters", summary_zh="找到", why_zh="because it matters")
    assert missing_chinese(half) == ["KD001.why_zh"]


def sevs_zh(c) -> str:
    return "|".join(SEVERITY[s][0] for s in c.severities)


def page(capsys, key: str, lang: str) -> str:
    assert main(["rules", key, "--lang", lang]) == 0
    return capsys.readouterr().out


def without_example(text: str, c) -> str:
    """The page less its example catalogue (printed as written, indented by four spaces)."""
    if c is None or not c.example:
        return text
    block = "\n".join("    " + line for line in c.example.splitlines())
    assert block in text
    return text.replace(block, "")


@pytest.fixture(scope="module")
def cat():
    return loader.load()


def _keys():
    return [f.name for f in families()] + [c.code for _f, c in every_code()]


@pytest.mark.parametrize("key", _keys())
def test_a_page_is_in_one_language(capsys, cat, key):
    codes = {c.code: c for _f, c in every_code()}
    c = codes.get(key)
    fam_of = {x.code: f for f, x in every_code() if f is not None}
    zh, en = page(capsys, key, "zh"), page(capsys, key, "en")
    zh_text, en_text = without_example(zh, c), without_example(en, c)
    # the heading names the family as the command line does (`rules kinds`); the rest is checked without it
    head, body = zh_text.split("\n", 1)
    assert head == (f"# {key} — {FAMILY_ZH[key]}" if c is None else
                    f"# {c.code} {c.name}（{sevs_zh(c)}，" + (f"检查族 {fam_of[c.code].name}「"
                    f"{FAMILY_ZH[fam_of[c.code].name]}」）" if c.code in fam_of else "运行本身）"))
    body = re.sub(r"https://\S+", " ", body)                        # the docs page's address
    assert english_words(body, [cat]) == []
    spans = re.findall(r"`[^`\n]*`", body)                           # code spans: what the designer types
    assert english_prose(body, cat, allowed=spans + [x.name for _f, x in every_code()]) == []
    assert cjk_lines(en_text, [cat]) == []
    if c is not None:                       # the same code, severities and example; the same docs page
        assert zh.startswith(f"# {c.code} {c.name}（") and en.startswith(f"# {c.code} {c.name} (")
        assert "|".join(c.severities) in en.splitlines()[0]
        from skillproof.reports.ruledocs import help_uri
        if help_uri(c.code):                # a link only where the documentation is published (no dead link)
            assert zh.splitlines()[-1].endswith(help_uri(c.code)) and en.splitlines()[-1].endswith(help_uri(c.code))
        else:
            assert "https://" not in zh + en and "More:" not in en
        assert c.summary_zh in zh and c.why_zh in zh and (c.todo_zh in zh if c.todo else "怎么办" not in zh)
        assert ("What to do: " in en) == bool(c.todo)
        if c.also_when:
            assert c.also_when_zh in zh and f"默认为{SEVERITY[c.severity][0]}" in zh
            assert f"Severity: {c.severity} by default" in en
    else:
        f = next(x for x in families() if x.name == key)
        assert f.doc_zh in zh and f"# {key} — {FAMILY_ZH[key]}" in zh
        assert all(f"  {x.code}  {x.name}：{CODE_ZH[x.code]}" in zh for x in f.codes)
        assert en.startswith(f"# {key} — {f.title}") and all(f"  {x.code}  {x.name}: " in en for x in f.codes)


def test_the_english_page_keeps_its_words(capsys):
    en = page(capsys, "RC001", "en")
    assert en.splitlines()[:3] == ["# RC001 receive-must-and-cannot (warning|note, family receive)", "",
                                   "Severity: warning by default; note when the 'must' side is the game's own rule "
                                   "(the sender, or a locked player) rather than another skill."]
    assert "What it finds: a player must receive the message and cannot receive it at the same time." in en
    assert "Example catalogue that triggers it:" in en
    zh = page(capsys, "RC001", "zh")
    assert "查什么：一名玩家同时必须接收又不能接收情报。" in zh and "会触发它的目录示例：" in zh
    # the windows of the registry's English are named in English (as in the listing)
    assert "the fight phase" in page(capsys, "SK001", "en") and "争夺阶段" in page(capsys, "SK001", "zh")
    # a code of the run itself, with its what-to-do
    inc = page(capsys, "INC001", "zh")
    assert inc.startswith("# INC001 solver-inconclusive（错误，运行本身）") and "怎么办：提高 `--timeout`" in inc


def test_the_listing_no_longer_says_the_pages_are_english(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "英文" not in out and "`skillproof rules 编号`" in out


def test_write_docs_says_so_in_the_run_language(capsys, tmp_path):
    assert main(["rules", "--write-docs", str(tmp_path / "zh")]) == 0
    err = capsys.readouterr().err
    assert re.fullmatch(r"skillproof：\d+ 个说明页已写到 \S+\n", err)
    assert main(["rules", "--write-docs", str(tmp_path / "en"), "--lang", "en"]) == 0
    assert re.fullmatch(r"skillproof: \d+ pages written to \S+\n", capsys.readouterr().err)
    # the pages themselves are the English docs (SARIF's helpUri), whatever the language
    assert (tmp_path / "zh" / "CV002.md").read_text(encoding="utf-8") == \
        (tmp_path / "en" / "CV002.md").read_text(encoding="utf-8")
