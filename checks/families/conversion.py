"""Contradictory conversions (CV).

A ConvertCardSkill says a card of type A may (or must) be used as one of B. The server lets a
must-conversion whose targets lack the declared type veto the play outright, wherever it stands in the
player's list — so one rule can silently cancel another. These checks ask the solver, over every
reachable game composition, acquisition order and declared parameter:

* CV001 — a held card that is not banned yet cannot be played as anything at all;
* CV002 — an optional conversion (e.g. SP李宁玉's 应变) whose declared use another rule vetoes.
"""
from __future__ import annotations

import itertools

import z3
from ..terms import And, Or

from skillproof.checks.enc.bans import enc_banned
from skillproof.checks.enc.conversion import (conversion_applies, conversion_source_is, conversion_targets_has,
                                              enc_conversion)
from skillproof.checks.enc.core import card_var, holds
from skillproof.checks.enc.plays import enc_card_usable, enc_has_card
from skillproof.checks.findings import Finding
from skillproof.checks.graph import conversion_pairs, sources_meet
from skillproof.checks.registry import Code, register

#: the family's page in Chinese (`skillproof rules conversion`; the docstring is the English)
DOC_ZH = """转化矛盾（CV）。

卡牌转化（`ConvertCardSkill`）是说：A 这种牌可以（或必须）当作 B 中的一种使用。玩家宣言的牌不在一条必须转化的
目标里时，服务器让这条必须转化直接否决这次使用，不管它排在玩家技能列表的什么位置——所以一条规则可能悄悄取消另一条。
这些检查让求解器在所有可达的牌局组成、获得顺序和宣言的参数上回答：

* CV001 — 手里的牌没有被禁止，却不能当作任何牌使用；
* CV002 — 可选转化（例如SP李宁玉的应变）宣言的用法被另一条规则否决。
"""

CV001 = Code(
    "CV001", "card-cannot-be-played", "error",
    "a card the player holds, not banned, cannot be played as any card type",
    "the card is dead in hand for a reason no ban announces; players will think the client is broken",
    summary_zh="玩家手里一张没有被禁止的牌，不能当作任何一种牌使用",
    why_zh="这张牌烂在手里，却没有任何禁令说明原因；玩家会以为客户端坏了",
    example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[card]]
id = "B"
name = "乙"
phases = ["fight"]
[[card]]
id = "C"
name = "丙"
phases = ["fight"]
[[character]]
id = "one"
name = "宣言一"
hidden = false
female = false
skills = ["DeclareB"]
[[character]]
id = "two"
name = "宣言二"
hidden = false
female = false
skills = ["DeclareC"]
[[skill]]
id = "DeclareB"
name = "宣言甲乙"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "OnlyB"
to = "all"
[[skill]]
id = "DeclareC"
name = "宣言甲丙"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "OnlyC"
to = "all"
[[grant]]
id = "OnlyB"
name = "甲只能当乙"
kinds = ["ConvertCardSkill", "OneTurnSkill"]
lifetime = "turn"
convert = { from = "A", to = ["B"], must = true }
[[grant]]
id = "OnlyC"
name = "甲只能当丙"
kinds = ["ConvertCardSkill", "OneTurnSkill"]
lifetime = "turn"
convert = { from = "A", to = ["C"], must = true }
# both handed to everyone in one turn: a 甲 can be played neither as 乙, nor as 丙, nor as 甲''')

