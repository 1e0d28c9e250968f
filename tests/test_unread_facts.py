"""What the normal form leaves out but a rule reads (``model.extract.unread_facts``), and catalogue differences no
decision tells apart (``checks.diff_untold``, UNR002): the gate is never silent on them, and stays quiet on what only
looks like them. Small before/after snippets written for these tests, and commits on the fixture server's repository."""
from __future__ import annotations

import json

import pytest

from skillproof.cli import main
from skillproof.model.extract.unread import compare

from gitrepo import git, make_server_repo

# ------------------------------------------------------------------------------------------ who sees a card
SHOW = """package demo.game.skill

import demo.game.Game
import demo.game.HumanPlayer
import demo.game.Player

class Peek : TriggeredSkill {
    override val skillId = SkillId.PEEK

    override fun execute(g: Game, askWhom: Player): Any? {
        val card = askWhom.cards.first()
        askWhom.draw(1)
        MESSAGE
        return null
    }
}
"""

LOOP = """for (p in g.players) {
            if (p is HumanPlayer) {
                val builder = skill_peek_toc.newBuilder()
                builder.playerId = p.getAlternativeLocation(askWhom.location)
                GUARDbuilder.card = card.toPbCard()
                p.send(builder.build())
            }
        }"""


def _peek(message: str) -> bytes:
    return SHOW.replace("MESSAGE", message).encode()


def _facts(before: bytes, after: bytes, rel="skill/Peek.kt"):
    return [c for c in compare({rel: before}, {rel: after}).changes if c.what != "code"]


def test_a_card_face_shown_to_fewer_seats_is_named():
    before = _peek(LOOP.replace("GUARD", ""))
    after = _peek(LOOP.replace("GUARD", "if (p === askWhom) "))
    got = _facts(before, after)
    assert [(c.what, c.change, c.side, c.line, c.where) for c in got] == [("face", "changed", "HEAD", 17, "Peek.execute")]
    assert ("HEAD", "card: if (p === askWhom) builder.card = card.toPbCard()") in got[0].facts
    # … and the normal form alone sees nothing (the message is protocol)
    assert [c for c in compare({"skill/Peek.kt": before}, {"skill/Peek.kt": after}).changes if c.what == "code"] == []


@pytest.mark.parametrize("after", [
    # the same message written with the DSL, the recipient as the lambda's parameter
    _peek("""g.players.send { p ->
            skillPeekToc {
                playerId = p.getAlternativeLocation(askWhom.location)
                if (p === askWhom) card = card.toPbCard()
            }
        }"""),
    # the same guard spelt the other way round, the card tested for null, a local renamed
    _peek(LOOP.replace("GUARD", "if (askWhom == p) ").replace("builder", "b")),
])
def test_the_same_audience_written_otherwise_is_quiet(after):
    assert _facts(_peek(LOOP.replace("GUARD", "if (p === askWhom) ")), after) == []


def test_a_face_up_card_shown_to_everyone_is_quiet():
    before = _peek(LOOP.replace("GUARD", "if (p === askWhom) "))
    after = _peek(LOOP.replace("GUARD", "if (p === askWhom) ").replace(
        "                p.send(", "                if (card.faceUp) builder.card = card.toPbCard()\n"
                                  "                p.send("))
    assert _facts(before, after) == []


# ------------------------------------------------------------------- what an automatic answer goes on with
AUTO = """package demo.game.card

import demo.game.Game
import demo.game.Player
import demo.game.RobotPlayer

class Press : Card {
    fun execute(g: Game, r: Player, target: Player): Any? {
        if (target is RobotPlayer) {
            GameExecutor.post(g, {
                autoSelect(target)
                CONTINUE
            }, 2, TimeUnit.SECONDS)
        }
        return null
    }

    private fun autoSelect(target: Player) {
        val card = target.cards.CHOICE
        g.tryContinueResolveProtocol(target, pressTos { cardId = card.id })
    }
}
"""


def _press(cont="g.resolve(MainPhaseIdle(r))", choice="random()") -> bytes:
    return AUTO.replace("CONTINUE", cont).replace("CHOICE", choice).encode()


