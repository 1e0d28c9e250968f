"""Unreachable and shadowed rules (UR).

A rule that can never take effect is dead weight in the rule book at best and a typo at worst; one
that is dead only in some reachable combination is a surprise for the players who meet it.

* UR001 — a skill no character holds;
* UR002 — a grant nothing can hand out (no gives site, or every giver is held by nobody);
* UR003 — a rule that never takes effect in any reachable state (a conversion that never fires, a
  send rule never in force, a receive rule that never says anything, an active skill whose conditions
  never hold in any window it names, a triggered effect whose ``fires.when`` never holds in its windows, a gives
  site that never hands its grant out — reported at the site's own line);
* UR004 — a conversion that is shadowed in some reachable state: it would apply, but another
  conversion fires instead (must beats optional, later beats earlier) or its declared type is banned.
"""
from __future__ import annotations

import z3
from ..terms import And, Or

from skillproof.checks.enc.bans import enc_ban_all, enc_ban_has
from skillproof.checks.enc.conversion import (conversion_applies, conversion_source_is, conversion_targets_has,
                                              enc_conversion)
from skillproof.checks.enc.core import card_var, holds, slot_is
from skillproof.checks.enc.fires import enc_fires
from skillproof.checks.enc.plays import enc_card_usable, enc_has_card
from skillproof.checks.enc.receive import CANNOT, enc_receive, receive_rule_parts
from skillproof.checks.enc.result import enc_result_pass, result_holders
from skillproof.checks.enc.send import enc_send_in_force
from skillproof.checks.enc.state import WCODE
from skillproof.checks.enc.windows import enc_actor_ok, enc_at_decision
from skillproof.checks.findings import Finding, RuleRef, site_key
from skillproof.checks.graph import conversion_pairs, site_ban_cards
from skillproof.checks.registry import Code, register
from skillproof.model import expr as E
from skillproof.model import turn as TW
from skillproof.model.kinds import SEND_GROUP_ZH, SEND_GROUPS

#: the family's page in Chinese (`skillproof rules unreachable`; the docstring is the English)
DOC_ZH = """不可达和被挡住的规则（UR）。

永远不会生效的规则，好一点是规则书里的累赘，坏一点是笔误；只在某些可达组合里失效的规则，会让碰上的玩家意外。

* UR001 — 没有角色持有的技能；
* UR002 — 没有任何途径给出的技能（没有给出点，或者给出它的技能都没人持有）；
* UR003 — 在任何可达局面下都不生效的规则（从不发动的转化、从不成为生效规则的传情报规则、什么也不规定的接收规则、
  “不能接收”从不起作用的接收规则、在写明的任何时机条件都不成立的主动技能、在发动时机 `fires.when` 从不成立的触发技能、从不给出技能的给出处（报告在给出处所在的行）、从不改变胜负的宣胜或影响游戏结果的技能）；
* UR004 — 在某个可达局面被挡住的转化：它本该适用，发动的却是另一条转化（必须转化优先于可选转化，否则后获得的优先），
  或者它宣言的牌被禁止。
"""

