"""Narrating the decisions of the turn's flow: receiving the message (``receive``), the send rule in force
(``send``), being skipped in 争夺阶段 / 濒死求澄清 (``skip_fight`` / ``skip_dying``), the draw count (``draw``) and
the prompt on ending 出牌阶段 (``remind``) — the clauses of ``interp.receive.receive`` / ``send_in_force`` / ``skip`` /
``draw_count`` / ``reminds``, told."""
from __future__ import annotations

from . import expr as E
from .catalogue import SEND_DEFAULT_KEYS, Rules
from .interp.bans import ban_all, banned
from .interp.core import evaluate, live_kinds
from .interp.skip import skills_gone
from .interp.usable import usable as skill_usable
from .expr_words import DIRECTION
from .lang import pick, yes_no
from .narrate_base import (GROUP_EN, Step, Trace, cond, env, giver_text, group_word, inst_label, kind_name, lab_at,
                           seat_name)


def phase_in(phase: str) -> str:
    """争夺阶段 / the fight phase; 濒死求澄清 / the dying window."""
    return pick("争夺阶段", "the fight phase") if phase == "fight" else pick("濒死求澄清", "the dying window")


def n_receive(cat, state, seat, q, tr: Trace):
    s = state.seats[seat]
    who = seat_name(cat, state, seat)
    must = cannot = False
    mr = cat.rules.must_receive
    if state.sender == seat and "sender" in mr:
        tr.steps.append(Step(pick(f"{who}传出了这份情报：传出者必须接收",
                                  f"{who} sent the message: the sender must receive it"), decisive=True))
        must = True
    if state.turn == seat and "turn" in mr and not must:
        tr.steps.append(Step(pick(f"这是{who}的回合：当前回合角色必须接收",
                                  f"it is {who}'s turn: the turn player must receive it (must_receive)"), None,
                             cat.rules.at("must_receive"), decisive=True))
        must = True
    if s.locked and "locked" in mr:
        tr.steps.append(Step(pick(f"{who}被锁定：被锁定的角色必须接收", f"{who} is locked: a locked player must receive"),
                             decisive=True))
        must = True
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if rule.receive is None:
            continue
        pos = i + 1
        lab = lab_at(inst_label(cat, inst) + giver_text(cat, state, inst), pos)
        if "MustReceiveMessage" not in live_kinds(cat, inst):
            tr.steps.append(Step(pick(f"{lab}被无效：不生效", f"{lab} is invalidated: no effect"), rule.id, rule.loc, pos))
            continue
        e = env(cat, state, seat, inst)
        m = bool(evaluate(rule.receive.must, e))
        c = bool(evaluate(rule.receive.cannot, e))
        tr.steps.append(Step(pick(f"{lab}：必须接收的条件{cond(rule.receive.must, cat)} → {yes_no(m)}，"
                                  f"不能接收的条件{cond(rule.receive.cannot, cat)} → {yes_no(c)}",
                                  f"{lab}: must = {cond(rule.receive.must, cat)} → {yes_no(m)}, "
                                  f"cannot = {cond(rule.receive.cannot, cat)} → {yes_no(c)}"), rule.id,
                             rule.at("receive"), pos, decisive=m or c))
        must, cannot = must or m, cannot or c
    if must and cannot:
        win = "must" if cat.rules.must_beats_cannot else "cannot"
        tr.steps.append(Step(pick(f"必须接收与不能接收同时成立：{'必须接收' if win == 'must' else '不能接收'}优先",
                                  f"must and cannot both hold: {win} wins (must_beats_cannot = "
                                  f"{str(cat.rules.must_beats_cannot).lower()})"), None,
                             cat.rules.at("must_beats_cannot"), decisive=True))
        res = win
    else:
        res = "must" if must else ("cannot" if cannot else "free")
        if res == "free":
            tr.steps.append(Step(pick("没有规则强制或禁止接收：这名角色可以选择",
                                      "nothing obliges or forbids receiving: the player may choose")))
    tr.agrees = res == tr.answer["receive"] and (must, cannot) == (tr.answer["must"], tr.answer["cannot"])
    tr.conclusion = {"must": pick("必须接收情报", "must receive the message"),
                     "cannot": pick("不能接收情报", "cannot receive the message"),
                     "free": pick("可以选择是否接收", "may choose whether to receive")}[tr.answer["receive"]]


