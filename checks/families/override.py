"""Override order of the SendMessage groups (OV).

Design note: "of skills of the same type, the later one makes the earlier one lose its effect" — of two
skills of one SendMessage group (direction, lock, which card), the one acquired later is in force. The
server takes the last one in the list that is still of its group; an invalidated skill is only an
InvalidSkill, so the rule in force falls back to the one before it — or to the default rule of the card.

* OV001 — in some reachable state one skill of a group hides another the player also holds;
* OV002 — invalidating the skill in force brings an earlier skill of the group back into force.
"""
from __future__ import annotations

import itertools

import z3
from ..terms import And, Or

from ..enc.core import holds
from ..enc.send import enc_send_in_force
from ..enc.windows import enc_at_decision
from skillproof.checks.findings import Finding
from skillproof.checks.registry import Code, register
from skillproof.model.kinds import SEND_GROUP_ZH, SEND_GROUPS

#: the family's page in Chinese (`skillproof rules override`; the docstring is the English)
DOC_ZH = """传出技能组的覆盖顺序（OV）。

设计说明：“相同类型的技能，后来的技能会使先来的技能失效”——同一组传情报技能（传出方向、锁定、传出哪张情报）里，
后获得的那个生效。服务器取列表中最后一个仍属于这一组的技能；被无效的技能只剩一个被无效的壳（`InvalidSkill`），
所以生效的规则会退回它前面的那个——或者退回卡牌的默认规则。

* OV001 — 某个可达局面下，同组的一个技能挡住了玩家同时持有的另一个；
* OV002 — 无效生效中的技能，让同组更早的技能重新生效。
"""

OV001 = Code(
    "OV001", "send-skill-hidden", "note",
    "a SendMessage skill the player holds is hidden by a later skill of the same group",
    "the earlier skill's text no longer describes what the player may do; whether that is intended "
    "depends on which was meant to win",
    summary_zh="玩家持有的传情报技能被同组后获得的技能挡住",
    why_zh="先获得的技能的文字不再说明玩家能怎样传出；是不是本意，取决于原本想让哪一条为准",
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
id = "lao_bie"
name = "老鳖"
hidden = false
female = false
skills = ["LianLuo", "Narrow"]
[[skill]]
id = "LianLuo"
name = "联络"             # 箭头视为任意方向
kinds = ["SendMessageDirectionSkill"]
send = { rule = "dir in {up, left, right}" }
[[skill]]
id = "Narrow"
name = "收窄"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "OnlyLeft"
to = "self"
[[grant]]
id = "OnlyLeft"
name = "只能向左"         # 本回合只能向左传：后获得的同组技能为准
kinds = ["SendMessageDirectionSkill", "OneTurnSkill"]
lifetime = "turn"
send = { rule = "dir == left" }''')

OV002 = Code(
    "OV002", "send-skill-fallback", "note",
    "invalidating the skill in force hands the group back to an earlier skill, not the default rule",
    "designers expect invalidation to remove a skill's effect; here it revives another one",
    summary_zh="无效生效中的技能后，这一组退回更早的技能，而不是卡牌的默认规则",
    why_zh="设计者以为无效会去掉一个技能的效果；这里却让另一个技能重新生效",
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
id = "lao_bie"
name = "老鳖"
hidden = false
female = false
skills = ["GiveAny", "GiveUp", "Invalidate"]
[[skill]]
id = "GiveAny"
name = "放宽"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "AnyDir"
to = "self"
[[skill]]
id = "GiveUp"
name = "收窄"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "OnlyUp"
to = "self"
[[skill]]
id = "Invalidate"
name = "使无效"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Invalid"
to = "all"
[[grant]]
id = "AnyDir"
name = "任意方向"
kinds = ["SendMessageDirectionSkill", "OneTurnSkill"]
lifetime = "turn"
send = { rule = "dir in {up, left, right}" }
[[grant]]
id = "OnlyUp"
name = "只能向上"         # later, and marked initial: an invalidation wraps it
kinds = ["SendMessageDirectionSkill", "OneTurnSkill"]
initial = true
lifetime = "turn"
send = { rule = "dir == up" }
[[grant]]
id = "Invalid"
name = "技能无效"
kinds = ["InvalidSkill"]
lifetime = "turn"
# 只能向上 invalidated: the direction rule goes back to 任意方向, not to the card's own arrow''')


