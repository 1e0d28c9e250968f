"""The extractor on the code forms of the server's older history (tests/fixtures/kotlin/oldforms: an invented
server written in those forms), the engine rules it reads from engine files, when an extraction counts as
degraded, and what counts as newly understood between two extractions."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from skillproof.model.extract import extract
from skillproof.model.extract.degraded import degradation, undecided
from skillproof.model.extract.understood import reconcile

from gitrepo import ENGINE as CONVERSION_LOOP

FIX = Path(__file__).parent / "fixtures" / "kotlin"
OLD = FIX / "oldforms"
SERVER = FIX / "server"


@pytest.fixture(scope="module")
def old():
    ex = extract(OLD)
    assert ex.load_errors == []
    return ex


def test_getter_skill_ids_name_the_skills(old):
    assert old.catalogue.skills["Wait"].name == "等候"           # `override fun getSkillId(): SkillId? { return … }`
    assert old.catalogue.skills["Worker"].name == "工人"         # `… = SkillId.WORKER`
    assert not [i for i in old.report if i.kind == "name"]


def test_single_card_conversion_is_read_positionally(old):
    c = old.catalogue.skills["Wait"].convert                      # ConvertCardSkill(Jie_Huo, Wu_Dao, false)
    assert (str(c.source), [str(t) for t in c.targets], c.must) == ("Jie_Huo", ["Wu_Dao"], False)
    c = old.catalogue.skills["Swap2"].convert                     # a nested grant passing its parameters through
    assert (str(c.source), [str(t) for t in c.targets], c.must) == ("cardTypeA", ["cardTypeB"], True)


def test_array_spread_grants_and_removal_by_skill_id(old):
    cat = old.catalogue
    g = cat.skills["Swap"].gives[0]                               # `val skill = Swap2(…); r.skills = arrayOf(*r.skills, skill)`
    assert (g.grant, g.args) == ("Swap2", {"cardTypeA": "Jie_Huo", "cardTypeB": "Po_Yi"})
    assert cat.skills["Echo"].gives[0].grant == "Echo2"          # `arrayOf(*r.skills, Echo2())`
    e2 = cat.skills["Echo2"]                                      # `skills.filterNot { it.skillId == skillId }.toTypedArray()`
    assert e2.consumed and e2.lifetime == "until_fired"
    assert not [i for i in old.report if i.kind == "site"]


def test_a_target_the_giver_refuses_to_be(old):
    gives = old.catalogue.skills["Ban"].gives                     # `if (pb.targetPlayerId == 0) return`
    assert [(g.grant, g.to) for g in gives] == [("CannotPlayCard", "others"), ("InvalidSkill", "others")]
    assert [g.to for g in old.catalogue.skills["Swap"].gives] == ["target"]


def test_initial_skill_marker_interface(old):
    cat = old.catalogue
    assert cat.skills["Wait"].initial and cat.skills["Worker"].initial
    assert not cat.skills["Swap2"].initial and not cat.skills["CannotPlayCard"].initial
    assert not [i for i in old.report if i.kind == "initial"]


def test_cannot_receive_kept_in_the_receive_handler(old):
    s2 = old.catalogue.skills["Swap2"]            # `if (!mustReceive && r.findSkill(SkillId.SWAP2) != null) return`
    assert "MustReceiveMessage" in s2.kinds and "ConvertCardSkill" in s2.kinds
    from skillproof.model import expr as E
    assert (E.to_text(s2.receive.must), E.to_text(s2.receive.cannot)) == ("false", "true")
    assert old.engine["must_beats_cannot"].value is True


def test_old_draw_method_name(old):
    from skillproof.model import expr as E
    assert E.to_text(old.catalogue.skills["Worker"].draw) == "count + 1"   # method named changeGameResult


def test_unused_ban_parameter_is_dropped(old):
    cat = old.catalogue
    cp = cat.skills["CannotPlayCard"]
    assert set(cp.params) == {"cardType", "forbidAllCard"}                 # forbidAllSkill is never read
    assert (str(cp.ban.cards), str(cp.ban.all)) == ("cardType", "forbidAllCard")
    assert cat.skills["Ban"].gives[0].args == {"cardType": (), "forbidAllCard": True} or \
        cat.skills["Ban"].gives[0].args == {"cardType": [], "forbidAllCard": True}


def test_old_role_table_forms(old):
    cat = old.catalogue
    assert list(cat.characters) == ["alpha", "beta", "delta"]             # the commented-out 丙 is not read
    assert not cat.characters["alpha"].hidden and cat.characters["beta"].hidden   # 4th parameter isFaceUp


def test_engine_rules_of_old_code(old):
    e = {k: r.value for k, r in old.engine.items()}
    assert e["face_down_converts"] is True and e["face_down_grant_converts"] is True   # no face-up test yet
    assert e["must_receive"] == ("locked", "turn")        # the receive handler refuses the turn player's decline
    assert e["draw_base"] == 2                            # DrawPhase draws Config.HandCardCountEachTurn (default 2)
    assert e["convert.pick"] == "the first" and e["convert.only_must"] is False
    assert e["invalidation.wraps"] == "initial skills"    # InvalidSkill.deal tests the InitialSkill marker
    assert e["trigger.source"] == "a game-wide listening list"
    assert e["roles.start_face_up"] == "public roles"
    assert e["turn_end"] is None and e["skip_fight"] is None
    rules = old.catalogue.rules                           # rules.toml carries what was read into the catalogue
    assert rules.face_down_converts and rules.must_receive == ("locked", "turn") and rules.draw_base == 2
    assert "# turn_end: not read" in old.files["rules.toml"]
    assert any(i.kind == "engine" and i.subject == "turn_end" for i in old.report)


# ------------------------------------------------------------------------------ engine rules, today's forms
ENGINE = {
    "skill/Engine.kt": CONVERSION_LOOP + """
