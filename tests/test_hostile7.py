"""Hostile and careless input found by the acceptance audit of issue 27 (stop 41, hx7): each a defect that a
planted mistake in the newer parts of the catalogue format, or a hostile use of a command, turned up. Each case
ends in one located line per cause (exit 2) or a verdict, never exit 4, a traceback, a hang or a silent pass."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skillproof.model import loader
from skillproof.model.loader import CatalogueErrors

SHIPPED = loader.shipped_path()


def _shipped_texts() -> dict:
    return {str(p.relative_to(SHIPPED)): p.read_text(encoding="utf-8") for p in sorted(SHIPPED.rglob("*.toml"))}


def _errors_with(file: str, old: str, new: str) -> list:
    texts = _shipped_texts()
    assert old in texts[file]
    texts[file] = texts[file].replace(old, new, 1)
    with pytest.raises(CatalogueErrors) as ei:
        loader.load(texts=texts)
    return [str(e) for e in ei.value.errors]


def test_an_unknown_event_in_on_is_the_one_error_not_the_effects_that_read_its_roles():
    """边云疆's 歼敌风行 answers `receive` and its `do` names the receiver: a misspelt event was reported last, after
    three errors on the `do` (`receiver` is no player of an ActiveSkill's window, `message_in_area` no word) that
    only followed from the `on` not loading."""
    errs = _errors_with("characters/bian_yun_jiang.toml", 'on = { event = "receive", whose = "sender"',
                        'on = { event = "recieve", whose = "sender"')
    assert len(errs) == 1, errs
    assert "[on.event]" in errs[0] and "'recieve'" in errs[0] and "did you mean 'receive'" in errs[0]


def test_an_unreadable_cards_file_hides_the_effects_of_triggers_whose_guard_names_its_cards():
    """cards.toml nested too deep: 贾仙生's and 哑炮's `on` name card types the file defines (folded as following
    from it), but their `do` — checked against no event — was still shown, naming `user` as unknown."""
    texts = _shipped_texts()
    texts["cards.toml"] = texts["cards.toml"].replace('do = [{ op = "move_message", to = "self" }]',
                                                      "do = " + "[" * 18 + "1" + "]" * 18, 1)
    with pytest.raises(CatalogueErrors) as ei:
        loader.load(texts=texts)
    errs = ei.value.errors
    assert [e.file for e in errs] == ["cards.toml"], [str(e) for e in errs]
    assert ei.value.hidden > 0


def test_a_saved_witness_of_a_send_question_replays(tmp_path):
    """`ask … --save` of a send question wrote the interpreter's whole answer — `has_card` (is there anything to send)
    beside `allowed` — and `replay` refused its own file: `[expect.has_card] unknown key 'has_card' in the answers of
    a 'send' question` (exit 2, for every send question of the direction, lock and card groups)."""
    from skillproof.cli import main
    p = tmp_path / "send.json"
    assert main(["ask", "--lang", "en", "can 老鳖 send left where message_dir == up", "--save", str(p)]) == 0
    saved = json.loads(p.read_text(encoding="utf-8"))
    assert "has_card" in saved["expect"] and {a["question"]["group"] for a in saved["also"]} == \
        {"SendMessageCanLockSkill", "SendMessageCardSkill"}
    assert main(["replay", "--lang", "en", str(p)]) == 0


def _children_of(pid: int) -> list:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(stat[1]) == pid and stat[0] != "Z":
                out.append(int(d))
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and PR_SET_PDEATHSIG")
@pytest.mark.parametrize("sig", [signal.SIGKILL])
def test_check_lanes_do_not_outlive_a_main_process_killed_by_a_signal_it_does_not_handle(tmp_path, sig):
    """SIGHUP (the terminal closed) and SIGKILL (a CI runner's grace spent) end `check --jobs 2` at once, without
    the SIGTERM path that stops its lanes: the lanes stayed, for ever, blocked writing progress nobody read."""
    p = subprocess.Popen([sys.executable, "-m", "skillproof", "check", "--no-cache", "--jobs", "2", "-o",
                          str(tmp_path / "r.txt")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        lanes: list = []
        while len(lanes) < 2 and p.poll() is None and time.monotonic() < deadline:
            lanes = _children_of(p.pid)
            time.sleep(0.05)
        assert len(lanes) == 2, "the lanes never started"
        p.send_signal(sig)
        p.wait(10)
        deadline = time.monotonic() + 10
        while any(_alive(k) for k in lanes) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [k for k in lanes if _alive(k)]
    finally:
        if p.poll() is None:
            p.kill()
        for k in _children_of(p.pid) + [k for k in locals().get("lanes", []) if _alive(k)]:
            try:
                os.kill(k, signal.SIGKILL)
            except OSError:
                pass
    assert not left, f"lanes left running: {left}"


def test_no_report_or_saved_scenario_replaces_a_file_the_command_reads(tmp_path, capsys):
    """`check -o rules.toml` (or --output-format sarif:…, through another spelling of the path or a link) and
    `ask --save cards.toml` replaced a catalogue file with a report or a JSON scenario and exited 0; the next run
    found the catalogue broken. Each is refused before anything runs, exit 2, and the file is left as it was."""
    import shutil
    from skillproof.cli import main
    cat = tmp_path / "cat"
    shutil.copytree(SHIPPED, cat)
    before = {p: p.read_bytes() for p in (cat / "rules.toml", cat / "cards.toml")}
    (tmp_path / "link.json").symlink_to(cat / "cards.toml")
    runs = [["check", "-q", "--select", "kinds", "-o", str(cat / "rules.toml"), str(cat)],
            ["check", "-q", "--select", "kinds", "--output-format", f"sarif:{cat}/characters/../rules.toml", str(cat)],
            ["ask", "-c", str(cat), "--save", str(tmp_path / "link.json"), "can 老鳖 send left where message_dir == up"]]
    for argv in runs:
        assert main(["--lang", "en"] + argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "is a file this command reads" in err[0], err
    assert all(p.read_bytes() == b for p, b in before.items())


# ------------------------------------------------------------------ planted mistakes that loaded without a word
@pytest.mark.parametrize("file, old, new, key, words", [
    # an amount that reads nothing of the game is a number: held to 0..100 as a literal is (it drew 100,000,000)
    ("characters/bian_yun_jiang.toml", '{ op = "draw", n = 2 },', '{ op = "draw", n = "100 * 100 * 100 * 100" },',
     "do[0].of[0][0].n", "not 100,000,000"),
    ("characters/bian_yun_jiang.toml", '{ op = "draw", n = 2 },', '{ op = "draw", n = "if 1 > 2 then 1 else 0 - 5" },',
     "do[0].of[0][0].n", "not -5"),
    # a gives site handed out in no window at all (at = []): the grant was never handed out, silently
    ("characters/wang_tian_xiang.toml", 'per_turn = 1\nat = "main"', 'per_turn = 1\nat = []', "at", "non-empty"),
    # replaces_role on a rule that is never used (a TriggeredSkill): read by nothing, the rule loaded as if unsaid
    ("characters/bian_yun_jiang.toml", 'trigger = "自己传出的情报被其他角色接收后"',
     'trigger = "自己传出的情报被其他角色接收后"\nreplaces_role = true', "replaces_role", "is for ActiveSkills"),
])
def test_a_contradictory_or_out_of_range_value_of_the_newer_keys_is_a_located_error(file, old, new, key, words):
    errs = _errors_with(file, old, new)
    assert len(errs) == 1 and f"[{key}]" in errs[0] and words in errs[0] and file in errs[0], errs


def test_an_amount_reading_the_game_is_not_folded():
    texts = _shipped_texts()
    f = "characters/bian_yun_jiang.toml"
    texts[f] = texts[f].replace('{ op = "draw", n = 2 },', '{ op = "draw", n = "hand_count * 1000 - 5" },', 1)
    loader.load(texts=texts)


def test_an_active_skill_whose_every_window_condition_is_false_is_kd008():
    """禁闭 with `main = "false"`: its one window named, its condition there plainly false — never usable, and no
    finding (KD008 looked at the windows' actors only)."""
    from skillproof.checks.context import Options, run
    texts = _shipped_texts()
    f = "characters/wang_tian_xiang.toml"
    texts[f] = texts[f].replace('remind = "not used"', 'remind = "not used"\nmain = "false"', 1)
    keys = {x.key for x in run(loader.load(texts=texts), Options(only=("kinds",)), jobs=1).findings}
    assert keys == {"KD008|JinBi|conditions"}


def test_a_byte_order_mark_on_a_baseline_or_a_scenario_file_is_named(tmp_path):
    """An editor's UTF-8 BOM: a catalogue and the configuration said so; a baseline was 'TOML syntax error: Invalid
    statement', a scenario file 'not valid JSON: Expecting value' — each now names the mark, at line 1."""
    from skillproof.checks import scenario as S
    from skillproof.reports import baseline as B
    for name, body in (("b.toml", "version = 1\n"), ("b.json", '{"version": 1}')):
        p = tmp_path / name
        p.write_bytes(b"\xef\xbb\xbf" + body.encode())
        with pytest.raises(B.BaselineError) as ei:
            B.load(str(p))
        assert f"{p}:1:" in str(ei.value) and "byte-order mark" in str(ei.value)
    p = tmp_path / "s.json"
    p.write_bytes(b"\xef\xbb\xbf{}")
    with pytest.raises(S.ScenarioErrors) as ei:
        S.load(str(p), loader.load(None))
    assert [(e.line, "byte-order mark" in str(e)) for e in ei.value.errors] == [(1, True)]


def test_catalogue_paths_may_follow_an_option(tmp_path):
    """`replay FILE --brief PATH`, `explain ID --save F PATH`: argparse closed the positionals at the first option and
    refused PATH as an unrecognized argument (exit 2) — the same words in another order ran. An unknown option is
    still refused."""
    from skillproof.cli import main
    fam = Path(__file__).parent / "fixtures" / "families"
    base, clean = str(fam / "base.toml"), str(fam / "kinds" / "clean.toml")
    assert main(["--lang", "en", "catalogue", "--format", "json", base, clean]) == 0
    assert main(["--lang", "en", "catalogue", base, "--format", "json", clean]) == 0
    with pytest.raises(SystemExit) as ei:                 # argparse's usage error, as before
        main(["--lang", "en", "catalogue", base, "--frobnicate", clean])
    assert ei.value.code == 2
