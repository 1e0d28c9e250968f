"""The shipped intents: the rule book's promises about the real game, proved against the shipped catalogue (the
server). The disagreements are reported as broken intents with traces, and the repository's baseline accepts
exactly those the server really has, each with its server file — so any new break fails the gate."""
from __future__ import annotations

import os
import re

import pytest

from skillproof.checks.context import replay_problems, run
from skillproof.model import loader
from skillproof.reports import baseline as B

ROOT = os.path.join(os.path.dirname(__file__), "..")
SOURCE = re.compile(r"^(skills|card|strategy)/[a-z_0-9]+\.md › \S")
SERVER_FILE = re.compile(r"\b(skill|card|phase|handler)/[A-Za-z]+\.kt\b")


@pytest.fixture(scope="module")
def shipped():
    cat = loader.load()
    return cat, run(cat)


def test_at_least_forty_promises_each_citing_the_rule_book(shipped):
    cat, _ = shipped
    claims = [i for i in cat.intents if i.claim]
    assert len(claims) >= 40
    for it in cat.intents:
        assert SOURCE.match(it.source), (it.id, it.source)
        assert it.loc.file.startswith("model/catalogue/intents/") or it.loc.file.startswith("<shipped>/intents/")


@pytest.mark.parametrize("intent, rules", [
    ("youdishenru-own-send-phase", {"YouDiShenRu"}),                      # used outside its owner's send phase
    ("xingelianluo-other-player", {"XinGeLianLuo2"}),                     # may target its owner
    ("workers-draw-counts-colours", {"WorkersAreKnowledgable"}),          # draws per card, not per colour
    ("workers-draw-both-colours", {"WorkersAreKnowledgable"}),
    ("xiangjinsisuo-not-after-own-fight-cards", {"XiangJinSiSuo2"}),      # skips the rule book's condition
    ("jiecheyunhuo-others-cannot-misdirect", {"YingBianZiRu"}),           # 应变自如 misdirects 借车运货's message
    ("jiecheyunhuo-owner-may-misdirect", {"JieCheYunHuo"}),
    ("qiangling-at-most-two-names", {"QiangLing"}),
])
def test_the_servers_breaks_are_broken_intents_with_traces(shipped, intent, rules):
    cat, res = shipped
    f = next((x for x in res.findings if x.check == "IN001" and x.details["intent"] == intent), None)
    assert f is not None, intent
    assert rules <= {r.id for r in f.rules}
    assert f.witness and f.witness.get("trace") and replay_problems(cat, f.witness) == []


def test_the_sender_locking_himself_is_allowed_by_both(shipped):
    # the rule book's convention (card/card.md 注意: no 「其他」 means oneself too) and the server agree
    _, res = shipped
    assert "sender-may-lock-himself" in {p["intent"] for p in res.passes}


def test_designed_behaviour_is_documented_not_warned(shipped):
    _, res = shipped
    for code in ("BN001", "CV002", "OD002", "SK003", "SK004"):
        fs = [f for f in res.findings if f.check == code]
        assert fs and all(f.severity == "note" and f.details.get("intended_by") for f in fs), code
    # 应变自如 under 借车运货 is a server bug, not the designed 视为-ignores-bans: it stays a warning
    bn2 = {f.key.split("|")[1].split(">")[0]: f for f in res.findings if f.check == "BN002"}
    assert bn2["JieCheYunHuo"].severity == "warning" and not bn2["JieCheYunHuo"].details.get("intended_by")
    assert bn2["QiangLing"].details["intended_by"]["intent"] == "qiangling-spares-shiwei-skills"


def test_the_shipped_baseline_accepts_exactly_the_servers_bugs(shipped):
    _, res = shipped
    base = B.load(os.path.join(ROOT, "skillproof-baseline.toml"))
    active, accepted, stale = B.apply(base, res.findings)
    assert stale == []
    assert [f.id for f in active if f.severity != "note"] == []       # the gate: nothing new at warning or above
    assert {f.id for f, _ in accepted} == {e.id for e in base.entries}
    for e in base.entries:
        assert SERVER_FILE.search(e.reason), (e.id, e.reason)


def test_every_error_and_warning_is_no_designed_behaviour(shipped):
    _, res = shipped
    for f in res.findings:
        if f.severity in ("error", "warning"):
            assert not f.details.get("intended_by"), f.id


# ------------------------------------------------------------------ fight-phase-is-public: strong enough to break
def _planted(tmp_path, card: str, windows: str):
    """The shipped catalogue with one card's ``windows`` replaced, and only the strategy intents (the one under
    test among them), loaded from a copy."""
    import shutil
    src = loader.shipped_path()
    dst = tmp_path / "catalogue"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("skills-*.toml", "card.toml"))
    cards = (dst / "cards.toml").read_text(encoding="utf-8")
    head, sep, rest = cards.partition(f'id = "{card}"\n')
    assert sep, card
    line = next(ln for ln in rest.splitlines() if ln.startswith("windows = "))
    rest = rest.replace(line, f"windows = {windows}", 1)
    # a target condition keyed by a window the card no longer has goes with it (误导's { fight = … }: the loader
    # refuses a condition for a window the card is not used in)
    tline = next((ln for ln in rest.split("\n[[card]]")[0].splitlines() if ln.startswith("target = {")), None)
    if tline is not None and "fight = " in tline and "fight" not in windows:
        rest = rest.replace(tline, 'target = "any"', 1)
    (dst / "cards.toml").write_text(head + sep + rest, encoding="utf-8")
    return loader.load([str(dst)])


def _fight_public(res):
    return ([f for f in res.findings if f.details.get("intent") == "fight-phase-is-public"],
            [p for p in res.passes if p["intent"] == "fight-phase-is-public"])


def test_fight_phase_is_public_holds_on_the_shipped_catalogue(shipped):
    _, res = shipped
    broken, proved = _fight_public(res)
    assert broken == [] and len(proved) == 1


@pytest.mark.parametrize("card, windows", [
    ("Jie_Huo", '{ fight = "turn" }'),            # 截获 only for the turn player (issue 27's planted mistake)
    ("Diao_Bao", '{ fight = "turn" }'),           # 调包 the same
    ("Wu_Dao", '{ fight = "turn" }'),             # 误导 the same
    ("Wu_Dao", '{ main = "anyone" }'),            # 误导 moved out of 争夺阶段
])
def test_fight_phase_is_public_breaks_when_a_fight_card_is_the_turn_players(tmp_path, card, windows):
    from skillproof.checks.context import Options
    cat = _planted(tmp_path, card, windows)
    res = run(cat, Options(only=("intent",)))
    broken, proved = _fight_public(res)
    assert [f.check for f in broken] == ["IN001"] and proved == [], (card, windows)
    assert card in {r.id for r in broken[0].rules}, [r.id for r in broken[0].rules]
