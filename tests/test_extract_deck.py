"""The deck and the set-up read from Kotlin (model/extract/deck.py): each card's printed copies with the table sizes
that hold them (a list of every print, and an init that drops some by the number of players, evaluated for each
size), the room's seats, the set-up engine rules; and the gate naming a card whose copies changed, quiet when the
code builds the same deck another way. On the invented server of tests/fixtures/kotlin/server, with a deck of our
own."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from skillproof.cli import main
from skillproof.model.extract import extract

from gitrepo import SERVER, git

CHEER = """package demo.game.card

import demo.protos.Common.card_type
import demo.protos.Common.color
import demo.protos.Common.direction

class Cheer : Card {
    constructor(id: Int, colors: List<color>, direction: direction, lockable: Boolean, whoDraws: List<color>) :
        super(colors, direction)

    override val type = card_type.Shi_Tan
}

class Shout : Card {
    constructor(id: Int, colors: List<color>, direction: direction, lockable: Boolean) : super(colors, direction)

    override val type = card_type.Wei_Bi
}
"""

DECK = """package demo.game.card

import demo.protos.Common.color.*
import demo.protos.Common.direction.*

class Deck {
    private var cards = ArrayList<Card>()
    private val dropped = listOf(2, 0)

    fun init(totalPlayerCount: Int) {
        cards.clear()
        cards.addAll(DefaultDeck)
        if (totalPlayerCount <= 4) {
            DROP
        }
        var reds = 0
        for (card in cards) if (Red in card.colors) reds++
        cards.shuffle()
    }

    companion object {
        val DefaultDeck = listOf(
            Cheer(1, listOf(Black), Right, false, listOf(Red)),
            Cheer(2, listOf(Red), Left, false, listOf(Blue, Black)),
            Cheer(3, listOf(Blue), Left, false, listOf(Red)),
            Shout(4, listOf(Red), Left, false),
            Shout(5, listOf(Red), Left, false),
            Shout(6, listOf(Red, Black), Up, true),
            Shout(7, listOf(Blue), Right, false),
            Shout(8, listOf(Blue), Right, false),
            Shout(9, listOf(Black), Left, false),
            Shout(10, listOf(Black), Left, false),
            // Shout(11, listOf(Black), Up, false),
        )
    }
}
"""

ROOM = """package demo.game

class Room {
    var players = listOf<Player?>()

    fun join(p: Player): Boolean {
        if (players.size >= 7 || p.name.isEmpty()) return false
        players = players + null
        return true
    }
}
"""

SETUP = """package demo.game.phase

import demo.game.*
import demo.protos.Common.secret_task.*

class Setup(val game: Game) {
    var deck = demo.game.card.Deck()

