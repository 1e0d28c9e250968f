"""Phase skipping (SK).

Design note: "if a player cannot possibly use a skill and cannot possibly play a card, the fight phase and
the dying window (asking for rescue) skip them." The server's test (CannotPlayCard.kt) is coarse on
purpose — it must not reveal a face-down role — so it is compared here with what the player could really
do: use a live ActiveSkill whose condition holds now, or play a card type that phase allows and no ban
forbids.

* SK001 / SK002 — a player skipped in the fight phase / the dying window who could in fact act (unsound
  skip);
* SK003 / SK004 — a player asked in the fight phase / the dying window who can never act (a wasted prompt),
  with the rule that makes the server ask.
"""
from __future__ import annotations

import z3
from ..terms import And, Or

from skillproof.checks.enc.bans import enc_banned_all
from skillproof.checks.enc.core import holds as slots_holding
from skillproof.checks.enc.skip import (enc_could_act_dying, enc_could_act_fight, enc_skills_gone, enc_skip_dying,
                                        enc_skip_fight)
from skillproof.checks.enc.windows import enc_at_decision
from skillproof.checks.findings import Finding
from skillproof.checks.registry import Code, register

#: the family's page in Chinese (`skillproof rules skip`; the docstring is the English)
DOC_ZH = """跳过阶段（SK）。

设计说明：“如果一个玩家不可能可以使用技能且不可能可以出牌，则争夺阶段、濒死求澄清会被跳过。”服务器的判断
（CannotPlayCard.kt）故意很粗——它不能暴露未翻开的角色——所以这里拿它和玩家真正能做的事比较：使用一个仍然有效、
此刻条件成立的主动技能，或者打出这个阶段允许、又没有禁令禁止的牌。

* SK001 / SK002 — 在争夺阶段 / 濒死求澄清被跳过、其实能行动的玩家（不该跳过）；
* SK003 / SK004 — 在争夺阶段 / 濒死求澄清被询问、却怎样都无法行动的玩家（白问一次），并指出让服务器询问的规则。
"""

SK001 = Code("SK001", "fight-skip-unsound", "error",
             "a player is skipped in 争夺阶段 although a skill or card would let them act",
             "the player loses a move the rules give them; nothing on screen tells them why",
             summary_zh="玩家在争夺阶段被跳过，但其实有技能或牌可以用",
             why_zh="玩家失去了规则给他的一次行动机会，屏幕上却没有任何说明",
             example="",
             todo="no catalogue the loader accepts triggers it: every skill usable in 争夺阶段 is an ActiveSkill that is "
                  "not a MainPhaseSkill, which the server's skip test sees. It guards the engine rules: if it fires, "
                  "`[rules] skip_fight` lost an ingredient (`can_use`, `skills_gone`) — restore it, or read the witness",
             todo_zh="目录的加载器接受的目录都不会触发它：争夺阶段能用的技能都是主动技能而不是出牌阶段技能，服务器的跳过判断看得到它们。"
                     "它守护的是引擎规则：如果它报告了问题，说明 `[rules] skip_fight` 少了一项（`can_use`、`skills_gone`）——补上，"
                     "或者看例证")
