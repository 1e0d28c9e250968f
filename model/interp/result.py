"""Wins and the game result: every WinSkill / ChangeGameResultSkill round the table from whose turn (note
L131-137, server WinSkill.kt, ChangeGameResultSkill.kt).

Twin: ``checks/enc/result.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import State
from .core import Env, evaluate, live_kinds


def table_order(state: State, seating=None) -> list[int]:
    """The seats round the table starting at whose turn: ``seating`` lists the seats in their order round
    the table (default: seat numbers in order)."""
    seating = list(seating) if seating is not None else list(range(len(state.seats)))
    k = seating.index(state.turn)
    return seating[k:] + seating[:k]


def game_result(cat: Catalogue, state: State, declared, winners, kind: str = "result",
                picks: dict | None = None, seating=None):
    """Apply every WinSkill (kind="win") or ChangeGameResultSkill (kind="result") round the table.

    note L131-137. Server (WinSkill.kt checkWin, ChangeGameResultSkill.kt changeGameResult): starting at
    whose turn, each seat in order, each of its skills in list order; a dead owner's *initial* skills
    are skipped. ``picks`` chooses, for an effect's ``pick``, which matching seat is taken (keyed by
    "seat/skill index/effect index"); by default the first matching seat from whose turn.
    Returns (declared, winners) as frozensets of seats.
    """
    declared, winners = set(declared), set(winners)
    kind_name = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    order = table_order(state, seating)
    for seat in order:
        s = state.seats[seat]
        for si, inst in enumerate(s.skills):
            rule = cat.skills[inst.rule]
            if kind_name not in live_kinds(cat, inst):
                continue
            if not s.alive and rule.initial:
                continue
            for ei, eff in enumerate(getattr(rule, kind)):
                apply_effect(cat, state, seat, inst, eff, declared, winners,
                             (picks or {}).get(f"{seat}/{si}/{ei}"), order)
    return frozenset(declared), frozenset(winners)


def apply_effect(cat, state, seat, inst, eff, declared: set, winners: set, pick_choice=None, order=None):
    """One effect of one skill, mutating ``declared`` and ``winners``."""
    n = len(state.seats)
    order = order if order is not None else table_order(state)

    def env_now(bound):
        e = Env(cat, state, {"self": seat, **bound}, dict(inst.args), {}, inst.used,
                frozenset(winners), frozenset(declared))
        return e

    bindings: list[dict] = [{}]
    if eff.each is not None:
        bindings = [{eff.each.var: p} for p in order if evaluate(eff.each.body, env_now({eff.each.var: p}))]
    elif eff.pick is not None:
        cands = [p for p in order if evaluate(eff.pick.body, env_now({eff.pick.var: p}))]
        if not cands:
            return
        chosen = pick_choice if pick_choice in cands else cands[0]
        bindings = [{eff.pick.var: chosen}]
    for b in bindings:
        if not evaluate(eff.when, env_now(b)):
            continue
        # all four set operations read the sets as they stood before this effect, then apply
        env = env_now(b)
        adds_w = _select(eff.winners_add, env, n)
        rem_w = _select(eff.winners_remove, env, n)
        adds_d = _select(eff.declared_add, env, n)
        rem_d = _select(eff.declared_remove, env, n)
        winners.difference_update(rem_w)
        winners.update(adds_w)
        declared.difference_update(rem_d)
        declared.update(adds_d)


def _select(lam, env: Env, n: int) -> set:
    if lam is None:
        return set()
    return {q for q in range(n) if evaluate(lam.body, env.bind(lam.var, q))}
