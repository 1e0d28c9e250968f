"""One language per run for the command line's own words (issue 13): the `--help` of skillproof and of every
command — argparse's own words (usage, section titles, -h, --version), descriptions, epilogs, option help and
metavars — the usage errors that name what the help names, and the messages of the `ask` prompt.

Chinese (the default, or ``--lang zh``) help holds no English word but the names of things one types: commands,
flags, the values of choices, check families, file names and formats (JSON, SARIF, TOML …), example command
lines and quoted literals. ``--lang en`` help holds no CJK outside the catalogue's own names. Chinese help is
measured in terminal columns: the help column is aligned and lines keep to the terminal's width.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from langcheck import english_prose, foreign_in_english
from langcheck_err import cjk_prose
from langcheck_err import english_prose as error_english

from skillproof.cli import COMMANDS, LANG_COMMANDS, build_parser, main
from skillproof.helpfmt import METAVARS, width, wrap
from skillproof.model import lang
from skillproof.model.loader import load

COLUMNS = 80
#: proper names a Chinese text writes as they are
PROPER = {"JSON", "SARIF", "TOML", "Markdown", "Kotlin", "Python", "git", "tree-sitter", "Schema", "Tab"}


@pytest.fixture(scope="module")
def cat():
    return load(None)


def _codes() -> set[str]:
    """What one types: the commands, every choice of every option, the check families."""
    from skillproof.checks.registry import families
    out = set(COMMANDS) | {f.name for f in families()}
    p = build_parser()
    for sp in [p, *p._commands.values()]:
        for a in sp._actions:
            out.update(str(c) for c in (a.choices or ()) if isinstance(c, str))
    return out


CODES = _codes()


def stray_english(text: str) -> list[str]:
    """English words of a Chinese help once what one types is taken out (see the module's text)."""
    text = re.sub(r"(?m)^\s+skillproof\b.*$", " ", text)                     # example command lines
    for rx in (r"`[^`\n]*`", r"'[^'\n]*'", r'"[^"\n]*"', r"\{[^{}\n]*\}", r"\[\[?[\w.]+\]\]?",
               r"[\w./-]+\.(?:toml|json|md|sarif)\b"):
        text = re.sub(rx, " ", text)
    for w in sorted(CODES | PROPER, key=len, reverse=True):
        text = re.sub(r"(?<![A-Za-z-])" + re.escape(w) + r"(?![A-Za-z-])", " ", text)
    return english_prose(text)


def help_of(argv, capsys, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", str(COLUMNS))
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 0, argv
    out = capsys.readouterr()
    assert out.err == ""
    return out.out


CASES = [[]] + [[c] for c in COMMANDS]


@pytest.mark.parametrize("cmd", CASES, ids=["skillproof"] + COMMANDS)
def test_help_is_chinese_by_default(cmd, capsys, monkeypatch):
    zh = help_of([*cmd, "--help"], capsys, monkeypatch)
    assert zh == help_of(["--lang", "zh", *cmd, "-h"], capsys, monkeypatch)
    assert zh.startswith("用法：skillproof") and "\n选项：\n" in zh and "显示本帮助并退出" in zh
    assert "退出码" in zh
    for en in ("usage:", "options:", "positional arguments", "show this help", "exit code"):
        assert en not in zh
    assert stray_english(zh) == []


@pytest.mark.parametrize("cmd", CASES, ids=["skillproof"] + COMMANDS)
def test_help_is_english_with_lang_en(cmd, capsys, monkeypatch, cat):
    en = help_of(["--lang", "en", *cmd, "--help"], capsys, monkeypatch)
    assert en == help_of([*cmd, "--help", "--lang", "en"], capsys, monkeypatch)
    assert en.startswith("usage: skillproof") and "\noptions:\n" in en and "show this help message and exit" in en
    assert "exit code" in en.lower()
    assert foreign_in_english(en, cat) == []


def test_top_level_help_names_every_command_and_the_version_action(capsys, monkeypatch):
    zh = help_of(["--help"], capsys, monkeypatch)
    en = help_of(["--lang", "en", "--help"], capsys, monkeypatch)
    assert "--version       显示版本号并退出" in zh and "show program's version number and exit" in en
    assert "位置参数：\n  命令\n" in zh and "positional arguments:\n  COMMAND\n" in en
    for c in COMMANDS:
        assert re.search(rf"(?m)^    {c} +\S", zh) and re.search(rf"(?m)^    {c} +\S", en), c


def test_every_command_says_its_help_in_both_languages():
    import importlib
    for name in COMMANDS:
        mod = importlib.import_module(f"skillproof.cmd_{name}")
        assert mod.HELP_ZH and mod.HELP_ZH != mod.HELP, name
        if hasattr(mod, "DESCRIPTION"):
            assert mod.DESCRIPTION_ZH and mod.DESCRIPTION_ZH != mod.DESCRIPTION, name
    assert "extract" in LANG_COMMANDS


@pytest.mark.parametrize("cmd", CASES, ids=["skillproof"] + COMMANDS)
def test_chinese_help_is_aligned_in_terminal_columns(cmd, capsys, monkeypatch):
    text = help_of([*cmd, "--help"], capsys, monkeypatch)
    lines = text.splitlines()
    # the usage: continuation lines start under the first argument, each line within the width unless it is
    # one part too long to break (a long list of choices, as argparse does in English too)
    usage = lines[:lines.index("")]
    prog = "skillproof" + (f" {cmd[0]}" if cmd else "")
    assert usage[0].startswith(f"用法：{prog} ")
    for ln in usage[1:]:
        assert ln.startswith(" " * (width(f"用法：{prog}") + 1)) and not ln[width(f"用法：{prog}") + 1] == " ", ln
        assert width(ln) <= COLUMNS - 2 or " [" not in ln.strip(), ln
    # the argument sections: the help column is one column, in terminal columns
    rows, inside = [], False
    for ln in lines:
        if ln in ("位置参数：", "选项："):
            inside = True
        elif not ln:
            inside = False
        elif inside:
            rows.append(ln)
    indents = {len(ln) - len(ln.lstrip()) for ln in rows if len(ln) - len(ln.lstrip()) > 4}
    assert len(indents) == 1, indents
    column = indents.pop()
    for ln in rows:
        m = re.match(r"^(\s+\S.*?\S)\s{2,}(\S.*)$", ln)
        if m and len(ln) - len(ln.lstrip()) <= 4:
            assert width(ln[:m.start(2)]) == column, ln
        if len(ln) - len(ln.lstrip()) == column or m:
            assert width(ln) <= COLUMNS - 2, ln


def test_wrap_breaks_between_chinese_characters_never_inside_a_word():
    text = "把报告写到这个文件，而不是标准输出；例如 --output-format sarif:skillproof.sarif 也可以。" * 3
    lines = wrap(text, 24)
    assert all(width(ln) <= 24 for ln in lines if " " in ln or not ln.isascii()) and len(lines) > 4
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert not any(ln[0] in "，。；）" for ln in lines)
    assert all("--output-format" in ln for ln in lines if "--output" in ln)          # an ASCII word stays whole
    assert wrap("a  b\n c", 80) == ["a b c"] and wrap("", 10) == []


def test_metavars_are_one_word_per_placeholder_in_each_language(capsys, monkeypatch):
    zh = "".join(help_of([*c, "--help"], capsys, monkeypatch) for c in CASES)
    en = "".join(help_of(["--lang", "en", *c, "--help"], capsys, monkeypatch) for c in CASES)
    for english, chinese in METAVARS.items():
        if english in ("N", "G"):
            continue
        assert re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", en), english
        assert chinese in zh, chinese
    assert "--timeout 秒数" in zh and "--timeout SECONDS" in en and "[路径 ...]" in zh and "[PATH ...]" in en


def _usage_error(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


def test_usage_errors_name_what_the_help_names(capsys):
    zh = _usage_error(["diff"], capsys)
    assert zh.startswith("用法：skillproof diff") and "缺少必需的参数：旧版, 新版" in zh
    assert "（运行 'skillproof diff --help' 查看帮助）" in zh and error_english(zh.splitlines()[-2], ["diff"]) == []
    en = _usage_error(["diff", "--lang", "en"], capsys)
    assert en.startswith("usage: skillproof diff") and "the following arguments are required: OLD, NEW" in en
    zh = _usage_error(["replay"], capsys)
    assert "缺少必需的参数：文件" in zh
    zh = _usage_error(["extract"], capsys)
    assert "缺少必需的参数：--kotlin" in zh
    zh = _usage_error(["chek"], capsys)
    assert "参数 命令 的值 'chek' 无效" in zh
    en = _usage_error(["--lang", "en", "chek"], capsys)
    assert "argument COMMAND: invalid choice: 'chek'" in en


def test_lang_before_the_command_sets_the_run_and_beats_the_configuration(tmp_path):
    (tmp_path / "skillproof.toml").write_text('lang = "zh"\n', encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    run = lambda *a: subprocess.run([sys.executable, "-m", "skillproof", *a], capture_output=True, text=True,  # noqa: E731
                                    cwd=tmp_path, env=env, timeout=120)
    r = run("catalogue")
    assert r.returncode == 0 and r.stdout.startswith("目录：")          # the file's language
    r = run("--lang", "en", "catalogue")
    assert r.returncode == 0 and r.stdout.startswith("catalogue: ")     # the flag, before the command
    r = run("catalogue", "--lang", "en")
    assert r.returncode == 0 and r.stdout.startswith("catalogue: ")
    r = run("--lang", "en", "schema")
    assert r.returncode == 0 and r.stdout.lstrip().startswith("{")
    r = run("--lang", "fr", "schema")
    assert r.returncode == 2 and "参数 --lang 的值 'fr' 无效" in r.stderr


# ------------------------------------------------------------------------------------------ the ask prompt
EXE = str(Path(sys.executable).with_name("skillproof"))


def _prompt(lang_args, lines: str, tmp_path) -> str:
    r = subprocess.run([EXE, "ask", "--brief", *lang_args], input=lines, capture_output=True, text=True,
                       timeout=300, cwd=tmp_path, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert "Traceback" not in r.stderr, r.stderr
    return r.stdout


PROMPT_INPUT = (":save\n:save w.json\n:seats 99\n:grants x\n:timeout -1\n:bogus\n:seats 2\n:timeout 3\n:grants 1\n"
                "can anyone play 截获 as 误导\n:save no-such-dir/w.json\n:brief\n:json\n")


def test_prompt_messages_in_chinese(tmp_path):
    out = _prompt([], PROMPT_INPUT, tmp_path).splitlines()
    errors = [ln for ln in out if ln.startswith("错误：")]
    assert errors[:6] == ["错误：':save' 需要一个文件名（':save 文件'）", "错误：还没有可保存的回答",
                          "错误：':seats' 需要一个 1 到 9 之间的整数", "错误：':grants' 需要一个 0 到 8 之间的整数",
                          "错误：':timeout' 需要一个正的秒数", "错误：未知的命令 ':bogus'（试试 ':help'）"]
    assert len(errors) == 7 and errors[6].startswith("错误：写不了 no-such-dir/w.json：")
    assert all(error_english(ln) == [] for ln in errors), errors
    assert {"座位数 = 2", "时限 = 3 秒", "获得的技能数 = 1", "简短回答关", "JSON 输出开"} <= set(out)
    assert not [ln for ln in out if re.match(r"(error|seats|timeout|grants|brief)\b", ln)]


def test_prompt_messages_in_english(tmp_path):
    out = _prompt(["--lang", "en"], PROMPT_INPUT, tmp_path).splitlines()
    errors = [ln for ln in out if ln.startswith("error: ")]
    assert errors[:6] == ["error: ':save' needs a file name (':save FILE')", "error: no answer to save yet",
                          "error: ':seats' needs a whole number from 1 to 9",
                          "error: ':grants' needs a whole number from 0 to 8",
                          "error: ':timeout' needs a positive number of seconds",
                          "error: unknown command ':bogus' (try ':help')"]
    assert len(errors) == 7 and errors[6].startswith("error: cannot write no-such-dir/w.json: ")
    assert all(cjk_prose(ln) == [] for ln in errors), errors
    assert {"seats = 2", "timeout = 3 s", "grants = 1", "brief answers off", "JSON output on"} <= set(out)


def test_completion_labels_in_the_run_language(cat):
    from skillproof.cmd_ask import _completion_words
    names = sorted({n for t in (cat.cards, cat.characters, cat.skills) for x in t.values() for n in (x.name, x.id)},
                   key=len, reverse=True)

    def labels():
        out = set()
        for _w, meta in _completion_words(SimpleNamespace(cat=cat)):
            for n in names:
                meta = meta.replace(n, "")
            out.add(meta.strip())
        return out
    with lang.using("zh"):
        zh = labels()
    with lang.using("en"):
        en = labels()
    assert zh == {"", "牌", "角色", "技能", "给出的技能", "时机", "关键词"}
    assert en == {"", "card", "character", "skill", "grant", "window", "keyword"}


def test_a_command_builds_only_its_own_parser_and_the_top_level_help_still_lists_every_command():
    """`skillproof check …` imports no other command's module (cli.command_to_run: check's start is its speed
    target, README "Performance"); the top-level --help, before or without a command, still lists every command
    with its help, and a mistyped command is still offered every choice."""
    code = ("import sys\nfrom skillproof.cli import main\n"
            "try:\n    main(sys.argv[1:])\nfinally:\n"
            "    print(sorted(m for m in sys.modules if m.startswith('skillproof.cmd_')))\n")
    env = dict(os.environ, PYTHONHASHSEED="0")

    def go(*argv):
        r = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env)
        return r.stdout, r.stderr

    out, _ = go("--lang", "en", "check", "--help")
    assert out.rstrip().splitlines()[-1] == "['skillproof.cmd_check']"
    for argv in (("--lang", "en", "--help"), ("--lang", "en", "--help", "check")):
        out, _ = go(*argv)
        for name in COMMANDS:
            assert re.search(rf"^\s+{name}\s+\S", out, re.M), (argv, name)
    _, err = go("--lang", "en", "chek")
    assert all(name in err for name in COMMANDS)
