"""Configuration: [tool.skillproof] in pyproject.toml or a skillproof.toml, found from the working directory
upwards; flags override it; every bad key is reported as file:line: [key] with exit code 2; the JSON
Schema (`skillproof schema config`) and the validator agree; one run writes several reports."""
from __future__ import annotations

import json
import os
import re
import shutil

import jsonschema
import pytest

from reportkit import FAM, sp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def repo(tmp_path):
    """A game repository: a conversion catalogue (1 error, 2 warnings) in rules/, a sub-directory."""
    (tmp_path / "rules").mkdir()
    shutil.copy(os.path.join(FAM, "base.toml"), tmp_path / "rules" / "base.toml")
    shutil.copy(os.path.join(FAM, "conversion", "trigger.toml"), tmp_path / "rules" / "trigger.toml")
    (tmp_path / "docs" / "deep").mkdir(parents=True)
    return tmp_path


def summary(stdout: str) -> str:
    return stdout.strip().splitlines()[-1]


def test_pyproject_found_from_a_subdirectory_and_flags_override(repo):
    (repo / "pyproject.toml").write_text('[project]\nname = "game"\n\n[tool.skillproof]\npaths = ["rules"]\n'
                                         'fail-on = "warning"\nselect = ["CV002"]\n', encoding="utf-8")
    r = sp("check", "-q", cwd=repo / "docs" / "deep")
    assert r.returncode == 1, r.stderr
    assert summary(r.stdout).startswith("未通过：2 个问题（错误 0，警告 2")     # select from the file
    r = sp("check", "-q", "--fail-on", "none", cwd=repo / "docs" / "deep")          # a flag overrides it
    assert r.returncode == 0 and "按 --fail-on=none 判为失败" in r.stdout
    r = sp("check", "-q", "--select", "CV001", cwd=repo)
    assert r.returncode == 1 and summary(r.stdout).startswith("未通过：1 个问题（错误 1")
    r = sp("check", "-q", "--no-config", os.path.join("rules", "base.toml"), cwd=repo)
    assert r.returncode == 0 and "0 个问题" in r.stdout                           # paths from the command line


def test_skillproof_toml_wins_and_pyproject_without_the_table_is_passed_over(repo):
    (repo / "skillproof.toml").write_text('paths = ["rules"]\nignore = "CV001"\n', encoding="utf-8")
    (repo / "docs" / "pyproject.toml").write_text('[project]\nname = "docs"\n', encoding="utf-8")
    (repo / "pyproject.toml").write_text('[tool.skillproof]\nfail-on = "note"\n', encoding="utf-8")
    r = sp("check", "-q", cwd=repo / "docs" / "deep")
    assert r.returncode == 0, r.stdout + r.stderr                    # skillproof.toml: no fail-on = note
    assert summary(r.stdout).startswith("通过：2 个问题（错误 0，警告 2")
    other = repo / "other.toml"
    other.write_text('paths = ["rules"]\nfail-on = "warning"\n', encoding="utf-8")
    r = sp("--config", str(other), "check", "-q", cwd=repo)
    assert r.returncode == 1 and summary(r.stdout).startswith("未通过：3 个问题")
    r = sp("check", "-q", "--config=other.toml", cwd=repo)             # after the command too
    assert r.returncode == 1


