"""The message's path, symbolically: twin of ``model/interp/path.py`` (server SendMessageCardTos.kt, OnSendCard.kt,
SendPhaseIdle.kt, ChooseWhetherReceiveTos.kt, OnChooseReceiveCard.kt, MessageMoveNext.kt, OnReceiveCard.kt).

Each ``enc_<step>_ok`` is the condition under which the interpreter's ``<step>_errors`` finds nothing (a value:
``True`` / ``False`` when the step is ground, a z3 term where a hole reaches it); the ``apply`` functions move the
symbolic table as the interpreter moves its state.
"""
from __future__ import annotations

from skillproof.model.kinds import SEND_GROUPS

from .table import SymTable, enc_next_alive
from .val import AND, EQ, IN, ITE, LE, NE, NONE, NOT, OR, SUM, is_c, pick
from .view import FREE, MUST, CANNOT, SeatView, ask, enc_receive, enc_send_allowed

DIRS = ("up", "left", "right")         # direction codes are model.vocab.DIRECTIONS' order
UP, LEFT, RIGHT = 0, 1, 2


def seat_value_ok(n: int, v):
    """``v`` names a seat (twin of path._seat)."""
    if is_c(v):
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n
    return AND(v >= 0, v < n)


def enc_first_stop_ok(tab: SymTable, sender: int, d, to, to_self: bool = False):
    """Twin of path.first_stop_ok: never the sender (unless ``to_self``), never a dead player; left / right: the
    nearest living player on that side (Player.getNextLeftAlivePlayer / …Right…); up: anyone else alive
    (SendMessageSkill.canSendCard)."""
    alive_to = tab.at(to, lambda s: s.alive, False)
    side = ITE(EQ(d, LEFT), EQ(enc_next_alive(tab, sender, "left"), to),
               ITE(EQ(d, RIGHT), EQ(enc_next_alive(tab, sender, "right"), to), True))
    return AND(alive_to, side) if to_self else AND(NE(to, sender), alive_to, side)


def enc_next_stop(tab: SymTable):
    """Twin of path.next_stop (MessageMoveNext): up — back to the sender if alive; left / right — the nearest living
    player in the message's direction from the player it is in front of, the sender included; NONE where it reaches
    a dead sender (discarded)."""
    n, sender = tab.n, tab.sender
    if sender is None:
        return NONE

    def walk(x: int, step: int):
        # the first living seat met going ``step`` from x, unless the dead sender comes first
        out = NONE
        seq = [(x + step * d) % n for d in range(1, n + 1)]
        for j in reversed(seq):
            out = ITE(tab.seats[j].alive, j, NONE if j == sender else out)
        return out

    def from_(x: int):
        return ITE(EQ(tab.dir_sent, UP), ITE(tab.seats[sender].alive, sender, NONE),
                   ITE(EQ(tab.dir_sent, LEFT), walk(x, -1), walk(x, 1)))
    x = tab.in_front
    if is_c(x):
        return from_(x) if 0 <= x < n else NONE
    return pick(x, [from_(i) for i in range(n)], NONE)


def enc_receive_at(cat, tab: SymTable, seat):
    """interp.receive.receive for the (maybe symbolic) seat the message is in front of: FREE / MUST / CANNOT, from
    the existing encoder ``enc_receive`` on the seat's view."""
    if is_c(seat):
        return ask(enc_receive(SeatView(cat, tab, seat))) if 0 <= seat < tab.n else FREE
    return pick(seat, [ask(enc_receive(SeatView(cat, tab, s))) for s in range(tab.n)], FREE)


