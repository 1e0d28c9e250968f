"""Quiet edits of the eleventh planted sample found flagged (issue 24's quiet side, seventh part): each a general
refactor the gate now reads alike — a membership argument copied to a set, a difference clamped at zero — each with
a real change of the same shape that must still be named. The gate reads each file through ``quiet_source`` before
it compares normal forms (``unread.compare``), as here. Small Kotlin snippets written for these tests (our own
code, not the server's)."""
from __future__ import annotations

from quietkit import _P
from quietkit import quiet_changes as _changes
from skillproof.model.extract.quiet_source import quiet_source
from skillproof.model.extract.unread import compare


SKILL = """package demo.game.skill

class Cure : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player, message: GeneratedMessage) {
        val target = g.players[1]
        val cards = message.cardIdsList.map { g.deck.find(it) }
BODY
        r.draw(1)
    }
}
"""
CHANGED = [("Cure.executeProtocol", "changed")]


# ------------------------------------------------------------------------------- a membership argument copied
def test_removing_the_elements_of_a_list_or_of_its_set_is_alike():
    before = "        r.cards.removeAll(cards.toSet())"
    for after in ("        r.cards.removeAll(cards)", "        r.cards.removeAll(cards.toHashSet())"):
        assert _changes(SKILL, before, after) == [], after
    assert _changes(SKILL, "        r.cards.retainAll(cards.toList())", "        r.cards.retainAll(cards)") == []


def test_another_list_or_another_operation_is_named():
    before = "        r.cards.removeAll(cards.toSet())"
    for after in ("        r.cards.removeAll(target.cards)", "        target.cards.removeAll(cards)",
                  "        r.cards.addAll(cards)", "        r.cards.removeAll(cards.take(1).toSet())"):
        assert _changes(SKILL, before, after) == CHANGED, after


# ------------------------------------------------------------------------------ a difference clamped at zero
def _from(line: str) -> str:
    return "        val n = target.cards.size\n" + line + "\n        r.draw(from)"


def test_a_difference_clamped_at_zero_is_its_if():
    before = _from("        val from = if (n > cards.size) 0 else cards.size - n")
    for after in ("        val from = (cards.size - n).coerceAtLeast(0)", "        val from = maxOf(cards.size - n, 0)",
                  "        val from = maxOf(0, cards.size - n)"):
        assert _changes(SKILL, before, _from(after)) == [], after
    # inside a larger expression the if keeps its parentheses
    assert _changes(SKILL, _from("        val from = (if (n > cards.size) 0 else cards.size - n) + 1"),
                    _from("        val from = (cards.size - n).coerceAtLeast(0) + 1")) == []


def test_another_clamp_is_named():
    before = _from("        val from = if (n > cards.size) 0 else cards.size - n")
    for after in ("        val from = (cards.size - n).coerceAtLeast(1)", "        val from = (n - cards.size).coerceAtLeast(0)",
                  "        val from = (cards.size - n).coerceAtMost(0)", "        val from = minOf(cards.size - n, 0)",
                  "        val from = (cards.size + n).coerceAtLeast(0)", "        val from = cards.size - n + 1",
                  "        val from = (cards.size - n).coerceAtLeast(0) + 1"):
        assert _changes(SKILL, before, _from(after)) == CHANGED, after


# --------------------------------------------------------------------- one return of an if-argument, or two
TWO = """        if (target is HumanPlayer)
            return ResolveResult(target.copy(seat = 1), true)
        return ResolveResult(target, true)"""


def test_one_return_of_an_if_argument_is_the_two_returns():
    one = "        return ResolveResult(if (target is HumanPlayer) target.copy(seat = 1) else target, true)"
    assert _changes(SKILL, TWO, one) == []


def test_another_branch_or_another_argument_is_named():
    for one in ("        return ResolveResult(if (target is HumanPlayer) target else target.copy(seat = 1), true)",
                "        return ResolveResult(if (target is HumanPlayer) target.copy(seat = 1) else target, false)",
                "        return ResolveResult(if (target !is HumanPlayer) target.copy(seat = 1) else target, true)",
                "        return ResolveResult(if (target is HumanPlayer) target.copy(seat = 2) else target, true)"):
        assert _changes(SKILL, TWO, one) == CHANGED, one