GROUP_EN = {"SendMessageDirectionSkill": "direction", "SendMessageCanLockSkill": "lock",
            "SendMessageCardSkill": "message card"}


@register("override", "Override order of SendMessage groups", [OV001, OV002], order=40, weight=1.5)
def run(ctx):
    cat = ctx.cat
    out = []
    for group in SEND_GROUPS:
        members = [r for r in cat.skills.values() if group in r.closure]
        if len(members) < 2:
            continue
        ctx.plan([{early.id, late.id} for early, late in itertools.permutations(members, 2)])
        for early, late in itertools.permutations(members, 2):
            q = ctx.query_for({early.id, late.id})
            S = q.S
            force = enc_send_in_force(S, group)
            sending = enc_at_decision(S, "send")         # the rule in force when the player sends
            pairs = [(sa, sb) for (sa, _), (sb, _) in itertools.product(holds(S, early.id), holds(S, late.id))
                     if sa.index < sb.index]
            if not pairs:
                continue
            both = Or([And(S.live_rule(sa, early.id, group), S.live_rule(sb, late.id, group), force == sb.index)
                          for sa, sb in pairs])
            a = ctx.find(q, And(sending, both))
            gname = SEND_GROUP_ZH[group]
            if a.status == "unknown":
                out.append(ctx.inconclusive("override", f"{late.name}能否覆盖{early.name}", [early.id, late.id], a))
            elif a.sat:
                st = a.state
                who = cat.characters[st.seats[0].character].name
                out.append(Finding(
                    "OV001", "override", "note",
                    f"{who}同时持有{early.label}和后获得的{late.label}，{gname}规则以{late.label}为准，"
                    f"{early.label}失效。",
                    message_en=(f"{who} holds {early.name} and the later-acquired {late.name}: the {GROUP_EN[group]} rule "
                                f"follows {late.name}, and {early.name} has no effect."),
                    fix_en=(f"if {early.name} should coexist with {late.name}, move one of them to another send group; "
                            f"if the later one overriding is intended, ignore it with a reason."),
                    fix=f"若{early.label}应与{late.label}并存，把其中一条改为别的传情报规则组；若后者覆盖正是设计意图，写明理由忽略它。", key=f"OV001|{group}|{early.id}|{late.id}",
                    rules=[ctx.ref(early.id, "hidden"), ctx.ref(late.id, "in force")],
                    witness=ctx.witness(st, {"decision": "send", "seat": 0, "group": group}, {"in_force": late.id})))
            if not late.initial:
                continue
            back = Or([And(S.live_rule(sa, early.id, group), sb.present, S.rule_is(sb, late.id), S.inv[0],
                                 force == sa.index) for sa, sb in pairs])
            a = ctx.find(q, And(sending, back))
            if a.status == "unknown":
                out.append(ctx.inconclusive("override", f"{late.name}被无效后是否回到{early.name}",
                                            [early.id, late.id], a))
            elif a.sat:
                st = a.state
                who = cat.characters[st.seats[0].character].name
                out.append(Finding(
                    "OV002", "override", "note",
                    f"{who}的{late.label}被无效后，{gname}规则回到先前的{early.label}，而不是卡牌的默认规则。",
                    message_en=(f"once {who}'s {late.name} is invalidated, the {GROUP_EN[group]} rule goes back to the "
                                f"earlier {early.name}, not to the card's default rule."),
                    fix_en=(f"if invalidating {late.name} should restore the default rule, make {early.name}'s send.rule "
                            f"not apply then; otherwise ignore it with a reason."),
                    fix=f"若{late.label}被无效时应回到默认规则，让{early.label}的 send.rule 在那时不生效；否则写明理由忽略它。", key=f"OV002|{group}|{early.id}|{late.id}",
                    rules=[ctx.ref(late.id, "invalidated"), ctx.ref(early.id, "back in force")],
                    witness=ctx.witness(st, {"decision": "send", "seat": 0, "group": group}, {"in_force": early.id})))
    return out
