"""Triggered skills: when a TriggeredSkill fires — which pending event it answers, whether its holder is asked at
all — and, for a rule that reads a state rather than an event, whether its ``fires`` holds now.

Server (CuteReimu/TheMessage): a phase raises an event (``Game.addEvent``); at the next process node
``Game.dealListeningSkill`` offers every pending event to the TriggeredSkills seat by seat from the turn player —
a living player's skills, and a dead player's BeforeDieSkills and granted skills (design note: BeforeDieSkill
fires without its holder alive) — each skill finding the kind it answers with ``findEvent<E> { guard }``, once per
event (``Event.checkResolve``). An invalidated skill is an InvalidSkill, no TriggeredSkill: it answers nothing.
Whether to use a skill that is offered is its holder's choice, so a ``fire`` event says which skill answers which
pending event; the effect it then does is its ``do`` (model/interp/ops.py).

``详尽思索·押注`` reads the receive phase as a state, not an event (``fires``): it may fire while the message is being
received. The z3 twin is ``checks/enc/fires.py`` (same names).
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..events import EVENT_KINDS, dispatched
from ..reason import Reason
from ..state import State
from .core import Env, env_of, evaluate, live_kinds


def fires(cat: Catalogue, state: State, seat: int, rule_id: str) -> dict:
    """Does the effect of the TriggeredSkill ``rule_id`` the player holds happen now, as far as its ``fires``
    says: a live instance, the window one of ``fires.at`` (an untimed state: any), ``fires.when`` true on
    its holder (``used``: it fired already this turn)."""
    rule = cat.skills[rule_id]
    if rule.fires is None:
        return {"fires": False}
    for inst in state.seats[seat].skills:
        if inst.rule != rule_id or inst.invalid:
            continue
        if state.window is not None and state.window not in rule.fires.at:
            continue
        if evaluate(rule.fires.when, env_of(cat, state, seat, inst)):
            return {"fires": True}
    return {"fires": False}


def holder_role_ok(on, event: dict, seat: int) -> bool:
    """Is ``seat`` the player of the event the skill's ``whose`` says (``self``: its principal; ``other``: not its
    principal; roles: one of them; ``any``: anyone)?"""
    kind = EVENT_KINDS[on.event]
    roles = event["roles"]
    if on.whose == ("any",):
        return True
    if on.whose in (("self",), ("other",)):
        p = roles.get(kind.principal) if kind.principal else None
        return (p == seat) if on.whose == ("self",) else (p is not None and p != seat)
    return any(roles.get(r) == seat for r in on.whose)


def guard_ok(cat, st, on, event: dict, seat: int, inst) -> bool:
    """The skill's guard on the event: its ``when`` with the event's players bound (and the turn player)."""
    env = env_of(cat, st, seat, inst, **event.get("words", {}))
    players = {"turn_player": st.turn, **{r: s for r, s in event["roles"].items() if isinstance(s, int)}}
    for var, s in players.items():
        env = env.bind(var, s)
    try:
        return bool(evaluate(on.when, env))
    except (KeyError, TypeError):
        return False


def fire_errors(cat, st, ev, pending: list) -> tuple:
    """(why ``ev`` — a ``fire`` — cannot happen now, or ''; the pending event it answers, or None; the skill-list
    entry that answers, or None). A seat may hold the same skill twice (a grant handed out twice): the server's
    Game.dealListeningSkill asks its skills in list order, each once per event (Event.checkResolve), so the *first*
    live copy whose ``whose`` and guard hold answers — a copy whose guard is false leaves the event to the next."""
    n = len(st.seats)
    if not (isinstance(ev.seat, int) and 0 <= ev.seat < n) or ev.rule not in cat.skills:
        return Reason("发动技能：不是座位，或没有这个技能", "fire: not a seat, or no such skill"), None, None
    rule = cat.skills[ev.rule]
    seat = st.seats[ev.seat]
    insts = [i for i in seat.skills if i.rule == ev.rule]
    if not insts:
        return Reason(f"座位{ev.seat}没有{rule.label}", f"seat {ev.seat} does not hold {rule.name}"), None, None
    live = [i for i in insts if "TriggeredSkill" in live_kinds(cat, i)]
    if not live:
        return (Reason(f"{rule.label}已被无效，或不是触发技", f"{rule.name} is invalidated, or not a triggered skill"),
                None, None)
    if not dispatched(seat.alive and not seat.lost, rule.has("BeforeDieSkill"), rule.initial):
        return (Reason(f"座位{ev.seat}已死亡：{rule.label}不会被询问", f"seat {ev.seat} is dead: {rule.name} is not asked"),
                None, None)
    if not rule.on and rule.fires is not None:                 # a state, not an event (详尽思索·押注)
        if st.window in rule.fires.at:
            for inst in live:
                if evaluate(rule.fires.when, env_of(cat, st, ev.seat, inst)):
                    return "", None, inst
        return Reason(f"{rule.label}现在不会发动", f"{rule.name} does not fire now"), None, None
    for inst in live:
        for on in rule.on:
            if ev.on not in (None, on.event):
                continue
            for event in reversed(pending):
                if event["kind"] != on.event or (ev.seat, ev.rule) in event["answered"]:
                    continue
                if holder_role_ok(on, event, ev.seat) and guard_ok(cat, st, on, event, ev.seat, inst):
                    return "", event, inst
    return Reason(f"没有{rule.label}能回应的事件（时机、谁的事件或条件不符，或已回应过）",
                  f"no pending event {rule.name} answers (its event, whose it is or its guard, or it answered already)"), \
        None, None
