"""The end-of-main-phase reminder (RM).

Design note: a MainPhaseSkill not used when its holder ends 出牌阶段 makes the client prompt (there is a skill not
used yet: end the phase anyway?). The server (handler/EndMainPhaseTos.kt) prompts once a turn when some live
MainPhaseSkill's ``mainPhaseNeedNotify`` holds — the catalogue's ``remind`` condition (default: not used this
turn) — and an invalidated skill never prompts (an InvalidSkill is no MainPhaseSkill). That condition is written
apart from the skill's own use (its window, actor, usage limit, ``main`` condition and, for a skill acting as a
card that consults bans, the bans), so the two can disagree. Compared at the moment the turn player ends 出牌阶段:

* RM001 — the client prompts, but no skill it prompts for can be used then (banned, spent, outside its window,
  its ``main`` condition false): a wasted prompt, like the skip family's wasted prompts;
* RM002 — a MainPhaseSkill the player could still use then, and the client does not prompt at all: a usable
  skill its reminder never mentions.
"""
from __future__ import annotations

import z3

from ..enc.remind import enc_remind_parts, enc_reminds
from ..enc.windows import enc_at_decision
from ..terms import And, Or
from skillproof.checks.findings import Finding, RuleRef
from skillproof.checks.registry import Code, register
from skillproof.model import expr as E
from skillproof.model.expr_words import words_both
from skillproof.model.interp.bans import banned
from skillproof.model.interp.core import env_of, evaluate, live_kinds
from skillproof.model.interp.remind import reminds_for
from skillproof.model.interp.usable import spent
from skillproof.model.interp.windows import in_window

#: the family's page in Chinese (`skillproof rules remind`; the docstring is the English)
DOC_ZH = """出牌阶段结束时的提醒（RM）。

设计说明：出牌阶段技能（`MainPhaseSkill`）如果没有使用，直接点结束出牌阶段，客户端会弹出提示（“还有未发动的技能，
真的要结束出牌阶段吗？”）。服务器（`handler/EndMainPhaseTos.kt`）在某个仍然有效的出牌阶段技能的 `mainPhaseNeedNotify`
成立时提醒，每回合一次——这就是目录的 `remind` 条件（默认：本回合未发动）；被无效的技能永远不提醒（无效技能不是
出牌阶段技能）。这个条件和技能本身能不能用（使用时机、行动者、次数限制、`main` 条件，以及当作牌使用并检查禁令的
技能的禁令）是分开写的，所以两者可能不一致。这里在当前回合角色结束出牌阶段的时刻比较它们：

* RM001 — 客户端提醒了，但被提醒的技能此刻都用不了（被禁止、已用过、不在使用时机、`main` 条件不成立）：
  白白提醒一次，和跳过阶段检查中的“白问一次”一样；
* RM002 — 玩家此刻还能使用某个出牌阶段技能，客户端却完全不提醒：提醒条件从不提到这个能用的技能。
"""

_EXAMPLE_CHARS = '''[[card]]
id = "A"
name = "甲"
phases = ["main"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
'''

