"""Invalidation eligibility and lifetimes (IV).

Design note: only initial skills can be invalidated (an InvalidSkill is a shell released at turn end);
OneTurnSkills are lost at turn end. The server restores invalidated skills first, then drops one-turn
skills (phase/NextTurn.kt). What the skill *produced* is another matter: a grant is not initial, so it
stays in force while the skill that gave it is invalidated.

* IV001 — a granted rule stays in force while the skill that gave it is invalidated;
* IV002 — a grant's lifetime contradicts its kinds (a "this turn" grant that is not a OneTurnSkill, a
  permanent one that is), or a grant without a turn lifetime can outlive its turn;
* IV003 — a one-turn or invalidated skill survives the turn end (restore / drop order).
"""
from __future__ import annotations

import z3
from ..terms import And, Or

from ..enc.core import holds
from ..enc.grants import enc_grant_matters
from ..enc.lifetime import enc_turn_end_survivors
from skillproof.checks.findings import Finding, site_key
from skillproof.checks.registry import Code, register

#: the family's page in Chinese (`skillproof rules invalidation`; the docstring is the English)
DOC_ZH = """无效与持续时间（IV）。

设计说明：只有初始技能会被无效（被无效的技能套上一个壳 `InvalidSkill`，回合结束时放出来）；本回合技能
（`OneTurnSkill`）在回合结束时失去。服务器先恢复被无效的技能，再移除本回合技能（phase/NextTurn.kt）。
技能*给出的东西*另当别论：给出的技能不是初始技能，所以给出它的技能被无效时，它仍然生效。

* IV001 — 给出它的技能被无效时，给出的规则仍然生效；
* IV002 — 给出的技能声明的持续时间与种类矛盾（声明本回合却不是本回合技能，声明永久却是），
  或者没有回合期限的给出的技能能留过它的回合；
* IV003 — 本回合技能或被无效的技能留过了回合结束（恢复与移除的先后）。
"""

IV001 = Code(
    "IV001", "grant-outlives-invalidated-giver", "note",
    "a rule handed out by a skill stays in force while that skill is invalidated",
    "invalidating a skill (禁闭, 调虎离山, 先发制人) does not undo what it already gave: designers who "
    "expect 'skills invalid' to mean 'no effect of that skill' are surprised",
    summary_zh="技能给出的规则，在这个技能被无效时仍然生效并起作用",
    why_zh="无效一个技能（禁闭、调虎离山、先发制人）不会撤销它已经给出的东西：以为“技能无效”"
           "就是“这个技能的效果全都没有”的设计者会意外",
    example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[card]]
id = "B"
name = "乙"
phases = ["fight"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[character]]
id = "chen_da_er"
name = "陈大耳"
hidden = false
female = false
skills = ["BianZeTong", "Invalidate"]
[[skill]]
id = "BianZeTong"
name = "变则通"            # 宣言后所有人本回合甲只能当乙
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "MustAB"
to = "all"
[[skill]]
id = "Invalidate"
name = "使无效"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Invalid"
to = "all"
[[grant]]
id = "MustAB"
name = "甲只能当乙"
kinds = ["ConvertCardSkill", "OneTurnSkill"]
lifetime = "turn"
convert = { from = "A", to = ["B"], must = true }
[[grant]]
id = "Invalid"
name = "技能无效"
kinds = ["InvalidSkill"]
lifetime = "turn"
# 变则通 invalidated: the declaration it handed out is still in force''')

IV002 = Code(
    "IV002", "grant-lifetime", "error",
    "a grant's declared lifetime contradicts its kinds, or it can outlive the turn it was given in",
    "the server drops only OneTurnSkills at turn end: a grant said to last 'this turn' that is not one "
    "stays for the rest of the game; one that waits 'until it fires' may wait turns",
    summary_zh="给出的技能声明的持续时间（`lifetime`）与它的种类矛盾，或者它能留过给出它的那个回合",
    why_zh="回合结束时服务器只移除本回合技能（`OneTurnSkill`）：声明“只持续本回合”却不是本回合技能的，"
           "会一直留到游戏结束；声明“触发后才移除”的，可能要等好几个回合",
    also_when_zh="声明的持续时间与种类矛盾时（声明本回合却不是本回合技能，声明永久却是本回合技能，"
                 "被无效的壳声明的不是本回合）为错误；声明触发后才移除（`until_fired`）又不是本回合技能、"
                 "可能留到下一回合时，为提示",
    example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[character]]
