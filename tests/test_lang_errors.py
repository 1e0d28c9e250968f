"""Errors follow the run's language too (issue 13, item 5): every error a user can see — the catalogue loader
and its cross-file pass, the condition language, the ask language, scenario files, the configuration and the
command line's own closing lines — is Chinese under ``--lang zh`` (the default) and English under
``--lang en``. Each error keeps both texts and is rendered when it is shown.

Chinese lines hold no English prose once the location, quoted text and what the user typed are taken out;
English lines hold no CJK outside quotes and the user's (or the catalogue's) names (tests/langcheck_err.py).
"""
from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langcheck_err import catalogue_words, cjk_prose, english_prose, typed_words

from skillproof.model import lang, loader
from skillproof.model.loader import CatalogueErrors

ROOT = Path(__file__).resolve().parent.parent
BASE = os.path.join(FIXTURES, "families", "base.toml")
BASE_TEXT = open(BASE, encoding="utf-8").read()


def both(errors, typed) -> tuple[list, list]:
    """(Chinese lines with English prose, English lines with CJK prose) of some located errors."""
    bad_zh, bad_en = [], []
    for e in errors:
        zh, en = e.render("zh"), e.render("en")
        if english_prose(zh, typed):
            bad_zh.append((zh, english_prose(zh, typed)))
        if cjk_prose(en, typed):
            bad_en.append((en, cjk_prose(en, typed)))
    return bad_zh, bad_en


def load_errors(texts: dict) -> list:
    try:
        loader.load(texts=texts)
    except CatalogueErrors as e:
        return e.errors
    return []


# ------------------------------------------------------------------------- every template, statically
#: the modules whose messages a user sees as errors
ERROR_MODULES = ["model/loader.py", "model/link.py", "model/expr.py", "model/names.py", "model/errtext.py",
                 "model/tomlsafe.py", "model/suppress.py", "model/kinds.py", "checks/scenario.py", "checks/intents.py",
                 "checks/suppress.py", "checks/ask/errors.py", "checks/ask/lexer.py", "checks/ask/names.py",
                 "checks/ask/parser.py", "checks/ask/parse_atoms.py", "checks/ask/parse_grants.py",
                 "checks/ask/parse_moments.py", "cli/config.py", "cli/cli.py", "cli/common.py"]


#: more modules whose error lines are written in both languages
MORE_MODULES = ["cli/cmd_check.py", "cli/cmd_baseline.py", "cli/cmd_ask.py", "cli/cmd_explain.py", "cli/cmd_rules.py",
                "cli/cmd_replay.py", "reports/baseline.py"]