def test_what_play_goes_on_in_after_a_robots_answer_is_named():
    got = _facts(_press(), _press(cont="g.resolve(CheckAnswer.check(r, target) ?: MainPhaseIdle(r))"), "card/Press.kt")
    assert [(c.what, c.side, c.line, c.where) for c in got] == [("auto", "HEAD", 12, "Press.execute")]
    # the normal form drops the robot's branch whole: without the fact nothing would be named
    assert [c for c in compare({"card/Press.kt": _press()}, {"card/Press.kt": _press(
        cont="g.resolve(CheckAnswer.check(r, target) ?: MainPhaseIdle(r))")}).changes if c.what == "code"] == []


def test_a_robots_choice_and_a_continuation_moved_into_a_timer_are_quiet():
    # which card the robot picks is its own decision
    assert _facts(_press(), _press(choice="first()"), "card/Press.kt") == []
    # play going on in the same state, now after a delay: the same continuation
    before = b"class Next {\n    fun resolve0(game: Game, player: Player): ResolveResult? {\n" \
             b"        return ResolveResult(DrawPhase(player), true)\n    }\n}\n"
    after = b"class Next {\n    fun resolve0(game: Game, player: Player): ResolveResult? {\n" \
            b"        GameExecutor.post(game, { game.resolve(DrawPhase(player)) }, 500, TimeUnit.MILLISECONDS)\n" \
            b"        return null\n    }\n}\n"
    assert _facts(before, after, "phase/Next.kt") == []


# ---------------------------------------------------------------------------------- the table's seat limits
SEATS = """package demo.game.handler

class add_one_position_tos : AbstractProtoHandler<add_one_position_tos> {
    override fun handle0(r: HumanPlayer, pb: add_one_position_tos) {
        val players = r.game!!.players
        if (players.size >= LIMIT) {
            r.sendErrorMessage(TEXT)
            return
        }
        r.game!!.players = arrayOf(*players, null)
    }
}
"""


def _seats(limit="11", text='"at most 11"') -> bytes:
    return SEATS.replace("LIMIT", limit).replace("TEXT", text).encode()


def test_a_seat_limit_in_the_lobby_is_named():
    got = _facts(_seats(), _seats(limit="9"), "handler/add_one_position_tos.kt")
    assert [(c.what, c.change, c.line, c.where) for c in got] == [("seats", "changed", 6, "add_one_position_tos.handle0")]


def test_the_lobbys_messages_and_a_renamed_handler_are_quiet():
    assert _facts(_seats(), _seats(text='"最多11人局"'), "handler/add_one_position_tos.kt") == []
    renamed = _seats().replace(b"add_one_position_tos", b"AddOnePositionTos")
    cmp = compare({"handler/add_one_position_tos.kt": _seats()}, {"handler/AddOnePositionTos.kt": renamed})
    assert [c for c in cmp.changes if c.what != "code"] == []


# ------------------------------------------------------------------------------------------ on the gate
SHADOW_GUARD = "        if (!fighting && !dying) return\n"


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("untold")
    shas = make_server_repo(root)
    work = root / "server"
    src = work / "src" / "main" / "kotlin"

    def commit(name, files):
        for rel, new in files.items():
            (src / rel).write_text(new, encoding="utf-8")
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", name)
        shas[name] = git(work, "rev-parse", "HEAD")

    git(work, "checkout", "-q", "-b", "untold", shas["rule"])
    text = (src / "skill" / "Shadow.kt").read_text(encoding="utf-8")
    assert SHADOW_GUARD in text
    commit("peek", {"skill/Peek.kt": SHOW.replace("MESSAGE", LOOP.replace("GUARD", ""))})
    # 暗影 now needs a hand card: its `requires` gains a clause beside an `unknown` — no decision tells it apart
    commit("hand", {"skill/Shadow.kt": text.replace(SHADOW_GUARD, SHADOW_GUARD + "        if (user.cards.isEmpty()) return\n")})
    # a log line: the catalogue is the same
    commit("log", {"skill/Shadow.kt": text.replace(SHADOW_GUARD, SHADOW_GUARD + "        logger.info(\"shadow\")\n")
                   .replace(SHADOW_GUARD, SHADOW_GUARD + "        if (user.cards.isEmpty()) return\n")})
    # the drawn card now shown to its holder only
    commit("audience", {"skill/Peek.kt": SHOW.replace("MESSAGE", LOOP.replace("GUARD", "if (p === askWhom) "))})
    return str(work), shas