def test_bad_configuration_is_located(repo):
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "g"\n\n[tool.skillproof]\nfail_on = "warning"\ntimeout = "20"\nmax-seat = 3\n'
        'select = ["conversoin"]\noutput-format = ["sarif"]\nformat = "htm"\n', encoding="utf-8")
    r = sp("check", "--lang", "en", cwd=repo)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert lines[0] == "error: pyproject.toml:5: [fail_on] unknown key 'fail_on' — did you mean 'fail-on'?"
    assert "error: pyproject.toml:6: [timeout] 'timeout' must be a number of seconds" in lines
    assert "error: pyproject.toml:7: [max-seat] unknown key 'max-seat' — did you mean 'max-seats'?" in lines
    assert any(x.startswith("error: pyproject.toml:8: [select] unknown family or code 'conversoin'") for x in lines)
    assert any(x.startswith("error: pyproject.toml:9: [output-format] 'sarif' is not FORMAT:FILE") for x in lines)
    assert any(x.startswith("error: pyproject.toml:10: [format] 'htm' is not one of") for x in lines)
    assert lines[-1].startswith("6 errors in the configuration")
    assert sp("schema", cwd=repo).returncode == 0                 # commands without options ignore the file
    assert sp("--no-config", "check", "-q", "rules", cwd=repo).returncode == 1
    (repo / "pyproject.toml").write_text('[tool.skillproof]\npaths = ["rules"\n', encoding="utf-8")
    r = sp("check", "--lang", "en", cwd=repo)
    assert r.returncode == 2 and r.stderr.startswith("error: pyproject.toml:2: TOML syntax error")
    (repo / "pyproject.toml").unlink()
    (repo / "skillproof.toml").write_bytes(b'\xef\xbb\xbfpaths = ["rules"]\n')
    r = sp("check", "--lang=en", cwd=repo)
    assert r.returncode == 2 and "byte-order mark (BOM)" in r.stderr


def test_schema_and_validator_agree():
    from skillproof.config import KEYS, schema, validate
    r = sp("schema", "config")
    assert r.returncode == 0
    sch = json.loads(r.stdout)
    assert sch == schema() and set(sch["properties"]) == set(KEYS)
    jsonschema.Draft202012Validator.check_schema(sch)
    v = jsonschema.Draft202012Validator(sch)
    good = {"paths": ["rules"], "select": ["conversion", "BN001"], "ignore": "SK003", "fail-on": "warning",
            "baseline": "b.toml", "timeout": 2.5, "rlimit": 0, "max-seats": 3, "max-grants": 2, "jobs": 1,
            "format": "sarif", "output-format": ["markdown:comment.md"]}
    assert not list(v.iter_errors(good))
    assert validate(good, "f", lambda *k: 1)[1] == []
    for bad in ({"fail-on": "warn"}, {"timeout": 0}, {"max-seats": 0}, {"paths": []}, {"jobs": True},
                {"output-format": ["sarif"]}, {"unknown": 1}, {"rlimit": 1.5}):
        assert list(v.iter_errors(bad)), bad
        assert validate(bad, "f", lambda *k: 1)[1], bad


def test_every_key_is_documented():
    from skillproof.config import KEYS
    doc = open(os.path.join(ROOT, "docs", "config.md"), encoding="utf-8").read()
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    for k in KEYS:
        assert f"`{k}`" in doc, k
    assert "[tool.skillproof]" in readme and "docs/config.md" in readme


def test_one_run_writes_several_reports(repo):
    r = sp("check", "rules", "-q", "--format", "json", "--output-format", "sarif:out.sarif",
           "--output-format", "markdown:comment.md", "--output-format", "github:gh.txt", cwd=repo)
    assert r.returncode == 1
    one = json.loads(r.stdout)
    assert one["summary"]["total"] == 3
    for fmt, name in (("sarif", "out.sarif"), ("markdown", "comment.md"), ("github", "gh.txt")):
        alone = sp("check", "rules", "-q", "--format", fmt, cwd=repo)
        assert (repo / name).read_text(encoding="utf-8") == alone.stdout, fmt
    (repo / "skillproof.toml").write_text('paths = ["rules"]\noutput-format = ["json:reports/r.json"]\n',
                                          encoding="utf-8")
    (repo / "reports").mkdir()
    r = sp("check", "-q", cwd=repo / "docs")                       # paths in the file: relative to the file
    assert r.returncode == 1 and json.loads((repo / "reports" / "r.json").read_text(encoding="utf-8"))
    for bad in (["--output-format", "sarif"], ["--output-format", "sarf:x"],
                ["--output-format", "json:a", "--output-format", "sarif:a"]):
        r = sp("check", "rules", *bad, cwd=repo)
        assert r.returncode == 2 and r.stderr.startswith("错误："), bad           # Chinese by default
        r = sp("check", "rules", *bad, "--lang", "en", cwd=repo)
        assert r.returncode == 2 and r.stderr.startswith("error: "), bad


