"""What the fresh labelled samples of the server's history (benchmarks/history/labels-fresh*.toml) showed the
extractor and the unread-code comparison getting wrong, each fixed in general and tested here on small Kotlin
snippets written for these tests (never the server's code): what is no rule (JVM assertions, annotations, a declared
type, a constant getter, a robot's branch behind a test on the human player's class, a notification loop in a
decline branch), what is a rule after all (a library call that only looks renamed, the client's message handed on to
the state the game waits in)."""
from __future__ import annotations

import shutil

from skillproof.model.extract import extract
from skillproof.model.extract.unread import compare

from test_effects_read import HAMMER, _entry, _server


def _changes(before: str, after: str, rel="skill/Watch.kt", extra_base=None, extra_head=None):
    base = {rel: before.encode()}
    head = {rel: after.encode()}
    base.update(extra_base or {})
    head.update(extra_head or {})
    return [(c.where, c.change) for c in compare(base, head).changes]


STATE = """package demo.game.skill

import demo.game.*
import demo.protos.Common.card_type
import demo.protos.Common.card_type.Shi_Tan

class Watch : TriggeredSkill {
    override val skillId = SkillId.WATCH

    TYPE

    ANNOTATION
    private data class ExecuteWatch(val fsm: Fsm, val q: ArrayDeque<Player>) : WaitingFsm {
        override fun resolve(): ResolveResult? {
            CHECK
            val target = q.TAKE()
            if (target == null) return ResolveResult(fsm, true)
            target.draw(1)
            return null
        }
    }
}
"""


def _state(**kw):
    text = STATE
    defaults = {"TYPE": "override val type = card_type.Shi_Tan", "ANNOTATION": "", "CHECK": "",
                "TAKE": "removeFirstOrNull"}
    for k, v in {**defaults, **kw}.items():
        text = text.replace(k, v)
    return text


def test_an_assertion_is_no_rule():
    """`assert(…)` runs only with the JVM's -ea, which the server does not pass: removing one changes no play."""
    assert _changes(_state(CHECK="assert(q.isNotEmpty())"), _state()) == []
    # a check that throws in play is kept
    assert _changes(_state(CHECK="require(q.isNotEmpty())"), _state()) == [("Watch.ExecuteWatch.resolve", "changed")]


def test_annotations_and_declared_types_are_no_rule():
    assert _changes(_state(ANNOTATION="@JvmRecord"), _state()) == []
    assert _changes(_state(TYPE="override val type: card_type = card_type.Shi_Tan"), _state()) == []
    # a state class's parameter typed more narrowly (`val fsm: Fsm` → `val fsm: OnSendCardSkill`)
    narrow = _state().replace("(val fsm: Fsm,", "(val fsm: OnSendCardSkill,")
    assert narrow != _state() and _changes(_state(), narrow) == []


def test_a_constant_getter_is_the_property_it_initialises():
    getter = _state(TYPE="override val type: card_type\n        get() = card_type.Shi_Tan")
    assert _changes(getter, _state()) == []
    assert _changes(_state(TYPE="override val type: card_type\n        get() { return Shi_Tan }"),
                    _state(TYPE="override val type = Shi_Tan")) == []
    # a property initialised with a bare name keeps its value: changing it is a change
    assert _changes(_state(TYPE="override val type = Shi_Tan"), _state(TYPE="override val type = Wu_Dao")) == [
        ("Watch.type", "changed")]
    # a getter that reads the game is not a constant
    assert _changes(_state(TYPE="override val open: Boolean\n        get() = fsm.alive"),
                    _state(TYPE="override val open = fsm.alive")) == [("Watch.open", "changed")]


