"""Wins and the game result, symbolically: twin of ``model/interp/result.py`` (note L131-137, server
WinSkill.kt, ChangeGameResultSkill.kt) for a concrete turn and seating.
"""
from __future__ import annotations

import z3

from ..terms import And, Or
from .state import Ctx, SymState, _compile


def result_holders(S: SymState, kind: str, seat_chars: dict) -> dict:
    """For the result pass: seat -> [(live, rule id, skill index, used)] of its rules of ``kind``
    ("win" / "result"). Seat 0 uses its symbolic slots; other seats hold their character's initial
    skills (``seat_chars[seat]`` fixes which character). ``used`` is what the effects read as ``used`` (the
    interpreter reads the copy's flag): the slot's own for seat 0, for another seat's skill a Bool of its own,
    ``{S.p}result_used_{seat}_{index}``, left free (a caller that knows the table pins it)."""
    kname = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    out = {}
    for s in range(S.n):
        lst = []
        if s == 0:
            for sl in S.slots:
                for rid in S.rules_with(sl, kname):
                    lst.append((S.live_rule(sl, rid, kname), rid, ("slot", sl.index), sl.used))
        elif s in seat_chars:
            ch = S.cat.characters[seat_chars[s]]
            for i, rid in enumerate(ch.skills):
                r = S.cat.skills[rid]
                if kname in r.closure:
                    live = z3.Not(S.inv[s]) if r.initial else z3.BoolVal(True)
                    lst.append((live, rid, ("list", i), z3.Bool(f"{S.p}result_used_{s}_{i}")))
        out[s] = lst
    return out


def enc_result_pass(S: SymState, kind: str, turn: int, holders: dict, declared, winners, tag: str,
                    seating=None):
    """Twin of interp.result.game_result for a concrete ``turn`` (and seating round the table): returns
    (declared, winners, picks), the sets as lists of z3 Bools per seat and the pick variables
    {(seat, skill, effect): (var, cands)}."""
    cat = S.cat
    D, W = list(declared), list(winners)
    picks = {}
    seating = list(seating) if seating is not None else list(range(S.n))
    k0 = seating.index(turn)
    order = seating[k0:] + seating[:k0]
    for s in order:
        for live, rid, where, used in holders.get(s, []):
            r = cat.skills[rid]
            guard = And(S.present[s], live, Or(S.alive[s], z3.BoolVal(not r.initial)))
            for ei, eff in enumerate(getattr(r, kind)):
                D, W, pk = _enc_effect(S, s, eff, guard, D, W, order, f"{tag}_{s}_{rid}_{ei}", turn, used)
                if pk is not None:
                    picks[(s, rid, ei)] = pk
    return D, W, picks


def _set_of(S: SymState, lam, ctx: Ctx):
    if lam is None:
        return [z3.BoolVal(False)] * S.n
    return [And(S.present[q], _compile(lam.body, ctx.bind(lam.var, q))) for q in range(S.n)]


def _enc_effect(S, s, eff, guard, D, W, order, tag, turn, used):
    """One effect of a rule seat ``s`` holds: ``used`` is that copy's flag (``self.used`` in the effect's expressions)."""
    base = Ctx(S, {"self": s}, {}, {}, used, list(W), list(D), turn=turn)
    bindings = [({}, z3.BoolVal(True))]
    pick = None
    if eff.each is not None:
        bindings = [({eff.each.var: p}, And(S.present[p], _compile(eff.each.body, base.bind(eff.each.var, p))))
                    for p in order]
    elif eff.pick is not None:
        cands = [And(S.present[p], _compile(eff.pick.body, base.bind(eff.pick.var, p))) for p in range(S.n)]
        pv = z3.Int(f"{S.p}pick_{tag}")
        pick = (pv, cands)
        any_c = Or(cands)
        S.extra.append(z3.Implies(any_c, Or([And(pv == p, cands[p]) for p in range(S.n)])))
        bindings = [({eff.pick.var: p}, And(any_c, pv == p)) for p in range(S.n)]
    for bound, sel in bindings:
        ctx = Ctx(S, {"self": s, **bound}, {}, {}, used, list(W), list(D), turn=turn)
        fire = And(guard, sel, _compile(eff.when, ctx))
        aw, rw = _set_of(S, eff.winners_add, ctx), _set_of(S, eff.winners_remove, ctx)
        ad, rd = _set_of(S, eff.declared_add, ctx), _set_of(S, eff.declared_remove, ctx)
        W = [z3.If(fire, Or(And(W[q], z3.Not(rw[q])), aw[q]), W[q]) for q in range(S.n)]
        D = [z3.If(fire, Or(And(D[q], z3.Not(rd[q])), ad[q]), D[q]) for q in range(S.n)]
    return D, W, pick
