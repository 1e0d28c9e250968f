"""Who must or cannot receive the message while a rule is held (``receive``) is compared by the gate like a guard
(checks/diff_rules.py): a condition changed where both versions read it is a rule change naming the rule, even when
no decision the solver asks reaches a player holding the rule (诱敌深入's grant is handed out mid-turn); a spelling of
the same condition (conjuncts reordered, parenthesised) is not a change."""
from __future__ import annotations

from pathlib import Path

from skillproof.checks.diff_rules import rule_changes
from skillproof.model import loader

SHIPPED = Path(loader.__file__).parent / "catalogue"
BASE = 'receive = { must = "identity != black and identity in message", cannot = "identity != black and identity not in message" }'


def _with(receive: str):
    texts = {}
    for p in sorted(SHIPPED.rglob("*.toml")):
        t = p.read_text(encoding="utf-8")
        if p.name == "bian_yun_jiang.toml":
            assert BASE in t
            t = t.replace(BASE, receive, 1)
        texts[str(p.relative_to(SHIPPED))] = t
    return loader.load(texts=texts)


def test_a_must_receive_condition_changed_is_a_rule_change():
    base = _with(BASE)
    head = _with(BASE.replace('must = "identity != black and identity in message"', 'must = "identity in message"'))
    [ch] = rule_changes(base, head)
    assert (ch.key, ch.path) == ("receive", ("receive", "must"))
    assert "identity in message" in ch.en and "must receive" in ch.en


def test_the_same_receive_condition_spelt_otherwise_is_no_change():
    base = _with(BASE)
    same = _with(BASE.replace('must = "identity != black and identity in message"',
                              'must = "(identity in message) and identity != black"'))
    assert rule_changes(base, same) == []
    assert rule_changes(base, base) == []