CV002 = Code(
    "CV002", "conversion-vetoed", "warning",
    "an optional conversion's declared use is vetoed by a must-conversion of the same card",
    "the skill text promises the conversion; the server refuses it because another rule, often "
    "granted by another player, requires the card be used as something else",
    summary_zh="可选转化宣言的用法，被同一张牌的必须转化否决",
    why_zh="技能文字承诺了这个转化，服务器却拒绝它，因为另一条规则（常常是别的玩家给出的）"
           "要求这张牌必须当作别的牌使用",
    example='''[[card]]
id = "Jie_Huo"
name = "截获"
phases = ["fight"]
[[card]]
id = "Wu_Dao"
name = "误导"
phases = ["fight"]
[[card]]
id = "Diao_Bao"
name = "调包"
phases = ["fight"]
[[character]]
id = "sp_li_ning_yu"
name = "SP李宁玉"
hidden = false
female = true
skills = ["YingBian"]
[[character]]
id = "chen_da_er"
name = "陈大耳"
hidden = false
female = false
skills = ["BianZeTong"]
[[skill]]
id = "YingBian"
name = "应变"          # 截获可以当误导
kinds = ["ConvertCardSkill"]
convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }
[[skill]]
id = "BianZeTong"
name = "变则通"        # 宣言：本回合所有人的 A 只能当 B
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "BianZeTong2"
to = "all"
at = "send_start"
where = "A != B"
[[grant]]
id = "BianZeTong2"
name = "变则通·宣言"
kinds = ["ConvertCardSkill", "OneTurnSkill"]
lifetime = "turn"
params = { A = "card", B = "card" }
convert = { from = "A", to = ["B"], must = true }
# declared with A = 截获 and B = 调包: 应变's 截获 → 误导 is vetoed''')


def _convert_rules(cat):
    return [r for r in cat.skills.values() if r.convert is not None]


@register("conversion", "Contradictory conversions", [CV001, CV002], order=10, shared_lane=1, weight=4)
def run(ctx):
    cat = ctx.cat
    convs = _convert_rules(cat)
    musts = [r for r in convs if r.convert.must]
    if not musts:
        return []
    out = []
    # ---------------------------------------------------------------- CV002: optional vetoed by must
    pairs = [(opt, must) for opt, must in itertools.product([r for r in convs if not r.convert.must], musts)
             if opt.id != must.id and sources_meet(conversion_pairs(cat, opt.id), conversion_pairs(cat, must.id))]
    ctx.plan([{opt.id, must.id} for opt, must in pairs])
    for opt, must in pairs:         # (other pairs: no card both can convert, they never meet — graph pruning)
        q = ctx.query_for({opt.id, must.id})
        S = q.S
        x, xb = card_var(S, "cv_actual")
        y, yb = card_var(S, "cv_declared")
        terms = []
        for (sa, _), (sb, _) in itertools.product(holds(S, opt.id), holds(S, must.id)):
            if sa.index == sb.index:
                continue
            terms.append(And(
                conversion_applies(S, sa, opt.id), conversion_source_is(S, sa, opt.id, x),
                conversion_targets_has(S, sa, opt.id, y),
                conversion_applies(S, sb, must.id), conversion_source_is(S, sb, must.id, x),
                z3.Not(conversion_targets_has(S, sb, must.id, y))))
        if not terms:
            continue
        # the vetoed use is one the player could make in this window (the declared card is usable here)
        # (with a card in hand to convert: interp.plays.has_card)
        a = ctx.find(q, And(xb, yb, Or(terms), enc_card_usable(S, y), enc_has_card(S)))
        if a.status == "unknown":
            out.append(ctx.inconclusive("conversion", f"{opt.name} 能否被 {must.name} 否决", [opt.id, must.id], a,
                                        f"can {must.name} veto {opt.name}"))
            continue
        if not a.sat:
            continue
        xv, yv = a.card(S, x), a.card(S, y)
        st = a.state
        holder = cat.characters[st.seats[0].character]
        args = next((i.args for i in st.seats[0].skills if i.rule == must.id), {})
        pdesc = "、".join(f"{k}={ctx.card(v)}" for k, v in sorted(args.items()) if isinstance(v, str))
        pdesc_en = ", ".join(f"{k}={ctx.card(v)}" for k, v in sorted(args.items()) if isinstance(v, str))
        pdesc = f"（{pdesc}）" if pdesc else ""
        msg = (f"{holder.name}的{opt.label}想把{ctx.card(xv)}当作{ctx.card(yv)}使用，"
               f"但{must.label}{pdesc}要求{ctx.card(xv)}必须当作别的牌使用，这次使用被否决。")
        out.append(Finding(
            "CV002", "conversion", "warning", msg,
            message_en=(f"{holder.name}'s {opt.name} would play {ctx.card(xv)} as {ctx.card(yv)}, but {must.name}"
                        + (f" ({pdesc_en})" if pdesc_en else "")
                        + f" requires {ctx.card(xv)} be played as something else: this use is vetoed."),
            fix_en=(f"make {must.name}'s source (`convert.from`) exclude the card {opt.name} converts, or make {opt.name} convert another "
                    f"card; if the veto is intended, ignore it with a reason."),
            fix=f"让{must.label}转化的牌不包含{opt.label}转化的牌，或让{opt.label}改为转化别的牌；若否决正是设计意图，写明理由忽略它。", key=f"CV002|{opt.id}|{must.id}",
            rules=[ctx.ref(opt.id, "is vetoed"), ctx.ref(must.id, "vetoes")] +
                  [ctx.ref(g.giver, "gives the vetoing rule") for g in cat.sites(must.id)][:1],
            witness=ctx.witness(st, {"decision": "conversion", "seat": 0, "actual": xv, "declared": yv},
                                {"ok": False, "has_card": True})))
    # ---------------------------------------------------------------- CV001: a card with no use at all
    # a must-conversion leaves its own targets open, so a dead card needs two must-conversions of one
    # card (or one with no target): each pair is asked in its own cone
    groups = [(m,) for m in musts] + \
        [(m1, m2) for m1, m2 in itertools.combinations(musts, 2)
         if sources_meet(conversion_pairs(cat, m1.id), conversion_pairs(cat, m2.id))]
    seen = set()
    for group in groups:
        _dead_card(ctx, out, [m.id for m in group], seen)
    return out


