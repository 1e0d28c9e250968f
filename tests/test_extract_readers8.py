"""Readers of the gate's real side written at the eighth stop (issue 24; planted7 as the held-out sample they were
measured on): whole classes of constructs read — the set-up's random draws, message-count helpers read by their body,
a list of players a rule builds, a grant's test over its arguments, a message-area tally, one player's skill order,
the function an engine rule is read from named by its callers. Each on a small Kotlin server of our own
(tests/fixtures/kotlin/server), never the game's code."""
from __future__ import annotations

import shutil
from types import SimpleNamespace

from skillproof.model.extract import extract

from conftest import FIXTURES

SERVER = f"{FIXTURES}/kotlin/server"


def _server(tmp_path):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    return d


# ------------------------------------------------------------------------------------------ the set-up's random draws
def test_the_set_ups_random_draws_are_an_engine_rule(tmp_path):
    """``setup.random.<Owner>.<fn>``: the shuffles, random picks and random bounds of the functions that set a game
    up and of what they call — a shuffle dropped (the deck dealt in printed order, tasks told in dealing order) or a
    random bound changed is a change; a local renamed is not (the kinds of draws are counted, not the lists)."""
    import test_extract_deck as D

    def engine(sub, deck=D.DECK.replace("DROP", D.BY_INDEX), setup=D.SETUP):
        old = D.SETUP
        try:
            D.SETUP = setup
            return extract(D._tree(tmp_path / sub, deck)).engine
        finally:
            D.SETUP = old
    base = engine("a")
    assert base["setup.random.Deck.init"].value == ("shuffle",)
    assert base["setup.random.Setup.start"].value == ("shuffle",)
    assert base["setup.random.Setup.start"].where.startswith("phase/Setup.kt:")
    unshuffled = engine("b", deck=D.DECK.replace("DROP", D.BY_INDEX).replace("        cards.shuffle()\n", ""))
    assert unshuffled["setup.random.Deck.init"].value == ()
    renamed = engine("c", setup=D.SETUP.replace("tasks", "pool"))
    assert renamed["setup.random.Setup.start"].value == base["setup.random.Setup.start"].value
    # a helper the set-up calls, and the state it starts, are read with it
    helper = D.SETUP.replace("        tasks.shuffle()\n", "        mix(tasks)\n").replace(
        "    fun start(", "    private fun mix(l: ArrayList<*>) {\n        l.shuffle()\n    }\n\n    fun start(")
    assert engine("d", setup=helper)["setup.random.Setup.start"].value == ("shuffle",)
    first = D.SETUP.replace("        tasks.shuffle()\n", "        val first = players.random()\n"
                                                       "        val n = kotlin.random.Random.nextInt(4)\n")
    got = engine("e", setup=first)["setup.random.Setup.start"].value
    assert got == ("Random.nextInt(4)", "random")
    same = first.replace("nextInt(4)", "nextInt(0, 4)")
    assert engine("g", setup=same)["setup.random.Setup.start"].value == got
    bounds = first.replace("nextInt(4)", "nextInt(1, 4)")
    assert engine("f", setup=bounds)["setup.random.Setup.start"].value == ("Random.nextInt(1, 4)", "random")


def test_how_the_secret_tasks_are_dealt_is_read(tmp_path):
    """``tasks[i++]`` for each 神秘人 (an index moved on after each deal: one task each) against ``tasks[i]`` with ``i``
    never moved (every 神秘人 the same task): ``setup.tasks_dealt``."""
    import test_extract_deck as D
    old = D.SETUP
    try:
        each = D.SETUP.replace("        for (p in players) p.secretTask = tasks[0]\n",
                               "        var k = 0\n        for (p in players) p.secretTask = tasks[k++]\n")
        same = each.replace("tasks[k++]", "tasks[k]")
        looped = D.SETUP.replace("        for (p in players) p.secretTask = tasks[0]\n",
                                 "        for (i in players.indices) players[i].secretTask = tasks[i]\n")
        got = {}
        for sub, text in (("a", each), ("b", same), ("c", looped)):
            D.SETUP = text
            got[sub] = extract(D._tree(tmp_path / sub)).engine["setup.tasks_dealt"].value
    finally:
        D.SETUP = old
    assert got == {"a": ("one each",), "b": ("the same",), "c": ("one each",)}


