"""Bans: is a declared card type banned for a player, or is every card (note L97, L101; server
CannotPlayCard.kt).

Twin: ``checks/enc/bans.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue, Ref, Rule
from ..state import SkillInst, State
from .core import live_kinds


def banned(cat: Catalogue, state: State, seat: int, declared: str) -> bool:
    """Is the declared card type banned for ``seat``?

    note L101: CannotPlayCard has two parameters, the banned card types and whether all cards are
    banned. Server (CannotPlayCard.kt cannotPlayCard): bans look at the *declared* type — the card's
    type after conversion — and every CannotPlayCard in the list counts.
    """
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        if "CannotPlayCard" not in live_kinds(cat, inst) or rule.ban is None:
            continue
        if ban_all(rule, inst) or declared in ban_cards(rule, inst):
            return True
    return False


def banned_by(cat: Catalogue, state: State, seat: int, declared: str, sites) -> bool:
    """Is the declared card type banned for ``seat`` by a grant handed out at one of ``sites`` (site ids, 借车运货#0):
    the ban a giver's grant makes, with the arguments it was handed out with — not any ban held beside it (借车运货's
    CannotPlayCard bans 误导 only, skill/JieCheYunHuo.kt; 强令's bans the names declared, QiangLing.kt).
    Twin: checks/enc/bans.enc_banned_by."""
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        if inst.site not in sites or "CannotPlayCard" not in live_kinds(cat, inst) or rule.ban is None:
            continue
        if ban_all(rule, inst) or declared in ban_cards(rule, inst):
            return True
    return False


def ban_all(rule: Rule, inst: SkillInst) -> bool:
    b = rule.ban.all
    return bool(inst.args.get(b.value, False)) if isinstance(b, Ref) else bool(b)


def ban_cards(rule: Rule, inst: SkillInst) -> frozenset:
    c = rule.ban.cards
    if isinstance(c, Ref):
        return frozenset(inst.args.get(c.value, ()))
    return frozenset(r.value for r in c)


def banned_all(cat: Catalogue, state: State, seat: int) -> bool:
    """note L97: "没有被禁止出所有牌" — some CannotPlayCard bans every card."""
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        if "CannotPlayCard" in live_kinds(cat, inst) and rule.ban is not None and ban_all(rule, inst):
            return True
    return False