def enc_send_ok(cat, tab: SymTable, seat: int, cls, arrow, lockable, d, to, locks: list, from_hand: bool,
                hand_of=None):
    """Twin of path.send_errors: the send may happen now. ``cls`` the card's class code, ``arrow`` / ``d`` direction
    codes, ``to`` a seat value, ``locks`` a Bool value per seat (the set of locked players). The concrete
    preconditions (window, sent already, this turn's sender) are the caller's (they hold no hole)."""
    n = tab.n
    s = tab.seats[seat]
    conds = [s.alive]
    if from_hand:
        conds.append(LE(1, s.hand) if hand_of is None else LE(1, tab.at(hand_of, lambda x: x.hand, 0)))
    conds.append(AND(LE(0, cls), cls < 7) if not is_c(cls) else 0 <= cls < 7)
    conds.append(IN(d, (0, 1, 2)))
    conds.append(IN(arrow, (0, 1, 2)))
    conds.append(seat_value_ok(n, to))
    conds.append(AND([ITE(locks[j], tab.seats[j].alive, True) for j in range(n)]))
    if not cat.rules.lock_self:
        conds.append(NOT(locks[seat]))
    lc = SUM(ITE(x, 1, 0) for x in locks)
    probe = tab.copy()
    probe.message, probe.message_dir, probe.lockable = cls, arrow, lockable
    from .val import z

    def checked_from(j: int):
        # the first stop and the send rules, as a send by ``j`` (Player.canSendCard's receiver)
        out = [enc_first_stop_ok(tab, j, d, to, cat.rules.send_to_self) if not (is_c(to) and not 0 <= to < n) else False]
        view = SeatView(cat, probe, j)
        for group in SEND_GROUPS:
            out.append(ask(enc_send_allowed(view, group, z(d), z(lc))))
        return AND(out)
    # checked as sent by the player whose hand card it is (twin of path.send_errors: 诱敌深入), else by the sender
    if hand_of is None or (is_c(hand_of) and hand_of == seat):
        conds.append(checked_from(seat))
    elif is_c(hand_of):
        conds.append(checked_from(hand_of) if 0 <= hand_of < n else False)
    else:
        conds.append(OR([AND(EQ(hand_of, j), checked_from(j)) for j in range(n)]))
    return AND(conds)


def enc_apply_send(tab: SymTable, seat: int, cls, arrow, lockable, d, to, locks: list, face_up, from_hand: bool,
                   hand_of=None):
    """Twin of path.apply_send (OnSendCard, SendPhaseIdle); ``hand_of`` a (maybe symbolic) seat whose hand gives
    the card when not the sender's."""
    if from_hand:
        from .val import SUB
        if hand_of is None:
            s = tab.seats[seat]
            s.hand = SUB(s.hand, 1)
        else:
            tab.update(hand_of, "hand", lambda h: SUB(h, 1))
    tab.message, tab.message_dir, tab.lockable = cls, arrow, lockable
    tab.dir_sent = d
    tab.message_face_up = face_up
    tab.message_sent = True
    tab.sender = seat
    tab.in_front = to
    for j, s in enumerate(tab.seats):
        s.locked = locks[j]


def enc_pass_ok(cat, tab: SymTable, to: int):
    """Twin of path.pass_errors: the player the message is in front of lets it pass on to ``to`` (the window is
    the caller's: 传递阶段)."""
    x = tab.in_front
    must = AND(EQ(enc_receive_at(cat, tab, x), MUST), tab.at(x, lambda s: s.alive, False))
    nxt = enc_next_stop(tab)
    return AND(NE(x, NONE), NOT(must), NE(nxt, NONE), EQ(nxt, to))


def enc_accept_ok(cat, tab: SymTable):
    """Twin of path.accept_errors: the player it is in front of accepts it (goes on to 争夺阶段)."""
    x = tab.in_front
    alive = tab.at(x, lambda s: s.alive, False)
    return AND(NE(x, NONE), alive, NE(enc_receive_at(cat, tab, x), CANNOT))


def enc_receive_ok(tab: SymTable):
    """Twin of path.receive_errors (the window and whether it was received are the caller's)."""
    x = tab.in_front
    return AND(NE(x, NONE), tab.at(x, lambda s: s.alive, False))


__all__ = ["enc_first_stop_ok", "enc_next_stop", "enc_send_ok", "enc_apply_send", "enc_pass_ok", "enc_accept_ok",
           "enc_receive_ok", "enc_receive_at", "seat_value_ok", "OR"]
