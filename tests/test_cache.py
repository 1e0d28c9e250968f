"""The results cache (cli/cache.py): a hit gives the very reports a run of the checks gives; every input of the
result is in its key; a bad entry is a miss; nothing undecided is kept."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from reportkit import sp

FORMATS = ("json", "text", "sarif", "markdown", "html", "junit", "github", "gitlab")
CONVERSION = ["--catalogue", str(Path(__file__).parent / "fixtures" / "families" / "base.toml"),
              "--catalogue", str(Path(__file__).parent / "fixtures" / "families" / "conversion" / "trigger.toml")]


def _check(cache: Path, *args, env=None):
    return sp("check", "--fail-on", "none", "--quiet", *args,
              env={"SKILLPROOF_CACHE_DIR": str(cache), "SKILLPROOF_NO_CACHE": "", **(env or {})})


def test_a_hit_gives_every_report_a_run_gives(tmp_path):
    cache = tmp_path / "cache"
    for fmt in FORMATS:
        _check(cache, *CONVERSION, "--no-cache", "-f", fmt, "-o", str(tmp_path / f"run.{fmt}"))
    assert not cache.exists()                               # --no-cache neither reads nor writes
    _check(cache, *CONVERSION, "-f", "json", "-o", str(tmp_path / "first.json"))
    assert len(list(cache.glob("*.json"))) == 1
    for fmt in FORMATS:
        r = _check(cache, *CONVERSION, "-f", fmt, "-o", str(tmp_path / f"hit.{fmt}"))
        assert r.returncode == 0, r.stderr
        assert (tmp_path / f"hit.{fmt}").read_bytes() == (tmp_path / f"run.{fmt}").read_bytes(), fmt
    assert len(list(cache.glob("*.json"))) == 1


def test_every_input_of_the_result_is_in_the_key(tmp_path):
    cache = tmp_path / "cache"
    cat = tmp_path / "cat"
    shutil.copytree(Path(__file__).parent / "fixtures" / "families" / "conversion", cat)
    base = tmp_path / "base.toml"
    shutil.copy(Path(__file__).parent / "fixtures" / "families" / "base.toml", base)
    args = ["--catalogue", str(base), "--catalogue", str(cat / "trigger.toml"), "-f", "json"]
    first = json.loads(_check(cache, *args).stdout)
    assert len(list(cache.glob("*.json"))) == 1
    # another option that changes what is asked: another entry
    _check(cache, *args, "--max-seats", "2")
    assert len(list(cache.glob("*.json"))) == 2
    # a line added above every rule: the findings' lines move, so the key does
    text = (cat / "trigger.toml").read_text(encoding="utf-8")
    (cat / "trigger.toml").write_text("# a comment\n" + text, encoding="utf-8")
    moved = json.loads(_check(cache, *args).stdout)
    assert len(list(cache.glob("*.json"))) == 3
    lines = lambda doc: sorted(r["line"] for f in doc["findings"] for r in f["rules"] if r["file"].endswith("trigger.toml"))  # noqa: E731
    assert lines(moved) == [n + 1 for n in lines(first)] and lines(first)


def test_a_bad_entry_is_a_miss_and_the_checks_run(tmp_path):
    cache = tmp_path / "cache"
    good = _check(cache, *CONVERSION, "-f", "json").stdout
    (entry,) = cache.glob("*.json")
    for bad in ("", "{", json.dumps({"format": 1, "key": entry.stem, "findings": [{"check": 3}]}), "[]"):
        entry.write_text(bad, encoding="utf-8")
        r = _check(cache, *CONVERSION, "-f", "json")
        assert r.returncode == 0 and "Traceback" not in r.stderr
        assert r.stdout == good
    assert json.loads(entry.read_text(encoding="utf-8"))["key"] == entry.stem       # written again, whole


def test_nothing_undecided_is_kept(tmp_path):
    cache = tmp_path / "cache"
    r = _check(cache, "-f", "json", "--time-budget", "0.001")
    doc = json.loads(r.stdout)
    assert any(f.get("inconclusive") for f in doc["findings"])
    assert not cache.exists() or not list(cache.glob("*.json"))


def test_an_unwritable_cache_is_no_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    r = _check(blocker / "cache", *CONVERSION, "-f", "json")
    assert r.returncode == 0 and "Traceback" not in r.stderr and json.loads(r.stdout)["findings"]


def test_main_as_a_function_computes(monkeypatch):
    """Only the command (cli.cli.entry) uses the cache: a program calling main() gets a run of the checks."""
    from skillproof import cache
    monkeypatch.delenv("SKILLPROOF_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "COMMAND", False)
    assert not cache.enabled()


def test_random_string_hashing_reads_and_writes_nothing(tmp_path, monkeypatch):
    """In a process whose string hashing is random (a library caller) the witnesses may differ from the command's:
    such a process neither reads nor writes the cache."""
    from skillproof import cache
    monkeypatch.setattr(cache, "COMMAND", True)
    monkeypatch.setattr(cache.sys, "flags", type("F", (), {"hash_randomization": 1})())
    monkeypatch.delenv("SKILLPROOF_NO_CACHE", raising=False)
    assert not cache.enabled()
    monkeypatch.setattr(cache.sys, "flags", type("F", (), {"hash_randomization": 0})())
    assert cache.enabled()
    monkeypatch.setenv("SKILLPROOF_NO_CACHE", "1")
    assert not cache.enabled()
