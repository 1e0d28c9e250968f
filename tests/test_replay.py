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
    assert main(["replay", write(tmp_path, SCENARIO)]) == 0
    out = capsys.readouterr().out
    assert "reachable:" in out and out.count("— as expected") == 2 and "ok: 2 answers" in out
    assert "at position 3 is a must-conversion of 截获 whose targets (破译) lack 误导: vetoed" in out


def test_an_edit_shows(tmp_path, capsys):
    d = json.loads(json.dumps(SCENARIO))
    d["state"]["seats"][0]["skills"][2]["args"]["B"] = "Wu_Dao"      # the designer edits the declaration
    assert main(["replay", write(tmp_path, d)]) == 1
    out = capsys.readouterr().out
    assert "DIFFERS" in out and "FAIL" in out


def test_unreachable_state_fails(tmp_path, capsys):
    d = json.loads(json.dumps(SCENARIO))
    d["state"]["seats"][0]["skills"][2]["args"]["A"] = "Li_You"      # outside the site's 'where'
    assert main(["replay", write(tmp_path, d)]) == 1
    out = capsys.readouterr().out
    assert "NOT REACHABLE" in out and "where" in out


def test_replay_json(tmp_path, capsys):
    assert main(["replay", "--json", write(tmp_path, SCENARIO)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["ok"] and d["reachable"] and all(a["matches"] for a in d["answers"])
    assert d["answers"][0]["steps"]


def test_no_expect_just_answers(tmp_path, capsys):
    d = {k: v for k, v in SCENARIO.items() if k not in ("expect", "also")}
    assert main(["replay", write(tmp_path, d)]) == 0
    assert "can_play = no" in capsys.readouterr().out


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
    assert main(["replay", path]) == 2
    err = capsys.readouterr().err
    assert line_needle in err and "Traceback" not in err
    first = err.splitlines()[0]
    line = int(first.split(":")[2])
    assert first.startswith(f"error: {path}:") and (line == 1 if "missing key" in line_needle else line > 1)


def test_bad_json_is_located(tmp_path, capsys):
    p = tmp_path / "broken.json"
    p.write_text('{\n  "state": {\n    "seats": [\n  }\n}\n', encoding="utf-8")
    assert main(["replay", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{p}:4:" in err and "not valid JSON" in err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_line_points_at_the_wrong_value(tmp_path, capsys):
    d = json.loads(json.dumps(SCENARIO))
    d["state"]["seats"][1]["character"] = "nobody"
    path = write(tmp_path, d)
    lines = open(path, encoding="utf-8").read().splitlines()
    want = next(i for i, l in enumerate(lines, 1) if '"nobody"' in l)
    assert main(["replay", path]) == 2
    assert f"{path}:{want}:" in capsys.readouterr().err
