"""Readers of send restrictions in protocol handlers, the receive precedence, and engine timing (issue 24, planted5's
send-rule and engine-timing side): ``refuse.*``, ``must_beats_cannot`` read from the receive handler's guards,
``state.*`` (a game state's clauses: whom it asks or passes over, the events it raises, the cards it moves),
``deck.*``; the conversion skills a change of the conversion loop is about. Per construct: a changed rule is a changed value (named), the same rule rewritten
(a local renamed, a log line, equal operands swapped) is the same value or the same normal form (quiet). Small Kotlin
snippets written for these tests (no server code)."""
from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

from skillproof.kotlin_diff import engine_entry
from skillproof.model.extract import extract
from skillproof.model.extract.timing import about_change
from skillproof.model.extract.unread import compare, read_tree, same_rule_code

from gitrepo import SERVER


def _ex(root: Path, files: dict):
    src = root / "src" / "main" / "kotlin"
    if src.exists():
        shutil.rmtree(src)
    shutil.copytree(SERVER, src)
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    ex = extract(src)
    ex.sources = read_tree(src)
    return ex


def _pair(tmp_path, rel: str, a: str, b: str, name: str):
    """(BASE's rule, HEAD's rule, whether the gate drops the difference as the same code)."""
    ea = _ex(tmp_path / "a", {rel: a})
    eb = _ex(tmp_path / "b", {rel: b})
    ra, rb = ea.engine.get(name), eb.engine.get(name)
    cmp = compare(ea.sources, eb.sources)
    return ra, rb, same_rule_code(name, ea, eb, cmp)


def _quiet(ra, rb, same) -> bool:
    return ra is not None and rb is not None and (ra.value == rb.value or same)


def _named(ra, rb, same) -> bool:
    return ra is not None and rb is not None and ra.value != rb.value and not same


# ------------------------------------------------------------------------------------------------ game states
FIGHT = """package demo.game.phase

import demo.game.*

data class FightNext(val idle: FightRound) : Fsm

data class FightRound(val whoseTurn: Player, val whoseFightTurn: Player) : Fsm {
    override fun resolve0(): ResolveResult? {
        SKIP
        val everyone = whoseTurn.game!!.players
        for (p in everyone) p!!.notifyFightPhase(15)
        return null
    }
}
"""
SKIP = "if (!whoseFightTurn.alive)\n            return ResolveResult(FightNext(this), true)"


def test_whom_a_game_state_passes_over_is_read_and_a_change_names_the_windows_skip(tmp_path):
    rel = "phase/FightRound.kt"
    base = FIGHT.replace("SKIP", SKIP)
    real = FIGHT.replace("SKIP", SKIP.replace("!whoseFightTurn.alive", "!whoseFightTurn.alive || "
                                              "whoseFightTurn.cards.isEmpty()"))
    same = FIGHT.replace("SKIP", SKIP).replace("everyone", "them")                 # a local renamed
    ra, rb, eq = _pair(tmp_path, rel, base, real, "state.FightRound.resolve0")
    assert _named(ra, rb, eq)
    assert ra.one and any("!whoseFightTurn.alive" in c for c in ra.value)
    assert _quiet(*_pair(tmp_path, rel, base, same, "state.FightRound.resolve0"))
    # the state stands at the fight window (server FightPhaseIdle): a change of where it goes on to is the skip's
    ec = SimpleNamespace(name="state.FightPhaseIdle.resolve0", base=ra.value, head=rb.value)
    assert about_change(ec, SimpleNamespace(catalogue=None)) == ["skip_fight"]


DIE = """package demo.game.phase

import demo.game.*

data class Settle(val whoseTurn: Player, val dead: ArrayList<Player>, val then: Fsm) : Fsm {
    override fun resolve(): ResolveResult {
        for (who in dead) {
            who.alive = false
            EVENT
            logger.info("$who died")
        }
        val cards = dead.first().messageCards.toList()
        dead.first().messageCards.clear()
        whoseTurn.game!!.deck.discard(cards)
        return ResolveResult(then, true)
    }
}
"""


