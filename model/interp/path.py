"""The message's path: sent, moved seat to seat, accepted or refused, received — the server's send phase.

Server (CuteReimu/TheMessage): the sender picks a hand card, a direction, a first stop and locks
(handler/SendMessageCardTos.kt, skill/SendMessageSkill.kt ``canSendCard``); the card leaves his hand
(phase/OnSendCard.kt) and stops in front of the first stop (phase/SendPhaseIdle.kt). The player in front of it
accepts it (phase/OnChooseReceiveCard.kt → 争夺阶段) or lets it pass (handler/ChooseWhetherReceiveTos.kt): he
must accept when he is the sender or locked or a MustReceiveMessage skill says so, and may not when a skill says
he cannot (must beats cannot); a passed message moves to the nearest living player in its direction, or back to
the sender when it was sent up (phase/MessageMoveNext.kt); reaching a dead sender it is discarded and the turn
ends. After 争夺阶段 the player it is in front of receives it into his message area if alive
(phase/OnReceiveCard.kt), else it is discarded. One message is sent a turn, and it has at most one receiver.

Each function says why a step cannot happen now (a ``Reason``; '' when it can). The z3 twin is
``checks/enc/path.py`` (same names).
"""
from __future__ import annotations

from ..expr_words import DIRECTION
from ..kinds import SEND_GROUPS
from ..reason import Reason
from .table import class_of, next_alive