def test_a_library_call_replaced_is_no_rename():
    """Taking from the other end of a queue is a change, although the old call no longer appears anywhere and the new
    one did not appear before: only names the code base declares are renamed throughout."""
    assert _changes(_state(TAKE="removeLastOrNull"), _state()) == [("Watch.ExecuteWatch.resolve", "changed")]
    # a function of the code base renamed everywhere is still the same tree
    helper_b = {"Helper.kt": b"package demo.game\nfun Player.takeOne(): Player? = null\n"}
    helper_h = {"Helper.kt": b"package demo.game\nfun Player.pickOne(): Player? = null\n"}
    assert _changes(_state(TAKE="takeOne"), _state(TAKE="pickOne"), extra_base=helper_b, extra_head=helper_h) == []


ROBOT = """package demo.game.skill

import demo.game.*

class Watch : TriggeredSkill {
    override val skillId = SkillId.WATCH

    override fun ask(r: Player) {
        if (r is HumanPlayer) {
            r.timeout = GameExecutor.post(r.game!!, { r.game!!.tryContinueResolveProtocol(r, skillWatchTos { }) }, 17,
                TimeUnit.SECONDS)
        } else {
            ROBOT
        }
        HUMAN
    }
}
"""


def test_the_other_branch_of_a_human_test_is_the_robots():
    before = ROBOT.replace("ROBOT", "GameExecutor.post(r.game!!, { r.game!!.tryContinueResolveProtocol(r, "
                                    "builder.build()) }, 1, TimeUnit.SECONDS)").replace("HUMAN", "")
    after = ROBOT.replace("ROBOT", "val c = r.cards.first()\n            r.game!!.tryContinueResolveProtocol(r, "
                                   "skillWatchTos { cardId = c.id })").replace("HUMAN", "")
    assert _changes(before, after) == []
    # what a test on the robot's class keeps for everyone else is a rule
    base = ROBOT.replace("ROBOT", "").replace("HUMAN", "if (r !is RobotPlayer) r.draw(1)")
    head = ROBOT.replace("ROBOT", "").replace("HUMAN", "if (r !is RobotPlayer) r.draw(2)")
    assert _changes(base, head) == [("Watch.ask", "changed")]


HANDLER = """package demo.game.handler

import demo.game.HumanPlayer

class skill_watch_tos : AbstractProtoHandler<Role.skill_watch_tos>() {
    override fun handle0(r: HumanPlayer, pb: Role.skill_watch_tos) {
        BODY
    }
}
"""


def test_a_message_handed_on_is_kept_a_handler_that_only_hands_on_is_empty():
    wrong = "if (r !== (r.game!!.fsm as? SendPhaseStart)?.player) {\n            WHAT\n            return\n        }\n"
    refuse = HANDLER.replace("BODY", wrong.replace("WHAT", 'logger.error("not now")') + "        r.draw(1)")
    hand_on = HANDLER.replace("BODY", wrong.replace("WHAT", "r.game!!.tryContinueResolveProtocol(r, pb)") +
                              "        r.draw(1)")
    rel = "handler/skill_watch_tos.kt"
    assert _changes(refuse, hand_on, rel) == [("skill_watch_tos.handle0", "changed")]
    # a handler whose whole body hands the message on, added or removed, says nothing the gate can tell
    only = HANDLER.replace("BODY", "r.game!!.tryContinueResolveProtocol(r, pb)")
    assert compare({}, {rel: only.encode()}).changes == []


def test_a_decline_branch_that_notifies_reads_as_one_that_does_not(tmp_path):
    """Telling the clients that a choice was declined (a loop over the players sending each human a message) leaves
    the decline a guard: what the rule does reads the same."""
    decline = "if (pb.targetPlayerId == 0) {\n            return\n        }"
    notified = ("if (pb.targetPlayerId == 0) {\n            for (p in g.players) {\n                if (p is HumanPlayer) "
                "{\n                    val builder = skill_hammer_toc.newBuilder()\n                    builder.enable = "
                "false\n                    p.send(builder.build())\n                }\n            }\n            return\n"
                "        }")
    assert decline in HAMMER
    plain = extract(_server(tmp_path / "a"))
    d = _server(tmp_path / "b")
    hammer = d / "skill" / "Hammer.kt"
    hammer.write_text(hammer.read_text(encoding="utf-8").replace(decline, notified), encoding="utf-8")
    told = extract(d)
    for key in ("do", "requires"):
        assert _entry(told, "Hammer").get(key) == _entry(plain, "Hammer").get(key), key
    assert told.reads[("skill/Hammer.kt", "Hammer", "executeProtocol")] is True
    shutil.rmtree(tmp_path / "a")


