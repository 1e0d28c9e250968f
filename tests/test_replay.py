"""`skillproof replay FILE`: a scenario replayed through the interpreter; edits show; bad files are located."""
from __future__ import annotations

import json

import pytest

from skillproof.cli import main

SCENARIO = {
    "state": {
        "seats": [
            {"character": "sp_li_ning_yu", "skills": [
                {"rule": "YingBian"}, {"rule": "YouDao"},
                {"rule": "BianZeTong2", "args": {"A": "Jie_Huo", "B": "Po_Yi"}, "giver": 1, "site": "BianZeTong#0"}]},
            {"character": "chen_da_er", "skills": [{"rule": "BianZeTong"}]},
        ],
        "turn": 1,
    },
    "question": {"decision": "can_play", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"},
    "expect": {"can_play": False},
    "also": [{"question": {"decision": "conversion", "seat": 0, "actual": "Jie_Huo", "declared": "Po_Yi"},
              "expect": {"ok": True, "via": "BianZeTong2"}}],
}


def write(tmp_path, d, name="s.json"):
    p = tmp_path / name
    p.write_text(json.dumps(d, ensure_ascii=False, indent=2), encoding="utf-8")
    return str(p)


def test_replay_matches(tmp_path, capsys):
    assert main(["replay", "--lang", "en", write(tmp_path, SCENARIO)]) == 0
    out = capsys.readouterr().out
    assert "reachable:" in out and out.count("— as expected") == 2 and "ok: 2 answers" in out
    assert "at position 3 is a must-conversion of 截获 whose targets (破译) lack 误导: vetoed" in out


def test_an_edit_shows(tmp_path, capsys):
    d = json.loads(json.dumps(SCENARIO))
    d["state"]["seats"][0]["skills"][2]["args"]["B"] = "Wu_Dao"      # the designer edits the declaration
    assert main(["replay", "--lang", "en", write(tmp_path, d)]) == 1
    out = capsys.readouterr().out
    assert "DIFFERS" in out and "FAIL" in out


def test_unreachable_state_fails(tmp_path, capsys):
    d = json.loads(json.dumps(SCENARIO))
    d["state"]["seats"][0]["skills"][2]["args"]["A"] = "Li_You"      # outside the site's 'where'
    assert main(["replay", "--lang", "en", write(tmp_path, d)]) == 1
    out = capsys.readouterr().out
    assert "NOT REACHABLE" in out and "its parameters break the condition of 变则通's gives site" in out


def test_replay_json(tmp_path, capsys):
    assert main(["replay", "--lang", "en", "--json", write(tmp_path, SCENARIO)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["ok"] and d["reachable"] and all(a["matches"] for a in d["answers"])
    assert d["answers"][0]["steps"]


def test_no_expect_just_answers(tmp_path, capsys):
    d = {k: v for k, v in SCENARIO.items() if k not in ("expect", "also")}
    assert main(["replay", "--lang", "en", write(tmp_path, d)]) == 0
    assert "can play = no" in capsys.readouterr().out


@pytest.mark.parametrize("mutate, line_needle", [
    (lambda d: d["state"]["seats"][1].__setitem__("character", "chen_da_err"), "did you mean 'chen_da_er'"),
    (lambda d: d["state"]["seats"][0]["skills"][0].__setitem__("rule", "YinBian"), "did you mean 'YingBian'"),
    (lambda d: d["state"]["seats"][0]["skills"][2]["args"].__setitem__("C", "Jie_Huo"), "no parameter 'C'"),
    (lambda d: d["question"].__setitem__("declared", "Wudao"), "not a card id"),
    (lambda d: d["question"].__setitem__("decision", "can_plya"), "did you mean 'can_play'"),
    (lambda d: d.pop("question"), "missing key 'question'"),
    (lambda d: d["state"].__setitem__("turn", 7), "seat number"),
])
def test_bad_scenarios_are_located(tmp_path, capsys, mutate, line_needle):
    d = json.loads(json.dumps(SCENARIO))
    mutate(d)
    path = write(tmp_path, d)
    assert main(["replay", "--lang", "en", path]) == 2
    err = capsys.readouterr().err
    assert line_needle in err and "Traceback" not in err
    first = err.splitlines()[0]
    line = int(first.split(":")[2])
    assert first.startswith(f"error: {path}:") and (line == 1 if "missing key" in line_needle else line > 1)


def test_bad_json_is_located(tmp_path, capsys):
    p = tmp_path / "broken.json"
    p.write_text('{\n  "state": {\n    "seats": [\n  }\n}\n', encoding="utf-8")
    assert main(["replay", "--lang", "en", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{p}:4:" in err and "not valid JSON" in err
    assert main(["replay", "--lang", "en", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_line_points_at_the_wrong_value(tmp_path, capsys):
    d = json.loads(json.dumps(SCENARIO))
    d["state"]["seats"][1]["character"] = "nobody"
    path = write(tmp_path, d)
    lines = open(path, encoding="utf-8").read().splitlines()
    want = next(i for i, l in enumerate(lines, 1) if '"nobody"' in l)
    assert main(["replay", "--lang", "en", path]) == 2
    assert f"{path}:{want}:" in capsys.readouterr().err


# ------------------------------------------------------------------------------- trace scenarios
TRACE = {
    "trace": {
        "setup": {"seats": [
            {"character": "sp_li_ning_yu", "skills": [{"rule": "YingBian"}, {"rule": "YouDao"}]},
            {"character": "chen_da_er", "skills": [{"rule": "BianZeTong"}]}]},
        "events": [
            {"event": "turn", "seat": 1},
            {"event": "window", "window": "send_start"},
            {"event": "give", "seat": 0, "giver": 1, "site": "BianZeTong#0", "args": {"A": "Jie_Huo", "B": "Po_Yi"}},
            {"event": "window", "window": "send", "in_front": 0},
            {"event": "window", "window": "fight", "in_front": 0}]},
    "question": {"decision": "can_play", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"},
    "expect": {"can_play": False},
    "also": [{"question": {"decision": "conversion", "seat": 0, "actual": "Jie_Huo", "declared": "Po_Yi"},
              "expect": {"ok": True, "via": "BianZeTong2"}}],
}


def test_a_trace_is_run_event_by_event(tmp_path, capsys):
    assert main(["replay", "--lang", "en", write(tmp_path, TRACE)]) == 0
    out = capsys.readouterr().out
    assert "the trace (5 events), step by step:" in out and "legal: every event" in out
    assert "turn 1, start of the send phase: 陈大耳's 变则通 gives SP李宁玉 变则通·宣言 (A=截获, B=破译)" in out
    assert ("turn 1, fight phase: the question is asked now (陈大耳's turn; the message is in front of SP李宁玉, sent by "
            "陈大耳)") in out and "window: fight phase" in out
    assert out.count("— as expected") == 2 and "ok: 2 answers" in out
    assert "untimed" not in out


def test_an_illegal_event_is_named_with_its_index_and_reason(tmp_path, capsys):
    d = json.loads(json.dumps(TRACE))
    d["trace"]["events"][0]["seat"] = 0          # SP李宁玉's turn: 变则通's 'when = my_turn' fails for 陈大耳
    assert main(["replay", "--lang", "en", write(tmp_path, d)]) == 1
    out = capsys.readouterr().out
    assert "ILLEGAL: the trace breaks the rules of the turn:" in out
    assert ("  - event 2: the giver (seat 1) does not meet the condition 变则通 hands this out on: `in their own "
            "turn`") in out
    assert "FAIL: 1 illegal event(s) in the trace" in out
    d = json.loads(json.dumps(TRACE))
    d["trace"]["events"].insert(1, {"event": "window", "window": "fight", "in_front": 0})
    assert main(["replay", "--lang", "en", "--json", write(tmp_path, d)]) == 1
    js = json.loads(capsys.readouterr().out)
    assert not js["legal"] and js["problems"][0]["event"] == 2 and "cannot follow" in js["problems"][0]["reason"]


def test_a_question_away_from_its_decision_moment_fails(tmp_path, capsys):
    d = json.loads(json.dumps(TRACE))
    d["question"] = {"decision": "receive", "seat": 0}        # decided in 传递阶段, the trace ends in 争夺阶段
    d["expect"] = {"receive": "free"}
    d.pop("also")
    assert main(["replay", "--lang", "en", write(tmp_path, d)]) == 1
    out = capsys.readouterr().out
    assert "NOT AT ITS MOMENT: receive is decided in send phase" in out and "question(s) not asked" in out
    d["trace"]["events"].pop()                                 # end in 传递阶段, in front of seat 0
    assert main(["replay", "--lang", "en", write(tmp_path, d)]) == 0


def test_an_older_state_file_is_replayed_untimed_and_says_so(tmp_path, capsys):
    assert main(["replay", "--lang", "en", write(tmp_path, SCENARIO)]) == 0
    out = capsys.readouterr().out
    assert "replayed as an untimed state" in out and "reachable:" in out


def test_a_trace_with_a_state_ignores_the_state(tmp_path, capsys):
    d = dict(json.loads(json.dumps(TRACE)), state=SCENARIO["state"])
    assert main(["replay", "--lang", "en", write(tmp_path, d)]) == 0
    assert "the file's 'state' is ignored" in capsys.readouterr().out


@pytest.mark.parametrize("mutate, needle, key", [
    (lambda d: d["trace"]["events"][1].__setitem__("window", "send_strat"), "did you mean 'send_start'",
     "[trace.events[1].window]"),
    (lambda d: d["trace"]["events"][2].__setitem__("event", "giv"), "did you mean 'give'", "[trace.events[2].event]"),
    (lambda d: d["trace"]["events"][2].__setitem__("site", "BianZeTong#7"), "no gives site 'BianZeTong#7'",
     "[trace.events[2].site]"),
    (lambda d: d["trace"]["events"][2]["args"].__setitem__("C", "Jie_Huo"), "no parameter 'C'",
     "[trace.events[2].args.C]"),
    (lambda d: d["trace"]["events"][3].__setitem__("in_front", 5), "seat number 0..1",
     "[trace.events[3].in_front]"),
    (lambda d: d["trace"]["events"][0].__setitem__("whose", 1), "unknown key 'whose' in a 'turn' event", "[trace.events[0].whose]"),
    (lambda d: d["trace"]["events"][0].pop("seat"), "a 'turn' event needs 'seat'", "[trace.events[0]]"),
    (lambda d: d["trace"]["setup"]["seats"][1].__setitem__("character", "chen_da_err"), "did you mean 'chen_da_er'",
     "[trace.setup.seats[1].character]"),
    (lambda d: d["trace"].pop("setup"), "missing key 'setup'", "[trace]"),
    (lambda d: d.pop("trace"), "missing key 'trace'", ""),
])
def test_bad_traces_are_located(tmp_path, capsys, mutate, needle, key):
    d = json.loads(json.dumps(TRACE))
    mutate(d)
    path = write(tmp_path, d)
    assert main(["replay", "--lang", "en", path]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
    first = next(l for l in err.splitlines() if needle in l)
    assert first.startswith(f"error: {path}:") and int(first.split(":")[2]) >= 1 and key in first
