"""The unread-code outcome of the gate (UNR001): rule-bearing Kotlin that changed and that the extraction does not
turn into a catalogue difference is named — file, line, class and method — as an inconclusive finding (exit 3) in
every report format; what is not a rule (logging, client messages, robot decisions, formatting, renames, moved code)
stays quiet. Small before/after snippets written for these tests, and commits on the fixture server's repository."""
from __future__ import annotations

import json
import types

import pytest

from skillproof.cli import main
from skillproof.model.extract.unread import compare, is_rule_file, unread

from gitrepo import SERVER, git, make_server_repo

TRIGGER = """package demo.game.skill

import demo.game.Game
import demo.game.Player
import demo.protos.Common.card_type

class Watch : TriggeredSkill {
    override val skillId = SkillId.WATCH

    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        val event = g.findEvent<UseCardEvent>(this) { event ->
            askWhom === event.targetPlayer || return@findEvent false
            askWhom.alive || return@findEvent false
            event.cardType == card_type.Shi_Tan
        } ?: return null
        logger.info("${askWhom} uses Watch")
        askWhom.draw(COUNT)
        return ResolveResult(event.fsm, true)
    }

    companion object {
        fun ai(e: Fsm): Boolean {
            return e.whoseTurn.alive
        }
    }
}
"""


def _one(before: str, after: str, rel="skill/Watch.kt"):
    return compare({rel: before.encode()}, {rel: after.encode()})


def _base(text=TRIGGER, **kw):
    out = text.replace("COUNT", "1")
    for a, b in kw.items():
        out = out.replace(a, b)
    return out


def test_a_guard_changed_is_named_with_file_line_class_and_method():
    after = _base().replace("askWhom.alive || return@findEvent false", "!askWhom.roleFaceUp || return@findEvent false")
    cmp = _one(_base(), after)
    assert [(c.file, c.line, c.where, c.change) for c in cmp.changes] == [("skill/Watch.kt", 13, "Watch.execute",
                                                                            "changed")]
    # the extraction read nothing of it: it is unread
    ex = types.SimpleNamespace(locations={}, report=[], engine={}, role_class="")
    assert [c.where for c in unread(cmp, ex, ex, set())] == ["Watch.execute"]
    # a catalogue difference naming the class does not vouch for an effect it does not read …
    ex2 = types.SimpleNamespace(locations={"Watch": "skill/Watch.kt:7"}, report=[], engine={}, role_class="")
    assert [c.where for c in unread(cmp, ex2, ex2, {"Watch"})] == ["Watch.execute"]
    # … but an engine rule that changed there is read
    assert unread(cmp, ex, ex, set(), wheres=["skill/Watch.kt:12"]) == []


def test_an_engine_rule_read_the_same_vouches_for_nothing_else_in_its_function():
    """An engine rule reads one part of a function; a change beside that part — here the guard, while the rule at the
    draw line reads the same in both revisions — is named unread, never passed (three held-out planted changes of the
    server once passed silently: a veto removed from the conversion loop, the listeners asked from seat 0, …)."""
    after = _base().replace("askWhom.alive || return@findEvent false", "!askWhom.roleFaceUp || return@findEvent false")
    cmp = _one(_base(), after)
    rule = types.SimpleNamespace(value=("draw", 1), where="skill/Watch.kt:17")
    ex = types.SimpleNamespace(locations={}, report=[], engine={"demo.rule": rule}, role_class="")
    assert [c.where for c in unread(cmp, ex, ex, set())] == ["Watch.execute"]


def test_an_effect_count_changed_is_named():
    cmp = _one(_base(), TRIGGER.replace("COUNT", "2"))
    assert [(c.line, c.where) for c in cmp.changes] == [(17, "Watch.execute")]


def test_a_method_removed_is_named_at_the_base_line():
    after = _base().replace("        askWhom.draw(1)\n", "")
    cmp = _one(_base(), after)
    assert [(c.line, c.side) for c in cmp.changes] == [(17, "HEAD")]
    hook = "    override fun onTurnEnd(p: Player) {\n        p.draw(1)\n    }\n\n    companion object {"
    cmp = _one(_base().replace("    companion object {", hook), _base())
    assert [(c.change, c.side, c.line, c.where) for c in cmp.changes] == [("removed", "BASE", 21, "Watch.onTurnEnd")]


