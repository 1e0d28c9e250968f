"""Questions about a state, the form witnesses and scenario files use: ``decide`` hands a question to the
decision area that answers it; ``matches`` compares an answer with what a finding claims.

This is the top of the interpreter: it imports every area, none imports it.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import SkillInst, State
from .bans import banned
from .conversion import conversion
from .draw import draw_count
from .fires import fires
from .grants import grant_matters
from .lifetime import turn_end
from .plays import can_play, has_card, plays, resolves
from .receive import receive, receive_parts
from .remind import remind_parts, reminds
from .result import game_result
from .send import has_card_to_send, send_allowed, send_in_force
from .skip import could_act_dying, could_act_fight, skip_dying, skip_fight
from .snapshot import reachable


def decide(cat: Catalogue, state: State, question: dict) -> dict:
    """Answer a question about ``state`` — the form witnesses and scenario files use.

    ``question["decision"]`` is one of: conversion (actual, declared), banned (declared), can_play
    (actual, declared), resolves (declared), fires (rule), receive, send (group, dir, lock_count), skip_fight, skip_dying, draw, reachable,
    turn_end, result (kind, declared, winners, picks), remind (already, rule), table (the seat's place at the
    table of a game: alive, dying, a winner, its message counts and hand, whether it received this turn's message).
    ``seat`` defaults to 0.
    """
    d = question["decision"]
    seat = question.get("seat", 0)
    if d == "reachable":
        why = reachable(cat, state)
        return {"reachable": not why, "why_not": why}
    if d == "conversion":
        c = conversion(cat, state, seat, question["actual"], question["declared"],
                       question.get("only_must", False))
        via = state.seats[seat].skills[c.via].rule if c.via is not None else None
        # whether he holds a card to convert at all is told beside the rule's answer (a witness must show one)
        return {"ok": c.ok, "via": via, "via_index": c.via, "has_card": has_card(state, seat)}
    if d == "plays":
        return plays(cat, state, question["skill"], question.get("user", 0), seat, question["actual"],
                     question["declared"])
    if d == "matters":
        inst = SkillInst(question["rule"], {k: (tuple(v) if isinstance(v, list) else v)
                                            for k, v in question.get("args", {}).items()})
        return {"matters": grant_matters(cat, state, seat, inst)}
    if d == "banned":
        return {"banned": banned(cat, state, seat, question["declared"])}
    if d == "resolves":
        return resolves(cat, state, seat, question["declared"])
    if d == "fires":
        return fires(cat, state, seat, question["rule"])
    if d == "can_play":
        return {"can_play": can_play(cat, state, seat, question["actual"], question["declared"]),
                "banned": banned(cat, state, seat, question["declared"]), "has_card": has_card(state, seat)}
    if d == "receive":
        if "message" in question:          # the same moment with another message card
            state = state.copy()
            state.message = frozenset(question["message"])
        must, cannot = receive_parts(cat, state, seat)
        return {"receive": receive(cat, state, seat), "must": must, "cannot": cannot}
    if d == "send":
        g = question["group"]
        i = send_in_force(cat, state, seat, g)
        out = {"in_force": state.seats[seat].skills[i].rule if i is not None else None, "in_force_index": i}
        if "dir" in question:
            # the send rule's answer; whether there is anything to send at all is told beside it (ask's claim needs both)
            out["allowed"] = send_allowed(cat, state, seat, g, question["dir"], question.get("lock_count", 0))
            out["has_card"] = has_card_to_send(cat, state, seat)
        return out
    if d == "skip_fight":
        return {"skip": skip_fight(cat, state, seat), "could_act": could_act_fight(cat, state, seat)}
    if d == "skip_dying":
        return {"skip": skip_dying(cat, state, seat), "could_act": could_act_dying(cat, state, seat)}
    if d == "draw":
        return {"draw": draw_count(cat, state, seat)}
    if d == "remind":
        # ending 出牌阶段: which MainPhaseSkills prompt, and which the player could still use then
        out = reminds(cat, state, seat, question.get("already", False))
        parts = remind_parts(cat, state, seat)
        out["usable"] = [r for r, v in parts.items() if v["usable"]]
        if "rule" in question:          # about one MainPhaseSkill: does it prompt, could it be used now
            got = parts.get(question["rule"], {"remind": False, "usable": False})
            out["prompts"] = got["remind"] and not question.get("already", False)
            out["usable_now"] = got["usable"]
        return out
    if d == "holds":
        insts = [i for i in state.seats[seat].skills if i.rule == question["rule"]]
        return {"holds": bool(insts), "live": any(not i.invalid for i in insts),
                "invalidated": state.seats[seat].invalidated or any(i.invalid for i in state.seats[seat].skills),
                "turns_ago": max((i.turns_ago for i in insts), default=0)}
    if d == "turn_end":
        after = turn_end(cat, state)
        return {"skills": [{"rule": i.rule, "invalid": i.invalid} for i in after.seats[seat].skills]}
    if d == "table":
        from .table import area_of, counts
        s = state.seats[seat]
        out = {"alive": s.alive, "dying": s.alive and state.window == "dying" and state.dying == seat,
               "winner": state.winners is not None and seat in state.winners,
               "game_over": state.winners is not None, "identity": s.identity, "task": s.task,
               "hand_count": s.hand_count,
               "received": bool(state.message_received) and state.in_front == seat}
        out.update(counts(area_of(s) or {}))
        return out
    if d == "result":
        st = state.copy()
        if "turn" in question:
            st.turn = question["turn"]
        dec, win = game_result(cat, st, question.get("declared", ()), question.get("winners", ()),
                               question.get("kind", "result"), question.get("picks"), question.get("seating"))
        return {"declared": sorted(dec), "winners": sorted(win)}
    raise ValueError(f"unknown decision '{d}'")


def matches(answer: dict, expect: dict) -> bool:
    """Does an answer show what a finding claims (every expected key equal)?"""
    return all(answer.get(k) == v for k, v in expect.items())
