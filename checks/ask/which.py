"""Answering ``which`` questions: every value one decision can take (which conversion fires, the send rule
in force, the draw count, the receive obligation), each with its own minimal witness; and ``which G
declarations …``, the claim tried under each parameter value a grant's gives sites allow. A part of
answer.Run."""
from __future__ import annotations

import z3

from skillproof.model import narrate as N
from skillproof.model.lang import pick
from skillproof.model.reason import Reason

from ..enc.conversion import enc_conversion
from ..enc.draw import enc_draw_count
from ..enc.receive import CANNOT, FREE, MUST, enc_receive
from ..enc.send import enc_send_in_force
from ..enc.state import NONE
from ..enc.windows import enc_at_decision
from .evaluate import eval_claim
from .present import COULD_NOT_DECIDE, DISAGREE, args_text, claim_text, no_replay, quoted, said
from .result import Item, Result
from .syntax import Atom, BoolOp, Given, GrantRef, Not, Query, Which

#: a 'which' lists at most this many answers
MAX_VALUES = 8
#: the decision a 'which' lists the answers of, where it is taken at a moment of its own (model.turn)
WHICH_DECISION = {"send": "send", "draw": "draw", "receive": "receive"}


class WhichRun:
    """The 'which' questions of answer.Run (its solver, engine, minimisation and replay)."""

    # ---- which
    def which(self, extra, base, claim=None) -> Result:
        q, S, cat = self.q, self.S, self.cat
        C = S.codes
        w = q.which
        term, card_vars, decode, atom_for = self.which_term(w)
        values = []
        blocked = []
        lits = list(base)
        moment = self.moment_item(w)
        if moment is not None:              # the decision is read where it is taken: a constraint of its own,
            self.solver.add(z3.Implies(moment.lit, moment.expr))     # named in a proof that it never is
            lits.append(moment.lit)
        self.solver.push()
        try:
            for _ in range(MAX_VALUES):
                r = self.check(lits)
                if r == z3.unknown:
                    if values:
                        break
                    return Result(q, "unknown", headline=said(COULD_NOT_DECIDE),
                                  reason=self.why_unknown("unknown"))
                if r == z3.unsat:
                    break
                m0 = self.solver.model()                 # (a push forgets the last model)
                self.solver.push()
                try:
                    m = self.minimize(lits, model=m0)
                    v = m.eval(term, model_completion=True).as_long()
                    cards = tuple(C.cards[m.eval(x, model_completion=True).as_long()] for x in card_vars)
                    st, problem = self.replayed(m)
                finally:
                    self.solver.pop()
                self.solver.add(term != v)
                blocked.append(v)
                value, name = decode(v, st)
                atom, info = atom_for(value, cards)
                problem = problem or self.replay_problem(st, True)
                if not problem and not eval_claim(cat, st, atom, True, self.q.windowed):
                    problem = Reason(f"解释器在那里得出的不是{name}", f"the interpreter does not give {name} there")
                if problem:
                    return Result(q, "unknown", headline=said(DISAGREE),
                                  reason=no_replay(problem))
                kept = self.q.claim
                self.q.claim = BoolOp("and", [atom] + info) if info else atom
                try:
                    wd, traces = self.scenario(st)
                finally:
                    self.q.claim = kept
                entry = {"value": value, "name": name, "witness": wd, "traces": traces,
                         "origin": N.story(cat, st.trace, st)}
                if w.kind == "conversion":
                    entry["cards"] = list(cards)
                    entry["name"] = pick(f"{name}（{N.card(cat, cards[0])}当作{N.card(cat, cards[1])}）",
                                         f"{name} ({N.card(cat, cards[0])} as {N.card(cat, cards[1])})") \
                        if None in w.cards else name
                values.append(entry)
        finally:
            self.solver.pop()
        if not values:
            # no value at a moment where the decision is taken: the givens rule that moment out (or the
            # decision has no value at all) — a proof, with the moment among its constraints
            r = self.check(lits)
            if r != z3.unsat:
                return Result(q, "unknown", headline=said(COULD_NOT_DECIDE),
                              reason=self.why_unknown("unknown"))
            res = self.proved(extra + ([moment] if moment is not None else []), claim, lits, "no")
            if w.kind == "player" and res.answer == "no":
                res.headline = pick(f"否——没有角色能：{quoted(claim_text(q))}", f"no — no player can: {quoted(claim_text(q))}")
            if moment is not None and res.answer == "no":
                res.headline = pick(f"否——在这些前提下，{moment.label}的时刻不会出现",
                                    f"no — under these givens there is no moment where {moment.label}")
            return res
        res = Result(q, "yes", values=values)
        names = pick("；", ", ").join(v["name"] for v in values)
        more = pick(f"（可能还有更多：列表最多{MAX_VALUES}项）", f" (and possibly more: the list stops at {MAX_VALUES})") \
            if len(values) == MAX_VALUES else ""
        res.headline = pick(f"{len(values)}种可能的答案：{names}{more}",
                            f"{len(values)} possible answer{'s' if len(values) != 1 else ''}: {names}{more}")
        res.witness = values[0]["witness"]
        res.witness_role = "example"
        res.traces = values[0]["traces"]
        return res

    def which_params(self) -> Result:
        """For each parameter value the gives sites allow: can the claim hold with the grant so declared?"""
        q, cat = self.q, self.cat
        w = q.which
        gr = w.grant
        name = cat.name_of(gr.grants[0]) if len(gr.grants) == 1 else cat.name_of(gr.name)
        values = []
        first_yes = None
        for combo in w.combos:
            args = dict(gr.args)
            args.update(combo)
            desc = args_text(cat, args)
            g2 = GrantRef(gr.name, gr.grants, gr.sites, args, False, ())
            given = Given("grant", w.col, w.end, pick(f"在{name}（{desc}）下", f"under {name}({desc})"), grant=g2)
            sub = Query(q.text, "exists", q.subject, claim=q.claim, givens=list(q.givens) + [given],
                        subject_col=q.subject_col)
            run = type(self)(self.sess, self.E, sub)
            run.light = first_yes is not None
            run.light_status = True          # every value's witness is listed (and may be saved, replayed)
            r = run.go()
            if r.answer == "unknown":
                return Result(q, "unknown", headline=said(COULD_NOT_DECIDE), reason=r.reason)
            entry = {"value": {p: v[1] if v[0] != "set" else list(v[1]) for p, v in combo.items()}, "name": desc,
                     "answer": r.answer, "witness": r.witness if r.answer == "yes" else None,
                     "illustration": r.illustration if r.answer == "no" else None,
                     "because": r.because, "traces": r.traces if r.answer == "yes" else r.illustration_traces,
                     "origin": r.origin if r.answer == "yes" else r.illustration_origin}
            values.append(entry)
            if r.answer == "yes" and first_yes is None:
                first_yes = r
        yes = [v for v in values if v["answer"] == "yes"]
        no = [v for v in values if v["answer"] == "no"]
        res = Result(q, "yes" if yes else "no", values=values)
        claim = claim_text(q)
        res.headline = pick(f"{name}：{quoted(claim)}在其给出处允许的{len(values)}种宣言中有{len(yes)}种成立"
                            + (f"；不成立的：{'；'.join(v['name'] for v in no)}" if no else ""),
                            f"{name}: {quoted(claim)} holds for {len(yes)} of the {len(values)} declarations its gives "
                            f"site allows" + (f"; not for {'; '.join(v['name'] for v in no)}" if no else ""))
        if first_yes is not None:
            res.witness, res.witness_role, res.traces = first_yes.witness, "example", first_yes.traces
            res.origin = first_yes.origin
        return res

    def moment_item(self, w: Which) -> Item | None:
        """Where the decision a 'which' lists is taken (model.turn.DECISION_WINDOWS), as a tracked constraint
        (None: a decision with no moment of its own, such as a conversion)."""
        from skillproof.model import turn as TW
        d = WHICH_DECISION.get(w.kind)
        if d is None:
            return None
        wins, actor = TW.DECISION_WINDOWS[d]
        zw = "或".join(TW.WINDOWS[x].zh for x in wins)
        ew = " or ".join("at the start of the send phase" if x == "send_start" else f"in the {TW.WINDOW_EN[x]}"
                         for x in wins)
        what = {"send": ("传出规则", "the send rules are read"), "draw": ("摸牌数", "the draw count is read"),
                "receive": ("是否接收", "the receive choice is made")}[w.kind]
        label = pick(f"{what[0]}在{zw}由{TW.ACTORS[actor][0]}判定", f"{what[1]} {ew}, by {TW.ACTORS[actor][1]}")
        self.E.counter += 1
        return Item("given", label, (), enc_at_decision(self.S, d, 0), z3.Bool(f"__q{self.E.counter}_moment"))

    def which_term(self, w: Which):
        """(value term, card variables, decode(v, state) → (value, name), atom_for(value, cards) → (atom
        that holds on a witness of that value, extra atoms to narrate))."""
        S, cat, C = self.S, self.cat, self.S.codes
        if w.kind == "conversion":
            xs = []
            for c in w.cards:
                if c is None:
                    v, d = self.comp.fresh()
                    self.solver.add(d)
                    xs.append(v)
                else:
                    xs.append(z3.IntVal(C.card[c]))
            ok, via = enc_conversion(S, xs[0], xs[1])
            rule_at = z3.IntVal(-1)
            for sl in S.slots:
                rule_at = z3.If(via == sl.index, sl.rule, rule_at)
            term = z3.If(z3.Not(ok), -2, z3.If(via == NONE, -1, rule_at))

            def decode(v, st):
                if v == -2:
                    return "cannot", pick("不能使用（没有转化允许，或有转化否决）",
                                          "cannot be used (no conversion allows it, or one vetoes it)")
                if v == -1:
                    return None, pick("不转化（当作本身使用）", "no conversion (played as itself)")
                return C.rules[v], cat.skills[C.rules[v]].name

            def atom_for(value, cards):
                conv = Atom("convert", 0, 0, cards=cards)
                play = [Atom("play", 0, 0, cards=cards)]
                if value == "cannot":
                    return Not(conv), play
                if value is None:
                    fires = [Not(Atom("fire", 0, 0, cards=cards, rule=r)) for r in cat.skills
                             if cat.skills[r].convert is not None]
                    return BoolOp("and", [conv] + fires), play
                return Atom("fire", 0, 0, cards=cards, rule=value), play
            return term, xs, decode, atom_for
        if w.kind == "send":
            f = enc_send_in_force(S, w.group)
            rule_at = z3.IntVal(-1)
            for sl in S.slots:
                rule_at = z3.If(f == sl.index, sl.rule, rule_at)

            def decode(v, st):
                if v == -1:
                    return None, pick("默认规则", "the default rule")
                return C.rules[v], cat.skills[C.rules[v]].name
            return rule_at, [], decode, lambda value, cards: (Atom("send_by", 0, 0, group=w.group, rule=value), [])
        if w.kind == "draw":
            return enc_draw_count(S), [], (lambda v, st: (v, str(v))), \
                (lambda value, cards: (Atom("draw", 0, 0, value=("==", value)), []))
        if w.kind == "player":                 # 谁能…: the player's character, the claim holding
            def decode(v, st):
                c = C.chars[v] if 0 <= v < len(C.chars) else None
                return c, cat.characters[c].name if c in cat.characters else str(v)
            return S.char[0], [], decode, lambda value, cards: (self.q.claim, [])
        if w.kind == "receive":
            names = {FREE: "free", MUST: "must", CANNOT: "cannot"}
            return enc_receive(S), [], (lambda v, st: (names[v], N.answer_value(cat, "receive", names[v]))), \
                (lambda value, cards: (Atom("receive", 0, 0, value=value), []))
        raise ValueError(w.kind)

    # ---- words