# ------------------------------------------------------------------------------------------ helpers read by their body
COUNTS = """package demo.game.card

import demo.protos.Common.color.Black

fun Iterable<Card>.countGood() = count { card -> TEST }
"""

WORKER = """package demo.game.skill

import demo.game.Game
import demo.game.Player
import demo.game.card.countGood

class Worker : ChangeDrawCardCountSkill {
    override val skillId = SkillId.ECHO

    override fun changeDrawCardCount(player: Player, oldCount: Int) = oldCount + player.messageCards.countGood()
}
"""


def _counts(tmp_path, test: str):
    d = _server(tmp_path)
    (d / "card" / "Counts.kt").write_text(COUNTS.replace("TEST", test), encoding="utf-8")
    return d


def test_a_message_count_helper_is_read_by_its_body(tmp_path):
    """A count lambda over a message card is read by what it accepts on every colour a message can have: any colour
    not black is ``true_messages``; no black at all is ``non_black_messages``; a member test of the card class
    (``isBlack()``) is followed; a set no term counts, or a test not followed, is None."""
    from skillproof.model.extract import _Extractor
    from skillproof.model.extract.helpers import colour_pred_term
    from skillproof.model.extract.syntax import _descendants, _make_parser
    e = _Extractor(_server(tmp_path))
    e.parse()
    parser = _make_parser()

    def term(lam: str):
        src = b"val x = cards.count " + lam.encode() + b"\n"
        return colour_pred_term(e, next(_descendants(parser.parse(src).root_node, "lambda_literal")))
    assert term("{ card -> card.colors.any { c -> c != Black } }") == "true_messages"
    assert term("{ card -> card.colors.none { c -> c == Black } }") == "non_black_messages"
    assert term("{ Black in it.colors }") == "black_messages"
    assert term("{ !it.isBlack() }") == "non_black_messages"
    assert term("{ it.isBlack() }") == "black_messages"
    assert term("{ Red in it.colors && Blue in it.colors }") is None      # no message is red and blue: no term
    assert term("{ it.weird() }") is None


def test_a_count_helper_changed_changes_the_rules_that_call_it(tmp_path):
    """The catalogue of a rule calling the helper (a draw count) follows the helper's body: planted7's true message
    narrowed to one without black changed 咱们工人有知识's draws only in Card.kt."""
    any_colour = extract(_counts(tmp_path / "a", "card.colors.any { c -> c != Black }"))
    no_black = extract(_counts(tmp_path / "b", "card.colors.none { c -> c == Black }"))
    weird = extract(_counts(tmp_path / "c", "card.colors.size > 5"))
    for ex in (any_colour, no_black, weird):
        assert ex.load_errors == []
    from skillproof.model.extract import _Extractor
    from skillproof.model.extract import helpers as H
    terms = []
    for sub in ("a", "b", "c"):
        e = _Extractor(tmp_path / sub / "server")
        e.parse()
        terms.append(H.colour_count_term(e, "countGood"))
    assert terms == ["true_messages", "non_black_messages", None]


