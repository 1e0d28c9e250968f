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


FIXTURE = ROOT / "tests" / "fixtures" / "kotlin" / "server"

_SEND_CHECK = '''package demo.game.skill

import demo.game.Player
import demo.game.card.Card
import demo.protos.Common.direction

fun Player.mayPass(card: Card, dir: direction, target: Player, lockPlayers: List<Player>): String? {
    val byLock = skills.lastOrNull { it is SendMessageCanLockSkill } as? SendMessageCanLockSkill
    if (byLock != null) {
        if (!byLock.checkCanLock(card, lockPlayers)) return "bad lock"
    } else {
        if (lockPlayers.size > 1) return "one lock at most"
    }
    val byDir = skills.lastOrNull { it is SendMessageDirectionSkill } as? SendMessageDirectionSkill
    if (BYDIR) {
        if (!byDir.checkDir(card, dir)) return "bad direction"
    } else {
        if (dir != card.direction) return "bad direction"
    }
    if (this === target) return "not yourself"
    return null
}
'''


def _send_side(tmp_path, sub: str, cond: str):
    import shutil
    from skillproof.model.loader import load
    from skillproof.model.extract import extract
    d = tmp_path / sub
    shutil.copytree(FIXTURE, d)
    (d / "skill" / "MayPass.kt").write_text(_SEND_CHECK.replace("BYDIR", cond), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    ex.catalogue = load(texts={f"{sub}/{n}": t for n, t in ex.files.items()})
    return ex


def test_a_send_default_no_longer_read_is_carried_parsed_and_compared(tmp_path):
    # p11-send-lianluo-not-up: the branch on the direction skill in force gains a second condition, so HEAD's send_dir
    # is not read; BASE's reading was carried into HEAD as its text and the encoder crashed ("cannot compile str",
    # exit 4). Now the parsed rule is carried, the comparison runs, and the send check's change is what fails.
    from skillproof.checks.diff import Differ
    from skillproof.model import expr as E
    from skillproof.model.extract.understood import reconcile
    base = _send_side(tmp_path, "a", "byDir != null")
    head = _send_side(tmp_path, "b", "byDir != null && card.direction != direction.Up")
    assert base.engine["send_dir"].value and head.engine["send_dir"].value is None
    rec = reconcile(base, head)
    assert isinstance(rec.head.rules.send_dir, E.Node)
    assert E.to_text(rec.head.rules.send_dir) == E.to_text(base.catalogue.rules.send_dir)
    assert any(ec.name == "send_dir" for ec in rec.engine)
    Differ(rec.base, rec.head, n=3, G=1, timeout_ms=5000).changes(per_decision=1)     # compiles: no ValueError


def test_a_value_the_encoder_cannot_compile_is_a_located_inconclusive(tmp_path, capsys):
    # whatever else carries a value the solver has no term for, it is a named error the gate turns into exit 3 naming
    # the code read apart — never the internal error of exit 4
    from types import SimpleNamespace
    from skillproof.checks.enc.state import Uncompilable, _compile
    from skillproof.kotlin_diff import _uncompilable
    from skillproof.model.extract.understood import reconcile
    try:
        _compile("dir == message_dir", SimpleNamespace(S=None))
    except Uncompilable as e:
        err = e
    else:
        raise AssertionError("compiled a str")
    base = _send_side(tmp_path, "a", "byDir != null")
    head = _send_side(tmp_path, "b", "byDir != null && card.direction != direction.Up")
    assert _uncompilable(err, reconcile(base, head), base, head) == 3
    msg = capsys.readouterr().err
    assert "inconclusive" in msg or "无法判定" in msg
    assert "send_dir" in msg and "MayPass.kt" in msg


def test_a_message_sent_with_a_list_of_locks_not_read_is_partly_read(tmp_path):
    # p11-send-yuqin-no-locks: a card's own send (OnSendCard) passes an empty list instead of the locks its user chose;
    # the locks argument was only read when it was listOf(one player), anything else passed silently as "the sender's
    # choice" — now a list the reader has no term for leaves the construct partly read (UNR001 at its line)
    from test_extract_card_effects import LOOSE, _cat
    chosen = _cat(tmp_path / "a", "Loose", LOOSE.replace("FACE", "true"))
    none = _cat(tmp_path / "b", "Loose", LOOSE.replace("FACE", "true").replace("target, locks,", "target, emptyList(),"))
    key = ("card/Loose.kt", "Loose", "execute")
    assert chosen.reads[key] is True
    assert none.reads[key] is False



def _grab(tmp_path, sub: str, extra: str):
    import shutil
    from skillproof.model.extract import extract
    d = tmp_path / sub
    shutil.copytree(FIXTURE, d)
    path = d / "card" / "Grab.kt"
    text = path.read_text(encoding="utf-8")
    old = "Boolean = Companion.canUse(g, r)\n"
    assert text.count(old) == 1
    path.write_text(text.replace(old, old.rstrip("\n") + extra + "\n"), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def test_a_card_check_returned_with_the_shared_check_is_read(tmp_path):
    # p11-card-jiehuo-not-by-holder: `return Companion.canUse(g, r) && r !== (g.fsm as FightPhaseIdle).inFrontOfWhom`
    # — a conjunction canUse returns was not walked (the shared check unread, the added test dropped: exit 0). Now
    # each operand is a check, the shared one walked, a test of the window's player read (a hard cast as `as?`)
    from skillproof.model import expr as E
    plain = _grab(tmp_path, "a", "")
    assert plain.catalogue.cards["Jie_Huo"].requires is None
    key = ("card/Grab.kt", "Grab", "canUse")
    barred = _grab(tmp_path, "b", " && r !== (g.fsm as FightPhaseIdle).inFrontOfWhom")
    assert E.to_text(barred.catalogue.cards["Jie_Huo"].requires) == "front != self"
    assert barred.reads[key] is True
    odd = _grab(tmp_path, "c", " && r.cards.size > g.deck.size")
    assert odd.reads[key] is False


def test_a_difference_only_by_an_unknown_vouches_for_no_code(tmp_path):
    # seed 12's card_cond-03: a card's check negated is read as an `unknown` requires; the catalogues differ, so the
    # changed canUse counted as read and the gate passed (only a TB001 warning, exit 0). A difference that is only an
    # unknown now vouches for nothing: the changed construct is named unread (UNR001 at its line)
    from skillproof.checks.diff import Differ
    from skillproof.kotlin_diff import unread_findings, vouched_ids
    from skillproof.model.extract.unread import read_tree
    plain = _grab(tmp_path, "a", "")
    odd = _grab(tmp_path, "c", " && r.cards.size > g.deck.size")
    barred = _grab(tmp_path, "b", " && r !== (g.fsm as FightPhaseIdle).inFrontOfWhom")
    for ex, sub in ((plain, "a"), (odd, "c"), (barred, "b")):
        ex.sources = read_tree(tmp_path / sub)
    changed = Differ(plain.catalogue, odd.catalogue, n=3, G=1).changed
    assert "Jie_Huo" in changed
    ids = vouched_ids(plain.catalogue, odd.catalogue, changed, [])
    assert "Jie_Huo" not in ids
    unr, _ = unread_findings(plain, odd, ids, [], "", "")
    assert [(f.check, f.rules[0].id, f.rules[0].file) for f in unr] == [("UNR001", "Grab.canUse", "card/Grab.kt")]
    # a difference read whole still vouches for its code
    assert "Jie_Huo" in vouched_ids(plain.catalogue, barred.catalogue, Differ(plain.catalogue, barred.catalogue, n=3,
                                                                                 G=1).changed, [])
