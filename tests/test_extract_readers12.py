"""Readers of the gate's real side written at the twelfth stop (issue 24; measured on the seeded rule mutations of
benchmarks/rule_mutations.py): a change the gate had only marked as code it cannot read (UNR001) is read into a named
engine rule instead, so the gate names the rule and what it now decides. Each on the small Kotlin server of the tests
(tests/fixtures/kotlin/server), never the game's code: a real change is a different value, a quiet spelling the same."""
from __future__ import annotations

from pathlib import Path

from test_extract_readers5 import _pair

_FIXTURE = Path(__file__).parent / "fixtures" / "kotlin" / "server" / "skill" / "RoleSkillsData.kt"
# the small server's role table with a face-up state and two property getters (MALE: the getter under test)
ROLE = _FIXTURE.read_text(encoding="utf-8").rstrip().removesuffix("}") + """
    var isFaceUp = isPublicRole

    val isFemale: Boolean
        get() = isFaceUp && female

    val isMale: Boolean
        get() = MALE
}
"""
REL = "skill/RoleSkillsData.kt"


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)
NAME = "prop.RoleSkillsData.isMale"


def test_a_player_property_getter_is_read_by_what_it_decides(tmp_path):
    ra, rb, same = _pair(tmp_path, REL, ROLE.replace("MALE", "isFaceUp && !female"),
                         ROLE.replace("MALE", "isFaceUp && female"), NAME)
    assert ra is not None and rb is not None
    assert ra.value == ("not female and isFaceUp",) and rb.value == ("female and isFaceUp",)
    assert ra.where.endswith(f":{_line_of(ROLE, 'val isMale')}") and ra.one and not same     # named: the gate reports the rule's change
    # a dropped conjunct is a change too (a face-down male is now seen as male)
    _a, rc, _s = _pair(tmp_path / "c", REL, ROLE.replace("MALE", "isFaceUp && !female"),
                       ROLE.replace("MALE", "!female"), NAME)
    assert rc.value == ("not female",)


def test_a_quiet_spelling_of_the_getter_reads_the_same(tmp_path):
    ra, rb, _same = _pair(tmp_path, REL, ROLE.replace("MALE", "isFaceUp && !female"),
                          ROLE.replace("MALE", "!(this.female || !isFaceUp)"), NAME)
    assert ra.value == rb.value
    female = _pair(tmp_path / "f", REL, ROLE.replace("MALE", "true"), ROLE.replace("MALE", "true"),
                   "prop.RoleSkillsData.isFemale")[0]
    assert female.value == ("female and isFaceUp",)


TABLE = """package demo.game.card

class Alpha(val base: Int)
class Beta(val base: Int)

fun pick(type: Int, base: Int): Any {
    return when (type) {
        ENTRIES
        else -> throw IllegalStateException("unexpected")
    }
}
"""
TREL = "card/Pick.kt"


def test_a_table_from_a_value_to_the_class_it_builds_is_read(tmp_path):
    ab = "Alpha_T -> Alpha(base)\n        Beta_T -> Beta(base)"
    ra, rb, same = _pair(tmp_path, TREL, TABLE.replace("ENTRIES", ab),
                         TABLE.replace("ENTRIES", ab.replace("Beta(base)", "Alpha(base)")), "table.Pick.pick")
    assert ra.value[:2] == ("Alpha_T -> Alpha", "Beta_T -> Beta") and rb.value[:2] == ("Alpha_T -> Alpha",
                                                                                          "Beta_T -> Alpha")
    assert ra.one and ra.where.endswith(":7") and not same
    # the order of the branches decides nothing
    ba = "Beta_T -> Beta(base)\n        Alpha_T -> Alpha(base)"
    _a, rc, _s = _pair(tmp_path / "c", TREL, TABLE.replace("ENTRIES", ab), TABLE.replace("ENTRIES", ba),
                       "table.Pick.pick")
    assert rc.value == ra.value


def test_the_table_written_as_an_if_chain_reads_as_its_when(tmp_path):
    ab = "Alpha_T -> Alpha(base)\n        Beta_T -> Beta(base)"
    chain = TABLE.replace("when (type) {\n        ENTRIES\n        else ->",
                          "if (type == Alpha_T) Alpha(base) else if (Beta_T == type) {\n            BETA\n"
                          "        } else {\n           ").replace("\n    }\n}", "\n        }\n}")
    ra, rb, same = _pair(tmp_path, TREL, TABLE.replace("ENTRIES", ab), chain.replace("BETA", "Beta(base)"),
                         "table.Pick.pick")
    assert rb is not None and rb.value == ra.value
    _a, rc, same = _pair(tmp_path / "c", TREL, TABLE.replace("ENTRIES", ab), chain.replace("BETA", "Alpha(base)"),
                         "table.Pick.pick")
    assert rc.value[:2] == ("Alpha_T -> Alpha", "Beta_T -> Alpha") and not same
