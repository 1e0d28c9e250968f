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


# ---------------------------------------------------------------- hostile caches (issue 27, the last pass)
def _redigest(d: dict) -> dict:
    """The entry with its digest made again: a forged or hand-edited entry that still carries a right digest."""
    import hashlib
    d = dict(d)
    d["digest"] = hashlib.sha256(json.dumps({n: d.get(n) for n in ("key", "findings", "stats", "families", "passes")},
                                            ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()
    return d


def _edits(d: dict):
    f0 = d["findings"][0]
    yield "findings", {**d, "findings": 5}
    yield "severity", {**d, "findings": [{**f0, "severity": "fatal"}]}
    yield "types", {**d, "findings": [{**f0, "severity": 7, "message": ["x"]}]}
    yield "witness", {**d, "findings": [{**f0, "witness": "zzz"}]}
    yield "details", {**d, "findings": [{**f0, "details": [1, 2]}]}
    yield "rule line", {**d, "findings": [{**f0, "rules": [{**f0["rules"][0], "line": "x"}]}]}
    yield "passes", {**d, "passes": [1, "x", None]}
    yield "families", {**d, "families": [1, 2]}
    yield "stats", {**d, "stats": [1, 2]}


@pytest.fixture(scope="module")
def an_entry(tmp_path_factory):
    """A cache holding the entry of the conversion fixture's run, and that run's JSON report."""
    cache = tmp_path_factory.mktemp("entry") / "cache"
    good = _check(cache, *CONVERSION, "-f", "json").stdout
    (entry,) = cache.glob("*.json")
    return entry, entry.read_text(encoding="utf-8"), good


def test_an_edited_entry_of_the_wrong_shape_is_a_miss_never_an_internal_error(an_entry, monkeypatch):
    """Each of these edits, read as a hit, made some report end in exit 4 (KeyError, TypeError …): with the digest
    left as it was (a hand edit) and made again (the shape checked for itself), each is a miss."""
    from skillproof import cache as C
    entry, text, _ = an_entry
    monkeypatch.setenv("SKILLPROOF_CACHE_DIR", str(entry.parent))
    d = json.loads(text)
    assert C.load(entry.stem) is not None and C.load(entry.stem).findings      # the entry as written: a hit
    assert d["findings"] and d["findings"][0]["rules"]
    try:
        for what, bad in _edits(d):
            for doc in (bad, _redigest(bad)):
                entry.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
                assert C.load(entry.stem) is None, what
        # an edit that keeps the shape but not the digest: a miss too
        entry.write_text(json.dumps({**d, "findings": d["findings"][1:]}, ensure_ascii=False), encoding="utf-8")
        assert C.load(entry.stem) is None
    finally:
        entry.write_text(text, encoding="utf-8")


def test_a_miss_on_an_edited_entry_gives_the_report_and_writes_the_entry_again(an_entry):
    entry, text, good = an_entry
    d = json.loads(text)
    entry.write_text(json.dumps({**d, "findings": [{**d["findings"][0], "severity": "fatal"}]}), encoding="utf-8")
    try:
        r = _check(entry.parent, *CONVERSION, "-f", "json")
        assert r.returncode == 0 and r.stdout == good, r.stderr
        assert json.loads(entry.read_text(encoding="utf-8"))["findings"] == d["findings"]
    finally:
        entry.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory", "dangling"])
def test_an_entry_that_is_not_a_regular_file_is_a_miss_not_a_hang(tmp_path, an_entry, kind):
    """A FIFO named as the entry blocked the run for ever, a link to /dev/zero read until memory ran out."""
    entry, _, good = an_entry
    cache = tmp_path / "cache"
    cache.mkdir()
    mine = cache / entry.name
    if kind == "fifo":
        os.mkfifo(mine)
    elif kind == "dev-zero":
        mine.symlink_to("/dev/zero")
    elif kind == "directory":
        mine.mkdir()
    else:
        (cache / "gone.json").symlink_to(tmp_path / "nowhere")      # what the pruning meets
    r = _check(cache, *CONVERSION, "-f", "json")                     # sp's timeout: a hang fails
    assert r.returncode == 0 and r.stdout == good, r.stderr


@pytest.mark.parametrize("where", ["file", "dev-null", "long", "nested-in-a-file"])
def test_a_cache_directory_that_cannot_be_one_only_keeps_nothing(tmp_path, an_entry, where):
    _, _, good = an_entry
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    cache = {"file": blocker, "dev-null": Path("/dev/null"), "long": tmp_path / ("d" * 250) / ("e" * 5000),
             "nested-in-a-file": blocker / "a" / "b"}[where]
    r = _check(cache, *CONVERSION, "-f", "json")
    assert r.returncode == 0 and r.stdout == good, r.stderr
    assert blocker.read_text(encoding="utf-8") == "x"


def test_a_signal_while_an_entry_is_written_leaves_no_temporary_file(tmp_path, monkeypatch):
    """The temporary entry is removed whatever ends its writing — here the signal's exception raised as the text
    is written — and the exception goes on (the command then ends as for the signal)."""
    from skillproof import cache as C
    from skillproof.checks.context import Result
    from skillproof.model.signals import Terminated
    monkeypatch.setenv("SKILLPROOF_CACHE_DIR", str(tmp_path / "c"))
    real = os.fdopen

    class Cut:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.f.close()

        def write(self, text):
            self.f.write(text[: len(text) // 2])
            raise Terminated()

    monkeypatch.setattr(C.os, "fdopen", lambda fd, *a, **k: Cut(real(fd, *a, **k)))
    with pytest.raises(Terminated):
        C.store("k" * 64, Result([], {"queries": 1}, ["kinds"], []))
    assert os.listdir(tmp_path / "c") == []
