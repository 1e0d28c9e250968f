"""The quiet-transform generator (benchmarks/quiet_transforms.py) on one small Kotlin file of our own, one transform,
no gate run: it finds the sites, each case reparses without error, and the seeded choice is the same every time."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("quiet_transforms", ROOT / "benchmarks" / "quiet_transforms.py")
qt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(qt)

SRC = b"""package demo.game.skill

class Cure : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player) {
        for (p in g.players) p.draw(1)
        for (c in r.cards) {
            r.discard(c)
        }
        for (i in 0 until 3) {
            if (i == 2) break
            r.draw(i)
        }
    }
}
"""


def test_for_each_cases_are_the_loops_without_a_jump_and_reparse():
    files = {"src/main/kotlin/skill/Cure.kt": SRC}
    cases = qt.cases_of(files, "for_each", 5, seed=1)
    assert sorted(line for _p, line, _n in cases) == [5, 6]          # the loop with `break` is no site
    texts = {n.decode() for _p, _l, n in cases}
    assert any("g.players.forEach { p -> p.draw(1) }" in x for x in texts)
    assert any("r.cards.forEach { c ->" in x and "for (c in" not in x for x in texts)
    assert cases == qt.cases_of(files, "for_each", 5, seed=1)           # seeded: the same cases again
    assert qt.rule_files(["src/main/kotlin/skill/Cure.kt", "src/main/kotlin/handler/X.kt",
                          "src/main/kotlin/Player.kt"]) == ["src/main/kotlin/Player.kt", "src/main/kotlin/skill/Cure.kt"]


NEW = b"""package demo.game.skill

class Tally : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player) {
        val n = r.cards.size
        logger.info("${r} has $n cards")
        if (r.cards.count { it.isBlack() } >= 2) r.draw(1)
        if (r is HumanPlayer) r.draw(2)
        return
        logger.info("unreachable")
    }
}
"""


def test_const_extract_log_move_and_extract_fun_find_only_their_sound_sites():
    files = {"src/main/kotlin/skill/Tally.kt": NEW}
    consts = qt.cases_of(files, "const_extract", 5, seed=1)
    assert {line for _p, line, _n in consts} == {7, 8}                # `>= 2`, `draw(1)`, `draw(2)`
    assert all(n.decode().endswith((" = 1\n", " = 2\n")) for _p, _l, n in consts)
    assert all(b"private const val QUIET_LIMIT_" in n for _p, _l, n in consts)
    # the log line reads `n`: it is not moved above the declaration of `n`; the one after `return` is no site
    assert qt.cases_of(files, "log_move", 5, seed=1) == []
    moved = qt.cases_of({"src/main/kotlin/skill/Tally.kt": NEW.replace(b"$n cards", b"cards")}, "log_move", 5, seed=1)
    assert [line for _p, line, _n in moved] == [5]
    assert moved[0][2].decode().split("\n")[4:6] == ['        logger.info("${r} has cards")', "        val n = r.cards.size"]
    funs = qt.cases_of(files, "extract_fun", 5, seed=1)
    assert [line for _p, line, _n in funs] == [7]                      # not the `is` test: its smart cast
    assert "fun checkRenamed() = r.cards.count { it.isBlack() } >= 2\n        if (checkRenamed())" in \
        funs[0][2].decode()
