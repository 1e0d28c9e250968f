"""How much of each rule is data and how much is still prose — ``skillproof catalogue --coverage``.

A rule has two halves a designer may ask about:

- its **trigger**, when it acts. A TriggeredSkill's is its ``on`` (the events it answers, ``model.events``):
  ``data`` when every entry's guard says all the server tests, ``part`` when some guard is marked
  ``guard_prose`` (the rest is only in ``trigger``) or when only ``fires`` (windows and a condition, no event)
  is written, ``prose`` when nothing but the ``trigger`` text says it. Every other rule acts where its kind is
  consulted — an ActiveSkill in its ``windows`` under its ``fight`` / ``dying`` conditions, a conversion when a
  card is played, a ban, receive, send or draw rule at its decision, a win or result rule at the passes — so its
  trigger is data by its kind.
- its **effect**, what it does. The kinds whose whole effect is their parameter table (conversion, ban, receive,
  send, draw, win, result, invalidation, a one-turn marker) are ``data``. An ActiveSkill or TriggeredSkill is
  ``data`` when its ``do`` (the effect ops, ``model.effects``) says all of it — no ``prose`` op; ``part`` when its
  ``do`` leaves something in words (a ``prose`` op beside others), or, with no ``do``, when something of what it does is data
  (the grants it hands out, the card it acts as, a role replacement, a draw-count rule); ``prose`` when only its
  ``text`` says it (or a ``do`` of ``prose`` ops only). ``exception`` when its only ``prose`` ops say *why* they
  stay words (``why``, ``model.effects.WHY``: the server decides by what the model's table does not hold, such as
  the colours of a hand): the rule is modelled — its other ops let every outcome the server can give — and each
  exception is listed with its reason (``exceptions``).
- a **card** has an effect only: ``data`` / ``exception`` / ``part`` / ``prose`` by its ``do`` alike
  (``card_coverage``).
"""
from __future__ import annotations

from dataclasses import dataclass

from .effects import WHY, walk
from .events import EVENT_KINDS

DATA, EXCEPT, PART, PROSE = "data", "exception", "part", "prose"
STATUSES = (DATA, EXCEPT, PART, PROSE)


@dataclass
class RuleCoverage:
    rule: object              # model.catalogue.Rule
    trigger: str              # data | part | prose
    trigger_by: tuple         # what says it: 'on', 'fires', 'kind'
    effect: str               # data | exception | part | prose
    effect_by: tuple          # keys that carry the effect

    @property
    def triggered(self) -> bool:
        return self.rule.has("TriggeredSkill")


#: kinds whose whole effect is their table (or nothing beyond the marker itself)
_STATIC_EFFECT = ("ConvertCardSkill", "CannotPlayCard", "MustReceiveMessage", "SendMessageDirectionSkill",
                  "SendMessageCanLockSkill", "SendMessageCardSkill", "ChangeDrawCardCountSkill", "WinSkill",
                  "ChangeGameResultSkill", "InvalidSkill")


def _trigger(r) -> tuple[str, tuple]:
    if not r.has("TriggeredSkill"):
        return DATA, ("windows",) if r.has("ActiveSkill") else ("kind",)
    if r.on:
        return (PART if any(o.guard_prose for o in r.on) else DATA), ("on",)
    if r.fires is not None:
        return PART, ("fires",)
    return PROSE, ("trigger",) if r.trigger else ()


def _effect(r) -> tuple[str, tuple]:
    by = []
    for key, present in (("convert", r.convert), ("ban", r.ban), ("receive", r.receive), ("send", r.send),
                         ("draw", r.draw is not None), ("win", r.win), ("result", r.result), ("gives", r.gives),
                         ("plays", r.plays), ("replaces_role", r.replaces_role)):
        if present:
            by.append(key)
    if r.has("InvalidSkill"):
        by.append("kind")
    acts = r.has("ActiveSkill") or r.has("TriggeredSkill")
    if acts and r.do:
        if all(o.op == "prose" for o in walk(r.do)) and not by:
            return PROSE, ("do",)             # only words, written as an op
        return do_status(r.do), ("do",) + tuple(by)
    if not acts:
        if by or any(r.has(k) for k in _STATIC_EFFECT) or r.has("OneTurnSkill"):
            return DATA, tuple(by) or ("kind",)
        return PROSE, ()
    return (PART if by else PROSE), tuple(by)