def _templates():
    for mod in ERROR_MODULES + MORE_MODULES:
        tree = ast.parse((ROOT / mod).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Msg" \
                    and len(node.args) >= 2 and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                                    for a in node.args[:2]):
                yield mod, node.lineno, node.args[0].value, node.args[1].value


def _fill(t: str) -> str:
    """A template with its placeholders filled with a stand-in value ({{ and }} are literal braces)."""
    import re
    return re.sub(r"\{[^{}]*\}", "0", t.replace("{{", "\x00").replace("}}", "\x01")).replace("\x00", "{").replace("\x01", "}")


def test_every_message_template_is_in_its_language():
    found = list(_templates())
    assert len(found) > 300                                  # every error site of the modules, both languages
    bad = [(m, n, zh) for m, n, zh, _en in found if english_prose(_fill(zh))]
    bad += [(m, n, en) for m, n, _zh, en in found if cjk_prose(_fill(en))]
    assert bad == []
    same = [(m, n, zh) for m, n, zh, en in found if zh == en and any(c.isalpha() for c in _fill(zh))]
    assert same == []                                        # each sentence is said twice, not copied


_MESSAGE_CALLS = {"err": -1, "error": 0, "_err": 1, "fail": 0, "over": 0, "bad": 1, "ExprError": 0, "QueryError": 0,
                  "CatalogueError": 3, "ScenarioError": 3, "_problem": 3}


def test_no_error_is_made_of_one_language_only():
    """No error site of the modules passes an f-string or a sentence as its message: each is a Msg."""
    bad = []
    for mod in ERROR_MODULES:
        tree = ast.parse((ROOT / mod).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in _MESSAGE_CALLS or not node.args:
                continue
            idx = _MESSAGE_CALLS[name]
            if name == "err" and len(node.args) == 2:         # scenario: err(path, msg)
                idx = 1
            if not -len(node.args) <= idx < len(node.args):
                continue
            arg = node.args[idx]
            if isinstance(arg, ast.JoinedStr) or isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                    and " " in arg.value:
                bad.append(f"{mod}:{node.lineno}")
    assert bad == []


# --------------------------------------------------------------------------------- bad catalogues
from test_loader import KEYS, TABLES, TOML_VALUES  # noqa: E402  (the malformed-catalogue generators)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(TABLES, st.lists(st.tuples(KEYS, TOML_VALUES), max_size=5)), max_size=5))
def test_malformed_catalogues_are_reported_in_one_language(blocks):
    text = "\n".join(h + "\n" + "\n".join(f"{k} = {v}" for k, v in dict(kv).items()) for h, kv in blocks)
    errors = load_errors({"base.toml": BASE_TEXT, "fuzz.toml": text})
    typed = typed_words(BASE_TEXT + "\n" + text)
    assert both(errors, typed) == ([], [])


#: catalogues that reach the messages the generators above rarely do
SNIPPETS = [
    '[[character]]\nid = "X"\nname = "x"\nskills = ["Nope", "Nope"]\n',
    '[[skill]]\nid = "S"\nname = "s"\nkinds = ["ConvertCardSkill"]\nconvert = { from = "Jie_Hou", to = [], must = 1 }\n',
    '[[skill]]\nid = "S"\nname = "s"\nkinds = ["ActiveSkill"]\nfight = "hand_cont > 1 and self.alive == 3"\n'
    'windows = { main = "turnn", fihgt = "anyone" }\n',
    '[[skill]]\nid = "S"\nname = "s"\nkinds = ["ActiveSkill", "MainPhaseSkill"]\nfight = "true"\nlimit = "never"\n'
    'origin = "book"\nphases = ["main"]\n',
    '[[grant]]\nid = "G"\nname = "g"\nkinds = ["CannotPlayCard"]\nparams = { cards = "set<crd>", self = "int" }\n'
    'ban = { cards = "cards", all = "maybe" }\n',
    '[[grant]]\nid = "G2"\nname = "g2"\nkinds = ["CannotPlayCard"]\nlifetime = "forever"\n'
    'params = { A = "card" }\nban = { cards = 3 }\n',
    '[[skill]]\nid = "T"\nname = "t"\nkinds = ["TriggeredSkill"]\nfires = { at = ["turn_end", "mian"], when = "1" }\n'
    '[[skill.gives]]\ngrant = "Nothing"\nto = "evryone"\nper_turn = 0\nat = "draww"\non = "evnt"\n'
    '[[skill.gives]]\ngrant = "CannotPlayCard"\nargs = { card = "Jie_Huo", all_cards = 3, cardz = [] }\n',
    '[[skill]]\nid = "W"\nname = "w"\nkinds = ["WinSkill"]\n[[skill.win]]\neach = "self: alive"\npick = "q: alive"\n'
    'when = "in_winners and message_dir == up"\n',
    '[[skill]]\nid = "R"\nname = "r"\nkinds = ["ReceiveSkill"]\nreceive = { must = "count(p: p.alive) > red", '
    'cannot = "{red, 1} in message" }\n',
    '[[skill]]\nid = "D"\nname = "d"\nkinds = ["DrawCardSkill"]\ndraw = "if alive then 1 else true"\n',
    '[[skill]]\nid = "P"\nname = "p"\nkinds = ["ActiveSkill"]\nplays = { as = [], checks_bans = "yes", bans_of = "me" }\n',
    '[[skill]]\nid = "Q"\nname = "q"\nkinds = ["SendMessageDirectionSkill"]\nsend = { rule = "dir == sideways * 2" }\n',
    '[rules]\nseats = 12\nmin_seats = 0\ndraw_base = -1\nturn_end = ["drop_one_turn", "restore"]\n'
    'must_receive = ["sender", "sender", "nobody"]\n[rules]\n',
    '[[intent]]\nid = "Bad_Id"\nseverity = "fatal"\nintends = ["BN01", "BN002@NoSuch"]\nsource = ""\n',
    '[[card]]\nid = "Jie_Huo"\nname = "dup"\nphases = ["main"]\nwindows = { main = "turn" }\n',
    '# skillproof: ignore\n[[card]]\nid = "C2"\nname = "c2"\n# skillproof: ignore[bogus] r\n# skillproof: nonsense\n',
    'a = [[[[' + "[" * 70 + "\n",
    'x = 99999999999999999999999999999999999999999\n',
    'key = "unterminated\n',
    '[skill\n',
    '[[nonsense]]\nid = "N"\n[meta]\n',
]


@pytest.mark.parametrize("text", SNIPPETS)
def test_each_kind_of_catalogue_error_in_one_language(text):
    errors = load_errors({"base.toml": BASE_TEXT, "bad.toml": text})
    assert errors, text
    assert both(errors, typed_words(BASE_TEXT + "\n" + text)) == ([], [])
    for e in errors:
        assert e.render("zh") != e.render("en")


def test_mutated_shipped_catalogues_are_reported_in_one_language(tmp_path):
    import fuzzkit as F
    texts = F.shipped_texts()
    words = set()
    for t in texts.values():
        words |= typed_words(t)
    seen = 0
    for seed in range(24):
        mutated, what = F.mutate_catalogue(random.Random(seed), texts)
        d = F.write_catalogue(mutated, tmp_path / f"c{seed}")
        try:
            loader.load([d])
            continue
        except CatalogueErrors as e:
            errors = e.errors
            folded = e
        typed = set(words)
        for t in mutated.values():
            typed |= typed_words(t if isinstance(t, str) else t.decode("utf-8", "replace"))
        typed.add(str(d))
        assert both(errors, typed) == ([], []), what
        with lang.using("zh"):
            assert all(english_prose(x, typed) == [] for x in folded.folded_lines()), what
        seen += len(errors)
    assert seen


def test_hostile_conditions_are_reported_in_one_language():
    import fuzzkit as F
    rng = random.Random(7)
    for _ in range(40):
        expr = F.hostile_expression(rng)
        text = f'[[skill]]\nid = "H"\nname = "h"\nkinds = ["ActiveSkill"]\nfight = {F.toml_string(expr)}\n'
        errors = load_errors({"base.toml": BASE_TEXT, "h.toml": text})
        assert both(errors, typed_words(BASE_TEXT + text)) == ([], []), expr


def test_unreadable_files_in_one_language(tmp_path):
    (tmp_path / "a.toml").write_bytes(b'[[card]]\nid = "\xc4\xe3"\n')          # GBK, not UTF-8
    (tmp_path / "b.toml").write_text("\ufeff[[card]]\n", encoding="utf-8")
    (tmp_path / "d.toml").mkdir()
    big = tmp_path / "c.toml"
    big.write_text("# " + "x" * (2 * 1024 * 1024 + 10), encoding="utf-8")
    with pytest.raises(CatalogueErrors) as ei:
        loader.load([tmp_path, tmp_path / "missing.toml"])
    errors = ei.value.errors
    assert len(errors) >= 4
    assert both(errors, {str(tmp_path)}) == ([], [])


# ------------------------------------------------------------------------------ render time
def test_an_error_renders_in_the_language_it_is_shown_in():
    with lang.using("zh"):
        with pytest.raises(CatalogueErrors) as ei:
            loader.load(texts={"a.toml": '[[character]]\nid = "X"\nname = "x"\nskills = ["Nope"]\n'})
    e = ei.value
    with lang.using("en"):
        assert "[female] [[character]] is missing required key 'female'" in str(e)
        assert e.errors[0].message == "[[character]] is missing required key 'female'"
    with lang.using("zh"):
        assert "[female] [[character]] 缺少必需的键 'female'" in str(e)
    assert e.errors[0].render("en") == "a.toml:1: [female] [[character]] is missing required key 'female'"
    assert sorted(e.errors) == e.errors                      # sorted by the English text, as before


@pytest.mark.zh
def test_suggestions_are_said_in_chinese():
    errors = load_errors({"base.toml": BASE_TEXT, "b.toml": '[[skill]]\nid = "S"\nname = "s"\n'
                          'kinds = ["ConvertCardSkill"]\nconvert = { from = "A1", to = ["B"], must = false }\n'})
    msgs = [e.message for e in errors]
    assert any("——你是不是想写 'A'（甲）？" in m for m in msgs), msgs


# ------------------------------------------------------------------------------ scenario files
def test_mutated_scenarios_are_reported_in_one_language(tmp_path):
    import fuzzkit as F
    from skillproof.checks import scenario as SC
    cat = loader.load(None)
    names = catalogue_words(cat)
    seen = 0
    for seed in range(80):
        rng = random.Random(seed)
        text, what = F.mutate_scenario(rng, F.BASE_SCENARIOS[rng.randrange(len(F.BASE_SCENARIOS))])
        p = tmp_path / f"s{seed}.json"
        p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
        try:
            SC.load(str(p), cat)
            continue
        except SC.ScenarioErrors as e:
            errors = e.errors
        raw = text if isinstance(text, str) else text.decode("utf-8", "replace")
        typed = names | typed_words(raw) | {str(p)}
        assert both(errors, typed) == ([], []), what
        seen += len(errors)
    assert seen > 40


# --------------------------------------------------------------------------------- ask questions
BAD_QUESTIONS = [
    "can SP李宁玉 play 截火 as 误导", "can SP李宁 play 截获 as 误导", "can SP李宁玉 plya 截获 as 误导",
    "can SP李宁玉 play 截获 as 误导 under 变则通(C=截获)", "can SP李宁玉 play 截获 as 误导 under 变则通(A=true)",
    "can SP李宁玉 play 截获 as 误导 where hand_cont > 0", "can SP李宁玉 play 截获 as 误导 under 应变",
    "can SP李宁玉 play 应变 as 误导", "can 顾小梦 be skipped in 濒死阶", "", "   ",
    "can anyone play 截获 in the main phase in 争夺阶段", "can anyone play 截获 in the draw phase when someone is dying",
    "can anyone play 截获 in the previous turn", "can anyone play 截获 after 应变", "can anyone play 截获 after 应变x",
    "can anyone be skipped in the main phase", "can anyone play 截获 in the mian phase",
    "can anyone play 截获 in 陈大尔's turn", "can anyone must receive in the main phase", "can anyone draw 3 at the send",
    "顾" * 2001, "can anyone draw 1000001 cards", "which foo", "can anyone convert 截获 误导", "can anyone fire 截获",
    "can anyone fire 博爱", "can anyone send direction by 应变", "can anyone send sideways", "can anyone draw at foo 3",
    "can anyone draw x", "can anyone hold 不能出牌(cards={截获 误导})", "can anyone play 截获 under 变则通(截获, 误导, 破译)",
    "can anyone 截获 foo", "can anyone 应变", "can anyone", "can anyone foo", "can anyone play 截获 )",
    "can anyone (play 截获", "can anyone " + "not " * 70 + "invalidated", "can anyone play 截获 where",
    "can anyone play 截获 where hand_count >", "can anyone play 截获 where 1 + true", "can anyone play 截获 where 截获.alive",
    "can anyone use 咱们工人有知识", "can anyone play 截获 with 截获", "can anyone play 截获 under 不能出牌 from 应变",
    "can anyone play 截获 after 截获", "can anyone play 截获 under 截获", "can anyone play 截获 which",
    "which 变则通 declarations always let anyone play 截获", "can anyone play 截获 under 不能出牌(cards={截获}, x=1)",
    "which send rule for sideways", "which foo bar", "can anyone hold 3 cards under 变则通 5 cards",
    "can anyone play 截获 as 误导 under 不能出牌(cards={截获, 误导", "can anyone play 截获 where hand_count > 0 and (",
    "能否 截火 当作 误导", "SP李宁玉能把截获当作误导发动吗", "can anyone play 截获 where unknown_attr",
]


@pytest.fixture(scope="module")
def shipped():
    return loader.load(None)


def _question_words(text: str) -> set:
    import re
    return set(re.findall(r"[A-Za-z0-9_\u3400-\u9fff·]+", text))


def _ask_errors(cat, questions):
    from skillproof.checks import ask as Q
    names = Q.Names(cat)
    out = []
    for text in questions:
        try:
            Q.parse(cat, text, names)
        except Q.QueryError as e:
            out.append((text, e))
    return out


def test_bad_questions_are_answered_in_one_language(shipped):
    names = catalogue_words(shipped)
    errors = _ask_errors(shipped, BAD_QUESTIONS)
    assert len(errors) >= len(BAD_QUESTIONS) - 3            # nearly every one is an error
    assert len({e.text.render("en") for _t, e in errors}) >= 40     # of many kinds
    for text, e in errors:
        # the nearest accepted phrasing is a question, quoted as the designer would type it: its words are typed
        typed = names | _question_words(text) | _question_words(e.nearest or "")
        zh, en = e.line(text, "zh"), e.line(text, "en")
        assert english_prose(zh, typed) == [], zh
        assert cjk_prose(en, typed) == [], en
        assert zh != en


def test_random_questions_with_typos_in_one_language(shipped):
    from test_ask_random import question
    rng = random.Random(11)
    names = catalogue_words(shipped)
    errors = _ask_errors(shipped, [question(rng) for _ in range(150)])
    assert errors
    for text, e in errors:
        typed = names | _question_words(text) | _question_words(e.nearest or "")
        assert english_prose(e.line(text, "zh"), typed) == [], e.line(text, "zh")
        assert cjk_prose(e.line(text, "en"), typed) == [], e.line(text, "en")


def test_a_claim_that_does_not_parse_is_an_error_in_the_run_language():
    from skillproof.checks import intents as IT
    cat = loader.load(texts={"base.toml": BASE_TEXT, "i.toml": '[[intent]]\nid = "x"\nsource = "s"\n'
                             'claim = "never anyone hold Shou_Gui"\n'})
    probs = IT.problems(cat)
    assert len(probs) == 1
    assert probs[0].render("en").startswith("i.toml:4: [claim] column 19: unknown skill")
    assert probs[0].render("zh").startswith("i.toml:4: [claim] 第 19 列：未知的技能 'Shou_Gui'")


# ------------------------------------------------------------------------------ configuration
CONFIG_VALUES = st.one_of(st.integers(-2, 3), st.booleans(), st.floats(-1, 2, allow_nan=False),
                          st.sampled_from(["", "x", "warn", "htm", "sarif", "conversoin", "en", "fr"]),
                          st.lists(st.sampled_from(["", "a", "sarif", "sarf:x", "conversion", "BN01"]), max_size=3))
CONFIG_KEYS = st.sampled_from(["paths", "select", "ignore", "fail-on", "fail_on", "baseline", "timeout", "rlimit",
                               "max-seats", "max-seat", "jobs", "format", "output-format", "lang", "bogus"])


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(CONFIG_KEYS, CONFIG_VALUES, max_size=6))
def test_configuration_errors_in_one_language(table):
    from skillproof.config import KEYS, validate
    _values, problems = validate(table, "skillproof.toml", lambda *k: 1)
    typed = set(KEYS) | {k for k in table} | {str(v) for v in table.values()} | \
        {x for v in table.values() if isinstance(v, list) for x in v}
    assert both(problems, typed) == ([], [])


# ------------------------------------------------------------------------------ the command line
def sp(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "skillproof", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, PYTHONIOENCODING="utf-8"))


