"""Grants, symbolically: twin of ``model/interp/grants.py`` — where holding a granted rule matters
(``enc_grant_matters``), whom a gives site reaches (``enc_to_ok``), a grant's fixed arguments (``enc_arg_eq``).
"""
from __future__ import annotations

import z3

from ..terms import And, IntVal, Not, Or
from .bans import enc_ban_all, enc_ban_has
from .plays import enc_card_usable
from .state import Slot, SymState
from .windows import enc_at_decision


def enc_grant_matters(S: SymState, rid: str, slot: Slot, seat=0):
    """Twin of interp.grants.grant_matters for rule ``rid`` with ``slot``'s parameters."""
    r = S.cat.skills[rid]
    cards = [IntVal(k) for k in S.cards]
    if r.ban is not None:
        return Or([And(enc_card_usable(S, c, seat), Or(enc_ban_all(S, r, slot), enc_ban_has(S, r, slot, c)))
                      for c in cards] or [z3.BoolVal(False)])
    if r.receive is not None:
        return enc_at_decision(S, "receive", seat)
    if r.send is not None:
        return enc_at_decision(S, "send", seat)
    if r.draw is not None:
        return enc_at_decision(S, "draw", seat)
    if r.convert is not None:
        return Or([enc_card_usable(S, c, seat) for c in cards] or [z3.BoolVal(False)])
    return z3.BoolVal(True)


def enc_to_ok(to: str, g, receiver):
    """Twin of interp.grants.to_ok."""
    if to == "self":
        return g == receiver if not isinstance(g, int) or not isinstance(receiver, int) else z3.BoolVal(g == receiver)
    if to == "others":
        return g != receiver if not isinstance(g, int) or not isinstance(receiver, int) else z3.BoolVal(g != receiver)
    return z3.BoolVal(True)


def enc_arg_eq(S: SymState, ptype: str, var, value):
    if ptype == "bool":
        return var == z3.BoolVal(value)
    if ptype == "int":
        return var == value
    if ptype == "card":
        return var == S.codes.card[value]
    if ptype == "colour":
        return var == S.codes.colour[value]
    if ptype == "set<card>":            # exactly the cards named: the same term for every giver seat, made once
        cache = S.__dict__.setdefault("_set_eq_cache", {})
        key = (id(var), frozenset(value))
        if key not in cache:
            want = {S.codes.card[x] for x in value}
            cache[key] = (var, And([b if c in want else Not(b) for c, b in var.items()]))
        return cache[key][1]
    raise ValueError(ptype)


#: twin of interp.grants.SETS
SETS = ("all", "others")


def enc_set_grants(ops) -> dict:
    """Twin of interp.grants.set_grants: grant id -> ``all`` / ``others`` for the grants an effect hands to a set of
    players at once (server: ``players.forEach { it.skills += … }``)."""
    from skillproof.model.effects import walk
    out: dict = {}
    for o in walk(ops):
        if o.op == "grant" and o.args.get("to") in SETS and isinstance(o.args.get("grant"), str):
            out.setdefault(o.args["grant"], o.args["to"])
    return out


def enc_set_granted(cat, give) -> bool:
    """Twin of interp.grants.set_granted."""
    src = cat.cards.get(give.giver) if give.giver_is_card else cat.skills.get(give.giver)
    return src is not None and give.grant in enc_set_grants(src.do)


def enc_one_grants(ops) -> dict:
    """Twin of interp.grants.one_grants: grant id -> the words naming the one player an effect hands it to (``self``,
    ``target``, ``chosen`` …; a grant it also hands to a set is the set's). Server: the effect's own
    ``r.skills += …`` as it resolves (skill/LengXueXunLian.kt ExecuteLengXueXunLian.resolve: MustLockOne)."""
    from skillproof.model.effects import walk
    sets = enc_set_grants(ops)
    out: dict = {}
    for o in walk(ops):
        g, to = o.args.get("grant"), o.args.get("to")
        if o.op == "grant" and isinstance(g, str) and g not in sets and isinstance(to, str) and to not in SETS:
            out.setdefault(g, [])
            if to not in out[g]:
                out[g].append(to)
    return {g: tuple(v) for g, v in out.items()}


