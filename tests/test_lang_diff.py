"""One language per run for `diff`, `catalogue` and `rules` (issue 13, item 5).

A diff of the shipped catalogue with several kinds of change — a skill added to a role and a new character
(possible only in NEW, and no longer possible), a draw rule removed (a changed decision and a skill of another
kind), a gives site that reaches further (a resolved finding), a card usable in one more window, a changed
[rules] key (an engine rule) — rendered under zh holds no English prose, no internal id and no Python repr in any
human format, and under en no CJK character but the catalogue's own texts. JSON does not depend on the language
(each run in a process of its own: within one process the solver's history may pick other witnesses).
The checker itself (tests/langcheck_diff.py) is tested to catch what it must.
"""
from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET

import pytest
from langcheck_diff import cjk_lines, english_words, internal_ids, python_reprs
from reportkit import sp

from skillproof.model import loader

NEWCHAR = '\n[[character]]\nid = "xin_ren"\nname = "新人"\nhidden = true\nfemale = true\nskills = ["QiHuoKeJu"]\n'
EDITS = [  # (file, text, replacement; None: appended)
    ("characters/mao_bu_ba.toml", 'skills = ["QiHuoKeJu"]', 'skills = ["QiHuoKeJu", "YingBian"]'),
    ("characters/mao_bu_ba.toml", None, NEWCHAR),
    ("characters/huo_che_si_ji.toml",
     'kinds = ["ChangeDrawCardCountSkill", "TriggeredSkill"]\ninitial = true\ndraw = "count + true_messages"\n',
     'kinds = ["TriggeredSkill"]\ninitial = true\n'),
    ("characters/wang_tian_xiang.toml", 'grant = "CannotPlayCard"\nto = "others"',
     'grant = "CannotPlayCard"\nto = "target"'),
    ("cards.toml", 'name = "试探"\nwindows = { main = "turn" }', 'name = "试探"\nwindows = { main = "turn", fight = "anyone" }'),
    ("rules.toml", "draw_base = 3", "draw_base = 2"),
]
FORMATS = {"text": "txt", "markdown": "md", "html": "html", "github": "gh", "junit": "xml", "gitlab": "gl",
           "sarif": "sarif", "json": "json"}


@pytest.fixture(scope="module")
def diffed(tmp_path_factory):
    root = tmp_path_factory.mktemp("langdiff")
    shutil.copytree(loader.shipped_path(), root / "old")
    shutil.copytree(loader.shipped_path(), root / "new")
    for f, a, b in EDITS:
        p = root / "new" / f
        text = p.read_text(encoding="utf-8")
        assert a is None or a in text, (f, a)
        p.write_text(text + b if a is None else text.replace(a, b, 1), encoding="utf-8")
    out = {}
    for lang in ("zh", "en"):
        args = ["diff", str(root / "old"), str(root / "new"), "-q", "--lang", lang, "--format", "json",
                "--output", str(root / f"{lang}.json")]
        for fmt, ext in FORMATS.items():
            if fmt != "json":
                args += ["--output-format", f"{fmt}:{root / f'{lang}.{ext}'}"]
        assert sp(*args).returncode == 1          # each language in a process of its own: witnesses are the same
        out[lang] = {fmt: (root / f"{lang}.{ext}").read_text(encoding="utf-8") for fmt, ext in FORMATS.items()}
    return out, (loader.load([str(root / "old")]), loader.load([str(root / "new")]))


def human(fmt: str, text: str) -> str:
    """What people read of a report: SARIF / GitLab messages, JUnit messages, failure texts and the names of
    the diff's cases; the HTML without its conflict graph (node tips name rules by id on purpose)."""
    if fmt == "sarif":
        return "\n".join(r["message"]["text"] for run in json.loads(text)["runs"] for r in run["results"])
    if fmt == "gitlab":
        return "\n".join(i["description"] + "\n" + i["content"]["body"] for i in json.loads(text))
    if fmt == "junit":
        parts = []
        for c in ET.fromstring(text.encode("utf-8")).iter("testcase"):
            if c.get("classname", "").startswith("skillproof.diff"):
                parts.append(c.get("name", ""))
            for el in c:
                parts += [el.get("message") or "", el.text or ""]
        return "\n".join(parts)
    if fmt == "html":
        return re.sub(r"(?s)<svg.*?</svg>", "", text)
    return text


def test_the_diff_has_every_kind_of_change(diffed):
    out, _cats = diffed
    d = json.loads(out["zh"]["json"])["diff"]
    kinds = {(c["decision"], c.get("side")) for c in d["decision_changes"]}
    assert {("engine", None), ("draw", None), ("possible", "new"), ("possible", "old")} <= kinds
    reasons = {c["witness"]["other"]["kind"] for c in d["decision_changes"] if c["decision"] == "possible"}
    assert reasons >= {"unreadable", "illegal", "differs"}
    assert d["resolved"] and {r["change"] for r in d["changed_rules"]} >= {"changed", "added"}


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "json"])
def test_zh_holds_no_english_and_en_no_chinese(diffed, fmt):
    out, cats = diffed
    zh, en = human(fmt, out["zh"][fmt]), human(fmt, out["en"][fmt])
    assert english_words(zh, cats) == [], fmt
    assert cjk_lines(en, cats) == [], fmt
    for text in (zh, en):
        assert internal_ids(text, cats) == [] and python_reprs(text) == [], fmt


