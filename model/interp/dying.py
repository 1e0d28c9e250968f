"""Dying and death: three black messages, the asking for 澄清, and what a death takes with it.

Server (CuteReimu/TheMessage): at every process node whose state checks (``ProcessFsm.needCheckWinAndDying``: not
while a card resolves, not while 澄清 is asked for or a dead player gives his cards), after the triggered skills and
the win check, every living player with three or more black messages is dying (``ProcessFsm.checkDying``), queued
in seat order from the turn player (``Game.sortedFrom``). For each in turn, every living player who may act is
asked from the dying player on (phase/StartWaitForChengQing.kt, WaitForChengQing.kt, WaitNextForChengQing.kt); a
澄清 that leaves him fewer than three black messages saves him (phase/UseChengQingOnDying.kt). Whoever is not saved
dies: no longer alive (``dieJustNow``), a PlayerDieEvent, the killer checks (phase/CheckKillerWin.kt), then he may
give his hand cards to a living player and the rest of his hand and his message area are discarded
(phase/WaitForDieGiveCard.kt, AfterDieGiveCard.kt, handler/DieGiveCardTos.kt).

Not modelled: several players dying at once die together after all were asked (here one at a time, in the
server's order).

The z3 twin is ``checks/enc/dying.py`` (same names).
"""
from __future__ import annotations

from ..reason import Reason
from .table import area_of, counts, from_turn


def blacks(seat) -> int:
    return counts(area_of(seat) or {})["black_messages"]


def dying_queue(st) -> list:
    """The living players with three or more black messages, in the server's order (from the turn player)."""
    return from_turn(st, [i for i, s in enumerate(st.seats) if s.alive and not s.lost and blacks(s) >= 3])


def dying_errors(st, seat: int) -> Reason | str:
    """Why ``seat`` cannot be the dying player of a 濒死求澄清 window now."""
    q = dying_queue(st)
    if seat not in q:
        return Reason(f"座位{seat}没有三张黑色情报（或已死亡），不会濒死",
                      f"seat {seat} does not have three black messages (or is dead): nobody asks for 澄清 for him")
    if q[0] != seat:
        return Reason(f"座位{q[0]}先濒死（从当前回合角色起依次询问）",
                      f"seat {q[0]} is dying first (the dying are asked for in seat order from the turn player)")
    return ""


def saved(st, seat: int) -> bool:
    """A dying player who no longer has three black messages is saved (UseChengQingOnDying)."""
    return blacks(st.seats[seat]) < 3


def die_errors(st, seat: int) -> Reason | str:
    """Why ``seat`` cannot die now: only the dying player of the 濒死求澄清 window, still with three black
    messages once nobody saved him."""
    if st.window != "dying" or st.dying != seat:
        return Reason(f"座位{seat}不在濒死求澄清中", f"seat {seat} is not dying")
    if saved(st, seat):
        return Reason(f"座位{seat}已被救回（不足三张黑色情报）", f"seat {seat} was saved (fewer than three black messages)")
    return ""


def apply_die(st, seat: int) -> None:
    """He is no longer alive; his hand and message area are discarded (AfterDieGiveCard: giving cards away to
    a living player is the ``give`` op of the death, left out here)."""
    s = st.seats[seat]
    s.alive = False


def discard_all(st, seat: int) -> None:
    """A dead player's hand and message area go to the discard pile (AfterDieGiveCard)."""
    from .table import set_area
    s = st.seats[seat]
    s.hand_count = 0
    set_area(s, {})
