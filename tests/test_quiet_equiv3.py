"""Quiet edits of the held-out planted7 kinds (issue 24's quiet side, third part), one general cause each — a class's
member helper called by its bare name written out, a holder-alive test an initial skill's dispatch implies, a function
nothing calls, a no-rule member renamed or stored into — each with a real change next to it that must still be named.
Small Kotlin snippets and catalogue edits written for these tests (our own code, not the server's)."""
from __future__ import annotations

from pathlib import Path

from skillproof.model.extract.unread import compare

from test_normal_equiv import _changes

# ----------------------------------------------------------------------------- a member helper by its bare name
SEAT = """package demo.game

abstract class Seat {
    var side: color = Grey
    fun sameSide(other: Seat) = this === other || side != Grey && side == other.side
    fun rival(other: Seat) = BODY
    fun helper(other: Seat) = run { BODY }
    override fun both(other: Seat) = rival(other) && helper(other)
}
"""


def _seat(before: str, after: str, after2: str | None = None) -> list:
    a = SEAT.replace("BODY", before, 1).replace("BODY", after2 or before)
    b = SEAT.replace("BODY", after, 1).replace("BODY", after2 or before)
    return [(c.where, c.change) for c in compare({"Player.kt": a.encode()}, {"Player.kt": b.encode()}).changes]


def test_a_member_helper_called_by_its_bare_name_is_written_out():
    # De Morgan of the helper written out in place: the same value
    assert _seat("!sameSide(other)", "this !== other && (side == Grey || side != other.side)") == []
    # a real change of the written-out form is named
    assert _seat("!sameSide(other)", "this !== other && (side == Grey && side != other.side)") == [
        ("Seat.rival", "changed")]
    assert _seat("sameSide(other)", "this === other || side == other.side") == [("Seat.rival", "changed")]


def test_a_bare_call_inside_a_lambda_is_not_written_out():
    # inside `run { … }` (a receiver may stand in for `this`) the call is left as it is: the rewrite is a change
    a = SEAT.replace("BODY", "false", 1).replace("BODY", "!sameSide(other)")
    b = SEAT.replace("BODY", "false", 1).replace("BODY", "this !== other && (side == Grey || side != other.side)")
    assert [(c.where, c.change) for c in compare({"Player.kt": a.encode()}, {"Player.kt": b.encode()}).changes] == [
        ("Seat.helper", "changed")]


# --------------------------------------------------------------------------------- a function nothing calls
STACK = """package demo.game.card

class Pile {
    val cards = ArrayList<Card>()
    fun top() = cards.first()
    fun pushTwo(count: Int) {
        if (BODY) return
        cards.addAll(List(count) { Card() })
    }
    CALLER
}
"""


def _pile(before: str, after: str, caller: str = "") -> list:
    a = STACK.replace("BODY", before).replace("CALLER", caller)
    b = STACK.replace("BODY", after).replace("CALLER", caller)
    return [(c.where, c.change) for c in compare({"card/Pile.kt": a.encode()}, {"card/Pile.kt": b.encode()}).changes]


def test_a_function_nothing_calls_is_no_rule():
    assert _pile("count == 1", "count == 2") == []
    # called from anywhere in the code base: a rule like any other
    assert _pile("count == 1", "count == 2", "override fun deal() = pushTwo(2)") == [("Pile.pushTwo", "changed")]
    # a function reference names it too
    assert _pile("count == 1", "count == 2", "override val f = ::pushTwo") == [("Pile.pushTwo", "changed")]


def test_an_override_is_called_by_its_base():
    base = STACK.replace("fun pushTwo", "override fun pushTwo").replace("CALLER", "")
    a, b = base.replace("BODY", "count == 1"), base.replace("BODY", "count == 2")
    assert [(c.where, c.change) for c in compare({"card/Pile.kt": a.encode()}, {"card/Pile.kt": b.encode()}
                                                 ).changes] == [("Pile.pushTwo", "changed")]


# ----------------------------------------------------------------------- a no-rule member: stores and renames
GAME = """package demo.game

class Game {
    var turn = 0
    var FLAG = false
    override fun over() = turn > 3
}
"""
ENDER = """package demo.game.handler

class EndTurnTos {
    override fun handle0(r: Player, g: Game) {
        if (!g.FLAG && r.cards.isNotEmpty()) {
            g.FLAG = true
            r.sendErrorMessage("sure?")
            return
        }
        STORE
        g.resolve(Next(r))
    }
}
"""