RM001 = Code("RM001", "remind-wasted-prompt", "note",
             "ending 出牌阶段 prompts for a MainPhaseSkill that cannot be used then",
             "the player is stopped and asked to use a skill the server would refuse (used up, banned, outside its "
             "window, its condition false); the prompt comes once a turn, so it also hides nothing useful",
             summary_zh="结束出牌阶段时提醒了此刻用不了的出牌阶段技能",
             why_zh="玩家被拦下来，被提醒去发动一个服务器会拒绝的技能（已用过、被禁止、不在使用时机、条件不成立）；"
                    "提醒每回合只有一次，这次提醒也没有提醒到任何有用的东西",
             example=_EXAMPLE_CHARS + '''[[character]]
id = "mover"
name = "搬运工"
hidden = false
female = false
skills = ["Move"]
[[skill]]
id = "Move"
name = "搬运"
kinds = ["MainPhaseSkill"]
limit = "turn"
main = "hand_count > 0"        # 要弃一张手牌才能发动
remind = "not used"            # 提醒却不看手牌：没有手牌时白白提醒''')
RM002 = Code("RM002", "remind-missing", "note",
             "a MainPhaseSkill that could still be used when its holder ends 出牌阶段 is not prompted for",
             "the client's reminder is there so that a player does not end the phase forgetting a skill; a usable "
             "skill it never mentions is one the player is not reminded of — fine when on purpose (using it would "
             "hurt), a gap otherwise",
             summary_zh="结束出牌阶段时还能用的出牌阶段技能没有被提醒",
             why_zh="客户端的提醒就是为了让玩家不会忘了技能就结束出牌阶段；一个能用却从不被提醒的技能，玩家就得不到提醒——"
                    "有意为之（发动会伤到自己）没问题，否则就是漏洞",
             example=_EXAMPLE_CHARS + '''[[character]]
id = "drawer"
name = "摸牌者"
hidden = false
female = false
skills = ["Draw"]
[[skill]]
id = "Draw"
name = "摸牌"
kinds = ["MainPhaseSkill"]
limit = "turn"
remind = "not used and hand_count > 1"   # 只剩一张手牌时不提醒，可技能什么都不需要''')


def _reason(cat, st, rid: str):
    """Why the player's entry of ``rid`` cannot be used at the witness's moment, read by the interpreter: (key, zh,
    en, the key of the rule that says it)."""
    rule = cat.skills[rid]
    insts = [i for i in st.seats[0].skills if i.rule == rid and "MainPhaseSkill" in live_kinds(cat, i)]
    inst = insts[0]
    if spent(cat, inst):
        return ("spent", "本回合已经发动过（它有次数限制）", "it was used this turn already (it has a usage limit)", "limit")
    if not in_window(st, 0, rule.windows):
        return ("window", "它不在出牌阶段由当前回合角色使用（见它的 windows）",
                "it is not used in the main phase by the turn player (see its windows)", "windows")
    cond = rule.main
    if cond is not None and not evaluate(cond, env_of(cat, st, 0, inst)):
        w = words_both(cond, cat)
        return ("condition", f"它出牌阶段的使用条件「{w['zh']}」不成立", f"its main-phase condition ({w['en']}) does not hold",
                "main")
    p = rule.plays
    if p is not None and p.checks_bans and all(banned(cat, st, 0, c) for c in p.cards):
        names = "、".join(cat.cards[c].name for c in p.cards)
        return ("banned", f"它当作的牌（{names}）都被禁止", f"every card it acts as ({', '.join(p.cards)}) is banned", "plays")
    return ("other", "它此刻不能使用", "it cannot be used now", "main")


def _ref(cat, rid: str, key: str, role: str) -> RuleRef:
    r = cat.skills[rid]
    loc = r.at(key)
    return RuleRef(rid, r.name, loc.file, loc.line, role)


