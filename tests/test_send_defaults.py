"""The default send rules as [rules] data (send_dir, send_lock, send_to_self): read from the server's send check
(model/extract/sends.py), honoured alike by the interpreter and the encoder (cross-checked on random states and
traces of a catalogue whose defaults differ from the server's), refused with a located error when they do not check."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillproof.model import loader
from skillproof.model.catalogue import Rules
from skillproof.model.extract import extract
from skillproof.model.interp.path import first_stop_ok
from skillproof.model.interp.send import send_allowed
from skillproof.model.state import Seat, State

from crosskit import Harness, run_states, run_traces
from gitrepo import SERVER

SHIPPED = Path(loader.__file__).parent / "catalogue"

CHECK = """package demo.game.skill

import demo.game.Player
import demo.game.card.Card
import demo.protos.Common.direction

interface SendMessageDirectionSkill : Skill {
    fun checkDir(card: Card, dir: direction): Boolean
}

interface SendMessageCanLockSkill : Skill {
    fun checkCanLock(card: Card, lockPlayers: List<Player>): Boolean
}

fun Player.canSendCard(card: Card, dir: direction, target: Player, lockPlayers: List<Player>): String? {
    val checkCanLock = skills.lastOrNull { it is SendMessageCanLockSkill } as? SendMessageCanLockSkill
    if (checkCanLock != null) {
        if (!checkCanLock.checkCanLock(card, lockPlayers)) return "locks"
    } else {
        if (lockPlayers.size > LOCKS) return "too many"
        MARK
    }
    val checkDir = skills.lastOrNull { it is SendMessageDirectionSkill } as? SendMessageDirectionSkill
    if (checkDir != null) {
        if (!checkDir.checkDir(card, dir)) return "dir"
    } else {
        if (dir != card.direction) return "dir"
    }
    SELF
    return null
}
"""
MARK_LINE = 'if (lockPlayers.isNotEmpty() && !card.canLock()) return "no mark"'
SELF_LINE = 'if (this === target) return "not to yourself"'


def _rules(tmp_path, locks="1", mark=MARK_LINE, self_line=SELF_LINE):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    (d / "skill" / "Send.kt").write_text(CHECK.replace("LOCKS", locks).replace("MARK", mark).replace(
        "SELF", self_line), encoding="utf-8")
    return extract(d).engine


def test_the_default_send_rules_are_read_from_the_send_check(tmp_path):
    e = _rules(tmp_path / "a")
    assert e["send_dir"].value == "dir == message_dir" and e["send_dir"].key
    assert e["send_lock"].value == "(lock_count <= 0 or message_lockable) and lock_count <= 1"
    assert e["send_to_self"].value is False
    assert _rules(tmp_path / "b", locks="2")["send_lock"].value == \
        "(lock_count <= 0 or message_lockable) and lock_count <= 2"
    assert _rules(tmp_path / "c", mark="")["send_lock"].value == "lock_count <= 1"
    assert _rules(tmp_path / "d", self_line="")["send_to_self"].value is True


def _catalogue(tmp_path, extra: str):
    d = tmp_path / "cat"
    shutil.copytree(SHIPPED, d)
    rules = (d / "rules.toml").read_text(encoding="utf-8")
    keep = [ln for ln in rules.splitlines() if not ln.startswith(("send_dir", "send_lock", "send_to_self"))]
    (d / "rules.toml").write_text("\n".join(keep) + "\n" + extra, encoding="utf-8")
    return loader.load([d])


OTHER = 'send_lock = "lock_count <= 2"\nsend_dir = "dir == message_dir or dir == up"\nsend_to_self = true\n'


def test_both_back_ends_honour_other_defaults(tmp_path):
    cat = _catalogue(tmp_path, OTHER)
    assert not cat.rules.send_lock == Rules().send_lock
    st = State([Seat("lao_bie"), Seat("lao_bie")], message_lockable=False, message_dir="left")
    assert send_allowed(cat, st, 1, "SendMessageCanLockSkill", "left", 2)              # two locks, no lock mark
    assert send_allowed(cat, st, 1, "SendMessageDirectionSkill", "up", 0)
    assert not send_allowed(loader.load(), st, 1, "SendMessageCanLockSkill", "left", 2)
    assert first_stop_ok(st, 0, "up", 0, cat.rules.send_to_self) and not first_stop_ok(st, 0, "up", 0)
    h = Harness(cat)
    n, failure = run_states(h, 300, 7, "send-defaults")
    assert failure is None and n > 0
    _legal, _compared, _skipped, failure = run_traces(h, 200, 8, "send-defaults")
    assert failure is None


def test_a_default_that_does_not_check_is_a_located_error(tmp_path):
    with pytest.raises(loader.CatalogueErrors) as e:
        _catalogue(tmp_path, 'send_lock = "lock_count <= yes"\n')
    assert any("rules.toml" in str(x) and "send_lock" in str(x) for x in e.value.errors)