# ------------------------------------------------------------------- a call of a one-call function, inlined
TALLY = """package demo.game.skill

class Tally(cards: Iterable<Card>) {
    var red = 0

    operator fun plusAssign(cards: Iterable<Card>) = BODY
    operator fun plusAssign(card: Card) = plusAssign(card.colors)
    operator fun plusAssign(colors: List<color>) = colors.forEach { if (it == Red) red++ }
}

fun MutableMap<Int, Player>.seat(player: Player) = put(player.location, player)
fun MutableMap<Int, Player>.seatAll(players: Iterable<Player>) = players.forEach { SEAT }

class Cure : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player, message: GeneratedMessage) {
        val m = HashMap<Int, Player>()
        m.seatAll(g.players)
        if (Tally(r.cards).red > m.size) r.draw(1)
    }
}
"""


def _tally(body: str = "cards.forEach { plusAssign(it.colors) }", seat: str = "seat(it)") -> bytes:
    return TALLY.replace("BODY", body).replace("SEAT", seat).encode()


def _named(a: bytes, b: bytes) -> list:
    a, b = (quiet_source(_P, x) for x in (a, b))
    return [c.where for c in compare({"skill/Cure.kt": a}, {"skill/Cure.kt": b}).changes]


def test_a_call_of_a_one_call_function_is_its_body():
    base = _tally(seat="put(it.location, it)")
    assert _named(base, _tally()) == []
    assert _named(base, _tally("cards.forEach { plusAssign(it) }")) == []     # the overload the element's type picks


def test_another_callee_or_argument_is_named():
    base = _tally(seat="put(it.location, it)")
    assert _named(base, _tally("cards.forEach { plusAssign(it) }").replace(b"(card.colors)",
                                                                           b"(card.colors.take(1))")) != []
    assert _named(base, _tally(seat="seat(players.first())")) != []


def test_a_call_that_may_mean_another_function_is_not_inlined():
    # under a lambda with a receiver, where a local shadows what the body reads, an overload picked by an unknown
    # type: left as written
    for call in ("with(it) { seat(it) }", "val put = 1; seat(it)"):
        assert b"seat(it)" in quiet_source(_P, _tally(seat=call))
    assert b"plusAssign(x)" in quiet_source(_P, _tally("cards.forEach { val x = it; plusAssign(x) }"))
    assert b"put(it.location, it)" in quiet_source(_P, _tally())


# --------------------------------------------------------------------------------- a takeIf / let chain
PLAYER = """package demo.game

class Player {
    val messageCards = ArrayList<Card>()

    fun deleteMessageCard(id: Int): Card? {
BODY
    }

    fun lose(id: Int) {
        if (deleteMessageCard(id) != null) alive = false
    }
}
"""
LOCAL = """        val index = messageCards.indexOfFirst { c -> c.id == id }
        return if (index >= 0) messageCards.removeAt(index) else null"""


def test_a_take_if_let_chain_is_its_local_and_if():
    one = "        return messageCards.indexOfFirst { c -> c.id == id }.takeIf { it >= 0 }?.let { messageCards.removeAt(it) }"
    assert _changes(PLAYER, LOCAL, one + "\n", "Player.kt") == []


def test_another_test_or_removal_is_named():
    for one in ("takeIf { it > 0 }?.let { messageCards.removeAt(it) }",
                "takeIf { it >= 0 }?.let { messageCards.removeAt(it + 1) }",
                "takeIf { it >= 0 }?.let { messageCards[it] }"):
        head = "        return messageCards.indexOfFirst { c -> c.id == id }." + one + "\n"
        assert _changes(PLAYER, LOCAL, head, "Player.kt") == [("Player.deleteMessageCard", "changed")], one


# ------------------------------------------------------------- bookkeeping handed to code outside the rules
GAME = """package demo.game

import demo.game.Ladder.rate

class Game {
    fun end(winners: List<Player>) {
        val humans = players.filterIsInstance<HumanPlayer>()
        val added = HashMap<String, Int>()
        for ((i, p) in humans.withIndex()) {
            val score = p.rate(winners, TENTH)
            val (newScore, delta) = Stats.update(p.name, score, i == 0)
            added[p.name] = delta
        }
        if (humans.size > PUSH)
            Pusher.push(this, winners, added)
        players.forEach { it.notifyWin(winners, added) }
        RULE
        players.forEach { it.reset() }
    }

    fun over() {
        end(players.filter { it.alive })
    }
}
"""
OUTSIDE = {"Stats.kt": b"package demo.game\n\nobject Stats {\n    fun update(n: String, s: Int, last: Boolean) = Pair(s, s)\n"
                       b"    fun score(n: String) = 0\n    fun later(f: () -> Unit) = f()\n}\n",
           "Pusher.kt": b"package demo.game\n\nobject Pusher {\n    fun push(g: Game, w: List<Player>, m: Map<String, Int>) {}\n}\n",
           "Ladder.kt": b"package demo.game\n\nobject Ladder {\n    fun Player.rate(w: List<Player>, d: Int) = d\n}\n"}