def test_an_area_count_of_a_colour_test_is_read(tmp_path):
    """``messageCards.count { it.isBlack() } >= 2`` in a trigger's guard reads as ``black_messages >= 2`` (it was
    unknown): planted7's 咱们工人有知识 needing two black messages."""
    from test_extract_readers7 import WATCH
    d = _server(tmp_path)
    phases = d / "phase" / "Phases.kt"
    phases.write_text(phases.read_text(encoding="utf-8") + "\nclass ReceivePhaseIdle(val whoseTurn: Player, val "
                      "inFrontOfWhom: Player, val messageCard: Card) : Fsm\n", encoding="utf-8")
    ids = d / "skill" / "SkillId.kt"
    ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", 'WATCH("守"),\n    ECHO(', 1), encoding="utf-8")
    text = WATCH.replace("ALIVE", "        askWhom.messageCards.count { it.isBlack() } >= 2 || return null\n")
    (d / "skill" / "Watch.kt").write_text(text, encoding="utf-8")
    on = extract(d).catalogue.skills["Watch"].on[0].text
    assert "black_messages >= 2" in on


# ------------------------------------------------------------------------------------------ a message-area tally
PLAYER_TALLY = """package demo.game

import demo.game.card.Card
import demo.protos.Common.color.*

class Tally {
    val messageCards = ArrayList<Card>()

    fun wouldMakeThree(cards: List<Card>): Boolean {
        var red = 0
        var black = 0
        for (card in cards) {
            for (c in card.colors) {
                when (c) {
                    Red -> red++
                    Black -> black++
                    else -> {}
                }
            }
        }
        val hasRed = red > 0
        val hasBlack = black > 0
        for (card in messageCards) {
            for (c in card.colors) {
                when (c) {
                    Red -> red++
                    Black -> black++
                    else -> {}
                }
            }
        }
        return RESULT
    }
}
"""


def test_a_message_area_tally_is_run_on_every_colour(tmp_path):
    """A test of cards joining a player's area (three of one colour?) is run on every colour a joining card can have
    with 0–3 messages of it there: ``tally.<Owner>.<fn>`` says, per colour, from how many it holds — a colour
    dropped from the test (planted7's black no longer counted) changes it; the same test written the other way
    round does not."""
    def engine(sub, result):
        d = _server(tmp_path / sub)
        (d / "Tally.kt").write_text(PLAYER_TALLY.replace("RESULT", result), encoding="utf-8")
        return extract(d).engine["tally.Tally.wouldMakeThree"]
    both = engine("a", "hasRed && red >= 3 || hasBlack && black >= 3")
    assert both.value == ("red: 2", "blue: never", "black: 2", "red-black: 2", "blue-black: 2")
    red = engine("b", "hasRed && red >= 3")
    assert red.value == ("red: 2", "blue: never", "black: never", "red-black: 2", "blue-black: never")
    swapped = engine("c", "black >= 3 && hasBlack || red > 2 && hasRed")
    assert swapped.value == both.value
    assert engine("d", "red.toString() == \"3\"").value is None


# ------------------------------------------------------------------------------------------ a grant's test
GRANT = """package demo.game.skill

import demo.protos.Common.card_type

class Ban(
    private val cardType: List<card_type> = emptyList(),
    val forbidAll: Boolean = false
) : Skill {
    override val skillId = SkillId.ECHO

    fun bans(cardType: card_type) = TEST
}
"""


def test_a_grants_test_over_its_arguments_is_read_as_a_truth_table(tmp_path):
    """``fun bans(t) = forbidAll || t in this.cardType`` of a skill class given with arguments is the engine rule
    ``grant.<Class>.<fn>``: its truth table over the arguments — the ban of every card dropped (planted7) changes
    it, the same test written the other way round does not; the rule is about the class."""
    def engine(sub, test):
        d = _server(tmp_path / sub)
        (d / "skill" / "Ban.kt").write_text(GRANT.replace("TEST", test), encoding="utf-8")
        return extract(d).engine["grant.Ban.bans"]
    both = engine("a", "forbidAll || cardType in this.cardType")
    listed = engine("b", "cardType in this.cardType")
    swapped = engine("c", "this.cardType.contains(cardType) || forbidAll")
    assert both.about == ("Ban",) and both.where.startswith("skill/Ban.kt:")
    assert len(both.value) == 3 and listed.value == ("cardType in cardType",)
    assert swapped.value == both.value


