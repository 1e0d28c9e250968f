"""Hostile uses of the commands the fuzzers do not reach (issue 27): where a report or an answer is written
(a device, a FIFO, a link, a full disk, a closed standard output), odd files given to replay / explain /
baseline / rules / schema / catalogue --coverage / ask, and signals. Each case ends in a verdict or one located
line (exit 0-3), never exit 4, a traceback or a hang."""
from __future__ import annotations

import os
import stat
import threading

import pytest

from skillproof.model.signals import write_all


def _reader(path, into: list):
    def run():
        with open(path, encoding="utf-8") as fh:
            into.append(fh.read())
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_a_report_named_by_a_fifo_is_written_into_it_not_renamed_over_it(tmp_path):
    """check --output /dev/stdout (or /dev/null) renamed its temporary file over the device node: run as root
    it left a regular file at /dev/null. A FIFO stands for the device here."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list = []
    t = _reader(fifo, got)
    assert write_all([(str(tmp_path / "a.json"), "{}"), (str(fifo), "report")]) is None
    t.join(10)
    assert got == ["report"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)                       # still a FIFO
    assert sorted(os.listdir(tmp_path)) == ["a.json", "pipe"]         # no temporary file left


def test_a_report_named_by_a_link_replaces_the_file_it_names(tmp_path):
    (tmp_path / "shared").mkdir()
    real = tmp_path / "shared" / "r.sarif"
    real.write_text("old")
    link = tmp_path / "r.sarif"
    link.symlink_to(real)
    assert write_all([(str(link), "new")]) is None
    assert link.is_symlink() and real.read_text() == "new"


def test_a_directory_named_as_a_report_is_refused_and_nothing_is_written(tmp_path):
    (tmp_path / "d").mkdir()
    failed = write_all([(str(tmp_path / "a.json"), "{}"), (str(tmp_path / "d"), "x")])
    assert failed and failed[0].endswith("d")
    assert sorted(os.listdir(tmp_path)) == ["d"]


# ------------------------------------------------------------------ standard output and error that cannot be written
import errno  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from skillproof.cli import main  # noqa: E402


class _Full:
    """A standard output on a full disk."""

    def write(self, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self):
        pass

    def isatty(self):
        return False


@pytest.mark.parametrize("argv", [["schema"], ["rules", "CV002"], ["rules"], ["catalogue", "--format", "json"]],
                         ids=" ".join)
def test_a_full_disk_on_standard_output_is_one_line_and_exit_2(monkeypatch, capsys, argv):
    """schema, rules, catalogue, replay and explain ended in exit 4 ("internal error … a bug in skillproof") when
    their standard output could not be written (> /dev/full, a full disk)."""
    monkeypatch.setattr(sys, "stdout", _Full())
    rc = main(["--lang", "en", *argv])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err == "error: cannot write to standard output: No space left on device\n"


def _dev_full():
    if not (os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode)):
        pytest.skip("no /dev/full")
    return open("/dev/full", "w")


def test_dev_full_and_a_closed_standard_output_end_in_exit_2():
    argv = [sys.executable, "-m", "skillproof", "--lang", "en", "schema"]
    with _dev_full() as full:
        p = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert (p.returncode, p.stderr) == (2, "error: cannot write to standard output: No space left on device\n")
    p = subprocess.run(argv, stderr=subprocess.PIPE, text=True, timeout=60, preexec_fn=lambda: os.close(1))
    assert (p.returncode, p.stderr) == (2, "error: cannot write to standard output: Bad file descriptor\n")


def test_an_error_that_cannot_be_written_keeps_its_exit_code(tmp_path):
    """With standard error on a full disk, a bad input ended in exit 1 (the code of a finding): the error line
    failed, then the internal-error line, then the interpreter's traceback."""
    argv = [sys.executable, "-m", "skillproof", "--lang", "en", "replay", str(tmp_path / "missing.json")]
    with _dev_full() as full:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=full, timeout=60)
    assert p.returncode == 2
    p = subprocess.run(argv, stdout=subprocess.PIPE, timeout=60, preexec_fn=lambda: os.close(2))
    assert p.returncode == 2


# ------------------------------------------------------------------ files that are not regular files, empty paths
@pytest.fixture
def fifo(tmp_path):
    p = tmp_path / "pipe.toml"
    os.mkfifo(p)
    return p


def _run(argv, timeout=60, **kw):
    return subprocess.run([sys.executable, "-m", "skillproof", "--lang", "en", *argv], capture_output=True, text=True,
                          timeout=timeout, **kw)