def _game(tenth: str = "delta / 10", push: str = "1", rule: str = "winners.forEach { it.draw(1) }") -> dict:
    return dict(OUTSIDE, **{"Game.kt": GAME.replace("TENTH", tenth).replace("PUSH", push).replace(
        "RULE", rule).encode()})


def _ended(a: dict, b: dict) -> list:
    return [c.where for c in compare(a, b).changes]


def test_bookkeeping_handed_outside_the_rules_is_no_rule():
    assert _ended(_game(), _game(tenth="delta / 8")) == []          # the ladder's score
    assert _ended(_game(), _game(push="2")) == []                   # the chat-bot's push


def test_a_rule_beside_it_or_fed_by_it_is_named():
    assert _ended(_game(), _game(rule="winners.forEach { it.draw(2) }")) == ["Game.end"]
    fed = "if (Stats.score(winners[0].name) > 100) winners[0].draw(1)"
    assert _ended(_game(rule=fed), _game(rule=fed.replace("100", "200"))) == ["Game.end"]
    handed = "Stats.later { winners[0].draw(1) }"                   # code handed to it to run
    assert _ended(_game(rule=handed), _game(rule=handed.replace("draw(1)", "draw(2)"))) == ["Game.end"]
    # the same names declared in a rule file are the rules' own
    inside = dict(_game(), **{"phase/Stats.kt": OUTSIDE["Stats.kt"].replace(b"package demo.game", b"package demo.game.phase")})
    inside.pop("Stats.kt")
    changed = dict(inside, **{"Game.kt": _game(tenth="delta / 8")["Game.kt"]})
    assert _ended(inside, changed) == ["Game.end"]


# ------------------------------------------------------- the gate compares the code its readers read
def test_the_extraction_keeps_each_file_as_its_readers_read_it(tmp_path):
    from skillproof.model.extract import extract
    from test_wins_read import CHECK, END_NOW, PASS, _server_with
    check = CHECK.replace("PASS", "changeGameResult").replace("END", END_NOW).replace(
        "        game.changeGameResult(", "        whoseTurn.cards.removeAll(whoseTurn.cards.toSet())\n"
                                        "        game.changeGameResult(", 1)
    root = _server_with(tmp_path, {"phase/CheckWin.kt": check,
                                   "skill/ResultPass.kt": PASS.replace("PASS", "changeGameResult")})
    read = extract(root, quiet=True).read_texts
    assert b"removeAll(whoseTurn.cards)\n" in read["phase/CheckWin.kt"]
    assert read["phase/CheckWin.kt"].count(b"\n") == check.count("\n")
    assert extract(root).read_texts == {}


# ------------------------------------------------------ a guard that a list holds what its copy changes
RESET = """package demo.game.skill

class Cure : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player, message: GeneratedMessage) {
        for (player in g.players) {
            val skills = player!!.skills
BODY
        }
        r.draw(1)
    }
}
"""
GUARDED = """            if (skills.any { it is InvalidSkill })
                player.skills = skills.map { if (it is InvalidSkill) it.originSkill else it }"""


def test_a_copy_that_changes_nothing_unless_the_guard_holds_needs_no_guard():
    assert _changes(RESET, GUARDED, "            player.skills = skills.map { if (it is InvalidSkill) it.originSkill "
                                    "else it }") == []
    dropped = """            if (skills.any { it is OneTurnSkill }) {
                player.skills = skills.filterNot { it is OneTurnSkill }
            }"""
    assert _changes(RESET, dropped, "            player.skills = skills.filterNot { it is OneTurnSkill }\n\n") == []


def test_a_guard_on_another_test_or_another_target_is_named():
    bare = "            player.skills = skills.map { if (it is InvalidSkill) it.originSkill else it }"
    for guarded in (GUARDED.replace("any { it is InvalidSkill }", "any { it is OneTurnSkill }"),
                    GUARDED.replace("map { if (it is InvalidSkill) it.originSkill else it }",
                                    "map { if (it is InvalidSkill) it.originSkill else it.copy() }")):
        assert _changes(RESET, guarded, bare) == CHANGED, guarded
    other = GUARDED.replace("player.skills =", "r.skills =")
    assert _changes(RESET, other, bare.replace("player.skills =", "r.skills =")) == CHANGED
