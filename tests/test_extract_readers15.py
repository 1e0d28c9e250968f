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


_FIGHTING = "val fighting = fsm is FightPhaseIdle && fsm.whoseTurn === user"


def test_an_active_skill_used_when_the_message_is_sent_gets_that_window(tmp_path):
    # p12-eff-lengxuexunlian-bans-wudao-too: an ActiveSkill whose executeProtocol accepts only a window the default
    # windows of an ActiveSkill never hold (传递阶段开始时, 传递阶段) was written without windows: used nowhere, so
    # nothing it hands out was reachable and a change of its ban (the cards it bans) changed no situation
    # (UNR001 only). Now the window is read from the state it accepts, with its actor read as a card's: the player
    # the user is compared with — not a field merely read (the send's own whoseTurn handed on to the next state).
    plain = _edited(tmp_path, "a", "skill/Shadow.kt", _FIGHTING, _FIGHTING)
    assert plain.catalogue.skills["Shadow"].windows == {"fight": "anyone", "dying": "anyone"}    # the defaults
    assert "windows" not in plain.files["skills.toml"]
    for sub, test, actor in (("b", " && fsm.inFrontOfWhom === user", "in_front"),
                             ("c", " && fsm.inFrontOfWhom.alive", "anyone"),
                             ("d", " && user == fsm.inFrontOfWhom", "in_front")):
        ex = _edited(tmp_path, sub, "skill/Shadow.kt", _FIGHTING, "val fighting = fsm is SendPhaseIdle" + test)
        assert ex.catalogue.skills["Shadow"].windows == {"send": actor, "fight": "anyone", "dying": "anyone"}, sub
        assert f'windows = {{ send = "{actor}"' in ex.files["skills.toml"]
