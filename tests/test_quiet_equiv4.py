"""Quiet edits of the held-out planted8 kinds (issue 24's quiet side, fourth part), one general normal form each — a
safe call against a value never null spelled as its explicit null test, a list compared with ``listOf(…)`` spelled as
its size and elements, a part of a junction its sibling's negation decides (``a || !a && b``), the index an
``indexOf`` gives tested as ``in indices`` (and ``getOrNull(i)?.also { removeAt(i) }``) — each with a real change of
the same place that must still be named. Small Kotlin snippets written for these tests (our own code, not the
server's)."""
from __future__ import annotations

from skillproof.model.extract.unread import compare


def _changes(src: str, before: str, after: str, rel: str = "Player.kt") -> list:
    a, b = src.replace("BODY", before), src.replace("BODY", after)
    return [(c.where, c.change) for c in compare({rel: a.encode()}, {rel: b.encode()}).changes]


# ------------------------------------------------------------------------------- a safe call against a non-null value
HANDLER = """package demo.game.skill

class Shout : ActiveSkill {
    override fun executeProtocol(g: Game, r: PARAM, message: GeneratedMessage) {
        val fsm = g.fsm as? FightPhaseIdle
        if (BODY) {
            logger.error("not now")
            return
        }
        r.draw(3)
    }
}
"""


def test_a_safe_call_against_a_parameter_never_null_is_its_null_test():
    src = HANDLER.replace("PARAM", "Player")
    base = "fsm == null || r !== fsm.whoseFightTurn"
    assert _changes(src, base, "r !== fsm?.whoseFightTurn", "skill/Shout.kt") == []
    assert _changes(src, base, "fsm?.whoseFightTurn !== r", "skill/Shout.kt") == []
    # `==` is the `&&` of the null test's negation
    assert _changes(src, "fsm != null && r === fsm.whoseFightTurn", "r === fsm?.whoseFightTurn", "skill/Shout.kt") == []
    # a real change of the same guard is named: the null test dropped, or turned round
    assert _changes(src, base, "fsm != null && r !== fsm.whoseFightTurn", "skill/Shout.kt") == [
        ("Shout.executeProtocol", "changed")]
    assert _changes(src, base, "r === fsm?.whoseFightTurn", "skill/Shout.kt") == [("Shout.executeProtocol", "changed")]


def test_a_safe_call_against_a_value_that_may_be_null_is_left_as_written():
    # with `r: Player?` a null r equals `fsm?.whoseFightTurn` when fsm is null: the spellings differ
    src = HANDLER.replace("PARAM", "Player?")
    assert _changes(src, "fsm == null || r !== fsm.whoseFightTurn", "r !== fsm?.whoseFightTurn", "skill/Shout.kt") == [
        ("Shout.executeProtocol", "changed")]


# ---------------------------------------------------------------------------------------- a list against listOf(…)
CARD = """package demo.game.card

abstract class Card {
    val colors = ArrayList<color>()
    val shades = listOf(Red, Black, Blue)
    fun isPure(): Boolean = BODY
    override fun canSend() = isPure()
}
"""


def test_a_list_compared_with_list_of_is_its_size_and_elements():
    base = "colors.size == 1 && colors.first() == Black"
    assert _changes(CARD, base, "colors == listOf(Black)", "card/Card.kt") == []
    assert _changes(CARD, "colors.size != 2 || colors[0] != Red || colors[1] != Black",
                    "colors != listOf(Red, Black)", "card/Card.kt") == []
    # another colour, another length: named
    assert _changes(CARD, base, "colors == listOf(Red)", "card/Card.kt") == [("Card.isPure", "changed")]
    assert _changes(CARD, base, "colors == listOf(Black, Black)", "card/Card.kt") == [("Card.isPure", "changed")]
    assert _changes(CARD, base, "Black in colors", "card/Card.kt") == [("Card.isPure", "changed")]


# ------------------------------------------------------------------------------ a junction its sibling decides
SEAT = """package demo.game

abstract class Seat {
    var side: color = Grey
    fun mate(other: Seat) = this !== other && side != Black && side == other.side
    fun mateOrSelf(other: Seat) = BODY
    override fun rival(other: Seat) = !mateOrSelf(other)
}
"""


def test_a_part_its_siblings_negation_decides_is_dropped():
    base = "this === other || side != Black && side == other.side"
    # the helper written out brings `this !== other` under `this === other ||`: it decides nothing
    assert _changes(SEAT, base, "this === other || mate(other)") == []
    assert _changes(SEAT, base, "this === other || this !== other && side != Black && side == other.side") == []
    # a real change of the same place is named
    assert _changes(SEAT, base, "this !== other || mate(other)") == [("Seat.mateOrSelf", "changed")]
    assert _changes(SEAT, base, "this === other && mate(other)") == [("Seat.mateOrSelf", "changed")]
    assert _changes(SEAT, base, "this === other || side == other.side") == [("Seat.mateOrSelf", "changed")]


