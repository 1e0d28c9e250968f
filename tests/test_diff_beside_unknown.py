"""What the gate names among changes beside code it did not read: an op whose condition is not read (``unknown``) that
changed only in a part both versions read (checks/diff_rules.py), and the win skills' and the engine's
put-out-of-the-game rules read as clauses (model/extract/wins.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

from skillproof.checks.diff_rules import rule_changes
from skillproof.model import loader
from skillproof.model.extract import extract

from gitrepo import SERVER

SHIPPED = Path(loader.__file__).parent / "catalogue"


def _with(text_of_draw: str):
    texts = {}
    for p in sorted(SHIPPED.rglob("*.toml")):
        t = p.read_text(encoding="utf-8")
        if p.name == "ma_li_ya.toml":
            t = t.replace('{ op = "draw", if = "receiver.hidden" }', text_of_draw, 1)
        texts[str(p.relative_to(SHIPPED))] = t
    return loader.load(texts=texts)


def test_an_amount_changed_under_a_condition_not_read_is_named():
    one = _with('{ op = "draw", n = 1, if = "receiver.hidden and unknown" }')
    two = _with('{ op = "draw", n = 2, if = "receiver.hidden and unknown" }')
    [ch] = rule_changes(one, two)
    assert (ch.id, ch.key) == ("CangShenJiaoTang", "do") and "2" in ch.en


def test_a_change_of_the_part_not_read_is_not_claimed():
    a = _with('{ op = "draw", n = 1, if = "receiver.hidden and unknown" }')
    b = _with('{ op = "draw", n = 2, if = "unknown" }')                   # the unread part differs too
    assert rule_changes(a, b) == []
    assert rule_changes(a, a) == []


WIN = """package demo.game.skill

import demo.game.*

class Moon : WinSkill {
    override val skillId = SkillId.ECHO
    override val isInitialSkill = true

    override fun checkWin(r: Player, whoseTurn: Player, declaredWinner: MutableList<Player>, winner: MutableList<Player>) {
        for (p in r.game!!.players) {
            if (p == null || !HELPER(p)) continue
            if (p.messageCards.size >= COUNT) {
                declaredWinner.add(r)
                winner.add(p)
            }
        }
    }

    private fun HELPER(p: Player) = p.alive
}

interface WinSkill : Skill {
    fun checkWin(r: Player, whoseTurn: Player, declaredWinner: MutableList<Player>, winner: MutableList<Player>)
}
"""

OUT = """package demo.game.phase

import demo.game.*

class SendStart(val whoseTurn: Player) {
    fun resolve(): Any? {
        if (whoseTurn.alive && whoseTurn.cards.isEmpty()) {
            LOSE
            whoseTurn.alive = false
        }
        return null
    }
}
"""


def _engine(tmp_path, count="3", helper="isMoon", lose="whoseTurn.lose = true"):
    d = tmp_path / "server"
    shutil.copytree(SERVER, d)
    (d / "skill" / "Moon.kt").write_text(WIN.replace("COUNT", count).replace("HELPER", helper), encoding="utf-8")
    (d / "phase" / "SendStart.kt").write_text(OUT.replace("LOSE", lose), encoding="utf-8")
    return extract(d).engine


def test_a_win_skill_and_who_is_put_out_are_read_as_clauses(tmp_path):
    base = _engine(tmp_path / "a")
    moon = base["win.skill.Moon"].value
    assert any("declare += r" in c and "messageCards.size >= 3" in c for c in moon)
    assert all("isMoon" not in c for c in moon) and any("helper1(p)" in c for c in moon)
    assert base["lose"].value == ("SendStart.resolve: whoseTurn.lose = true if whoseTurn.alive && "
                                  "whoseTurn.cards.isEmpty()",)
    renamed = _engine(tmp_path / "b", helper="isFullMoon")              # a helper renamed: the same clauses
    assert renamed["win.skill.Moon"].value == moon
    assert _engine(tmp_path / "c", count="2")["win.skill.Moon"].value != moon
    assert _engine(tmp_path / "d", lose="")["lose"].value == ()        # taken away: a value, not unread


def test_a_number_changed_in_place_beside_an_unknown_is_a_change_and_nothing_else_is():
    from skillproof.checks.diff_rules import cond_changed
    from skillproof.model import expr as E
    p = E.parse
    assert cond_changed(p("receiver.hand_count == 2 and unknown"), p("receiver.hand_count == 1 and unknown"))
    assert not cond_changed(p("receiver.hand_count == 2 and unknown"), p("receiver.face_up and unknown"))
    assert not cond_changed(p("receiver.hand_count == 2 and unknown"), p("receiver.hand_count == 2 and unknown"))