# shared lane 0, after the intents (skip went to lane 1 for it: the two lanes' CPU even, as measured with
# benchmarks/lanes_ab.py at stop 47; see table)
@register("remind", "End-of-main-phase reminder", [RM001, RM002], order=95, shared_lane=0, weight=2)
def run(ctx):
    cat = ctx.cat
    out = []
    mains = [r for r in cat.skills.values() if r.has("MainPhaseSkill")]
    ctx.plan([{r.id} for r in mains])
    for r in mains:
        q = ctx.query_for({r.id})
        S = q.S
        parts = enc_remind_parts(S)
        if r.id not in parts:               # no slot of the player can hold it
            continue
        asked = enc_at_decision(S, "remind")           # the turn player ends 出牌阶段
        anyone, _ = enc_reminds(S)
        prompts, usable = parts[r.id]
        useful = Or([And(rm, us) for rm, us in parts.values()])
        question = {"decision": "remind", "seat": 0, "rule": r.id}

        def expect(a):
            m = a.model
            ev = lambda t: z3.is_true(m.eval(t, model_completion=True))   # noqa: E731
            return {"remind": ev(anyone), "prompts": ev(prompts), "usable_now": ev(usable)}

        # ---- RM001: it prompts, it cannot be used, and no skill the prompt is for can
        a = ctx.find(q, And(asked, prompts, z3.Not(usable), z3.Not(useful)))
        if a.status == "unknown":
            out.append(ctx.inconclusive("remind", f"结束出牌阶段时是否白白提醒{r.name}", [r.id], a,
                                        f"whether ending the main phase prompts in vain for {r.name}"))
        elif a.sat:
            st = a.state
            ch = cat.characters[st.seats[0].character]
            why, zh, en, key = _reason(cat, st, r.id)
            rw = words_both(r.remind, cat)
            out.append(Finding(
                "RM001", "remind", "note",
                f"{ch.name}结束出牌阶段时，客户端因{r.label}提醒“还有未发动的技能”（提醒条件「{rw['zh']}」成立），"
                f"但{r.label}此刻用不了：{zh}；被提醒的技能没有一个能用。",
                message_en=(f"when {ch.name} ends the main phase the client prompts about an unused skill because of "
                            f"{r.name} (its reminder, {rw['en']}, holds), yet {r.name} cannot be used then: {en}; no "
                            f"skill the prompt is for can be."),
                fix="让 remind 条件蕴含这个技能此刻能用（它的 main 条件、次数限制、禁令），或者放宽它的使用条件。",
                fix_en=("make the remind condition imply that the skill can be used then (its main condition, its "
                        "limit, the bans), or loosen what its use needs."),
                key=f"RM001|{r.id}|{why}",
                rules=[_ref(cat, r.id, "remind", "prompts for it"), _ref(cat, r.id, key, "rules its use out")],
                witness=ctx.witness(st, question, expect(a)), details={"cause": why}))
        # ---- RM002: it could be used, and the client does not prompt at all
        a = ctx.find(q, And(asked, usable, z3.Not(anyone)))
        if a.status == "unknown":
            out.append(ctx.inconclusive("remind", f"结束出牌阶段时是否不提醒能用的{r.name}", [r.id], a,
                                        f"whether ending the main phase leaves the usable {r.name} unmentioned"))
        elif a.sat:
            st = a.state
            ch = cat.characters[st.seats[0].character]
            rw = words_both(r.remind, cat)
            if r.main is None or (isinstance(r.main, E.Lit) and r.main.value is True):
                why_zh, why_en = "出牌阶段使用它不需要别的条件，本回合还能用", "its use needs nothing more and it is not used up"
            else:
                mw = words_both(r.main, cat)
                why_zh = f"出牌阶段的使用条件「{mw['zh']}」成立，本回合还能用"
                why_en = f"its main-phase condition, {mw['en']}, holds and it is not used up"
            out.append(Finding(
                "RM002", "remind", "note",
                f"{ch.name}结束出牌阶段时还能发动{r.label}（{why_zh}），"
                f"但它的提醒条件「{rw['zh']}」不成立，也没有别的技能提醒：客户端不会提示。",
                message_en=(f"when {ch.name} ends the main phase, {r.name} could still be used ({why_en}), but its "
                            f"reminder ({rw['en']}) does not hold and no other skill prompts: the client says nothing."),
                fix="如果是有意的（例如发动会伤到自己），写明理由忽略它；否则让 remind 条件覆盖这个技能能用的情形。",
                fix_en=("if on purpose (using it would hurt, say), ignore it with the reason; otherwise make the remind "
                        "condition cover the situations the skill can be used in."),
                key=f"RM002|{r.id}",
                rules=[_ref(cat, r.id, "remind", "does not prompt"), _ref(cat, r.id, "main", "usable then")],
                witness=ctx.witness(st, question, expect(a))))
    return out
