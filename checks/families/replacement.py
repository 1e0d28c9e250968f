"""Role replacement (RR).

A skill that replaces its owner's role (SP端木静's 后来人: the server sets ``Player.roleSkillsData`` to the
new role) replaces the whole skill list. Everything the player was handed this turn — a ban, a receive
rule, a declared conversion, a pending follow-up — goes with it, although its text says it lasts the
turn; the new role's "ever face up" restarts too. Found as a trace: the grant handed out, the role
replaced later in the same turn, the grant gone at a later moment of that turn.

* RR001 — a grant meant to last the turn is wiped by a role replacement before the turn ends.
"""
from __future__ import annotations

import z3
from ..terms import And, Or

from skillproof.checks.enc.grants import enc_grant_matters
from skillproof.checks.findings import Finding
from skillproof.model.interp.grants import site_of
from skillproof.checks.registry import Code, register

#: the family's page in Chinese (`skillproof rules replacement`; the docstring is the English)
DOC_ZH = """换角色（RR）。

把持有者换成另一张角色牌的技能（SP端木静的后来人：服务器把 `Player.roleSkillsData` 换成新角色的）会换掉整个技能列表。
玩家本回合得到的一切——禁令、接收规则、宣言的转化、还没结算的后续效果——都随之消失，尽管文字说它持续到回合结束；
新角色“曾经翻开过”也重新算起。检查找的是一段经过：给出技能，同一回合稍后换角色，再往后的某个时刻那个技能已经不在了。

* RR001 — 本应持续到回合结束的给出的技能，在回合结束前被换角色抹掉。
"""

RR001 = Code(
    "RR001", "turn-state-wiped-by-replacement", "warning",
    "a grant meant to last the turn is lost when its holder's role is replaced mid-turn",
    "a ban, receive rule or declared conversion that the rules say holds 'this turn' stops holding for "
    "the rest of the turn, because the replacement swaps the whole skill list — the player escapes it",
    summary_zh="本应持续到回合结束的给出的技能，在持有者回合中途换角色时丢失",
    why_zh="规则说“本回合”有效的禁令、接收规则或宣言的转化，在这回合剩下的时间里不再生效，"
           "因为换角色换掉了整个技能列表——玩家借此摆脱了它",
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
id = "sp_duan_mu_jing"
name = "SP端木静"
hidden = true
female = true
skills = ["HouLaiRen"]
[[character]]
id = "wang_tian_xiang"
name = "王田香"
hidden = false
female = false
skills = ["JinBi"]
[[skill]]
id = "HouLaiRen"
name = "后来人"           # 濒死时换成一张新角色牌
kinds = ["ActiveSkill"]
dying = "dying and not face_up"
windows = { dying = "dying_player" }
replaces_role = true
[[skill]]
id = "JinBi"
name = "禁闭"
kinds = ["MainPhaseSkill"]
[[skill.gives]]
grant = "Ban"
to = "others"
at = "main"
on = "use"
[[grant]]
id = "Ban"
name = "不能出牌"         # 本回合不能出牌
kinds = ["CannotPlayCard"]
lifetime = "turn"
ban = { cards = [], all = true }''')


#: every question holds every role-replacing skill's holder, so its states are wider than the default
#: widening allows: packed up to this many characters and grants (measured at 10x copies, in one run:
#: default (24, 6) 80 states, 5.9 s; (32, 8) 12 states, 2.0 s; (40, 12) 8 states, 1.9 s)
PLAN_LIMIT = (32, 8)


@register("replacement", "Role replacement", [RR001], order=55, lane=1, shared_lane=0, weight=2)   # over one shared state in lane 0: the lanes balanced as measured (benchmarks/lanes_ab.py)
def run(ctx):
    cat = ctx.cat
    replacers = [r for r in cat.initial_skills if r.replaces_role and cat.owners(r.id)]
    if not replacers:
        return []
    out = []
    asked = [g for g in cat.grants if g.lifetime == "turn" and "InvalidSkill" not in g.closure and cat.sites(g.id)]
    ctx.plan([{g.id} | {r.id for r in replacers} for g in asked], lost=True, limit=PLAN_LIMIT)
    for g in asked:
        q = ctx.query_for({g.id} | {r.id for r in replacers}, lost=True)
        S = q.S
        lost = S.lost
        T = S.T - 1
        # … at a later moment of that turn where the grant would have been consulted
        goal = And(lost.present, S.rule_is(lost, g.id), lost.m.t == T, S.repl, S.repl_m.t == T,
                      enc_grant_matters(S, g.id, lost),
                      z3.Not(Or([And(sl.present, S.rule_is(sl, g.id)) for sl in S.slots
                                    if g.id in sl.candidates] or [z3.BoolVal(False)])))
        a = ctx.find(q, goal)
        if a.status == "unknown":
            out.append(ctx.inconclusive("replacement", f"{g.name}能否因换角色而失效", [g.id], a))
            continue
        if not a.sat:
            continue
        st = a.state
        events = st.trace.events
        k = next(i for i, e in enumerate(events) if e.kind == "replace")
        ev = events[k]
        give = next((e for e in reversed(events[:k]) if e.kind == "give" and e.seat == 0
                     and site_of(cat, e.site) is not None and site_of(cat, e.site).grant == g.id), None)
        old = cat.characters[st.trace.setup.seats[0].character].name
        new = cat.characters[ev.character].name
        via = next((cat.skills[r].label for r in cat.characters[st.trace.setup.seats[0].character].skills
                    if cat.skills[r].replaces_role), "换角色")
        site = give.site if give is not None else ""
        giver = cat.giver_name(next(x for x in cat.sites(g.id) if x.site_id == site)) if site else ""
        via_en = next((cat.skills[r].name for r in cat.characters[st.trace.setup.seats[0].character].skills
                       if cat.skills[r].replaces_role), "a role replacement")
        giver_en = cat.name_of(site.split("#")[0]) if site else "a skill"
        msg = (f"{old}本回合受到{giver}给出的{g.label}，随后发动{via}换成{new}，{g.label}随整个技能列表一起被换掉："
               f"本应持续到回合结束的效果在这回合剩下的时间里不再生效。")
        out.append(Finding(
            "RR001", "replacement", "warning", msg, key=f"RR001|{g.id}|{'|'.join(r.id for r in replacers)}",
            message_en=(f"{old} was given {g.name} by {giver_en} this turn, then became {new} through {via_en}: "
                        f"{g.name} went with the whole skill list, and an effect meant to last the turn no longer "
                        f"holds for the rest of it."),
            fix_en=(f"keep the skills gained this turn when the role is replaced (or give {g.name} again), or say in "
                    f"the rules that replacing the role ends it."),
            fix=f"换角色时保留本回合获得的技能（或重新给出{g.label}），或在规则里写明换角色会解除它。",
            rules=[ctx.ref(g.id, "lasts the turn")] + [ctx.ref(r.id, "replaces the role") for r in replacers] +
                  ([ctx.ref(site.split("#")[0], "hands it out")] if site else []),
            witness=ctx.witness(st, {"decision": "holds", "seat": 0, "rule": g.id}, {"holds": False},
                                also=[({"decision": "matters", "seat": 0, "rule": g.id,
                                        "args": give.to_dict().get("args", {}) if give else {}},
                                       {"matters": True})]),
            details={"lost_at": give.to_dict() if give else None}))
    return out
