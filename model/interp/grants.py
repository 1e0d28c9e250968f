"""Grants: where holding a granted rule matters (``grant_matters``), the gives sites that hand grants out
(``site_of``, ``site_name``), whom a site reaches (``to_ok``), a grant's parameters (``args_errors``) and
invalidation (``invalidate``, note L82-84).

Twin: ``checks/enc/grants.py``.
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..reason import Reason, echoed
from ..state import SkillInst, State
from .bans import ban_all, ban_cards
from .core import Env, evaluate
from .plays import card_usable
from .windows import at_decision


def grant_matters(cat: Catalogue, state: State, seat: int, inst: SkillInst) -> bool:
    """Is the state's moment one where a rule like ``inst`` is consulted for ``seat`` — where holding it or
    not can change anything: a ban where a card it bans may be used, a receive rule where the player
    chooses, a send rule where they send, a draw rule where they draw, a conversion where a card may be
    played? (Other kinds: always.)"""
    rule = cat.skills[inst.rule]
    if rule.ban is not None:
        return any(card_usable(cat, state, seat, c) and (ban_all(rule, inst) or c in ban_cards(rule, inst))
                   for c in cat.cards)
    if rule.receive is not None:
        return at_decision(state, "receive", seat)
    if rule.send is not None:
        return at_decision(state, "send", seat)
    if rule.draw is not None:
        return at_decision(state, "draw", seat)
    if rule.convert is not None:
        return any(card_usable(cat, state, seat, c) for c in cat.cards)
    return True


def matters_windows(cat: Catalogue, rule_id: str, args: dict) -> frozenset | None:
    """The windows in which ``grant_matters`` may hold for a rule like ``SkillInst(rule_id, args)`` (None: any
    moment): it reads nothing before the state's window — a ban, the windows of the cards it bans; a conversion, of
    any card; a receive, send or draw rule, its decision's windows (model.turn.DECISION_WINDOWS). What the actor and
    the table add is left to ``grant_matters`` itself: this only rules moments out (checks/realise.asks_there: a
    template whose game ends elsewhere is not solved)."""
    from ..turn import DECISION_WINDOWS
    rule = cat.skills.get(rule_id)
    if rule is None:
        return None
    if rule.ban is not None:
        inst = SkillInst(rule_id, dict(args))
        names = list(cat.cards) if ban_all(rule, inst) else [c for c in ban_cards(rule, inst) if c in cat.cards]
        return frozenset(w for c in names for w in cat.cards[c].windows)
    for kind in ("receive", "send", "draw"):
        if getattr(rule, kind) is not None:
            return frozenset(DECISION_WINDOWS[kind][0])
    if rule.convert is not None:
        return frozenset(w for c in cat.cards.values() for w in c.windows)
    return None


def site_of(cat: Catalogue, site: str | None):
    if not isinstance(site, str):
        return None
    giver, _, idx = site.partition("#")
    src = cat.skills.get(giver) or cat.cards.get(giver)
    if src is None or not idx.isdigit() or int(idx) >= len(src.gives):
        return None
    return src.gives[int(idx)]


def site_name(cat: Catalogue, site) -> str:
    """A gives site for people: its giver's catalogue name and its index (变则通#0); an unknown giver as written."""
    if not isinstance(site, str):
        return echoed(site)
    giver, sep, idx = site.partition("#")
    return (cat.name_of(giver) if giver in cat.skills or giver in cat.cards else echoed(giver)) + sep + echoed(idx)


#: whom a gives site that can miss a seat hands its grant to: to -> (zh, en)
TO_ONLY = {"self": ("只给出者自己", "the giver alone"), "others": ("只给其他角色", "other players only")}


def to_ok(to: str, giver: int, receiver: int) -> bool:
    """A gives site's ``to``: self — the giver; others — anyone but the giver; target / all — anyone."""
    return {"self": giver == receiver, "others": giver != receiver}.get(to, True)


#: the player sets a grant op may hand its grant to (model/effects.py PLAYER_SETS)
SETS = ("all", "others")


