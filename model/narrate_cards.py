"""Narrating the card decisions: which conversion lets a card be used as another (``conversion``), the bans
(``banned``), a card reaching play (``can_play``: conversion, bans, the window) and an effect happening
(``resolves``) — the clauses of ``interp.conversion.conversion`` / ``banned`` / ``can_play`` / ``resolves``, told."""
from __future__ import annotations

from .interp.bans import ban_all, ban_cards, banned
from .interp.conversion import face_down_applies
from .interp.core import live_kinds
from .interp.decide import decide
from .interp.plays import can_play, card_usable, has_card
from .interp.usable import spent, usable
from .expr_words import value
from .lang import pick
from .narrate_base import (Step, Trace, card, giver_text, inst_label, lab_at, ref, seat_name, window_now,
                           windows_text)
from .turn import in_window


def conversion_steps(cat, state, seat, actual, declared, only_must, tr: Trace):
    s = state.seats[seat]
    a, b = card(cat, actual), card(cat, declared)
    ok = actual == declared
    via = None
    via_must = False
    if ok:
        tr.steps.append(Step(pick(f"这张牌是{a}，当作它本身使用：可以直接使用，除非有{a}的必须转化禁止",
                                  f"the card is a {a} declared as itself: it can be played as it is, unless a "
                                  f"must-conversion of {a} forbids it")))
    else:
        tr.steps.append(Step(pick(f"这张牌是{a}，宣言为{b}：只有转化技能能允许",
                                  f"the card is a {a} declared as {b}: only a conversion skill can allow that")))
    seen = False
    firing: dict[int, tuple[str, str]] = {}          # step index -> (text while others may follow, final text)
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if rule.convert is None:
            continue
        seen = True
        pos = i + 1
        lab = lab_at(inst_label(cat, inst), pos)
        loc = rule.at("convert")
        if "ConvertCardSkill" not in live_kinds(cat, inst):
            tr.steps.append(Step(pick(f"{lab}被无效：不转化任何牌",
                                      f"{lab} is invalidated: it converts nothing"),
                                 rule.id, rule.loc, pos))
            continue
        if not s.face_up and not face_down_applies(cat, rule):
            key = "face_down_converts" if rule.initial else "face_down_grant_converts"
            tr.steps.append(Step(pick(f"{lab}是面朝下角色的{'初始' if rule.initial else '获得的'}技能：服务器跳过它"
                                      f"（面朝下时这类技能不转化）",
                                      f"{lab} is {'an initial' if rule.initial else 'a granted'} skill of a face-down "
                                      f"role: the server skips it ({key} = false)"), rule.id,
                                 cat.rules.at(key) or rule.loc, pos))
            continue
        source = ref(cat, rule.convert.source, inst)
        src = card(cat, source)
        if source is not None and source != actual:
            tr.steps.append(Step(pick(f"{lab}转化的是{src}，不是{a}：不适用",
                                      f"{lab} converts {src}, not {a}: does not apply"), rule.id, loc, pos))
            continue
        targets = [ref(cat, t, inst) for t in rule.convert.targets]
        tnames = "/".join(card(cat, t) for t in targets)
        must = rule.convert.must
        if declared not in targets:
            if must:
                for st_ in tr.steps:
                    st_.decisive = False
                tr.steps.append(Step(pick(f"{lab}是{src}的必须转化，其目标（{tnames}）不含{b}：否决——这张牌不能当作{b}使用",
                                          f"{lab} is a must-conversion of {src} whose targets ({tnames}) lack {b}: "
                                          f"vetoed — the card cannot be used as {b}"), rule.id, loc, pos, decisive=True))
                return False, None, True
            tr.steps.append(Step(pick(f"{lab}是转化为{tnames}的可选转化，不是{b}：无帮助",
                                      f"{lab} is an optional conversion to {tnames}, not {b}: no help"),
                                 rule.id, loc, pos))
            continue
        if only_must and not must:
            tr.steps.append(Step(pick(f"{lab}是可选转化，这里只算必须转化：忽略",
                                      f"{lab} is optional and only must-conversions count here: ignored"),
                                 rule.id, loc, pos))
            continue
        ok = True
        if declared != actual or must:
            if via is None or not via_must or must:
                why = (pick("第一个适用的转化", "the first conversion that applies") if via is None else
                       pick("必须转化优先于可选转化", "a must-conversion beats an optional one") if must and not via_must
                       else pick("同样强度的两个转化，后获得的生效",
                                 "of two conversions of the same strength the later acquired wins"))
                kind_zh, kind_en = ("必须转化", "a must-conversion") if must else ("可选转化", "an optional conversion")
                texts = tuple(pick(f"{lab}是{src}到{tnames}的{kind_zh}：允许，{now}由它转化（{why}）",
                                   f"{lab} is {kind_en} of {src} to {tnames}: allows it, and {now} the conversion "
                                   f"that fires ({why})")
                              for now in (pick("目前", "so far it is"), pick("最终", "it is")))
                firing[len(tr.steps)] = texts
                tr.steps.append(Step(texts[0], rule.id, loc, pos, decisive=True, fires=True))
                via, via_must = i, must
            else:
                tr.steps.append(Step(pick(f"{lab}是{src}到{tnames}的可选转化：允许，但第{via + 1}位的必须转化优先",
                                          f"{lab} is an optional conversion of {src} to {tnames}: allowed, but the "
                                          f"must-conversion at position {via + 1} fires instead"), rule.id, loc, pos))
        else:
            tr.steps.append(Step(pick(f"{lab}可把{a}转化为{tnames}；当作本身使用，不需要转化",
                                      f"{lab} may turn {a} into {tnames}; declared as itself, no conversion is needed"),
                                 rule.id, loc, pos))
    for k, (_, final) in firing.items():             # only the conversion that finally fires decides
        st_ = tr.steps[k]
        if st_.position - 1 != via:
            st_.decisive = False
        else:
            st_.text = final
    if not seen:
        tr.steps.append(Step(pick(f"{seat_name(cat, state, seat)}没有转化技能",
                                  f"{seat_name(cat, state, seat)} holds no conversion skill")))
    if not ok:
        tr.steps.append(Step(pick(f"没有转化技能让{a}当作{b}使用", f"no conversion skill lets a {a} be used as {b}"),
                             decisive=True))
    return ok, via, False