UR001 = Code("UR001", "skill-unheld", "warning", "a skill that no character holds",
             "it can never be used; usually a character's skill list misses it or it was left behind",
             summary_zh="没有任何角色持有的技能",
             why_zh="它永远用不上；通常是某个角色的技能列表漏了它，或者它是改动后留下的",
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
[[skill]]
id = "MiXin"
name = "密信"              # 服务器里有这个类，但没有角色持有
kinds = ["TriggeredSkill"]''')
UR002 = Code("UR002", "grant-never-given", "warning", "a grant nothing can hand out",
             "no skill or card gives it, or only skills nobody holds do",
             summary_zh="没有任何途径给出的技能（`[[grant]]`）",
             why_zh="没有技能或卡牌给出它，或者给出它的只有没人持有的技能",
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
[[grant]]
id = "Orphan"
name = "孤儿"
kinds = ["OneTurnSkill"]
lifetime = "turn"          # no [[…gives]] names it''')
UR003 = Code("UR003", "rule-never-effective", "warning",
             "a rule that never takes effect in any reachable state",
             "its text describes something that cannot happen under the other rules",
             summary_zh="在任何可达局面下都不会生效的规则",
             why_zh="它的文字描述的事情，在其他规则之下不可能发生（报告的 `details.because` 列出使它不可能的约束）",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "public"
name = "公开者"
hidden = false
female = false
skills = ["HiddenOnly"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[skill]]
id = "HiddenOnly"
name = "暗手"
kinds = ["ActiveSkill"]
fight = "not face_up"      # a public role is always face up: never usable''')
UR004 = Code("UR004", "conversion-shadowed", "note",
             "a conversion that would apply is shadowed in some reachable state",
             "by a must-conversion (must beats optional), a later conversion, or a ban on the declared type: "
             "the skill's own effect (its onConvert notice, its consumption) does not happen",
             summary_zh="本该适用的转化，在某个可达局面被挡住",
             why_zh="挡住它的是必须转化（必须转化优先于可选转化）、后获得的转化，或者对宣言的牌的禁令："
                    "这个技能自己的效果（转化时的提示、它的消耗）不会发生",
             example='''[[card]]
id = "Jie_Huo"
name = "截获"
phases = ["fight"]
[[card]]
id = "Wu_Dao"
name = "误导"
phases = ["fight"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
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
name = "应变"
kinds = ["ConvertCardSkill"]
convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }
[[skill]]
id = "BianZeTong"
name = "变则通"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "BianZeTong2"
to = "all"
at = "send_start"
args = { A = "Jie_Huo", B = "Wu_Dao" }
[[grant]]
id = "BianZeTong2"
name = "变则通·宣言"       # 截获→误导, a must-conversion: it fires instead of 应变
kinds = ["ConvertCardSkill", "OneTurnSkill"]
lifetime = "turn"
params = { A = "card", B = "card" }
convert = { from = "A", to = ["B"], must = true }''')


def _overlap(p1, p2) -> bool:
    """Two conversions can take the same card to the same declared type."""
    for a, b in p1:
        for c, d in p2:
            if b == d and (a == c or "*" in (a, c)):
                return True
    return False


def _reachable_givers(cat, grant_id):
    out = []
    for g in cat.sites(grant_id):
        if g.giver_is_card or cat.owners(g.giver) or (g.giver in cat.skills and cat.skills[g.giver].is_grant):
            out.append(g)
    return out


GROUP_EN = {"SendMessageDirectionSkill": "direction", "SendMessageCanLockSkill": "lock",
            "SendMessageCardSkill": "message card"}


#: this family's questions (one rule, or a pair) answer faster on smaller shared states than the default
#: widening; every question of the family is planned (measured at 10x copies, in one run: 16/4 33.3 s,
#: 20/5 28.8 s, 24/6 29.7 s for the same findings)
SMALL_STATES = (20, 5)


@register("unreachable", "Unreachable and shadowed rules", [UR001, UR002, UR003, UR004], order=15, weight=27)
def run(ctx):
    cat = ctx.cat
    out = []
    for r in cat.initial_skills:
        if not cat.owners(r.id):
            out.append(Finding("UR001", "unreachable", "warning", f"{r.label}没有任何角色持有，永远不会生效。",
                               message_en=f"no character holds {r.name}: it never takes effect.",
                               fix_en=f"add {r.name} to some character's skills, or delete it.",
                               fix=f"把{r.label}加入某个角色的 skills，或删除它。", key=f"UR001|{r.id}", rules=[ctx.ref(r.id)]))
    for g in cat.grants:
        if not _reachable_givers(cat, g.id):
            why = "没有任何技能或卡牌给出它" if not cat.sites(g.id) else "给出它的技能没有角色持有"
            why_en = "no skill or card hands it out" if not cat.sites(g.id) else "no character holds what hands it out"
            out.append(Finding("UR002", "unreachable", "warning", f"{g.label}{why}，永远不会出现在对局中。",
                               message_en=f"{why_en}: {g.name} never appears in a game.",
                               fix_en=f"let some skill or card hand out {g.name} with [[skill.gives]] / [[card.gives]], or delete it.",
                               fix=f"让某个技能或卡牌用 [[skill.gives]] / [[card.gives]] 给出{g.label}，或删除它。", key=f"UR002|{g.id}", rules=[ctx.ref(g.id)] + [ctx.ref(x.giver) for x in cat.sites(g.id)]))
    # ---------------------------------------------------------------- conversions: never / shadowed
    convs = [r for r in cat.skills.values() if r.convert is not None and
             (cat.owners(r.id) or _reachable_givers(cat, r.id))]
    def play_question(rules):
        """The question 'which conversion fires when the player uses x as y', in the cone of ``rules``."""
        q = ctx.query_for(rules)
        S = q.S
        x, xb = card_var(S, "ur_actual")
        y, yb = card_var(S, "ur_declared")
        ok, via = enc_conversion(S, x, y)
        # a use the player can make in this window, with a card in hand (interp.plays.has_card)
        ok = And(ok, enc_card_usable(S, y), enc_has_card(S))
        return q, S, x, xb, y, yb, ok, via

    bans = [g for b in cat.grants if b.ban is not None for g in cat.sites(b.id)]

    def shadow_bans(r):
        """The ban sites that may ban a type ``r`` converts into, with the rules of that question."""
        targets = {b for _, b in conversion_pairs(cat, r.id)}
        return [(give, {r.id, give.grant} | ({give.giver} if not give.giver_is_card else set()))
                for give in bans if targets & site_ban_cards(cat, give, include_all=False)]

    if convs:
        ctx.plan([q for r in convs for q in [{r.id}] + [{r.id, o.id} for o in convs if o.id != r.id and
                                                        _overlap(conversion_pairs(cat, r.id),
                                                                 conversion_pairs(cat, o.id))]
                  + [rules for _, rules in shadow_bans(r)]],
                 limit=SMALL_STATES)
        for r in convs:
            q, S, x, xb, y, yb, ok, via = play_question({r.id})
            slots = [sl for sl, _ in holds(S, r.id)]
            fires = slot_is(S, via, r.id)
            a = ctx.find(q, And(xb, yb, ok, fires), minimize=False, core=True)
            if a.status == "unknown":
                out.append(ctx.inconclusive("unreachable", f"{r.name}能否发动", [r.id], a))
                continue
            if not a.sat:
                core = sorted({rid for lab in a.core for rid in lab.rules})
                out.append(Finding("UR003", "unreachable", "warning",
                                   f"{r.label}在任何可达的局面下都不会发动。", fix=f"检查{r.label}的条件与转化（获得的技能还要检查列出的给出处：在何时、给谁），或删除它。",
                                   message_en=f"{r.name} never fires in any reachable situation.",
                                   fix_en=(f"check {r.name}'s conditions and conversion (for a grant, also the gives "
                                           f"sites listed: when and to whom it is handed out), or delete it."),
                                   key=f"UR003|convert|{r.id}",
                                   rules=[ctx.ref(r.id)] + [ctx.ref(c) for c in core[:5]],
                                   details={"because": [lab.label for lab in a.core]}))
                continue
            # shadowed: applies (source matches, declared in targets) but another slot fires, or banned
            def applies_in(S, x, y):
                return Or([And(conversion_applies(S, sl, r.id), conversion_source_is(S, sl, r.id, x),
                                     conversion_targets_has(S, sl, r.id, y), x != y)
                              for sl, _ in holds(S, r.id)] or [z3.BoolVal(False)])
            mine = conversion_pairs(cat, r.id)
            others = [o for o in convs if o.id != r.id and _overlap(mine, conversion_pairs(cat, o.id))]
            for o in others:
                q, S, x, xb, y, yb, ok, via = play_question({r.id, o.id})
                applies = applies_in(S, x, y)
                by_other = slot_is(S, via, o.id)
                a = ctx.find(q, And(xb, yb, ok, applies, by_other))
                if a.status == "unknown":
                    out.append(ctx.inconclusive("unreachable", f"{r.name}能否被{o.name}遮蔽", [r.id, o.id], a))
                    continue
                if not a.sat:
                    continue
                xv, yv = a.card(S, x), a.card(S, y)
                who = cat.characters[a.state.seats[0].character].name
                why = "必须转化优先于可选转化" if o.convert.must and not r.convert.must else "后获得的转化优先"
                why_en = ("must-conversions go before optional ones" if o.convert.must and not r.convert.must
                          else "the later-acquired conversion goes first")
                out.append(Finding(
                    "UR004", "unreachable", "note",
                    f"{who}把{ctx.card(xv)}当作{ctx.card(yv)}使用时，发动的是{o.label}而不是{r.label}（{why}）。",
                    message_en=(f"when {who} plays {ctx.card(xv)} as {ctx.card(yv)}, {o.name} fires instead of {r.name} "
                                f"({why_en})."),
                    fix_en=f"if {r.name} should go first, make {o.name} not convert the same card; otherwise ignore it with a reason.",
                    fix=f"若{r.label}应优先，让{o.label}不转化同一张牌；否则写明理由忽略它。", key=f"UR004|convert|{r.id}|{o.id}", rules=[ctx.ref(r.id, "shadowed"), ctx.ref(o.id, "fires instead")],
                    witness=ctx.witness(a.state, {"decision": "conversion", "seat": 0, "actual": xv, "declared": yv},
                                        {"ok": True, "via": o.id, "has_card": True})))
            # shadowed by a ban on the declared type
            for give, rules in shadow_bans(r):
                q, S, x, xb, y, yb, ok, via = play_question(rules)
                applies = applies_in(S, x, y)
                fires = slot_is(S, via, r.id)
                site = S.codes.site[f"{give.giver}#{give.index}"]
                rule = cat.skills[give.grant]
                ban_here = Or([And(sl.present, S.rule_is(sl, give.grant), sl.site == site,
                                         z3.Not(enc_ban_all(S, rule, sl)), enc_ban_has(S, rule, sl, y))
                                  for sl in S.slots if not sl.initial_slot and give.grant in sl.candidates]
                                 or [z3.BoolVal(False)])
                a = ctx.find(q, And(xb, yb, ok, applies, fires, ban_here))
                if a.status == "unknown":
                    out.append(ctx.inconclusive("unreachable", f"{r.name}能否被禁令遮蔽", [r.id, give.giver], a))
                    continue
                if not a.sat:
                    continue
                xv, yv = a.card(S, x), a.card(S, y)
                who = cat.characters[a.state.seats[0].character].name
                gname = cat.giver_name(give)
                out.append(Finding(
                    "UR004", "unreachable", "note",
                    f"{gname}禁止了{ctx.card(yv)}后，{who}的{r.label}仍能把{ctx.card(xv)}转化为{ctx.card(yv)}，"
                    f"但这张牌打不出去。",
                    fix=f"若被禁的牌不应转化出来，让{r.label}的目标不含{ctx.card(yv)}；否则写明理由忽略它。",
                    message_en=(f"after {cat.name_of(give.giver)} bans {ctx.card(yv)}, {who}'s {r.name} can still convert "
                                f"{ctx.card(xv)} into {ctx.card(yv)}, but the card cannot be played."),
                    fix_en=(f"if a banned card should not come out of a conversion, drop {ctx.card(yv)} from {r.name}'s "
                            f"targets; otherwise ignore it with a reason."),
                    key=f"UR004|ban|{r.id}|{site_key(give)}",
                    rules=[ctx.ref(r.id, "shadowed"), ctx.ref(give.giver, "bans the declared type")],
                    witness=ctx.witness(a.state, {"decision": "can_play", "seat": 0, "actual": xv, "declared": yv},
                                        {"can_play": False, "banned": True, "has_card": True})))
    # ---------------------------------------------------------------- send rules never in force
    in_game = lambda r: cat.owners(r.id) or _reachable_givers(cat, r.id)        # noqa: E731
    senders = {group: [r for r in cat.skills.values() if group in r.closure and in_game(r)] for group in SEND_GROUPS}
    recv = [r for r in cat.skills.values() if r.receive is not None and in_game(r)]
    ctx.plan([{r.id} for group in SEND_GROUPS for r in senders[group]] + [{r.id} for r in recv], limit=SMALL_STATES)
    for group in SEND_GROUPS:
        members = senders[group]
        for r in members:
            q = ctx.query_for({r.id})
            S = q.S
            force = enc_send_in_force(S, group)
            a = ctx.find(q, slot_is(S, force, r.id), minimize=False, core=True)
            if a.status == "unknown":
                out.append(ctx.inconclusive("unreachable", f"{r.name}能否生效", [r.id], a))
            elif not a.sat:
                out.append(Finding("UR003", "unreachable", "warning",
                                   f"{r.label}在任何可达的局面下都不会成为生效的{SEND_GROUP_ZH[group]}规则。",
                                   fix=f"检查{r.label}的条件：它总被别的规则覆盖或从不成立；修改或删除它。",
                                   message_en=(f"{r.name} never becomes the {GROUP_EN[group]} rule in force in any "
                                               f"reachable situation."),
                                   fix_en=(f"check {r.name}'s conditions: it is always overridden by another rule or "
                                           f"never holds; change or delete it."), key=f"UR003|send|{r.id}", rules=[ctx.ref(r.id)],
                                   details={"because": [lab.label for lab in a.core]}))
    # ---------------------------------------------------------------- receive rules that never say anything
    if recv:
        for r in recv:
            q = ctx.query_for({r.id})
            S = q.S
            terms = [And(live, Or(must, cannot)) for live, must, cannot in receive_rule_parts(S, r.id)]
            a = ctx.find(q, Or(terms or [z3.BoolVal(False)]), minimize=False, core=True)
            if a.status == "unknown":
                out.append(ctx.inconclusive("unreachable", f"{r.name}能否生效", [r.id], a))
            elif not a.sat:
                out.append(Finding("UR003", "unreachable", "warning",
                                   f"{r.label}的“必须接收”和“不能接收”在任何可达局面下都不成立，这个技能什么也不做。",
                                   fix=f"检查{r.label}的 receive.must / receive.cannot 条件，或删除这条规则。",
                                   message_en=(f"{r.name}'s 'must receive' and 'cannot receive' hold in no reachable "
                                               f"situation: the skill does nothing."),
                                   fix_en=f"check {r.name}'s receive.must / receive.cannot conditions, or delete the rule.", key=f"UR003|receive|{r.id}", rules=[ctx.ref(r.id)],
                                   details={"because": [lab.label for lab in a.core]}))
    # ---------------------------------------------------------------- active skills never usable
    actives = [r for r in cat.skills.values()
               if r.has("ActiveSkill") and r.windows and (cat.owners(r.id) or _reachable_givers(cat, r.id))]
    ctx.plan([{r.id} for r in actives], limit=SMALL_STATES)
    for r in actives:
        q = ctx.query_for({r.id})
        S = q.S
        usable = []
        for slot, live in holds(S, r.id, "ActiveSkill"):
            for win, actor in r.windows.items():
                cond = getattr(r, win) if win in TW.COND_WINDOWS else None
                c = S.compile(cond, S.ctx(0, slot)) if cond is not None else z3.BoolVal(True)
                usable.append(And(live, S.now == WCODE[win], enc_actor_ok(S, S.q, 0, actor), c))
        if not usable:
            continue
        a = ctx.find(q, Or(usable), minimize=False, core=True)
        if a.status == "unknown":
            out.append(ctx.inconclusive("unreachable", f"{r.name}能否使用", [r.id], a))
        elif not a.sat:
            core = sorted({rid for lab in a.core for rid in lab.rules} - {r.id})
            out.append(Finding("UR003", "unreachable", "warning",
                               f"{r.label}在它的任何使用时机（{'、'.join(TW.WINDOWS[w].zh for w in r.windows)}）"
                               f"都用不了：条件在任何可达的局面下都不成立。", key=f"UR003|active|{r.id}",
                               fix=f"检查{r.label}的使用条件与持有者（例如“未翻开”不适用于公开角色），或修改它的 windows。",
                               message_en=(f"{r.name} cannot be used in any of its windows "
                                           f"({', '.join(TW.WINDOW_EN[w] for w in r.windows)}): its conditions hold in "
                                           f"no reachable situation."),
                               fix_en=(f"check {r.name}'s conditions of use and who holds it (e.g. 'not face up' does "
                                       f"not apply to public roles), or change its windows."),
                               rules=[ctx.ref(r.id)] + [ctx.ref(c) for c in core[:5]],
                               details={"because": [lab.label for lab in a.core]}))
    # ---------------------------------------------------------------- gives sites that never hand out
    # (a grant with another site still appears: UR002 says nothing, yet this site is dead — moved to a window
    # its giver cannot act in, a condition that never holds …); grants held only while a card resolves are
    # never seen held (lifetime resolution): their sites are not asked
    live_sites = [g for gid in sorted(r.id for r in cat.grants) for g in _reachable_givers(cat, gid)
                  if cat.skills[gid].lifetime != "resolution"]
    site_rules = [{g.grant} | (set() if g.giver_is_card else {g.giver}) for g in live_sites]
    ctx.plan(site_rules, limit=SMALL_STATES)
    for give, rules in zip(live_sites, site_rules):
        q = ctx.query_for(rules)
        S = q.S
        code = S.codes.site.get(give.site_id)
        if code is None:
            continue
        if "InvalidSkill" in cat.skills[give.grant].closure:
            terms = [And(S.inv_ev[s], S.inv_site[s] == code) for s in S.inv_seats]
        else:
            terms = [And(sl.present, sl.site == code) for sl in S.slots
                     if not sl.initial_slot and give.grant in sl.candidates]
        if not terms:
            continue
        a = ctx.find(q, Or(terms), minimize=False, core=True)
        src = ctx.name(give.giver)
        if a.status == "unknown":
            out.append(ctx.inconclusive("unreachable", f"{src}能否给出{ctx.name(give.grant)}", sorted(rules), a))
        elif not a.sat:
            core = sorted({rid for lab in a.core for rid in lab.rules} - rules)
            out.append(Finding(
                "UR003", "unreachable", "warning",
                f"{src}在任何可达的局面下都不会从这个给出处给出{ctx.name(give.grant)}（它的时机、条件或给出者从不同时成立）。",
                key=f"UR003|site|{site_key(give)}",
                message_en=(f"{src} never hands out {ctx.name(give.grant)} from this gives site in any reachable "
                            f"situation (its window, condition and giver never hold together)."),
                fix=f"检查这个给出处的 at / when / where / to，以及{src}在那个时机能否行动；或删除它。",
                fix_en=(f"check this gives site's at / when / where / to, and whether {src} can act in that window; "
                        f"or delete it."),
                rules=[_site_ref(ctx, give, "its gives site"), ctx.ref(give.grant)]
                + [ctx.ref(c) for c in core[:4]],
                details={"because": [lab.label for lab in a.core]}))
    # ---------------------------------------------------------------- triggered effects that never happen
    triggered = [r for r in cat.skills.values() if r.fires is not None and r.fires.at and in_game(r)]
    ctx.plan([{r.id} for r in triggered], limit=SMALL_STATES)
    for r in triggered:
        q = ctx.query_for({r.id})
        S = q.S
        # asked in one of the windows it fires in (its decision moment), as the interpreter's fires() is
        goal = And(Or([S.now == WCODE[w] for w in r.fires.at]), enc_fires(S, r.id))
        a = ctx.find(q, goal, minimize=False, core=True)
        if a.status == "unknown":
            out.append(ctx.inconclusive("unreachable", f"{r.name}能否发动", [r.id], a))
        elif not a.sat:
            core = sorted({rid for lab in a.core for rid in lab.rules} - {r.id})
            wins_zh = "、".join(TW.WINDOWS[w].zh for w in r.fires.at)
            wins_en = ", ".join(TW.WINDOW_EN[w] for w in r.fires.at)
            out.append(Finding("UR003", "unreachable", "warning",
                               f"{r.label}在它的发动时机（{wins_zh}）从不发动：fires.when 在任何可达的局面下都不成立。",
                               key=f"UR003|fires|{r.id}",
                               fix=f"检查{r.label}的 fires.when 条件与 fires.at 时机，以及谁给出或持有它；或删除它。",
                               message_en=(f"{r.name} never fires in its windows ({wins_en}): its fires.when holds in "
                                           f"no reachable situation."),
                               fix_en=(f"check {r.name}'s fires.when condition and fires.at windows, and who holds or "
                                       f"hands it out; or delete it."),
                               rules=[ctx.ref(r.id)] + [ctx.ref(c) for c in core[:5]],
                               details={"because": [lab.label for lab in a.core]}))
    # ---------------------------------------------------------------- 'cannot receive' that never bites
    results = [(kind, kname, [x for x in cat.skills.values() if getattr(x, kind) and in_game(x)])
               for kind, kname in (("win", "WinSkill"), ("result", "ChangeGameResultSkill"))]
    ctx.plan([{r.id} for r in recv if not (isinstance(r.receive.cannot, E.Lit) and r.receive.cannot.value is False)]
             + [{r.id} for _, _, rs in results for r in rs], limit=SMALL_STATES)
    for r in recv:
        if isinstance(r.receive.cannot, E.Lit) and r.receive.cannot.value is False:
            continue
        q = ctx.query_for({r.id})
        S = q.S
        bites = [And(live, cannot) for live, _, cannot in receive_rule_parts(S, r.id)]
        if not bites:
            continue
        goal = And(enc_at_decision(S, "receive"), Or(bites), enc_receive(S) == CANNOT)
        a = ctx.find(q, goal, minimize=False, core=True)
        if a.status == "unknown":
            out.append(ctx.inconclusive("unreachable", f"{r.name}的“不能接收”能否生效", [r.id], a))
        elif not a.sat:
            out.append(Finding("UR003", "unreachable", "warning",
                               f"{r.label}的“不能接收”从不起作用：它成立时，持有者总是必须接收（传出者、被锁定或另有规则）。",
                               key=f"UR003|receive-cannot|{r.id}", rules=[ctx.ref(r.id)] +
                               [ctx.ref(g.giver, "gives it") for g in cat.sites(r.id)[:1]],
                               fix=f"检查{r.label}给谁（gives 的 to / when）：只给必须接收的人时，这条规则没有意义。",
                               message_en=(f"{r.name}'s 'cannot receive' never bites: whenever it holds, its holder must "
                                           f"receive anyway (the sender, locked, or another rule)."),
                               fix_en=(f"check whom {r.name} is given to (the gives' to / when): given only to players "
                                       f"who must receive, the rule means nothing."),
                               details={"because": [lab.label for lab in a.core]}))
    # ---------------------------------------------------------------- win / result rules that never act
    for kind, kname, rs in results:
        for r in rs:
            q = ctx.query_for({r.id})
            S = q.S
            holders = {s: [h for h in lst if h[1] == r.id] for s, lst in result_holders(S, kind, {}).items()}
            if not any(holders.values()):
                continue
            D0 = [z3.Bool(f"ur_{kind}_{r.id}_d0_{s}") for s in range(S.n)]
            W0 = [z3.Bool(f"ur_{kind}_{r.id}_w0_{s}") for s in range(S.n)]
            pre = [z3.Implies(D0[s], And(W0[s], S.present[s])) for s in range(S.n)]
            pre += [z3.Implies(W0[s], S.present[s]) for s in range(S.n)]
            S.extra = []
            D1, W1, _ = enc_result_pass(S, kind, 0, holders, D0, W0, f"ur_{r.id}")
            acts = Or([a != b for a, b in zip(D0 + W0, D1 + W1)])
            a = ctx.find(q, And(pre + S.extra + [acts]), minimize=False, core=True)
            if a.status == "unknown":
                out.append(ctx.inconclusive("unreachable", f"{r.name}能否改变胜负", [r.id], a))
            elif not a.sat:
                what = "宣告任何人胜利" if kind == "win" else "改变任何胜负结果"
                out.append(Finding("UR003", "unreachable", "warning",
                                   f"{r.label}在任何可达的局面下都不会{what}。", key=f"UR003|{kind}|{r.id}",
                                   rules=[ctx.ref(r.id)],
                                   fix=f"检查{r.label}的效果条件（when / each / pick）是否可能成立。",
                                   message_en=(f"{r.name} never {'declares anyone a winner' if kind == 'win' else 'changes any result'} "
                                               f"in any reachable situation."),
                                   fix_en=f"check whether {r.name}'s effect conditions (when / each / pick) can hold.",
                                   details={"because": [lab.label for lab in a.core]}))
    return [_with_sites(ctx, f) for f in out]


def _site_ref(ctx, give, role: str) -> RuleRef:
    """A gives site as a rule a finding cites: its giver, located at the site's own table."""
    return RuleRef(give.giver, ctx.name(give.giver), give.loc.file, give.loc.line, role)


def _with_sites(ctx, f: Finding) -> Finding:
    """A grant that never takes effect: its gives sites (where, when and to whom it is handed out — often what
    was edited) are listed right after it, each at its own line."""
    if f.check != "UR003" or not f.rules:
        return f
    r = ctx.cat.skills.get(f.rules[0].id)
    if r is None or not r.is_grant:
        return f
    sites = [_site_ref(ctx, g, "hands it out here (its gives site)") for g in ctx.cat.sites(r.id)]
    f.rules = [f.rules[0]] + sites[:4] + [x for x in f.rules[1:]]
    return f