# ------------------------------------------------------------------------------------------ one player's skill order
DEAL = """    fun dealListeningSkill(beginLocation: Int): Fsm? {
        var i = beginLocation % players.size
        do {
            val player = players[i]!!
            player.skills.ORDER.forEach { skill ->
                if (player.alive) (skill as? TriggeredSkill)?.execute(this, player)?.let { return it }
            }
            i = (i + 1) % players.size
        } while (i != beginLocation % players.size)
        return null
    }

    fun resolve(next: Fsm) {"""


def test_the_order_one_players_skills_are_asked_in_is_read(tmp_path):
    """``player.skills.forEach`` against ``player.skills.asReversed().forEach`` around the trigger call:
    ``trigger.skill_order`` (planted7's skills asked last first read like a reorder)."""
    def engine(sub, order):
        d = _server(tmp_path / sub)
        game = d / "Game.kt"
        text = game.read_text(encoding="utf-8").replace("    fun resolve(next: Fsm) {", DEAL.replace("ORDER", order), 1)
        text = text.replace("import demo.game.skill.Skill\n", "import demo.game.skill.Skill\n"
                            "import demo.game.skill.TriggeredSkill\n")
        game.write_text(text.replace("player.skills..forEach", "player.skills.forEach"), encoding="utf-8")
        return extract(d).engine.get("trigger.skill_order")
    assert engine("a", "").value == "in order"
    assert engine("b", "asReversed()").value == "last first"
    assert engine("c", "reversed().asReversed()").value == "in order"


# ------------------------------------------------------------------------------------------ a list of players built
DUET = """package demo.game.skill

import demo.game.*

class Duet : TriggeredSkill {
    override val skillId = SkillId.DUET
    override val isInitialSkill = true

    override fun execute(g: Game, askWhom: Player): Any? {
        val event = g.findEvent<ReceiveCardEvent>(this) { event ->
            askWhom === event.inFrontOfWhom
        } ?: return null
        val players = arrayListOf(event.inFrontOfWhom)
ADD        g.sortedFrom(players, event.whoseTurn.location).forEach { it.draw(1) }
        return null
    }
}
"""


def test_a_list_of_players_the_rule_builds_is_read_with_each_ones_condition(tmp_path):
    """``val players = arrayListOf(a); if (c) players.add(b); sortedFrom(players, …).forEach { it.draw(1) }``:
    each player draws under the condition he was added with — the add dropped is a change (planted7's 知音 without
    the sender's draw was unread code)."""
    from test_effects_read import _server as eff_server

    def do(sub, add):
        d = eff_server(tmp_path / sub)
        (d / "skill" / "Duet.kt").write_text(DUET.replace("ADD", add), encoding="utf-8")
        ids = d / "skill" / "SkillId.kt"
        ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", 'DUET("和"),\n    ECHO(', 1),
                       encoding="utf-8")
        roles = d / "skill" / "Roles.kt"
        roles.write_text(roles.read_text(encoding="utf-8").replace("Echo()", "Echo(), Duet()", 1), encoding="utf-8")
        ex = extract(d)
        text = ex.files["skills.toml"]
        line = next(ln for ln in text[text.index('id = "Duet"'):].splitlines() if ln.startswith("do = "))
        return line, ex.reads[("skill/Duet.kt", "Duet", "execute")]
    both, read = do("a", "        if (event.sender.alive) players.add(event.sender)\n")
    assert read is True
    assert both == 'do = [{ op = "draw", who = "receiver", n = 1 }, { op = "draw", who = "sender", n = 1, ' \
                   'if = "sender.alive" }]'
    one, read = do("b", "")
    assert read is True and one == 'do = [{ op = "draw", who = "receiver", n = 1 }]'