def n_conversion(cat, state, seat, q, tr: Trace):
    ok, via, vetoed = conversion_steps(cat, state, seat, q["actual"], q["declared"], q.get("only_must", False), tr)
    a = tr.answer
    tr.agrees = (a["ok"], a["via_index"]) == (ok, via)
    fires = cat.skills[a["via"]].name if a.get("via") else ""
    x, d = card(cat, q["actual"]), card(cat, q["declared"])
    tr.conclusion = pick(f"{x}{'能' if a['ok'] else '不能'}当作{d}使用" + (f"；由{fires}转化" if fires else ""),
                         f"{x} {'can' if a['ok'] else 'cannot'} be used as {d}" + (f"; {fires} fires" if fires else ""))


def ban_steps(cat, state, seat, declared, tr: Trace) -> bool:
    s = state.seats[seat]
    banned = False
    d = card(cat, declared)
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if rule.ban is None:
            continue
        pos = i + 1
        lab = lab_at(inst_label(cat, inst) + giver_text(cat, state, inst), pos)
        if "CannotPlayCard" not in live_kinds(cat, inst):
            tr.steps.append(Step(pick(f"{lab}被无效：不禁止任何牌", f"{lab} is invalidated: bans nothing"),
                                 rule.id, rule.loc, pos))
            continue
        if ban_all(rule, inst):
            tr.steps.append(Step(pick(f"{lab}禁止所有牌：{d}被禁止", f"{lab} bans every card: {d} is banned"),
                                 rule.id, rule.at("ban"), pos, decisive=True))
            banned = True
            continue
        cards = value(cat, ban_cards(rule, inst))
        if declared in ban_cards(rule, inst):
            tr.steps.append(Step(pick(f"{lab}禁止{cards}，包含宣言的{d}：被禁止（禁令看宣言的牌名）",
                                      f"{lab} bans {cards}, which includes the declared {d}: banned (bans look at "
                                      f"the declared type)"), rule.id, rule.at("ban"), pos, decisive=True))
            banned = True
        else:
            tr.steps.append(Step(pick(f"{lab}禁止{cards}，不含{d}", f"{lab} bans {cards}, not {d}"),
                                 rule.id, rule.at("ban"), pos))
    if not any(cat.skills[i.rule].ban is not None for i in s.skills):
        tr.steps.append(Step(pick(f"{seat_name(cat, state, seat)}没有不能出牌的技能：没有牌被禁止",
                                  f"{seat_name(cat, state, seat)} holds no ban: nothing is banned")))
    return banned