# ------------------------------------------------------------------------------------------ the index indexOf gives
HAND = """package demo.game

abstract class Hand {
    val cards = ArrayList<Card>()
    fun take(id: Int): Card? {
        val index = cards.indexOfFirst { c -> c.id == id }
        BODY
    }
    override fun play(id: Int) = take(id)
}
"""


def test_an_index_of_tested_against_zero_is_in_indices():
    base = "return if (index >= 0) cards.removeAt(index) else null"
    for same in ("return cards.getOrNull(index)?.also { cards.removeAt(index) }",
                 "return if (index != -1) cards.removeAt(index) else null",
                 "return if (index < 0) null else cards.removeAt(index)",
                 "return if (-1 == index) null else cards.removeAt(index)"):
        assert _changes(HAND, base, same) == [], same
    # another index removed, another bound tested: named
    for real in ("return cards.getOrNull(index)?.also { cards.removeAt(0) }",
                 "return cards.getOrNull(index + 1)?.also { cards.removeAt(index + 1) }",
                 "return if (index > 0) cards.removeAt(index) else null",
                 "return cards.getOrNull(index)"):
        assert _changes(HAND, base, real) == [("Hand.take", "changed")], real


def test_an_index_tested_after_its_list_changed_is_left_as_written():
    # after `cards.clear()` an index found before is no longer one of the list's: `>= 0` and `in indices` differ
    base = "cards.clear()\n        return if (index >= 0) cards.removeAt(index) else null"
    assert _changes(HAND, base, "cards.clear()\n        return cards.getOrNull(index)?.also { cards.removeAt(index) }") \
        == [("Hand.take", "changed")]


# ------------------------------------------------------------------------------------ a hook nothing implements
SEND = """package demo.game.skill

interface CardHook : Skill {
    fun allows(card: Card): Boolean
}

IMPL

fun Player.canSend(card: Card, locks: List<Player>): String? {
    BODY
    if (locks.size > 1) return "too many"
    return null
}

class Sender : Skill {
    override fun check(p: Player, c: Card) = p.canSend(c, listOf())
}
"""
HOOK = """val hook = skills.lastOrNull { it is CardHook } as? CardHook
    if (hook != null && !hook.allows(card)) return "not this card\""""


def test_a_hook_nothing_implements_is_never_found():
    assert _changes(SEND.replace("IMPL", ""), HOOK, "", "skill/Send.kt") == []
    # once a skill implements it, dropping the hook is a change
    impl = "class Picky : CardHook {\n    override fun allows(card: Card) = card.isBlack()\n}"
    assert _changes(SEND.replace("IMPL", impl), HOOK, "", "skill/Send.kt") == [("canSend", "changed")]
    # and with no implementer, a change beside it is still named
    assert _changes(SEND.replace("IMPL", ""), HOOK, HOOK.replace("!hook", "hook"), "skill/Send.kt") == []
    assert _changes(SEND.replace("IMPL", ""), HOOK, HOOK + "\n    if (locks.isEmpty()) return \"none\"",
                    "skill/Send.kt") == [("canSend", "changed")]


def test_a_lambda_parameter_and_the_next_local_are_two_locals():
    # `{ it … }` then `val x`: two locals, numbered apart (a rewrite that merges them is a change)
    src = SEND.replace("IMPL", "")
    assert _changes(src, "val x = locks.count { it.alive }\n    if (x > 2) return \"x\"",
                    "val x = locks.count { y -> y.alive }\n    if (x > 2) return \"x\"", "skill/Send.kt") == []


# ---------------------------------------------------------------------------- a query by what it does, not its name
def _pure_reader(src: str):
    from skillproof.model.extract.effect_calls import _Calls
    from skillproof.model.extract.syntax import _descendants, _make_parser, _name_of, parse_kotlin

    root = parse_kotlin(_make_parser(), src.encode()).root_node
    fds = [(None, fd, _name_of(fd), None) for fd in _descendants(root, "function_declaration")]

    class Ex:
        def _functions(self):
            return fds

    class Reader(_Calls):
        ex = Ex()

    calls = {_name_of(fd): fd for _s, fd, _n, _o in fds}
    return Reader(), calls