fun SendPhaseIdle.mustReceiveMessage() = inFrontOfWhom === sender || lockedPlayers.any { it === inFrontOfWhom } ||
    inFrontOfWhom.skills.any { it is MustReceiveMessage && it.mustReceive(this) }

fun Player.hasNoSkillForFightPhase(fightPhase: FightPhaseIdle) =
    !skills.any { it.isInitialSkill || it is ActiveSkill } ||
        hasEverFaceUp && !skills.any { it is ActiveSkill && it.canUse(fightPhase, this) }

fun Player.cannotPlayCardAndSkillForFightPhase(fightPhase: FightPhaseIdle) =
    (skills.any { it is CannotPlayCard && it.forbidAllCard } || cards.isEmpty()) && hasNoSkillForFightPhase(fightPhase)

fun Player.cannotPlayCardAndSkillForChengQing() =
    (skills.any { it is CannotPlayCard && it.forbidAllCard } || cards.isEmpty()) &&
        hasEverFaceUp && !skills.any { it is ActiveSkill && it !is MainPhaseSkill }

object TurnEnd {
    fun next(game: Game) {
        OneTurnSkill.reset(game)
        InvalidSkill.reset(game)
    }
}

fun Game.dealListeningSkill(beginLocation: Int): Any? {
    for (player in players) {
        player!!.skills.forEach { skill ->
            if (player.alive || skill is BeforeDieSkill || !skill.isInitialSkill)
                (skill as? TriggeredSkill)?.execute(this, player)
        }
    }
    return null
}
""",
    "phase/Receive.kt": """package demo.game.phase