def test_a_baseline_or_configuration_that_is_a_fifo_or_a_device_is_refused_not_read(fifo):
    """A FIFO as --baseline or --config blocked the run for ever; /dev/zero was read until the machine ran out of
    memory (the kernel killed the run)."""
    from skillproof.reports import baseline as B
    for path in (fifo, "/dev/zero"):
        if not os.path.exists(path):
            continue
        with pytest.raises(B.BaselineError, match="not a regular file"):
            B.load(path)
        p = _run(["--config", str(path), "catalogue"])
        assert p.returncode == 2 and "not a regular file (a FIFO, a device …), not a configuration file" in p.stderr
    p = _run(["check", "--no-config", "--baseline", str(fifo)])
    assert p.returncode == 2 and p.stderr.endswith("not a regular file (a FIFO, a device …), not a baseline file\n")


def test_save_intent_into_a_fifo_is_refused_not_read(fifo):
    p = _run(["ask", "--save-intent", str(fifo), "--source", "rules.md › 截获", "can 李宁玉 play 截获 as 误导?"])
    assert p.returncode == 2 and p.stderr.endswith("is not a regular file: not appended\n"), p.stderr


@pytest.mark.parametrize("argv", [["rules", "--write-docs", ""], ["explain", "X", "--save", ""],
                                  ["ask", "--save", "", "draw?"], ["ask", "--history", ""],
                                  ["ask", "--save-intent", "", "draw?"], ["check", "--baseline", ""]], ids=" ".join)
def test_an_empty_file_name_is_refused_as_for_output(capsys, argv):
    """An empty --write-docs / --save / --baseline was taken for no option at all (exit 0: nothing written)."""
    from skillproof.cli import main
    with pytest.raises(SystemExit) as e:
        main(["--lang", "en", *argv])
    assert e.value.code == 2 and "the path is empty" in capsys.readouterr().err


def test_a_directory_of_2000_levels_is_made_without_recursion(tmp_path):
    """rules --write-docs d/d/d/… (2,000 levels, within the path limit) ended in exit 4 (RecursionError in
    os.makedirs); extract --output the same (Path.mkdir(parents=True))."""
    from skillproof.model.catfiles import make_dirs
    deep = tmp_path.joinpath(*["d"] * 1200)
    try:
        make_dirs(deep)
        assert deep.is_dir()
        make_dirs(deep)                                   # exists: nothing to do
        (tmp_path / "f").write_text("")
        with pytest.raises(NotADirectoryError):
            make_dirs(tmp_path / "f" / "x")
    finally:
        p = deep
        while p != tmp_path:                              # removed level by level (rmtree recurses as well)
            if p.is_dir():
                p.rmdir()
            p = p.parent


def test_explain_of_a_finding_its_undecided_family_did_not_find_is_inconclusive(capsys):
    """explain ID --timeout 0.001 said "no finding ID in this catalogue (the bans checks found nothing of BN002)",
    exit 2 — a verdict the run could not give: every question of the family had given up."""
    from skillproof.cli import main
    from skillproof.reports import baseline as B
    ident = next(i for i in B.load(os.path.join(os.path.dirname(__file__), "..", "skillproof-baseline.toml")).by_id() if i.startswith("BN002-"))
    rc = main(["--lang", "en", "explain", ident, "--rlimit", "1", "--no-config"])
    err = capsys.readouterr().err
    assert rc == 3, err
    assert f"finding {ident} was not found, but" in err and "raise --timeout (or --rlimit)" in err


def test_ask_reading_questions_from_a_closed_or_endless_standard_input(monkeypatch, capsys):
    """`ask <&-` ended in exit 4 (sys.stdin is None); `ask < /dev/zero` read one endless line into memory."""
    import io

    from skillproof.cli import main
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["--lang", "en", "ask", "--no-config"]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("\0" * ((1 << 20) + 10)))
    assert main(["--lang", "en", "ask", "--no-config"]) == 2
    assert capsys.readouterr().err.endswith("error: a line of standard input is over 1,048,576 characters: "
                                            "reading stopped\n")


def test_save_intent_refuses_an_id_the_loader_would_refuse(tmp_path, capsys):
    from skillproof.cli import main
    rc = main(["--lang", "en", "ask", "--no-config", "--intent-id", "a" * 300, "--save-intent",
               str(tmp_path / "i.toml"), "--source", "a › b", "can 李宁玉 play 截获 as 误导?"])
    assert rc == 2 and "intent id of 300 characters; the limit is 200" in capsys.readouterr().err
    assert not (tmp_path / "i.toml").exists()