def _seat(n: int, v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n


def first_stop_ok(state, sender: int, direction: str, to: int, to_self: bool = False) -> bool:
    """May a message sent by ``sender`` in ``direction`` stop first in front of ``to``? Never the sender himself
    (unless ``to_self``: [rules] send_to_self) and never a dead player; left / right: the nearest living player on
    that side; up: anyone else alive (server canSendCard)."""
    if (to == sender and not to_self) or not state.seats[to].alive:
        return False
    if direction in ("left", "right"):
        return next_alive(state, sender, direction) == to
    return True


def next_stop(state) -> int | None:
    """Where a passed message goes next (server MessageMoveNext): up — back to its sender if alive; left /
    right — the nearest living player in its direction (the sender included). None: it reached a dead sender
    and is discarded (the turn ends with no receiver)."""
    d, x, sender = state.message_dir_sent, state.in_front, state.sender
    if x is None:                                 # an effect took the message off its path: it goes nowhere
        return None
    if d == "up":
        return sender if state.seats[sender].alive else None
    n = len(state.seats)
    step = -1 if d == "left" else 1
    i = x
    for _ in range(n):
        i = (i + step) % n
        if state.seats[i].alive:
            return i
        if i == sender:
            return None
    return None


def send_errors(cat, state, ev, send_allowed, hand_of: int | None = None) -> Reason | str:
    """Why ``ev`` (a ``send``) cannot happen now. ``send_allowed(cat, state, seat, group, dir, lock_count)`` is
    the send-rule decision (model/interp/send.py) read on a state whose message is the card being sent.
    ``hand_of``: whose hand the card comes from when not the sender's (诱敌深入: the user's card, sent by the turn
    player — skill/YouDiShenRu.kt deleteCard on the user, OnSendCard with whoseTurn as sender). The send is checked
    as sent by that player — its first stop (never him, his neighbour for left / right) and the send rules in force
    are his: skill/YouDiShenRu.kt validates it with ``r.canSendCard`` on the user (SendMessageSkill.kt: ``this`` is
    the player the first stop and the direction are read from), though the turn player is the message's sender."""
    n = len(state.seats)
    if state.window != "send_start":
        return Reason("只能在传递阶段开始时传出情报", "a message is sent only at the start of the send phase")
    if state.message_sent:
        return Reason("本回合已经传出过情报", "this turn's message has already been sent")
    s = ev.seat
    if not _seat(n, s) or s != state.sender_of_turn():
        return Reason("传出情报的不是本回合的传出者", "the sender is not this turn's sender")
    if not state.seats[s].alive:
        return Reason("死亡的角色不能传出情报", "a dead player sends nothing")
    h = s if hand_of is None else hand_of
    if ev.source == "hand" and (not _seat(n, h) or state.seats[h].hand_count < 1):
        return Reason(f"座位{h}没有手牌可以传出", f"seat {h} has no hand card to send")
    if class_of(ev.colours or ()) is None:
        return Reason("情报牌的颜色不对", "no message card has these colours")
    if ev.dir not in ("up", "left", "right") or ev.arrow not in ("up", "left", "right"):
        return Reason("传出方向不对", "not a direction")
    by = h                                      # whose canSendCard checks it: the hand card's owner
    if not _seat(n, ev.to) or not first_stop_ok(state, by, ev.dir, ev.to, cat.rules.send_to_self):
        return Reason(f"情报不能{DIRECTION[ev.dir][0]}传给座位{ev.to}", f"a message sent {ev.dir} cannot stop first at seat {ev.to}")
    locks = list(ev.locks or ())
    if len(set(locks)) != len(locks) or not all(_seat(n, x) and state.seats[x].alive for x in locks):
        return Reason("锁定的目标重复或已死亡", "a locked player twice, or a dead one")
    if s in locks and not cat.rules.lock_self:
        return Reason("传出者不能锁定自己", "the sender may not lock himself")
    probe = state.copy()
    probe.message, probe.message_dir, probe.message_lockable = frozenset(ev.colours), ev.arrow, bool(ev.lockable)
    for group in SEND_GROUPS:
        if not send_allowed(cat, probe, by, group, ev.dir, len(locks)):
            return Reason("传出情报的规则不允许这样传（方向、锁定或这张牌）",
                          "the send rules in force do not allow this send (direction, locks or card)")
    return ""


def apply_send(state, ev, hand_of: int | None = None) -> None:
    """The message leaves the sender's hand (``hand_of``'s, when an effect says so) and stops in front of its
    first stop (OnSendCard, SendPhaseIdle)."""
    if ev.source == "hand":
        state.seats[ev.seat if hand_of is None else hand_of].hand_count -= 1
    state.message, state.message_dir, state.message_lockable = frozenset(ev.colours), ev.arrow, bool(ev.lockable)
    state.message_dir_sent = ev.dir
    state.message_face_up = bool(ev.face_up)
    state.message_sent = True
    state.sender = ev.seat
    state.in_front = ev.to
    for i, seat in enumerate(state.seats):
        seat.locked = i in set(ev.locks or ())


def pass_errors(cat, state, to: int, receive) -> Reason | str:
    """Why the player the message is in front of cannot let it pass on to ``to`` now. ``receive`` is the
    receive decision (model/interp/receive.py: 'must' / 'cannot' / 'free')."""
    x = state.in_front
    if state.window != "send" or x is None:
        return Reason("情报不在传递中", "no message is being passed")
    if receive(cat, state, x) == "must" and state.seats[x].alive:
        return Reason(f"座位{x}必须接收这份情报，不能让它传下去", f"seat {x} must accept the message: it cannot pass on")
    nxt = next_stop(state)
    if nxt is None:
        return Reason("情报回到已死亡的传出者处：被弃置，没有下一站", "the message reached its dead sender: it is discarded")
    if nxt != to:
        return Reason(f"情报的下一站是座位{nxt}，不是座位{to}", f"the message goes on to seat {nxt}, not seat {to}")
    return ""


def accept_errors(cat, state, receive) -> Reason | str:
    """Why the player the message is in front of cannot accept it now (go on to 争夺阶段)."""
    x = state.in_front
    if state.window != "send" or x is None:
        return Reason("情报不在传递中", "no message is being passed")
    if not state.seats[x].alive:
        return Reason(f"座位{x}已死亡", f"seat {x} is dead")
    if receive(cat, state, x) == "cannot":
        return Reason(f"座位{x}不能接收这份情报", f"seat {x} cannot accept the message")
    return ""


def receive_errors(state, window: str | None = None) -> Reason | str:
    """Why the message cannot be received now (after 争夺阶段, by the player it is in front of). ``window``: the window
    the turn is in — for a 濒死求澄清 window, the one it interrupted (server: the dying are dealt with and the fight
    phase goes on, FightPhaseNext → OnReceiveCard, with no event of its own in between)."""
    if (window or state.window) != "fight" or state.in_front is None:
        return Reason("只有争夺阶段之后才接收情报", "a message is received only after the fight phase")
    if not state.message_sent or class_of(state.message) is None:
        return Reason("没有传出的情报可以接收", "no message was sent to receive")
    if state.message_received:
        return Reason("本回合已经有人接收了情报", "someone has already received this turn's message")
    if not state.seats[state.in_front].alive:
        return Reason("情报面前的角色已死亡：情报被弃置", "the player it is in front of is dead: it is discarded")
    return ""


def user_in_front_errors(cat, state, given: list, turn: int) -> Reason | str:
    """The timed model's share of the path (it has no send, only who the message is in front of): a message an effect
    sends from its user's hand in another player's name (``effects.sends_users_card``: 诱敌深入) never stops first in
    front of its user (skill/YouDiShenRu.kt checks the send on the user), and stopped first in front of its sender it
    stays there (MustReceiveMessage.kt: ``inFrontOfWhom === sender`` must receive) — so with only the two of them alive
    the user is never in front of it in 传递阶段. ``given``: the trace's gives (k, turn, window, giver, seat, site); the
    user is a giver of such a skill's site handed out on its use in ``turn``. Twin: checks/enc/trace.py
    ``_user_in_front``."""
    from ..effects import sends_users_card
    from .grants import site_of
    u = state.in_front
    if state.window != "send" or not _seat(len(state.seats), u) or u == state.sender:
        return ""
    if sum(1 for s in state.seats if s.alive) > 2:
        return ""
    for _, t, _, giver, _, site in given:
        give = site_of(cat, site)
        if t != turn or giver != u or give is None or give.giver_is_card or give.on != "use":
            continue
        rule = cat.skills.get(give.giver)
        if rule is not None and sends_users_card(rule.do):
            return Reason(f"座位{u}用{rule.label}传出的情报不会先到他面前；先到传出者面前就由传出者收下：只有他们两人存活时，"
                          f"它在传递阶段不会到座位{u}面前",
                          f"the message seat {u} sent with {rule.name} never stops first in front of him, and stopped "
                          f"in front of its sender it stays there: with only the two of them alive it never comes in "
                          f"front of seat {u} in the send phase")
    return ""
