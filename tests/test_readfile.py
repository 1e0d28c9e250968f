"""model/readfile.py: the one reader behind every input file (catalogue, configuration, scenario, baseline, cache)."""
from __future__ import annotations

import os

import pytest

from skillproof.model import readfile as RF


def why(path, limit=100):
    with pytest.raises(RF.NotRead) as e:
        RF.read_regular(path, limit)
    return e.value


def test_regular_file_within_limit(tmp_path):
    p = tmp_path / "a.toml"
    p.write_bytes(b"x" * 100)
    assert RF.read_regular(p, 100) == b"x" * 100


def test_refusals(tmp_path):
    assert why(tmp_path / "none").why == RF.MISSING
    assert why(tmp_path).why == RF.DIRECTORY
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    e = why(big)
    assert e.why == RF.TOO_BIG and e.size == 101


def test_fifo_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert why(fifo).why == RF.NOT_REGULAR       # would block forever if opened for reading without O_NONBLOCK


def test_device_refused():
    assert why("/dev/zero").why == RF.NOT_REGULAR


def test_dangling_link_is_missing(tmp_path):
    (tmp_path / "l").symlink_to(tmp_path / "gone")
    assert why(tmp_path / "l").why == RF.MISSING
