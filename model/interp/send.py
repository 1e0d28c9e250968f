"""Sending the message: which SendMessage skill of a group is in force and what it allows (note L129,
server SendMessageSkill.kt).

Twin: ``checks/enc/send.py``.
"""
from __future__ import annotations

from ..catalogue import SEND_DEFAULT_KEYS, Catalogue
from ..state import State
from .core import env_of, evaluate, live_kinds


def send_in_force(cat: Catalogue, state: State, seat: int, group: str) -> int | None:
    """Index of the skill of SendMessage ``group`` in force for ``seat``, None for the default rule.

    note L129: of skills of the same type, the later one makes the earlier one lapse.
    Server (SendMessageSkill.kt canSendCard): ``skills.lastOrNull { it is Group }`` — an invalidated skill
    is no longer of its group, so the one before it (or the default rule) is in force again; face-down
    roles are not skipped.
    """
    found = None
    for i, inst in enumerate(state.seats[seat].skills):
        if group in live_kinds(cat, inst):
            found = i
    return found




def default_send(cat: Catalogue, state: State, seat: int, group: str, dir_: str, lock_count: int) -> bool:
    """What the default rule of ``group`` ([rules] ``send_dir`` / ``send_lock``) allows (server canSendCard with no
    skill of the group: the arrow on the card; at most one lock, only if the card has a lock mark)."""
    key = SEND_DEFAULT_KEYS.get(group)
    if key is None:
        return True
    return bool(evaluate(getattr(cat.rules, key), env_of(cat, state, seat, None, dir=dir_, lock_count=lock_count)))


def has_card_to_send(cat: Catalogue, state: State, seat: int) -> bool:
    """The seat has something to send: a hand card, or a live ActiveSkill that sends from elsewhere (冷血训练: the
    deck's top) — server phase/SendPhaseStart.kt: a sender with neither loses instead of sending. Twin:
    checks/enc/send.enc_has_card_to_send (the question compiler's can_send)."""
    from ..effects import sends_from_elsewhere
    s = state.seats[seat]
    return s.hand_count > 0 or any("ActiveSkill" in live_kinds(cat, inst) and
                                   sends_from_elsewhere(cat.skills[inst.rule].do) for inst in s.skills)


def send_allowed(cat: Catalogue, state: State, seat: int, group: str, dir_: str, lock_count: int) -> bool:
    """Does the rule in force for ``group`` allow sending in direction ``dir_`` locking ``lock_count``?"""
    i = send_in_force(cat, state, seat, group)
    if i is None:
        return default_send(cat, state, seat, group, dir_, lock_count)
    inst = state.seats[seat].skills[i]
    rule = cat.skills[inst.rule]
    return bool(evaluate(rule.send.rule, env_of(cat, state, seat, inst, dir=dir_, lock_count=lock_count)))