def test_an_event_a_state_raises_and_the_cards_it_moves_are_read(tmp_path):
    rel = "phase/Settle.kt"
    event = "who.game!!.addEvent(PlayerDieEvent(whoseTurn, who))"
    base = DIE.replace("EVENT", event)
    gone = DIE.replace("EVENT", "")
    kept = base.replace("        dead.first().messageCards.clear()\n        whoseTurn.game!!.deck.discard(cards)\n", "")
    same = DIE.replace("EVENT", event).replace("logger.info(\"$who died\")", "logger.info(\"died: $who\")")
    ra, rb, eq = _pair(tmp_path, rel, base, gone, "state.Settle.resolve")
    assert _named(ra, rb, eq)
    assert _named(*_pair(tmp_path, rel, base, kept, "state.Settle.resolve"))
    assert _quiet(*_pair(tmp_path, rel, base, same, "state.Settle.resolve"))
    # the skills answering the event no longer raised are what the change is about
    cat = SimpleNamespace(skills={"Vow": SimpleNamespace(on=(SimpleNamespace(event="die"),)),
                                  "Echo": SimpleNamespace(on=(SimpleNamespace(event="receive"),)),
                                  "Plain": SimpleNamespace(on=())})
    ec = SimpleNamespace(name="state.Settle.resolve", base=ra.value, head=rb.value)
    assert about_change(ec, SimpleNamespace(catalogue=cat)) == ["Vow"]


DECK = """package demo.game.card

import demo.game.*

class Pile(private val game: Game) {
    private var cards = ArrayList<Card>()
    private var discardPile = ArrayList<Card>()

    private fun shuffle() {
        discardPile.shuffle()
        discardPile.addAll(cards)
        cards = discardPile
        discardPile = ArrayList()
    }

    fun draw(n: Int): List<Card> {
        if (n > cards.size) shuffle()
        val from = if (n > cards.size) 0 else cards.size - n
        val taken = cards.subList(from, cards.size)
        val result = taken.toList()
        taken.clear()
        return result
    }
}
"""
GAME_DECK = "package demo.game\n\nimport demo.game.card.Pile\n\nclass Game {\n    val deck = Pile(this)\n}\n"
DEAL = ("package demo.game.phase\n\nimport demo.game.*\n\nclass Deal(val game: Game) {\n"
        "    fun run(p: Player) {\n        p.cards.addAll(game.deck.draw(2))\n    }\n}\n")


def test_when_the_deck_reshuffles_is_read_from_the_games_deck_class(tmp_path):
    rel = "card/Pile.kt"
    extra = {"GameDeck.kt": GAME_DECK, "phase/Deal.kt": DEAL}
    ea = _ex(tmp_path / "a", {rel: DECK, **extra})
    assert "deck.draw" in ea.engine and any("shuffle() if n > cards.size" == c for c in ea.engine["deck.draw"].value)
    eb = _ex(tmp_path / "b", {rel: DECK.replace("if (n > cards.size) shuffle()", "if (n >= cards.size) shuffle()"),
                              **extra})
    assert eb.engine["deck.draw"].value != ea.engine["deck.draw"].value
    assert not same_rule_code("deck.draw", ea, eb, compare(ea.sources, eb.sources))
    ec = _ex(tmp_path / "c", {rel: DECK.replace("taken", "part"), **extra})                  # a local renamed
    assert same_rule_code("deck.draw", ea, ec, compare(ea.sources, ec.sources))


# --------------------------------------------------------------------------------------------- protocol handlers
HANDLER = """package demo.game.skill

import demo.game.*

class Courier : ActiveSkill {
    override val skillId = SkillId.COURIER

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        val card = r.findCard(message.cardId)
        if (card == null) {
            logger.error("no such card")
            r.sendErrorMessage("no such card")
            return
        }
        val limit = r.messageCards.count(Black)
        if (message.targetPlayerIdCount > limit) {
            logger.error("at most $limit")
            r.sendErrorMessage("at most $limit")
            return
        }
        val error = r.canSendCard(r, card, AVAILABLE, message.cardDir, r, LOCKS)
        if (error != null) {
            r.sendErrorMessage(error)
            return
        }
        r.draw(1)
    }
}
"""


def _handler(available="r.cards", locks="lockPlayers", limit="r.messageCards.count(Black)", name="limit"):
    return HANDLER.replace("AVAILABLE", available).replace("LOCKS", locks) \
        .replace("r.messageCards.count(Black)", limit).replace("limit", name)


def test_what_a_handler_refuses_is_read_with_its_locals_written_out(tmp_path):
    rel = "skill/Courier.kt"
    base = _handler()
    ra = _ex(tmp_path / "a", {rel: base}).engine["refuse.Courier.executeProtocol"]
    assert "refuse if message.targetPlayerIdCount > (r.messageCards.count(Black))" in ra.value
    assert any("canSendCard(r,(r.findCard(message.cardId)),r.cards,message.cardDir,r,lockPlayers)" in c for c in ra.value)
    assert ra.about == ("Courier",) and ra.one
    # one more player may be named; the send check sees no locks; the target may send any card: each named
    for real in (_handler(limit="r.messageCards.count(Black) + 1"), _handler(locks="emptyList()"),
                 _handler(available="null")):
        assert _named(*_pair(tmp_path, rel, base, real, "refuse.Courier.executeProtocol"))
    # the local renamed: the same refusals, word for word
    ra2, rb2, _eq = _pair(tmp_path, rel, base, _handler(name="most"), "refuse.Courier.executeProtocol")
    assert ra2.value == rb2.value