def test_the_issue_example_in_each_language(tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "a.toml").write_text('[[character]]\nid = "X"\nname="x"\nskills=["Nope"]\n', encoding="utf-8")
    zh = sp("check", str(bad), cwd=tmp_path)
    assert zh.returncode == 2
    assert zh.stderr.splitlines() == [
        "错误：bad/a.toml:1: [female] [[character]] 缺少必需的键 'female'",
        "错误：bad/a.toml:1: [hidden] [[character]] 缺少必需的键 'hidden'",
        "错误：bad/a.toml:4: [skills] 未知的技能 'Nope'（在 x 的 'skills' 中）",
        "目录中有 3 个错误；什么也没有检查"]
    en = sp("check", str(bad), "--lang", "en", cwd=tmp_path)
    assert en.stderr.splitlines() == [
        "error: bad/a.toml:1: [female] [[character]] is missing required key 'female'",
        "error: bad/a.toml:1: [hidden] [[character]] is missing required key 'hidden'",
        "error: bad/a.toml:4: [skills] unknown skill 'Nope' for x",
        "3 errors in the catalogue; nothing was checked"]


def test_folded_errors_and_suggestions_in_each_language(tmp_path):
    (tmp_path / "cards.toml").write_text('[[card]]\nid = "Jie_Huo"\nname = "截获"\n[[card]]\nid = "Wu_Dao"\n'
                                         'name = "误导"\n[[card]]\nid = "Po_Yi"\nname = "破译\n', encoding="utf-8")
    (tmp_path / "s.toml").write_text('[[skill]]\nid = "S"\nname = "s"\nkinds = ["ConvertCardSkill"]\n'
                                     'convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }\n'
                                     '[[character]]\nid = "c"\nname = "c"\nhidden = false\nfemale = false\n'
                                     'skills = ["S", "Ying_Bian"]\n', encoding="utf-8")
    zh = sp("check", str(tmp_path), cwd=tmp_path).stderr.splitlines()
    en = sp("check", str(tmp_path), "--lang", "en", cwd=tmp_path).stderr.splitlines()
    assert zh[0] == "错误：cards.toml:9: TOML 语法错误：非法字符 '\\n'（第 9 行第 11 列）——多半是字符串没有在本行结束（少了右引号）"
    assert en[0] == ("error: cards.toml:9: TOML syntax error: Illegal character '\\n' (at line 9, column 11) — most likely a "
                     "string not closed on its line (a missing closing quote)")
    assert "（另有 2 个错误未列出：它们都因为 cards.toml 读不了而产生）" in zh
    assert "(2 further errors hidden: they follow from cards.toml not being readable)" in en
    assert zh[-1] == "目录中有 2 个错误；什么也没有检查" and en[-1] == "2 errors in the catalogue; nothing was checked"
    typed = {"Ying_Bian", "cards.toml", "s.toml"}
    assert all(english_prose(x, typed) == [] for x in zh), zh
    assert all(cjk_prose(x, typed) == [] for x in en), en


