"""Asking the solver: find a minimal witness, or prove impossibility with the rules that forbid it.

``Query`` wraps one SymState and a solver holding its (tracked) reachability constraints. ``find(goal)``
answers ``Answer("sat", state=…)`` with a minimal witness — fewest grants, then fewest seats, then the
plainest attributes — or ``Answer("unsat", core=[labels…])`` naming the rules behind the impossibility,
or ``Answer("unknown", reason=…)`` on a timeout, which callers must report as inconclusive.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from . import encode as X

DEFAULT_TIMEOUT_MS = 20000


@dataclass
class Answer:
    status: str                          # sat | unsat | unknown
    state: object = None                 # the witness State (sat)
    model: object = None
    core: list = field(default_factory=list)     # Labelled constraints in an unsat core
    reason: str = ""

    @property
    def sat(self) -> bool:
        return self.status == "sat"


class Query:
    def __init__(self, cat, n=3, G=2, *, timeout_ms=DEFAULT_TIMEOUT_MS, codes=None, **kw):
        self.cat = cat
        self.S = X.SymState(cat, n=n, G=G, codes=codes, **kw)
        self.timeout_ms = timeout_ms
        self.labels = X.reachability(self.S)
        self.solver = z3.Solver()
        self.solver.set("timeout", timeout_ms)
        self.solver.set("random_seed", 0)
        self.tracks = {}
        for i, lab in enumerate(self.labels):
            t = z3.Bool(f"__track_{i}")
            self.tracks[t.get_id()] = lab
            self.solver.assert_and_track(lab.expr, t)

    # ------------------------------------------------------------------------------------------
    def find(self, goal, *, minimize=True, prefer=()) -> Answer:
        """Is ``goal`` (a z3 Bool over the SymState) possible in some reachable state?"""
        s = self.solver
        s.push()
        try:
            s.add(goal)
            r = s.check()
            if r == z3.unsat:
                core = [self.tracks[c.get_id()] for c in s.unsat_core() if c.get_id() in self.tracks]
                return Answer("unsat", core=core)
            if r == z3.unknown:
                return Answer("unknown", reason=s.reason_unknown())
            if minimize:
                self._minimize(prefer)
                if s.check() != z3.sat:          # cannot happen: every bound was checked sat
                    return Answer("unknown", reason="minimisation lost the model")
            m = s.model()
            return Answer("sat", state=X.witness(self.S, m), model=m)
        finally:
            s.pop()

    def _minimize(self, prefer):
        """Tighten within the current push: fewest grants, fewest seats, then plain attributes."""
        S, s = self.S, self.solver
        grants = [sl.present for sl in S.slots if not sl.initial_slot]
        for k in range(len(grants) + 1):
            c = z3.Sum([z3.If(g, 1, 0) for g in grants]) <= k if grants else z3.BoolVal(True)
            if self._try(c):
                break
        seats = S.present[1:]
        for k in range(len(seats) + 1):
            c = z3.Sum([z3.If(p, 1, 0) for p in seats]) <= k if seats else z3.BoolVal(True)
            if self._try(c):
                break
        plain = list(prefer) + [S.sender == X.NONE, S.in_front == X.NONE, S.dying == X.NONE]
        for i in range(S.n):
            plain += [S.alive[i], z3.Not(S.inv[i]), z3.Not(S.locked[i]), S.face_up[i],
                      S.ident[i] == 0, S.ints["black_messages"][i] == 0, S.ints["red_messages"][i] == 0,
                      S.ints["blue_messages"][i] == 0, S.ints["true_messages"][i] == 0,
                      S.ints["non_black_messages"][i] == 0]
        plain += [S.turn == 0, S.ints["hand_count"][0] == 0] + [z3.Not(sl.used) for sl in S.slots]
        plain += [z3.Not(v) for v in S.msg.values() if not z3.is_false(v)]
        plain += [S.message_dir == 1, z3.Not(S.lockable)]
        for c in plain:
            self._try(c)

    def _try(self, c) -> bool:
        s = self.solver
        s.push()
        s.add(c)
        r = s.check()
        s.pop()
        if r == z3.sat:
            s.add(c)
            return True
        return False