def _dead_card(ctx, out, holders, seen):
    cat = ctx.cat
    q = ctx.query_for(set(holders))
    S = q.S
    x, xb = card_var(S, "cv_dead")
    all_fail, could = [], []
    for yc in range(len(S.codes.cards)):
        y = z3.IntVal(yc)
        ok, _ = enc_conversion(S, x, y)
        all_fail.append(z3.Not(ok))
        could.append(And(enc_card_usable(S, y), z3.Not(enc_banned(S, y))))
    # in a window where the player may use some card type that is not banned
    goal = And(xb, enc_has_card(S), z3.Not(enc_banned(S, x)), And(all_fail), Or(could))
    a = ctx.find(q, goal)
    if a.status == "unknown":
        out.append(ctx.inconclusive("conversion", "是否存在无法以任何方式打出的手牌", sorted(holders), a,
                                    "is there a hand card that cannot be played in any way"))
    elif a.sat:
        st = a.state
        xv = a.card(S, x)
        involved = [i.rule for i in st.seats[0].skills
                    if cat.skills[i.rule].convert is not None and cat.skills[i.rule].convert.must]
        names = "、".join(cat.skills[r].label for r in dict.fromkeys(involved))
        names_en = ", ".join(cat.skills[r].name for r in dict.fromkeys(involved))
        msg = (f"{cat.characters[st.seats[0].character].name}手里的{ctx.card(xv)}没有被禁止，"
               f"却因{names}同时生效而不能当作任何牌使用。")
        key = f"CV001|{'|'.join(sorted(set(involved)))}"
        if key in seen:
            return
        seen.add(key)
        out.append(Finding(
            "CV001", "conversion", "error", msg, key=key,
            message_en=(f"{cat.characters[st.seats[0].character].name}'s {ctx.card(xv)} is not banned, yet cannot be "
                        f"played as any card while {names_en} are in force together."),
            fix_en=(f"let at least one of {names_en} convert to a use this card has, or make one of them an optional "
                    f"conversion (must = false)."),
            fix=f"让{names}中至少一条的转化目标包含这张牌可用的用法，或把其中一条改为可选转化（must = false）。",
            rules=[ctx.ref(r, "forbids every use") for r in sorted(set(involved))],
            witness=ctx.witness(st, {"decision": "conversion", "seat": 0, "actual": xv, "declared": xv},
                                {"ok": False, "has_card": True})))
