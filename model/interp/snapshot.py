"""The table as it stands: what makes a state impossible whatever happened before (``snapshot_errors``,
``lock_errors``) and the reachability of an untimed state (``reachable``: scenario files written before the
timed model; a trace's legality is ``trace.run``).

Twin: ``checks/enc/snapshot.py`` (the table at the start of a symbolic trace).
"""
from __future__ import annotations

from ..catalogue import Catalogue
from ..reason import Reason
from ..state import SkillInst, State
from .core import env_of, evaluate
from .grants import TO_ONLY, args_errors, site_name, to_ok


#: the state's seats named by a role, for reasons: key -> (zh, en)
SEAT_ROLES = {"turn": ("当前回合的角色", "the turn player"), "sender": ("传出者", "the sender"),
              "in_front": ("情报面前的角色", "the player the message is in front of"),
              "dying": ("濒死的角色", "the dying player")}


def _not_a_seat(k: str) -> Reason:
    zh, en = SEAT_ROLES[k]
    return Reason(f"{zh}不是座位", f"{en} is not a seat")


def _seats_count(n: int, lo: int, hi: int) -> Reason:
    return Reason(f"{n}个座位：一局游戏有{lo}到{hi}个座位", f"{n} seats: a game has {lo} to {hi}")


def _twice() -> Reason:
    return Reason("同一个角色坐在两个座位上", "a character sits twice")


def _unknown_character(si: int, cid) -> Reason:
    from ..reason import echoed
    return Reason(f"座位{si}：未知的角色「{echoed(cid)}」", f"seat {si}: unknown character “{echoed(cid)}”")


def _seat_facts(si: int, s, ch) -> list:
    """What a seat's own attributes say that cannot be: a public role face down, face up but never face up,
    message counts that do not add up."""
    why = []
    if not ch.hidden and not s.face_up:
        why.append(Reason(f"座位{si}：{ch.name}是公开角色，不能面朝下",
                          f"seat {si}: {ch.name} is a public role and cannot be face down"))
    if s.face_up and not s.ever_face_up:
        why.append(Reason(f"座位{si}：面朝上，却记为从未面朝上", f"seat {si}: face up, yet never face up"))
    if not (max(s.red_messages, s.blue_messages) <= s.true_messages <= s.red_messages + s.blue_messages):
        why.append(Reason(f"座位{si}：真情报数（{s.true_messages}）与红色情报数（{s.red_messages}）、蓝色情报数"
                          f"（{s.blue_messages}）不符",
                          f"seat {si}: {s.true_messages} red or blue messages do not fit {s.red_messages} red and "
                          f"{s.blue_messages} blue"))
    if s.non_black_messages > s.true_messages:
        why.append(Reason(f"座位{si}：非黑色情报数（{s.non_black_messages}）多于真情报数（{s.true_messages}）",
                          f"seat {si}: more messages with no black ({s.non_black_messages}) than red or blue "
                          f"messages ({s.true_messages})"))
    if s.true_messages - s.non_black_messages > s.black_messages:
        # a red or blue message that is not free of black has black too (the deck's two- and three-coloured cards)
        why.append(Reason(f"座位{si}：含黑的真情报（{s.true_messages - s.non_black_messages}张）多于黑色情报数（{s.black_messages}）",
                          f"seat {si}: more red or blue messages with black ({s.true_messages - s.non_black_messages}) "
                          f"than black messages ({s.black_messages})"))
    return why


def _granted_first(si: int) -> Reason:
    return Reason(f"座位{si}：获得的技能排在初始技能之前", f"seat {si}: a granted skill stands before an initial one")


def snapshot_errors(cat: Catalogue, state: State) -> list[Reason]:
    """What makes the table itself impossible, whatever happened before: the seats, the characters,
    attributes that contradict each other, each seat's initial skills in its character's order."""
    why: list[Reason] = []
    n = len(state.seats)
    if not cat.rules.min_seats <= n <= cat.rules.seats:
        why.append(_seats_count(n, cat.rules.min_seats, cat.rules.seats))
    chars = [s.character for s in state.seats]
    if len(set(chars)) != len(chars):
        why.append(_twice())
    if not 0 <= state.turn < n:
        why.append(_not_a_seat("turn"))
    for si, s in enumerate(state.seats):
        # server Game.start deals red, blue and black identities only; 承志 sets none on a dead player
        if s.alive and s.identity == "none":
            why.append(Reason(f"座位{si}：存活的角色总有身份", f"seat {si}: a living player always has an identity"))
    for k in ("sender", "in_front", "dying"):
        v = getattr(state, k)
        if v is not None and not 0 <= v < n:
            why.append(_not_a_seat(k))
    why.extend(lock_errors(cat, state))
    for si, s in enumerate(state.seats):
        ch = cat.characters.get(s.character)
        if ch is None:
            why.append(_unknown_character(si, s.character))
            continue
        why.extend(_seat_facts(si, s, ch))
        initial = [i for i in s.skills if not cat.skills[i.rule].is_grant]
        if s.skills[:len(initial)] != initial:
            why.append(_granted_first(si))
        why.extend(_initial_order(cat, si, ch, initial))
    return why


