"""Semantic diff of two catalogue versions (Cedar's `analyze compare`, for skill rules).

Both versions are encoded over *one* symbolic state — the same seats, characters, skill lists and
parameters, read once under the old rules and once under the new — and the solver is asked, for every
decision the interpreter makes (conversion and which skill fires, bans, receive, send rules in force,
skipping, draw count), whether some state reachable under both versions gets a different answer. Each
change comes with a witness state and both answers, replayed by the interpreter under each version.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3

from skillproof.model import interpreter as I
from skillproof.model.catalogue import Catalogue
from skillproof.model.kinds import SEND_GROUPS

from . import encode as X
from .findings import canonical


@dataclass
class Change:
    decision: str               # conversion | banned | receive | send | skip_fight | skip_dying | draw
    question: dict
    old: dict
    new: dict
    state: dict
    rules: list = field(default_factory=list)       # changed rules present in the witness: [{id, name, file, line, change}]

    def key(self) -> str:
        return f"{self.decision}|{canonical(self.question)}"

    def to_dict(self) -> dict:
        return {"decision": self.decision, "question": self.question, "old": self.old, "new": self.new,
                "witness": {"state": self.state}, "rules": self.rules}


def _strip(obj):
    """A rule's meaning, without locations: for telling changed rules from moved ones."""
    import dataclasses

    from skillproof.model import expr as E
    if isinstance(obj, E.Node) or isinstance(obj, E.Lambda):
        return E.to_text(obj)
    if dataclasses.is_dataclass(obj):
        return {f.name: _strip(getattr(obj, f.name)) for f in dataclasses.fields(obj)
                if f.name not in ("loc", "key_locs", "index")}
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in sorted(obj.items())}
    if isinstance(obj, (list, tuple)):
        return [_strip(x) for x in obj]
    if isinstance(obj, frozenset):
        return sorted(obj)
    return obj


def changed_rules(old: Catalogue, new: Catalogue) -> dict:
    """id -> 'added' | 'removed' | 'changed' for skills, grants, cards, characters and [rules]."""
    out = {}
    for table in ("skills", "cards", "characters"):
        a, b = getattr(old, table), getattr(new, table)
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out[k] = "added"
            elif k not in b:
                out[k] = "removed"
            elif canonical(_strip(a[k])) != canonical(_strip(b[k])):
                out[k] = "changed"
    if canonical(_strip(old.rules)) != canonical(_strip(new.rules)):
        out["[rules]"] = "changed"
    return out


DECISIONS = ("conversion", "banned", "receive", "send", "skip_fight", "skip_dying", "draw")


