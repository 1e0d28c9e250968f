"""Readers of the set-up, the send check and the engine's naming (issue 24, send rules / set-up / win side), and the
normal-form equivalences added with them. Small Kotlin snippets written for these tests (no server code)."""
from __future__ import annotations

from types import SimpleNamespace

from skillproof.kotlin_diff import named_by_change
from skillproof.checks.diff_untold import text as untold_text
from skillproof.model import expr as E
from skillproof.model.extract.unread import compare

from test_normal_equiv import BASE, _changes, _src
from test_extract_deck import _tree
from skillproof.model.extract import extract


def test_a_negated_call_the_grammar_hoisted_reads_like_its_unnegated_form():
    before = "if (!g.card.colors.contains(Black)) return null\n        askWhom.draw(1)"
    same = "if (Black !in g.card.colors) return null\n        askWhom.draw(1)"
    real = "if (Black in g.card.colors) return null\n        askWhom.draw(1)"
    assert _changes(before, same) == []
    assert _changes(before, real) == [("Watch.execute", "changed")]


def test_a_function_that_only_tells_the_clients_is_no_step_whatever_its_name():
    tell = "\n    private fun NAME(p: Player) {\n        p.game.players.send { toc(p) }\n    }\n}\n"
    base_a = BASE.rstrip().rstrip("}") + tell.replace("NAME", "notifyDraw")
    base_b = BASE.rstrip().rstrip("}") + tell.replace("NAME", "shareDraw")
    rel = "skill/Watch.kt"
    a = _src("notifyDraw(askWhom)\n        askWhom.draw(1)", base_a)
    b = _src("shareDraw(askWhom)\n        askWhom.draw(1)", base_b)
    real = _src("shareDraw(askWhom)\n        askWhom.draw(2)", base_b)
    assert [c.where for c in compare({rel: a.encode()}, {rel: b.encode()}).changes] == []
    assert "Watch.execute" in [c.where for c in compare({rel: a.encode()}, {rel: real.encode()}).changes]


def test_if_not_then_else_is_one_value_of_the_catalogue():
    a = E.parse("if not (count > 2) then count else count + 1")
    b = E.parse("if count > 2 then count + 1 else count")
    c = E.parse("if count > 2 then count else count + 1")
    assert untold_text(a) == untold_text(b) != untold_text(c)


SETUP_IDS = """package demo.game.phase

import demo.game.*

class Deal(val game: Game) {
    fun start(players: List<Player>) {
        val identities = ArrayList<color>()
        when (players.size) {
            2 -> Random.nextInt(4).let { identities.add(color.forNumber(it)) }
            3, 4 -> {
                identities.add(Red)
                identities.add(Blue)
                identities.add(Black)
            }
            in 5..6 -> {
                var i = 0
                while (i < (players.size - 1) / 2) {
                    identities.add(Red)
                    identities.add(Blue)
                    i++
                }
                identities.add(Black)
            }
            else -> {
                identities.add(Red)
                repeat(players.size - identities.size) { identities.add(Black) }
            }
        }
        identities.shuffle()
        val tasks = arrayListOf(Killer, Stealer, Sweeper)
        val told = when (players.size) {
            2, 3 -> 2
            else -> players.size - 2
        }
        game.possible = tasks.take(told.coerceAtMost(tasks.size)).shuffled()
        for (i in players.indices) players[i].secretTask = tasks[i]
        for (i in players.indices) players[i].identity = identities[i]
    }
}
"""


def test_the_identities_dealt_and_the_tasks_told_are_read_for_each_table_size(tmp_path):
    src = _tree(tmp_path)
    (src / "phase" / "Setup.kt").write_text(SETUP_IDS, encoding="utf-8")
    ex = extract(src)
    ids = ex.engine["setup.identities"].value
    assert ids[0] == "2: not read"                                        # a random draw is said so, not guessed
    assert "3-4: Black×1, Blue×1, Red×1" in ids and "5-6: Black×1, Blue×2, Red×2" in ids
    assert "7: Black×6, Red×1" in ids
    told = ex.engine["setup.tasks_told"].value
    assert told == ("2-4: 2 of 3", "5-7: 3 of 3")
    (src / "phase" / "Setup.kt").write_text(SETUP_IDS.replace("2, 3 -> 2", "2, 3 -> 3"), encoding="utf-8")
    assert extract(src).engine["setup.tasks_told"].value != told
    (src / "phase" / "Setup.kt").write_text(SETUP_IDS.replace("identities.add(Black)\n            }\n            in",
                                                             "identities.add(Red)\n            }\n            in"),
                                           encoding="utf-8")
    assert extract(src).engine["setup.identities"].value != ids


