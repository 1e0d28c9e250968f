"""Shared by the quiet-equivalence tests: the gate's comparison of two versions of one small Kotlin file, each read
through ``quiet_source`` first as the gate reads it (``unread.compare`` on the normal forms)."""
from __future__ import annotations

from skillproof.model.extract.quiet_source import quiet_source
from skillproof.model.extract.syntax import _make_parser
from skillproof.model.extract.unread import compare

_P = _make_parser()


def quiet_changes(src: str, before: str, after: str, rel: str = "skill/Cure.kt") -> list:
    """(where, change) of every construct the gate finds changed when ``BODY`` in ``src`` becomes ``after``."""
    a, b = (quiet_source(_P, src.replace("BODY", x).encode()) for x in (before, after))
    return [(c.where, c.change) for c in compare({rel: a}, {rel: b}).changes]


#: an ActiveSkill whose ``executeProtocol`` holds the edited statements (``BODY``), and the one change a real edit of
#: them makes
SKILL = """package demo.game.skill

class Cure : ActiveSkill {
    override fun executeProtocol(g: Game, r: Player, message: GeneratedMessage) {
        val target = g.players[1]
BODY
        r.draw(1)
    }
}
"""
CHANGED = [("Cure.executeProtocol", "changed")]
