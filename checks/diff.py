"""Semantic diff of two catalogue versions (Cedar's `analyze compare`, for skill rules).

Both versions are encoded over *one* symbolic game — the same seats, characters, skill lists, grant slots and
trace moments, read once under the old rules and once under the new (``side_codes``: every id has one code in
both, and a gives site keeps its code when it only moved) — and the solver is asked two kinds of question:

* **changed decisions** (``Differ.changes``): for every decision the interpreter makes (conversion and which
  skill fires, bans, receive, send rules in force, skipping, draw count), taken at its own moment, is there a
  situation reachable under *both* versions where the answers differ?
* **situations possible in only one version** (``Differ.possible``, ``checks.diff_reach``): for every changed id
  (a character, skill, grant, card or gives site — ``changed_rules``), is a situation that involves it reachable
  in NEW but not in OLD, or the reverse?

Every witness is a trace; it is run event by event by ``model.interp.trace.run`` under each version's own catalogue and
the question is answered on each run's state, so a witness the interpreter does not confirm is never reported
as a change (it is an inconclusive question instead).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import z3

from skillproof.model.interp.decide import decide
from skillproof.model.interp.windows import at_decision
from skillproof.model.interp import trace as TR
from skillproof.model.interp.play import run as play_run
from skillproof.model.interp.grants import site_of
from skillproof.model.catalogue import Catalogue
from skillproof.model.kinds import SEND_GROUPS

from .enc.bans import enc_banned
from .enc.conversion import enc_conversion
from .enc.draw import enc_draw_count
from .enc.receive import enc_receive
from .enc.send import enc_send_allowed, enc_send_in_force
from .enc.skip import enc_could_act_dying, enc_could_act_fight, enc_skip_dying, enc_skip_fight
from .enc.state import Codes
from .enc.windows import enc_at_decision
from .enc.witness import witness
from .diff_ids import (NAMING, SITE_KEYS, SitePairs, changed_list, changed_name, changed_rules,  # noqa: F401
                       meaning, renames, rule_ref, site_pairs)
from .diff_reach import Unreadable, align, pins, possible, translate
from .diff_text import both, decision_word, window_name
from .findings import canonical


@dataclass
class Change:
    decision: str               # conversion | banned | receive | send | skip_fight | skip_dying | draw
    question: dict
    old: dict
    new: dict
    state: dict                 # NEW's run of the witness trace: the state the question is asked in
    rules: list = field(default_factory=list)       # changed rules present in the witness: [{id, name, file, line, change}]
    trace: dict | None = None   # the witness trace (NEW's reading)
    old_trace: dict | None = None   # OLD's reading of the same situation, when it reads differently
    unrealised: dict | None = None  # why the witness is the timed model's trace, not a game (checks/realise.py)

    def key(self) -> str:
        return f"{self.decision}|{canonical(self.question)}"

    def to_dict(self) -> dict:
        w = {"state": self.state}
        if self.trace is not None:
            w["trace"] = self.trace
        if self.old_trace is not None:
            w["old_trace"] = self.old_trace
        if self.unrealised is not None:
            w["unrealised"] = self.unrealised
        return {"decision": self.decision, "question": self.question, "old": self.old, "new": self.new,
                "witness": w, "rules": self.rules}


def side_codes(old: Catalogue, new: Catalogue, pairs: SitePairs, ren: dict | None = None) -> tuple:
    """(OLD's codes, NEW's codes): the same code for every card, character and rule id in both, for a renamed
    character or rule and its old id (``renames``), and for a gives site of NEW and the OLD site it pairs with; a
    site of one version only gets a code the other never uses."""
    base = Codes.union(old, new)
    co, cn = copy.copy(base), copy.copy(base)
    co.chars, co.char, co.rules, co.rule = list(base.chars), dict(base.char), list(base.rules), dict(base.rule)
    for n, o in (ren or {}).items():
        for lst, idx in (("chars", "char"), ("rules", "rule")):
            if n in getattr(cn, idx):
                k = getattr(cn, idx)[n]
                getattr(co, idx)[o] = k
                getattr(co, lst)[k] = o

    def own(cat):
        return [(g.site_id, g) for src in list(cat.skills.values()) + list(cat.cards.values()) for g in src.gives]
    old_give = dict(own(old))
    cn.sites, cn.site, co.sites, co.site = [], {}, [], {}
    for sid, g in own(new):
        k = len(cn.sites)
        cn.sites.append((sid, g))
        cn.site[sid] = k
        o = pairs.n2o.get(sid)
        if o is not None:
            co.sites.append((o, old_give[o]))
            co.site[o] = k
        else:
            co.sites.append((f"~{sid}", g))          # NEW only: never a site of OLD's encoding
    for sid, g in own(old):
        if sid in co.site:
            continue
        co.site[sid] = len(co.sites)
        co.sites.append((sid, g))
        cn.sites.append((f"~{sid}", g))
    return co, cn


DECISIONS = ("conversion", "banned", "receive", "send", "skip_fight", "skip_dying", "draw")


class Differ:
    def __init__(self, old: Catalogue, new: Catalogue, n=3, G=2, timeout_ms=20000, rlimit=0):
        from .solve import Query
        self.old, self.new = old, new
        self.renamed = renames(old, new)                      # NEW id -> OLD id
        self.sites = site_pairs(old, new, self.renamed)
        self.codes_o, self.codes_n = side_codes(old, new, self.sites, self.renamed)
        self.codes = self.codes_n
        # one question-asker per version over the very same variables (same names, same codes); each also
        # defines the other version's reachability as one Boolean, so a question can ask for a situation
        # possible under both (shared decisions) or under one only (checks.diff_reach)
        self.qn = Query(new, n=n, G=G, timeout_ms=timeout_ms, codes=self.codes_n, rlimit=rlimit)
        self.qo = Query(old, n=n, G=G, timeout_ms=timeout_ms, codes=self.codes_o, rlimit=rlimit)
        self.Sn, self.So = self.qn.S, self.qo.S
        self.reach_o = z3.Bool("__diff_old_reachable")
        self.reach_n = z3.Bool("__diff_new_reachable")
        self.qn.solver.add(self.reach_o == z3.And([lab.expr for lab in self.qo.labels]))
        self.qo.solver.add(self.reach_n == z3.And([lab.expr for lab in self.qn.labels]))
        self.changed = changed_rules(old, new)
        for q, mine, other in ((self.qn, self.Sn, self.So), (self.qo, self.So, self.Sn)):
            q.solver.add(align(mine, other))
            q.solver.add(pins(self))
        self.common_cards = [c for c in old.cards if c in new.cards]
        self.inconclusive: list[tuple] = []       # (key, Chinese, English) of each question left undecided

    def _card(self, name):
        v = z3.Int(f"diff_{name}")
        return v, z3.Or([v == self.codes.card[c] for c in self.common_cards] or [z3.BoolVal(False)])

    def questions(self):
        """(decision, goal, inputs, make_question) for every decision; goal says the answers differ, at a moment
        the decision is taken (model.turn.DECISION_WINDOWS; conversions and bans at any moment)."""
        So, Sn = self.So, self.Sn
        x, xb = self._card("actual")
        y, yb = self._card("declared")
        ok_o, via_o = enc_conversion(So, x, y)
        ok_n, via_n = enc_conversion(Sn, x, y)
        C = self.codes
        yield ("conversion", z3.And(xb, yb, z3.Or(ok_o != ok_n, via_o != via_n)), (x, y),
               lambda m: {"decision": "conversion", "seat": 0, "actual": C.cards[m.eval(x).as_long()],
                          "declared": C.cards[m.eval(y).as_long()]})
        yield ("banned", z3.And(yb, enc_banned(So, y) != enc_banned(Sn, y)), (y,),
               lambda m: {"decision": "banned", "seat": 0, "declared": C.cards[m.eval(y).as_long()]})
        at = lambda d: enc_at_decision(Sn, d)        # noqa: E731  (the moment: variables both versions share)
        yield ("receive", z3.And(at("receive"), enc_receive(So) != enc_receive(Sn)), (),
               lambda m: {"decision": "receive", "seat": 0})
        d, lc = z3.Int("diff_dir"), z3.Int("diff_locks")
        for g in SEND_GROUPS:
            goal = z3.And(at("send"), d >= 0, d < 3, lc >= 0, lc <= 2,
                          z3.Or(enc_send_in_force(So, g) != enc_send_in_force(Sn, g),
                                enc_send_allowed(So, g, d, lc) != enc_send_allowed(Sn, g, d, lc)))
            yield ("send", goal, (d, lc),
                   lambda m, g=g: {"decision": "send", "seat": 0, "group": g, "dir": C.dirs[m.eval(d).as_long()],
                                   "lock_count": m.eval(lc).as_long()})
        yield ("skip_fight", z3.And(at("skip_fight"), z3.Or(enc_skip_fight(So) != enc_skip_fight(Sn),
                                                             enc_could_act_fight(So) != enc_could_act_fight(Sn))),
               (), lambda m: {"decision": "skip_fight", "seat": 0})
        yield ("skip_dying", z3.And(at("skip_dying"), z3.Or(enc_skip_dying(So) != enc_skip_dying(Sn),
                                                             enc_could_act_dying(So) != enc_could_act_dying(Sn))),
               (), lambda m: {"decision": "skip_dying", "seat": 0})
        yield ("draw", z3.And(at("draw"), enc_draw_count(So) != enc_draw_count(Sn)), (),
               lambda m: {"decision": "draw", "seat": 0})

    def changes(self, per_decision: int = 3) -> list[Change]:
        """Up to ``per_decision`` changed answers per decision, each with a minimal witness trace that both
        versions run, answered differently on the two runs."""
        out = []
        for decision, goal, inputs, mkq in self.questions():
            side = z3.And(self.So.extra + self.Sn.extra) if (self.So.extra or self.Sn.extra) else z3.BoolVal(True)
            blocks = []
            seen_q = set()
            for _ in range(per_decision):
                a = self.qn.find(z3.And([self.reach_o, goal, side] + blocks))
                if a.status == "unknown":
                    r = a.reason or "timeout"
                    zh, en = both(decision_word, decision)
                    self.inconclusive.append((f"{decision}: {r}", f"{zh}判定是否改变：求解器未能判定（{r}）",
                                              f"does the {en} decision change: the solver answered unknown ({r})"))
                    break
                if not a.sat:
                    break
                m = a.model
                q = mkq(m)
                ch, problem = self._replay(a, q)
                if problem:
                    # the encodings disagree with the interpreter: never silently drop it
                    zh, en = both(decision_word, decision)
                    self.inconclusive.append((f"{decision}: witness does not replay ({q}: {problem[0]})",
                                              f"{zh}判定的例证不能重放（{problem[1]}）",
                                              f"the witness of a changed {en} decision does not replay ({problem[2]})"))
                    break
                qk = canonical(q)
                if qk not in seen_q:
                    seen_q.add(qk)
                    out.append(ch)
                # next: a different input (or, without inputs, a different character)
                blk = [v != m.eval(v, model_completion=True) for v in inputs]
                blk.append(self.Sn.char[0] != m.eval(self.Sn.char[0], model_completion=True))
                blocks.append(z3.Or(blk))
        return out

    def _replay(self, a, q) -> tuple:
        """Run the witness under each version's own catalogue and answer ``q`` on each run's state:
        (Change, ()) or (None, why it does not show a change: (key, Chinese, English))."""
        tr_n = a.state.trace
        tr_o = witness(self.So, a.model).trace
        run_n, run_o = play_run(self.new, tr_n), play_run(self.old, tr_o)
        for label, run, cat, tr in (("NEW", run_n, self.new, tr_n), ("OLD", run_o, self.old, tr_o)):
            side = "新版" if label == "NEW" else "旧版"
            if run.errors:
                k, why = run.errors[0]
                zh, en = both(lambda: play_run(cat, tr).errors[0][1])
                return None, (f"{label} rejects event {k}: {why}", f"{side}不接受第 {k} 个事件：{zh}",
                              f"{label} rejects event {k}: {en}")
            if not at_decision(run.state, q["decision"], q.get("seat", 0)):
                zh, en = both(window_name, run.state.window)
                return None, (f"{label}: not asked at {run.state.window}", f"{side}在{zh}不问这个判定",
                              f"{label} does not ask it in the {en}")
        old_a, new_a = decide(self.old, run_o.state, q), decide(self.new, run_n.state, q)
        keys = [k for k in new_a if k not in ("why_not", "via_index", "in_force_index")]
        old_a = {k: old_a.get(k) for k in keys}
        new_a = {k: new_a.get(k) for k in keys}
        if old_a == new_a:
            return None, ("both versions answer alike", "两个版本的回答相同", "both versions answer alike")
        try:
            same = translate(tr_n, self.new, self.old, self.sites.n2o, self.renamed).to_dict() == tr_o.to_dict()
        except Unreadable:
            same = False
        ch = Change(q["decision"], q, old_a, new_a, run_n.state.to_dict(), self._rules_in(run_n.state),
                    tr_n.to_dict(), None if same else tr_o.to_dict())
        return (self._as_game(ch, tr_n, run_n) if same else ch), ()

    def _as_game(self, ch: Change, tr_n, run_n) -> Change:
        """The change's witness made a game of the server (checks/realise.py) under NEW that OLD reads alike and
        plays legally, each version answering as the timed witness showed — else the timed witness, with why."""
        from .realise import TwinsDisagree, realise
        q = ch.question
        try:
            game, why = realise(self.new, tr_n, run_n.state, [(q, ch.new)])
        except TwinsDisagree as e:
            ch.unrealised = {"zh": f"z3 孪生填出的牌局解释器不接受（{e}）", "en": f"the z3 twin filled a game the interpreter refuses ({e})"}
            return ch
        if game is None:
            ch.unrealised = why
            return ch
        try:
            g_o = translate(game, self.new, self.old, self.sites.n2o, self.renamed)
        except Unreadable:
            g_o = None
        got_n = play_run(self.new, game)
        got_o = play_run(self.old, g_o) if g_o is not None else None
        if got_o is None or got_o.errors or not at_decision(got_o.state, q["decision"], q.get("seat", 0)) or \
                {k: decide(self.old, got_o.state, q).get(k) for k in ch.old} != ch.old:
            ch.unrealised = {"zh": "新版的牌局旧版不能同样打出", "en": "OLD does not play NEW's game alike"}
            return ch
        ch.trace, ch.state, ch.rules = game.to_dict(), got_n.state.to_dict(), self._rules_in(got_n.state)
        return ch

    def possible(self) -> list:
        """Situations that involve a changed id and are possible in only one version (checks.diff_reach)."""
        return possible(self)

    def _rules_in(self, state) -> list:
        ids = set()
        for seat in state.seats:
            ids.add(seat.character)
            ids.update(i.rule for i in seat.skills)
            ids.update(i.site.split("#")[0] for i in seat.skills if i.site)
            ids.update(i.site for i in seat.skills if i.site)
        out = [rule_ref(self.old, self.new, rid, self.changed[rid]) for rid in sorted(ids) if rid in self.changed]
        if "[rules]" in self.changed and self.new.rules.loc:
            out.append({"id": "[rules]", **changed_name(self.old, self.new, "[rules]", "changed"),
                        "file": self.new.rules.loc.file, "line": self.new.rules.loc.line, "change": "changed"})
        return out
