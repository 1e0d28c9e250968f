"""``Engine``: one symbolic state shape with its reachability constraints in a z3 solver, kept warm (a
``Session``, session.py, keeps several and asks its questions on them)."""
from __future__ import annotations

import z3

from skillproof.checks import z3signals  # noqa: F401 — z3 leaves the signals to Python, and stops on them

from ..enc.state import NONE, WCODE, SymState
from ..enc.trace import reachability
from ..terms import And, Or, add

DEFAULT_SEATS = 3
DEFAULT_GRANTS = 2
DEFAULT_TIMEOUT_MS = 10000
DEFAULT_TURNS = 2          # a witness trace spans the turn of the question and the one before it


class Engine:
    """One symbolic state shape with its reachability constraints in a solver, kept warm."""

    def __init__(self, cat, chars_me, grants, n, G, codes, timeout_ms, chars_other=None, turns: int = DEFAULT_TURNS,
                 rlimit: int = 0, plays: int | None = None):
        self.cat = cat
        self.key = (tuple(chars_me), tuple(grants), n, G, turns, plays)
        self.S = SymState(cat, n=n, G=G, chars_me=chars_me, chars_other=chars_other, grants=list(grants),
                            codes=codes, turns=turns, plays=plays)
        self.labels = reachability(self.S)
        self.solver = z3.Solver()
        self.solver.set("timeout", timeout_ms)
        self.solver.set("random_seed", 0)
        if rlimit:
            self.solver.set("rlimit", rlimit)
        self.lits: list = []
        self.lab_of: dict = {}
        for i, lab in enumerate(self.labels):
            lit = z3.Bool(f"__reach_{i}")
            add(self.solver, [z3.Implies(lit, lab.expr)])
            self.lits.append(lit)
            self.lab_of[lit.get_id()] = lab
        # one literal standing for all of them: cheap to pass while looking for a witness; the
        # individual literals are used only to extract and minimise an unsat core
        self.all_lit = z3.Bool("__reach_all")
        add(self.solver, [z3.Implies(self.all_lit, And(self.lits))])
        self.counter = 0

    def set_timeout(self, ms: int):
        self.solver.set("timeout", ms)

    def preferences(self):
        """The plain-witness preferences, built once: [(all of a group, [(chunk, [items])])]: special
        statuses first (a witness should show the rule, not a side mechanism), then the details, then
        the smallest grant parameters."""
        if getattr(self, "_prefs", None) is None:
            S = self.S
            status = [S.sender == NONE, S.in_front == NONE, S.dying == NONE,
                      Or(S.sender == NONE, S.sender == S.turn)]      # the turn player sends
            for i in range(S.n):
                status += [z3.Not(S.locked[i]), z3.Not(S.inv[i]), S.alive[i], S.face_up[i]]
            # a plain trace: it starts in the question's turn, with no role replacement, no invalidation of
            # another seat, nothing happening while someone is dying
            plain = [S.start == S.T - 1, z3.Not(S.repl), S.now != WCODE["dying"]]
            plain += [z3.Not(S.inv_ev[i]) for i in range(1, S.n)]
            plain += [sl.m.w != WCODE["dying"] for sl in S.slots if not sl.initial_slot]
            plain += [S.inv_m[0].w != WCODE["dying"]]
            plain += [S.turn == 0, S.ints["hand_count"][0] == 0]
            plain += [S.sender_t[t] == S.owner[t] for t in range(S.T)]      # the turn player sends (as solve.py)
            plain += [z3.Not(sl.used) for sl in S.slots]
            plain += [z3.Not(v) for v in S.msg.values() if not z3.is_false(v)]
            plain += [S.message_dir == 1, z3.Not(S.lockable)]
            for i in range(S.n):
                plain += [S.ident[i] == 0]
                plain += [S.ints[f][i] == 0 for f in ("black_messages", "red_messages", "blue_messages",
                                                        "true_messages", "non_black_messages")]
                if i > 0:
                    plain.append(S.ints["hand_count"][i] == 0)
            params = []
            for sl in S.slots:
                for v in sl.params.values():
                    if isinstance(v, dict):
                        params += [z3.Not(b) for b in v.values()]
                    elif z3.is_bool(v):
                        params.append(z3.Not(v))
            self._prefs = [(And(g), [(And(c), c) for c in _chunks(g, 6)])
                           for g in (status, plain, params) if g]
            self.hand_bounds = [S.ints["hand_count"][0] <= k for k in (1, 2, 3)]
        return self._prefs


def _chunks(xs, k):
    for i in range(0, len(xs), k):
        yield xs[i:i + k]