#: what a send group allows when no skill of it is live: (zh, en)
DEFAULT_SEND_TEXT = {
    "SendMessageDirectionSkill": ("情报牌上印的方向", "the direction printed on the card (message_dir)"),
    "SendMessageCanLockSkill": ("最多锁定一人，且只在情报牌有锁定标记时", "at most one lock, and only if the card has a lock mark"),
    "SendMessageCardSkill": ("任何一张牌", "any card offered"),
}


def n_send(cat, state, seat, q, tr: Trace):
    g = q["group"]
    s = state.seats[seat]
    found = None
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if g not in rule.closure:
            continue
        pos = i + 1
        lab = lab_at(inst_label(cat, inst), pos)
        if g not in live_kinds(cat, inst):
            tr.steps.append(Step(pick(f"{lab}被无效：不再是{kind_name(g)}，不算",
                                      f"{lab} is invalidated: no longer a {g}, it does not count"),
                                 rule.id, rule.loc, pos))
            continue
        if found is None:
            tr.steps.append(Step(pick(f"{lab}是{kind_name(g)}", f"{lab} is a {g}"), rule.id, rule.at("send"), pos))
        else:
            older = inst_label(cat, s.skills[found])
            tr.steps.append(Step(pick(f"{lab}是比{older}更晚获得的{kind_name(g)}：覆盖它（后获得的生效）",
                                      f"{lab} is a {g} acquired later than {older}: it overrides it (the later one wins)"),
                                 rule.id, rule.at("send"), pos))
        found = i
    if found is None:
        zh, en = DEFAULT_SEND_TEXT[g]
        key = SEND_DEFAULT_KEYS.get(g)
        if key is not None and E.to_text(getattr(cat.rules, key)) != E.to_text(getattr(Rules(), key)):
            zh = en = cond(getattr(cat.rules, key), cat)          # a catalogue's own default ([rules] send_dir/lock)
        tr.steps.append(Step(pick(f"没有生效的{kind_name(g)}：默认规则生效——{zh}",
                                  f"no {g} is live: the default rule is in force — {en}"), decisive=True))
    else:
        inst = s.skills[found]
        rule = cat.skills[inst.rule]
        tr.steps.append(Step(pick(f"生效的是{inst_label(cat, inst)}——{cond(rule.send.rule, cat)}",
                                  f"in force: {inst_label(cat, inst)} — {cond(rule.send.rule, cat)}"), rule.id,
                             rule.at("send"), found + 1, decisive=True))
    want = tr.answer["in_force_index"]
    tr.agrees = want == found
    name = cat.skills[tr.answer["in_force"]].name if tr.answer.get("in_force") else pick("默认规则", "the default rule")
    tr.conclusion = pick(f"生效的{group_word(g)}规则：{name}", f"{GROUP_EN.get(g, g)} rule in force: {name}")
    if tr.answer.get("has_card") is False:
        tr.steps.append(Step(pick("没有手牌可传，也没有从别处传出情报的技能：服务器判其出局，不传出（phase/SendPhaseStart.kt）",
                                  "no hand card to send and no skill sending from elsewhere: the server has the player "
                                  "lose instead (phase/SendPhaseStart.kt)"), decisive=True))
    if "allowed" in tr.answer:
        d, n = q["dir"], q.get("lock_count", 0)
        ok = tr.answer["allowed"]
        tr.conclusion += pick(f"；{DIRECTION.get(d, (d, d))[0]}传出、锁定{n}人：{'允许' if ok else '不允许'}",
                              f"; sending {d} locking {n} is {'allowed' if ok else 'not allowed'}")
        if tr.answer.get("has_card") is False:
            tr.conclusion += pick("；但没有可传的牌", "; but there is nothing to send")


