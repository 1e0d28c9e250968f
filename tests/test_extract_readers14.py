"""Readers of the gate's real side written at the forty-fifth stop (issue 24; measured on the eleventh planted sample,
benchmarks/history/planted11.toml): a real change of rule code the gate crashed on, passed silently, or named under
another rule is now named, or marked unread where it is. Each on small Kotlin of our own, never the game's code."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("history_bench_r14", ROOT / "benchmarks" / "history_bench.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_reads_a_rule_id_spelled_with_dashes_as_the_same_id():
    # p11-send-cannot-beats-must: the label says must-beats-cannot, the gate names must_beats_cannot — one rule
    hb = _bench()
    assert hb._matches({"must_beats_cannot", "file:ChooseWhetherReceiveTos"}, {"must-beats-cannot"}) == \
        ["must-beats-cannot"]
    assert hb._matches({"must_receive"}, {"must-beats-cannot"}) == []
    assert hb._matches({"LianLuo"}, {"LianLuo"}) == ["LianLuo"]