class ChooseWhetherReceiveTos {
    fun handle(fsm: SendPhaseIdle, receive: Boolean) {
        val mustReceive = fsm.mustReceiveMessage()
        if (receive) {
            if (!mustReceive && fsm.cannotReceiveMessage()) return
        }
    }
}
""",
}


def _server_with(tmp_path, files: dict) -> Path:
    root = tmp_path / "srv"
    shutil.copytree(SERVER, root)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _engine(tmp_path, guard="roleFaceUp || !s.isInitialSkill || continue", extra=None):
    files = {k: v.replace("GUARD", guard) for k, v in ENGINE.items()}
    files.update(extra or {})
    ex = extract(_server_with(tmp_path, files))
    assert ex.load_errors == []
    return ex, {k: r.value for k, r in ex.engine.items()}


@pytest.mark.parametrize("guard, expect", [
    ("roleFaceUp || !s.isInitialSkill || continue", (False, True)),   # today: initial conversions skipped
    ("if (!roleFaceUp && s.isInitialSkill) continue", (False, True)),  # the same, spelt another way
    ("roleFaceUp || continue", (False, False)),                       # 2023-10: the whole loop face up only
    ("", (True, True)),                                               # before: no face-up test
    ("if (roleFaceUp && s.isInitialSkill) continue", (None, None)),   # drops skills of a face-up role: not read
])
def test_face_down_conversions(tmp_path, guard, expect):
    _ex, e = _engine(tmp_path, guard)
    assert (e["face_down_converts"], e["face_down_grant_converts"]) == expect


def test_engine_rules_of_todays_forms(tmp_path):
    ex, e = _engine(tmp_path)
    assert e["must_receive"] == ("locked", "sender") and e["must_beats_cannot"] is True
    assert e["turn_end"] == ("drop_one_turn", "restore_invalid")      # the order the calls stand in
    assert e["skip_fight"] == ("skills_gone", "can_use")              # read through the helper predicate
    assert e["skip_dying"] == ()                                      # no skills-gone clause, no canUse
    assert e["convert.pick"] == "must, else the last" and e["convert.only_must"] is True
    assert e["invalidation.wraps"] == "initial skills"
    assert e["trigger.source"] == "the players' skill lists"
    assert e["trigger.dead_owner"] == "generated, BeforeDieSkill"
    r = ex.catalogue.rules
    assert r.turn_end == ("drop_one_turn", "restore_invalid") and r.skip_dying == () and not r.face_down_converts
    assert r.skip_fight == ("can_use", "skills_gone")


def test_lock_self_and_start_face(tmp_path):
    send = """package demo.game.phase

class SendMessageCardTos {
    fun handle(ids: List<Int>, n: Int) {
        val lockPlayerIdList = ids
        val locks = lockPlayerIdList.map {
            if (it BOUND 0 || it >= n) return
            it
        }
    }
}
"""
    roles = (SERVER / "skill" / "RoleSkillsData.kt").read_text(encoding="utf-8").replace(
        "    val skills: List<Skill>,\n) {", "    val skills: List<Skill>,\n) {\n    var isFaceUp = !isPublicRole\n")
    _ex, e = _engine(tmp_path, extra={"phase/Send.kt": send.replace("BOUND", "<="),
                                      "skill/RoleSkillsData.kt": roles})
    assert e["lock_self.sendmessagecardtos"] is False and e["roles.start_face_up"] == "hidden roles"
    _ex, e = _engine(tmp_path / "b", extra={"phase/Send.kt": send.replace("BOUND", "<")})
    assert e["lock_self.sendmessagecardtos"] is True


# ------------------------------------------------------------------------------------------- degraded
def test_a_broken_skill_file_and_a_lost_skill_degrade(tmp_path):
    ex = extract(_server_with(tmp_path, {"skill/Shadow.kt": "package demo.game.skill\n\nclass Shadow : {{ (\n"}))
    reasons = degradation(ex)
    assert any("fail to parse: skill/Shadow.kt" in r for r in reasons)
    assert any("lost skills" in r and "beta" in r for r in reasons)


def test_undecided_far_above_baseline_degrades(tmp_path):
    ex = extract(SERVER)
    n = undecided(ex)
    assert not [r for r in degradation(ex, baseline=n) if "undecided" in r]
    assert [r for r in degradation(ex, baseline=n - 21) if "undecided" in r]
    assert not [r for r in degradation(ex, baseline=n - 21, max_increase=30) if "undecided" in r]


# ------------------------------------------------------------------------------------ newly understood
LEDGER_TWO_STEPS = """package demo.game.skill

