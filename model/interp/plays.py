"""Playing cards: may a card type be used in the window (``card_usable``), does a card reach play as a
declared type (``can_play``), a skill that puts a card into play (``plays``), does a card's effect happen by a
player's doing (``resolves``).

Twin: ``checks/enc/plays.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..state import State
from .bans import banned
from .conversion import conversion
from .core import env_of, evaluate
from ..turn import COND_WINDOWS
from .usable import skill_usable_now, spent, usable
from .windows import in_window


def card_usable(cat: Catalogue, state: State, seat: int, declared: str) -> bool:
    """May ``seat`` use a card of the declared type in the state's window?

    Server (card/*.kt canUse): each card checks the FSM state it is used in and who may use it there
    (e.g. DiaoHuLiShan: ``r === (fsm as? MainPhaseIdle)?.whoseTurn``; PoYi: the player in front of whom
    the message is in SendPhaseIdle). The catalogue's ``windows`` table says it per card. An untimed
    state (no window) allows every card."""
    card = cat.cards.get(declared)
    return card is not None and in_window(state, seat, card.windows)


def has_card(state: State, seat: int) -> bool:
    """Does ``seat`` hold a card to play or to convert? A card is played from its player's hand (server
    ``Player.findCard`` before every card's use and every conversion: a use names a card of the hand, refused when it
    is not there — handler/Use*Tos.kt ``r.findCard(pb.cardId)``)."""
    return state.seats[seat].hand_count > 0


def can_play(cat: Catalogue, state: State, seat: int, actual: str, declared: str) -> bool:
    """A card of type ``actual`` reaches play as ``declared``: the player holds a card (``has_card``), convertible,
    not banned, and a card of the declared type may be used by this player in this window."""
    return has_card(state, seat) and conversion(cat, state, seat, actual, declared).ok \
        and not banned(cat, state, seat, declared) and card_usable(cat, state, seat, declared)


def plays_when(cat: Catalogue, state: State, seat: int, inst, declared: str) -> bool:
    """Does the skill of ``inst`` act as ``declared`` now (``plays.when``: its condition for that card, or for every
    card; true when it has none)? Server: 应变自如 acts as 截获 only on a red or blue message, as 误导 only on a black one
    (skill/YingBianZiRu.kt executeProtocol)."""
    p = cat.skills[inst.rule].plays
    cond = p.when.get(declared, p.when.get("*")) if p is not None and p.when else None
    return cond is None or bool(evaluate(cond, env_of(cat, state, seat, inst)))


def plays(cat: Catalogue, state: State, skill_id: str, user: int, owner: int, actual: str, declared: str) -> dict:
    """A skill that puts ``owner``'s card of type ``actual`` into play as ``declared`` for ``user``
    (``plays`` with card_of = target; server RuBiZhiShi: the target's bans, the target's conversions with
    only must-conversions counted, then the physical card's own effect). Returns whether the server
    accepts it and which card type's effect then happens."""
    rule = cat.skills[skill_id]
    p = rule.plays
    live = any(i.rule == skill_id and skill_usable_now(cat, state, user, i) and plays_when(cat, state, user, i, declared)
               for i in state.seats[user].skills)
    conv = conversion(cat, state, owner, actual, declared, only_must=True)
    whose = owner if p.bans_of == "target" else user
    in_window = state.window is None or (declared in cat.cards and state.window in cat.cards[declared].windows
                                         and (p.resolves != "physical" or (actual in cat.cards and
                                                                            state.window in cat.cards[actual].windows)))
    ok = live and in_window and declared in p.cards and conv.ok and \
        not (p.checks_bans and banned(cat, state, whose, declared))
    # the card put into play is one of its owner's hand (card_of = user / target): he must hold one
    return {"validated": ok and has_card(state, owner), "resolves": actual if p.resolves == "physical" else declared,
            "has_card": has_card(state, owner)}


def resolves(cat: Catalogue, state: State, seat: int, declared: str) -> dict:
    """Does the effect of a ``declared`` card happen by ``seat``'s doing now?

    Either a card reaches play declared as it (``can_play``, for some actual card), or a skill acting as it
    with no card at all (``plays`` with card_of = none: 偷天, 诡诈, 应变自如 — server ``JieHuo.Companion.execute(
    null, …)``, ``WuDao.Companion.onUseCard(null, …)``) is live and may be used now — an ActiveSkill in one of
    its windows, by an actor it allows, its 争夺阶段 / 濒死求澄清 condition holding there; another skill wherever
    the card itself may be used — and lets it through the user's bans when it consults them
    (``plays.checks_bans``). A skill that puts another player's card into play (如臂指使) is not counted: the
    card, its conversions and bans are the target's. Returns ``{"resolves", "via"}`` (via: the skill, or None
    for a card)."""
    for actual in cat.cards:
        if can_play(cat, state, seat, actual, declared):
            return {"resolves": True, "via": None}
    for inst in state.seats[seat].skills:
        rule = cat.skills[inst.rule]
        p = rule.plays
        if p is None or p.card_of != "none" or declared not in p.cards or inst.invalid:
            continue
        if not plays_when(cat, state, seat, inst, declared):
            continue
        if rule.has("ActiveSkill"):
            if spent(cat, inst) or not in_window(state, seat, rule.windows):
                continue
            if state.window in COND_WINDOWS and not usable(cat, state, seat, inst, state.window):
                continue
        elif not card_usable(cat, state, seat, declared):
            continue
        if p.checks_bans and banned(cat, state, seat, declared):
            continue
        return {"resolves": True, "via": inst.rule}
    return {"resolves": False, "via": None}