def enc_unsure_sites(src, grant: str) -> bool:
    """Twin of interp.grants.unsure_sites: a gives site of ``src`` for ``grant`` whose ``when`` has an ``unknown``."""
    from skillproof.model import expr as E
    return any(g.grant == grant and g.when is not None and any(isinstance(n, E.Unknown) for n in E.walk(g.when))
               for g in getattr(src, "gives", ()) or ())


def enc_one_granted(cat, give) -> bool:
    """Twin of interp.grants.one_granted."""
    src = cat.cards.get(give.giver) if give.giver_is_card else cat.skills.get(give.giver)
    return src is not None and give.grant in enc_one_grants(src.do)


def enc_recipients(to: str, actor: int, n: int) -> tuple:
    """Twin of interp.grants.recipients: every seat (all, dead ones and the actor included), or all but the actor's."""
    return tuple(s for s in range(n) if to != "others" or s != actor)


#: twin of interp.grants.SEEN_EVENTS: the events of a gives site the timed model sees happen (``send``: the turn's
#: first message window)
SEEN_EVENTS = ("send",)
#: twin of interp.grants.STABLE_ATTRS: what a must-fire site's ``when`` may read (the same at the event and the question)
STABLE_ATTRS = ("is_sender", "my_turn", "alive")


def enc_must_fire(cat, give) -> str | None:
    """Twin of interp.grants.must_fire: the set of players (``all``, ``others``, ``self``) an automatic site's grant
    must reach once its event happened, or None (a choice, a chosen receiver, or what the timed model cannot see).
    Server: skill/JieCheYunHuo.kt — a TriggeredSkill with no prompt hands CannotPlayCard(误导) to every player on its
    holder's SendCardEvent (Game.dealListeningSkill asks every listening skill)."""
    from skillproof.model import expr as E
    from skillproof.model.effects import walk
    if give.giver_is_card or give.on not in SEEN_EVENTS or not give.at or give.where is not None:
        return None
    rule, grant = cat.skills.get(give.giver), cat.skills.get(give.grant)
    if rule is None or grant is None or rule.is_grant or not rule.has("TriggeredSkill") or rule.has("ActiveSkill") \
            or rule.limit != "none" or rule.consumed or "InvalidSkill" in grant.closure or grant.lifetime == "resolution":
        return None                     # (never held when anyone acts in the timed model: not a grant slot's)
    ons = [o for o in rule.on if o.event == give.on]
    if not ons or any(o.whose not in (("sender",), ("any",)) or o.guard_prose or not isinstance(o.when, E.Lit)
                      or o.when.value is not True for o in ons):
        return None
    top = [o for o in rule.do if o.op == "grant" and o.args.get("grant") == give.grant]
    every = [o for o in walk(rule.do) if o.op == "grant" and o.args.get("grant") == give.grant]
    if len(top) != 1 or len(every) != 1 or top[0].may or top[0].cond is not None:
        return None
    to = top[0].args.get("to")
    if to not in ("all", "others", "self") or give.to not in (to, "all", "target") or \
            any(p not in give.args for p in grant.params):
        return None
    if any(isinstance(n, E.Unknown) or (isinstance(n, E.Attr) and n.name not in STABLE_ATTRS) or
           (isinstance(n, E.Var) and n.name != "self") for n in E.walk(give.when)):
        return None
    return to


def enc_fired_recipients(to: str, giver: int, n: int) -> tuple:
    """Twin of interp.grants.fired_recipients: every seat (``all``), every seat but the giver's, or the giver."""
    return (giver,) if to == "self" else enc_recipients(to, giver, n)