@pytest.mark.parametrize("after", [
    # a log line
    _base().replace('logger.info("${askWhom} uses Watch")', 'logger.info("${askWhom}发动了[观望]")'),
    # a robot decision
    _base().replace("return e.whoseTurn.alive", "return !e.whoseTurn.alive && e.whoseTurn.cards.size > 2"),
    # a client message added, and a robot branch
    _base().replace("        askWhom.draw(1)\n", "        g.players.send { skillWatchToc { playerId = 1 } }\n"
                    "        if (askWhom is RobotPlayer) {\n            GameExecutor.post(g, { pick() }, 1, SECONDS)\n"
                    "        }\n        askWhom.draw(1)\n"),
    # formatting and comments
    _base().replace("            askWhom.alive || return@findEvent false\n",
                    "            // still alive\n            askWhom.alive ||\n                return@findEvent false\n"),
    # a local renamed, the guard idiom spelt as if-return, a qualified name shortened
    _base().replace("val event = g.findEvent<UseCardEvent>(this) { event ->",
                    "val e = g.findEvent<UseCardEvent>(this) { e ->")
           .replace("askWhom === event.targetPlayer || return@findEvent false",
                    "if (e.targetPlayer != askWhom) return@findEvent false")
           .replace("askWhom.alive || return@findEvent false", "if (!askWhom.alive) return@findEvent false")
           .replace("event.cardType == card_type.Shi_Tan", "Shi_Tan == e.cardType")
           .replace("} ?: return null", "}\n        if (e == null) return null")
           .replace("event.fsm", "e.fsm"),
])
def test_what_is_no_rule_stays_quiet(after):
    assert _one(_base(), after).changes == []


def test_a_class_renamed_and_moved_is_the_same_rule():
    renamed = _base().replace("class Watch", "class Lookout")
    cmp = compare({"skill/Watch.kt": _base().encode()}, {"skill/look/Lookout.kt": renamed.encode()})
    assert cmp.changes == [] and cmp.same >= 2


def test_files_that_hold_no_rule_are_not_read():
    assert not is_rule_file("RobotPlayer.kt") and not is_rule_file("network/Network.kt")
    assert not is_rule_file("handler/JoinRoomTos.kt") and not is_rule_file("handler/join_room_tos.kt")
    assert is_rule_file("handler/SendMessageCardTos.kt") and is_rule_file("phase/CheckWin.kt")
    assert is_rule_file("Game.kt") and is_rule_file("Event.kt") and is_rule_file("card/Deck.kt")
    assert compare({"RobotPlayer.kt": b"class RobotPlayer { fun a() = 1 }"},
                   {"RobotPlayer.kt": b"class RobotPlayer { fun a() = 2 }"}).changes == []


def test_a_member_only_robots_read_is_no_rule():
    game = "class Game {\n    var turn = 0\n    fun next() {\n        turn++\n        resolve()\n    }\n" \
           "    override fun start() = next()\n}\n"
    base = "class Game {\n    fun next() {\n        resolve()\n    }\n    override fun start() = next()\n}\n"
    robot = "class RobotPlayer {\n    fun act(g: Game) = g.turn > 1\n}\n"
    cmp = compare({"Game.kt": base.encode(), "RobotPlayer.kt": b""},
                  {"Game.kt": game.encode(), "RobotPlayer.kt": robot.encode()})
    assert cmp.changes == [] and "turn" in cmp.robot_names
    # read by a rule, it is a rule
    rule = "class CheckWin {\n    fun resolve(g: Game) = g.turn > 1\n}\n"
    cmp = compare({"Game.kt": base.encode(), "phase/CheckWin.kt": b"class CheckWin {}\n"},
                  {"Game.kt": game.encode(), "phase/CheckWin.kt": rule.encode()})
    assert {c.where for c in cmp.changes} >= {"Game.turn", "Game.next"}


# ------------------------------------------------------------------------------- the gate on a repository
EFFECT = SERVER / "skill" / "Echo.kt"


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("unread")
    shas = make_server_repo(root)
    work = root / "server"
    echo = work / "src" / "main" / "kotlin" / "skill" / "Echo.kt"
    text = echo.read_text(encoding="utf-8")

    def commit(name, new):
        echo.write_text(new, encoding="utf-8")
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", name)
        shas[name] = git(work, "rev-parse", "HEAD")

    git(work, "checkout", "-q", "-b", "unread", shas["rule"])
    commit("log", text.replace("): Any? = null", "): Any? {\n        logger.info(\"echo\")\n        return null\n"
                                                  "    }"))
    commit("guard", text.replace("): Any? = null", "): Any? {\n        askWhom.alive || return null\n"
                                                    "        return null\n    }"))
    return str(work), shas


def gate(repo, a, b, tmp_path, fmt="json"):
    out = tmp_path / f"r-{a[:6]}-{b[:6]}.{fmt}"
    rc = main(["diff", "--kotlin", repo, a, b, "--format", fmt, "--output", str(out), "-q", "--lang", "en"])
    return rc, out.read_text(encoding="utf-8") if out.exists() else ""