def set_grants(ops) -> dict:
    """The grants an effect hands to a set of players at once (its ``grant`` ops whose ``to`` is ``all`` or ``others``),
    grant id -> that word (the first op's). Server: skill/JieCheYunHuo.kt, QiangLing.kt, LengXueXunLian.kt,
    BianZeTong.kt, YouDiShenRu.kt hand theirs out in one ``players.forEach { skills += … }``. Twin:
    checks/enc/grants.enc_set_grants."""
    from ..effects import walk
    out: dict = {}
    for o in walk(ops):
        if o.op == "grant" and o.args.get("to") in SETS and isinstance(o.args.get("grant"), str):
            out.setdefault(o.args["grant"], o.args["to"])
    return out


def set_granted(cat: Catalogue, give) -> bool:
    """Is the site's grant one its giver's effect hands to a set of players (so each of its gives is one of a run
    handing it to every one of them at once: model/interp/game.GameRunner.gives_at_once)?"""
    src = cat.cards.get(give.giver) if give.giver_is_card else cat.skills.get(give.giver)
    return src is not None and give.grant in set_grants(src.do)


def one_grants(ops) -> dict:
    """The grants an effect hands to one player (its ``grant`` ops whose ``to`` names one: ``self``, ``target``,
    ``chosen``, ``chosen2`` …), grant id -> the words, in order; a grant it also hands to a set is the set's
    (``set_grants``). Server: the effect's own ``r.skills += …`` / ``target.skills += …`` as it resolves
    (skill/LengXueXunLian.kt ExecuteLengXueXunLian.resolve: MustLockOne to its user; XianFaZhiRen.kt: InvalidSkill
    to the chosen player; card/DiaoHuLiShan.kt: to the target …). Twin: checks/enc/grants.enc_one_grants."""
    from ..effects import walk
    sets = set_grants(ops)
    out: dict = {}
    for o in walk(ops):
        g, to = o.args.get("grant"), o.args.get("to")
        if o.op == "grant" and isinstance(g, str) and g not in sets and isinstance(to, str) and to not in SETS:
            out.setdefault(g, [])
            if to not in out[g]:
                out[g].append(to)
    return {g: tuple(v) for g, v in out.items()}


def unsure_sites(src, grant: str) -> bool:
    """Does a gives site of ``src`` for ``grant`` hand it out on a condition with a part the vocabulary cannot say
    (an ``unknown`` in its ``when``: 就计 hands its grant out only for a real card, not 诡诈's virtual one)? Then the
    effect's grant op running does not tell whether the give follows: at most as many gives, not exactly.
    Twin: checks/enc/grants.enc_unsure_sites."""
    from .. import expr as E
    return any(g.grant == grant and g.when is not None and any(isinstance(n, E.Unknown) for n in E.walk(g.when))
               for g in getattr(src, "gives", ()) or ())


def one_granted(cat: Catalogue, give) -> bool:
    """Is the site's grant one its giver's effect hands to one player (so each of its gives follows right after that
    effect, to the player it names: model/interp/game.GameRunner.gives_to_one)?"""
    src = cat.cards.get(give.giver) if give.giver_is_card else cat.skills.get(give.giver)
    return src is not None and give.grant in one_grants(src.do)


def recipients(to: str, actor: int, n: int) -> tuple:
    """Whom a grant op handing its grant to a set reaches: every seat (``all``: the server's ``g.players.forEach``
    walks every seat, the dead and the user included), or every seat but the actor's (``others``)."""
    return tuple(s for s in range(n) if to != "others" or s != actor)


def _arg_value(cat, v) -> Reason:
    """A fixed argument of a gives site for people, in both languages (names, 是/否 or yes/no, sets in braces)."""
    from ..expr_words import value
    from ..reason import both
    return both(value, cat, list(v) if isinstance(v, (list, tuple, set, frozenset)) else v)


def _param(p: str) -> Reason:
    from ..lang import PARAMS
    zh, en = PARAMS.get(p, (p, p))
    return Reason(zh, en)


def _where_broken(cat, give) -> Reason:
    from ..expr_words import words
    from ..reason import both
    cond = both(words, give.where, cat)
    return Reason(f"参数不满足{cat.giver_name(give)}给出处的条件「{cond.zh}」",
                  f"its parameters break the condition of {cat.name_of(give.giver)}'s gives site: `{cond.en}`")