# ------------------------------------------------------------------------------------------ callers named
def test_an_engine_change_names_the_rules_that_call_its_function():
    """A change of an engine function (the seat order of ``sortedFrom``) names the skills and cards whose rule code
    calls it — not their robot helpers (``ai…``), not a declaration of the same name — when a few rules do."""
    from skillproof.kotlin_diff import _callers
    sources = {
        "Game.kt": b"class Game {\n    fun sortedFrom(ps: List<Player>, i: Int): List<Player> {\n        return ps\n"
                   b"    }\n}\n",
        "skill/Bell.kt": b"class Bell : TriggeredSkill {\n    fun execute(g: Game) {\n"
                         b"        g.sortedFrom(listOf(a, b), 0).forEach { it.draw(1) }\n    }\n}\n",
        "skill/Drum.kt": b"class Drum : ActiveSkill {\n    companion object {\n        fun ai(g: Game) {\n"
                         b"            g.sortedFrom(g.players, 0)\n        }\n    }\n}\n",
        "card/Horn.kt": b"class Horn : Card {\n    fun sortedFrom(x: Int) = x\n}\n",
    }
    hex_ = SimpleNamespace(sources=sources, locations={"Bell": "skill/Bell.kt:1", "Drum": "skill/Drum.kt:1",
                                                       "Horn": "card/Horn.kt:1"})
    ec = SimpleNamespace(name="order.step.Game.sortedFrom", where="Game.kt:3")
    assert _callers(ec, hex_) == ["Bell"]
    assert _callers(SimpleNamespace(name="x", where="skill/Bell.kt:2"), hex_) == []     # a rule's own file: no


def test_a_colour_count_helper_with_a_colour_argument_is_read_by_its_body(tmp_path):
    """``fun Iterable<Card>.count(c: color) = count { c in it.colors }`` read with its argument bound: ``count(Red)``
    is ``red_messages`` (a red-black message counts); a body counting only messages of that colour alone names no
    count of the language (None: the call is not read, not taken for ``red_messages`` by its name)."""
    from skillproof.model.extract import _Extractor
    from skillproof.model.extract.helpers import colour_arg_count_term
    got = {}
    for sub, body in (("a", "c in it.colors"), ("b", "it.colors.all { x -> x == c }")):
        d = _server(tmp_path / sub)
        (d / "card" / "Counts.kt").write_text("package demo.game.card\n\nimport demo.protos.Common.color\n\n"
                                              f"fun Iterable<Card>.count(c: color) = count {{ {body} }}\n",
                                              encoding="utf-8")
        e = _Extractor(d)
        e.parse()
        got[sub] = [colour_arg_count_term(e, "count", c) for c in ("red", "blue", "black")]
    assert got["a"] == ["red_messages", "blue_messages", "black_messages"]
    assert got["b"] == [None, None, None]           # one colour alone (pure black too) is no count of the language


def test_a_filtered_area_size_is_read_as_a_count(tmp_path):
    """``messageCards.filter { it.isBlack() }.size >= 2`` reads like ``count { it.isBlack() } >= 2``."""
    from test_extract_readers7 import WATCH
    d = _server(tmp_path)
    phases = d / "phase" / "Phases.kt"
    phases.write_text(phases.read_text(encoding="utf-8") + "\nclass ReceivePhaseIdle(val whoseTurn: Player, val "
                      "inFrontOfWhom: Player, val messageCard: Card) : Fsm\n", encoding="utf-8")
    ids = d / "skill" / "SkillId.kt"
    ids.write_text(ids.read_text(encoding="utf-8").replace("ECHO(", 'WATCH("守"),\n    ECHO(', 1), encoding="utf-8")
    text = WATCH.replace("ALIVE", "        askWhom.messageCards.filter { it.isBlack() }.size >= 2 || return null\n")
    (d / "skill" / "Watch.kt").write_text(text, encoding="utf-8")
    assert "black_messages >= 2" in extract(d).catalogue.skills["Watch"].on[0].text