def test_a_one_expression_helper_that_changes_nothing_is_a_query_whatever_its_name():
    reader, fns = _pure_reader("""
fun Card.sharesColourWith(c: Card) = colors.any { it in c.colors }
fun Card.takeColour(c: Card) = colors.removeAll { it in c.colors }
fun Card.loops(c: Card) = loops(c)
fun use(a: Card, b: Card) = a.sharesColourWith(b)
fun change(a: Card, b: Card) = a.takeColour(b)
fun again(a: Card, b: Card) = a.loops(b)
""")
    body = lambda name: fns[name].child_by_field_name("body") or fns[name].named_children[-1]
    assert reader._pure(body("use"))
    # a helper that changes something, or calls itself, is no query
    assert not reader._pure(body("change"))
    assert not reader._pure(body("again"))


# ------------------------------------------------------------------------------- the send check's hook, extracted
def _send_check(tmp_path, hook: str, impl: str = "") -> tuple:
    import shutil

    from skillproof.model.extract import extract
    from test_send_defaults import CHECK, MARK_LINE, SELF_LINE
    from gitrepo import SERVER

    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    src = CHECK.replace("LOCKS", "1").replace("MARK", MARK_LINE).replace("SELF", SELF_LINE)
    src = src.replace("interface SendMessageCanLockSkill", "interface CardHook : Skill {\n    fun allows(card: Card): "
                      "Boolean\n}\n" + impl + "\n\ninterface SendMessageCanLockSkill", 1)
    src = src.replace("    val checkCanLock =", hook + "\n    val checkCanLock =", 1)
    (d / "skill" / "Send.kt").write_text(src, encoding="utf-8")
    return extract(d).engine["send_check"].value


SEND_HOOK = """    val hook = skills.lastOrNull { it is CardHook } as? CardHook
    if (hook != null && !hook.allows(card)) return "not this card\""""


def test_the_send_check_skips_a_hook_nothing_implements(tmp_path):
    without = _send_check(tmp_path / "a", "")
    assert _send_check(tmp_path / "b", SEND_HOOK) == without
    # implemented by a skill: the hook's refusal is one of the check's clauses
    impl = "class Picky : CardHook {\n    override fun allows(card: Card) = false\n}"
    with_impl = _send_check(tmp_path / "c", SEND_HOOK, impl)
    assert with_impl != without and any("hook" in c for c in with_impl)


# ------------------------------------------------------------------- an event queued before a store into its object
def test_an_event_queued_before_a_store_into_the_object_it_holds_is_the_same_play():
    from test_quiet_equiv3 import _queue

    raise_ = "g.addEvent(SeenEvent(askWhom))"
    store = "askWhom.alive = false\n        askWhom.dieJustNow = true"
    assert _queue(f"{store}\n        {raise_}", f"{raise_}\n        {store}") == []
    # the event made from the member stored into: the value queued differs — named
    member = "g.addEvent(SeenEvent(askWhom.alive))"
    assert _queue(f"{store}\n        {member}", f"{member}\n        {store}") == [("Echo.execute", "changed")]
    # the local itself assigned: another object queued — named
    local = "var p = askWhom\n        "
    assert _queue(f"{local}p = event.whoseTurn\n        g.addEvent(SeenEvent(p))",
                  f"{local}g.addEvent(SeenEvent(p))\n        p = event.whoseTurn") == [("Echo.execute", "changed")]


# ------------------------------------------------------------------ an overload called on each element, written out
PILE = """package demo.game.card

class Deck(private val game: Game) {
    private val discardPile = ArrayList<Card>()
    fun discard(cards: List<Card>) {
        BODY
    }
    fun discard(card: Card) {
        ONE
    }
    override fun clean(cs: List<Card>) = discard(cs)
    override fun cleanOne(c: Card) = discard(c)
}
"""


def test_an_overload_called_on_each_element_is_written_out():
    pile = PILE.replace("ONE", "discardPile.add(card)")
    assert _changes(pile, "discardPile.addAll(cards)", "cards.forEach { discard(it) }", "card/Deck.kt") == []
    assert _changes(pile, "discardPile.addAll(cards)", "cards.forEach { discardPile.add(it) }", "card/Deck.kt") == []
    # the overload does something else with each card: named
    other = PILE.replace("ONE", "discardPile.remove(card)")
    assert _changes(other, "discardPile.addAll(cards)", "cards.forEach { discard(it) }", "card/Deck.kt") == [
        ("Deck.discard", "changed")]
    # each card but added somewhere else: named
    assert _changes(pile, "discardPile.addAll(cards)", "cards.forEach { game.deck.add(it) }", "card/Deck.kt") == [
        ("Deck.discard", "changed")]