def _game(flag_b: str, flag_h: str, store_b: str = "", store_h: str = "") -> list:
    base = {"Game.kt": GAME.replace("FLAG", flag_b).encode(),
            "handler/EndTurnTos.kt": ENDER.replace("FLAG", flag_b).replace("STORE", store_b).encode()}
    head = {"Game.kt": GAME.replace("FLAG", flag_h).encode(),
            "handler/EndTurnTos.kt": ENDER.replace("FLAG", flag_h).replace("STORE", store_h).encode()}
    return [(c.where, c.change) for c in compare(base, head).changes]


def test_a_store_into_a_no_rule_member_is_dropped_and_its_rename_too():
    # the reminder flag of the client's notices: storing it is no rule
    assert _game("reminderNotify", "reminderNotify", "g.reminderNotify = false", "") == []
    # renamed throughout the code base: still no rule (declaration and every store)
    assert _game("reminderNotify", "reminderShown") == []
    assert _game("reminderNotify", "reminderShown", "g.reminderNotify = false", "g.reminderShown = false") == []
    # a rule's statement dropped is named, beside the store and beside the rename
    assert _game("reminderNotify", "reminderNotify", "g.reminderNotify = false\n        r.draw(1)",
                 "g.reminderNotify = false") == [("EndTurnTos.handle0", "changed")]
    assert _game("reminderNotify", "reminderShown", "r.draw(1)", "") == [("EndTurnTos.handle0", "changed")]


# ------------------------------------------------------------------- an initial skill's holder is alive
from skillproof.checks.diff_rules import rule_changes  # noqa: E402
from skillproof.checks.diff_untold import untold  # noqa: E402
from skillproof.model import loader  # noqa: E402

SHIPPED = Path(loader.__file__).parent / "catalogue"
HUAN_RI = 'on = { event = "card_resolved", whose = "user", when = "alive and card in {Diao_Bao, Po_Yi} and face_up" }'
KINDS = 'kinds = ["TriggeredSkill"]\ninitial = true\ntrigger = "自己（存活且面朝上）使用的调包或破译'


def _with(on: str, kinds: str = KINDS):
    texts = {}
    for p in sorted(SHIPPED.rglob("*.toml")):
        t = p.read_text(encoding="utf-8")
        if p.name == "zheng_wen_xian.toml":
            assert HUAN_RI in t and KINDS in t
            t = t.replace(HUAN_RI, on, 1).replace(KINDS, kinds, 1)
        texts[str(p.relative_to(SHIPPED))] = t
    return loader.load(texts=texts)


def test_an_initial_skill_is_asked_only_while_its_holder_lives():
    old = _with(HUAN_RI)
    new = _with(HUAN_RI.replace("alive and ", ""))
    assert rule_changes(old, new) == []
    assert untold(old, new, set(), set()) == []
    # another test dropped: a change
    real = _with(HUAN_RI.replace(" and face_up", ""))
    assert [(c.id, c.key) for c in rule_changes(old, real)] == [("HuanRi", "on")]
    # a BeforeDieSkill is asked while its holder is dead: there the test is a rule
    die = KINDS.replace('["TriggeredSkill"]', '["TriggeredSkill", "BeforeDieSkill"]')
    old_d, new_d = _with(HUAN_RI, die), _with(HUAN_RI.replace("alive and ", ""), die)
    assert [(c.id, c.key) for c in rule_changes(old_d, new_d)] == [("HuanRi", "on")]
    assert [(u.id, u.key) for u in untold(old_d, new_d, set(), set())] == [("HuanRi", "on")]


# ------------------------------------------------------------------------------- an event queued, moved
QUEUE = """package demo.game

class Game {
    private var pending = ArrayList<Event>()
    var turn: Player? = null
    fun addEvent(event: Event) = pending.add(event)
    fun dealListeners(): ResolveResult? {
        if (pending.isEmpty()) return null
        return pending.removeFirst().answer()
    }
    fun resolve(fsm: Fsm) = dealListeners()
    fun rotate() { turn = turn?.next }
}
"""
HAND = """package demo.game

class Player {
    val cards = ArrayList<Card>()
    var game: Game? = null
    fun draw(n: Int) {
        cards.addAll(game!!.deck.take(n))
    }
    fun pass(g: Game) = g.resolve(Idle(this))
}
"""
USER = """package demo.game.skill

class Echo : TriggeredSkill {
    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        val event = g.findEvent<GotEvent>(this) ?: return null
        BODY
        return null
    }
}
"""


