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
