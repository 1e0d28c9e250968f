"""The interactive prompt of `skillproof ask`, driven through a pseudo-terminal (pexpect)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

EXE = str(Path(sys.executable).with_name("skillproof"))
ENV = dict(os.environ, TERM="xterm", LANG="C.UTF-8", LC_ALL="C.UTF-8", NO_COLOR="1", PROMPT_TOOLKIT_NO_CPR="1")


def spawn(tmp_path, *extra):
    c = pexpect.spawn(EXE, ["ask", "--lang", "en", "--brief", "--history", str(tmp_path / "history"), *extra], env=ENV,
                      encoding="utf-8", timeout=60, dimensions=(50, 220), cwd=str(tmp_path))
    c.expect("skillproof ask")
    c.expect("ask>")
    return c


def leave(c):
    c.sendline(":quit")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0


def test_prompt_answers_completes_and_remembers(tmp_path):
    c = spawn(tmp_path)
    # Tab completes a character name from its first characters
    c.send("can 顾小")
    c.send("\t")
    c.expect("顾小梦")
    c.send(" be skipped in 濒死求澄清 while she holds cards?\r")
    c.expect("yes —")
    c.expect("ask>")
    assert "seat 0:" not in c.before                # --brief: the answer and its reasons, no witness
    # a misspelt name: a caret under it and the nearest name, and the prompt carries on
    c.sendline("can SP李宁玉 play 截火 as 误导")
    c.expect(r"\^\^\^\^")
    c.expect(["did you mean 截获", "你是不是想写 '截获'"])      # the run's language: Chinese by default
    c.expect("ask>")
    # the solver stays warm: a 'no' with its reasons
    c.sendline("if 变则通 declares 截获→破译, can SP李宁玉 use 应变?")
    c.expect("no —")
    c.expect("vetoed")
    c.expect("ask>")
    c.sendline(f":save {tmp_path / 'w.json'}")
    c.expect("scenario written to")
    c.expect("ask>")
    leave(c)
    hist = (tmp_path / "history").read_text(encoding="utf-8")
    assert "+can 顾小梦 be skipped in 濒死求澄清 while she holds cards?" in hist
    d = json.loads((tmp_path / "w.json").read_text(encoding="utf-8"))
    assert d["expect"] == {"ok": False, "via": None}
    r = subprocess.run([EXE, "replay", "--lang", "en", str(tmp_path / "w.json")], capture_output=True, text=True, env=ENV)
    assert r.returncode == 0 and "as expected" in r.stdout


def test_prompt_history_recalls_the_last_question(tmp_path):
    c = spawn(tmp_path)
    c.sendline("can anyone play 截获 as 误导")
    c.expect("yes —")
    c.expect("ask>")
    leave(c)
    c = spawn(tmp_path)
    c.send("\x1b[A")                         # ↑: the previous session's question
    c.expect("can anyone play 截获 as 误导")
    c.send("\r")
    c.expect("yes —")
    c.expect("ask>")
    c.sendline(":json")
    c.expect("JSON output on")
    c.expect("ask>")
    c.sendline("can anyone play 截获 as 误导")
    c.expect('"answer": "yes"')
    c.expect("ask>")
    c.sendeof()
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0


def test_piped_questions_one_per_line(tmp_path):
    lines = "can anyone play 截获 as 误导\n# a comment\ncan SP李宁玉 play 截获 as 误导 under 变则通(A=截获, B=破译)\n"
    r = subprocess.run([EXE, "ask", "--lang", "en", "--brief"], input=lines, capture_output=True, text=True, env=ENV, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\nyes —") + r.stdout.startswith("yes —") == 1 and "\nno —" in r.stdout
    r = subprocess.run([EXE, "ask"], input="can anyone plya 截获\n", capture_output=True, text=True, env=ENV)
    assert r.returncode == 2 and "query:1:12:" in r.stderr and "Traceback" not in r.stderr