def test_a_misspelt_skill_gets_its_suggestion_in_each_language(tmp_path):
    (tmp_path / "c.toml").write_text('[[character]]\nid = "c"\nname = "c"\nhidden = false\nfemale = false\n'
                                     'skills = ["YingBain"]\n', encoding="utf-8")
    zh = sp("check", str(loader.shipped_path()), str(tmp_path / "c.toml"), cwd=tmp_path).stderr
    en = sp("check", str(loader.shipped_path()), str(tmp_path / "c.toml"), "--lang", "en", cwd=tmp_path).stderr
    assert "未知的技能 'YingBain'（在 c 的 'skills' 中）——你是不是想写 'YingBian'（应变）？" in zh
    assert "unknown skill 'YingBain' for c — did you mean YingBian (应变)?" in en


def test_configuration_errors_follow_the_flag_then_the_file(tmp_path):
    (tmp_path / "skillproof.toml").write_text('fail_on = "warning"\n', encoding="utf-8")
    zh = sp("check", cwd=tmp_path).stderr.splitlines()
    assert zh == ["错误：skillproof.toml:1: [fail_on] 未知的键 'fail_on'——你是不是想写 'fail-on'？",
                  "配置中有 1 个错误；什么也没有运行（--no-config 可以忽略配置）"]
    en = sp("check", "--lang", "en", cwd=tmp_path).stderr.splitlines()
    assert en == ["error: skillproof.toml:1: [fail_on] unknown key 'fail_on' — did you mean 'fail-on'?",
                  "1 error in the configuration; nothing was run (--no-config ignores it)"]
    # the file's own lang speaks for its errors when the flag does not
    (tmp_path / "skillproof.toml").write_text('lang = "en"\nfail_on = "warning"\n', encoding="utf-8")
    assert sp("check", cwd=tmp_path).stderr.startswith("error: skillproof.toml:2: [fail_on] unknown key")
    assert sp("check", "--lang=zh", cwd=tmp_path).stderr.startswith("错误：skillproof.toml:2: [fail_on] 未知的键")
    # and for a bad catalogue, once the file is good
    (tmp_path / "skillproof.toml").write_text('lang = "en"\npaths = ["bad.toml"]\n', encoding="utf-8")
    (tmp_path / "bad.toml").write_text('[[card]]\nid = "X"\n', encoding="utf-8")
    r = sp("check", cwd=tmp_path)
    assert r.stderr.splitlines() == ["error: bad.toml:1: [name] [[card]] is missing required key 'name'",
                                     "1 error in the catalogue; nothing was checked"]