DUSK = """package demo.game.skill

import demo.game.*

class Dusk : TriggeredSkill {
    override val skillId = SkillId.DUSK
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        g.findEvent<PlayerDieEvent>(this) { event ->
            askWhom === event.whoDie
        } ?: return null
        g.players.first()!!.skills = emptyList()
        return null
    }
}
"""

DISPATCH = """package demo.game

import demo.game.skill.*

class PlayerDieEvent(val whoseTurn: Player, val whoDie: Player)

fun Game.dealListeningSkill(beginLocation: Int, FLAG): Any? {
    for (player in players) {
        player!!.skills.forEach { skill ->
            if (GUARD)
                (skill as? TriggeredSkill)?.execute(this, player)
        }
    }
    return null
}
"""


def _dusk(tmp_path, flag, guard):
    from test_extract_history import _server_with
    from test_extract_history import SERVER as FIXTURE
    ids = (FIXTURE / "skill" / "SkillId.kt").read_text(encoding="utf-8").replace("ECHO(", 'DUSK("暮"),\n    ECHO(', 1)
    roles = (FIXTURE / "skill" / "Roles.kt").read_text(encoding="utf-8").replace("Echo()", "Echo(), Dusk()", 1)
    return extract(_server_with(tmp_path, {"skill/Dusk.kt": DUSK, "skill/SkillId.kt": ids, "skill/Roles.kt": roles,
                                           "Dispatch.kt": DISPATCH.replace("FLAG", flag).replace("GUARD", guard)}))


def test_an_older_dispatch_that_asks_dead_players_initial_skills_in_the_die_phase(tmp_path):
    """Before BeforeDieSkill (2023-10 … 11) the dispatch asked a dead player's initial skills when it ran for a death
    (an `includingDead` flag): a skill answering its holder's own death is written as a BeforeDieSkill, and the
    catalogue loads (it did not: such a skill "never fires" under the later dispatch)."""
    old = _dusk(tmp_path / "old", "includingDead: Boolean = false",
                "includingDead || player.alive || !skill.isInitialSkill")
    assert old.load_errors == []
    assert old.engine["trigger.dead_owner"].value == "generated; in the die phase: generated, initial, BeforeDieSkill"
    dusk = old.catalogue.skills["Dusk"]
    assert "BeforeDieSkill" in dusk.kinds and dusk.initial and dusk.on[0].event == "die"
    assert any(i.kind == "kinds" and i.subject == "Dusk" and not i.undecided for i in old.report)
    # the later dispatch asks only BeforeDieSkills of a dead player: the same skill is left as it is written — a
    # TriggeredSkill answering its holder's own death, which the server allows and the catalogue loads (its own check,
    # TR005, says it never fires)
    new = _dusk(tmp_path / "new", "unused: Int = 0",
                "player.alive || skill is BeforeDieSkill || !skill.isInitialSkill")
    assert new.engine["trigger.dead_owner"].value == "generated, BeforeDieSkill"
    assert new.load_errors == []
    left = new.catalogue.skills["Dusk"]
    assert "BeforeDieSkill" not in left.kinds and left.initial and left.on[0].event == "die"


GAME = """package demo.game

class Game {
    var shown: List<Int> = emptyList()

    override fun start(players: List<Player>) {
        val tasks = arrayListOf(1, 2, 3, 4).shuffled()
        players.forEachIndexed { i, p -> p.task = tasks[i] }
        shown = tasks.subList(0, COUNT)
    }
}
"""
HUMAN = """package demo.game

class HumanPlayer : Player() {
    override fun init() {
        val builder = init_toc.newBuilder()
        builder.addAllShown(game!!.shown)
        send(builder.build())
    }
}
"""


