"""A question's claim and givens compiled to z3 terms over the encoder's symbolic state (checks/encode.py):
the same meaning as evaluate.py gives them on a concrete state."""
from __future__ import annotations

from typing import TYPE_CHECKING

import z3

from skillproof.model.kinds import SEND_GROUPS

from .. import encode as X
from .evaluate import card_domain, atom_choices, compare, reaches_player
from .syntax import Atom, BoolOp, Given, GrantRef, Not

if TYPE_CHECKING:
    from .engine import Engine


class Compiler:
    """A query's claim and givens as z3 terms over one SymState (seat 0 = the player)."""

    def __init__(self, engine: "Engine"):
        self.E = engine
        self.S = engine.S
        self.cat = engine.cat

    def card(self, cid):
        return z3.IntVal(self.S.codes.card[cid])

    def fresh(self):
        self.E.counter += 1
        v = z3.Int(f"q{self.E.counter}_card")
        return v, z3.And(v >= 0, v < len(self.S.codes.cards))

    def claim(self, node, pos: bool = True):
        if isinstance(node, Not):
            return z3.Not(self.claim(node.arg, not pos))
        if isinstance(node, BoolOp):
            items = [self.claim(x, pos) for x in node.items]
            return z3.And(items) if node.op == "and" else z3.Or(items)
        return self.atom(node, pos)

    def atom(self, a: Atom, pos: bool):
        if not a.cards or all(c is not None for c in a.cards) and not (a.kind == "play" and a.cards[1] is None):
            cards = tuple(self.card(c) for c in a.cards)
            return self.atom_on(a, cards)
        # unknown cards: existential — a free variable where the atom is asserted positively, else a
        # disjunction over the card domain (so that negation and 'always' mean "for every card")
        choices = atom_choices(self.cat, a)
        if pos:
            terms, doms = [], []
            for i, c in enumerate(a.cards):
                if c is not None:
                    terms.append(self.card(c))
                    continue
                v, d = self.fresh()
                dom = card_domain(self.cat, a, i)
                if len(dom) < len(self.cat.cards):
                    d = z3.Or([v == self.S.codes.card[x] for x in dom])
                terms.append(v)
                doms.append(d)
            return z3.And(doms + [self.atom_on(a, tuple(terms))])
        return z3.Or([self.atom_on(a, tuple(self.card(c) for c in ch)) for ch in choices])

    def atom_on(self, a: Atom, cards: tuple):
        S = self.S
        k = a.kind
        if k == "play":
            return X.enc_can_play(S, cards[0], cards[1])
        if k == "convert":
            return X.enc_conversion(S, cards[0], cards[1])[0]
        if k == "fire":
            ok, via = X.enc_conversion(S, cards[0], cards[1])
            slots = [z3.And(sl.present, S.rule_is(sl, a.rule), via == sl.index)
                     for sl in S.slots if a.rule in sl.candidates]
            return z3.And(ok, z3.Or(slots)) if slots else z3.BoolVal(False)
        if k == "banned":
            return X.enc_banned(S, cards[0])
        if k == "banned_all":
            return X.enc_banned_all(S)
        if k == "receive":
            code = {"free": X.FREE, "must": X.MUST, "cannot": X.CANNOT}[a.value]
            return X.enc_receive(S) == code
        if k == "skip":
            return X.enc_skip_fight(S) if a.phase == "fight" else X.enc_skip_dying(S)
        if k == "act":
            return X.enc_could_act_fight(S) if a.phase == "fight" else X.enc_could_act_dying(S)
        if k == "send_by":
            f = X.enc_send_in_force(S, a.group)
            if a.rule is None:
                return f == X.NONE
            slots = [z3.And(sl.present, S.rule_is(sl, a.rule), f == sl.index) for sl in S.slots
                     if a.rule in sl.candidates]
            return z3.Or(slots) if slots else z3.BoolVal(False)
        if k == "send_dir":
            d, n = a.value
            dc = z3.IntVal(S.codes.dir[d])
            return z3.And([X.enc_send_allowed(S, g, dc, z3.IntVal(n)) for g in SEND_GROUPS])
        if k == "draw":
            return compare(a.value[0], X.enc_draw_count(S), a.value[1])
        if k == "hold":
            return self.holds(a.rule)
        if k == "use":
            r = self.cat.skills[a.rule]
            phases = [a.phase] if a.phase else ["fight", "dying"]
            terms = []
            for sl in S.slots:
                if a.rule not in sl.candidates:
                    continue
                for p in phases:
                    cond = r.fight if p == "fight" else r.dying
                    if cond is None:
                        continue
                    terms.append(z3.And(S.live_rule(sl, a.rule, "ActiveSkill"), S.compile(cond, S.ctx(0, sl))))
            return z3.Or(terms) if terms else z3.BoolVal(False)
        if k == "invalidated":
            return S.inv[0]
        if k == "face_up":
            return S.face_up[0] if a.value else z3.Not(S.face_up[0])
        if k == "hand":
            return compare(a.value[0], S.ints["hand_count"][0], a.value[1])
        if k == "where":
            return S.compile(a.value, S.ctx(0))
        raise ValueError(k)

    def holds(self, rid: str, live: bool = True):
        S = self.S
        terms = []
        for sl in S.slots:
            if rid not in sl.candidates:
                continue
            terms.append(S.live_rule(sl, rid, "Skill") if live else z3.And(sl.present, S.rule_is(sl, rid)))
        return z3.Or(terms) if terms else z3.BoolVal(False)

    def given(self, g: Given):
        if g.kind == "with":
            return self.holds(g.rule)
        if g.kind == "without":
            return z3.Not(self.holds(g.rule, live=False))
        if g.kind in ("claim", "where"):
            return self.claim(g.claim, True)
        if g.kind == "grant":
            return self.grant(g.grant)
        raise ValueError(g.kind)

    def grant(self, gr: GrantRef):
        S, C = self.S, self.S.codes
        opts = []
        for sl in S.slots:
            if sl.initial_slot:
                continue
            for gid in gr.grants:
                if gid not in sl.candidates:
                    continue
                conds = [sl.present, S.rule_is(sl, gid)]
                sites = [s for s in gr.sites if s.grant == gid]
                if sites and len(sites) < len(self.cat.sites(gid)):
                    conds.append(z3.Or([sl.site == C.site[f"{s.giver}#{s.index}"] for s in sites]))
                params = self.cat.skills[gid].params
                for p, (kind, v) in gr.args.items():
                    if p not in params:
                        conds.append(z3.BoolVal(False))
                        continue
                    var = sl.params[p]
                    if kind == "card":
                        conds.append(var == C.card[v])
                    elif kind == "set":
                        conds += [var[C.card[c]] for c in v]
                    elif kind == "bool":
                        conds.append(var == z3.BoolVal(v))
                    elif kind == "int":
                        conds.append(var == v)
                    elif kind == "colour":
                        conds.append(var == C.colour[v])
                opts.append(z3.And(conds))
        if gr.invalid_option:
            ways = []
            for give in gr.invalid_sites:
                for g in range(S.n):
                    if not reaches_player(give, g):
                        continue
                    ways.append(z3.And(S.present[g], _z_giver_ok(S, give, g), S.compile(give.when, S.ctx(g))))
            opts.append(z3.And(S.inv[0], z3.Or(ways) if ways else z3.BoolVal(False)))
        return z3.Or(opts) if opts else z3.BoolVal(False)


def _z_giver_ok(S, give, g: int):
    """Seat ``g`` can be the giver of ``give`` (a card: anyone; a skill: its owners)."""
    if give.giver_is_card:
        return z3.BoolVal(True)
    owners = set(S.cat.owners(give.giver)) & set(S.chars_me if g == 0 else S.chars_other)
    return z3.Or([S.char[g] == S.codes.char[c] for c in sorted(owners)] or [z3.BoolVal(False)])

