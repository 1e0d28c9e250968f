"""Conversion, symbolically: twin of ``model/interp/conversion.py`` (note L109-113, server
ConvertCardSkill.kt canUseCardTypes), and the pieces of one conversion the checks ask about.
"""
from __future__ import annotations

import z3

from ..terms import And, Eq, Eq2, Ite, Not, Or
from .core import memo, ref_code
from .state import NONE, Slot, SymState


@memo
def enc_conversion(S: SymState, actual, declared, only_must: bool = False):
    """Twin of interp.conversion.conversion (note L109-113 + server canUseCardTypes).
    Returns (ok, via): via is the slot index of the conversion that fires, or NONE."""
    cat = S.cat
    ok = Eq2(actual, declared)
    veto = z3.BoolVal(False)
    via = z3.IntVal(NONE)
    via_must = z3.BoolVal(False)
    for slot in S.slots:
        for rid in S.rules_with(slot, "ConvertCardSkill"):
            r = cat.skills[rid]
            if r.convert is None:
                continue
            # (built of the pieces the families ask about one by one, so that the cross-check of this decision
            # compares them too: mutate_interpreter enc.conversion)
            applies = conversion_applies(S, slot, rid)
            src = conversion_source_is(S, slot, rid, actual)
            matches = applies if z3.is_true(src) else And(applies, src)
            in_targets = conversion_targets_has(S, slot, rid, declared)
            must = z3.BoolVal(r.convert.must)
            veto = Or(veto, And(matches, Not(in_targets), must))
            passes = And(matches, in_targets) if not only_must or r.convert.must else z3.BoolVal(False)
            ok = Or(ok, passes)
            takes = And(passes, Or(actual != declared, must),
                           Or(Eq(via, NONE), Not(via_must), must))
            via = Ite(takes, slot.index, via)
            via_must = Ite(takes, must, via_must)
    return And(ok, Not(veto)), Ite(veto, NONE, via)


def conversion_applies(S: SymState, slot: Slot, rid: str):
    """The conversion ``rid`` in ``slot`` is active (live, and face up if initial)."""
    r = S.cat.skills[rid]
    a = S.live_rule(slot, rid, "ConvertCardSkill")
    if not (S.cat.rules.face_down_converts if r.initial else S.cat.rules.face_down_grant_converts):
        a = And(a, S.face_up[0])
    return a


def conversion_source_is(S: SymState, slot: Slot, rid: str, actual):
    """The card actually played is the conversion's source (always, for a source of any card)."""
    src = ref_code(S, S.cat.skills[rid].convert.source, slot)
    return z3.BoolVal(True) if src is None else Eq2(src, actual)


def conversion_targets_has(S: SymState, slot: Slot, rid: str, declared):
    """The declared type is one of the conversion's targets."""
    return Or([Eq2(ref_code(S, t, slot), declared) for t in S.cat.skills[rid].convert.targets])
