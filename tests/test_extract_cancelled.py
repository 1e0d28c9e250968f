"""A cancelled card's branch of its resolution (``resolveFunc``'s ``valid`` false) only finishes the card in the
game's engine: the fight round goes on from the player the message is in front of (server card/JieHuo.kt, WuDao.kt).
The reader walks the valid branch only, so before, anything else written in the other branch was read as nothing and a
change there passed the gate silently (planted10's ``p10-card-jiehuo-invalid-asks-user``: the user asked again). Now
such a branch leaves the card's construct partly read (a change there is named, UNR001); the engine's own finish reads
whole. On a small Kotlin server of our own (tests/fixtures/kotlin/server), never the game's code."""
from __future__ import annotations

import shutil
from pathlib import Path

from skillproof.model.extract import extract

SERVER = Path(__file__).parent / "fixtures" / "kotlin" / "server"

SNATCH = """package demo.game.card

import demo.game.Game
import demo.game.Player
import demo.game.phase.FightPhaseIdle
import demo.protos.Common.card_type.Jie_Huo
import demo.protos.Common.color
import demo.protos.Common.direction

class Grab(colors: List<color>, dir: direction) : Card(colors, dir) {
    override val type = Jie_Huo

    override fun canUse(g: Game, r: Player, vararg args: Any): Boolean = Companion.canUse(g, r)

    override fun execute(g: Game, r: Player, vararg args: Any) {
        val fsm = g.fsm as FightPhaseIdle
        val resolveFunc = { valid: Boolean ->
            if (valid) {
                val newFsm = fsm.copy(inFrontOfWhom = r, whoseFightTurn = r)
                OnFinishResolveCard(fsm.whoseTurn, r, null, this, Jie_Huo, newFsm)
            } else {
                val newFsm = fsm.copy(whoseFightTurn = CANCELLED)
                OnFinishResolveCard(fsm.whoseTurn, r, null, this, Jie_Huo, newFsm)
            }
        }
        g.resolve(ResolveCard(fsm.whoseTurn, r, null, this, Jie_Huo, resolveFunc, fsm))
    }

    companion object {
        fun canUse(g: Game, r: Player): Boolean {
            val fsm = g.fsm as? FightPhaseIdle
            return r === fsm?.whoseTurn || fsm != null
        }
    }
}
"""


def _ex(tmp_path, sub: str, cancelled: str):
    d = tmp_path / sub
    shutil.copytree(SERVER, d)
    (d / "card" / "Grab.kt").write_text(SNATCH.replace("CANCELLED", cancelled), encoding="utf-8")
    phases = d / "phase" / "Phases.kt"
    text = phases.read_text(encoding="utf-8")
    old = "class FightPhaseIdle(val whoseTurn: Player, val inFrontOfWhom: Player, val messageCard: Card) : Fsm"
    assert old in text
    phases.write_text(text.replace(old, "data class FightPhaseIdle(val whoseTurn: Player, val inFrontOfWhom: Player, "
                                         "val messageCard: Card, val whoseFightTurn: Player) : Fsm"), encoding="utf-8")
    ex = extract(d)
    assert ex.load_errors == []
    return ex


def _card_read(ex):
    keys = [k for k in ex.reads if k[0].endswith("Grab.kt") and k[2] == "execute"]
    assert keys, sorted(ex.reads)
    return all(ex.reads[k] for k in keys)


def test_a_cancelled_cards_branch_that_does_more_than_finish_it_is_not_read_whole(tmp_path):
    engine = _ex(tmp_path, "a", "fsm.inFrontOfWhom")
    assert [(o.op, dict(o.args)) for o in engine.catalogue.cards["Jie_Huo"].do][-1] == ("ask_from", {"who": "self"})
    assert _card_read(engine) is True
    asks_user = _ex(tmp_path, "b", "r")
    assert _card_read(asks_user) is False
    assert [(o.op, dict(o.args)) for o in asks_user.catalogue.cards["Jie_Huo"].do] == \
        [(o.op, dict(o.args)) for o in engine.catalogue.cards["Jie_Huo"].do]