def test_a_member_only_clients_are_told_is_no_rule():
    """What a member holds that is read only to fill a client message (the secret tasks announced as possible) decides
    nothing in play: how it is computed is no rule; a rule reading it makes it one."""
    base = {"Game.kt": GAME.replace("COUNT", "3").encode(), "HumanPlayer.kt": HUMAN.encode()}
    head = {"Game.kt": GAME.replace("COUNT", "4").encode(), "HumanPlayer.kt": HUMAN.encode()}
    assert compare(base, head).changes == []
    rule = {"Player.kt": b"package demo.game\nopen class Player {\n    fun lucky() = game!!.shown.isEmpty()\n}\n"}
    assert [c.where for c in compare({**base, **rule}, {**head, **rule}).changes] == ["Game.start"]
    # the tasks dealt are a rule where a rule reads a player's task (the server's win checks do)
    dealt = {"Game.kt": GAME.replace("COUNT", "3").replace("tasks[i]", "tasks[i + 1]").encode()}
    wins = {"Player.kt": b"package demo.game\nopen class Player {\n    fun won() = task == 1\n}\n"}
    assert [c.where for c in compare({**base, **wins}, {**base, **wins, **dealt}).changes] == ["Game.start"]
    # and a member nothing reads decides nothing: how it is dealt is no rule
    assert compare(base, {**base, **dealt}).changes == []


def test_a_finding_not_realised_in_one_version_is_the_same_question():
    """The checks of both revisions ask the same question; when the realiser finds the game for it on one side and
    not on the other (INC001, naming the finding it could not realise), the gate says neither "new" nor "resolved"
    (found on quiet commits that came out inconclusive with nothing in the code changed but robot logic)."""
    from skillproof.checks.findings import Finding
    from skillproof.diff_report import question
    found = Finding("BN001", "bans", "error", "强令 bans 破译 …", key="bans|QiangLing|Po_Yi")
    lost = Finding("INC001", "bans", "error", "cannot decide: …", key="realise|bans|QiangLing|Po_Yi",
                   inconclusive=True, details={"finding": found.id, "why": {"en": "…", "zh": "…"}})
    other = Finding("INC001", "diff", "error", "cannot decide: …", key="solver|x", inconclusive=True)
    assert question(lost) == question(found) == found.id
    assert question(other) == other.id


def test_the_benchmark_counts_a_rule_named_only_by_a_failing_item():
    """`caught` = the gate fails naming the labelled rule: by its id or by a rule at its own Kotlin file (the follow-up
    skill it hands out); what an unread-code finding (UNR001, inconclusive) names does not count."""
    import importlib.util
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("history_bench", root / "benchmarks" / "history_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    follow_up = {"diff": {"decision_changes": [{"rules": [{"id": "Muse2", "file": "src/main/kotlin/skill/Muse.kt"}]}]},
                 "findings": []}
    unread = {"diff": {"decision_changes": [{"question": {"engine_rule": "skip_fight"}, "rules": []}]},
              "findings": [{"check": "UNR001", "inconclusive": True,
                            "rules": [{"id": "Muse.execute", "file": "src/main/kotlin/skill/Muse.kt"}]}]}
    pair = {"label": "other_behaviour", "kind": "skill_effect", "rules": ["Muse"], "fields": []}
    assert bench.kind_verdict(pair, {"rc": 1, "report": follow_up, "stderr": ""}) == "caught"
    assert bench.kind_verdict(pair, {"rc": 1, "report": unread, "stderr": ""}) == "other rule"


def test_the_older_dispatch_note_in_chinese(tmp_path):
    from skillproof.model.extract import terminal as T
    old = _dusk(tmp_path, "includingDead: Boolean = false", "includingDead || player.alive || !skill.isInitialSkill")
    (note,) = [i for i in old.report if i.kind == "kinds" and i.subject == "Dusk"]
    zh = T.translated(note.message, T.ITEMS)
    assert zh and "BeforeDieSkill" in zh and "死亡" in zh