def test_an_unread_guard_change_is_inconclusive_exit_3(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["log"], s["guard"], tmp_path)
    assert rc == 3
    doc = json.loads(text)
    unr = [f for f in doc["findings"] if f["check"] == "UNR001"]
    assert len(unr) == 1 and unr[0]["inconclusive"]
    assert unr[0]["details"] == {"file": "src/main/kotlin/skill/Echo.kt", "line": 16, "class": "Echo",
                                 "method": "execute", "change": "changed", "side": "HEAD"}
    assert unr[0]["rules"][0]["file"] == "src/main/kotlin/skill/Echo.kt" and unr[0]["rules"][0]["line"] == 16
    assert unr[0]["id"].startswith("UNR001-")
    assert doc["diff"]["unread_code"][0]["construct"] == "Echo.execute"
    assert doc["summary"]["exit_code"] == 3
    # the id is stable: the same change seen again has the same id
    (tmp_path / "again").mkdir()
    rc2, text2 = gate(path, s["log"], s["guard"], tmp_path / "again")
    assert rc2 == 3 and [f["id"] for f in json.loads(text2)["findings"]] == [f["id"] for f in doc["findings"]]


def test_a_log_line_is_quiet_on_the_gate(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["rule"], s["log"], tmp_path)
    assert rc == 0 and json.loads(text)["diff"]["unread_code"] == []


def test_rule_changes_extracted_as_catalogue_differences_are_not_inconclusive(repo, tmp_path):
    path, s = repo
    for a, b in (("base", "refactor"), ("refactor", "engine"), ("engine", "rule")):
        rc, text = gate(path, s[a], s[b], tmp_path)
        assert json.loads(text)["diff"]["unread_code"] == [], (a, b)
        assert rc in (0, 1)


@pytest.mark.parametrize("fmt", ["text", "markdown", "sarif", "junit", "html", "github", "gitlab"])
def test_every_format_names_the_unread_code(repo, tmp_path, fmt):
    path, s = repo
    rc, text = gate(path, s["log"], s["guard"], tmp_path, fmt=fmt)
    assert rc == 3
    plain = text.replace("\\_", "_")
    assert "UNR001" in plain and "Echo.execute" in plain and "src/main/kotlin/skill/Echo.kt" in plain
    if fmt == "sarif":
        res = [r for r in json.loads(text)["runs"][0]["results"] if r["ruleId"] == "UNR001"]
        loc = res[0]["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "src/main/kotlin/skill/Echo.kt" and loc["region"]["startLine"] == 16


def test_unr001_has_its_page(capsys):
    assert main(["rules", "UNR001", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "unread-rule-code" in out and "exit" in out


def test_the_history_benchmark_counts_by_kind_on_a_labels_file_anywhere(repo, tmp_path, capsys, monkeypatch):
    import importlib.util
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("history_bench", root / "benchmarks" / "history_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    path, s = repo
    labels = tmp_path / "elsewhere" / "held-out.toml"
    labels.parent.mkdir()
    rows = [("guard", "log", "other_behaviour", "trigger", "[]"), ("log", "rule", "bot_logic", "bot_logic", "[]"),
            ("rule", "engine", "rule_change", "skill_effect", '["Ledger"]')]
    labels.write_text("\n".join(f'[[commit]]\nsha = "{s[a]}"\nparent = "{s[b]}"\nlabel = "{lab}"\nkind = "{k}"\n'
                                f'rules = {r}\nfields = []\nsummary = "{a}"\n' for a, b, lab, k, r in rows),
                      encoding="utf-8")
    monkeypatch.setenv("SKILLPROOF_SERVER_REPO", path)                  # the clone named by the environment
    out = tmp_path / "v.json"
    assert bench.main(["--labels", str(labels), "--json", str(out)]) == 0
    got = {v["kind"]: v for v in json.loads(out.read_text(encoding="utf-8"))}
    assert got["trigger"]["kind_verdict"] == "inconclusive" and got["trigger"]["rc"] == 3
    assert got["trigger"]["unread"][0]["method"] == "execute"
    assert got["bot_logic"]["kind_verdict"] == "quiet"
    assert got["skill_effect"]["kind_verdict"] == "caught"
    printed = capsys.readouterr().out
    assert "triggered skill's event or condition" in printed and "quiet commits failing or inconclusive: 0/1" \
        in printed
    assert "failing or inconclusive: 2/2 (100%)" in printed
    with pytest.raises(SystemExit):
        bench.main(["--labels", str(tmp_path / "none.toml")])