def _queue(before: str, after: str) -> list:
    files = {"Game.kt": QUEUE.encode(), "Player.kt": HAND.encode()}
    base = {**files, "skill/Echo.kt": USER.replace("BODY", before).encode()}
    head = {**files, "skill/Echo.kt": USER.replace("BODY", after).encode()}
    return [(c.where, c.change) for c in compare(base, head).changes]


def test_an_event_queued_before_or_after_a_draw_is_the_same_play():
    raise_ = "g.addEvent(SeenEvent(event.whoseTurn))"
    assert _queue(f"askWhom.draw(1)\n        {raise_}", f"{raise_}\n        askWhom.draw(1)") == []
    # the event's own player changed: named
    assert _queue(f"askWhom.draw(1)\n        {raise_}",
                  "g.addEvent(SeenEvent(askWhom))\n        askWhom.draw(1)") == [("Echo.execute", "changed")]
    # past a call that deals the listeners (the queue is read there): the order is a rule
    assert _queue(f"askWhom.pass(g)\n        {raise_}", f"{raise_}\n        askWhom.pass(g)") == [
        ("Echo.execute", "changed")]
    # past a call that stores into a name the event reads (`turn`): the value queued may differ
    turn = "g.addEvent(SeenEvent(g.turn))"
    assert _queue(f"g.rotate()\n        {turn}", f"{turn}\n        g.rotate()") == [("Echo.execute", "changed")]
    # two events keep their order
    two = "g.addEvent(LostEvent(askWhom))"
    assert _queue(f"{two}\n        {raise_}", f"{raise_}\n        {two}") == [("Echo.execute", "changed")]


def test_a_raise_beside_a_card_movement_under_one_condition_is_one_effect():
    from skillproof.checks.diff_untold import events_last
    from skillproof.model.catalogue import DoOp, Loc
    loc = Loc("x.toml", 1)
    draw, raise_ = DoOp("draw", {"n": 1}, None, loc), DoOp("raise", {"event": "add_message"}, None, loc)
    kill = DoOp("kill", {}, None, loc)
    assert events_last((raise_, draw)) == (draw, raise_) == events_last((draw, raise_))
    assert events_last((raise_, kill)) == (raise_, kill)          # a death is dealt at once: not moved
    from skillproof.model import expr as E
    cond = DoOp("draw", {"n": 1}, E.parse("alive"), loc)
    assert events_last((raise_, cond)) == (raise_, cond)          # under another condition: not moved


# ---------------------------------------------------------- an initial trigger's holder-alive test in its code
TRIGGER = """package demo.game.skill

class Dawn : TriggeredSkill KINDS {
    override val skillId = SkillId.DAWN
    INITIAL
    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        g.findEvent<UseEvent>(this) { event ->
            askWhom === event.player || return@findEvent false
            BODY
            event.card.isBlack()
        } ?: return null
        askWhom.draw(1)
        return null
    }
}
"""


def _trigger(before: str, after: str, kinds: str = "", initial: str = "override val isInitialSkill = true") -> list:
    src = TRIGGER.replace("KINDS", kinds).replace("INITIAL", initial)
    return [(c.where, c.change) for c in compare({"skill/Dawn.kt": src.replace("BODY", before).encode()},
                                                 {"skill/Dawn.kt": src.replace("BODY", after).encode()}).changes]


def test_an_initial_triggers_holder_alive_test_is_implied_by_the_dispatch():
    assert _trigger("askWhom.alive || return@findEvent false", "") == []
    assert _trigger("if (!askWhom.alive) return@findEvent false", "") == []
    # another player's life is a rule (the event's player is the holder: the guard above says so)
    assert _trigger("event.target.alive || return@findEvent false", "") == [("Dawn.execute", "changed")]
    # a BeforeDieSkill is asked while its holder is dead; a granted skill (not initial) too
    assert _trigger("askWhom.alive || return@findEvent false", "", kinds=", BeforeDieSkill") == [
        ("Dawn.execute", "changed")]
    assert _trigger("askWhom.alive || return@findEvent false", "", initial="") == [("Dawn.execute", "changed")]