    fun start(players: List<Player>) {
        deck.init(players.size)
        for (p in players) p.draw(HAND)
        val tasks = arrayListOf(Killer, Stealer)
        if (players.size >= 5) tasks.addAll(listOf(Mutator, Sweeper))
        tasks.shuffle()
        for (p in players) p.secretTask = tasks[0]
        val roles = listOf<Any>()
        game.resolve(SelectRole(players.indices.map { listOf(roles[it], roles[it + players.size]) }))
    }
}
"""

#: how init drops prints: by index from the end, or one loop over a list of indices (the same deck)
BY_INDEX = "cards.removeAt(2)\n            cards.removeAt(0)"
BY_LOOP = "dropped.forEach { cards.removeAt(it) }"


def _tree(root: Path, deck: str = DECK.replace("DROP", BY_INDEX), hand: str = "2") -> Path:
    src = root / "src" / "main" / "kotlin"
    if not src.exists():
        shutil.copytree(SERVER, src)
    (src / "card" / "Cheer.kt").write_text(CHEER, encoding="utf-8")
    (src / "card" / "Deck.kt").write_text(deck, encoding="utf-8")
    (src / "Room.kt").write_text(ROOM, encoding="utf-8")
    (src / "phase" / "Setup.kt").write_text(SETUP.replace("HAND", hand), encoding="utf-8")
    return src


def test_the_deck_is_read_with_the_table_sizes_that_hold_each_print(tmp_path):
    ex = extract(_tree(tmp_path))
    assert ex.load_errors == []
    cheer = ex.catalogue.cards["Shi_Tan"].deck
    assert {(p.n, p.colour, p.dir, p.lock, p.seats, p.with_) for p in cheer} == {
        (1, ("black",), "right", False, "5-7", (("whoDraws", ("red",)),)),       # dropped below five players
        (1, ("red",), "left", False, "", (("whoDraws", ("blue", "black")),)),
        (1, ("blue",), "left", False, "5-7", (("whoDraws", ("red",)),))}
    shout = ex.catalogue.cards["Wei_Bi"].deck
    assert {(p.n, p.colour, p.dir, p.lock) for p in shout} == {       # alike copies counted; the commented one left out
        (2, ("red",), "left", False), (1, ("red", "black"), "up", True), (2, ("blue",), "right", False),
        (2, ("black",), "left", False)}
    assert all(p.seats == "" for p in shout)
    assert ex.engine["seats"].value == 7 and ex.engine["seats"].key
    assert "seats = 7" in ex.files["rules.toml"]
    assert ex.engine["setup.hand"].value == 2
    assert ex.engine["setup.tasks"].value == ("2-4: Killer, Stealer", "5-7: Killer, Stealer, Mutator, Sweeper")
    assert ex.engine["setup.role_options"].value == 2


def test_a_deck_the_evaluation_cannot_follow_is_left_unread(tmp_path):
    ex = extract(_tree(tmp_path, DECK.replace("DROP", "cards.retainAll { it.isBlack() }")))
    assert all(not c.deck for c in ex.catalogue.cards.values())
    assert any(i.kind == "deck" and "not read" in i.message for i in ex.report)


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    root = tmp_path_factory.mktemp("deck")
    work = root / "server"
    src = _tree(work)
    git(work, "init", "-q", "-b", "main")
    shas = {}

    def commit(name):
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", name)
        shas[name] = git(work, "rev-parse", "HEAD")
    commit("base")
    _tree(work, DECK.replace("DROP", BY_LOOP))                        # the same deck for every table size
    commit("loop")
    _tree(work, DECK.replace("DROP", BY_LOOP).replace("Shout(6, listOf(Red, Black)", "Shout(6, listOf(Blue, Black)"))
    commit("colour")
    _tree(work, DECK.replace("DROP", BY_LOOP).replace("Shout(6, listOf(Red, Black)", "Shout(6, listOf(Blue, Black)"),
          hand="2 + 1")
    commit("hand")
    assert src.exists()
    return str(work), shas


def _gate(repo, a, b, tmp_path):
    out = tmp_path / f"{a[:6]}-{b[:6]}.json"
    rc = main(["diff", "--kotlin", repo, a, b, "--format", "json", "--output", str(out), "-q", "--lang", "en"])
    return rc, json.loads(out.read_text(encoding="utf-8"))


def _changes(report) -> list:
    return (report.get("diff") or report["extra"]["diff"])["decision_changes"]


def test_the_same_deck_built_another_way_is_no_change(repo, tmp_path):
    work, shas = repo
    rc, rep = _gate(work, shas["base"], shas["loop"], tmp_path)
    assert rc == 0, rep["findings"]
    assert _changes(rep) == []


def test_a_print_recoloured_fails_naming_the_card(repo, tmp_path):
    work, shas = repo
    rc, rep = _gate(work, shas["loop"], shas["colour"], tmp_path)
    assert rc == 1
    [ch] = _changes(rep)
    assert ch["question"] == {"rule": "Wei_Bi", "key": "deck"}
    assert "red-black up, lock: 1 → 0" in ch["message_en"] and "blue-black up, lock: 0 → 1" in ch["message_en"]
    assert ch["rules"][0]["file"].endswith("card/Deck.kt")
    assert not [f for f in rep["findings"] if f["check"] in ("UNR001", "UNR002")]


def test_the_start_hand_changed_fails_naming_the_set_up_rule(repo, tmp_path):
    work, shas = repo
    rc, rep = _gate(work, shas["colour"], shas["hand"], tmp_path)
    assert rc == 1
    assert [c["question"] for c in _changes(rep)] == [{"engine_rule": "setup.hand"}]
    assert [c["values"] for c in _changes(rep)] == [{"old": 2, "new": 3}]


def test_a_deck_built_for_more_players_than_are_seated_is_read_at_the_seated_count(tmp_path):
    # the engine builds the deck for one more player than are seated: a game of four keeps what init(5) keeps, so
    # the prints init drops below five players are in every game from four players on
    src = _tree(tmp_path)
    setup = src / "phase" / "Setup.kt"
    setup.write_text(setup.read_text(encoding="utf-8").replace("deck.init(players.size)",
                                                               "deck.init(players.size + 1)"), encoding="utf-8")
    ex = extract(src.parent.parent.parent)
    cheer = {(p.colour, p.seats) for p in ex.catalogue.cards["Shi_Tan"].deck}
    assert cheer == {(("black",), "4-7"), (("red",), ""), (("blue",), "4-7")}


def test_a_deck_built_for_a_count_not_read_as_the_seated_one_is_left_unread(tmp_path):
    src = _tree(tmp_path)
    setup = src / "phase" / "Setup.kt"
    setup.write_text(setup.read_text(encoding="utf-8").replace("deck.init(players.size)", "deck.init(game.size())"),
                     encoding="utf-8")
    ex = extract(src.parent.parent.parent)
    assert all(not c.deck for c in ex.catalogue.cards.values())
    assert any(i.kind == "deck" and "game.size()" in i.message for i in ex.report)
