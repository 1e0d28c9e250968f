"""Answering one question on a warm engine (``Run``): a yes / no / unknown ``Result`` with a minimal witness
replayed through the reference interpreter, or the minimal unsat core of the constraints that force the
answer, each mapped to catalogue lines. ``which`` questions: which.py."""
from __future__ import annotations

from typing import TYPE_CHECKING

import z3

from skillproof.model.interp.decide import decide
from skillproof.model import narrate as N
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.lang import pick
from skillproof.model.reason import Reason, at_event, join
from skillproof.model.state import State

from ..enc.bans import enc_banned_all
from ..enc.conversion import enc_conversion
from ..enc.state import WCODE
from ..enc.witness import witness
from .compile import Compiler
from .. import worklimit as W
from ..terms import add, check as _check, model_int, model_true
from .evaluate import (atom_questions, decision_of, eval_atom, eval_claim, eval_given, expect_keys,
                       fallback_question, frame)
from .present import (COULD_NOT_DECIDE, DISAGREE, NO_STATE, VACUOUS, claim_text, decided_by, dedupe, describe_item,
                      headline, no_replay, quoted, said)
from .result import Item, Result
from .syntax import Query, atoms_of
from .which import WhichRun

if TYPE_CHECKING:
    from .engine import Engine


class Run(WhichRun):
    """One question on one engine: its constraints pushed on the engine's solver for the time of ``go``."""

    def __init__(self, session, eng: Engine, q: Query):
        """``session``: the ``Session`` asking (session.py), whose catalogue, names and settings the run reads."""
        self.sess = session
        self.cat = session.cat
        self.E = eng
        self.S = eng.S
        self.q = q
        self.comp = Compiler(eng, windowed=q.windowed)
        self.solver = eng.solver

    # ---- items
    def items(self) -> tuple[list[Item], Item | None]:
        cat, S, q = self.cat, self.S, self.q
        extra: list[Item] = []
        if q.subject is not None:
            ch = cat.characters[q.subject]
            extra.append(Item("subject", pick(f"所问的角色是{ch.name}", f"the player is {ch.name}"), (ch.id,),
                              S.char[0] == S.codes.char[ch.id]))
        for g in q.givens:
            rules: tuple = ()
            if g.kind in ("with", "without"):
                rules = (g.rule,)
            elif g.kind == "grant":
                rules = tuple(dict.fromkeys((g.grant.name,) + g.grant.grants))
            extra.append(Item("given", pick(f"前提{quoted(g.text)}", f"given {quoted(g.text)}"), rules, self.comp.given(g), given=g))
        claim = None
        if q.claim is not None:
            if q.mode == "always":
                e = z3.Not(self.comp.claim(q.claim, False))
            else:
                e = self.comp.claim(q.claim, True)
            label = pick(f"问题{quoted(claim_text(q))}", f"the question {quoted(claim_text(q))}")
            # the rules behind the claim: the skills it names, and the declared card of a play (its windows)
            rules = [a.rule for a in atoms_of(q.claim) if a.rule] + \
                [a.cards[1] for a in atoms_of(q.claim) if a.kind == "play" and a.cards[1] is not None]
            claim = Item("claim", label, tuple(dict.fromkeys(rules)), e)
        for k, it in enumerate(extra + ([claim] if claim else [])):
            self.E.counter += 1
            it.lit = z3.Bool(f"__q{self.E.counter}_{k}")
        return extra, claim

    def check(self, lits):
        return _check(self.solver, *lits)

    def why_unknown(self, default: str) -> str:
        r = self.solver.reason_unknown() or default
        if r in ("canceled", "timeout"):
            return f"timeout: no answer within {self.sess.timeout_ms} ms (z3: {r})"
        return r

    # ---- main
    def go(self) -> Result:
        q = self.q
        if q.mode == "which" and q.which.kind == "params":
            return self.which_params()
        s = self.solver
        s.push()
        try:
            extra, claim = self.items()
            for it in extra + ([claim] if claim else []):
                add(s, [z3.Implies(it.lit, it.expr)])
            for e in self.S.extra:
                add(s, [e])
            base = [self.E.all_lit] + [it.lit for it in extra]
            if q.mode == "which":
                return self.which(extra, base + ([claim.lit] if claim is not None else []), claim)
            lits = base + [claim.lit]
            r = self.check(lits)
            if r == z3.unknown:
                return Result(q, "unknown", headline=said(COULD_NOT_DECIDE),
                              reason=self.why_unknown("unknown"))
            if q.mode == "exists":
                if r == z3.sat:
                    return self.found(lits, "example", "yes")
                return self.proved(extra, claim, lits, "no")
            if q.mode == "always":
                if r == z3.sat:
                    return self.found(lits, "counterexample", "no")
                return self.proved(extra, claim, lits, "yes")
            if q.mode == "never":
                if r == z3.sat:
                    return self.found(lits, "counterexample", "no")
                return self.proved(extra, claim, lits, "yes")
            raise ValueError(q.mode)
        finally:
            s.pop()

    # ---- sat: a minimal witness, replayed
    light = False          # set for the many sub-questions of a parameter enumeration
    light_status = False   # light, yet the witness is shown: its seats' status made plain (alive, face up …)

    def found(self, lits, role: str, answer: str) -> Result:
        q = self.q
        st, problem = self.replayed(self.minimize(lits) if not self.light else self.plain_status(lits))
        want = {"example": True, "counterexample": q.mode == "never"}[role]
        res = Result(q, answer, witness_role=role)
        problem = problem or self.replay_problem(st, want)
        if problem:
            return Result(q, "unknown", headline=said(DISAGREE),
                          reason=no_replay(problem))
        res.witness, res.traces = self.scenario(st)
        res.origin = N.story(self.cat, st.trace, st)
        res.headline = headline(self.cat, q, self.S, answer, role, st)
        return res

    def replayed(self, model) -> tuple[State, str]:
        """The witness of a model: its trace (enc.witness.witness), run event by event by the interpreter
        (model.interp.trace.run); the state the run reaches, with the trace, and why the trace is illegal ('' when
        it is legal)."""
        trace = witness(self.S, model).trace
        run = play_run(self.cat, trace)
        st = run.state
        st.trace = trace
        st.__dict__["_run"] = run
        return st, join(at_event(k, len(trace.events), w) for k, w in run.errors) if run.errors else ""

    def replay_problem(self, st: State, want: bool) -> Reason | str:
        """What (if anything) the interpreter finds wrong with a witness ``st`` (a ``model.reason.Reason``; ''
        when nothing): a given that does not hold, another player, or the claim (asserted when ``want``, else
        denied: evaluate.eval_claim)."""
        for g in self.q.givens:
            if not eval_given(self.cat, st, g):
                return Reason(f"前提「{g.text}」在那里不成立", f"the given `{g.text}` does not hold")
        if self.q.subject is not None and st.seats[0].character != self.q.subject:
            return Reason("座位0上不是所问的角色", "the player is not the one asked about")
        if self.q.claim is not None and \
                eval_claim(self.cat, st, self.q.claim, want, self.q.windowed) != want:
            return Reason(f"所问的情形在那里{'不成立' if want else '成立'}", f"the claim is {'false' if want else 'true'} there")
        return ""

    def scenario(self, st: State, claim_only: bool = False) -> tuple[dict, list]:
        """The witness as a scenario: its trace, and decide-form questions for every decidable atom asked at
        this moment, with the interpreter's answers; and the narrated reasoning."""
        cat = self.cat
        atoms = atoms_of(self.q.claim)
        if not claim_only:
            for g in self.q.givens:
                if g.kind == "claim":
                    atoms += atoms_of(g.claim)
        items = []
        seen = set()
        for a in atoms:
            if decision_of(a) is not None and frame(cat, st, a, self.q.windowed) is False:
                continue                  # its decision is not taken at this moment (the other side of an 'or')
            _, cards = eval_atom(cat, st, a)
            for qd in atom_questions(cat, a, cards, st):
                key = repr(sorted(qd.items()))
                if key in seen:
                    continue
                seen.add(key)
                ans = decide(cat, st, qd)
                items.append((qd, {k: ans[k] for k in expect_keys(a) if k in ans}))
        told = len(items)                 # the fallback question below is not narrated
        if not items:
            items.append(fallback_question(cat, st))
        w = {"state": st.to_dict(), "question": items[0][0], "expect": items[0][1]}
        if st.trace is not None:
            w["trace"] = st.trace.to_dict()
        if len(items) > 1:
            w["also"] = [{"question": qd, "expect": e} for qd, e in items[1:]]
        traces = [N.narrate(cat, st, qd) for qd, _ in items[:told]]
        for a in atoms:
            if a.kind == "use":
                traces.append(N.narrate_usable(cat, st, 0, a.rule, a.phase))
        return w, traces

    def minimize(self, lits, prefer=None, model=None):
        """Fewest grants, fewest seats, then plain attributes (as solve.Query does), then the smallest
        grant parameters — each preference kept only if still satisfiable. Call right after a sat check;
        returns the final model. A preference the current model already meets is kept without asking
        the solver again."""
        S = self.S
        self.model = model if model is not None else self.solver.model()
        for c in prefer or []:
            self.try_(lits, c)
        for xs in ([sl.present for sl in S.slots if not sl.initial_slot], S.present[1:]):
            if not xs:
                continue
            count = z3.Sum([z3.If(x, 1, 0) for x in xs])
            now = model_int(self.model, count)
            for k in range(now + 1):
                if self.try_(lits, count <= k):
                    break
        for whole, chunks in self.E.preferences():
            if not self.try_(lits, whole):
                for chunk, items in chunks:
                    if not self.try_(lits, chunk):
                        for c in items:
                            self.try_(lits, c)
        # the smallest hand that still works, when a hand is needed
        for c in self.E.hand_bounds:
            if self.try_(lits, c):
                break
        return self.model

    def plain_status(self, lits):
        """The light witness of a shown answer: the solver's model, with the seats' status made plain (alive,
        not locked, not invalidated, face up, nobody dying …: ``Engine.preferences``' first group) when that
        still holds, else at least its players alive (all, or as many as the question allows) — a few solver
        calls, none when the model already has it."""
        self.model = self.solver.model()
        if self.light_status:
            whole, _chunks = self.E.preferences()[0]
            alive = self.S.alive
            if not self.try_(lits, whole) and not self.try_(lits, z3.And(alive)):
                for a in alive:            # at least the players who act alive, as far as the question allows
                    self.try_(lits, a)
        return self.model

    def illustration_prefs(self) -> list:
        """For a state that illustrates a 'no': prefer one where the question gets as far as it can — the
        skill it names is held, the conversion is allowed (so that a ban shows), the cards cannot be
        played (so that the skill test shows)."""
        S = self.S
        out = []
        for a in atoms_of(self.q.claim):
            f = self.comp.frame(a)
            if f is not None:
                out.append(f)            # at the moment the question is about
            if a.rule:
                out.append(self.comp.holds(a.rule, live=False))
            if a.kind == "play" and all(c is not None for c in a.cards):
                out.append(enc_conversion(S, self.comp.card(a.cards[0]), self.comp.card(a.cards[1]))[0])
            if a.kind == "skip":
                out.append(z3.Or(S.ints["hand_count"][0] == 0, enc_banned_all(S)))
                out.append(S.ever[0])
            if a.kind == "use" and a.phase is not None:
                out.append(S.now == WCODE[a.phase])      # the window asked about, even where S is not used
        return out

    def try_(self, lits, c) -> bool:
        s = self.solver
        if model_true(self.model, c):
            add(s, [c])                               # the current model already meets it
            return True
        s.push()
        try:
            add(s, [c])                               # never a preference dropped for the machine's load: TimeSpent
            r = W.check(s, *lits, rlimit=getattr(self.sess, "rlimit", 0), run=_check)
            if r == z3.sat:
                self.model = s.model()
        finally:
            s.pop()
        if r == z3.sat:
            add(s, [c])
            return True
        return False

    # ---- unsat: the minimal core
    reasons = True         # cleared when only the answer is wanted (Session.ask(reasons=False))

    def proved(self, extra, claim, lits, answer: str) -> Result:
        q = self.q
        if not self.reasons:
            return self.proved_bare(extra, claim, answer)
        lits = [x for x in lits if not x.eq(self.E.all_lit)]
        lits = list(self.E.lits) + lits
        r = self.check(lits)                       # again, with every constraint named
        if r != z3.unsat:
            return Result(q, "unknown", headline=said(COULD_NOT_DECIDE),
                          reason=self.why_unknown("the core could not be extracted"))
        core_ids = {c.get_id() for c in self.solver.unsat_core()}
        by_id = {it.lit.get_id(): it for it in extra + ([claim] if claim else [])}
        items = []
        for lit in lits:
            if lit.get_id() not in core_ids:
                continue
            if lit.get_id() in by_id:
                items.append(by_id[lit.get_id()])
            else:
                lab = self.E.lab_of[lit.get_id()]
                items.append(Item("reach", lab.label, lab.rules, lab.expr, lit))
        core = self.minimize_core(items) if not self.light else items
        if core is None:
            return Result(q, "unknown", headline=said(COULD_NOT_DECIDE),
                          reason=self.why_unknown("timeout while minimising the core"))
        res = Result(q, answer, core=core)
        res.because = [self.describe(it) for it in core if it.kind != "claim" or it.rules]
        claim_in_core = any(it.kind == "claim" for it in core)
        if not claim_in_core and claim is not None:
            res.notes.append(said(VACUOUS))
        # an illustration: a state where the givens hold, narrated (the claim fails there for 'no',
        # holds for a proved 'always' / fails for a proved 'never')
        if claim_in_core:
            base = [self.E.all_lit] + [it.lit for it in extra]
            self.solver.push()
            try:
                r = self.check(base)
                if r == z3.sat:
                    m = self.minimize(base, prefer=self.illustration_prefs())
                    if m is not None:
                        st, problem = self.replayed(m)
                        want = q.mode == "always"
                        if not problem and eval_claim(self.cat, st, q.claim, True, q.windowed) == want and \
                                all(eval_given(self.cat, st, g) for g in q.givens):
                            res.illustration, res.illustration_traces = self.scenario(st)
                            res.illustration_origin = N.story(self.cat, st.trace, st)
                            named = {a.rule for a in atoms_of(q.claim) if a.rule}
                            for t in res.illustration_traces:
                                for step in t.steps:
                                    if step.decisive or (step.rule and step.rule in named):
                                        res.because.append(decided_by(self.cat, step))
            finally:
                self.solver.pop()
        res.because = dedupe(res.because)
        res.vacuous = not claim_in_core
        res.headline = headline(self.cat, q, self.S, answer, "proof", None) if claim is not None else \
            said(NO_STATE)
        return res

    def proved_bare(self, extra, claim, answer: str) -> Result:
        """A proof without its reasons: the answer, and whether the givens can hold at all (if they cannot,
        the answer follows from them alone — said in ``notes`` and ``vacuous``)."""
        q = self.q
        res = Result(q, answer)
        r = self.check([self.E.all_lit] + [it.lit for it in extra])
        if r == z3.unknown:
            return Result(q, "unknown", headline=said(COULD_NOT_DECIDE),
                          reason=self.why_unknown("unknown while checking the givens"))
        if r == z3.unsat:
            res.vacuous = True
            res.notes.append(said(VACUOUS))
        res.headline = headline(self.cat, q, self.S, answer, "proof", None) if claim is not None else \
            said(NO_STATE)
        return res

    def minimize_core(self, items: list[Item]):
        """Deletion-based minimisation: drop each constraint whose removal keeps the rest unsat (then
        shrink to the solver's core of the rest). Background constraints are tried first, the designer's
        own givens last. Once a constraint is found necessary it stays necessary in every subset."""
        order = {"reach": 0, "subject": 1, "given": 2, "claim": 3}
        keep = sorted(items, key=lambda it: order[it.kind])
        needed: set = set()
        changed = True
        while changed:
            changed = False
            for it in list(keep):
                if id(it) in needed:
                    continue
                trial = [x for x in keep if x is not it]
                r = self.check([x.lit for x in trial])
                if r == z3.unknown:
                    return None
                if r == z3.unsat:
                    ids = {c.get_id() for c in self.solver.unsat_core()}
                    keep = [x for x in trial if x.lit.get_id() in ids or id(x) in needed]
                    changed = True
                    break
                needed.add(id(it))
        return keep

    def describe(self, it: Item) -> dict:
        named = [gid for g in self.q.givens if g.kind == "grant" for gid in g.grant.grants]
        return describe_item(self.cat, self.S, it, named)

