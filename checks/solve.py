"""Asking the solver: find a minimal witness, or prove impossibility with the rules that forbid it.

``Query`` wraps one SymState and a solver holding its (tracked) reachability constraints. ``find(goal)``
answers ``Answer("sat")`` with a minimal witness (``.state``, read from the model on demand) — fewest
grants, then fewest seats, then the plainest attributes — or ``Answer("unsat", core=[labels…])`` naming the rules behind the impossibility,
or ``Answer("unknown", reason=…)`` on a timeout, which callers must report as inconclusive.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from skillproof.checks import z3signals  # noqa: F401 — z3 leaves the signals to Python, and stops on them

from .enc.state import NONE, SymState
from .enc.trace import reachability
from .enc.witness import witness
from . import worklimit as W
from .terms import And, Implies, Ite, Not, add, check, model_int, model_true

DEFAULT_TIMEOUT_MS = 20000


@dataclass
class Answer:
    status: str                          # sat | unsat | unknown
    model: object = None
    core: list = field(default_factory=list)     # Labelled constraints in an unsat core
    reason: str = ""
    sym: object = field(default=None, repr=False)    # the SymState the model is of (sat)
    again: object = field(default=None, repr=False)  # (sat) ask the same question with one more constraint

    @property
    def sat(self) -> bool:
        return self.status == "sat"

    @property
    def state(self):
        """The witness State (sat), read from the model when first asked for: most questions only need
        their yes or no (a z3 model stays valid after the solver moves on)."""
        if self.status != "sat" or self.model is None or self.sym is None:
            return None
        if not hasattr(self, "_state"):
            self._state = witness(self.sym, self.model)
            self._state.answer = self       # the question behind it: a witness that is no game asks again
        return self._state

    def card(self, S, var) -> str:
        """The card a card-valued variable takes in the witness."""
        return S.codes.cards[model_int(self.model, var)]


def _true(model, e) -> bool:
    return model_true(model, e)


class Query:
    def __init__(self, cat, n=3, G=2, *, timeout_ms=DEFAULT_TIMEOUT_MS, codes=None, rlimit=0, **kw):
        self.cat = cat
        self.S = SymState(cat, n=n, G=G, codes=codes, **kw)
        self.timeout_ms = timeout_ms
        self.labels = reachability(self.S)
        self.solver = z3.Solver()
        self.solver.set("timeout", timeout_ms)
        self.solver.set("random_seed", 0)
        if rlimit:
            self.solver.set("rlimit", rlimit)
        self.rlimit = rlimit
        # each constraint under its own literal, and one literal standing for all of them: the questions
        # assume that one (cheap); the individual literals are assumed only to name an unsat core
        self.tracks = {}
        lits = []
        for i, lab in enumerate(self.labels):
            t = z3.Bool(f"__track_{i}")
            self.tracks[t.get_id()] = lab
            add(self.solver, [Implies(t, lab.expr)])
            lits.append(t)
        self._lits = lits
        self._all = z3.Bool("__track_all")
        add(self.solver, [Implies(self._all, And(lits) if lits else z3.BoolVal(True))])

    # ------------------------------------------------------------------------------------------
    def find(self, goal, *, minimize=True, prefer=(), core=False) -> Answer:
        """Is ``goal`` (a z3 Bool over the SymState) possible in some reachable state? ``core``: on *no*,
        name the constraints behind it (``Answer.core``; one more solver call, so only when asked —
        otherwise ``core`` is None).

        The goal is asserted under a fresh literal, assumed by this question's calls only and switched off
        after it (rather than a push and pop): what the solver learnt about the reachability constraints
        stays for the next question."""
        s = self.solver
        if minimize:
            self._guards()
        self._asked = getattr(self, "_asked", 0) + 1
        g = z3.Bool(f"__goal_{self._asked}")
        add(s, [Implies(g, goal)])
        try:
            base = [self._all, g]
            r = check(s, *base)
            if r == z3.unsat:
                if not core:
                    return Answer("unsat", core=None)
                r = check(s, g, *self._lits)
                if r == z3.unknown:
                    return Answer("unknown", reason=s.reason_unknown())
                return Answer("unsat", core=[self.tracks[c.get_id()] for c in s.unsat_core()
                                             if c.get_id() in self.tracks])
            if r == z3.unknown:
                return Answer("unknown", reason=s.reason_unknown())
            try:
                m = self._minimize(base, prefer) if minimize else s.model()
            except W.TimeSpent:                  # the clock, not the work: no witness made less plain by it
                return Answer("unknown", reason="time budget spent while making the witness plain")
            if m is None:                        # cannot happen: every bound was checked sat
                return Answer("unknown", reason="minimisation lost the model")
            return Answer("sat", model=m, sym=self.S,
                          again=lambda extra: self.find(z3.And(goal, extra), minimize=minimize, prefer=prefer))
        finally:
            add(s, [Not(g)])

    def _check(self, s, *assumptions):
        """A minimisation step: TimeSpent when the clock (not --rlimit) stopped it (checks.worklimit)."""
        return W.check(s, *assumptions, rlimit=getattr(self, "rlimit", 0), run=check)

    def _guards(self):
        """Guarded minimisation constraints, created once per query: literal => bound / preference.
        A guard literal is free unless assumed, so they cost nothing to questions that do not use them."""
        if hasattr(self, "_g"):
            return self._g
        S, s = self.S, self.solver
        grants = [sl.present for sl in S.slots if not sl.initial_slot]
        seats = S.present[1:]
        gsum = z3.Sum([Ite(g, 1, 0) for g in grants]) if grants else z3.IntVal(0)
        ssum = z3.Sum([Ite(p, 1, 0) for p in seats]) if seats else z3.IntVal(0)
        g_lits, s_lits = [], []
        for k in range(len(grants) + 1):
            lit = z3.Bool(f"__grants_le_{k}")
            add(s, [Implies(lit, gsum <= k)])
            g_lits.append(lit)
        for k in range(len(seats) + 1):
            lit = z3.Bool(f"__seats_le_{k}")
            add(s, [Implies(lit, ssum <= k)])
            s_lits.append(lit)
        # the shortest trace first: one turn, no role replacement, no invalidation
        plain = [S.start == S.T - 1, Not(S.repl)] + [Not(S.inv_ev[s]) for s in S.inv_seats]
        if S.lost is not None:
            plain.append(Not(S.lost.present))
        plain += [S.sender_t[t] == S.owner[t] for t in range(S.T)]      # the turn player sends
        plain += [S.sender == NONE, S.in_front == NONE, S.dying == NONE]
        for i in range(S.n):
            plain += [S.alive[i], Not(S.inv[i]), Not(S.locked[i]), S.face_up[i]]
        for i in range(S.n):
            plain += [S.ident[i] == 0] + [S.ints[f][i] == 0 for f in
                                          ("black_messages", "red_messages", "blue_messages", "true_messages",
                                           "non_black_messages")]
        plain += [S.turn == 0, S.ints["hand_count"][0] == 0] + [Not(sl.used) for sl in S.slots]
        plain += [Not(v) for v in S.msg.values() if not z3.is_false(v)]
        plain += [S.message_dir == 1, Not(S.lockable)]
        p_lits = []
        for i, c in enumerate(plain):
            lit = z3.Bool(f"__plain_{i}")
            add(s, [Implies(lit, c)])
            p_lits.append(lit)
        self._g = (g_lits, s_lits, p_lits)
        return self._g

    def _minimize(self, base, prefer):
        """Tighten under the question's assumptions (``base``): fewest grants, fewest seats, then plain attributes. Returns
        the model of the last satisfiable call (it meets every bound and kept preference), or None."""
        s = self.solver
        g_lits, s_lits, p_lits = self._guards()
        S = self.S
        m = s.model()
        # seats below the table's minimum ([rules] min_seats: reachability's "at least N players") never hold
        least_seats = max(0, min(S.n, self.cat.rules.min_seats) - 1)
        for lits, vars_, lo in ((g_lits, [sl.present for sl in S.slots if not sl.initial_slot], 0),
                                (s_lits, S.present[1:], least_seats)):
            # the last model already has ``have``: only fewer need asking, and the first bound that holds
            # is the least (model-guided: the same answer as trying every bound from 0)
            have = sum(1 for v in vars_ if _true(m, v))
            for lit in lits[min(lo, have):have]:
                if self._check(s, *base, lit) == z3.sat:
                    m = s.model()
                    base = base + [lit]
                    break
            else:
                base = base + [lits[have]]
        extra = []
        for i, c in enumerate(prefer):
            lit = z3.Bool(f"__prefer_{self._asked}_{i}")
            add(s, [Implies(lit, c)])
            extra.append(lit)
        return self._prefer(base, extra + p_lits)

    def _prefer(self, base, lits):
        """Keep as many preferences as possible, earlier ones first: assume them all, and while the
        solver says no, drop the latest preference of the unsat core (a few checks, deterministic).
        Returns the model that keeps them (None if the solver gave up)."""
        s = self.solver
        active = list(range(len(lits)))
        ids = [lit.get_id() for lit in lits]          # asked of z3 once, not once a round
        while active:
            r = self._check(s, *base, *[lits[i] for i in active])
            if r == z3.sat:
                return s.model()
            if r == z3.unknown:
                break
            core = {c.get_id() for c in s.unsat_core()}
            in_core = [i for i in active if ids[i] in core]
            if not in_core:
                break
            active.remove(max(in_core))
        return s.model() if self._check(s, *base) == z3.sat else None