def test_an_engine_change_names_the_rules_its_changed_clauses_are_about():
    hex_ = SimpleNamespace(skill_keys={"COLD_DRILL": "ColdDrill"}, locations={},
                           engine={"result.skill.Epilogue": 1, "result.skill.TwinWings": 1, "win.skill.Moon": 1})
    lose = SimpleNamespace(name="lose", base=("Start.resolve: lose = true if cards.isEmpty() and findSkill(COLD_DRILL) "
                                              "== null",), head=("Start.resolve: lose = true if cards.isEmpty()",))
    assert named_by_change(lose, hex_) == ["ColdDrill"]
    killer = SimpleNamespace(name="win.killer", base=("result pass if killer != null", "end"), head=("end",))
    assert named_by_change(killer, hex_) == ["Epilogue", "TwinWings"]
    same = SimpleNamespace(name="win.killer", base=("end if a",), head=("end if b",))
    assert named_by_change(same, hex_) == []
    start = SimpleNamespace(name="win_pass.start", base="whoseTurn", head="0")
    assert named_by_change(start, hex_) == ["Moon"]
    hex_.locations = {"CannotPlay": "skill/CannotPlay.kt:3", "Wu_Dao": "card/WuDao.kt:9"}
    send = SimpleNamespace(name="send_check", base=("refuse if !target.alive",),
                           head=("refuse if !target.alive and skills.any { it is CannotPlay } and Player.x",
                                 "refuse if card.type == Wu_Dao"))
    assert named_by_change(send, hex_) == ["CannotPlay", "Wu_Dao"]     # the clauses sorted; Player is no rule


ASK = """package demo.game.phase

import demo.game.*

data class AskNext(val whoseTurn: Player, val from: Player, val until: Player) : Fsm

class StartAsk(val whoseTurn: Player, val dying: Player, val then: (Boolean) -> Fsm) : Fsm {
    fun resolve(valid: Boolean): Fsm {
        if (!valid) return then(VALID)
        whoseTurn.asked = true
        return AskNext(whoseTurn, FROM, dying)
    }
}
"""


def test_the_states_an_engine_step_goes_on_to_are_read_with_their_arguments(tmp_path):
    src = _tree(tmp_path)
    (src / "phase" / "Ask.kt").write_text(ASK.replace("VALID", "valid").replace("FROM", "dying"), encoding="utf-8")
    flow = extract(src).engine["flow.StartAsk.resolve"]
    assert flow.value == ("then(valid)", "AskNext(whoseTurn,dying,dying)", "whoseTurn.asked = true") and flow.one
    for a, b in (("valid", "true"), ("dying", "whoseTurn"), ("asked = true", "asked = false")):
        text = ASK.replace("VALID", "valid").replace("FROM", "dying")
        text = text.replace(f"then({a})", f"then({b})") if a == "valid" else text.replace(a, b) if "asked" in a \
            else text.replace("dying, dying", f"{b}, dying")
        (src / "phase" / "Ask.kt").write_text(text, encoding="utf-8")
        assert extract(src).engine["flow.StartAsk.resolve"].value != flow.value


def test_an_engine_change_names_the_rules_that_set_a_flag_its_changed_clause_reads():
    """Moving ``if (keepOutOfPile) discard(card)`` before the event is raised is about the rules setting that flag
    (planted6's used card discarded before 就计 can keep it): a skill's or card's file writing it names the rule
    declared nearest above the write (here the grant Keep2 of Keep.kt); a common field is named by no one."""
    src = {"skill/Keep.kt": b"class Keep {\n}\nclass Keep2 {\n  fun f() {\n    event.keepOutOfPile = false\n  }\n}\n",
           "card/Lend.kt": b"class Lend {\n  val x = copy(keepOutOfPile = false)\n}\n",
           "skill/Other.kt": b"class Other {\n  val keepOutOfPile2 = 1\n  if (keepOutOfPile == x) {}\n}\n",
           "phase/Finish.kt": b"var keepOutOfPile = true\n"}
    src.update({f"skill/S{i}.kt": b"class S%d {\n  whoseFightTurn = a\n}\n" % i for i in range(8)})
    locs = {"Keep": "skill/Keep.kt:1", "Keep2": "skill/Keep.kt:3", "Lend": "card/Lend.kt:1", "Other": "skill/Other.kt:1",
            **{f"S{i}": f"skill/S{i}.kt:1" for i in range(8)}}
    hex_ = SimpleNamespace(skill_keys={}, locations=locs, engine={}, sources=src)
    moved = SimpleNamespace(name="state.Finish.onSwitch", base=("raise(FinishEvent(this))",),
                            head=("deck.discard(card) if keepOutOfPile and card != null", "raise(FinishEvent(this))"))
    assert named_by_change(moved, hex_) == ["Lend", "Keep2"]
    common = SimpleNamespace(name="state.Fight.resolve", base=("a if whoseFightTurn.alive",), head=("a",))
    assert named_by_change(common, hex_) == []