# ------------------------------------------------------------------ equal spellings of a test or a value
#: (before, an equivalent after, a real change of the same code)
SPELLINGS = {
    "an empty test and a size of 0": (
        "if (askWhom.cards.size == 0) return null\n        askWhom.draw(1)",
        "if (askWhom.cards.isEmpty()) return null\n        askWhom.draw(1)",
        "if (askWhom.cards.isNotEmpty()) return null\n        askWhom.draw(1)"),
    "a negated empty test and a non-empty one": (
        "if (!askWhom.cards.isEmpty()) askWhom.draw(1)",
        "if (askWhom.cards.size > 0) askWhom.draw(1)",
        "if (askWhom.cards.size > 1) askWhom.draw(1)"),
    "a comparison either way round": (
        "if (askWhom.cards.size > g.n) askWhom.draw(1)",
        "if (g.n < askWhom.cards.size) askWhom.draw(1)",
        "if (g.n > askWhom.cards.size) askWhom.draw(1)"),
    "a count of a test above 0 and any": (
        "if (askWhom.cards.count { it.isBlack() } > 0) askWhom.draw(1)",
        "if (askWhom.cards.any { it.isBlack() }) askWhom.draw(1)",
        "if (askWhom.cards.count { it.isBlack() } > 1) askWhom.draw(1)"),
    "a filtered list's size and a count": (
        "askWhom.draw(askWhom.cards.filter { it.isBlack() }.size)",
        "askWhom.draw(askWhom.cards.count { it.isBlack() })",
        "askWhom.draw(askWhom.cards.filterNot { it.isBlack() }.size)"),
    "a filtered list empty and none": (
        "if (askWhom.cards.filter { it.isBlack() }.isEmpty()) askWhom.draw(1)",
        "if (askWhom.cards.none { it.isBlack() }) askWhom.draw(1)",
        "if (askWhom.cards.all { it.isBlack() }) askWhom.draw(1)"),
    "a flag compared with true and the flag": (
        "if (g.flag == true) askWhom.draw(1)",
        "if (g.flag) askWhom.draw(1)",
        "if (g.flag == false) askWhom.draw(1)"),
    "two nested ifs and one of both tests": (
        "if (g.x) {\n            if (askWhom.alive) askWhom.draw(1)\n        }",
        "if (g.x && askWhom.alive) askWhom.draw(1)",
        "if (g.x || askWhom.alive) askWhom.draw(1)"),
    "tests that read only, in another order": (
        "if (g.x && askWhom.alive) askWhom.draw(1)",
        "if (askWhom.alive && g.x) askWhom.draw(1)",
        "if (askWhom.alive && !g.x) askWhom.draw(1)"),
    "the first, the last and indices": (
        "g.discard(askWhom.cards[0])\n        g.discard(askWhom.cards[askWhom.cards.lastIndex])",
        "g.discard(askWhom.cards.first())\n        g.discard(askWhom.cards.last())",
        "g.discard(askWhom.cards.last())\n        g.discard(askWhom.cards.first())"),
    "find and firstOrNull": (
        "val c = askWhom.cards.firstOrNull { it.isBlack() } ?: return null\n        g.discard(c)",
        "val c = askWhom.cards.find { it.isBlack() } ?: return null\n        g.discard(c)",
        "val c = askWhom.cards.findLast { it.isBlack() } ?: return null\n        g.discard(c)"),
    "a bound and minOf": (
        "askWhom.draw(minOf(g.n, 3))",
        "askWhom.draw(g.n.coerceAtMost(3))",
        "askWhom.draw(maxOf(3, g.n))"),
    "null or empty": (
        "if (g.list == null || g.list.isEmpty()) return null\n        askWhom.draw(1)",
        "if (g.list.isNullOrEmpty()) return null\n        askWhom.draw(1)",
        "if (g.list.isEmpty()) return null\n        askWhom.draw(1)"),
}


import pytest  # noqa: E402


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_equal_spellings_are_quiet_and_a_real_change_is_named(name):
    before, same, real = SPELLINGS[name]
    assert _changes(before, same) == [], name
    assert _changes(before, real) == [("Watch.execute", "changed")], name