def may_play_steps(cat, state, seat, tr: Trace) -> bool:
    s = state.seats[seat]
    if s.hand_count == 0:
        tr.steps.append(Step(pick(f"{seat_name(cat, state, seat)}没有手牌：不能出牌",
                                  f"{seat_name(cat, state, seat)} holds no cards: cannot play a card")))
        return False
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        if rule.ban is not None and "CannotPlayCard" in live_kinds(cat, inst) and ban_all(rule, inst):
            lab = inst_label(cat, inst) + giver_text(cat, state, inst)
            tr.steps.append(Step(pick(f"有{s.hand_count}张手牌，但第{i + 1}位的{lab}禁止所有牌",
                                      f"holds {s.hand_count} card(s), but {lab} at position {i + 1} bans every card"),
                                 rule.id, rule.at("ban"), i + 1, decisive=True))
            return False
    tr.steps.append(Step(pick(f"有{s.hand_count}张手牌，且并非所有牌都被禁止：可能出牌——询问这名角色",
                              f"holds {s.hand_count} card(s) and not every card is banned: may play a card — "
                              f"the player is asked"), decisive=True))
    return True


def skip_steps(cat, state, seat, phase, tr: Trace) -> bool:
    s = state.seats[seat]
    if may_play_steps(cat, state, seat, tr):
        return False
    parts = getattr(cat.rules, f"skip_{phase}")
    if "skills_gone" in parts and skills_gone(cat, state, seat):
        inv = [inst_label(cat, i) for i in s.skills if i.invalid]
        why = (pick(f"所有初始技能都被无效（{'、'.join(inv)}）", f"every initial skill is invalidated ({', '.join(inv)})")
               if inv else pick("这名角色没有剩下的初始技能", "the player has no initial skill left"))
        tr.steps.append(Step(pick(f"{why}，且没有生效的获得的主动技能：视为没有技能——跳过",
                                  f"{why} and no granted ActiveSkill is live: counts as having no skill — skipped"),
                             decisive=True))
        return True
    ch = cat.characters.get(s.character)
    if not s.ever_face_up:
        name = ch.name if ch else s.character
        tr.steps.append(Step(pick(f"{name}是从未面朝上的隐藏角色：可能发动技能（服务器不能泄露角色）——询问",
                                  f"{name} is a hidden role never face up: might use a skill (the server must not "
                                  f"reveal the role) — asked"), s.character, ch.loc if ch else None, decisive=True))
        return False
    usable = False
    for i, inst in enumerate(s.skills):
        rule = cat.skills[inst.rule]
        live = live_kinds(cat, inst)
        if "ActiveSkill" not in rule.closure:
            continue
        pos = i + 1
        lab = lab_at(inst_label(cat, inst), pos)
        if "ActiveSkill" not in live:
            tr.steps.append(Step(pick(f"{lab}被无效", f"{lab} is invalidated"), rule.id, rule.loc, pos))
            continue
        if "can_use" in parts:
            c = getattr(rule, phase)
            ok = c is not None and bool(evaluate(c, env(cat, state, seat, inst)))
            tr.steps.append(Step(pick(f"{lab}是主动技能；{phase_in(phase)}可用的条件{cond(c, cat)} → {yes_no(ok)}",
                                      f"{lab} is an ActiveSkill; usable in {phase_in(phase)} ({cond(c, cat)}) → "
                                      f"{yes_no(ok)}"), rule.id, rule.at(phase), pos, decisive=ok))
        else:
            ok = "MainPhaseSkill" not in live
            tr.steps.append(Step(pick(f"{lab}" + ("是非出牌阶段的主动技能：服务器会询问（不检查技能的条件）" if ok else
                                                  "是出牌阶段技能：濒死求澄清时不算"),
                                      f"{lab} is " + ("an ActiveSkill that is not a MainPhaseSkill: the server asks (it "
                                                      "does not consult the skill's condition)" if ok else
                                                      "a MainPhaseSkill: does not count in the dying window")),
                                 rule.id, rule.loc, pos, decisive=ok))
        usable = usable or ok
    if not usable:
        tr.steps.append(Step(pick(f"没有可出的牌，也没有在{phase_in(phase)}能用的技能：跳过",
                                  f"no card to play and no skill that counts in {phase_in(phase)}: skipped"),
                             decisive=True))
    return not usable


def n_skip(cat, state, seat, q, tr: Trace):
    phase = "fight" if q["decision"] == "skip_fight" else "dying"
    skip = skip_steps(cat, state, seat, phase, tr)
    tr.agrees = skip == tr.answer["skip"]
    skipped = tr.answer["skip"]
    tr.conclusion = pick(f"{phase_in(phase)}{'跳过' if skipped else '询问'}这名角色",
                         f"{'skipped' if skipped else 'asked'} in {phase_in(phase)}")
    could = tr.answer.get("could_act")
    if could is not None:
        tr.conclusion += pick(f"（实际上{'能' if could else '不能'}行动：{could_text(cat, state, seat, phase)}）",
                              f" (and in fact {'could' if could else 'could not'} act: "
                              f"{could_text(cat, state, seat, phase)})")


