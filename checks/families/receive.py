"""Receive contradictions (RC).

Whether the player a message stands in front of may accept or decline it is decided by the server's
core rule (the sender and locked players must receive) and by MustReceiveMessage skills handed out at
run time (信鸽联络, 诱敌深入, 咱们工人有知识 …). When a must and a cannot hold at once the server lets
must win (``[rules] must_beats_cannot``) — silently.

* RC001 — a must-receive and a cannot-receive rule both hold in some reachable state;
* RC002 — under a receive rule, a player can never choose to receive, whatever the message is.
"""
from __future__ import annotations

import z3
from ..terms import And, Or

from ..enc.core import holds
from ..enc.receive import receive_rule_parts
from ..enc.windows import enc_at_decision
from skillproof.checks.findings import Finding
from skillproof.checks.registry import Code, register

#: the family's page in Chinese (`skillproof rules receive`; the docstring is the English)
DOC_ZH = """接收矛盾（RC）。

情报停在一名玩家面前时，他能接收还是拒收，由服务器的核心规则（传出者和被锁定的玩家必须接收）和运行时给出的
必须/不能接收情报技能（信鸽联络、诱敌深入、咱们工人有知识……）决定。“必须接收”和“不能接收”同时成立时，
服务器让“必须接收”胜出（`[rules] must_beats_cannot`）——不声不响。

* RC001 — 某个可达局面下，一条“必须接收”和一条“不能接收”同时成立；
* RC002 — 一条接收规则之下，某位玩家不论情报是什么都不能选择接收。
"""

RC001 = Code(
    "RC001", "receive-must-and-cannot", "warning",
    "a player must receive the message and cannot receive it at the same time",
    "one rule is silently overridden (the server lets 'must' win); the skill that said 'cannot' does "
    "nothing in exactly the situation its text describes",
    summary_zh="一名玩家同时必须接收又不能接收情报",
    why_zh="其中一条规则被悄悄推翻（服务器让“必须接收”胜出）；说“不能接收”的技能，"
           "恰恰在它的文字描述的情形下不起作用",
    also_when_zh="“必须接收”一方是游戏本身的规则（传出者或被锁定的玩家）而不是另一个技能时，为提示",
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
skills = ["GiveRefuse"]
[[skill]]
id = "GiveRefuse"
name = "给拒收"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "XinGeLianLuo2"
to = "target"
[[grant]]
id = "XinGeLianLuo2"
name = "本回合不能接收情报"
kinds = ["MustReceiveMessage"]
lifetime = "turn"
receive = { must = "false", cannot = "true" }
# the sender (or a locked player) holding it must receive anyway''',
    also=("note",), also_when="note when the 'must' side is the game's own rule (the sender, or a locked player) "
                             "rather than another skill")