class Differ:
    def __init__(self, old: Catalogue, new: Catalogue, n=3, G=2, timeout_ms=20000, rlimit=0):
        from .solve import Query
        self.old, self.new = old, new
        self.codes = X.Codes.union(old, new)
        # one question-asker over the new version; the old version's reachability joins it, over the
        # very same variables (same names, same codes): a witness is a state possible under both
        self.q = Query(new, n=n, G=G, timeout_ms=timeout_ms, codes=self.codes, rlimit=rlimit)
        self.Sn = self.q.S
        self.So = X.SymState(old, n=n, G=G, codes=self.codes)
        self.q.solver.add(X.constraints(self.So))
        self.common_cards = [c for c in old.cards if c in new.cards]
        self.changed = changed_rules(old, new)
        self.inconclusive: list[str] = []

    def _card(self, name):
        v = z3.Int(f"diff_{name}")
        return v, z3.Or([v == self.codes.card[c] for c in self.common_cards] or [z3.BoolVal(False)])

    def questions(self):
        """(decision, goal, inputs, make_question) for every decision; goal says the answers differ."""
        So, Sn = self.So, self.Sn
        x, xb = self._card("actual")
        y, yb = self._card("declared")
        ok_o, via_o = X.enc_conversion(So, x, y)
        ok_n, via_n = X.enc_conversion(Sn, x, y)
        C = self.codes
        yield ("conversion", z3.And(xb, yb, z3.Or(ok_o != ok_n, via_o != via_n)), (x, y),
               lambda m: {"decision": "conversion", "seat": 0, "actual": C.cards[m.eval(x).as_long()],
                          "declared": C.cards[m.eval(y).as_long()]})
        yield ("banned", z3.And(yb, X.enc_banned(So, y) != X.enc_banned(Sn, y)), (y,),
               lambda m: {"decision": "banned", "seat": 0, "declared": C.cards[m.eval(y).as_long()]})
        yield ("receive", X.enc_receive(So) != X.enc_receive(Sn), (), lambda m: {"decision": "receive", "seat": 0})
        d, lc = z3.Int("diff_dir"), z3.Int("diff_locks")
        for g in SEND_GROUPS:
            goal = z3.And(d >= 0, d < 3, lc >= 0, lc <= 2,
                          z3.Or(X.enc_send_in_force(So, g) != X.enc_send_in_force(Sn, g),
                                X.enc_send_allowed(So, g, d, lc) != X.enc_send_allowed(Sn, g, d, lc)))
            yield ("send", goal, (d, lc),
                   lambda m, g=g: {"decision": "send", "seat": 0, "group": g, "dir": C.dirs[m.eval(d).as_long()],
                                   "lock_count": m.eval(lc).as_long()})
        yield ("skip_fight", z3.Or(X.enc_skip_fight(So) != X.enc_skip_fight(Sn),
                                   X.enc_could_act_fight(So) != X.enc_could_act_fight(Sn)), (),
               lambda m: {"decision": "skip_fight", "seat": 0})
        yield ("skip_dying", z3.Or(X.enc_skip_dying(So) != X.enc_skip_dying(Sn),
                                   X.enc_could_act_dying(So) != X.enc_could_act_dying(Sn)), (),
               lambda m: {"decision": "skip_dying", "seat": 0})
        yield ("draw", X.enc_draw_count(So) != X.enc_draw_count(Sn), (), lambda m: {"decision": "draw", "seat": 0})

    def changes(self, per_decision: int = 3) -> list[Change]:
        """Up to ``per_decision`` changed answers per decision, each with a minimal witness."""
        out = []
        for decision, goal, inputs, mkq in self.questions():
            side = z3.And(self.So.extra + self.Sn.extra) if (self.So.extra or self.Sn.extra) else z3.BoolVal(True)
            blocks = []
            seen_q = set()
            for _ in range(per_decision):
                a = self.q.find(z3.And([goal, side] + blocks))
                if a.status == "unknown":
                    self.inconclusive.append(f"{decision}: {a.reason or 'timeout'}")
                    break
                if not a.sat:
                    break
                m, state = a.model, a.state
                q = mkq(m)
                old_a = I.decide(self.old, state, q)
                new_a = I.decide(self.new, state, q)
                keys = [k for k in new_a if k not in ("why_not", "via_index", "in_force_index")]
                old_a = {k: old_a.get(k) for k in keys}
                new_a = {k: new_a.get(k) for k in keys}
                if old_a == new_a or I.reachable(self.old, state) or I.reachable(self.new, state):
                    # the encodings disagree with the interpreter: never silently drop it
                    self.inconclusive.append(f"{decision}: witness does not replay ({q})")
                    break
                qk = canonical(q)
                if qk not in seen_q:
                    seen_q.add(qk)
                    out.append(Change(decision, q, old_a, new_a, state.to_dict(), self._rules_in(state)))
                # next: a different input (or, without inputs, a different character)
                blk = [v != m.eval(v, model_completion=True) for v in inputs]
                blk.append(self.Sn.char[0] != m.eval(self.Sn.char[0], model_completion=True))
                blocks.append(z3.Or(blk))
        return out

    def _rules_in(self, state) -> list:
        ids = set()
        for seat in state.seats:
            ids.add(seat.character)
            ids.update(i.rule for i in seat.skills)
            ids.update(i.site.split("#")[0] for i in seat.skills if i.site)
        out = []
        for rid in sorted(ids):
            if rid in self.changed:
                cat = self.new if self.changed[rid] != "removed" else self.old
                obj = cat.skills.get(rid) or cat.characters.get(rid) or cat.cards.get(rid)
                out.append({"id": rid, "name": obj.name if obj else rid, "file": obj.loc.file if obj else "",
                            "line": obj.loc.line if obj else 0, "change": self.changed[rid]})
        if "[rules]" in self.changed and self.new.rules.loc:
            out.append({"id": "[rules]", "name": "[rules]", "file": self.new.rules.loc.file,
                        "line": self.new.rules.loc.line, "change": "changed"})
        return out
