"""Smoke test of the rule-mutation generator (benchmarks/rule_mutations.py): on one small Kotlin file it finds the
sites of rule code (not the robot's branch, not the client notice, not a function nothing calls) and a mutant is the
file with one token changed; deterministic for a seed. No gate run (the benchmark is not a CI test)."""
from test_planted import _module

rm = _module("rule_mutations")

SRC = b"""package com.fengsheng.skill

class Demo : TriggeredSkill {
    override fun execute(g: Game, askWhom: Player): ResolveResult? {
        val event = g.findEvent<ReceiveCardEvent>(this) { event ->
            askWhom === event.inFrontOfWhom || return@findEvent false
            event.messageCard.colors.size == 2 && Red in event.messageCard.colors
        } ?: return null
        askWhom.draw(1)
        if (askWhom is RobotPlayer) {
            askWhom.draw(3)
        }
        logger.info("drew 2")
        return null
    }

    private fun unused(p: Player) {
        p.draw(2)
    }
}
"""
OTHER = b"package com.fengsheng\n\nclass ReceiveCardEvent\nclass SendCardEvent\nfun f(g: Game) = g.findEvent<SendCardEvent>(x) { true }\n"


def _sites():
    files = {"src/main/kotlin/skill/Demo.kt": SRC, "src/main/kotlin/Other.kt": OTHER}
    return files, rm.find_sites(files, seed=3)


def test_sites_are_rule_code_only():
    files, sites = _sites()
    by = {}
    for s in sites:
        by.setdefault(s.kind, []).append(s)
    # draw(1) of the rule is a count site; the robot's draw(3) and the log line's text are not
    assert [SRC[s.start:s.end] for s in by["count"] if not s.dead] == [b"2", b"1"]
    assert all(b"3" != SRC[s.start:s.end] for s in sites)
    assert [SRC[s.start:s.end] for s in by["colour"]] == [b"Red"]
    assert [s.new for s in by["event"]] == ["<SendCardEvent>"]
    # the findEvent guard line can be dropped; the draw statement of the rule can be dropped
    assert any(s.new == "" and b"return@findEvent" in SRC[s.start:s.end] for s in by["guard_drop"])
    assert [SRC[s.start:s.end] for s in by["drop"] if not s.dead] == [b"askWhom.draw(1)"]
    # the private function nothing calls is dead: its sites are provable no-ops
    assert {s.method for s in sites if s.dead} == {"unused"}


def test_one_mutant_changes_one_token_and_is_deterministic():
    files, sites = _sites()
    chosen, dropped = rm.choose(files, sites, 1, seed=3, kinds=("colour",))
    assert len(chosen) == 1 and chosen[0]["id"] == "colour-01"
    new = chosen[0]["text"]
    assert new != SRC and new.replace(b"Blue", b"Red").replace(b"Black", b"Red") == SRC
    again, _ = rm.choose(files, rm.find_sites(files, seed=3), 1, seed=3, kinds=("colour",))
    assert again[0]["text"] == new
    assert dropped["colour"] == {"dead": 0, "same text": 0, "unparsable": 0}
