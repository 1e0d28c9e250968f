"""What `skillproof check` leaves on a terminal (issue 26, point 2): one progress line that fits the terminal's
width and is erased when the run ends, nothing above the report; the text report leads with the catalogue it
checked and the summary, and puts the proved intents in one line unless `--show proved` asks for them.

The terminal is a real pseudo-terminal (pexpect) of a given size, read through a terminal emulator (pyte):
what a person would see, wrapping included."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pyte
import pytest

from skillproof.cmd_check import Progress, display_width

EXE = os.path.join(os.path.dirname(sys.executable), "skillproof")
# the progress line is drawn while the checks run: never a result read from the cache (cli/cache.py)
ENV = {**os.environ, "SKILLPROOF_PROGRESS_AFTER": "0", "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1",
       "SKILLPROOF_NO_CACHE": "1"}


def on_terminal(args, cols, rows=50):
    """Run skillproof in a terminal of ``cols`` x ``rows``: (raw output, the screen at the end, exit status)."""
    c = pexpect.spawn(EXE, args, env=ENV, encoding="utf-8", timeout=300, dimensions=(rows, cols))
    c.expect(pexpect.EOF)
    raw = c.before
    c.close()
    screen = pyte.Screen(cols, rows)
    stream = pyte.Stream(screen)
    stream.feed(raw.replace("\n", "\r\n").replace("\r\r\n", "\r\n"))
    return raw, [line.rstrip() for line in screen.display], c.exitstatus


def progress_draws(raw: str) -> list[str]:
    """Every progress line drawn (each starts with carriage return and erase-line)."""
    return [seg.split("\r")[0].split("\n")[0] for seg in raw.split("\r\x1b[K")[1:] if seg.startswith("skillproof [")]


@pytest.mark.parametrize("cols", [40, 72])
def test_the_progress_line_fits_the_terminal_and_is_erased(tmp_path, cols):
    raw, screen, status = on_terminal(["check", "-f", "json", "-o", str(tmp_path / "r.json")], cols)
    assert status == 0
    draws = progress_draws(raw)
    assert len(draws) >= 2, raw[-800:]
    assert max(display_width(d) for d in draws) <= cols - 1, [d for d in draws if display_width(d) > cols - 1]
    # intents are proved one after the other: the line names the one at hand, not all of them
    assert all(d.count("intent") <= 1 and d.count("-") < 12 for d in draws)
    # when the run ends the line is gone: the only text left is the closing line (after the report)
    left = "".join(line for line in screen if line)          # (a narrow terminal wraps that line)
    assert re.fullmatch(r"skillproof：向求解器提了 \d+ 个问题，用时 ?[\d.]+ 秒", left), left


def test_nothing_above_the_report(tmp_path):
    raw, screen, status = on_terminal(["check"], 200, rows=400)
    assert status == 0 and progress_draws(raw)
    shown = [line for line in screen if line]
    assert shown[0].startswith("skillproof check：") and "model/catalogue/" in shown[0], shown[:3]
    assert shown[1].startswith("通过：") and "个问题" in shown[1]
    assert not any("░" in line or "█" in line for line in shown)
    assert shown[-1].startswith("skillproof：向求解器提了") and shown[-2] == shown[1]     # the summary, then the time


@pytest.mark.zh
def test_the_line_is_cut_to_any_width():
    p = Progress(False)
    p({"total": 11})
    p({"family": "unreachable"})
    p({"family": "conversion"})
    p({"family": "intent"})
    p({"family": "intent youdishenru-spares-the-mystery-player"})
    p({"questions": 123})
    for width in (20, 30, 45, 60, 79, 200):
        line = p.line(width)
        assert display_width(line) <= width, (width, line)
        assert line.startswith("skillproof" if width >= 30 else "skillproof"[:5])
    wide = p.line(200)
    assert "youdishenru-spares-the-mystery-player" in wide and "123 个问题" in wide
    assert "123 个问题" in p.line(60) and "秒" in p.line(60)          # the middle is cut first
    assert "意图" not in p.line(60) or "…" in p.line(60)
    p({"done": "intent"})
    assert "youdishenru" not in p.line(200)


def test_no_progress_when_not_a_terminal():
    from reportkit import sp
    r = sp("check", env={"SKILLPROOF_PROGRESS_AFTER": "0", "SKILLPROOF_NO_CACHE": "1"})
    assert r.returncode == 0 and "█" not in r.stderr and "\r" not in r.stderr and r.stderr == ""


def test_the_text_report_leads_with_the_catalogue_and_the_summary():
    from reportkit import sp
    out = sp("check").stdout.splitlines()
    n = len(list(Path(__file__).resolve().parent.parent.joinpath("model", "catalogue").rglob("*.toml")))
    assert out[0] == f"skillproof check：model/catalogue/（{n} 个文件）"
    assert out[1].startswith("通过：")
    assert out[1] == out[-1]
    # the proved intents: one line, not one line each
    proved = [line for line in out if line.startswith("  ✓ ")]
    assert proved == []
    line = next(x for x in out if "已证明的意图" in x)
    assert re.search(r"已证明的意图：\d+ 个", line) and "--show proved" in line
    en = sp("check", "--show", "proved", "--lang", "en").stdout.splitlines()
    assert en[0].startswith("skillproof check: ") and en[1].startswith("ok: ") and en[1] == en[-1]
    proved = int(re.search(r"(\d+) 个意图已证明", out[1]).group(1))
    assert len([x for x in en if x.startswith("  ✓ ")]) == proved and f"{proved} intents proved" in en[1]