# ------------------------------------------------------------------ signals during diff --kotlin
@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signal_during_diff_kotlin_leaves_no_process_temporary_tree_or_half_report(tmp_path, sig):
    """Measured on a scratch server repository (tests/gitrepo.py) with the signal at 0.5-15 s: exit 143 / 130
    within a second, one line, no git or worker process left, the temporary checkouts removed, every report or
    none."""
    import signal as S
    import time

    from gitrepo import make_server_repo
    from test_signals import _alive, _children
    shas = make_server_repo(tmp_path)
    tmpd, out = tmp_path / "tmp", tmp_path / "out"
    tmpd.mkdir()
    out.mkdir()
    argv = [sys.executable, "-m", "skillproof", "--lang", "en", "diff", "--kotlin", str(tmp_path / "server"),
            shas["base"], shas["rule"], "--no-config", "--format", "json", "--output", str(out / "r.json"),
            "--output-format", f"sarif:{out / 'r.sarif'}"]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         env={**os.environ, "TMPDIR": str(tmpd)})
    seen: set = set()
    deadline = time.time() + 2.0
    while time.time() < deadline and p.poll() is None:
        seen.update(_children(p.pid))
        time.sleep(0.05)
    if p.poll() is not None:
        pytest.skip("the run ended before the signal")
    if sig == "SIGINT":
        os.killpg(p.pid, S.SIGINT)              # as a terminal sends it: the whole group
    else:
        p.send_signal(S.SIGTERM)
    t = time.time()
    _out, err = p.communicate(timeout=30)
    assert time.time() - t < 5
    assert p.returncode == (143 if sig == "SIGTERM" else 130), err
    assert err.decode().splitlines()[-1] == ("terminated (SIGTERM)" if sig == "SIGTERM" else "interrupted")
    time.sleep(0.3)
    assert _alive(seen) == []
    assert os.listdir(tmpd) == []
    assert sorted(os.listdir(out)) in ([], ["r.json", "r.sarif"])


# ------------------------------------------------------------------ odd encodings and line breaks, empty catalogues
FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "active_gives", "rules.toml")


def _load_bytes(tmp_path, data: bytes):
    from skillproof.model import loader
    (tmp_path / "c").mkdir(exist_ok=True)
    (tmp_path / "c" / "rules.toml").write_bytes(data)
    with pytest.raises(loader.CatalogueErrors) as e:
        loader.load([tmp_path / "c"])
    return [str(x) for x in e.value.errors]


@pytest.mark.parametrize("enc", ["utf-16", "utf-16-le", "utf-32"])
def test_a_utf16_or_utf32_catalogue_is_named_as_such(tmp_path, enc):
    """Windows Notepad's "Unicode": was "not UTF-8 text (invalid start byte at byte 0)", or for UTF-16-LE without a
    mark a syntax error at line 39 (ASCII in UTF-16 is valid UTF-8, with a 0 byte after every character)."""
    from skillproof.model import lang
    text = open(FIXTURE, encoding="utf-8").read()
    with lang.using("en"):
        errs = _load_bytes(tmp_path, text.encode(enc))
    assert len(errs) == 1 and "c/rules.toml:1:" in errs[0] and "in UTF-16 or UTF-32" in errs[0], errs


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85"])
def test_a_comment_that_swallows_the_file_is_an_error_not_an_empty_catalogue(tmp_path, sep):
    """A file saved with U+2028 for its line breaks is one TOML comment: `check` said "ok: 0 findings"."""
    from skillproof.model import lang
    text = open(FIXTURE, encoding="utf-8").read()
    with lang.using("en"):
        errs = _load_bytes(tmp_path, text.replace("\n", sep).encode("utf-8"))
    assert len(errs) == 1 and "c/rules.toml:1:" in errs[0] and "a comment holds U+" in errs[0], errs
    # in a string such a character is kept (and escaped when echoed): no error
    from skillproof.model import loader
    ok = text.replace('name = "平常"', f'name = "平{sep}常"')
    (tmp_path / "c" / "rules.toml").write_text(ok, encoding="utf-8")
    assert loader.load([tmp_path / "c"]).skills["Plain"].name == f"平{sep}常"


def test_check_on_a_catalogue_with_nothing_in_it_says_so(tmp_path, capsys):
    from skillproof.cli import main
    (tmp_path / "rules.toml").write_text("# only a comment\n[rules]\nseats = 4\n", encoding="utf-8")
    assert main(["--lang", "en", "check", "--no-config", "-q", str(tmp_path / "rules.toml")]) == 2
    assert "has no card, character, skill or grant: nothing was checked" in capsys.readouterr().err