def n_banned(cat, state, seat, q, tr: Trace):
    b = ban_steps(cat, state, seat, q["declared"], tr)
    tr.agrees = b == tr.answer["banned"]
    d = card(cat, q["declared"])
    tr.conclusion = pick(f"{d}{'被禁止' if tr.answer['banned'] else '未被禁止'}",
                         f"{d} is {'banned' if tr.answer['banned'] else 'not banned'}")


def n_can_play(cat, state, seat, q, tr: Trace):
    ok, via, _ = conversion_steps(cat, state, seat, q["actual"], q["declared"], False, tr)
    b = ban_steps(cat, state, seat, q["declared"], tr)
    now = usable_step(cat, state, seat, q["declared"], tr)
    held = hand_step(cat, state, seat, tr, decisive=ok and not b and now)
    tr.agrees = (held and ok and not b and now) == tr.answer["can_play"] and b == tr.answer["banned"] \
        and held == tr.answer.get("has_card", held)
    a, d = card(cat, q["actual"]), card(cat, q["declared"])
    if tr.answer["can_play"]:
        tr.conclusion = pick(f"这张{a}能当作{d}使用", f"the {a} reaches play as {d}")
    elif not held and ok and not b and now:
        tr.conclusion = pick(f"{seat_name(cat, state, seat)}手里没有牌：没有{a}可以当作{d}使用",
                             f"{seat_name(cat, state, seat)} holds no card: there is no {a} to play as {d}")
    elif not ok:
        tr.conclusion = pick(f"这张{a}不能当作{d}使用（没有转化允许）",
                             f"the {a} cannot be played as {d} (no conversion allows it)")
    elif b:
        tr.conclusion = pick(f"这张{a}能当作{d}，但{d}被禁止", f"the {a} could be used as {d}, but {d} is banned")
    else:
        by = state.window in cat.cards[q["declared"]].windows
        tr.conclusion = pick(f"这张{a}能当作{d}，但不是现在：{window_now(state)}{'这名角色' if by else ''}不能使用{d}",
                             f"the {a} could be used as {d}, but not now: {d} is not used in {window_now(state)}"
                             + (" by this player" if by else ""))


def hand_step(cat, state, seat, tr: Trace, decisive: bool = True) -> bool:
    """interp.plays.has_card, told: a card is played (or converted) from its player's hand (the step settling the
    answer when nothing else refuses the play)."""
    held = has_card(state, seat)
    if held:
        return True                         # the usual case: not a step of its own
    n = state.seats[seat].hand_count
    tr.steps.append(Step(pick(f"{seat_name(cat, state, seat)}手牌{n}张：" + ("有牌可以使用" if held else "没有牌可以使用或转化"),
                              f"{seat_name(cat, state, seat)} holds {n} card(s): "
                              + ("a card to play" if held else "no card to play or to convert")),
                         decisive=decisive))
    return held


def usable_step(cat, state, seat, declared, tr: Trace) -> bool:
    """interp.plays.card_usable, told: may the player use a card of the declared type in this window?"""
    c = cat.cards.get(declared)
    if state.window is None:
        return True                         # an untimed state is every moment: not a step of its own
    now = card_usable(cat, state, seat, declared)
    where = windows_text(c.windows) if c is not None else pick("没有时机", "nowhere")
    d = card(cat, declared)
    tr.steps.append(Step(pick(f"{d}的使用时机：{where}；现在是{window_now(state)}："
                              + ("这名角色现在可以使用" if now else "这名角色现在不能使用"),
                              f"a {d} is used in {where}; now it is {window_now(state)}: "
                              + ("this player may use it now" if now else "not usable by this player now")),
                         declared, c.loc if c is not None else None, decisive=not now))
    return now


