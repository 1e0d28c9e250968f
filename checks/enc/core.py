"""The encoder's shared core, on the symbolic state (``state.py``): the memo of decision encodings
(``memo``), a rule's reference as a z3 value (``ref_code``) and the slot lookups the checks ask with
(``holds``, ``slot_is``, ``card_var``).

Twin: ``model/interp/core.py`` (with ``state.py``: the evaluation of expressions, ``compile``).
"""
from __future__ import annotations

import z3

from skillproof.model.catalogue import Ref

from ..terms import And, IntVal, Or
from .state import Moment, Slot, SymState


def memo(fn):
    """Cache a decision encoding per symbolic state and arguments (terms are immutable; building them
    is the expensive part of asking many questions about one state). Arguments are keyed by ``_key``."""
    import functools

    @functools.wraps(fn)
    def wrapper(S, *args, **kw):
        key = (fn.__name__,) + tuple(_key(a) for a in args) + tuple((k, _key(v)) for k, v in sorted(kw.items()))
        cache = S.__dict__.setdefault("_enc_cache", {})
        if key not in cache:
            cache[key] = fn(S, *args, **kw)
        return cache[key]
    return wrapper


def _key(a):
    """A cache key for an encoder argument: z3 terms by their AST id (alive as long as the state that
    holds them), moments by their window term, dicts by their items, plain values as they are."""
    if isinstance(a, z3.AstRef):
        return ("ast", a.get_id())
    if isinstance(a, Moment):
        return ("moment", a.w.get_id())
    if isinstance(a, dict):
        return ("dict",) + tuple(sorted(a.items()))
    return a


def ref_code(S: SymState, ref: Ref, slot: Slot):
    if ref.kind == "any":
        return None
    if ref.kind == "card":
        return IntVal(S.codes.card[ref.value])
    return slot.params[ref.value]


def holds(S: SymState, rid: str, kind: str | None = None):
    """[(slot, live)] for every slot that may hold ``rid``; live = it is there and (if ``kind``) has
    that kind now (not wrapped)."""
    out = []
    for sl in S.slots:
        if rid in sl.candidates:
            live = S.live_rule(sl, rid, kind) if kind else And(sl.present, S.rule_is(sl, rid))
            out.append((sl, live))
    return out


def slot_is(S: SymState, index, rid: str):
    """The slot numbered by ``index`` (a z3 Int, e.g. the conversion that fires or the send skill in
    force) holds ``rid``."""
    terms = [And(index == sl.index, S.rule_is(sl, rid)) for sl in S.slots if rid in sl.candidates]
    return Or(terms) if terms else z3.BoolVal(False)


def card_var(S: SymState, name: str):
    v = z3.Int(f"{S.p}{name}")
    return v, And(v >= 0, v < len(S.codes.cards))