def test_usage_errors_in_each_language():
    zh = sp("check", "--fail-on", "sometimes").stderr
    assert "skillproof check：错误：参数 --fail-on 的值 'sometimes' 无效（可选：" in zh
    assert "（运行 'skillproof check --help' 查看帮助）" in zh
    en = sp("check", "--fail-on", "sometimes", "--lang", "en").stderr
    assert "skillproof check: error: argument --fail-on: invalid choice: 'sometimes'" in en


def test_ask_errors_in_each_language_and_json_keeps_english(tmp_path):
    zh = sp("ask", "can SP李宁玉 play 截火 as 误导")
    assert zh.returncode == 2
    assert zh.stderr == ("错误：query:1:16: 未知的牌 '截火'——你是不是想写 '截获'？；最接近的可接受说法：「can SP李宁玉 "
                         "play 截获 as 误导」（位置：'截火'）\n")
    en = sp("ask", "can SP李宁玉 play 截火 as 误导", "--lang", "en")
    assert en.stderr == ("error: query:1:16: unknown card '截火' — did you mean 截获?; nearest accepted phrasing: "
                         "`can SP李宁玉 play 截获 as 误导` (at '截火')\n")
    j = json.loads(sp("ask", "--json", "can SP李宁玉 play 截火 as 误导").stdout)
    assert j == {"answer": None, "error": "unknown card '截火' — did you mean 截获?; nearest accepted phrasing: "
                 "`can SP李宁玉 play 截获 as 误导`", "error_zh": "未知的牌 '截火'——你是不是想写 '截获'？；最接近的可接受说法：「can "
                 "SP李宁玉 play 截获 as 误导」", "column": 16, "nearest": "can SP李宁玉 play 截获 as 误导"}


def test_a_bad_intent_claim_stops_the_run_located(tmp_path):
    (tmp_path / "i.toml").write_text('[[intent]]\nid = "x"\nsource = "s"\nclaim = "never anyone hold 守归"\n',
                                     encoding="utf-8")
    r = sp("check", str(loader.shipped_path()), "i.toml", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.splitlines()[0].startswith("错误：i.toml:4: [claim] 第 19 列：未知的技能 '守归'")
    assert r.stderr.splitlines()[-1] == "目录中有 1 个错误；什么也没有检查"


def test_replay_errors_in_each_language(tmp_path):
    p = tmp_path / "s.json"
    p.write_text('{"state": {"seats": [{"character": "chen_da_err"}]}, "question": {"decision": "draw"}}',
                 encoding="utf-8")
    zh = sp("replay", str(p)).stderr
    en = sp("replay", str(p), "--lang", "en").stderr
    assert "[state.seats[0].character] 未知的角色 'chen_da_err'——你是不是想写 'chen_da_er'？" in zh
    assert "[state.seats[0].character] unknown character 'chen_da_err' — did you mean 'chen_da_er'?" in en