def args_errors(cat, state, give, grant, inst: SkillInst) -> Reason | str:
    """Why the grant's parameters cannot come from this site (a ``Reason``; '' when they can): fixed ``args``,
    every parameter given, the site's ``where``."""
    for p, v in give.args.items():
        got = inst.args.get(p)
        if (tuple(sorted(got)) if isinstance(got, (list, tuple, frozenset, set)) else got) != \
                (tuple(sorted(v)) if isinstance(v, list) else v):
            pn, val = _param(p), _arg_value(cat, v)
            return Reason(f"参数{pn.zh}必须为{val.zh}", f"parameter {pn.en} must be {val.en}")
    for p in grant.params:
        if p not in inst.args:
            return Reason(f"参数{_param(p).zh}没有值", f"parameter {_param(p).en} has no value")
    if give.where is not None:
        env = Env(cat, state, {"self": inst.giver}, dict(inst.args), {})
        if not evaluate(give.where, env):
            return _where_broken(cat, give)
    return ""


def invalidate(cat: Catalogue, state: State, seat: int) -> State:
    """note L82-84: only initial skills can be invalidated; each is wrapped in an InvalidSkill.
    Server (Skill.kt InvalidSkill.deal): every initial skill in the list at that moment."""
    out = state.copy()
    out.seats[seat].invalidated = True
    for inst in out.seats[seat].skills:
        if cat.skills[inst.rule].initial:
            inst.invalid = True
    return out


#: the events of a gives site (its ``on``) the timed model sees happen (model/interp/trace.Runner): ``send`` — the turn's
#: message is sent, which the trace shows as the turn's first message window (model.turn.MESSAGE_WINDOWS)
SEEN_EVENTS = ("send",)
#: the seat attributes a must-fire site's ``when`` may read: the same all turn (``is_sender``, ``my_turn``) or all the
#: trace (``alive``, the setup's) — read at the event or at the question alike
STABLE_ATTRS = ("is_sender", "my_turn", "alive")


def must_fire(cat: Catalogue, give) -> str | None:
    """Is the site's firing automatic — must its grant be handed out once its event happened? Then the set of players
    its grant op names (``all``, ``others`` or ``self``); None when its holder chooses (a ``may``, an ``if``, a
    ``choose``), when the receiver is chosen (``chosen``, ``target``), or when the timed model cannot see or read what
    it needs (an event other than ``SEEN_EVENTS``, a guard on the event, a ``when`` reading more than
    ``STABLE_ATTRS``, free arguments or a ``where``, a limited, consumed or active skill, a grant or a card giving, a
    grant of one resolution).
    Server: a TriggeredSkill with no choice acts on every event it answers — Game.dealListeningSkill asks each skill
    that listens and skill/JieCheYunHuo.kt's ``execute`` hands CannotPlayCard(误导) to every player on its holder's
    SendCardEvent, with no prompt. Twin: checks/enc/grants.enc_must_fire."""
    from .. import expr as E
    if give.giver_is_card or give.on not in SEEN_EVENTS or not give.at or give.where is not None:
        return None
    rule = cat.skills.get(give.giver)
    grant = cat.skills.get(give.grant)
    if rule is None or grant is None or rule.is_grant or not rule.has("TriggeredSkill") or rule.has("ActiveSkill") \
            or rule.limit != "none" or rule.consumed or "InvalidSkill" in grant.closure or grant.lifetime == "resolution":
        return None                     # (a grant of one resolution is never held when anyone acts in the timed model)
    ons = [o for o in rule.on if o.event == give.on]
    if not ons or not all(o.whose in (("sender",), ("any",)) and not o.guard_prose and isinstance(o.when, E.Lit)
                          and o.when.value is True for o in ons):
        return None
    from ..effects import walk
    top = [o for o in rule.do if o.op == "grant" and o.args.get("grant") == give.grant]
    every = [o for o in walk(rule.do) if o.op == "grant" and o.args.get("grant") == give.grant]
    if len(top) != 1 or len(every) != 1 or top[0].may or top[0].cond is not None:
        return None
    to = top[0].args.get("to")
    if to not in ("all", "others", "self") or give.to not in (to, "all", "target"):
        return None
    if any(p not in give.args for p in grant.params):
        return None
    for n in E.walk(give.when):
        if isinstance(n, E.Unknown) or (isinstance(n, E.Attr) and n.name not in STABLE_ATTRS) or \
                (isinstance(n, E.Var) and n.name != "self"):
            return None
    return to


def fired_recipients(to: str, giver: int, n: int) -> tuple:
    """Whom a must-fire site's grant reaches: every seat (``all``), every seat but the giver's, or the giver."""
    return (giver,) if to == "self" else recipients(to, giver, n)