def test_tests_that_call_keep_their_order_and_nested_ifs_with_an_else_stay():
    # a call in a test may change what the other reads: its order is kept
    assert _changes("if (g.take() && askWhom.alive) askWhom.draw(1)",
                    "if (askWhom.alive && g.take()) askWhom.draw(1)") == [("Watch.execute", "changed")]
    # the outer if has an else: not one test of both
    assert _changes("if (g.x) {\n            if (g.y) askWhom.draw(1)\n        } else askWhom.draw(2)",
                    "if (g.x && g.y) askWhom.draw(1) else askWhom.draw(2)") == [("Watch.execute", "changed")]


# ------------------------------------------------------------- a constant or a helper extracted, in the file
WATCH = """package demo.game.skill

class Watch : TriggeredSkill {
    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        BODY
        return null
    }
    EXTRA
}
"""


def _watch(before: str, after: str, extra_b: str = "", extra_h: str = "") -> list:
    a = WATCH.replace("BODY", before).replace("EXTRA", extra_b)
    b = WATCH.replace("BODY", after).replace("EXTRA", extra_h)
    return [(c.where, c.change) for c in compare({"skill/Watch.kt": a.encode()}, {"skill/Watch.kt": b.encode()}).changes]


def test_a_number_named_by_a_constant_is_the_number():
    for decl in ("private val LIMIT = 2", "companion object {\n        const val LIMIT = 2\n    }",
                 "private const val LIMIT: Int = 2"):
        assert _watch("askWhom.draw(2)", "askWhom.draw(LIMIT)", "", decl) == [], decl
        assert _watch("askWhom.draw(3)", "askWhom.draw(LIMIT)", "", decl) == [("Watch.execute", "changed")], decl
    # a value that is assigned somewhere is no constant
    var = "private var LIMIT = 2\n    fun reset() { LIMIT = 3 }"
    assert _watch("askWhom.draw(2)", "askWhom.draw(LIMIT)", "", var) != []
    # the constant changed: named
    assert _watch("askWhom.draw(LIMIT)", "askWhom.draw(LIMIT)", "private val LIMIT = 2", "private val LIMIT = 1") != []


def test_a_helper_that_returns_its_one_expression_is_written_out():
    helper = "private fun many(p: Player): Boolean {\n        return p.cards.size > 2\n    }"
    assert _watch("if (askWhom.cards.size > 2) askWhom.draw(1)", "if (many(askWhom)) askWhom.draw(1)", "", helper) == []
    assert _watch("if (askWhom.cards.size > 1) askWhom.draw(1)", "if (many(askWhom)) askWhom.draw(1)", "",
                  helper) == [("Watch.execute", "changed")]


def test_a_test_an_earlier_guard_settles_is_left_out():
    # the holder is alive past its guard: the test again is true
    assert _changes("askWhom.alive || return null\n        if (askWhom.alive && g.x) askWhom.draw(1)",
                    "askWhom.alive || return null\n        if (g.x) askWhom.draw(1)") == []
    # a value the elvis guard made non-null: its null test always passes
    assert _changes("val c = g.card ?: return null\n        if (c != null) askWhom.cards.add(c)",
                    "val c = g.card ?: return null\n        askWhom.cards.add(c)") == []
    # something that may change the test in between: kept
    assert _changes("askWhom.alive || return null\n        g.kill(askWhom)\n        if (askWhom.alive && g.x) askWhom.draw(1)",
                    "askWhom.alive || return null\n        g.kill(askWhom)\n        if (g.x) askWhom.draw(1)") == [
        ("Watch.execute", "changed")]
    # another test dropped: named
    assert _changes("askWhom.alive || return null\n        if (askWhom.roleFaceUp && g.x) askWhom.draw(1)",
                    "askWhom.alive || return null\n        if (g.x) askWhom.draw(1)") == [("Watch.execute", "changed")]


def test_an_else_after_a_branch_that_leaves_is_the_code_after_it():
    assert _changes("if (g.x) {\n            return null\n        } else {\n            askWhom.draw(1)\n        }",
                    "if (g.x) return null\n        askWhom.draw(1)") == []
    assert _changes("if (g.x) {\n            askWhom.draw(1)\n        } else {\n            return null\n        }",
                    "if (!g.x) return null\n        askWhom.draw(1)") == []
    assert _changes("if (g.x) {\n            return null\n        } else {\n            askWhom.draw(1)\n        }",
                    "if (!g.x) return null\n        askWhom.draw(1)") == [("Watch.execute", "changed")]
