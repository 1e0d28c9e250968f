"""Dying and death, symbolically: twin of ``model/interp/dying.py`` (server ProcessFsm.checkDying,
StartWaitForChengQing.kt, WaitForChengQing.kt, UseChengQingOnDying.kt, CheckKillerWin.kt, AfterDieGiveCard.kt).

The dying queue is a list of conditions: seat ``s`` is dying when it lives, is in the game and has three or more
black messages; the first of the queue is the first such seat in seat order from the turn player
(``Game.sortedFrom``).
"""
from __future__ import annotations

from .table import K, SymTable, order_from
from .val import AND, GE, ITE, LT, NOT, OR


def enc_blacks(seat):
    return seat.count("black_messages")


def enc_is_dying(tab: SymTable, s: int):
    """Seat ``s`` belongs in the dying queue (alive, not out of the game, three or more black messages)."""
    seat = tab.seats[s]
    return AND(seat.alive, NOT(seat.lost), GE(enc_blacks(seat), 3))


def enc_dying_first(tab: SymTable, s: int):
    """Twin of ``dying_queue(st)[0] == s``: ``s`` is dying and no seat before it (from the turn player) is."""
    conds = []
    for j in order_from(tab, tab.turn):
        if j == s:
            conds.append(enc_is_dying(tab, j))
            return AND(conds)
        conds.append(NOT(enc_is_dying(tab, j)))
    return False


def enc_anyone_dying(tab: SymTable):
    """The dying queue is not empty."""
    return OR([enc_is_dying(tab, s) for s in range(tab.n)])


def enc_dying_ok(tab: SymTable, seat: int):
    """Twin of dying.dying_errors: ``seat`` is the first of the dying queue."""
    return enc_dying_first(tab, seat)


def enc_saved(tab: SymTable, seat: int):
    """Twin of dying.saved: fewer than three black messages (UseChengQingOnDying)."""
    return LT(enc_blacks(tab.seats[seat]), 3)


def enc_die_ok(tab: SymTable, seat: int):
    """Twin of dying.die_errors (the window is the caller's): the dying player was not saved."""
    return NOT(enc_saved(tab, seat))


def enc_apply_die(tab: SymTable, seat: int, when=True) -> None:
    """Twin of dying.apply_die: no longer alive."""
    s = tab.seats[seat]
    s.alive = ITE(when, False, s.alive)


def enc_discard_all(tab: SymTable, seat: int, when=True) -> None:
    """Twin of dying.discard_all: his hand and message area to the discard pile (AfterDieGiveCard)."""
    s = tab.seats[seat]
    s.hand = ITE(when, 0, s.hand)
    s.area = [ITE(when, 0, s.area[k]) for k in range(K)]