def test_timeouts_are_seconds_everywhere_and_explain_usage():
    from skillproof.cli import build_parser
    p = build_parser()
    for cmd in (["check"], ["baseline"], ["diff", "a", "b"], ["ask", "q"], ["explain", "CV001-0000000000"]):
        args = p.parse_args(cmd + ["--timeout", "1.5"])
        assert args.timeout == 1.5, cmd
    helps = sp("ask", "--help", "--lang", "en").stdout + sp("explain", "--help", "--lang", "en").stdout
    assert "--timeout SECONDS" in helps and " MS" not in helps
    helps = sp("ask", "--help").stdout + sp("explain", "--help").stdout
    assert "--timeout 秒数" in helps and "单位为秒" in helps
    r = sp("explain", "--lang", "en")
    assert r.returncode == 2 and "required" not in r.stderr and "explain needs a finding id" in r.stderr


def test_progress_bar_on_a_terminal_only(tmp_path):
    import pexpect
    from reportkit import CONVERSION
    exe = os.path.join(os.path.dirname(__import__("sys").executable), "skillproof")
    env = {**os.environ, "SKILLPROOF_PROGRESS_AFTER": "0", "PYTHONIOENCODING": "utf-8", "SKILLPROOF_NO_CACHE": "1"}
    c = pexpect.spawn(exe, ["check", *CONVERSION, "-f", "json", "-o", str(tmp_path / "r.json")], env=env,
                      encoding="utf-8", timeout=120)
    c.expect(pexpect.EOF)
    out = c.before
    bars = re.findall(r"skillproof \[([█░]+)\] (\d+)/(\d+) 个检查族 · [^·]+ · (\d+) 个问题", out)
    assert bars, out[-500:]
    from skillproof.checks.registry import families
    n = str(len(families()))
    assert bars[-1][1] == bars[-1][2] == n and set(bars[-1][0]) == {"█"}       # ends full
    qs = [int(b[3]) for b in bars]
    assert qs == sorted(qs) and qs[-1] > 0
    r = sp("check", *CONVERSION, env={"SKILLPROOF_PROGRESS_AFTER": "0"})          # not a terminal: no bar
    assert "█" not in r.stderr and "\r" not in r.stderr


def test_hint_when_questions_give_up():
    from reportkit import CONVERSION
    r = sp("check", *CONVERSION, "--rlimit", "1")
    assert r.returncode == 3
    assert re.search(r"skillproof：\d+ 个问题无法判定——求解器放弃了 \d+ 个（canceled）：提高 --rlimit（现为 1；0 为不限）", r.stderr)
    assert "修正：提高 --rlimit（现为 1" in r.stdout
    r = sp("check", *CONVERSION, "--rlimit", "1", "--lang", "en")
    assert re.search(r"skillproof: \d+ questions inconclusive — \d+ gave up in the solver \(canceled\): raise --rlimit "
                     r"\(now 1; 0 = no limit\)", r.stderr)
    assert not re.search(r"[\u4e00-\u9fff]", r.stderr)                  # one language
    r = sp("check", *CONVERSION, "--rlimit", "1", "-q")
    assert r.stderr == ""


def test_brief_answers_print_no_witness():
    q = "can SP李宁玉 still play 截获 as 误导 while 变则通 is active?"
    full, brief = sp("ask", "--lang", "en", q), sp("ask", "--lang", "en", "--brief", q)
    assert full.returncode == brief.returncode == 0
    assert "witness (replayed by the interpreter):" in full.stdout and "seat 0:" in full.stdout
    assert brief.stdout.startswith("yes —") and "witness" not in brief.stdout and "seat 0:" not in brief.stdout
