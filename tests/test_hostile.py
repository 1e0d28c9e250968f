"""Hostile uses of the commands the fuzzers do not reach (issue 27): where a report or an answer is written
(a device, a FIFO, a link, a full disk, a closed standard output), odd files given to replay / explain /
baseline / rules / schema / catalogue --coverage / ask, and signals. Each case ends in a verdict or one located
line (exit 0-3), never exit 4, a traceback or a hang."""
from __future__ import annotations

import os
import stat
import threading

import pytest

from skillproof.signals import write_all


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