def test_a_handler_change_names_the_rule_whose_handler_it_is():
    hex_ = SimpleNamespace(skill_keys={}, locations={"Courier": "skill/Courier.kt:5"}, catalogue=None,
                           engine={"refuse.Courier.executeProtocol": SimpleNamespace(about=("Courier",))})
    ec = SimpleNamespace(name="refuse.Courier.executeProtocol", base=("refuse if a",), head=("refuse if b",), key=False,
                         where="skill/Courier.kt:8", how="", message=lambda: "m")
    entry = engine_entry(ec, "src/main/kotlin/", hex_)
    assert [r["id"] for r in entry["rules"]] == ["refuse.Courier.executeProtocol", "Courier"]


RECEIVE = """package demo.game.handler

import demo.game.*

class ChooseReceive {
    override fun handle0(r: Player, pb: Any) {
        val fsm = r.game!!.fsm as? SendPhaseIdle
        if (r !== fsm?.inFrontOfWhom) {
            r.sendErrorMessage("not now")
            return
        }
        val mustReceive = MUST
        if (pb.receive) {
            if (GUARD) {
                logger.error("cannot receive")
                r.sendErrorMessage("cannot receive")
                return
            }
            r.game!!.resolve(OnChooseReceiveCard(fsm.whoseTurn))
        } else {
            if (mustReceive) {
                r.sendErrorMessage("must receive")
                return
            }
            r.game!!.resolve(MessageMoveNext(fsm))
        }
    }
}
"""


def _receive(must="fsm.mustReceiveMessage()", guard="!mustReceive && fsm.cannotReceiveMessage()"):
    return RECEIVE.replace("MUST", must).replace("GUARD", guard)


def test_which_of_must_and_cannot_receive_wins_is_read_from_the_handlers_guards(tmp_path):
    rel = "handler/ChooseReceive.kt"
    cases = {
        (): True,                                                               # must wins: may only receive
        (("must", "fsm.mustReceiveMessage() && !fsm.cannotReceiveMessage()"),): False,      # cannot wins
        (("guard", "fsm.cannotReceiveMessage() && !mustReceive"),): True,       # the same guard, operands swapped
        (("must", "r === fsm.sender || fsm.lockedPlayers.any { r === it }"),   # an older shape of both tests
         ("guard", "!mustReceive && r.findSkill(SkillId.PIGEON) != null")): True,
    }
    for i, (args, want) in enumerate(cases.items()):
        ex = _ex(tmp_path / f"r{i}", {rel: _receive(**dict(args))})
        got = ex.engine["must_beats_cannot"]
        assert got.value is want, (args, got)
        assert got.where.startswith("handler/ChooseReceive.kt")
    # both refused (the player may do nothing) is no precedence: not read, never guessed
    for i, guard in enumerate(("fsm.cannotReceiveMessage()", "mustReceive && fsm.cannotReceiveMessage()")):
        ex = _ex(tmp_path / f"n{i}", {rel: _receive(guard=guard)})
        assert ex.engine["must_beats_cannot"].value is None
        assert "neither" in ex.engine["must_beats_cannot"].how


def test_a_change_of_the_conversion_loop_names_the_conversion_skills_its_clauses_test():
    from skillproof.model.catalogue import Ref
    skills = {"AnyCard": SimpleNamespace(convert=SimpleNamespace(source=Ref("any"), must=False), initial=True, on=()),
              "MustOne": SimpleNamespace(convert=SimpleNamespace(source=Ref("card", "Jie_Huo"), must=True),
                                         initial=False, on=()),
              "NoConvert": SimpleNamespace(convert=None, initial=True, on=())}
    hex_ = SimpleNamespace(catalogue=SimpleNamespace(skills=skills))

    def about(base, head):
        return about_change(SimpleNamespace(name="convert.loop", base=base, head=head), hex_)
    assert about(("ok = true if s is ConvertCardSkill && (s.cardTypeA == actualType || s.cardTypeA == null)",),
                 ("ok = true if s is ConvertCardSkill && s.cardTypeA == actualType",)) == ["AnyCard"]
    assert about(("return false to null if s.must",), ()) == ["MustOne"]
    assert about(("x = 1",), ("x = 2",)) == ["AnyCard", "MustOne"]        # nothing told: every conversion skill
    assert about(("x = 1",), ("x = 1",)) == []