id = "giver"
name = "给予者"
hidden = false
female = false
skills = ["JiuJi"]
[[skill]]
id = "JiuJi"
name = "就计"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "JiuJi2"
to = "self"
[[grant]]
id = "JiuJi2"
name = "就计·后续"
kinds = ["TriggeredSkill"]
lifetime = "until_fired"   # not a OneTurnSkill: it survives the turn end until it fires''',
    also=("note",), also_when="error when the declared lifetime contradicts the kinds (a 'turn' grant that is "
                              "not a OneTurnSkill, a permanent one that is); note when an 'until_fired' grant "
                              "that is not a OneTurnSkill may outlive its turn")

IV003 = Code(
    "IV003", "survives-turn-end", "error",
    "after the turn end a one-turn skill is still held, or a skill is still invalidated",
    "the turn-end steps (restore invalidated skills, drop one-turn skills) in this order leave a "
    "'this turn only' effect in force on the next turn",
    summary_zh="回合结束后，本回合技能仍被持有，或者技能仍处于被无效状态",
    why_zh="回合结束的步骤（恢复被无效的技能、移除本回合技能）按这个顺序执行，会把“只限本回合”的效果留到下一回合",
    example='''[rules]
turn_end = ["drop_one_turn", "restore_invalid"]   # a one-turn skill invalidated at the turn end survives it
[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[card]]
id = "B"
name = "乙"
phases = ["fight"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[character]]
id = "holder"
name = "持有者"
hidden = false
female = false
skills = ["Wrapper"]
[[skill]]
id = "Wrapper"
name = "无效化"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Wrap"
to = "all"
[[skill.gives]]
grant = "TurnConv"
to = "self"
[[grant]]
id = "Wrap"
name = "无效"
kinds = ["InvalidSkill"]
lifetime = "turn"
[[grant]]
id = "TurnConv"
name = "本回合转化"
kinds = ["ConvertCardSkill", "OneTurnSkill"]
initial = true
lifetime = "turn"
convert = { from = "A", to = ["B"], must = false }''')


_LIFE = {"turn": "只持续本回合", "until_fired": "触发后才移除", "permanent": "永久保留", "resolution": "只持续一次结算"}
_LIFE_EN = {"turn": "to last the turn only", "until_fired": "to be removed once it fires", "permanent": "to last for good",
            "resolution": "to last one resolution"}


def _iv001_site(cat, g, give) -> bool:
    """A site whose giver can be invalidated while its grant stays: a skill marked initial, not used up (a
    used-up giver is gone, nothing to invalidate), handing out a grant that is not itself an invalidation."""
    return not (give.giver_is_card or not cat.skills[give.giver].initial or g.has("InvalidSkill")
                or cat.skills[give.giver].consumed)