def could_text(cat, state, seat, phase) -> str:
    s = state.seats[seat]
    usable = [inst_label(cat, i) for i in s.skills if skill_usable(cat, state, seat, i, phase)]
    if usable:
        return pick("可用技能" + "、".join(usable), "usable skill " + ", ".join(usable))
    cards_ = [c.name for c in cat.cards.values() if phase in c.phases and not banned(cat, state, seat, c.id)]
    if s.hand_count > 0 and cards_:
        return pick("可以使用" + "/".join(cards_), "may play " + "/".join(cards_))
    if s.hand_count > 0:
        return pick("这一阶段的牌都被禁止，也没有可用的技能", "every card of the phase is banned, and no skill is usable")
    return pick("没有手牌，也没有可用的技能", "no cards and no usable skill")


def n_draw(cat, state, seat, q, tr: Trace):
    count = cat.rules.draw_base
    tr.steps.append(Step(pick(f"摸牌阶段从基础摸牌数{count}开始", f"the draw phase starts from draw_base = {count}"), None,
                         cat.rules.at("draw_base")))
    for i, inst in enumerate(state.seats[seat].skills):
        rule = cat.skills[inst.rule]
        if rule.draw is None:
            continue
        pos = i + 1
        lab = lab_at(inst_label(cat, inst), pos)
        if "ChangeDrawCardCountSkill" not in live_kinds(cat, inst):
            tr.steps.append(Step(pick(f"{lab}被无效：不改变", f"{lab} is invalidated: no change"), rule.id, rule.loc, pos))
            continue
        new = int(evaluate(rule.draw, env(cat, state, seat, inst, count=count)))
        tr.steps.append(Step(pick(f"{lab}：摸牌数为{count}时，{cond(rule.draw, cat)} → {new}",
                                  f"{lab}: {cond(rule.draw, cat)} with count = {count} → {new}"),
                             rule.id, rule.at("draw"), pos, decisive=new != count))
        count = new
    tr.agrees = count == tr.answer["draw"]
    tr.conclusion = pick(f"摸{tr.answer['draw']}张牌", f"draws {tr.answer['draw']} card(s)")


def n_remind(cat, state, seat, q, tr: Trace):
    """interpreter.reminds, told: each MainPhaseSkill of the list, live or invalidated, its ``remind`` condition."""
    from .interp.remind import reminds_for
    who = seat_name(cat, state, seat)
    if q.get("already"):
        tr.steps.append(Step(pick("本回合已经提醒过一次：再点结束出牌阶段就直接结束",
                                  "the prompt was shown this turn already: ending the main phase again just ends it"),
                             decisive=True))
    got = []
    for i, inst in enumerate(state.seats[seat].skills):
        rule = cat.skills[inst.rule]
        if not rule.has("MainPhaseSkill"):
            continue
        pos = i + 1
        lab = lab_at(inst_label(cat, inst), pos)
        if "MainPhaseSkill" not in live_kinds(cat, inst):
            tr.steps.append(Step(pick(f"{lab}被无效（无效的技能不是出牌阶段技能）：不提醒",
                                      f"{lab} is invalidated (an invalidated skill is no MainPhaseSkill): no prompt"),
                                 rule.id, rule.loc, pos))
            continue
        ok = reminds_for(cat, state, seat, inst)
        if ok and not q.get("already"):
            got.append(rule.id)
        tr.steps.append(Step(pick(f"{lab}：提醒的条件{cond(rule.remind, cat)} → {yes_no(ok)}",
                                  f"{lab}: prompts when {cond(rule.remind, cat)} → {yes_no(ok)}"),
                             rule.id, rule.at("remind"), pos, decisive=ok and not q.get("already")))
    tr.agrees = bool(got) == tr.answer["remind"]
    tr.conclusion = pick(f"{who}结束出牌阶段时{'会' if tr.answer['remind'] else '不会'}被提醒还有未发动的技能",
                         f"{who} {'is' if tr.answer['remind'] else 'is not'} prompted about an unused skill on ending "
                         f"the main phase")
