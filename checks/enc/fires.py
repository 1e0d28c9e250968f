"""Triggered skills, symbolically: twin of ``model/interp/fires.py``.

``enc_fires``: does a state-reading trigger's effect happen now, on a question's symbolic state. For a game
(checks/enc/game.py), trigger dispatch — twin of ``fire_errors`` (server Game.dealListeningSkill,
``findEvent<E> { guard }``, Event.checkResolve): the pending events are a list of ``Pending`` entries, each present
under a condition (an effect raises an event only where its op happened) with its players and values as table
values and, per (seat, rule), whether that skill answered it already. A ``fire`` answers the *first* pending event —
by the skill's ``on`` entries in order, the events newest first — that is present, not answered by it, of a player
its ``whose`` names and whose guard holds: the answer is a selection (one condition per candidate, exactly one true
where the fire is legal).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from skillproof.model.events import EVENT_KINDS

from ..terms import And, Or
from .core import memo
from .state import NONE, WCODE, SymState
from .cond import compile_defined, params_of
from .table import SymTable, held
from .val import AND, EQ, NE, NOT, OR, is_c


@memo
def enc_fires(S: SymState, rid: str):
    """Twin of interp.fires.fires: a live slot holding ``rid``, the window one of its ``fires.at`` (untimed:
    any), its ``fires.when`` true on the player."""
    r = S.cat.skills[rid]
    if r.fires is None:
        return z3.BoolVal(False)
    win = Or([S.now == NONE] + [S.now == WCODE[w] for w in r.fires.at])
    terms = [And(slot.present, S.rule_is(slot, rid), z3.Not(S.invalid(slot)),
                    S.compile(r.fires.when, S.ctx(0, slot))) for slot in S.slots if rid in slot.candidates]
    return And(win, Or(terms)) if terms else z3.BoolVal(False)


# ===================================================================================== a game's dispatch


@dataclass
class Pending:
    kind: str
    roles: dict                       # role -> seat value (NONE: not there)
    words: dict                       # value name -> value
    present: object = True
    answered: dict = field(default_factory=dict)     # (seat, rule) -> value
    at: int = -1


def enc_holder_role_ok(on, event: Pending, seat: int):
    """Twin of fires.holder_role_ok: ``seat`` is the player of the event the skill's ``whose`` names."""
    kind = EVENT_KINDS[on.event]
    roles = event.roles
    if on.whose == ("any",):
        return True
    if on.whose in (("self",), ("other",)):
        p = roles.get(kind.principal, NONE) if kind.principal else NONE
        if on.whose == ("self",):
            return EQ(p, seat)
        return AND(NE(p, NONE), NE(p, seat))
    return OR([EQ(roles.get(r, NONE), seat) for r in on.whose])


def enc_guard_ok(cat, tab: SymTable, on, event: Pending, seat: int, inst):
    """Twin of fires.guard_ok: the guard with the event's players (and the turn player) bound; a player the event
    does not name makes it false (the interpreter's KeyError), as evaluation would reach it."""
    from .view import codes_of           # (the view imports the areas' encoders: imported where used)
    players = {"self": seat, "turn_player": tab.turn, **event.roles}
    value, defined = compile_defined(cat, codes_of(cat), tab, on.when, players, params_of(cat, codes_of(cat), inst),
                                     inst.used, event.words)
    return AND(defined, value)


def enc_fire_ok(cat, tab: SymTable, seat: int, rid: str, pending: list, on_filter=None):
    """Twin of fires.fire_errors for a concrete seat and rule held (the caller checked the seat, the rule and its
    instance): (condition under which the fire may happen, [(selected, pending index)] — the candidate events with
    the condition that each is the one answered, [] for a rule reading a state —, [(selected, entry)] — the skill-list
    entry that answers: the first live copy whose ``whose`` and guard hold, Event.checkResolve asking each copy in
    list order). Copies with the same arguments and ``used`` have the same guard: the first of them stands for all."""
    from .view import SeatView, ask, live_kinds_of
    rule = cat.skills[rid]
    live, seen = [], set()
    for inst in tab.seats[seat].skills:
        if inst.rule != rid or "TriggeredSkill" not in live_kinds_of(cat, inst):
            continue
        key = (repr(sorted(inst.args.items())), inst.used if is_c(inst.used) and held(inst) is True else id(inst))
        if key not in seen:
            seen.add(key)
            live.append(inst)
    if not live:
        return False, [], []
    s = tab.seats[seat]
    asked = OR(AND(s.alive, NOT(s.lost)), rule.has("BeforeDieSkill"), not rule.initial)
    cands = []                                   # (condition, pending index or None, entry), in the order asked
    if not rule.on and rule.fires is not None:
        for inst in live:
            cands.append((AND(held(inst), ask(enc_fires(SeatView(cat, tab, seat, insts=[inst]), rid))), None, inst))
    else:
        for inst in live:
            for on in rule.on:
                if on_filter not in (None, on.event):
                    continue
                for i in range(len(pending) - 1, -1, -1):
                    e = pending[i]
                    if e.kind != on.event:
                        continue
                    c = AND(held(inst), e.present, NOT(e.answered.get((seat, rid), False)), enc_holder_role_ok(on, e, seat),
                            enc_guard_ok(cat, tab, on, e, seat, inst))
                    if c is not False:
                        cands.append((c, i, inst))
    sel, picks, before = [], [], False
    for c, i, inst in cands:
        first = AND(c, NOT(before))
        if i is not None:
            sel.append((first, i))
        picks.append((first, inst))
        before = OR(before, c)
        if before is True:
            break
    return AND(asked, before), sel, picks
