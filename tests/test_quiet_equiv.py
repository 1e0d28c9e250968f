"""Quiet commits the gate must pass (issue 24's quiet side), one general cause each: equal code the normal form
equates (``model/extract/normal.py``), members whose stores change nothing in play (``model/extract/unread.py``:
only robots or client messages read them, or they are only ever set to the value they start with), and a win rule
read apart from code whose normal form did not change (``unread.same_rule_code``). Each with a real change next to
it that must still be named. Small Kotlin snippets written for these tests."""
from __future__ import annotations

import pytest

from skillproof.model.extract import extract
from skillproof.model.extract.unread import compare, constant_members, read_tree, same_rule_code

from test_extract_history import _server_with
from test_normal_equiv import _changes
from test_wins_read import CHECK, PASS

#: (before, an equivalent after, a real change of the same code)
CASES = {
    "a local shadowing the member it is read from": (
        "val whoseTurn = whoseTurn.location\n        g.start(whoseTurn)",
        "val first = whoseTurn.location\n        g.start(first)",
        "val first = askWhom.location\n        g.start(first)"),
    "a member path held in a local, read twice in the next test": (
        "val colors = g.card.colors\n        if (Red in colors || Blue in colors) askWhom.draw(1)",
        "if (Red in g.card.colors || Blue in g.card.colors) askWhom.draw(1)",
        "if (Red in g.card.colors && Blue in g.card.colors) askWhom.draw(1)"),
    "independent stores in another order": (
        "askWhom.identity = g.identity\n        askWhom.task = g.task\n        g.win(askWhom.identity, askWhom.task)",
        "askWhom.task = g.task\n        askWhom.identity = g.identity\n        g.win(askWhom.identity, askWhom.task)",
        "askWhom.task = g.task\n        askWhom.identity = g.task\n        g.win(askWhom.identity, askWhom.task)"),
    "independent locals in another order": (
        "val red = g.cards.count(Red)\n        val blue = g.cards.count(Blue)\n"
        "        if (red > 2 && blue > red) askWhom.draw(blue)",
        "val blue = g.cards.count(Blue)\n        val red = g.cards.count(Red)\n"
        "        if (red > 2 && blue > red) askWhom.draw(blue)",
        "val blue = g.cards.count(Blue)\n        val red = g.cards.count(Red)\n"
        "        if (red > 2 && blue > red) askWhom.draw(red)"),
    "a member path and the local that holds it": (
        "val p = g.fsm.whoseTurn\n        p.draw(1)\n        g.fsm.whoseTurn.game.discard(p)",
        "val p = g.fsm.whoseTurn\n        p.draw(1)\n        p.game.discard(p)",
        "val p = g.fsm.whoseTurn\n        p.draw(1)\n        g.fsm.sender.game.discard(p)"),
    "a test an earlier guard settled": (
        "if (g.card.type != Mi_Ling) return null\n        val t = g.target\n"
        "        if (g.card.type != Mi_Ling) g.card = g.card.asCard(Mi_Ling)\n        g.use(g.card, t)",
        "if (g.card.type != Mi_Ling) return null\n        val t = g.target\n        g.use(g.card, t)",
        "if (g.card.type != Mi_Ling) return null\n        val t = g.target\n"
        "        if (g.card.type != Wei_Bi) g.card = g.card.asCard(Mi_Ling)\n        g.use(g.card, t)"),
    "a fresh collection built and read by nothing else": (
        "val l = g.tasks.take(3).toMutableList()\n        if (Red !in l) l.add(Red)\n        while (l.size < 3) "
        "l.add(g.spare.random())\n        l.shuffle()\n        askWhom.draw(1)",
        "askWhom.draw(1)",
        "val l = g.tasks.take(3).toMutableList()\n        if (Red !in l) l.add(Red)\n        while (l.size < 3) "
        "l.add(g.spare.random())\n        l.shuffle()\n        askWhom.draw(l.size)"),
    "a log line's text built in a local, reworded": (
        "var s = \"turn of ${askWhom}\"\n        if (g.locked) s += \", locked\"\n        logger.info(s)\n"
        "        askWhom.draw(1)",
        "var s = \"${askWhom} begins\"\n        if (g.locked) s += \", locked\"\n        logger.info(s)\n"
        "        askWhom.draw(1)",
        "var s = \"${askWhom} begins\"\n        if (g.locked) s += \", locked\"\n        logger.info(s)\n"
        "        askWhom.draw(2)"),
    "a time-out's length on the configured waiting time": (
        "askWhom.waitForAnswer(g, Config.WaitSecond * 4 / 3)\n        g.idle = Timer.post(g, { g.next() }, "
        "(Config.WaitSecond * 3).toLong(), TimeUnit.SECONDS)",
        "askWhom.waitForAnswer(g, Config.WaitSecond * 3 / 2)\n        g.idle = Timer.post(g, { g.next() }, "
        "(Config.WaitSecond * 4).toLong(), TimeUnit.SECONDS)",
        "askWhom.waitForAnswer(g, Config.WaitSecond * 3 / 2)\n        g.idle = Timer.post(g, { g.next() }, "
        "(Config.WaitSecond * 4).toLong(), TimeUnit.SECONDS)\n        askWhom.draw(1)"),
    "a loop over a list written with forEach": (
        "g.players.forEach { it.draw(g.count) }\n        askWhom.draw(1)",
        "for (p in g.players) { p.draw(g.count) }\n        askWhom.draw(1)",
        "for (p in g.players) { askWhom.draw(g.count) }\n        askWhom.draw(1)"),
    "a request refused for a second of wall-clock time": (
        "askWhom.draw(1)",
        "if (System.currentTimeMillis() - askWhom.startTime < 1000) return null\n        askWhom.draw(1)",
        "if (askWhom.cards.size < 1000) return null\n        askWhom.draw(1)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_equal_code_is_quiet_and_a_real_change_is_named(name):
    before, same, real = CASES[name]
    assert _changes(before, same) == [], name
    assert _changes(before, real) == [("Watch.execute", "changed")], name


def test_stores_that_read_each_other_keep_their_order():
    before = "askWhom.task = g.task\n        askWhom.identity = askWhom.task\n        g.win(askWhom.identity)"
    after = "askWhom.identity = askWhom.task\n        askWhom.task = g.task\n        g.win(askWhom.identity)"
    assert _changes(before, after) == [("Watch.execute", "changed")]


def test_a_collection_another_object_holds_is_not_a_fresh_one():
    # `l` is the game's own list: shuffling it changes the game
    assert _changes("val l = g.tasks\n        l.shuffle()\n        askWhom.draw(1)", "askWhom.draw(1)") == \
        [("Watch.execute", "changed")]
    # a value that changes something (a draw) is kept with its local
    assert _changes("val c = g.deck.draw(1)\n        askWhom.draw(1)", "askWhom.draw(1)") == \
        [("Watch.execute", "changed")]


def test_a_test_no_guard_settled_is_kept():
    # something that may change the card lies between the guard and the test
    before = "if (g.card.type != Mi_Ling) return null\n        g.swap(askWhom)\n" \
             "        if (g.card.type != Mi_Ling) g.card = g.card.asCard(Mi_Ling)\n        g.use(g.card)"
    after = "if (g.card.type != Mi_Ling) return null\n        g.swap(askWhom)\n        g.use(g.card)"
    assert _changes(before, after) == [("Watch.execute", "changed")]


KILLER = """package demo.game.phase

import demo.game.*

class CheckKillerWin(val whoseTurn: Player, val died: List<Player>) : Fsm {
    override fun resolve(): Any? {
        if (died.any { it.messageCards.count(Red) >= 2 }) whoseTurn.win()
        return null
    }
    HELPER
}
"""


def test_a_private_one_expression_helper_is_written_out():
    rel = "phase/CheckKillerWin.kt"
    helper = "private fun List<Player>.anyDiedRed() = any { it.messageCards.count(Red) >= 2 }"
    before = {rel: KILLER.replace("HELPER", "").encode()}
    after = {rel: KILLER.replace("HELPER", helper).replace("died.any { it.messageCards.count(Red) >= 2 }",
                                                          "died.anyDiedRed()").encode()}
    assert compare(before, after).changes == []
    # the helper's test changed: named (at the caller it is written out in, and at the helper itself)
    real = {rel: after[rel].replace(b">= 2 }", b">= 3 }")}
    assert sorted(c.where for c in compare(before, real).changes) == ["CheckKillerWin.resolve"]
    assert sorted(c.where for c in compare(after, real).changes) == ["CheckKillerWin.anyDiedRed"]


PLAYER = """package demo.game

class Player {
    var alive = true
    var guessRate = 2
    var dieJustNow = false
    fun reset() {
        dieJustNow = false
    }
}
"""

ROBOT_READ = """package demo.game.card

import demo.game.*

class Guess : Card {
    companion object {
        fun ai(r: Player): Boolean = Random.nextInt(4) < r.guessRate
    }
}
"""

USE = """package demo.game.skill

import demo.game.*

class Watch : TriggeredSkill {
    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        BODY
        askWhom.draw(1)
        return null
    }
}
"""


def _sides(body_a: str, body_b: str, player: str = PLAYER, extra: dict | None = None):
    files = {"Player.kt": player, "card/Guess.kt": ROBOT_READ, **(extra or {})}
    a = {**{k: v.encode() for k, v in files.items()}, "skill/Watch.kt": USE.replace("BODY", body_a).encode()}
    b = {**{k: v.encode() for k, v in files.items()}, "skill/Watch.kt": USE.replace("BODY", body_b).encode()}
    return [(c.where, c.change) for c in compare(a, b).changes]


def test_a_store_into_a_member_only_robots_read_is_no_rule():
    assert _sides("", "askWhom.guessRate = 0") == []
    assert _sides("", "if (askWhom.cards.isNotEmpty()) askWhom.guessRate = 0") == []
    # a member a rule reads: a change
    reads = {"skill/Life.kt": "package demo.game.skill\n\nclass Life {\n    fun resolve(r: Player) {\n"
                              "        if (r.alive) r.draw(1)\n    }\n}\n"}
    assert _sides("", "askWhom.alive = false", extra=reads) == [("Watch.execute", "changed")]
    # and a member nobody reads decides nothing
    assert _sides("", "askWhom.alive = false") == []
    # a robot's branch of a rule's code reading it is still the robot's
    rule = {"skill/Bet.kt": "package demo.game.skill\n\nclass Bet {\n    fun resolve(r: Player) {\n"
                            "        if (r is RobotPlayer) {\n            if (r.guessRate > 1) r.draw(1)\n        }\n"
                            "    }\n}\n"}
    assert _sides("", "askWhom.guessRate = 0", extra=rule) == []
    ruled = {"skill/Bet.kt": rule["skill/Bet.kt"].replace("if (r is RobotPlayer) {", "if (r.alive) {")}
    assert _sides("", "askWhom.guessRate = 0", extra=ruled) == [("Watch.execute", "changed")]
    # the other branch of a test for a human player is the robot's
    human = {"skill/Bet.kt": rule["skill/Bet.kt"].replace("if (r is RobotPlayer) {", "if (r is HumanPlayer) {\n"
                                                          "            r.draw(2)\n        } else {")}
    assert _sides("", "askWhom.guessRate = 0", extra=human) == []
    humans = {"skill/Bet.kt": rule["skill/Bet.kt"].replace("if (r is RobotPlayer) {", "if (r is HumanPlayer) {")}
    assert _sides("", "askWhom.guessRate = 0", extra=humans) == [("Watch.execute", "changed")]


def test_a_member_only_ever_set_to_its_first_value_is_constant():
    files = {"Player.kt": PLAYER.encode()}
    assert constant_members({"dieJustNow", "guessRate"}, files, files) == {"dieJustNow", "guessRate"}
    robot = {**files, "card/Guess.kt": ROBOT_READ.replace("< r.guessRate", "< r.guessRate++").encode()}
    assert constant_members({"dieJustNow", "guessRate"}, robot, robot) == {"dieJustNow"}
    reads = {"phase/CheckKillerWin.kt": "package demo.game.phase\n\nclass CheckKillerWin {\n    fun resolve(r: Player) "
                                        "{\n        if (r.alive || r.dieJustNow) r.win()\n    }\n}\n"}
    assert _sides("askWhom.dieJustNow = false", "", extra=reads) == []
    # once something sets it otherwise, the stores are rules
    other = PLAYER.replace("dieJustNow = false\n    }", "dieJustNow = true\n    }")
    assert constant_members({"dieJustNow"}, {"Player.kt": other.encode()}, {"Player.kt": other.encode()}) == set()
    assert _sides("askWhom.dieJustNow = false", "", player=other, extra=reads) == [("Watch.execute", "changed")]


def _killer_sides(tmp_path, a: str, b: str):
    sides = []
    for name, check in (("a", a), ("b", b)):
        root = _server_with(tmp_path / name, {"phase/CheckWin.kt": check.replace("PASS", "changeGameResult"),
                                              "skill/ResultPass.kt": PASS.replace("PASS", "changeGameResult")})
        ex = extract(root)
        ex.sources = read_tree(root)
        sides.append(ex)
    bex, hex_ = sides
    return bex, hex_, compare(bex.sources, hex_.sources)


def test_a_win_rule_read_apart_from_the_same_code_is_the_same_rule(tmp_path):
    check = CHECK.replace("END", "game.end(declareWinner, winner)")
    renamed = check.replace("val game = whoseTurn.game!!", "val theGame = whoseTurn.game!!") \
        .replace("game.players", "theGame.players").replace("game.changeGameResult", "theGame.changeGameResult") \
        .replace("game.PASS", "theGame.PASS").replace("game.end(", "theGame.end(")
    bex, hex_, cmp = _killer_sides(tmp_path / "same", check, renamed)
    assert bex.engine["win.check"].value != hex_.engine["win.check"].value     # the clauses read apart …
    assert same_rule_code("win.check", bex, hex_, cmp)                         # … from the same code
    bex, hex_, cmp = _killer_sides(tmp_path / "real", check, renamed.replace(">= 3", ">= 2"))
    assert not same_rule_code("win.check", bex, hex_, cmp)


# -- the held-out quiet edits of planted2 (two statements swapped, a helper written out, an if turned round, a dead
#    counter guard): each a general equivalence, each beside a real change of the same shape

HAND = """package demo.game

class Player {
    val cards = ArrayList<Card>()
    val messageCards = ArrayList<Card>()
    private val useCount = HashMap<SkillId, Int>()

    fun deleteCard(id: Int): Card? {
        val index = cards.indexOfFirst { c -> c.id == id }
        return if (index >= 0) cards.removeAt(index) else null
    }

    fun draw(n: Int) {
        game.deck.draw(n).forEach { cards.add(it) }
    }

    fun addUseCount(skillId: SkillId) {
        useCount.compute(skillId) { _, v -> if (v == null) 1 else v + 1 }
    }

    fun getUseCount(skillId: SkillId): Int {
        return useCount[skillId] ?: 0
    }

    fun resetUseCount() {
        useCount.clear()
    }
}
"""

CARD = """package demo.game.card

abstract class Card {
    val colors: List<color>

    fun isBlack(): Boolean = Black in colors
}
"""


def _hand(body_a: str, body_b: str, extra_a: dict | None = None, extra_b: dict | None = None):
    files = {"Player.kt": HAND, "card/Card.kt": CARD}
    a = {**{k: v.encode() for k, v in {**files, **(extra_a or {})}.items()},
         "skill/Watch.kt": USE.replace("BODY", body_a).encode()}
    b = {**{k: v.encode() for k, v in {**files, **(extra_b or {})}.items()},
         "skill/Watch.kt": USE.replace("BODY", body_b).encode()}
    return [(c.where, c.change) for c in compare(a, b).changes]


def test_changes_of_distinct_collections_commute_and_dependent_ones_keep_their_order():
    take = "askWhom.deleteCard(card.id)\n        target.messageCards.add(card)"
    swapped = "target.messageCards.add(card)\n        askWhom.deleteCard(card.id)"
    assert _hand(take, swapped) == []
    # the same list on both sides: the order is what is in the hand
    same = "askWhom.deleteCard(card.id)\n        target.cards.add(card)"
    assert _hand(same, "target.cards.add(card)\n        askWhom.deleteCard(card.id)") == [("Watch.execute", "changed")]
    # a call whose changes are not known (a draw: the game's deck) keeps its place
    draw = "askWhom.draw(1)\n        target.messageCards.add(card)"
    assert _hand(draw, "target.messageCards.add(card)\n        askWhom.draw(1)") == [("Watch.execute", "changed")]
    # a collection held in a local may be anyone's (here perhaps the hand itself)
    local = "val l = g.handOf(target)\n        askWhom.deleteCard(card.id)\n        l.add(card)"
    assert _hand(local, "val l = g.handOf(target)\n        l.add(card)\n        askWhom.deleteCard(card.id)") == \
        [("Watch.execute", "changed")]
    # (a local holding a member path is that path: its list is known)
    held = "val l = target.messageCards\n        askWhom.deleteCard(card.id)\n        l.add(card)"
    assert _hand(held, "val l = target.messageCards\n        l.add(card)\n        askWhom.deleteCard(card.id)") == []


def test_a_class_own_one_expression_function_is_written_out_at_its_calls():
    inline = "if (card.colors.contains(Common.color.Black)) askWhom.draw(1)"
    assert _hand(inline, "if (card.isBlack()) askWhom.draw(1)") == []
    # a helper whose body differs is another test
    red = CARD.replace("fun isBlack(): Boolean = Black in colors",
                       "fun isBlack(): Boolean = Black in colors\n    fun isRedOrBlack(): Boolean = Red in colors || Black in colors")
    assert _hand(inline, "if (card.isRedOrBlack()) askWhom.draw(1)", {"card/Card.kt": red}, {"card/Card.kt": red}) == \
        [("Watch.execute", "changed")]
    # a function overridden elsewhere is not written out
    over = {"card/Grey.kt": "package demo.game.card\n\nclass Grey : Card() {\n    override fun isBlack(): Boolean = "
                            "true\n}\n"}
    assert _hand(inline, "if (card.isBlack()) askWhom.draw(1)", over, over) == [("Watch.execute", "changed")]


def test_a_new_private_helper_is_written_out_and_a_different_body_is_named():
    rel = "skill/Truth.kt"
    src = ("package demo.game.skill\n\nclass Truth : TriggeredSkill {\n    override fun execute(g: Game, askWhom: Player)"
           ": ResolveResult? {\n        if (TEST) askWhom.draw(2)\n        return null\n    }\nHELPER}\n")
    before = {rel: src.replace("TEST", "Red in g.card.colors || Blue in g.card.colors").replace("HELPER", "").encode()}
    helper = "    private fun isTrue(card: Card) = Red in card.colors || Blue in card.colors\n"
    after = {rel: src.replace("TEST", "isTrue(g.card)").replace("HELPER", helper).encode()}
    assert compare(before, after).changes == []
    real = {rel: after[rel].replace(b"|| Blue in card", b"&& Blue in card")}
    assert [c.where for c in compare(before, real).changes] == ["Truth.execute"]
    # a file-level private helper reads the same
    top = {rel: src.replace("TEST", "isTrue(g.card)").replace("HELPER", "").encode() + helper.strip().encode() + b"\n"}
    assert compare(before, top).changes == []


def test_an_if_else_turned_round_with_its_condition_negated_is_the_same():
    a = "if (g.dir == Left) g.next(askWhom.left) else g.next(askWhom.right)"
    assert _changes(a, "if (g.dir != Left) g.next(askWhom.right) else g.next(askWhom.left)") == []
    # De Morgan: !(a && b) turned round
    b = "if (askWhom.alive && g.card.isOpen) askWhom.draw(1) else askWhom.draw(2)"
    assert _changes(b, "if (!askWhom.alive || !g.card.isOpen) askWhom.draw(2) else askWhom.draw(1)") == []
    # negated without swapping the branches: a change
    assert _changes(a, "if (g.dir != Left) g.next(askWhom.left) else g.next(askWhom.right)") == \
        [("Watch.execute", "changed")]
    assert _changes(b, "if (!askWhom.alive && !g.card.isOpen) askWhom.draw(2) else askWhom.draw(1)") == \
        [("Watch.execute", "changed")]


COUNTED = {"skill/Tally.kt": "package demo.game.skill\n\nclass Tally : ActiveSkill {\n    override val skillId = "
                             "SkillId.TALLY\n    fun use(r: Player) {\n        r.addUseCount(skillId)\n    }\n}\n"}


def test_a_guard_on_a_count_nothing_adds_to_is_constant():
    guard = "if (askWhom.getUseCount(skillId) != 0) return null\n        "
    skill = USE.replace("class Watch : TriggeredSkill {", "class Watch : TriggeredSkill {\n    override val skillId = "
                                                          "SkillId.WATCH\n")

    def sides(a, b, extra):
        fa = {"Player.kt": HAND.encode(), **{k: v.encode() for k, v in extra.items()},
              "skill/Watch.kt": skill.replace("BODY", a).encode()}
        fb = {**fa, "skill/Watch.kt": skill.replace("BODY", b).encode()}
        return [(c.where, c.change) for c in compare(fa, fb).changes]

    assert sides(guard, "", COUNTED) == []
    # once something adds to the count of this skill, the guard is a rule
    counted = {"skill/Tally.kt": COUNTED["skill/Tally.kt"].replace("r.addUseCount(skillId)",
                                                                   "r.addUseCount(skillId)\n        r.addUseCount("
                                                                   "SkillId.WATCH)")}
    assert sides(guard, "", counted) == [("Watch.execute", "changed")]
    # a key that cannot be named: nothing is known
    unknown = {"skill/Tally.kt": COUNTED["skill/Tally.kt"].replace("r.addUseCount(skillId)", "r.addUseCount(r.pick())")}
    assert sides(guard, "", unknown) == [("Watch.execute", "changed")]


def test_a_private_helper_is_its_file_own_whatever_other_files_declare():
    # another file declares a public function of the helper's first name: renaming the private one is still quiet
    rel = "skill/Moon.kt"
    src = ("package demo.game.skill\n\nclass Moon : TriggeredSkill {\n    override fun execute(g: Game, askWhom: Player)"
           ": ResolveResult? {\n        if (NAME(askWhom)) askWhom.draw(1)\n        return null\n    }\n\n"
           "    private fun NAME(p: Player) = p.alive && p.roleFaceUp\n}\n")
    other = {"Value.kt": b"package demo.game\n\nobject Value {\n    fun isNine(p: Player) = p.alive\n}\n"}
    before = {**other, rel: src.replace("NAME", "isNine").encode()}
    after = {**other, rel: src.replace("NAME", "isFaceUpNine").encode()}
    assert compare(before, after).changes == []
    real = {**other, rel: src.replace("NAME", "isFaceUpNine").replace("&& p.roleFaceUp", "|| p.roleFaceUp").encode()}
    assert [c.where for c in compare(before, real).changes] == ["Moon.execute"]


def _ledger_fight(tmp_path, adds: str) -> str:
    from test_extract_history import SERVER as FIXTURE
    game = (FIXTURE / "Game.kt").read_text(encoding="utf-8").replace(
        "    fun getSkillUseCount(id: Any): Int = useCounts[id] ?: 0",
        "    fun getSkillUseCount(id: Any): Int = useCounts[id] ?: 0\n\n    fun addSkillUseCount(id: Any) {\n"
        "        useCounts.compute(id) { _, v -> (v ?: 0) + 1 }\n    }")
    tally = ("package demo.game.skill\n\nimport demo.game.Player\n\nclass Tally {\n    fun use(r: Player) {\n"
             f"        r.addSkillUseCount({adds})\n    }}\n}}\n")
    ex = extract(_server_with(tmp_path, {"Game.kt": game, "skill/Tally.kt": tally}))
    return ex.files["skills.toml"].split('id = "Ledger"')[1].split("\n\n")[0]


def test_a_use_count_nothing_adds_to_reads_zero_in_the_catalogue(tmp_path):
    # only another skill's count is ever added to: 账本's `getSkillUseCount(skillId) == 0` always holds
    fight = _ledger_fight(tmp_path / "other", "SkillId.ECHO")
    assert 'fight = "true and (non_black_messages > 0 or hand_count > 1)' in fight and "not used" not in fight
    # once its own count is added to, the guard is a rule again
    assert 'fight = "not used and' in _ledger_fight(tmp_path / "own", "SkillId.LEDGER")
    # a key that cannot be named: nothing is known
    assert 'fight = "not used and' in _ledger_fight(tmp_path / "unknown", "r.name")


HELPER_BASE = """package demo.game.skill

import demo.game.Game
import demo.game.Player

class Watch : TriggeredSkill {
    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        if (holds(askWhom, g.kind)) askWhom.draw(1)
        return null
    }

    private fun holds(p: Player, k: Kind): Boolean {
        BODY
    }
}
"""


@pytest.mark.parametrize("loop, same, real", [
    ("for (c in p.cards) if (c.type == k) return true\n        return false",
     "return p.cards.any { it.type == k }", "return p.cards.any { it.type != k }"),
    ("for (c in p.cards) if (c.type == k) return true\n        return false",
     "return p.cards.any { it.type == k }", "return p.cards.all { it.type == k }"),
    ("for (i in p.kinds) if (i == k) return true\n        return false", "return k in p.kinds", "return k !in p.kinds"),
    ("for (i in p.kinds) if (i == k) return true\n        return false", "return k in p.kinds", "return k in p.others"),
])
def test_a_loop_returning_at_the_first_match_is_any_or_membership(loop, same, real):
    from test_normal_equiv import _changes
    assert _changes(loop, same, HELPER_BASE) == []
    assert _changes(loop, real, HELPER_BASE) == [("Watch.holds", "changed")]


def test_a_member_read_only_by_a_member_only_robots_read_is_no_rule():
    """A counter read only by a property that only robots read (``isLate = rounds > 3``, asked by an ``ai``) decides
    nothing in play: a store into it is quiet; once a rule reads the property, the store is a change."""
    player = PLAYER.replace("    var alive = true\n", "    var alive = true\n    var rounds = 0\n"
                            "    val isLate: Boolean\n        get() = rounds > 3\n")
    robot = {"card/Late.kt": "package demo.game.card\n\nclass Late : Card {\n    companion object {\n"
                             "        fun ai(r: Player): Boolean = r.isLate\n    }\n}\n"}
    assert _sides("", "askWhom.rounds += 2", player=player, extra=robot) == []
    rule = {**robot, "skill/Late.kt": "package demo.game.skill\n\nclass Slow {\n    fun resolve(r: Player) {\n"
                                      "        if (r.isLate) r.draw(1)\n    }\n}\n"}
    assert _sides("", "askWhom.rounds += 2", player=player, extra=rule) == [("Watch.execute", "changed")]