SK002 = Code("SK002", "dying-skip-unsound", "error",
             "a player is skipped in 濒死求澄清 although a skill or card would let them save the dying",
             "a rescue the rules allow never happens; the dying player loses the game for nothing",
             summary_zh="玩家在濒死求澄清时被跳过，但其实有技能或牌可以救人",
             why_zh="规则允许的救援没有发生；濒死的玩家白白死去",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "mainer"
name = "主阶段者"
hidden = false
female = false
skills = ["Main"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[skill]]
id = "Main"
name = "主阶段技"          # a MainPhaseSkill usable while someone is dying: the server's test ignores it
kinds = ["MainPhaseSkill"]
dying = "true"''')
SK003 = Code("SK003", "fight-wasted-prompt", "note",
             "a player is asked in 争夺阶段 although nothing they hold can be used",
             "every such prompt costs the table a timeout; for a face-down role it is the price of not "
             "revealing the role — elsewhere it is waste",
             summary_zh="玩家在争夺阶段被询问，但他持有的技能和牌都用不了",
             why_zh="每次这样的询问都要全桌等到超时；对从未翻开的隐藏角色，这是不暴露身份的代价——别的情况下就是浪费",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "li_ning_yu"
name = "李宁玉"            # a hidden role whose skills are all triggered: asked while never face up
hidden = true
female = true
skills = ["Passive"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[skill]]
id = "Passive"
name = "被动"
kinds = ["TriggeredSkill"]''')
SK004 = Code("SK004", "dying-wasted-prompt", "note",
             "a player is asked in 濒死求澄清 although nothing they hold can be used then",
             "the server asks every holder of a non-MainPhase ActiveSkill, usable while someone is dying "
             "or not, and every holder of cards even when 澄清 is banned",
             summary_zh="玩家在濒死求澄清时被询问，但他持有的技能和牌那时都用不了",
             why_zh="服务器会询问每个持有非出牌阶段主动技能的玩家，不管有人濒死时这个技能能不能用；"
                    "也会询问每个有手牌的玩家，即使澄清被禁止",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "li_ning_yu"
name = "李宁玉"
hidden = true
female = true
skills = ["DuJi"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[skill]]
id = "DuJi"
name = "毒计"              # 只能在争夺阶段使用：濒死时照样被询问
kinds = ["ActiveSkill"]
fight = "not face_up"
dying = "false"''')


def _reason_rules(cat, st, phase):
    """Why the server asks / skips: the rules in the player's list that its test looked at."""
    s = st.seats[0]
    ch = cat.characters[s.character]
    rules = []
    for inst in s.skills:
        r = cat.skills[inst.rule]
        if inst.invalid:
            continue
        if r.has("ActiveSkill") and (phase == "fight" or not r.has("MainPhaseSkill")):
            rules.append(r.id)
        elif r.ban is not None:
            rules.append(r.id)
    return ch, rules


@register("skip", "Phase skipping", [SK001, SK002, SK003, SK004], order=60, lane=1, shared_lane=1, weight=8)   # over one shared state in lane 1 (remind went to lane 0 for it): the lanes' CPU even as measured (benchmarks/lanes_ab.py, stop 47)
def run(ctx):
    cat = ctx.cat
    out = []
    actives = {r.id for r in cat.skills.values() if r.has("ActiveSkill")}
    q = ctx.query_for(actives | {r.id for r in cat.skills.values() if r.ban is not None})
    S = q.S
    phases = [("fight", enc_skip_fight(S), enc_could_act_fight(S), "SK001", "SK003", "争夺阶段"),
              ("dying", enc_skip_dying(S), enc_could_act_dying(S), "SK002", "SK004", "濒死求澄清")]
    for phase, skip, could, unsound, wasted, zh in phases:
        en = {"fight": "the fight phase", "dying": "the dying window"}[phase]
        question = {"decision": f"skip_{phase}", "seat": 0}
        asked = enc_at_decision(S, f"skip_{phase}")      # the moment the phase asks the player
        skip, could = And(asked, skip), could
        # ---- unsound: skipped but could act
        a = ctx.find(q, And(S.alive[0], skip, could))
        if a.status == "unknown":
            out.append(ctx.inconclusive("skip", f"{zh}是否会跳过能行动的角色", [], a))
        elif a.sat:
            ch, rules = _reason_rules(cat, a.state, phase)
            usable = [r for r in rules if cat.skills[r].has("ActiveSkill")]
            names = "、".join(cat.skills[r].label for r in usable) or "手牌"
            out.append(Finding(
                unsound, "skip", "error",
                f"{ch.name}在{zh}会被跳过，但其实可以行动（{names}）。",
                message_en=(f"{ch.name} is skipped in {en}, but could act "
                            f"({', '.join(cat.skills[r].name for r in usable) or 'hand cards'})."),
                fix_en=("make the server's skip test consider these skills (they are usable in this phase), or limit "
                        "when they may be used."),
                fix="让服务器的跳过条件考虑这些技能（它们在这个阶段可用），或限制这些技能的使用时机。", key=f"{unsound}|{'|'.join(sorted(usable))}",
                rules=[ctx.ref(r, "usable, yet skipped") for r in usable] or [ctx.ref(ch.id)],
                witness=ctx.witness(a.state, question, {"skip": True, "could_act": True})))
        # ---- wasted prompts, by the reason the server asks (each reason alone, so the cause is exact)
        hand = S.ints["hand_count"][0] > 0
        cards_reason = And(hand, z3.Not(enc_banned_all(S)))
        hidden_reason = And(z3.Not(S.ever[0]), z3.Not(enc_skills_gone(S)))
        causes = [("never-face-up", And(hidden_reason, z3.Not(cards_reason))),
                  ("bans-cover-phase", And(cards_reason, S.ever[0]))]
        if not any(phase in c.phases for c in cat.cards.values()):
            causes = causes[:1]         # no card says it is played in this phase: nothing to compare with
        unusable = []
        if phase == "dying":
            for rid in sorted(actives):
                r = cat.skills[rid]
                if r.has("MainPhaseSkill"):
                    continue
                holds = [live for _, live in slots_holding(S, rid, "ActiveSkill")]
                if not holds:
                    continue
                a = ctx.find(q, And(S.alive[0], asked, S.ever[0], z3.Not(cards_reason), Or(holds),
                                       z3.Not(skip), z3.Not(could)), minimize=False)
                if a.status == "unknown":
                    out.append(ctx.inconclusive("skip", f"{zh}是否因{r.name}询问无法行动的角色", [rid], a))
                elif a.sat:
                    unusable.append(rid)
            if unusable:
                holds = [live for rid in unusable[:1] for _, live in slots_holding(S, rid, "ActiveSkill")]
                causes.append(("active-not-usable", And(S.ever[0], z3.Not(cards_reason), Or(holds))))
        for cause, cond in causes:
            a = ctx.find(q, And(S.alive[0], asked, z3.Not(skip), z3.Not(could), cond))
            if a.status == "unknown":
                out.append(ctx.inconclusive("skip", f"{zh}是否会询问无法行动的角色（{cause}）", [], a))
                continue
            if not a.sat:
                continue
            st = a.state
            ch = cat.characters[st.seats[0].character]
            if cause == "never-face-up":
                msg = (f"隐藏角色从未翻开时（如{ch.name}），{zh}总会询问该角色，即使没有可用的技能和手牌"
                       f"（为不暴露身份而有意为之）。")
                refs = [ctx.ref(ch.id, "hidden role never face up")]
                key = f"{wasted}|never-face-up"
                fix = "服务器为不暴露隐藏角色而询问：通常是有意的，写明理由忽略它。"
                msg_en = (f"while a hidden role has never been face up (e.g. {ch.name}), {en} always asks that player, "
                          f"even with no usable skill or hand card (on purpose, so as not to reveal the role).")
                fix_en = "the server asks so as not to reveal hidden roles: usually intended; ignore it with a reason."
            elif cause == "bans-cover-phase":
                bans = [i for i in st.seats[0].skills if cat.skills[i.rule].ban is not None]
                givers = list(dict.fromkeys(i.site.split("#")[0] for i in bans if i.site))
                names = "、".join(cat.skills[g].label if g in cat.skills else f"【{cat.name_of(g)}】" for g in givers)
                msg = (f"{names}禁止了{zh}能打出的所有牌（但不是全部手牌）后，{ch.name}仍因有手牌而在{zh}被询问，"
                       f"却打不出任何牌。")
                refs = [ctx.ref(g, "bans the cards of the phase") for g in givers]
                key = f"{wasted}|bans-cover-phase"
                fix = f"让跳过条件看这个阶段能打出的牌是否全被禁止，或让{names}的禁令不覆盖{zh}的全部牌。"
                names_en = ", ".join(cat.name_of(g) for g in givers)
                msg_en = (f"after {names_en} ban every card playable in {en} (but not every hand card), {ch.name} is "
                          f"still asked in {en} for holding hand cards, yet can play none.")
                fix_en = (f"make the skip test look at whether every card of this phase is banned, or make the bans of "
                          f"{names_en} not cover every card of {en}.")
            else:
                names = "、".join(cat.skills[r].label for r in unusable)
                msg = (f"持有{names}的角色在{zh}总会被询问（服务器只看是否有非出牌阶段的主动技能），"
                       f"而这些技能在有人濒死时可能用不了（例如角色已翻开，或技能只能在争夺阶段使用）。")
                refs = [ctx.ref(r, "makes the server ask") for r in unusable]
                key = f"{wasted}|active-not-usable|{'|'.join(unusable)}"
                fix = "给这些技能写出 dying 条件（有人濒死时何时可用），或让跳过条件看技能是否真能使用。"
                names_en = ", ".join(cat.skills[r].name for r in unusable)
                msg_en = (f"a player holding {names_en} is always asked in {en} (the server only looks for an active "
                          f"skill that is not a main-phase one), though these skills may be unusable while someone is "
                          f"dying (e.g. the role is already face up, or the skill is for the fight phase only).")
                fix_en = ("write a dying condition for these skills (when they are usable while someone is dying), or "
                          "make the skip test look at whether a skill can really be used.")
            out.append(Finding(wasted, "skip", "note", msg, key=key, fix=fix, rules=refs, message_en=msg_en, fix_en=fix_en,
                               witness=ctx.witness(st, question, {"skip": False, "could_act": False}),
                               details={"cause": cause, **({"skills": unusable} if cause == "active-not-usable" else {})}))
    return out