def test_json_does_not_depend_on_the_language(diffed):
    out, _cats = diffed
    zh, en = json.loads(out["zh"]["json"]), json.loads(out["en"]["json"])
    assert zh == en
    for c in zh["diff"]["decision_changes"]:
        if c["decision"] not in ("possible", "engine"):
            continue                                      # told from its question, in each language
        assert re.search(r"[\u4e00-\u9fff]", c["message"]) and c["message_en"] and c["message_en"] != c["message"]
        if c["decision"] == "possible":
            other = c["witness"]["other"]
            assert other["text"] in c["old" if c["side"] == "new" else "new"] and other["text_en"]
            assert len(c["witness"]["steps"]) == len(c["witness"]["steps_en"])


def test_resolved_findings_are_told_with_the_old_catalogue(diffed):
    out, _cats = diffed
    res = json.loads(out["zh"]["json"])["diff"]["resolved"]
    assert res and all(set(r["witness_lines"]) == {"zh", "en"} for r in res if r.get("witness"))
    assert "{&quot;" not in out["zh"]["html"]            # no witness falls back to raw JSON


def test_a_change_whose_old_reading_differs_says_so_in_each_language(diffed):
    from skillproof.model import lang
    from skillproof.reports.util import change_witness
    out, (_old, new) = diffed
    ch = next(c for c in json.loads(out["zh"]["json"])["diff"]["decision_changes"] if c["decision"] == "draw")
    ch["witness"]["old_trace"] = ch["witness"]["trace"]
    with lang.using("zh"):
        zh = change_witness(ch, new)
    with lang.using("en"):
        en = change_witness(ch, new)
    assert "（旧版读这个局面时牌桌不同；它的经过在 JSON 报告里）" in zh
    assert "(OLD reads this situation with another table; its trace is in the JSON report)" in en


def test_inconclusive_diff_questions_keep_their_id_and_say_it_in_both_languages():
    from skillproof.cmd_diff import inconclusive_findings
    old_style, = inconclusive_findings(["site X#0: possible only in NEW: timeout"])
    f, = inconclusive_findings([("site X#0: possible only in NEW: timeout", "给出点【甲】→【乙】是否只在新版中可能：超时",
                                 "is a situation with the gives site 甲 → 乙 possible only in NEW: timeout")])
    assert f.id == old_style.id                           # ids are made from the key, as before
    assert f.message == "无法判定：给出点【甲】→【乙】是否只在新版中可能：超时"
    assert f.message_en.startswith("cannot decide: is a situation with") and f.fix and f.fix_en


# ------------------------------------------------------------------------------------- other commands
def test_catalogue_and_rules_follow_the_language():
    cat = loader.load(None)
    from skillproof.checks.registry import families
    fams = [f.name for f in families()]
    zh, en = sp("catalogue").stdout, sp("catalogue", "--lang", "en").stdout
    assert english_words(zh, [cat]) == [] and cjk_lines(en, [cat]) == []
    zh, en = sp("rules").stdout, sp("rules", "--lang", "en").stdout
    assert english_words(zh, [cat], allowed=fams) == [] and cjk_lines(en, [cat]) == []


# ------------------------------------------------------------------------------------- the checker itself
def test_the_checker_catches_english_ids_reprs_and_chinese():
    cat = loader.load(None)
    assert english_words("旧版：不可能：under OLD, 开局时的牌桌", [cat]) == ["under", "OLD"]
    assert english_words("座位0：应变不是毛不拔的技能（new/characters/mao_bu_ba.toml:7，改动）[CV002-0123456789]",
                         [cat]) == []
    assert english_words("参数不满足给出点的参数条件（where）；引擎规则 draw_base：3 → 2；--timeout 20 s", [cat]) == []
    assert english_words("技能：TriggeredSkill", [cat]) == ["TriggeredSkill"]
    assert english_words("把【禁闭】的 initial 改为 true", [cat]) == [] and english_words("kinds are different") != []
    assert python_reprs("No decision changed. None.") == [] and python_reprs("via = None") == ["None"]
    assert python_reprs("所有牌=True，牌=()") == ["True", "()"] and python_reprs("{'ok': True}")[0] == "{'"
    assert internal_ids("【变则通】→【变则通·宣言】 BianZeTong#0 毛不拔 (mao_bu_ba)", [cat]) == ["BianZeTong#0", "mao_bu_ba"]
    assert cjk_lines("the player plays 毛不拔 (skills: 奇货可居)\nold: 可能", [cat]) == ["old: 可能"]
    assert english_words("<p>改动的规则：<code>OptAB</code></p><button title=\"zoom in\">fit</button>") == ["OptAB", "fit", "zoom"]
