"""Conversion: may a card of one type be used as another, and which ConvertCardSkill fires
(note L109-113, server ConvertCardSkill.kt).

Twin: ``checks/enc/conversion.py``.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..catalogue import Catalogue, Rule
from ..state import State
from .core import live_kinds, ref_value


@dataclass(frozen=True)
class Conversion:
    ok: bool
    via: int | None          # index in the skill list of the conversion skill that fires (None: none)


def conversion(cat: Catalogue, state: State, seat: int, actual: str, declared: str,
               only_must: bool = False) -> Conversion:
    """Can ``seat`` use a card whose actual type is ``actual`` as ``declared``, and which
    ConvertCardSkill fires?

    note L109-113: when the card is actually A: (1) if A must be used as B and the declared type is not
    B, it can never be used; (2) otherwise a card declared as itself is played without conversion;
    (3) if A must / may be used as B and B is declared, the conversion happens.
    Server (skill/ConvertCardSkill.kt canUseCardTypes) goes further: rule (1) is a veto by *any*
    must-conversion whose source matches and whose targets lack the declared type, wherever it stands in
    the list; a must-conversion beats an optional one, otherwise the last acquired wins; a must-conversion
    "fires" even when declared == actual; initial skills of a face-down role are skipped; a source of
    "any card" matches every card; ``only_must`` (盛老板's 如臂指使) ignores optional conversions.
    """
    s = state.seats[seat]
    ok = actual == declared
    via: int | None = None
    via_must = False
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if "ConvertCardSkill" not in live_kinds(cat, inst) or rule.convert is None:
            continue
        if not s.face_up and not face_down_applies(cat, rule):
            continue                                   # server: roleFaceUp || !isInitialSkill
        source = ref_value(rule.convert.source, inst)
        if source is not None and source != actual:
            continue
        targets = [ref_value(t, inst) for t in rule.convert.targets]
        must = rule.convert.must
        if declared not in targets:
            if must:
                return Conversion(False, None)       # note L111: vetoed outright
            continue
        if only_must and not must:
            continue
        ok = True                                     # note L113
        if declared != actual or must:
            if via is None or not via_must or must:  # must beats optional; else later wins
                via, via_must = i, must
    return Conversion(ok, via)


def face_down_applies(cat: Catalogue, rule: Rule) -> bool:
    """Whether a conversion applies while its owner is face down: ``rules.face_down_converts`` for initial
    skills, ``rules.face_down_grant_converts`` for granted ones."""
    return cat.rules.face_down_converts if rule.initial else cat.rules.face_down_grant_converts