def lock_errors(cat: Catalogue, state: State) -> list[Reason]:
    """``rules.lock_self = false``: the sender never locks himself (server Player.canSendCard does not refuse
    it: the shipped catalogue has ``lock_self = true``)."""
    s = state.sender
    if not cat.rules.lock_self and s is not None and 0 <= s < len(state.seats) and state.seats[s].locked:
        return [Reason(f"座位{s}传出了情报，却被它锁定（[rules] lock_self = false：传出者不锁定自己）",
                       f"seat {s} sent the message and is locked by it ([rules] lock_self = false)")]
    return []


def _missing(cat, si, rid, ch) -> Reason:
    name = cat.skills[rid].name
    return Reason(f"座位{si}：{ch.name}的技能中缺少{name}", f"seat {si}: {name} is missing from {ch.name}'s skills")


def _not_own(cat, si, rid, ch) -> Reason:
    name = cat.skills[rid].name
    return Reason(f"座位{si}：{name}不是{ch.name}的技能（或顺序不对）",
                  f"seat {si}: {name} is not {ch.name}'s skill (or out of order)")


def _initial_order(cat, si, ch, initial) -> list[Reason]:
    """The character's skills in order, consumed ones possibly missing."""
    why = []
    expected = list(ch.skills)
    pos = 0
    for inst in initial:
        while pos < len(expected) and expected[pos] != inst.rule:
            if not cat.skills[expected[pos]].consumed:
                why.append(_missing(cat, si, expected[pos], ch))
            pos += 1
        if pos == len(expected):
            why.append(_not_own(cat, si, inst.rule, ch))
            return why
        pos += 1
    for rest in expected[pos:]:
        if not cat.skills[rest].consumed:
            why.append(_missing(cat, si, rest, ch))
    return why


