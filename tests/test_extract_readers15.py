"""Readers of the gate's real side written at the forty-seventh stop (issue 24; measured on the twelfth planted sample,
benchmarks/history/planted12.toml): a real change of a card or skill the gate passed as "no rule change" or left
inconclusive is now a catalogue difference it names. Each on small Kotlin of our own, never the game's code."""
from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "kotlin" / "server"


def _edited(tmp_path, sub: str, rel: str, old: str, new: str):
    from skillproof.model.extract import extract
    d = tmp_path / sub
    shutil.copytree(FIXTURE, d)
    path = d / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


_TURN_TEST = "if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) return false"


def test_a_card_whose_canuse_never_reads_the_windows_player_is_anyones(tmp_path):
    # p12-card-pingheng-any-main-phase: canUse tests that the game is in the main phase but no longer that the user is
    # the turn player — the window stays, its actor becomes "anyone" (was "turn" either way: the catalogues were equal
    # and the gate said "no rule change")
    same = _edited(tmp_path, "a", "card/Sidetrack.kt", _TURN_TEST, _TURN_TEST)
    anyone = _edited(tmp_path, "b", "card/Sidetrack.kt", _TURN_TEST, "if (g.fsm !is MainPhaseIdle) return false")
    assert same.catalogue.cards["Diao_Hu_Li_Shan"].windows == {"main": "turn"}
    assert anyone.catalogue.cards["Diao_Hu_Li_Shan"].windows == {"main": "anyone"}
    # the turn player read through a local bound to the state is still the turn player's window
    local = _edited(tmp_path, "c", "card/Sidetrack.kt", _TURN_TEST,
                    "val fsm = g.fsm as? MainPhaseIdle ?: return false\n        if (r !== fsm.whoseTurn) return false")
    assert local.catalogue.cards["Diao_Hu_Li_Shan"].windows == {"main": "turn"}
    # and a window whose players are asked in turn (争夺阶段) is everyone's already: nothing changes there
    fight = _edited(tmp_path, "d", "card/Grab.kt", "return r === fsm?.whoseTurn || fsm != null", "return fsm != null")
    assert fight.catalogue.cards["Jie_Huo"].windows == {"fight": "anyone"}


def test_the_gate_names_a_card_opened_to_anyone(tmp_path):
    from skillproof.checks.diff import Differ, changed_rules
    from skillproof.model.extract.unread import read_tree
    from skillproof.kotlin_diff import vouched_ids
    base = _edited(tmp_path, "a", "card/Sidetrack.kt", _TURN_TEST, _TURN_TEST)
    head = _edited(tmp_path, "b", "card/Sidetrack.kt", _TURN_TEST, "if (g.fsm !is MainPhaseIdle) return false")
    for ex, sub in ((base, "a"), (head, "b")):
        ex.sources = read_tree(tmp_path / sub)
    changed = changed_rules(base.catalogue, head.catalogue)
    assert "Diao_Hu_Li_Shan" in changed
    assert "Diao_Hu_Li_Shan" in vouched_ids(base.catalogue, head.catalogue, changed, [])
    d = Differ(base.catalogue, head.catalogue, n=3, G=1)
    assert [(p.id, p.side) for p in d.possible() if p.id == "Diao_Hu_Li_Shan"] == [("Diao_Hu_Li_Shan", "new")]