@register("invalidation", "Invalidation eligibility and lifetimes", [IV001, IV002, IV003], order=50, lane=1, weight=6)
def run(ctx):
    cat = ctx.cat
    out = []
    # ---------------------------------------------------------------- IV002
    ctx.plan([{g.id} for g in cat.grants if not g.has("InvalidSkill") and not g.has("OneTurnSkill")
              and g.lifetime != "permanent" and cat.sites(g.id)])
    for g in cat.grants:
        givers = [x.giver for x in cat.sites(g.id)]
        refs = [ctx.ref(g.id, "the grant")] + [ctx.ref(x, "gives it") for x in givers[:2]]
        fix = ("把 lifetime 改成与 kinds 一致（本回合：`lifetime = \"turn\"` 且 kinds 含 OneTurnSkill），"
               f"或给{g.label}加上 OneTurnSkill。")
        fix_en = ("make lifetime agree with kinds (this turn: `lifetime = \"turn\"` and OneTurnSkill among the kinds), "
                  f"or add OneTurnSkill to {g.name}.")
        if g.has("InvalidSkill"):
            # an InvalidSkill shell is released at the turn end (restore_invalid), whatever it declares
            # (one of a resolution ends sooner still: nothing to say)
            if g.lifetime not in ("turn", "resolution") and "restore_invalid" in cat.rules.turn_end:
                out.append(Finding("IV002", "invalidation", "error",
                                   f"{g.label}声明{_LIFE[g.lifetime]}，但它是 InvalidSkill：回合结束时被无效的技能都会恢复。",
                                   key=f"IV002|{g.id}|{g.lifetime}", rules=refs,
                                   fix=f"把{g.label}的 lifetime 改成 `\"turn\"`：被无效的技能在回合结束时都会恢复。",
                                   fix_en=(f"set {g.name}'s `lifetime = \"turn\"`: invalidated skills all recover at the "
                                           f"turn end."),
                                   message_en=(f"{g.name} is declared {_LIFE_EN[g.lifetime]}, but it is an InvalidSkill: "
                                               f"every invalidated skill recovers at the turn end."),
                                   details={"lifetime": g.lifetime, "one_turn": False}))
            continue
        one_turn = g.has("OneTurnSkill")
        if g.lifetime == "permanent" and one_turn:
            out.append(Finding("IV002", "invalidation", "error",
                               f"{g.label}声明永久保留，却是 OneTurnSkill：服务器会在回合结束时移除它。",
                               key=f"IV002|{g.id}|{g.lifetime}", rules=refs,
                               fix=(f"若{g.label}只持续本回合，把 lifetime 改成 `\"turn\"`；若它应当一直保留，"
                                    f"从 kinds 里去掉 OneTurnSkill。"),
                               fix_en=(f"if {g.name} lasts the turn only, set `lifetime = \"turn\"`; if it is meant to last "
                                       f"for good, drop OneTurnSkill from its kinds."),
                               message_en=(f"{g.name} is declared to last for good, yet is a OneTurnSkill: the server "
                                           f"removes it at the turn end."),
                               details={"lifetime": g.lifetime, "one_turn": one_turn}))
            continue
        if one_turn or g.lifetime == "permanent" or not cat.sites(g.id):
            continue
        # 'turn' or 'until_fired' and not a OneTurnSkill: show the trace in which it outlives its turn
        q = ctx.query_for({g.id})
        S = q.S
        later = [And(sl.present, S.rule_is(sl, g.id), sl.m.t < S.T - 1)
                 for sl, _ in holds(S, g.id)]
        if not later:
            continue
        a = ctx.find(q, Or(later))
        if a.status == "unknown":
            out.append(ctx.inconclusive("invalidation", f"{g.name}能否留到下一回合", [g.id], a))
            continue
        if not a.sat:
            continue                 # proved: it cannot outlive its turn within the bounds
        st = a.state
        if g.lifetime == "turn":
            msg_en = (f"{g.name} is declared to last the turn only, but is not a OneTurnSkill: the server does not "
                      f"remove it at the turn end, and it is still in force in the next turn.")
            sev, msg = "error", (f"{g.label}声明只持续本回合，却不是 OneTurnSkill：回合结束时服务器不会移除它，"
                                 f"它在下一回合仍然生效。")
        else:
            msg_en = (f"{g.name} is removed only once it fires, and is not a OneTurnSkill: if it does not fire this "
                      f"turn it stays into the next (the model does not know when it fires: a potential case, "
                      f"depending on whether its trigger surely holds this turn).")
            sev, msg = "note", (f"{g.label}在触发后才移除，且不是 OneTurnSkill：本回合没有触发时它留到下一回合"
                                f"（模型不知道它何时触发：这是潜在情况，取决于触发条件在本回合是否一定满足）。")
        out.append(Finding("IV002", "invalidation", sev, msg, key=f"IV002|{g.id}|{g.lifetime}", rules=refs, fix=fix,
                           message_en=msg_en, fix_en=fix_en,
                           witness=ctx.witness(st, {"decision": "holds", "seat": 0, "rule": g.id},
                                               {"holds": True, "turns_ago": 1}),
                           details={"lifetime": g.lifetime, "one_turn": one_turn,
                                    "latent": g.lifetime == "until_fired"}))
    # ---------------------------------------------------------------- IV001
    ctx.plan([{g.id, give.giver} for g in cat.grants for give in cat.sites(g.id) if _iv001_site(cat, g, give)],
             others_invalidated=True)
    for g in cat.grants:
        for give in cat.sites(g.id):
            if not _iv001_site(cat, g, give):
                continue
            q = ctx.query_for({g.id, give.giver}, others_invalidated=True)
            S = q.S
            site = S.codes.site[f"{give.giver}#{give.index}"]
            terms = []
            for sl in S.slots:
                if sl.initial_slot or g.id not in sl.candidates:
                    continue
                for gs in range(S.n):
                    # … at a moment where the grant is consulted (a ban where a banned card may be used, a
                    # receive rule at the choice, a send rule at the send …): there it does what its giver no longer could
                    terms.append(And(sl.present, S.rule_is(sl, g.id), sl.site == site, sl.giver == gs,
                                        S.inv[gs], z3.Not(S.invalid(sl)), enc_grant_matters(S, g.id, sl)))
            if not terms:
                continue
            a = ctx.find(q, Or(terms))
            if a.status == "unknown":
                out.append(ctx.inconclusive("invalidation", f"{g.name}能否在{cat.skills[give.giver].name}被无效后保留",
                                            [g.id, give.giver], a))
                continue
            if not a.sat:
                continue
            st = a.state
            inst = next(i for i in st.seats[0].skills if i.rule == g.id and i.site == f"{give.giver}#{give.index}")
            giver_char = cat.characters[st.seats[inst.giver].character].name
            holder = cat.characters[st.seats[0].character].name
            giver_label = cat.skills[give.giver].label
            msg = (f"{giver_char}的{giver_label}被无效后，它给出的{g.label}仍对{holder}生效"
                   f"（只有初始技能会被无效，给出的技能不会）。")
            out.append(Finding(
                "IV001", "invalidation", "note", msg,
                message_en=(f"after {giver_char}'s {cat.skills[give.giver].name} is invalidated, the {g.name} it gave "
                            f"is still in force for {holder} (only initial skills are invalidated, given ones are not)."),
                fix_en=(f"if {g.name} should stop when {cat.skills[give.giver].name} is invalidated, test in {g.name}'s "
                        f"condition whether its giver is invalidated; otherwise this is the server's behaviour: ignore "
                        f"it with a reason."),
                fix=(f"若{giver_label}被无效时{g.label}也应失效，在{g.label}的条件里检查给出者是否被无效；"
                     f"否则这是服务器的行为，写明理由忽略它。"), key=f"IV001|{site_key(give)}|{g.id}",
                rules=[ctx.ref(give.giver, "invalidated"), ctx.ref(g.id, "stays in force")],
                witness=ctx.witness(st, {"decision": "holds", "seat": 0, "rule": g.id}, {"holds": True, "live": True},
                                    also=[({"decision": "holds", "seat": inst.giver, "rule": give.giver},
                                           {"holds": True, "live": False, "invalidated": True}),
                                          ({"decision": "matters", "seat": 0, "rule": g.id,
                                            "args": inst.to_dict().get("args", {})}, {"matters": True})]),
                details={"giver_seat": inst.giver}))
    # ---------------------------------------------------------------- IV003
    held = {r.id for r in cat.skills.values() if r.has("OneTurnSkill") or r.initial}
    q = ctx.query_for(held)
    S = q.S
    bad = []
    for sl, (present, wrapped, one_turn) in zip(S.slots, enc_turn_end_survivors(S)):
        bad.append(Or(And(present, wrapped), one_turn))
    a = ctx.find(q, Or(bad))
    if a.status == "unknown":
        out.append(ctx.inconclusive("invalidation", "回合结束后是否残留本回合技能或被无效的技能", [], a))
    elif a.sat:
        st = a.state
        from skillproof.model.interp.lifetime import turn_end
        after = turn_end(cat, st)
        left = [i for i in after.seats[0].skills if i.invalid or cat.skills[i.rule].has("OneTurnSkill")]
        names = "、".join(dict.fromkeys(cat.skills[i.rule].label for i in left))
        order = " → ".join(cat.rules.turn_end)
        out.append(Finding(
            "IV003", "invalidation", "error",
            f"按回合结束顺序（{order}），{names}在回合结束后仍然保留（仍被无效或仍是本回合技能）。",
            message_en=(f"with the turn-end order ({order}), {', '.join(dict.fromkeys(cat.skills[i.rule].name for i in left))} "
                        f"survive the turn end (still invalidated, or still one-turn skills)."),
            fix_en=("set [rules] turn_end to [\"restore_invalid\", \"drop_one_turn\"] (release invalidated skills first, "
                    "then drop this turn's skills)."),
            fix="把 [rules] turn_end 改为 [\"restore_invalid\", \"drop_one_turn\"]（先放出被无效的技能，再移除本回合技能）。",
            key=f"IV003|{'|'.join(sorted({i.rule for i in left}))}|{order}",
            rules=[ctx.ref(i.rule, "survives turn end") for i in left],
            witness=ctx.witness(st, {"decision": "turn_end", "seat": 0},
                                {"skills": [{"rule": i.rule, "invalid": i.invalid} for i in after.seats[0].skills]})))
    return out
