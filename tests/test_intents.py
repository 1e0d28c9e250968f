"""Intents: the rule book's promises as [[intent]] tables — loaded with located errors, proved by `check` (a pass,
or IN001 with a counterexample that replays), linked to the generic findings they document as designed, shown in
every report, and saved from `skillproof ask`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from skillproof.checks import intents as IT
from skillproof.checks.context import Options, replay_problems, run
from skillproof.model import loader
from skillproof.model.loader import CatalogueErrors

from conftest import FIXTURES

EXE = os.path.join(os.path.dirname(sys.executable), "skillproof")
BASE = open(os.path.join(FIXTURES, "families", "base.toml"), encoding="utf-8").read() + "\n" + \
    open(os.path.join(FIXTURES, "families", "receive", "trigger.toml"), encoding="utf-8").read()

# a lure any player may use at send-phase start (the server's 诱敌深入), and the base's receive rules: RC001
RULES = BASE + '''
[[character]]
id = "lurer"
name = "诱敌者"
hidden = false
female = false
skills = ["Lure"]
[[skill]]
id = "Lure"
name = "入局"
kinds = ["ActiveSkill"]
windows = { send_start = "anyone" }
[[character]]
id = "keeper"
name = "守规者"
hidden = false
female = false
skills = ["Keep"]
[[skill]]
id = "Keep"
name = "守规"
kinds = ["ActiveSkill"]
windows = { send_start = "turn" }
'''

INTENTS = '''
[[intent]]
id = "keep-own-turn"
claim = "never anyone use 守规 in another player's turn"
source = "skills/test.md › 守规者 › 守规"
text = "守规只在自己的回合发动"

[[intent]]
id = "lure-own-turn"
claim = "never anyone use 入局 in another player's turn"
source = "skills/test.md › 诱敌者 › 入局"
text = "入局只在自己的回合发动"
severity = "error"

[[intent]]
id = "must-wins"
claim = "never anyone cannot receive where locked"
source = "strategy/faq.md › 锁定（必须接收）与不能接收"
intends = ["RC001"]
'''


def load(intents=INTENTS, rules=RULES):
    return loader.load(texts={"rules.toml": rules, "intents.toml": intents})


@pytest.fixture(scope="module")
def checked():
    cat = load()
    return cat, run(cat, Options(only=("intent", "receive")))


# ---------------------------------------------------------------------------------------------- loading
def errors(intents: str) -> list[str]:
    try:
        cat = load(intents)
    except CatalogueErrors as e:
        return [str(x) for x in e.errors]
    return [str(p) for p in IT.problems(cat)]


def test_a_claim_that_does_not_parse_is_located_at_its_line_with_the_column():
    errs = errors('[[intent]]\nid = "x"\nsource = "s.md › h"\n\nclaim = "never anyone use 守归 in another player\'s turn"\n')
    # after 'use': a skill as much as a card, with the nearest name of either
    # … and the nearest phrasing the language accepts (checks/ask/repair.py)
    assert errs == ["intents.toml:5: [claim] column 18: unknown skill or card '守归' — did you mean 守规?; nearest accepted "
                    "phrasing: `never anyone use 守规 in another player's turn` (at '守归')"]
    errs = errors('[[intent]]\nid = "x"\nsource = "s"\nclaim = "never anyone hold 守归"\n')
    assert errs == ["intents.toml:4: [claim] column 19: unknown skill '守归' — did you mean 守规?; nearest accepted phrasing: "
                    "`never anyone hold 守规` (at '守归')"]


@pytest.mark.parametrize("body, needle", [
    ('id = "x"\nsource = "s"', "[claim] [[intent]] needs a 'claim'"),
    ('id = "Bad_Id"\nclaim = "can anyone use 守规"\nsource = "s"', "[id] intent id 'Bad_Id' must be lower-case"),
    ('id = "x"\nclaim = "can anyone use 守规"\nsource = ""', "[source] 'source' must not be empty"),
    ('id = "x"\nclaim = "can anyone use 守规"\nsource = "s"\nseverity = "fatal"', "[severity] severity must be error"),
    ('id = "x"\nclaim = "can anyone use 守规"\nsource = "s"\nintends = ["BN01"]', "[intends] 'BN01' is not a check code"),
    ('id = "x"\nclaim = "can anyone use 守规"\nsource = "s"\nintends = ["BN002@NoSuch"]', "names unknown rule 'NoSuch'"),
    ('id = "x"\nclaim = "can anyone use 守规"\nsource = "s"\nintends = ["ZZ001"]', "[intends] unknown check 'ZZ001'"),
    ('id = "x"\nclaim = "which draw count for anyone"\nsource = "s"', "an intent is a yes/no question"),
    ('id = "x"\nclaim = "can anyone use 守规"\nsource = "s"\nwhy = "?"', "[why] unknown key 'why' in [[intent]]"),
])
def test_bad_intents_are_located(body, needle):
    errs = errors("[[intent]]\n" + body + "\n")
    assert any(needle in e and e.startswith("intents.toml:") for e in errs), errs


def test_duplicate_intent_ids_are_refused():
    errs = errors('[[intent]]\nid = "x"\nclaim = "can anyone use 守规"\nsource = "s"\n' * 2)
    assert any("duplicate intent id 'x'" in e for e in errs)


def test_a_citation_needs_no_claim_and_is_not_proved(checked):
    cat = load('[[intent]]\nid = "cited"\nsource = "strategy/faq.md › 锁定"\nintends = ["RC001"]\n')
    assert cat.intents[0].claim == "" and IT.claims(cat) == ({}, [])
    res = run(cat, Options(only=("intent", "receive")))
    assert res.passes == [] and all(f.details["intended_by"]["intent"] == "cited"
                                    for f in res.findings if f.check == "RC001")


# ---------------------------------------------------------------------------------------------- proving
def test_an_intent_the_rules_keep_is_a_pass(checked):
    _, res = checked
    ok = {p["intent"]: p for p in res.passes}
    assert set(ok) == {"keep-own-turn", "must-wins"}
    p = ok["keep-own-turn"]
    assert p["id"].startswith("IN001-") and p["file"] == "intents.toml" and p["line"] == 2 and p["mode"] == "never"


def test_a_broken_intent_is_reported_with_a_trace_that_replays_and_the_rules_behind_it(checked):
    cat, res = checked
    f = next(x for x in res.findings if x.check == "IN001")
    assert f.severity == "error"                                   # the intent's own severity
    assert "lure-own-turn" in f.message and "入局只在自己的回合发动" in f.message
    assert [r.id for r in f.rules][:2] == ["lure-own-turn", "Lure"]
    assert f.rules[0].file == "intents.toml" and f.rules[0].line == 8
    assert f.witness and f.witness.get("trace") and replay_problems(cat, f.witness) == []
    st = f.witness["state"]
    assert st["window"] == "send_start" and st["turn"] != 0          # another player's turn
    # its id is the pass's id when it holds: the same promise
    assert f.id == IT_pass_id(cat, "lure-own-turn")


def IT_pass_id(cat, ident):
    from skillproof.checks.families.intent import key_of
    from skillproof.checks.findings import Finding
    it = next(i for i in cat.intents if i.id == ident)
    return Finding("IN001", "intent", "note", "", key=key_of(it)).id


def test_designed_behaviour_is_a_note_linked_to_its_intent(checked):
    _, res = checked
    rc = [f for f in res.findings if f.check == "RC001"]
    assert rc and all(f.severity == "note" for f in rc)
    for f in rc:
        by = f.details["intended_by"]
        assert by["intent"] == "must-wins" and by["source"] == "strategy/faq.md › 锁定（必须接收）与不能接收"
    # a warning the rule book documents as designed keeps what it was
    assert any(f.details.get("severity_without_intent") == "warning" for f in rc)


def test_an_intent_whose_givens_never_hold_is_vacuous():
    cat = load('[[intent]]\nid = "v"\nclaim = "never anyone use 守规 in another player\'s turn with 入局 and with 守规"\n'
               'source = "s"\n')
    res = run(cat, Options(only=("intent",)))
    assert [f.check for f in res.findings] == ["IN002"] and res.passes == []


def test_intended_findings_never_fail_a_run(checked, tmp_path):
    cat, _ = checked
    (tmp_path / "rules.toml").write_text(RULES, encoding="utf-8")
    (tmp_path / "intents.toml").write_text(INTENTS.replace('severity = "error"', 'severity = "note"'), encoding="utf-8")
    r = subprocess.run([EXE, "check", str(tmp_path), "--select", "intent,receive", "--fail-on", "note", "-q",
                        "--format", "json"], capture_output=True, text=True)
    d = json.loads(r.stdout)
    intended = [f for f in d["findings"] if (f.get("details") or {}).get("intended_by")]
    others = [f for f in d["findings"] if f not in intended]
    assert intended and {f["check"] for f in intended} == {"RC001"} and d["summary"]["intended"] == len(intended)
    # at --fail-on note every other finding fails (the broken intent, RC002), designed behaviour does not
    assert d["summary"]["failing"] == len(others) and {f["check"] for f in others} == {"IN001", "RC002"}
    assert r.returncode == 1


# ---------------------------------------------------------------------------------------------- reports
@pytest.fixture(scope="module")
def report_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("intent-reports")
    (d / "rules.toml").write_text(RULES, encoding="utf-8")
    (d / "intents.toml").write_text(INTENTS, encoding="utf-8")
    out = {}
    for fmt in ("text", "sarif", "junit", "markdown", "html", "json"):
        r = subprocess.run([EXE, "check", str(d), "--select", "intent,receive", "-q", "--format", fmt],
                           capture_output=True, text=True, cwd=str(d))
        assert r.returncode == 1, r.stderr                           # the broken intent is an error
        out[fmt] = r.stdout
    r = subprocess.run([EXE, "check", str(d), "--select", "intent,receive", "-q", "--show", "intended"],
                       capture_output=True, text=True, cwd=str(d))
    out["text-intended"] = r.stdout
    r = subprocess.run([EXE, "check", str(d), "--select", "intent,receive", "-q", "--show", "proved"],
                       capture_output=True, text=True, cwd=str(d))
    out["text-proved"] = r.stdout
    return out


def test_sarif_has_a_pass_result_per_proved_intent(report_files):
    run_ = json.loads(report_files["sarif"])["runs"][0]
    passes = [r for r in run_["results"] if r.get("kind") == "pass"]
    assert sorted(r["properties"]["intent"] for r in passes) == ["keep-own-turn", "must-wins"]
    for r in passes:
        assert r["ruleId"] == "IN001" and r["level"] == "none"
        assert r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "intents.toml"
    broken = [r for r in run_["results"] if r["ruleId"] == "IN001" and r.get("kind") != "pass"]
    assert len(broken) == 1 and broken[0]["level"] == "error"
    designed = [r for r in run_["results"] if r["ruleId"] == "RC001"]
    assert designed and all(r["level"] == "note" and r["properties"]["intendedBy"]["intent"] == "must-wins"
                            for r in designed)


def test_junit_has_a_passing_test_case_per_proved_intent(report_files):
    root = ET.fromstring(report_files["junit"])
    suite = next(s for s in root if s.get("name") == "skillproof.intent")
    cases = {c.get("name").split(" [")[0]: c for c in suite}
    assert list(cases["IN001 intent keep-own-turn"]) == [] and list(cases["IN001 intent must-wins"]) == []
    assert cases["IN001 intent lure-own-turn"].find("failure") is not None


def test_text_leads_with_what_needs_action_and_summarises_designed_behaviour(report_files):
    text = report_files["text"]
    lines = text.splitlines()
    # it leads with the catalogue checked and the summary, then what needs action: the broken intent
    assert lines[0].startswith("skillproof check：") and "intents.toml" in lines[0] and "rules.toml" in lines[0]
    assert lines[1].startswith("未通过：") and lines[1] == lines[-1] and lines[2] == ""
    assert lines[3].startswith("错误 IN001")
    assert "RC001" not in text.split("设计如此：")[0]          # not listed before the one line
    line = next(x for x in text.splitlines() if x.startswith("设计如此："))
    assert "1 个意图" in line and "--show intended" in line
    # the proved intents in one line, one by one with --show proved
    assert "keep-own-turn" not in text and "✓ 已证明的意图：2 个" in text and "--show proved" in text
    assert "✓ keep-own-turn：守规只在自己的回合发动" in report_files["text-proved"]
    assert "提示 RC001" in report_files["text-intended"] and "见意图 must-wins" in report_files["text-intended"]


def test_markdown_and_html_show_the_passes_and_the_designed_behaviour(report_files):
    md, html = report_files["markdown"], report_files["html"]
    assert "个意图已证明" in md
    assert "<code>keep-own-turn</code>" in md and "设计如此：" in md
    assert 'id="intents"' in html and "keep-own-turn" in html and 'id="designed"' in html
    assert "已证明的意图 (2)" in html


def test_json_lists_the_passes(report_files):
    d = json.loads(report_files["json"])
    assert sorted(p["intent"] for p in d["passes"]) == ["keep-own-turn", "must-wins"]
    assert d["summary"]["intents_proved"] == 2


# ---------------------------------------------------------------------------------------------- ask
def test_ask_saves_a_question_as_an_intent_that_check_proves(tmp_path):
    (tmp_path / "rules.toml").write_text(RULES, encoding="utf-8")
    target = tmp_path / "intents.toml"
    args = [EXE, "ask", "--lang", "en", "-c", str(tmp_path / "rules.toml"), "--brief", "--save-intent", str(target)]
    r = subprocess.run(args + ["never anyone use 守规 in another player's turn", "--source", "skills/test.md › 守规"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "intent intent-1 appended" in r.stdout, r.stderr
    r = subprocess.run(args + ["never anyone use 入局 in another player's turn", "--source", "skills/test.md › 入局",
                               "--intent-id", "lure", "--text", "自己的回合", "--severity", "error"],
                       capture_output=True, text=True)
    assert r.returncode == 0
    cat = loader.load([tmp_path])
    assert [(i.id, i.severity) for i in cat.intents] == [("intent-1", "warning"), ("lure", "error")]
    res = run(cat, Options(only=("intent",)))
    assert [p["intent"] for p in res.passes] == ["intent-1"] and [f.check for f in res.findings] == ["IN001"]
    # refused: no source, a taken id, a 'which' question
    for extra, needle in ((["can anyone use 守规"], "needs --source"),
                          (["can anyone use 守规", "--source", "s", "--intent-id", "lure"], "already has an intent 'lure'"),
                          (["which draw count for anyone", "--source", "s"], "yes/no question")):
        r = subprocess.run(args + extra + ["--lang", "en"], capture_output=True, text=True)
        assert r.returncode == 2 and needle in r.stderr, r.stderr


# ------------------------------------------------------- a window 'use S' is never asked in (issue 27)
@pytest.mark.parametrize("claim, col", [
    ("always anyone use 守规 in 争夺阶段", 15),               # 守规 is used at send-phase start only
    ("always anyone use 守规 in the main phase", 15),
    ("never anyone not use 守规 in 争夺阶段", 18),            # the same denial, written with 'never not'
    ("always anyone use 守规 when someone is dying", 15),     # the question's window, not the atom's
])
def test_a_denied_use_in_a_window_its_skill_is_never_used_in_is_located(claim, col):
    errs = errors(f'[[intent]]\nid = "x"\nsource = "s"\nclaim = "{claim}"\n')
    assert len(errs) == 1 and errs[0].startswith(f"intents.toml:4: [claim] column {col}: 守规 is used in the start of "
                                                 "the send phase (the turn player), never in the "), errs
    assert "holds vacuously" in errs[0]


def test_a_use_in_a_window_its_skill_is_never_used_in_is_a_real_answer_otherwise():
    """'never … use S in W' (S is not used in W: what the catalogue's windows say) is proved, not vacuous, and
    'can … use S in W' is broken — both with a counterexample or a reason, never IN002."""
    intents = ('[[intent]]\nid = "only-at-send-start"\nsource = "s"\nclaim = "never anyone use 守规 in 争夺阶段"\n'
               '[[intent]]\nid = "in-fight"\nsource = "s"\nclaim = "can anyone use 守规 in 争夺阶段"\n')
    res = run(load(intents), Options(only=("intent",)))
    assert [p["intent"] for p in res.passes] == ["only-at-send-start"]
    assert [(f.check, f.details["intent"]) for f in res.findings] == [("IN001", "in-fight")]
