"""Meaning-preserving rewrites the gate must pass, and next to each a real change of the same shape it must still name
(issue 24's quiet side, h-gx6): Kotlin idioms in one form (``model/extract/normal_idioms.py``: a type filter and the
query over it, ``repeat`` / a counted ``while`` / ``for`` over a range), appends to different collections of winners
in either order (``model/extract/commute.py``). Small Kotlin snippets written for these tests."""
from __future__ import annotations

import pytest

from skillproof.model.extract.commute import commute_appends

from test_normal_equiv import _changes
from test_wins_read import CHECK, _win

#: (before, an equivalent after, a real change of the same code)
CASES = {
    "a type filter and any": (
        "if (askWhom.skills.any { it is Guard && it.blocks(g) }) return null\n        askWhom.draw(1)",
        "if (askWhom.skills.filterIsInstance<Guard>().any { it.blocks(g) }) return null\n        askWhom.draw(1)",
        "if (askWhom.skills.filterIsInstance<Guard>().all { it.blocks(g) }) return null\n        askWhom.draw(1)"),
    "a filter on a type test, cast after": (
        "if (askWhom.skills.filterIsInstance<Guard>().any { it.blocks(g) }) return null\n        askWhom.draw(1)",
        "if (askWhom.skills.filter { it is Guard }.map { it as Guard }.any { s -> s.blocks(g) }) return null\n"
        "        askWhom.draw(1)",
        "if (askWhom.skills.filter { it is Guard }.map { it as Guard }.none { s -> s.blocks(g) }) return null\n"
        "        askWhom.draw(1)"),
    "a type filter mapped with a safe cast": (
        "val n = askWhom.skills.filterIsInstance<Guard>().count()\n        askWhom.draw(n)",
        "val n = askWhom.skills.mapNotNull { it as? Guard }.count()\n        askWhom.draw(n)",
        "val n = askWhom.skills.mapNotNull { it as? Guard }.size + 1\n        askWhom.draw(n)"),
    "a type filter and all": (
        "if (askWhom.skills.all { it !is Guard || it.blocks(g) }) return null\n        askWhom.draw(1)",
        "if (askWhom.skills.filterIsInstance<Guard>().all { it.blocks(g) }) return null\n        askWhom.draw(1)",
        "if (askWhom.skills.filterIsInstance<Guard>().none { it.blocks(g) }) return null\n        askWhom.draw(1)"),
    "a type filter not empty": (
        "if (askWhom.skills.any { it is Guard }) return null\n        askWhom.draw(1)",
        "if (askWhom.skills.filterIsInstance<Guard>().isNotEmpty()) return null\n        askWhom.draw(1)",
        "if (askWhom.skills.filterIsInstance<Guard>().isEmpty()) return null\n        askWhom.draw(1)"),
    "a counted while loop and repeat": (
        "var i = 0\n        while (i < (g.players.size - 1) / 2) {\n            ids.add(Red)\n            ids.add(Blue)\n"
        "            i++\n        }\n        ids.add(Black)",
        "repeat((g.players.size - 1) / 2) {\n            ids.add(Red)\n            ids.add(Blue)\n        }\n"
        "        ids.add(Black)",
        "repeat(g.players.size / 2) {\n            ids.add(Red)\n            ids.add(Blue)\n        }\n"
        "        ids.add(Black)"),
    "repeat and a for loop over a range": (
        "repeat(g.count) {\n            askWhom.draw(1)\n        }",
        "for (i in 0 until g.count) {\n            askWhom.draw(1)\n        }",
        "for (i in 1 until g.count) {\n            askWhom.draw(1)\n        }"),
    "a counted while loop stepping by one": (
        "var k = 0\n        while (k < n) {\n            askWhom.draw(1)\n            k += 1\n        }",
        "repeat(n) { askWhom.draw(1) }",
        "var k = 0\n        while (k < n) {\n            askWhom.draw(1)\n            k += 2\n        }"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_equal_code_is_quiet_and_a_real_change_is_named(name):
    before, same, real = CASES[name]
    assert _changes(before, same) == [], name
    assert _changes(before, real) == [("Watch.execute", "changed")], name


def test_a_counted_loop_whose_body_changes_its_bound_is_not_repeat():
    # the body adds to the list the bound counts: `while` reads the bound each round, `repeat` once
    before = "var i = 0\n        while (i < ids.size) {\n            ids.add(Red)\n            i++\n        }"
    after = "repeat(ids.size) {\n            ids.add(Red)\n        }"
    assert _changes(before, after) == [("Watch.execute", "changed")]
    # a counter read in the body (or after the loop) is no plain repeat either
    before = "var i = 0\n        while (i < n) {\n            askWhom.draw(i)\n            i++\n        }"
    after = "repeat(n) { askWhom.draw(1) }"
    assert _changes(before, after) == [("Watch.execute", "changed")]


def test_a_type_filter_on_another_type_is_a_change():
    other = "\n        if (g.skills.any { it is Shield || it is Guard }) return null"
    before = "if (askWhom.skills.any { it is Guard && it.blocks(g) }) return null\n        askWhom.draw(1)"
    after = "if (askWhom.skills.filterIsInstance<Shield>().any { it.blocks(g) }) return null\n        askWhom.draw(1)"
    assert _changes(before + other, after + other) == [("Watch.execute", "changed")]
    # a filter on more than a type test is no type filter
    after = "if (askWhom.skills.filter { it is Guard && it.alive }.any { it.blocks(g) }) return null\n" \
            "        askWhom.draw(1)"
    assert _changes(before, after) == [("Watch.execute", "changed")]


# ------------------------------------------------------------------------------------------- appends commute
def test_appends_to_two_collections_in_either_order_are_one_rule(tmp_path):
    pair = "                declareWinner.add(player)\n                winner.add(player)\n"
    swapped = CHECK.replace(pair, "                winner.add(player)\n                declareWinner.add(player)\n")
    assert swapped != CHECK
    assert _win(tmp_path / "a") == _win(tmp_path / "b", check=swapped)
    # the same shape, a real change: an append that reads the other collection, before or after the other append
    reads = "                if (winner.isEmpty()) declareWinner.add(player)\n                winner.add(player)\n"
    reads_swapped = "                winner.add(player)\n                if (winner.isEmpty()) declareWinner.add(player)\n"
    assert _win(tmp_path / "c", check=CHECK.replace(pair, reads)) != \
        _win(tmp_path / "d", check=CHECK.replace(pair, reads_swapped))


def test_appends_keep_their_order_past_what_reads_the_collections():
    a = ["win += a if x", "declare += a if x", "declare := list(s) if declaredWinner.isNotEmpty()", "win += b"]
    assert commute_appends(a) == ["declare += a if x", "win += a if x", a[2], "win += b"]
    # one collection: its appends and removals keep their order
    b = ["win += a", "win -= a", "win += b"]
    assert commute_appends(b) == b
    assert commute_appends(["win -= a", "win += a"]) != commute_appends(["win += a", "win -= a"])
    # an append whose condition reads the other collection does not move
    c = ["win += a if declaredWinner.isEmpty()", "declare += a"]
    assert commute_appends(c) == c


# ------------------------------------------------------------------------------ guards compared for meaning
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

from skillproof.checks.diff_meaning import same_condition  # noqa: E402
from skillproof.checks.diff_rules import rule_changes  # noqa: E402
from skillproof.model import loader  # noqa: E402

SHIPPED = Path(loader.__file__).parent / "catalogue"
RU_GUI = 'on = { event = "die", whose = "self", when = "self != turn_player and turn_player.alive and ' \
         'true_messages + black_messages > 0" }'


def _with(on: str):
    texts = {}
    for p in sorted(SHIPPED.rglob("*.toml")):
        t = p.read_text(encoding="utf-8")
        if p.name == "lao_han.toml":
            assert RU_GUI in t
            t = t.replace(RU_GUI, on, 1)
        texts[str(p.relative_to(SHIPPED))] = t
    return loader.load(texts=texts)


def test_a_guard_the_event_already_implies_is_no_change():
    # the player who died is not alive when `die` is dealt: "not the turn player" follows from "the turn player alive"
    old = _with(RU_GUI)
    new = _with(RU_GUI.replace("self != turn_player and ", ""))
    assert rule_changes(old, new) == []
    # the same shape, a real change: the guard that does the work dropped
    real = _with(RU_GUI.replace(" and turn_player.alive", ""))
    assert [(c.id, c.key) for c in rule_changes(old, real)] == [("RuGui", "on")]
    # and the same guard dropped where nothing implies it (the holder need not be the one who died)
    anyone = _with(RU_GUI.replace('whose = "self"', 'whose = "any"'))
    anyone_new = _with(RU_GUI.replace('whose = "self"', 'whose = "any"').replace("self != turn_player and ", ""))
    assert [(c.id, c.key) for c in rule_changes(anyone, anyone_new)] == [("RuGui", "on")]


def test_same_condition_is_shown_or_not_claimed():
    cat = _with(RU_GUI)
    on = cat.skills["RuGui"].on[0]
    assert same_condition(on.when, on.when, on.event, on.whose)
    assert not same_condition(on.when, None, on.event, on.whose)
    # what is not compiled (no condition on one side is `true`; `unknown`) is never shown equal
    from skillproof.model import expr as E
    assert not same_condition(E.Unknown(type="bool"), E.Unknown(type="bool"))


# --------------------------------------------------------- the first or the last skill of a kind nobody holds two of
from skillproof.checks.diff_meaning import at_most_one, same_engine_value  # noqa: E402

LAST = ("checkCanLock = skills.lastOrNull { it is SendMessageCanLockSkill } as? SendMessageCanLockSkill",
        "refuse if checkCanLock != null and !checkCanLock.checkCanLock(card,lockPlayers)")
FIRST = (LAST[0].replace("lastOrNull", "firstOrNull"), LAST[1])


def _edited(name: str, old: str, new: str):
    texts = {}
    for p in sorted(SHIPPED.rglob("*.toml")):
        t = p.read_text(encoding="utf-8")
        if p.name == name:
            assert old in t
            t = t.replace(old, new, 1)
        texts[str(p.relative_to(SHIPPED))] = t
    return loader.load(texts=texts)


def test_the_first_or_the_last_of_a_kind_nobody_holds_two_of_is_one_skill():
    cat = loader.load()
    assert at_most_one(cat, "SendMessageCanLockSkill")
    assert same_engine_value(LAST, FIRST, cat, cat)
    # a real change beside it is still one
    assert not same_engine_value(LAST, (FIRST[0], "refuse if checkCanLock == null"), cat, cat)
    # another kind picked is a change
    other = (LAST[0].replace("lastOrNull { it is SendMessageCanLockSkill }", "firstOrNull { it is SendMessageCardSkill }"),
             LAST[1])
    assert not same_engine_value(LAST, other, cat, cat)


def test_where_a_player_can_hold_two_the_first_is_not_the_last():
    # the character that hands itself the one-turn lock rule also holds the other lock rule: two at once
    two = _edited("sp_han_mei.toml", 'skills = ["', 'skills = ["QiangYingXiaLing", "')
    assert not at_most_one(two, "SendMessageCanLockSkill")
    assert not same_engine_value(LAST, FIRST, loader.load(), two)


def test_untold_compares_guards_for_meaning():
    from skillproof.checks.diff_untold import untold
    old = _with(RU_GUI)
    new = _with(RU_GUI.replace("self != turn_player and ", ""))
    assert untold(old, new, set(), set()) == []
    real = _with(RU_GUI.replace(" and turn_player.alive", ""))
    assert [(u.id, u.key) for u in untold(old, real, set(), set())] == [("RuGui", "on")]


# ----------------------------------------------------------------- how many cards an effect takes off the deck
from test_extract_card_effects import BAIT, _cat, _changed, _ops  # noqa: E402


def test_the_number_of_cards_drawn_off_the_deck_is_read(tmp_path):
    one = _cat(tmp_path / "a", "Bait", BAIT.replace("TESTED", "target"))
    two = _cat(tmp_path / "b", "Bait", BAIT.replace("TESTED", "target").replace("g.deck.draw(1)", "g.deck.draw(2)"))
    [k1] = _ops(one.catalogue.cards["Li_You"])
    [k2] = _ops(two.catalogue.cards["Li_You"])
    assert "n=2" in k2 and "n=2" not in k1
    assert _changed(one, two, "Li_You") == [("Li_You", "do")]
    # the same card drawn and put in another spelling: one card either way
    same = _cat(tmp_path / "c", "Bait", BAIT.replace("TESTED", "target").replace("g.deck.draw(1)", "g.deck.draw(1)\n"
                                                                                 "        val unused = 0"))
    assert _changed(one, same, "Li_You") == []


def test_what_an_event_always_holds_reads_its_own_players():
    from skillproof.model import expr as E
    from skillproof.model.events import EVENT_KINDS
    assert EVENT_KINDS["die"].holds == ("not victim.alive",)
    for kind in EVENT_KINDS.values():
        for text in kind.holds:
            names = {n.name for n in E.walk(E.parse(text)) if isinstance(n, E.Var)}
            assert names and names <= set(kind.role_names), (kind.key, text)


def test_the_interpreter_raises_die_for_a_dead_player():
    # the twin of the event's `holds`: model/interp/game.py marks the player dead before it raises `die`
    import inspect
    from skillproof.model.interp import game
    src = inspect.getsource(game)
    for m in __import__("re").finditer(r'self\.raise_\("die", \{"victim": (\w+(?:\.\w+)?)\}\)', src):
        before = src[max(0, m.start() - 400):m.start()]
        assert "alive = False" in before or "apply_die" in before, m.group(0)


# ------------------------------------------------------------------- two players the client names in a list
from skillproof.model.extract import extract  # noqa: E402

from test_extract_readers import _entry, _with_skill  # noqa: E402

PAIR = """package demo.game.skill

import demo.game.*

class Pair : MainPhaseSkill() {
    override val skillId = SkillId.PAIR
    override val isInitialSkill = true

    override fun executeProtocol(g: Game, r: Player, message: Any) {
        val pb = message as skill_pair_tos
        if (pb.targetPlayerIdsCount != COUNT) {
            logger.error("two targets")
            return
        }
        val targets = pb.targetPlayerIdsList.map {
            val target = g.players[r.getAbstractLocation(it)]!!
            if (!target.alive) {
                logger.error("dead")
                return
            }
            target
        }
        targets.forEach { g.playerDiscardCard(it, it.cards.toList()) }
        targets.forEach { it.draw(DRAW) }
    }
}
"""


def _pair(tmp_path, count="2", draw="3"):
    return _entry(extract(_with_skill(tmp_path, "Pair", "PAIR", PAIR.replace("COUNT", count).replace("DRAW", draw))),
                  "Pair")


def test_two_players_the_client_names_in_a_list_are_chosen_and_chosen2(tmp_path):
    e = _pair(tmp_path / "a")
    ops = [(o["op"], o.get("who"), o.get("n"), o.get("which")) for o in e["do"] if o["op"] != "prose"]
    assert ops == [("discard", "chosen", None, "all"), ("discard", "chosen2", None, "all"),
                   ("draw", "chosen", 3, None), ("draw", "chosen2", 3, None)]
    # a changed amount reads otherwise
    e2 = _pair(tmp_path / "b", draw="2")
    assert [o.get("n") for o in e2["do"] if o["op"] == "draw"] == [2, 2]
    # another count of players: not read this way (the loop stays untranslated)
    e3 = _pair(tmp_path / "c", count="3")
    assert not any(o.get("who") == "chosen2" for o in e3["do"])


# ------------------------------------------------------------------- a yes / no the user of a card answers
from test_extract_card_effects import HEAD as CARD_HEAD  # noqa: E402

LURE = CARD_HEAD + """
class Lure(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Diao_Hu_Li_Shan

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean {
        val target = args[0] as Player
        if (r !== (g.fsm as? MainPhaseIdle)?.whoseTurn) return false
        if (!target.alive) return false
        return true
    }

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val target = args[0] as Player
        val isSkill = args[1] as Boolean
        r.deleteCard(id)
        BRANCHES
    }
}
"""
ONE_OR_OTHER = "if (isSkill) InvalidSkill.deal(target)\n        else target.skills += CannotPlayCard(forbidAllCard = true)"


def test_a_yes_or_no_the_user_answers_is_a_choice(tmp_path):
    a = _cat(tmp_path / "a", "Lure", LURE.replace("BRANCHES", ONE_OR_OTHER))
    ops = _ops(a.catalogue.cards["Diao_Hu_Li_Shan"])
    assert len(ops) == 1 and ops[0].startswith("choose") and "unknown" not in ops[0]
    both = ONE_OR_OTHER.replace("InvalidSkill.deal(target)", "{ InvalidSkill.deal(target); target.skills += "
                                                             "CannotPlayCard(forbidAllCard = true) }")
    b = _cat(tmp_path / "b", "Lure", LURE.replace("BRANCHES", both))
    assert _changed(a, b, "Diao_Hu_Li_Shan") == [("Diao_Hu_Li_Shan", "do")]