import demo.game.Game
import demo.game.Player
import demo.game.phase.FightPhaseIdle

class Ledger : ActiveSkill {
    override val skillId = SkillId.LEDGER

    override val isInitialSkill = true

    override fun canUse(phase: FightPhaseIdle, user: Player): Boolean BODY

    override fun executeProtocol(g: Game, user: Player, message: Any) {}
}
"""


def test_readable_code_is_newly_understood_not_changed(tmp_path):
    base = extract(_server_with(tmp_path / "a", {
        "skill/Ledger.kt": LEDGER_TWO_STEPS.replace("BODY", "{\n        val many = user.cards.size > 1\n"
                                                            "        return many\n    }"),
        **{k: v.replace("GUARD", "if (roleFaceUp && s.isInitialSkill) continue") for k, v in ENGINE.items()}}))
    head = extract(_server_with(tmp_path / "b", {
        "skill/Ledger.kt": LEDGER_TWO_STEPS.replace("BODY", "= user.cards.size > 1"),
        **{k: v.replace("GUARD", "") for k, v in ENGINE.items()}}))
    rec = reconcile(base, head)
    got = {(u.id, u.field, u.change) for u in rec.understood}
    assert ("Ledger", "fight", "newly understood") in got
    assert ("face_down_converts", "engine", "newly understood") in got     # not read before, read now
    from skillproof.model import expr as E
    assert E.to_text(rec.base.skills["Ledger"].fight) == E.to_text(rec.head.skills["Ledger"].fight)
    assert rec.base.rules.face_down_converts is True                       # BASE takes what HEAD reads
    assert rec.engine == []
    back = reconcile(head, base)                                           # the other way round
    assert {(u.id, u.field, u.change) for u in back.understood} >= {("Ledger", "fight", "no longer understood")}
    assert {c.name for c in back.engine} >= {"face_down_converts"}          # an engine rule no longer read fails
    assert back.head.rules.face_down_converts is True                      # … and keeps BASE's value meanwhile


def test_engine_code_new_in_head_is_a_change(tmp_path):
    base = extract(SERVER)                                                  # no conversion loop at all
    head, _ = _engine(tmp_path)
    rec = reconcile(base, head)
    new = {c.name: c for c in rec.engine}
    assert new["face_down_converts"].base is None and new["face_down_converts"].head is False
    assert "new in HEAD" in new["face_down_converts"].message()
    assert not [u for u in rec.understood if u.id == "face_down_converts"]


def test_changed_engine_rule_is_an_engine_change(tmp_path):
    base, _ = _engine(tmp_path / "a")
    head, _ = _engine(tmp_path / "b", guard="roleFaceUp || continue")
    rec = reconcile(base, head)
    assert [(c.name, c.base, c.head) for c in rec.engine] == [("face_down_grant_converts", True, False)]
    assert "true → false" in rec.engine[0].message()


def test_the_dying_skip_predicate_is_found_where_the_dying_states_ask_it(tmp_path):
    """A skip predicate named otherwise (not ``cannotPlayCardAndSkill…``) is the one-expression function the dying
    states call: a rename is no change of the rule, and the fight predicate is not read in its place."""
    engine = ENGINE["skill/Engine.kt"].replace("cannotPlayCardAndSkillForChengQing", "cannotActWhenDying")
    state = """package demo.game.phase

class WaitNextForChengQing(val whoDie: Player, val askWhom: Player) : Fsm {
    override fun resolve(): ResolveResult? {
        if (askWhom.alive && !askWhom.cannotActWhenDying()) return ResolveResult(this, false)
        return null
    }
}
"""
    _ex, e = _engine(tmp_path, extra={"skill/Engine.kt": engine, "phase/WaitNextForChengQing.kt": state})
    assert e["skip_dying"] == () and e["skip_fight"] == ("skills_gone", "can_use")