def n_resolves(cat, state, seat, q, tr: Trace):
    """interp.plays.resolves, told clause by clause: a card reaching play as the declared type (its conversion,
    bans and window), else each skill acting as it with no card — why it does or does not act now (invalidated,
    used up this turn, not one of its windows, its condition, the bans it consults)."""
    d = q["declared"]
    dn = card(cat, d)
    a = tr.answer
    via = a.get("via")
    if a["resolves"] and via is None:
        for actual in cat.cards:
            if can_play(cat, state, seat, actual, d):
                sq = {"decision": "can_play", "seat": seat, "actual": actual, "declared": d}
                sub = Trace(sq, decide(cat, state, sq))
                n_can_play(cat, state, seat, sub.question, sub)
                tr.steps.extend(sub.steps)
                tr.conclusion = pick(f"{dn}的效果发生：{sub.conclusion}", f"{dn}'s effect happens: {sub.conclusion}")
                return
    # the card route: a card of the player's declared as it (why not, when not)
    card_banned = banned(cat, state, seat, d)
    card_now = card_usable(cat, state, seat, d)
    reasons = []
    if not a["resolves"]:
        if not card_now:
            usable_step(cat, state, seat, d, tr)
            reasons.append(pick(f"{window_now(state)}不能打出{dn}", f"no {dn} is played {in_window(state.window)}")
                           if state.window is not None else "")
        elif card_banned:
            ban_steps(cat, state, seat, d, tr)
            reasons.append(pick(f"{dn}被禁止", f"{dn} is banned"))
        else:
            tr.steps.append(Step(pick(f"没有哪张牌能当作{dn}打出（没有转化允许）",
                                      f"no card of the player's reaches play as {dn} (no conversion allows it)")))
    # the skill route: each skill acting as it with no card (plays.card_of = none)
    for pos, inst in enumerate(state.seats[seat].skills, 1):
        rule = cat.skills[inst.rule]
        p = rule.plays
        if p is None or p.card_of != "none" or d not in p.cards:
            continue
        lab = lab_at(inst_label(cat, inst), pos)
        bans = pick("检查该角色的禁令", "it consults the player's bans") if p.checks_bans else \
            pick("不检查禁令", "it does not consult bans")
        why = _skill_acts_now(cat, state, seat, inst, d)
        if why is None:
            tr.steps.append(Step(pick(f"{lab}不用牌即视为{dn}；{bans}：现在可以发动",
                                      f"{lab} acts as {dn} with no card; {bans}: usable now"),
                                 rule.id, p.loc, pos, decisive=inst.rule == via))
        else:
            tr.steps.append(Step(pick(f"{lab}不用牌即视为{dn}；{bans}——但{why[0]}",
                                      f"{lab} acts as {dn} with no card; {bans} — but {why[1]}"),
                                 rule.id, why[2] or p.loc, pos, decisive=not a["resolves"]))
            reasons.append(pick(f"{cat.name_of(inst.rule)}：{why[0]}", f"{cat.name_of(inst.rule)}: {why[1]}"))
    if a["resolves"]:
        tr.conclusion = pick(f"{dn}的效果通过{cat.name_of(via)}发生", f"{dn}'s effect happens through {cat.name_of(via)}")
    else:
        reasons = [r for r in reasons if r]
        tr.conclusion = pick(f"这名角色现在没有牌或技能能让{dn}的效果发生" + (f"（{'；'.join(reasons)}）" if reasons else ""),
                             f"no card or skill of the player puts {dn}'s effect into play now"
                             + (f" ({'; '.join(reasons)})" if reasons else ""))


def _skill_acts_now(cat, state, seat, inst, declared):
    """Why the skill ``inst`` (acting as ``declared`` with no card) does not act now — (zh, en, loc) — or None when
    it does: the clauses of interp.plays.resolves for one skill, in its order."""
    from .interp.windows import in_window as in_win
    rule = cat.skills[inst.rule]
    dn = card(cat, declared)
    if inst.invalid:
        return "被无效", "it is invalidated", None
    if rule.has("ActiveSkill"):
        if spent(cat, inst):
            return "本回合已发动过（有次数限制）", "it was used this turn already (it has a usage limit)", rule.at("limit")
        if not in_win(state, seat, rule.windows):
            wins = windows_text(rule.windows)
            here = state.window in rule.windows
            return (f"它只在{wins}发动，现在是{window_now(state)}" + ("，这名角色不能发动" if here else ""),
                    f"it is used only in {wins}; now it is {window_now(state)}" + (", not by this player" if here else ""),
                    rule.at("windows"))
        if state.window in ("main", "fight", "dying") and not usable(cat, state, seat, inst, state.window):
            return (f"{window_now(state)}它的条件不成立", f"its condition {in_window(state.window)} does not hold",
                    rule.at(state.window))
    elif not card_usable(cat, state, seat, declared):
        return f"{window_now(state)}不能使用{dn}", f"no {dn} is used {in_window(state.window)}", None
    if rule.plays.checks_bans and banned(cat, state, seat, declared):
        return f"{dn}被禁止", f"{dn} is banned", None
    return None
