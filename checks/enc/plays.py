"""Playing cards, symbolically: twin of ``model/interp/plays.py`` (``card_usable``, ``can_play``,
``resolves``).
"""
from __future__ import annotations

import z3

from ..terms import And, Eq, Or
from .bans import enc_banned
from .conversion import enc_conversion
from .core import memo
from .state import NONE, WCODE, Moment, SymState, w_in
from .usable import enc_spent, unconditional
from skillproof.model.turn import COND_WINDOWS
from .windows import enc_in_window


def _const(v):
    """The Python int of a constant argument (an int or a z3 numeral), else None."""
    if isinstance(v, int):
        return v
    if z3.is_int_value(v):
        return v.as_long()
    return None


def enc_card_usable(S: SymState, declared, seat=0, m: Moment | None = None):
    """Twin of interp.plays.card_usable: a card of the declared type may be used by ``seat`` now."""
    return _card_usable(S, declared, seat, m or S.q)


@memo
def _card_usable(S: SymState, declared, seat, m: Moment):
    k = _const(declared)
    if k is not None:               # a known card type: only its own windows can hold (same term, built once)
        return enc_in_window(S, m, seat, S.cards[k].windows) if k in S.cards else z3.BoolVal(False)
    return Or([And(Eq(declared, k), enc_in_window(S, m, seat, c.windows))
                  for k, c in S.cards.items()] or [z3.BoolVal(False)])


def enc_card_window(S: SymState, declared):
    """The window of the question is one the declared card type is used in (whoever uses it)."""
    return Or([S.now == NONE] + [And(declared == i, w_in(S.now, tuple(c.windows)))
                                    for i, c in S.cards.items() if c.windows])


def enc_has_card(S: SymState, seat: int = 0):
    """Twin of interp.plays.has_card: ``seat`` holds a card to play or to convert."""
    return S.ints["hand_count"][seat] > 0


@memo
def enc_can_play(S: SymState, actual, declared):
    """Twin of interp.plays.can_play: a card in hand, convertible, not banned, usable in the window."""
    ok, _ = enc_conversion(S, actual, declared)
    return And(enc_has_card(S), ok, z3.Not(enc_banned(S, declared)), enc_card_usable(S, declared))


def enc_plays_when(S: SymState, slot, rule, card: str, seat: int = 0):
    """Twin of interp.plays.plays_when: the skill in ``slot`` acts as ``card`` now (its ``plays.when``)."""
    p = rule.plays
    cond = p.when.get(card, p.when.get("*")) if p is not None and p.when else None
    return z3.BoolVal(True) if cond is None else S.compile(cond, S.ctx(seat, slot))


@memo
def enc_resolves(S: SymState, declared):
    """Twin of interp.plays.resolves: some card reaches play declared as ``declared``, or a live skill acting as
    it with no card (plays.card_of = none) may be used now and passes the user's bans if it consults them."""
    cat = S.cat
    terms = [enc_can_play(S, z3.IntVal(k), declared) for k in S.cards]
    for slot in S.slots:
        for rid in slot.candidates:
            r = cat.skills[rid]
            p = r.plays
            if p is None or p.card_of != "none":
                continue
            is_card = Or([And(declared == S.codes.card[c], enc_plays_when(S, slot, r, c)) for c in p.cards])
            live = And(slot.present, S.rule_is(slot, rid), z3.Not(S.invalid(slot)))
            if r.has("ActiveSkill"):
                now = And(z3.Not(enc_spent(S, slot, rid)), enc_in_window(S, S.q, 0, r.windows))
                for win in COND_WINDOWS:
                    if unconditional(r, win):
                        continue
                    c = getattr(r, win)
                    ok = S.compile(c, S.ctx(0, slot)) if c is not None else z3.BoolVal(False)
                    now = And(now, z3.Implies(S.now == WCODE[win], ok))
            else:
                now = enc_card_usable(S, declared)
            bans = z3.Not(enc_banned(S, declared)) if p.checks_bans else z3.BoolVal(True)
            terms.append(And(is_card, live, now, bans))
    return Or(terms)
