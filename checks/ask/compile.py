"""A question's claim and givens compiled to z3 terms over the encoder's symbolic state (checks/enc/,
checks/enc/state.py): the same meaning as evaluate.py gives them on a concrete state — each atom at its
decision moment (``enc.windows.enc_at_decision``, ``enc.plays.enc_can_play``), each given about time read on the
symbolic trace (the question's moment ``S.q``, grant slots' moments, the invalidation and replacement
events ``S.inv_ev`` / ``S.inv_m`` / ``S.repl`` / ``S.repl_m``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import z3

from skillproof.model.interp.usable import requires_unplayered
from skillproof.model.kinds import SEND_GROUPS

from ..enc.bans import enc_banned, enc_banned_all, enc_banned_by
from ..enc.conversion import enc_conversion
from ..enc.draw import enc_draw_count
from ..enc.fires import enc_fires
from ..enc.plays import enc_can_play, enc_card_usable, enc_resolves
from ..enc.receive import CANNOT, FREE, MUST, enc_receive
from ..enc.remind import enc_remind_parts, enc_reminds
from ..enc.send import enc_has_card_to_send, enc_send_allowed, enc_send_in_force
from ..enc.skip import enc_could_act_dying, enc_could_act_fight, enc_skip_dying, enc_skip_fight
from ..enc.state import NONE, WCODE
from ..enc.usable import enc_spent, unconditional
from ..enc.windows import enc_at_decision, enc_in_window
from .evaluate import after_sites, atom_choices, card_domain, compare, decision_of, grant_sites, use_windows
from .syntax import Atom, BoolOp, Given, GrantRef, Not

if TYPE_CHECKING:
    from .engine import Engine


#: the atom kinds the timed model reads (``atom_on`` here, ``evaluate.eval_atom`` its twin): a question naming any
#: other outside the table search is refused at the words (table.refuse_table_only), never a traceback
TIMED_KINDS = frozenset({"play", "convert", "fire", "banned", "banned_all", "receive", "skip", "act", "send_by",
                         "send_dir", "draw", "remind", "hold", "granted", "use", "resolve", "fires", "locked",
                         "invalidated", "face_up", "hand", "where", "given"})


class Compiler:
    """A query's claim and givens as z3 terms over one SymState (seat 0 = the player)."""

    def __init__(self, engine: "Engine", windowed: bool = False):
        self.E = engine
        self.S = engine.S
        self.cat = engine.cat
        self.windowed = windowed          # the question names its window: 'play' atoms are read as they stand

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
        """Asserted (``pos``): at the atom's frame, and the decision says so; denied: at its frame the decision
        fails, so the atom compiled for denial is "frame ⇒ decision" (evaluate.eval_claim is the twin)."""
        d = self.decision(a, pos)
        f = self.frame(a)
        if f is None:
            return d
        return z3.And(f, d) if pos else z3.Implies(f, d)

    def frame(self, a: Atom):
        """The moments the atom is asked at (None: it has none of its own) — twin of evaluate.frame."""
        S = self.S
        d = decision_of(a)
        if d is not None:
            return enc_at_decision(S, d, 0)
        if a.kind == "use":
            return enc_in_window(S, S.q, 0, use_windows(self.cat, a))
        if (a.kind == "play" or a.kind == "fire" and a.value == "play") and not self.windowed:
            dom = [a.cards[1]] if a.cards[1] is not None else card_domain(self.cat, a, 1)
            return z3.Or([enc_card_usable(S, self.card(y)) for y in dom])
        return None

    def decision(self, a: Atom, pos: bool):
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
            return enc_can_play(S, cards[0], cards[1])
        if k == "convert":
            return enc_conversion(S, cards[0], cards[1])[0]
        if k == "fire":
            ok, via = enc_conversion(S, cards[0], cards[1])
            slots = [z3.And(sl.present, S.rule_is(sl, a.rule), via == sl.index)
                     for sl in S.slots if a.rule in sl.candidates]
            fired = z3.And(ok, z3.Or(slots)) if slots else z3.BoolVal(False)
            if a.value == "play":            # used: the card it turns reaches play (bans, the window)
                return z3.And(fired, enc_can_play(S, cards[0], cards[1]))
            return fired
        if k == "banned":
            if isinstance(a.value, GrantRef):        # X能让C被禁: the ban X's grant makes (evaluate.eval_atom_cards)
                return enc_banned_by(S, cards[0], grant_sites(S.cat, a.value))
            return enc_banned(S, cards[0])
        if k == "banned_all":
            return enc_banned_all(S)
        if k == "receive":
            code = {"free": FREE, "must": MUST, "cannot": CANNOT}[a.value]
            return enc_receive(S) == code
        if k == "skip":
            return enc_skip_fight(S) if a.phase == "fight" else enc_skip_dying(S)
        if k == "act":
            return enc_could_act_fight(S) if a.phase == "fight" else enc_could_act_dying(S)
        if k == "send_by":
            f = enc_send_in_force(S, a.group)
            if a.rule is None:
                return f == NONE
            slots = [z3.And(sl.present, S.rule_is(sl, a.rule), f == sl.index) for sl in S.slots
                     if a.rule in sl.candidates]
            return z3.Or(slots) if slots else z3.BoolVal(False)
        if k == "send_dir":
            d, n = a.value
            dirs = [d] if d is not None else list(S.codes.dir)      # no direction said: some direction
            return z3.And(self.can_send(), z3.Or([z3.And([enc_send_allowed(S, g, z3.IntVal(S.codes.dir[x]), z3.IntVal(n))
                                                          for g in SEND_GROUPS]) for x in dirs]))
        if k == "draw":
            return compare(a.value[0], enc_draw_count(S), a.value[1])
        if k == "remind":
            if a.rule is None:
                return enc_reminds(S)[0]
            part = enc_remind_parts(S).get(a.rule)
            return part[0] if part is not None else z3.BoolVal(False)
        if k == "hold":
            return self.holds(a.rule)
        if k == "granted":
            return self.grant(a.value)
        if k == "use":
            return self.usable(a.rule, again=a.value == "again")
        if k == "resolve":
            return enc_resolves(S, cards[0])
        if k == "fires":
            return enc_fires(S, a.rule)
        if k == "locked":
            return S.locked[0]
        if k == "invalidated":
            return self.invalidated()
        if k == "face_up":
            return S.face_up[0] if a.value else z3.Not(S.face_up[0])
        if k == "hand":
            return compare(a.value[0], S.ints["hand_count"][0], a.value[1])
        if k == "where":
            return S.compile(a.value, S.ctx(0))
        if k == "given":
            return self.given(a.value)
        raise ValueError(k)

    def usable(self, rid: str, again: bool = False):
        """The player's ActiveSkill ``rid`` may be used now, its window aside — twin of evaluate.skill_usable:
        live, not spent (enc.usable.enc_spent), and in 出牌阶段 / 争夺阶段 / 濒死求澄清 its condition for that window holds (``again``: and it was used this
        turn already)."""
        S = self.S
        r = self.cat.skills[rid]
        terms = []
        for sl in S.slots:
            if rid not in sl.candidates:
                continue
            if again:
                cond0 = sl.used
            else:
                cond0 = z3.BoolVal(True)
            cond = z3.BoolVal(True)
            for win in ("main", "dying", "fight"):
                if unconditional(r, win):
                    continue
                c = getattr(r, win)
                ok = S.compile(c, S.ctx(0, sl)) if c is not None else z3.BoolVal(False)
                cond = z3.If(S.now == WCODE[win], ok, cond)
            # what the server checks of the user and the table, whoever the use names (twin: requires_unplayered)
            req = [S.compile(c, S.ctx(0, sl)) for c in requires_unplayered(r.requires)]
            terms.append(z3.And(S.live_rule(sl, rid, "ActiveSkill"), z3.Not(enc_spent(S, sl, rid)), cond, cond0, *req))
        return z3.Or(terms) if terms else z3.BoolVal(False)

    def can_send(self):
        """The player has something to send — a hand card, or a live ActiveSkill sending from elsewhere (冷血训练):
        twin of evaluate.has_card_to_send (server phase/SendPhaseStart.kt), enc.send.enc_has_card_to_send."""
        return enc_has_card_to_send(self.S)

    def invalidated(self):
        """An InvalidSkill was dealt to the player this turn (its initial skills wrapped; a player with none
        left to wrap counts too) — twin of evaluate.invalidated, the seat's ``invalidated`` flag."""
        return self.S.inv[0]

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
            return self.grant(g.grant, g.ago)
        if g.kind == "window":
            return self.window(g.window, g.interrupts)
        if g.kind == "outside":                  # 出牌阶段以外: any moment but that window
            return z3.Not(self.window(g.window))
        if g.kind == "turn_of":                  # whose turn: a character at the table, or the player's own
            S = self.S
            if g.other:
                return S.turn != 0
            if g.who is None:
                return S.turn == 0
            code = S.codes.char.get(g.who)
            if code is None:
                return z3.BoolVal(False)
            return z3.Or([z3.And(S.present[s], S.char[s] == code, S.turn == s) for s in range(S.n)])
        if g.kind == "after":
            return self.after(g.rule, g.ago if g.ago is not None else 0)
        if g.kind == "role":
            return self.role(g)
        raise ValueError(g.kind)

    def role(self, g: Given):
        """A role of the table — twin of evaluate.role_holds: the sender of this turn's message (the turn player,
        or 密令's target), 密令's target (the sender in another player's turn), the turn player, or a given
        character as the sender."""
        S = self.S
        sender = S.sender_of_turn(S.q.t)
        if g.rule == "sender":
            return sender == 0
        if g.rule == "not_sender":
            return sender != 0
        if g.rule == "miling":
            return z3.And(sender == 0, S.turn != 0)
        if g.rule == "turn":
            return S.turn == 0
        if g.rule == "not_turn":
            return S.turn != 0
        if g.rule == "sender_is":
            code = S.codes.char.get(g.who)
            if code is None:
                return z3.BoolVal(False)
            return z3.Or([z3.And(S.present[s], S.char[s] == code, sender == s) for s in range(S.n)])
        if g.rule == "receiver_is":                  # the message is in front of that character
            code = S.codes.char.get(g.who)
            if code is None:
                return z3.BoolVal(False)
            return z3.Or([z3.And(S.present[s], S.char[s] == code, S.in_front == s) for s in range(S.n)])
        raise ValueError(g.rule)

    def turn_is(self, t, ago: int):
        """Turn index ``t`` of the symbolic trace is ``ago`` turns before the question's."""
        return t == self.S.T - 1 - ago

    def window(self, w: str, interrupts: str | None = None):
        """The question is asked in window ``w`` (a dying window: interrupting ``interrupts``, if given)."""
        S = self.S
        e = S.now == WCODE[w]
        if interrupts is not None:
            e = z3.And(e, S.intr == WCODE[interrupts])
        return e

    def invalidated_by(self, sites, ago: int | None = None):
        """The player's invalidation event came from one of ``sites`` (``ago`` turns back) — twin of
        evaluate.invalidated_by."""
        S, C = self.S, self.S.codes
        codes = [C.site[s.site_id] for s in sites if s.site_id in C.site]
        e = z3.And(S.inv_ev[0], z3.Or([S.inv_site[0] == c for c in codes] or [z3.BoolVal(False)]))
        return e if ago is None else z3.And(e, self.turn_is(S.inv_m[0].t, ago))

    def after(self, rid: str, ago: int):
        """``after X`` — twin of evaluate.after_holds: the role replacement, a grant of X's handed to the
        player, or X's invalidation of the player, in the turn ``ago`` turns back."""
        S, C = self.S, self.S.codes
        rule = self.cat.skills.get(rid)
        if rule is not None and rule.replaces_role:
            return z3.And(S.repl, self.turn_is(S.repl_m.t, ago))
        sites = after_sites(self.cat, rid)
        codes = [C.site[x.site_id] for x in sites if x.grant != "InvalidSkill" and x.site_id in C.site]
        terms = [z3.And(sl.present, z3.Or([sl.site == c for c in codes]), self.turn_is(sl.m.t, ago))
                 for sl in S.slots if not sl.initial_slot and codes]
        inv = [x for x in sites if x.grant == "InvalidSkill"]
        if inv:
            terms.append(self.invalidated_by(inv, ago))
        return z3.Or(terms) if terms else z3.BoolVal(False)

    def grant(self, gr: GrantRef, ago: int | None = None):
        S, C = self.S, self.S.codes
        opts = []
        for sl in S.slots:
            if sl.initial_slot:
                continue
            for gid in gr.grants:
                if gid not in sl.candidates:
                    continue
                conds = [sl.present, S.rule_is(sl, gid)]
                if ago is not None:
                    conds.append(self.turn_is(sl.m.t, ago))
                if gr.by_self:
                    conds.append(sl.giver == 0)
                for p, (op, n) in gr.sizes.items():
                    if p in sl.params and isinstance(sl.params[p], dict):
                        conds.append(compare(op, z3.Sum([z3.If(b, 1, 0) for b in sl.params[p].values()]), n))
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
            # being invalidated now by the giver counts: the invalidation event of the trace came from it
            inv = z3.And(self.invalidated(), self.invalidated_by(gr.invalid_sites, ago))
            opts.append(z3.And(inv, self.S.inv_giver[0] == 0) if gr.by_self else inv)
        return z3.Or(opts) if opts else z3.BoolVal(False)
