"""The gate on what rules do (issue 24 part 2): a changed effect, trigger guard, use condition or win rule fails
(exit 1) naming the rule at its Kotlin line with one sentence in each language; a change whose translation is equal
on both sides is quiet; what is not translated stays UNR001 (exit 3). Commits on the fixture server's repository
(tests/gitrepo.py), with a skill of our own (tests/test_effects_read.py)."""
from __future__ import annotations

import json

import pytest

from skillproof.cli import main

from gitrepo import git, make_server_repo
from test_effects_read import BELL, EVENTS

WIN = """package demo.game.phase

import demo.game.*

class CheckWin(val whoseTurn: Player) : Fsm {
    override fun resolve(): Any? {
        val game = whoseTurn.game!!
        val declareWinner = ArrayList<Player>()
        for (player in game.players) {
            if (player.lose) continue
            if (player.messageCards.count(Red) >= RED && player.identity == Red)
                declareWinner.add(player)
        }
        if (declareWinner.isNotEmpty()) {
            game.end(declareWinner, declareWinner)
            return null
        }
        return null
    }
}
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("gate-effects")
    shas = make_server_repo(root)
    work = root / "server"
    src = work / "src" / "main" / "kotlin"
    ids = src / "skill" / "SkillId.kt"
    roles = src / "skill" / "Roles.kt"
    git(work, "checkout", "-q", "-b", "effects", shas["rule"])

    def commit(name, files):
        for rel, text in files.items():
            (src / rel).write_text(text, encoding="utf-8")
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", name)
        shas[name] = git(work, "rev-parse", "HEAD")

    bell = BELL.replace("COUNT", "1")
    commit("bell", {"Event.kt": EVENTS, "skill/Bell.kt": bell, "phase/CheckWin.kt": WIN.replace("RED", "3"),
                    "skill/SkillId.kt": ids.read_text(encoding="utf-8").replace("ECHO(", 'BELL("铃"),\n    ECHO(', 1),
                    "skill/Roles.kt": roles.read_text(encoding="utf-8").replace("Echo()", "Echo(), Bell()", 1)})
    commit("draws2", {"skill/Bell.kt": bell.replace("askWhom.draw(1)", "askWhom.draw(2)")})
    # the same play written another way: the guard's order of tests and an `if` for `||`
    commit("same", {"skill/Bell.kt": bell.replace("askWhom.draw(1)", "askWhom.draw(2)").replace(
        "            askWhom.roleFaceUp || return@findEvent false\n", "").replace(
        "            askWhom === event.sender || return@findEvent false\n",
        "            if (askWhom !== event.sender) return@findEvent false\n            askWhom.roleFaceUp || "
        "return@findEvent false\n")})
    commit("guard", {"skill/Bell.kt": (src / "skill" / "Bell.kt").read_text(encoding="utf-8").replace(
        "askWhom.roleFaceUp ||", "!askWhom.roleFaceUp ||")})
    commit("untranslated", {"skill/Bell.kt": (src / "skill" / "Bell.kt").read_text(encoding="utf-8").replace(
        "        logger.info(\"bell\")\n", "        g.shuffleTheDeck()\n")})
    commit("win", {"phase/CheckWin.kt": WIN.replace("RED", "2")})
    return str(work), shas


def gate(repo, a, b, tmp_path, fmt="json", lang="en"):
    out = tmp_path / f"r-{a[:6]}-{b[:6]}.{fmt}"
    rc = main(["diff", "--kotlin", repo, a, b, "--format", fmt, "--output", str(out), "-q", "--lang", lang])
    return rc, out.read_text(encoding="utf-8") if out.exists() else ""


def _rule_changes(doc):
    return [c for c in doc["diff"]["decision_changes"] if c["decision"] == "rule"]


def test_an_effect_changed_fails_naming_the_rule_at_its_line(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["bell"], s["draws2"], tmp_path)
    assert rc == 1
    doc = json.loads(text)
    (ch,) = _rule_changes(doc)
    assert ch["question"] == {"rule": "Bell", "key": "do"}
    assert ch["message_en"] == "铃: now the holder draws 2 card(s) (before: the holder draws 1 card(s))"
    assert ch["message"] == "铃：现在自己摸2张牌（原为：自己摸1张牌）"
    assert ch["rules"][0]["file"] == "src/main/kotlin/skill/Bell.kt" and ch["rules"][0]["line"] == 19
    assert doc["diff"]["unread_code"] == []                      # the changed code was read


def test_the_same_play_written_another_way_is_quiet(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["draws2"], s["same"], tmp_path)
    doc = json.loads(text)
    assert rc == 0 and _rule_changes(doc) == [] and doc["diff"]["unread_code"] == []


def test_a_guard_changed_fails_with_its_condition_in_words(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["same"], s["guard"], tmp_path)
    assert rc == 1
    (ch,) = _rule_changes(json.loads(text))
    assert ch["question"]["key"] == "on" and "face down" in ch["message_en"] and "face up" in ch["message_en"]


def test_what_is_not_translated_stays_unread(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["guard"], s["untranslated"], tmp_path)
    doc = json.loads(text)
    assert rc == 3 and _rule_changes(doc) == []
    assert [u["construct"] for u in doc["diff"]["unread_code"]] == ["Bell.execute"]


def test_a_win_rule_changed_fails_as_an_engine_rule(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["untranslated"], s["win"], tmp_path)
    assert rc == 1
    doc = json.loads(text)
    eng = [c for c in doc["diff"]["decision_changes"] if c["decision"] == "engine"]
    assert [c["question"]["engine_rule"] for c in eng] == ["win.check"]
    assert ">= 2" in eng[0]["message_en"] and ">= 3" in eng[0]["message_en"]
    assert doc["diff"]["unread_code"] == []


@pytest.mark.parametrize("fmt", ["text", "markdown", "sarif", "junit", "html", "github", "gitlab"])
def test_every_format_says_what_the_rule_now_does(repo, tmp_path, fmt):
    path, s = repo
    rc, text = gate(path, s["bell"], s["draws2"], tmp_path, fmt=fmt)
    assert rc == 1
    assert "draws 2 card(s)" in text and "Bell.kt" in text
