"""Receive contradictions (RC).

Whether the player a message stands in front of may accept or decline it is decided by the server's
core rule (the sender and locked players must receive) and by MustReceiveMessage skills handed out at
run time (信鸽联络, 诱敌深入, 咱们工人有知识 …). When a must and a cannot hold at once the server lets
must win (``[rules] must_beats_cannot``) — silently.

* RC001 — a must-receive and a cannot-receive rule both hold in some reachable state.
"""
from __future__ import annotations

import z3

from skillproof.checks import encode as X
from skillproof.checks.findings import Finding
from skillproof.checks.registry import Code, register

RC001 = Code(
    "RC001", "receive-must-and-cannot", "warning",
    "a player must receive the message and cannot receive it at the same time",
    "one rule is silently overridden (the server lets 'must' win); the skill that said 'cannot' does "
    "nothing in exactly the situation its text describes",
    example='''[[grant]]
id = "XinGeLianLuo2"     # 本回合不能接收情报
kinds = ["MustReceiveMessage"]
lifetime = "turn"
receive = { must = "false", cannot = "true" }
# the sender (or a locked player) holding it must receive anyway''',
    also=("note",), also_when="note when the 'must' side is the game's own rule (the sender, or a locked player) "
                             "rather than another skill")

CORE = ("sender", "locked")


def _must_sources(S):
    """[(name, z3 condition)] for every way 'must receive' can hold: the core rule, then each rule."""
    out = [("sender", S.sender == 0), ("locked", S.locked[0])]
    for rid in sorted({r for sl in S.slots for r in S.rules_with(sl, "MustReceiveMessage")}):
        out += [(rid, z3.And(live, must)) for live, must, _ in X.receive_rule_parts(S, rid)]
    return out


def _cannot_terms(S, rid):
    terms = [z3.And(live, cannot) for live, _, cannot in X.receive_rule_parts(S, rid)]
    return z3.Or(terms) if terms else z3.BoolVal(False)


@register("receive", "Receive contradictions", [RC001], order=30)
def run(ctx):
    cat = ctx.cat
    rules = [r for r in cat.skills.values() if r.receive is not None]
    if not rules:
        return []
    out = []
    q = ctx.query(ctx.chars_for({r.id for r in rules}))
    S = q.S
    winner = "必须接收" if cat.rules.must_beats_cannot else "不能接收"
    sources = {}
    for name, cond in _must_sources(S):
        sources.setdefault(name, []).append(cond)
    for cant in rules:
        cannot = _cannot_terms(S, cant.id)
        for name, conds in sorted(sources.items()):
            must = z3.Or(conds)
            a = ctx.find(q, z3.And(cannot, must))
            what = {"sender": "传出者本人", "locked": "被锁定的角色"}.get(name)
            if a.status == "unknown":
                out.append(ctx.inconclusive("receive", f"{cant.name}与{what or cat.skills[name].name}能否同时生效",
                                            [cant.id] + ([name] if name not in CORE else []), a))
                continue
            if not a.sat:
                continue
            st = a.state
            who = cat.characters[st.seats[0].character].name
            if name in CORE:
                msg = (f"{who}持有{cant.label}（不能接收情报），却是{what}、必须接收；"
                       f"服务器按{winner}处理，{cant.label}在这时不起作用。")
                sev = "note"
                refs = [ctx.ref(cant.id, "says cannot receive")]
            else:
                must_rule = cat.skills[name]
                msg = (f"{who}同时受{must_rule.label}（必须接收）和{cant.label}（不能接收）约束；"
                       f"服务器按{winner}处理。")
                sev = "warning"
                refs = [ctx.ref(name, "says must receive"), ctx.ref(cant.id, "says cannot receive")]
            refs += [ctx.ref(g.giver, "gives it") for rid in ([cant.id] + ([name] if name not in CORE else []))
                     for g in cat.sites(rid)[:1] if not g.giver_is_card]
            must_wins = cat.rules.must_beats_cannot
            out.append(Finding(
                "RC001", "receive", sev, msg, fix=("让“必须接收”和“不能接收”的条件互斥，或确认 [rules] must_beats_cannot 选的一方正是设计意图。"), key=f"RC001|{name}|{cant.id}", rules=refs,
                witness=ctx.witness(st, {"decision": "receive", "seat": 0},
                                    {"must": True, "cannot": True, "receive": "must" if must_wins else "cannot"}),
                details={"winner": "must" if must_wins else "cannot"}))
    return out
