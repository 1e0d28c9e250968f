"""Baselines: `skillproof baseline` writes the findings for a human to give reasons; `check --baseline`
hides accepted findings, reports new ones, flags stale entries and rejects a baseline without reasons —
one located line on stderr, exit 2, never a traceback."""
from __future__ import annotations

import difflib
import json
import os
import re
import tomllib

import pytest

from reportkit import CONVERSION, SYNTHETIC, checked, sp

from skillproof.reports import baseline as B


def fill_reasons(text: str, reason: str = "reviewed: intended") -> str:
    return text.replace('reason = ""', f'reason = "{reason}"')


# ------------------------------------------------------------------------------------- the round trip
def test_round_trip_on_the_command_line(tmp_path):
    base = tmp_path / "baseline.toml"
    r = sp("baseline", *CONVERSION, "--output", str(base), "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert "3 marked to review (`to_review = true`): write the reasons, then delete that line" in r.stderr
    text = base.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    # what `check` reports, in its own process
    found = json.loads(sp("check", *CONVERSION, "-f", "json").stdout)["findings"]
    _, result = checked(tuple(CONVERSION))
    assert [f["id"] for f in found] == [f.id for f in result.findings]
    assert [e["id"] for e in data["accepted"]] == [f["id"] for f in found]
    for e, f in zip(data["accepted"], found):
        assert e == {"id": f["id"], "check": f["check"], "severity": f["severity"], "message": f["message"],
                     "rules": e["rules"], "reason": "", "to_review": True}
        assert e["rules"] and all(any(s.startswith(r["id"]) for s in e["rules"]) for r in f["rules"])

    # a fresh baseline is accepted by the next check: every finding hidden, each flagged as to review
    r = sp("check", *CONVERSION, "--baseline", str(base), "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["findings"] == [] and all(s["to_review"] for s in doc["suppressed"])
    assert doc["summary"]["baseline_to_review"] == 3
    r = sp("check", *CONVERSION, "--baseline", str(base))
    assert "待审的基线条目" in r.stdout and "3 条基线条目待审" in r.stdout.splitlines()[-1]
    sarif = json.loads(sp("check", *CONVERSION, "--baseline", str(base), "-f", "sarif").stdout)
    assert {x["suppressions"][0]["status"] for x in sarif["runs"][0]["results"] if x.get("suppressions")} == \
        {"underReview"}

    # an empty reason without the flag is rejected, with file, line (of the reason key) and entry, exit 2
    base.write_text(text.replace("to_review = true", "to_review = false"), encoding="utf-8")
    r = sp("check", *CONVERSION, "--baseline", str(base), "--lang", "en")
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    first_reason_line = text.splitlines().index('reason = ""') + 1
    assert lines[0].startswith(f"error: {base}:{first_reason_line}: [accepted #1 {result.findings[0].id}] ")
    assert "reason" in lines[0] and "and 2 more problems" in lines[0]

    # reasons filled in, the flags deleted: every finding hidden, exit 0 although one is an error
    reviewed = "".join(x for x in fill_reasons(text).splitlines(keepends=True) if not x.startswith("to_review"))
    base.write_text(reviewed, encoding="utf-8")
    r = sp("check", *CONVERSION, "--baseline", str(base), "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["findings"] == [] and doc["stale"] == [] and doc["summary"]["baseline_to_review"] == 0
    assert [s["id"] for s in doc["suppressed"]] == [f.id for f in result.findings]
    assert all(s["reason"] == "reviewed: intended" and "to_review" not in s for s in doc["suppressed"])

    # drop the error's entry and add one for a finding that does not exist: new finding fails, stale flagged
    data = tomllib.loads(base.read_text(encoding="utf-8"))
    err = next(f for f in result.findings if f.severity == "error")
    kept = [e for e in data["accepted"] if e["id"] != err.id]
    kept.append({"id": "CV002-0123456789", "check": "CV002", "reason": "was accepted once"})
    base.write_text(B.HEADER + "version = 1\n" + "".join(
        "\n[[accepted]]\n" + "".join(f"{k} = {json.dumps(v, ensure_ascii=False)}\n" for k, v in e.items())
        for e in kept), encoding="utf-8")
    r = sp("check", *CONVERSION, "--baseline", str(base), "--format", "json")
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert [f["id"] for f in doc["findings"]] == [err.id]
    assert [s["id"] for s in doc["stale"]] == ["CV002-0123456789"]
    assert doc["stale"][0]["reason"] == "was accepted once" and doc["stale"][0]["line"] > 1
    r = sp("check", *CONVERSION, "--baseline", str(base))
    assert "过时的基线条目" in r.stdout and "CV002-0123456789" in r.stdout

    # regenerating keeps the reasons of findings that still occur, drops the stale entry, adds the new one to
    # review — and the result passes the next check
    r = sp("baseline", *CONVERSION, "--output", str(base), "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert "2 reasons kept, 1 new, 1 no longer occurring dropped" in r.stderr
    data = tomllib.loads(base.read_text(encoding="utf-8"))
    reasons = {e["id"]: e["reason"] for e in data["accepted"]}
    assert set(reasons) == {f.id for f in result.findings}
    assert reasons[err.id] == "" and all(v == "reviewed: intended" for k, v in reasons.items() if k != err.id)
    assert [e["id"] for e in data["accepted"] if e.get("to_review")] == [err.id]
    r = sp("check", *CONVERSION, "--baseline", str(base), "--fail-on", "note")
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_refresh_keeps_the_comments_and_the_layout(tmp_path):
    """`skillproof baseline` over an existing file edits it in place: the file's header and every comment stay,
    a kept entry keeps its reason, its comments and its key order, a stale entry goes with the comment block
    right above it, and what is added is appended to review."""
    # the findings as the command line reports them (a witness, hence a message, may depend on what the
    # process asked the solver before: the command line's process is fresh, this test's is not)
    from types import SimpleNamespace
    found = json.loads(sp("check", *CONVERSION, "-f", "json", "--fail-on", "none").stdout)["findings"]
    a, b, c = (SimpleNamespace(**f) for f in found[:3])
    base = tmp_path / "skillproof-baseline.toml"
    text = (
        "# our accepted findings — reviewed in every pull request\n"
        "# (ask the designers before adding one)\n"
        "\n"
        "version = 1\n"
        "\n"
        "# the first one: the server does it this way\n"
        "[[accepted]]\n"
        f'id = "{a.id}"\n'
        'reason = "server: skill/Foo.kt"   # checked on 2024-03-01\n'
        'message = "an old message"\n'
        "\n"
        "# this comment is about the stale entry below\n"
        "[[accepted]]\n"
        'id = "CV002-0123456789"\n'
        'reason = "gone"\n'
        "\n"
        "# kept: the designers want it\n"
        "[[accepted]]\n"
        f'id = "{b.id}"\n'
        "reason = '''\n"
        "intended,\n"
        "see the rule book\n"
        "'''\n"
        "# a trailing remark at the end of the file\n")
    base.write_text(text, encoding="utf-8")
    r = sp("baseline", *CONVERSION, "--output", str(base), "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert "2 reasons kept, 1 new, 1 no longer occurring dropped" in r.stderr
    out = base.read_text(encoding="utf-8")
    for kept in ("# our accepted findings — reviewed in every pull request", "# (ask the designers before adding one)",
                 "# the first one: the server does it this way", '"server: skill/Foo.kt"   # checked on 2024-03-01',
                 "# kept: the designers want it", "intended,\nsee the rule book", "# a trailing remark"):
        assert kept in out, kept
    assert "CV002-0123456789" not in out and "about the stale entry" not in out
    assert "an old message" not in out                          # brought up to date for the reviewer
    data = tomllib.loads(out)
    by = {e["id"]: e for e in data["accepted"]}
    assert by[a.id]["reason"] == "server: skill/Foo.kt" and by[a.id]["message"] == a.message
    assert by[b.id]["reason"] == "intended,\nsee the rule book\n" and "to_review" not in by[b.id]
    assert by[c.id]["reason"] == "" and by[c.id]["to_review"] is True
    assert [e["id"] for e in data["accepted"]] == [a.id, b.id, c.id]
    assert out.index(f'id = "{a.id}"') < out.index('reason = "server') < out.index("message = ")
    # the next check accepts it; a second refresh changes nothing
    assert sp("check", *CONVERSION, "--baseline", str(base), "--fail-on", "note").returncode == 0
    assert sp("baseline", *CONVERSION, "--output", str(base)).returncode == 0
    again = base.read_text(encoding="utf-8")
    assert again == out, "\n".join(difflib.unified_diff(out.splitlines(), again.splitlines(), lineterm=""))


def test_the_shipped_baseline_survives_a_refresh(tmp_path):
    """The repository's own baseline, refreshed: its header comments and every reason stay, and the gate still
    passes on it."""
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "skillproof-baseline.toml")
    base = tmp_path / "skillproof-baseline.toml"
    text = open(src, encoding="utf-8").read()
    base.write_text(text, encoding="utf-8")
    r = sp("baseline", "--output", str(base))
    assert r.returncode == 0, r.stderr
    out = base.read_text(encoding="utf-8")
    comments = [x for x in text.splitlines() if x.startswith("#")]
    assert comments and all(x in out.splitlines() for x in comments)
    old = {e["id"]: e["reason"] for e in tomllib.loads(text)["accepted"]}
    new = {e["id"]: e for e in tomllib.loads(out)["accepted"]}
    assert all(new[i]["reason"] == reason for i, reason in old.items() if i in new)
    assert sp("check", "--baseline", str(base), "--fail-on", "warning").returncode == 0


def test_json_baseline(tmp_path):
    base = tmp_path / "accepted.json"
    r = sp("baseline", *CONVERSION, "-o", str(base), "--quiet")
    assert r.returncode == 0 and r.stderr == ""
    data = json.loads(base.read_text(encoding="utf-8"))
    assert data["version"] == 1 and len(data["accepted"]) == 3
    assert all(e["to_review"] and e["reason"] == "" for e in data["accepted"])
    for e in data["accepted"]:
        del e["to_review"]
    base.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    r = sp("check", *CONVERSION, "--baseline", str(base), "--lang", "en")
    assert r.returncode == 2
    assert re.match(rf"error: {re.escape(str(base))}:\d+: \[accepted #1 CV", r.stderr)
    for e in data["accepted"]:
        e["reason"] = "ok"
    base.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    r = sp("check", *CONVERSION, "--baseline", str(base), "-f", "json")
    assert r.returncode == 0 and len(json.loads(r.stdout)["suppressed"]) == 3


def test_baseline_to_stdout_and_bad_usage(tmp_path):
    r = sp("baseline", *CONVERSION)
    assert r.returncode == 0 and tomllib.loads(r.stdout)["version"] == 1
    r = sp("baseline", *CONVERSION, "--output", str(tmp_path), "--lang", "en")
    assert r.returncode == 2 and "directory" in r.stderr
    r = sp("baseline", *CONVERSION, "--select", "conversoin")
    assert r.returncode == 2 and "conversion" in r.stderr
    broken = tmp_path / "old.toml"
    broken.write_text("[[accepted]\n", encoding="utf-8")
    r = sp("baseline", *CONVERSION, "--output", str(broken), "--lang", "en")
    assert r.returncode == 2 and f"{broken}:1: TOML syntax error" in r.stderr
    assert broken.read_text(encoding="utf-8") == "[[accepted]\n"       # not overwritten
    r = sp("check", *CONVERSION, "--baseline", str(tmp_path / "missing.toml"), "--lang", "en")
    assert r.returncode == 2 and "no such baseline file" in r.stderr
    r = sp("check", *CONVERSION, "--baseline", str(tmp_path / "missing.toml"))
    assert r.returncode == 2 and "没有这个基线文件" in r.stderr                    # Chinese by default


# ------------------------------------------------------------------------------------- validation
def _load(tmp_path, text, name="b.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(B.BaselineError) as ei:
        B.load(p)
    return str(p), str(ei.value)


@pytest.mark.parametrize("body,line,expect", [
    ('[[accepted]]\nid = "CV001-3a1451036d"\ncheck = "CV001"\n', 1, "[accepted #1 CV001-3a1451036d] 'reason' is missing"),
    ('[[accepted]]\nid = "CV001-3a1451036d"\nreason = "  "\n', 3, "'reason' is empty"),
    ('[[accepted]]\nid = "CV001-3a1451036d"\nreason = "x"\nreasn = "y"\n', 4, "unknown key 'reasn' — did you mean 'reason'?"),
    ('[[accepted]]\nid = "CV01-3a14"\nreason = "x"\n', 2, "'CV01-3a14' is not a finding id"),
    ('[[accepted]]\nreason = "x"\n', 1, "'id' is missing"),
    ('[[accepted]]\nid = "CV001-3a1451036d"\nreason = "x"\n\n[[accepted]]\nid = "CV001-3a1451036d"\nreason = "y"\n',
     5, "[accepted #2 CV001-3a1451036d] repeated: the same id is accepted at line 1"),
    ('[[accepted]]\nid = "INC001-3a1451036d"\nreason = "x"\n', 2, "an inconclusive finding cannot be accepted"),
    ('[[accepted]]\nid = "CV001-3a1451036d"\ncheck = "CV002"\nreason = "x"\n', 3, "does not match the id's code"),
    ('[[accepted]]\nid = "CX001-3a1451036d"\nreason = "x"\n', 2, "unknown check 'CX001' — did you mean 'CV001'?"),
    ('version = 2\n', 1, "unsupported baseline version 2"),
    ('accepted = 3\n', 1, "'accepted' must be an array of tables"),
    ('acepted = []\n', 1, "unknown key 'acepted' — did you mean 'accepted'?"),
    ('[[accepted]]\nid = "CV001-3a1451036d"\nreason = 5\n', 1, "'reason' must be a string"),
    ('x = [\n', 1, "TOML syntax error"),
])
def test_rejected_with_file_line_and_entry(tmp_path, body, line, expect):
    path, msg = _load(tmp_path, body)
    assert msg.startswith(f"{path}:{line}: "), msg
    assert expect in msg, msg
    assert "\n" not in msg


def test_every_problem_is_counted_in_one_line(tmp_path):
    body = "".join(f'[[accepted]]\nid = "CV001-{i:010x}"\nreason = ""\n\n' for i in range(9))
    path, msg = _load(tmp_path, body)
    assert msg.startswith(f"{path}:3: [accepted #1 CV001-0000000000] 'reason' is empty")
    assert "and 8 more problems at lines 7, 11, 15, 19, 23, 27, …" in msg


def test_unreadable_files(tmp_path):
    p = tmp_path / "bin.toml"
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(B.BaselineError, match="not UTF-8"):
        B.load(p)
    p = tmp_path / "bad.json"
    p.write_text('{"accepted": [', encoding="utf-8")
    with pytest.raises(B.BaselineError, match=r"bad\.json:1: JSON syntax error"):
        B.load(p)
    with pytest.raises(B.BaselineError, match="is a directory"):
        B.load(tmp_path)


def test_json_lines_point_at_the_entry(tmp_path):
    text = json.dumps({"version": 1, "accepted": [
        {"id": "CV001-000000000a", "reason": "fine"},
        {"id": "CV001-000000000b", "reason": ""}]}, indent=2)
    path, msg = _load(tmp_path, text, "b.json")
    want = text.splitlines().index('      "id": "CV001-000000000b",') + 1
    assert msg.startswith(f"{path}:{want}: [accepted #2 CV001-000000000b] 'reason' is empty"), msg


# ------------------------------------------------------------------------------------- apply
def test_apply_splits_and_scopes(tmp_path):
    _, result = checked((SYNTHETIC,))
    fs = result.findings
    cv = next(f for f in fs if f.family == "conversion")
    kd = next(f for f in fs if f.family == "kinds")
    p = tmp_path / "b.toml"
    p.write_text(f'[[accepted]]\nid = "{cv.id}"\nreason = "a"\n\n[[accepted]]\nid = "{kd.id}"\nreason = "b"\n\n'
                 '[[accepted]]\nid = "BN001-ffffffffff"\nreason = "c"\n', encoding="utf-8")
    base = B.load(p)
    active, suppressed, stale = B.apply(base, fs)
    assert [f.id for f in active] == [f.id for f in fs if f.id not in (cv.id, kd.id)]
    assert {(f.id, r) for f, r in suppressed} == {(cv.id, "a"), (kd.id, "b")}
    assert [s["id"] for s in stale] == ["BN001-ffffffffff"] and stale[0]["line"] == 9
    # only the conversion family ran: the kinds entry is neither matched nor stale, nor is the bans one
    conv = [f for f in fs if f.family == "conversion"]
    active, suppressed, stale = B.apply(base, conv, ran=["conversion"])
    assert [f.id for f, _ in suppressed] == [cv.id] and stale == []
    active, suppressed, stale = B.apply(base, conv, ran=["conversion", "BN001"])
    assert [s["id"] for s in stale] == ["BN001-ffffffffff"]


def test_inconclusive_findings_are_never_written_nor_hidden():
    from skillproof.checks.findings import Finding
    inc = Finding("INC001", "conversion", "error", "无法判定", "k", inconclusive=True)
    _, result = checked((SYNTHETIC,))
    text = B.dumps([inc] + result.findings[:2])
    ids = [e["id"] for e in tomllib.loads(text)["accepted"]]
    assert ids == [f.id for f in result.findings[:2]]
    base = B.Baseline("x", [B.Entry(inc.id, "r", "INC001")])
    active, suppressed, _ = B.apply(base, [inc])
    assert active == [inc] and suppressed == []


def test_written_toml_escapes_and_reads_back():
    from skillproof.checks.findings import Finding, RuleRef
    f = Finding("CV002", "conversion", "warning", 'quote " backslash \\ newline\n tab\t 【应变】', "k",
                rules=[RuleRef("YingBian", "应变", "a.toml", 3)])
    data = tomllib.loads(B.dumps([f]))
    assert data["accepted"][0]["message"] == f.message and data["accepted"][0]["rules"] == ["YingBian 应变"]