RC002 = Code(
    "RC002", "receive-never-possible", "warning",
    "while a receive rule holds, some player cannot receive any message at all",
    "a rule meant to sort messages by colour ('receive yours, decline the rest') shuts a whole class of "
    "players out (e.g. one whose identity colour no message card has): for them it is a blanket ban",
    summary_zh="一条接收规则生效时，某些玩家不论情报是什么颜色都不能接收",
    why_zh="本想按颜色分流情报的规则（“收自己的，拒其余的”）把一整类玩家挡在外面（例如身份颜色不出现在任何情报上的玩"
           "家）：对他们来说这成了一律拒收",
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
id = "sorter"
name = "分流者"
hidden = false
female = false
skills = ["GiveSort"]
[[skill]]
id = "GiveSort"
name = "分流"
kinds = ["ActiveSkill"]
windows = { send_start = "turn" }
[[skill.gives]]
grant = "Sort"
to = "all"
at = "send_start"
[[grant]]
id = "Sort"
name = "手牌多者拒收"
kinds = ["MustReceiveMessage"]
lifetime = "turn"
receive = { must = "false", cannot = "hand_count > 3" }   # whatever the message''')

#: the engine's own 'must receive' ([rules] must_receive): who, as a z3 condition on seat 0
CORE = ("sender", "turn", "locked")
CORE_ZH = {"sender": "传出者本人", "turn": "回合角色", "locked": "被锁定的角色"}
CORE_EN = {"sender": "the sender", "turn": "the turn player", "locked": "locked"}


def _core(S):
    """[(name, condition)] of the engine rule's sources of 'must receive' — only those [rules] must_receive
    names (twin of interpreter.receive_parts / encode.enc_receive_parts)."""
    conds = {"sender": S.sender == 0, "turn": S.turn == 0, "locked": S.locked[0]}
    return [(k, conds[k]) for k in CORE if k in S.cat.rules.must_receive]

#: the message cards there are: one or two colours (a card is never red and blue at once)
MESSAGES = (("red",), ("blue",), ("black",), ("black", "red"), ("black", "blue"))


def _must_sources(S):
    """[(name, z3 condition)] for every way 'must receive' can hold: the core rule, then each rule."""
    out = _core(S)
    for rid in sorted({r for sl in S.slots for r in S.rules_with(sl, "MustReceiveMessage")}):
        out += [(rid, And(live, must)) for live, must, _ in receive_rule_parts(S, rid)]
    return out


def _cannot_terms(S, rid):
    terms = [And(live, cannot) for live, _, cannot in receive_rule_parts(S, rid)]
    return Or(terms) if terms else z3.BoolVal(False)


IDENT_EN = {"red": "red", "blue": "blue", "black": "mystery", "none": "no identity"}


@register("receive", "Receive contradictions", [RC001, RC002], order=30, lane=1, weight=11)
def run(ctx):
    cat = ctx.cat
    rules = [r for r in cat.skills.values() if r.receive is not None]
    if not rules:
        return []
    out = []
    winner = "必须接收" if cat.rules.must_beats_cannot else "不能接收"
    winner_en = "must receive" if cat.rules.must_beats_cannot else "cannot receive"
    names = [k for k in CORE if k in cat.rules.must_receive] + sorted(r.id for r in rules)
    ctx.plan([{cant.id} | ({name} if name not in CORE else set()) for cant in rules for name in names])
    for cant in rules:
        # each source of 'must' in the cone of the two rules: the sender, a locked player, another rule
        for name in names:
            q = ctx.query_for({cant.id} | ({name} if name not in CORE else set()))
            S = q.S
            conds = [cond for nm, cond in _must_sources(S) if nm == name]
            if not conds:
                continue
            at_choice = enc_at_decision(S, "receive")   # the player in front of the message chooses
            cannot = And(at_choice, _cannot_terms(S, cant.id))
            must = Or(conds)
            a = ctx.find(q, And(cannot, must))
            what = CORE_ZH.get(name)
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
                what_en = CORE_EN.get(name)
                msg_en = (f"{who} holds {cant.name} (cannot receive the message), yet is {what_en} and must receive; "
                          f"the server goes by '{winner_en}', and {cant.name} has no effect here.")
                sev = "note"
                refs = [ctx.ref(cant.id, "says cannot receive")]
            elif name == cant.id:               # one rule saying both (KD006 reports the rule itself)
                msg = (f"{cant.label}对{who}同时规定“必须接收”和“不能接收”；服务器按{winner}处理。")
                msg_en = (f"{cant.name} says both 'must receive' and 'cannot receive' for {who}; the server goes by "
                          f"'{winner_en}'.")
                sev = "warning"
                refs = [ctx.ref(cant.id, "says must and cannot receive")]
            else:
                must_rule = cat.skills[name]
                msg = (f"{who}同时受{must_rule.label}（必须接收）和{cant.label}（不能接收）约束；"
                       f"服务器按{winner}处理。")
                msg_en = (f"{who} is bound by both {must_rule.name} (must receive) and {cant.name} (cannot receive); "
                          f"the server goes by '{winner_en}'.")
                sev = "warning"
                refs = [ctx.ref(name, "says must receive"), ctx.ref(cant.id, "says cannot receive")]
            refs += [ctx.ref(g.giver, "gives it") for rid in dict.fromkeys([cant.id] + ([name] if name not in CORE else []))
                     for g in cat.sites(rid)[:1] if not g.giver_is_card]
            must_wins = cat.rules.must_beats_cannot
            out.append(Finding(
                "RC001", "receive", sev, msg, message_en=msg_en,
                fix_en=("make the 'must receive' and 'cannot receive' conditions exclusive, or confirm that the side "
                        "[rules] must_beats_cannot picks is the design."),
                fix=("让“必须接收”和“不能接收”的条件互斥，或确认 [rules] must_beats_cannot 选的一方正是设计意图。"), key=f"RC001|{name}|{cant.id}", rules=refs,
                witness=ctx.witness(st, {"decision": "receive", "seat": 0},
                                    {"must": True, "cannot": True, "receive": "must" if must_wins else "cannot"}),
                details={"winner": "must" if must_wins else "cannot"}))
    for r in rules:
        _never_receive(ctx, out, r)
    return out


def _never_receive(ctx, out, r):
    """RC002: the player in front of the message, holding ``r``, cannot receive whatever its colours."""
    cat = ctx.cat
    q = ctx.query_for({r.id})
    S = q.S
    C = S.codes
    every, some = [], []
    for slot, live in holds(S, r.id, "MustReceiveMessage"):
        per_msg = []
        for colours in MESSAGES:
            msg = {C.colour[c]: z3.BoolVal(c in colours) for c in C.colours}
            c = S.ctx(0, slot, message=msg)
            per_msg.append(And(S.compile(r.receive.cannot, c), z3.Not(S.compile(r.receive.must, c))))
        every.append(And(live, And(per_msg)))
        some.append(And(live, z3.Not(And(per_msg))))
    if not every:
        return
    # a rule that bans everyone from receiving is doing what it says (信鸽联络: 不能选择接收); one that sorts
    # by the message lets someone receive somewhere — only then is a class shut out a surprise
    sorts = ctx.find(q, And(enc_at_decision(S, "receive"), Or(some)), minimize=False)
    if not sorts.sat:
        return
    # the player is free to choose otherwise: neither the sender nor locked; and alive — a dead player the
    # message reaches is not asked, it moves on (server phase/SendPhaseIdle.kt resolve0)
    goal = And([enc_at_decision(S, "receive"), S.alive[0]] + [z3.Not(c) for _, c in _core(S)] + [Or(every)])
    a = ctx.find(q, goal)
    if a.status == "unknown":
        out.append(ctx.inconclusive("receive", f"{r.name}是否让某些角色永远不能接收情报", [r.id], a))
        return
    if not a.sat:
        return
    st = a.state
    who = cat.characters[st.seats[0].character].name
    ident = {"red": "红方", "blue": "蓝方", "black": "神秘人", "none": "无身份"}[st.seats[0].identity]
    q0 = {"decision": "receive", "seat": 0}
    also = [({**q0, "message": list(m)}, {"receive": "cannot"}) for m in MESSAGES]
    out.append(Finding(
        "RC002", "receive", "warning",
        f"{r.label}生效时，{who}（{ident}）不论情报是什么颜色都不能接收：这条按颜色分流的规则对这样的角色成了一律拒收。",
        key=f"RC002|{r.id}",
        message_en=(f"while {r.name} is in force, {who} ({IDENT_EN[st.seats[0].identity]}) cannot receive a message of "
                    f"any colour: this rule that sorts by colour shuts such players out altogether."),
        fix_en=(f"give {r.name}'s cannot condition an exception (e.g. players with identity == none are not "
                f"bound), or confirm such players should always refuse."),
        fix=f"给{r.label}的 cannot 条件加上例外（例如 identity == none 的角色不受限），或确认这类角色就该一律拒收。",
        rules=[ctx.ref(r.id, "never lets them receive")] +
        [ctx.ref(g.giver, "gives it") for g in cat.sites(r.id)[:1] if not g.giver_is_card],
        witness=ctx.witness(st, q0, {"receive": "cannot"}, also=also),
        details={"identity": st.seats[0].identity}))