def reachable(cat: Catalogue, state: State) -> list[Reason]:
    """Why ``state`` cannot happen in a game under this catalogue; empty when it can.

    The states the checks reason about: every seat holds a distinct character of the catalogue, at
    most ``rules.seats`` seats; a seat's list is its character's initial skills in order (consumed
    ones may be gone), then granted skills in acquisition order; invalidation wraps all initial
    skills at once and needs some way to invalidate; public roles are face up; each grant came from a
    gives site whose giver is in the game, obeys ``to``, ``when`` (for this-turn grants, the giver's
    state now), ``args``/``where`` and ``per_turn``.
    """
    why: list[Reason] = []
    n = len(state.seats)
    if not 1 <= n <= cat.rules.seats:
        why.append(_seats_count(n, 1, cat.rules.seats))
    chars = [s.character for s in state.seats]
    if len(set(chars)) != len(chars):
        why.append(_twice())
    for k in ("turn",):
        if not 0 <= getattr(state, k) < n:
            why.append(_not_a_seat(k))
    for k in ("sender", "in_front", "dying"):
        v = getattr(state, k)
        if v is not None and not 0 <= v < n:
            why.append(_not_a_seat(k))
    why.extend(lock_errors(cat, state))
    for si, s in enumerate(state.seats):
        ch = cat.characters.get(s.character)
        if ch is None:
            why.append(_unknown_character(si, s.character))
            continue
        why.extend(_seat_facts(si, s, ch))
        # initial prefix: the character's skills in order, consumed ones possibly missing
        initial = [i for i in s.skills if not cat.skills[i.rule].is_grant]
        grants = [i for i in s.skills if cat.skills[i.rule].is_grant]
        if s.skills[:len(initial)] != initial:
            why.append(_granted_first(si))
        expected = list(ch.skills)
        pos = 0
        for inst in initial:
            while pos < len(expected) and expected[pos] != inst.rule:
                if not cat.skills[expected[pos]].consumed:
                    why.append(_missing(cat, si, expected[pos], ch))
                pos += 1
            if pos == len(expected):
                why.append(_not_own(cat, si, inst.rule, ch))
                break
            pos += 1
        for rest in expected[pos:]:
            if not cat.skills[rest].consumed:
                why.append(_missing(cat, si, rest, ch))
        # invalidation wraps every skill marked initial at once (note L82), nothing else
        wrapped = any(i.invalid for i in s.skills)
        for inst in s.skills:
            if inst.invalid != (wrapped and cat.skills[inst.rule].initial):
                name = cat.skills[inst.rule].name
                why.append(Reason(f"座位{si}：无效同时套住每个初始技能，且只套住初始技能（{name}）",
                                  f"seat {si}: invalidation wraps every initial skill and nothing else ({name})"))
                break
        if wrapped and not _invalidation_possible(cat, state, si):
            why.append(Reason(f"座位{si}：这局游戏中没有什么能使技能无效",
                              f"seat {si}: nothing in this game can invalidate skills"))
        counts: dict = {}
        for inst in grants:
            msg = _grant_reason(cat, state, si, inst)
            if msg:
                name = cat.skills[inst.rule].name
                why.append(Reason(f"座位{si}：{name}：{msg.zh}", f"seat {si}: {name}: {msg.en}"))
            if cat.skills[inst.rule].lifetime == "turn" and inst.site:
                counts[inst.site] = counts.get(inst.site, 0) + 1
        for site, c in counts.items():
            give = _site(cat, site)
            if give is not None and c > give.per_turn:
                at = site_name(cat, site)
                why.append(Reason(f"座位{si}：本回合从给出处{at}获得了{c}次，至多{give.per_turn}次",
                                  f"seat {si}: {c} grants from {at} this turn, at most {give.per_turn}"))
    return why


def _site(cat, site: str):
    giver, _, idx = site.partition("#")
    src = cat.skills.get(giver) or cat.cards.get(giver)
    if src is None or not idx.isdigit() or int(idx) >= len(src.gives):
        return None
    return src.gives[int(idx)]


def _giver_ok(cat, state, give, giver_seat) -> bool:
    if give.giver_is_card:
        return True
    return give.giver in cat.characters[state.seats[giver_seat].character].skills


def _invalidation_possible(cat, state, seat) -> bool:
    for give in cat.invalidation_sites():
        for g in range(len(state.seats)):
            if _giver_ok(cat, state, give, g) and to_ok(give.to, g, seat) and \
                    evaluate(give.when, env_of(cat, state, g)):
                return True
    return False


def _grant_reason(cat, state, seat, inst: SkillInst) -> Reason | str:
    from ..expr_words import words
    from ..reason import both
    rule = cat.skills[inst.rule]
    if inst.site is None or inst.giver is None:
        return Reason("获得的技能要记下给出者的座位和给出处", "a granted skill needs its giver seat and site")
    give = _site(cat, inst.site)
    if give is None or give.grant != inst.rule:
        at = site_name(cat, inst.site)
        return Reason(f"给出处{at}不给出这个技能", f"no gives site {at} hands out this grant")
    if not 0 <= inst.giver < len(state.seats):
        return Reason("给出者不是座位", "the giver is not a seat")
    src_zh, src_en = cat.giver_name(give), cat.name_of(give.giver)
    if not _giver_ok(cat, state, give, inst.giver):
        return Reason(f"座位{inst.giver}没有给出它的技能{src_zh}", f"seat {inst.giver} does not have {src_en}, which gives it")
    if not to_ok(give.to, inst.giver, seat):
        to_zh, to_en = TO_ONLY.get(give.to, (give.to, give.to))
        return Reason(f"{src_zh}{to_zh}，给不到这个座位", f"{src_en} hands this out to {to_en}: it cannot reach this seat")
    why = args_errors(cat, state, give, rule, inst)
    if why:
        return why
    if rule.lifetime == "turn" and not evaluate(give.when, env_of(cat, state, inst.giver)):
        cond = both(words, give.when, cat)
        return Reason(f"本回合获得，但给出者不满足{src_zh}给出的条件「{cond.zh}」",
                      f"given this turn, but the giver does not meet the condition {src_en} hands it out on: `{cond.en}`")
    return ""
