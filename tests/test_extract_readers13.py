"""Readers of the gate's real side written at the forty-fourth stop (issue 24; measured on the seeded rule mutations of
benchmarks/rule_mutations.py, seeds 11 and 12): where a mutant of rule code passed the gate silently or was read as
partly read, the reader now reads whose hand / area a table change acts on, so the diff names the rule. Each on a
small Kotlin server of our own (tests/fixtures/kotlin/server plus the card of tests/test_effects_read.py), never the
game's code — a real change is told apart, the same code is read as before."""
from __future__ import annotations

from skillproof.model.extract import extract


def _card(tmp_path, sub: str, old: str = "", new: str = "", other_removes: bool = False):
    from test_effects_read import _server as eff_server
    d = eff_server(tmp_path / sub)
    if other_removes:           # another card of the code takes the card used out of its user's hand itself
        (d / "card" / "Play.kt").write_text("package demo.game.card\n\nimport demo.game.*\n\n"
                                            "fun playOut(r: Player, id: Int) {\n    r.deleteCard(id)\n}\n",
                                            encoding="utf-8")
    path = d / "card" / "Nudge.kt"
    text = path.read_text(encoding="utf-8")
    if old:
        assert text.count(old) == 1
        path.write_text(text.replace(old, new), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def _do(ex) -> list:
    return [(o.op, dict(o.args)) for o in ex.catalogue.cards["Ping_Heng"].do]


def test_the_card_used_taken_out_of_another_hand_than_its_users_is_read(tmp_path):
    # who-10 of seed 11 (平衡): the card used leaves the target's hand instead of its user's — was read as the engine's
    # own removal whatever the hand, so the change passed the gate; now a step of the card's says whose hand it leaves
    base = _card(tmp_path, "a")
    assert not any(op == "prose" for op, _ in _do(base))
    moved = _card(tmp_path, "b", "r.deleteCard(id)", "target.deleteCard(id)")
    ops = _do(moved)
    assert ops != _do(base)
    assert ops[0][0] == "prose" and "target" in ops[0][1]["note"]
    assert ops[1:] == _do(base)


def _hammer(tmp_path, sub: str, old: str = "", new: str = ""):
    from test_effects_read import _server as eff_server
    d = eff_server(tmp_path / sub)
    path = d / "skill" / "Hammer.kt"
    text = path.read_text(encoding="utf-8")
    if old:
        assert text.count(old) == 1
        path.write_text(text.replace(old, new), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return [(o.op, dict(o.args)) for o in ex.catalogue.skills["Hammer"].do]


def test_a_use_counted_on_another_player_than_the_owner_is_read(tmp_path):
    # a per-turn limit's count put on the target instead of the skill's owner (a `who` mutant of addSkillUseCount):
    # was read as the owner's use whatever the receiver; now a step says whose count it is
    base = _hammer(tmp_path, "a")
    assert not any(op == "prose" for op, _ in base)
    moved = _hammer(tmp_path, "b", "r.addSkillUseCount(skillId)", "target.addSkillUseCount(skillId)")
    assert moved != base
    assert [a["note"] for op, a in moved if op == "prose"] == ["a use counted on target, not the skill's owner"]


def _setup(tmp_path, sub: str, draw: str):
    from test_extract_deck import SETUP, _tree
    src = _tree(tmp_path / sub)
    text = SETUP.replace("HAND", "2").replace("val roles = listOf<Any>()", draw)
    (src / "phase" / "Setup.kt").write_text(text, encoding="utf-8")
    (src / "Pool.kt").write_text("package demo.game\n\nobject Pool {\n    fun getRandomRoles(n: Int): List<Any> = "
                                 "List(n) { it }\n    fun getRandomRolesWithSpecific(n: Int, r: List<Any>): List<Any> "
                                 "= getRandomRoles(n)\n}\n", encoding="utf-8")
    ex = extract(src)
    assert ex.load_errors == []
    return ex.engine["setup.roles_drawn"]


def test_how_many_roles_the_set_up_draws_is_read_in_each_branch(tmp_path):
    # seed 12 setup-01 (Game.start: the roles drawn for the table under the GM switch, players.size * 3 -> * 2): the
    # count of the role pool's draw was not read, so the set-up function was partly read (UNR001); now a named rule
    one = "val roles = Pool.getRandomRoles(players.size * 2)"
    gm = ("val roles = if (game.gm) Pool.getRandomRolesWithSpecific(players.size * 2, listOf()) "
          "else Pool.getRandomRoles(players.size *  2)")
    assert _setup(tmp_path, "a", one).value == ("players.size*2",)
    assert _setup(tmp_path, "b", gm).value == ("players.size*2",)          # spacing and a same-count branch: same
    changed = _setup(tmp_path, "c", gm.replace("size * 2, listOf", "size * 3, listOf"))
    assert changed.value == ("players.size*2", "players.size*3")


def test_the_card_used_never_taken_out_of_the_hand_is_read(tmp_path):
    # seed 12 drop-05 (澄清's r.deleteCard(id) dropped): the card used stays in its user's hand; the removal was read as
    # the engine's own, so its loss changed nothing read — now a step of the card's, where the code's cards take the card
    # used out themselves (another card of the fixture server does)
    base = _card(tmp_path, "a", other_removes=True)
    assert not any(op == "prose" for op, _ in _do(base))
    kept = _card(tmp_path, "b", "        r.deleteCard(id)\n", "", other_removes=True)
    assert [a["note"] for op, a in _do(kept) if op == "prose"] == ["the card used stays in its user's hand"]
    assert [x for x in _do(kept) if x[0] != "prose"] == _do(base)