def do_status(ops) -> str:
    """A ``do`` with some op that is not prose: data (no prose op), exception (every prose op says why), or part."""
    prose = [o for o in walk(ops) if o.op == "prose"]
    if not prose:
        return DATA
    return EXCEPT if all(o.args.get("why") in WHY for o in prose) else PART


@dataclass
class NamedException:
    """One prose op that says why it stays words: the rule or card, the op's note, its reason (model.effects.WHY)."""
    owner: object             # model.catalogue.Rule or Card
    why: str
    note: str
    line: int

    @property
    def reason(self) -> tuple:
        return WHY[self.why]


def exceptions(cat) -> list:
    """Every prose op of the catalogue that names its reason, rules (skills then grants, in id order) then cards."""
    owners = sorted(cat.skills.values(), key=lambda r: (r.is_grant, r.id)) + sorted(cat.cards.values(), key=lambda c: c.id)
    out = []
    for o in owners:
        for op in walk(o.do):
            if op.op == "prose" and op.args.get("why") in WHY:
                out.append(NamedException(o, op.args["why"], op.args.get("note", ""), op.loc.line))
    return out


def rule_coverage(r) -> RuleCoverage:
    t, tb = _trigger(r)
    e, eb = _effect(r)
    return RuleCoverage(r, t, tb, e, eb)


@dataclass
class CardCoverage:
    card: object              # model.catalogue.Card
    effect: str               # data | exception | part | prose
    ops: tuple                # the op names of its do, in order, alternatives' included


def card_coverage(cat) -> list[CardCoverage]:
    """Every card of the catalogue, in id order: is what it does data?"""
    out = []
    for c in sorted(cat.cards.values(), key=lambda c: c.id):
        status = PROSE if not c.do or all(o.op == "prose" for o in walk(c.do)) else do_status(c.do)
        out.append(CardCoverage(c, status, tuple(o.op for o in walk(c.do))))
    return out


def card_counts(rows) -> dict:
    return {"cards": len(rows), "effect": {s: sum(1 for c in rows if c.effect == s) for s in STATUSES}}


def ops_used(cat) -> dict:
    """How often each op is written in the catalogue (rules and cards), in the vocabulary's order."""
    from .effects import OPS
    n: dict = {}
    for owner in list(cat.skills.values()) + list(cat.cards.values()):
        for o in walk(owner.do):
            n[o.op] = n.get(o.op, 0) + 1
    return {k: n[k] for k in OPS if k in n}


def coverage(cat) -> list[RuleCoverage]:
    """Every rule of the catalogue (skills then grants, in id order)."""
    rules = sorted(cat.skills.values(), key=lambda r: (r.is_grant, r.id))
    return [rule_coverage(r) for r in rules]


def counts(rows, origin: str = "server") -> dict:
    """The figures of the rules of ``origin`` (the README's): how many rules, how many have their trigger / effect
    as data, in part, or only as prose; the same over the TriggeredSkills alone; the events they answer."""
    rows = [c for c in rows if c.rule.origin == origin]
    trig = [c for c in rows if c.triggered]

    def tally(cs, attr):
        return {s: sum(1 for c in cs if getattr(c, attr) == s) for s in (STATUSES if attr == "effect" else (DATA, PART, PROSE))}
    events = {}
    for c in trig:
        for o in c.rule.on:
            events[o.event] = events.get(o.event, 0) + 1
    return {"rules": len(rows), "trigger": tally(rows, "trigger"), "effect": tally(rows, "effect"),
            "triggered": len(trig), "triggered_trigger": tally(trig, "trigger"),
            "with_on": sum(1 for c in trig if c.rule.on),
            "with_do": sum(1 for c in rows if c.rule.do),
            "guard_prose": sum(1 for c in trig if any(o.guard_prose for o in c.rule.on)),
            "events": {k: events[k] for k in EVENT_KINDS if k in events}}