def gate(repo, a, b, tmp_path, fmt="json"):
    out = tmp_path / f"r-{a[:6]}-{b[:6]}.{fmt}"
    rc = main(["diff", "--kotlin", repo, a, b, "--format", fmt, "--output", str(out), "-q", "--lang", "en"])
    return rc, out.read_text(encoding="utf-8") if out.exists() else ""


def test_a_catalogue_difference_no_decision_tells_apart_is_inconclusive(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["peek"], s["hand"], tmp_path)
    # the new guard is also a refusal of 暗影's handler (model/extract/refusals.py): the gate fails naming it (exit 1)
    # and still says that its `requires` changed where no decision tells the versions apart
    assert rc == 1, text
    assert [d["id"] for d in json.loads(text)["diff"]["decision_changes"]] == ["engine-refuse.Shadow.executeProtocol"]
    doc = json.loads(text)
    unt = [f for f in doc["findings"] if f["check"] == "UNR002"]
    assert len(unt) == 1 and unt[0]["inconclusive"] and unt[0]["id"].startswith("UNR002-")
    d = unt[0]["details"]
    assert (d["rule"], d["key"], d["old"], d["new"]) == ("Shadow", "requires", "unknown or unknown",
                                                       "(unknown or unknown) and (hand_count > 0)")
    assert (d["file"], d["line"], d["side"]) == ("src/main/kotlin/skill/Shadow.kt", 20, "HEAD")
    assert doc["diff"]["untold"][0]["id"] == unt[0]["id"]
    # deterministic: the same pair gives the same id
    (tmp_path / "again").mkdir()
    rc2, text2 = gate(path, s["peek"], s["hand"], tmp_path / "again")
    assert rc2 == 1 and [f["id"] for f in json.loads(text2)["findings"]] == [f["id"] for f in doc["findings"]]


def test_the_same_catalogue_and_newly_understood_code_are_not_untold(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["hand"], s["log"], tmp_path)
    assert rc == 0 and json.loads(text)["diff"]["untold"] == []
    for a, b in (("base", "refactor"), ("refactor", "engine")):          # (the refactor makes 账本 readable)
        rc, text = gate(path, s[a], s[b], tmp_path)
        assert json.loads(text)["diff"]["untold"] == [], (a, b)


def test_who_sees_a_card_is_named_by_the_gate(repo, tmp_path):
    path, s = repo
    rc, text = gate(path, s["log"], s["audience"], tmp_path)
    assert rc == 3
    unr = [f for f in json.loads(text)["findings"] if f["check"] == "UNR001"]
    assert [(f["details"]["what"], f["details"]["method"], f["details"]["line"]) for f in unr] == [("face", "execute", 17)]
    assert "which players are shown a card's face" in unr[0]["message_en"]


@pytest.mark.parametrize("fmt", ["text", "markdown", "sarif", "junit", "html", "github", "gitlab"])
def test_every_format_names_the_untold_difference(repo, tmp_path, fmt):
    path, s = repo
    rc, text = gate(path, s["peek"], s["hand"], tmp_path, fmt=fmt)
    assert rc == 1                      # the refusal read as well (test above)
    plain = text.replace("\\_", "_")
    assert "UNR002" in plain and "requires" in plain and "src/main/kotlin/skill/Shadow.kt" in plain
    if fmt == "sarif":
        res = [r for r in json.loads(text)["runs"][0]["results"] if r["ruleId"] == "UNR002"]
        loc = res[0]["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "src/main/kotlin/skill/Shadow.kt" and loc["region"]["startLine"] == 20


def test_unr002_has_its_page(capsys):
    assert main(["rules", "UNR002", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "untold-rule-change" in out and "baseline" in out


def test_a_prose_note_naming_a_method_renamed_throughout_is_the_same_note():
    from skillproof.checks.diff_untold import _renamed
    gone_and_new = {("executeLianXinA", "ExecuteLianXinA")}
    assert _renamed("prose not translated: executeLianXinA(…)", "prose not translated: ExecuteLianXinA(…)",
                    lambda a, b: (a, b) in gone_and_new)
    # another state play goes on in, both of which exist in both revisions: a change
    assert not _renamed("prose goes on to SendPhaseIdle", "prose goes on to OnSendCard", lambda a, b: False)
