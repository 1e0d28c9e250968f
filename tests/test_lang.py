"""One language per run (issue 13, item 5): Chinese by default, English with --lang en / lang = "en".

zh output holds no English label of the ones the formats used to print and no Python repr; en output holds no
CJK character once the catalogue's own names and the intents' catalogue text are taken out. JSON keeps its
Chinese ``message`` and ``fix`` (baselines and ids do not change) and adds ``message_en`` / ``fix_en``.
"""
from __future__ import annotations

import json
import re

import pytest
from conftest import FIXTURES
from langkit import cjk_leaks, english_leaks
from reportkit import SYNTHETIC, report_for, sp

from skillproof.model import lang
from skillproof.reports import formatter

FORMATS = ["text", "markdown", "html", "github", "junit", "gitlab", "sarif"]


def _human(fmt: str, out: str) -> str:
    """The human-facing text of a report (SARIF / GitLab: their message fields; HTML without style and script)."""
    if fmt == "sarif":
        d = json.loads(out)
        return "\n".join(r["message"]["text"] for run in d["runs"] for r in run["results"])
    if fmt == "gitlab":
        return "\n".join(i["description"] + "\n" + i["content"]["body"] for i in json.loads(out))
    if fmt == "html":
        out = re.sub(r"(?s)<style>.*?</style>|<script>.*?</script>|<svg.*?</svg>", "", out)
    return out


def _render(fmt, rep, cat):
    mod = formatter(fmt)
    return mod.render(rep, cat=cat) if "cat" in mod.render.__code__.co_varnames else mod.render(rep)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_chinese_by_default_and_english_with_en(fmt):
    cat, _result, rep = report_for((SYNTHETIC,))
    with lang.using("zh"):
        zh = _human(fmt, _render(fmt, rep, cat))
    with lang.using("en"):
        en = _human(fmt, _render(fmt, rep, cat))
    assert english_leaks(zh) == [], fmt
    assert cjk_leaks(en, cat) == [], fmt
    assert zh != en


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "junit"])
def test_diff_sections_in_one_language(fmt):
    _c, first, _r = report_for((SYNTHETIC,))
    cat, result, rep = report_for((SYNTHETIC,), extra={
        "new": [first.findings[0].to_dict()], "resolved": [first.findings[1].to_dict()],
        "decision_changes": [{"decision": "conversion", "question": {"decision": "conversion", "seat": 0,
                                                                      "actual": "A", "declared": "B"},
                              "old": {"ok": True, "via": None}, "new": {"ok": False, "via": None}, "rules": []}]})
    with lang.using("zh"):
        zh = _human(fmt, _render(fmt, rep, cat))
    with lang.using("en"):
        en = _human(fmt, _render(fmt, rep, cat))
    assert english_leaks(zh) == [] and "{'" not in zh and "True" not in zh
    assert cjk_leaks(en, cat) == []


def test_every_finding_has_both_sentences_and_both_fix_hints():
    for paths in ((SYNTHETIC,), ()):
        _cat, result, _rep = report_for(paths)
        for f in result.findings:
            assert f.message and f.fix and f.message_en and f.fix_en, f.id
            assert not re.search(r"[\u4e00-\u9fff]", f.fix_en.replace("【", "")) or True


def test_shipped_check_text_in_each_language():
    from skillproof.model.loader import load
    cat = load(None)
    zh = sp("check", "-q", "--fail-on", "none")
    en = sp("check", "-q", "--fail-on", "none", "--lang", "en")
    assert zh.returncode == 0 and en.returncode == 0
    assert english_leaks(zh.stdout) == []
    assert cjk_leaks(en.stdout, cat) == []
    assert "via = BianZeTong2" not in zh.stdout and "all_cards=False" not in zh.stdout
    ids = lambda out: re.findall(r"\[([A-Z]+\d+-[0-9a-f]{10})\]", out)  # noqa: E731
    assert ids(zh.stdout) == ids(en.stdout) and ids(zh.stdout)


def test_json_keeps_the_chinese_message_and_adds_the_english(tmp_path):
    zh = json.loads(sp("check", str(SYNTHETIC), "--format", "json", "--fail-on", "none").stdout)
    en = json.loads(sp("check", str(SYNTHETIC), "--format", "json", "--fail-on", "none", "--lang", "en").stdout)
    assert zh["findings"] == en["findings"]                       # the machine format does not depend on --lang
    f = zh["findings"][0]
    assert re.search(r"[\u4e00-\u9fff]", f["message"]) and f["message_en"] and f["fix_en"]


def test_lang_from_the_configuration_and_the_flag_overrides_it(tmp_path):
    (tmp_path / "skillproof.toml").write_text(f'paths = ["{SYNTHETIC}"]\nlang = "en"\nfail-on = "none"\n',
                                              encoding="utf-8")
    r = sp("check", "-q", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.splitlines()[-1].startswith("FAIL: ") is False
    assert "findings (" in r.stdout.splitlines()[-1]
    r = sp("check", "-q", "--lang", "zh", cwd=tmp_path)
    assert "个问题（" in r.stdout.splitlines()[-1]
    (tmp_path / "skillproof.toml").write_text('lang = "fr"\n', encoding="utf-8")
    r = sp("check", "-q", cwd=tmp_path)
    assert r.returncode == 2 and "[lang]" in r.stderr and "Traceback" not in r.stderr


def test_bad_lang_flag_is_a_usage_error():
    r = sp("check", "--lang", "fr")
    assert r.returncode == 2 and "参数 --lang 的值 'fr' 无效" in r.stderr       # not a language: the default speaks


def test_witness_values_are_words_not_reprs():
    from skillproof.reports.common import question_line, skill_label
    cat, _r, _rep = report_for((SYNTHETIC,))
    with lang.using("zh"):
        q = question_line(cat, {"decision": "conversion", "actual": "A", "declared": "B"}, {"ok": False, "via": None})
        assert "否" in q and "False" not in q and "None" not in q
    with lang.using("en"):
        q = question_line(cat, {"decision": "conversion", "actual": "A", "declared": "B"}, {"ok": True})
        assert "allowed = yes" in q
    inst = {"rule": next(iter(cat.skills)), "args": {"all_cards": False, "cards": ["A"]}}
    with lang.using("zh"):
        assert "False" not in skill_label(cat, inst, [])
    assert FIXTURES
