"""Kind contradictions (KD).

The loader rejects what cannot be read (an InvalidSkill combined with other kinds, a parameter table
without its kind, a MainPhaseSkill with a 争夺阶段 condition). These checks report rules that can be read
but whose kinds or parameters contradict the lattice of the design note:

* KD001 — a generated kind (OneTurnSkill, CannotPlayCard, MustReceiveMessage, InvalidSkill) marked initial;
* KD002 — a conversion that can never change a card (its targets are only its own source);
* KD003 — a draw rule that can make the draw count negative;
* KD004 — a SendMessage rule that, while in force, allows no way to send at all;
* KD005 — a BeforeDieSkill that is neither triggered nor active (nothing ever fires it);
* KD006 — a MustReceiveMessage rule whose own must and cannot hold at once.
"""
from __future__ import annotations

import itertools

import z3

from skillproof.checks import encode as X
from skillproof.checks.findings import Finding
from skillproof.checks.graph import param_domains
from skillproof.checks.registry import Code, register
from skillproof.model import kinds as K
from skillproof.model.kinds import SEND_GROUP_ZH, SEND_GROUPS

KD001 = Code("KD001", "generated-kind-initial", "error",
             "a rule of a generated kind (never initial by the design note) is marked initial",
             "initial rules can be invalidated and are restored at turn end; a one-turn rule marked initial "
             "can survive the turn end wrapped in an InvalidSkill",
             example='''[[grant]]
id = "Ban"
kinds = ["CannotPlayCard"]
initial = true            # CannotPlayCard is never initial''')
KD002 = Code("KD002", "conversion-to-itself", "warning",
             "a conversion whose only possible target is its own source never converts anything",
             "rule 2 of the design note: a card declared as itself is played without conversion",
             example='''convert = { from = "Jie_Huo", to = ["Jie_Huo"], must = false }''')
KD003 = Code("KD003", "draw-count-negative", "error",
             "the draw count can become negative",
             "a negative count is not a number of cards; the server would draw nothing or fail",
             example='''draw = "count - 5"''')
KD004 = Code("KD004", "send-impossible", "error",
             "while this SendMessage rule is in force no direction / lock / card choice is allowed",
             "the player cannot send a message at all and the turn cannot proceed",
             example='''send = { rule = "dir == up and dir == left" }''')
KD005 = Code("KD005", "before-die-never-fires", "warning",
             "a BeforeDieSkill that is neither a TriggeredSkill nor an ActiveSkill",
             "BeforeDieSkill only says the skill may fire while its owner is dead; without a trigger or a "
             "use nothing ever fires it",
             example='''kinds = ["BeforeDieSkill"]''')
KD006 = Code("KD006", "receive-self-contradiction", "warning",
             "a MustReceiveMessage rule says must and cannot receive at once",
             "one half of the rule is always overridden by the server's must-wins rule",
             example='''receive = { must = "true", cannot = "red in message" }''')


def _conv_targets(cat, r):
    """All (source, target) pairs a conversion can have (parameters over their site domains)."""
    conv = r.convert
    dom = param_domains(cat, r.id) if r.is_grant else {}
    if conv.source.kind == "param" and all(t.kind == "param" for t in conv.targets) and r.is_grant:
        # joint enumeration: a 'where' may forbid source == target (变则通: A != B)
        from skillproof.model.interpreter import Env, evaluate
        pairs = set()
        for give in cat.sites(r.id):
            names = [conv.source.value] + [t.value for t in conv.targets]
            free = [p for p in dict.fromkeys(names) if p not in give.args]
            for combo in itertools.product(*[sorted(dom.get(p, cat.cards)) for p in free]):
                args = {**give.args, **dict(zip(free, combo))}
                if give.where is not None and not evaluate(give.where, Env(cat, None, {"self": 0}, args, {})):
                    continue
                for t in conv.targets:
                    pairs.add((args[conv.source.value], args[t.value]))
        return pairs
    srcs = set(cat.cards) if conv.source.kind == "any" else (
        {conv.source.value} if conv.source.kind == "card" else set(dom.get(conv.source.value, cat.cards)))
    tgts = set()
    for t in conv.targets:
        tgts |= {t.value} if t.kind == "card" else set(dom.get(t.value, cat.cards))
    return {(a, b) for a in srcs for b in tgts}


@register("kinds", "Kind contradictions", [KD001, KD002, KD003, KD004, KD005, KD006], order=5)
def run(ctx):
    cat = ctx.cat
    out = []
    for r in cat.skills.values():
        gen = K.generated_kinds(r.kinds)
        if r.initial and gen:
            out.append(Finding("KD001", "kinds", "error",
                               f"{r.label}属于生成出的技能（{'、'.join(gen)}），却标为初始技能（initial = true）。",
                               fix=f"把{r.label}的 initial 改为 false，或从 kinds 中去掉生成出的类型。", key=f"KD001|{r.id}", rules=[ctx.ref(r.id)], details={"kinds": gen}))
        if r.has("BeforeDieSkill") and not (r.has("TriggeredSkill") or r.has("ActiveSkill")):
            out.append(Finding("KD005", "kinds", "warning",
                               f"{r.label}是 BeforeDieSkill，但既不是触发技能也不是主动技能，没有任何时机会发动它。",
                               fix=f"给{r.label}的 kinds 加上 TriggeredSkill 或 ActiveSkill，让它有发动的时机。", key=f"KD005|{r.id}", rules=[ctx.ref(r.id)]))
        if r.convert is not None and not r.convert.must:
            pairs = _conv_targets(cat, r)
            if pairs and all(a == b for a, b in pairs):
                out.append(Finding("KD002", "kinds", "warning",
                                   f"{r.label}只能把牌当作它本身使用：按设计说明第 2 条不发生转化，这个技能永远不起作用。",
                                   fix=f"让{r.label}的 convert.to 包含与 convert.from 不同的牌，或删除这条转化。", key=f"KD002|{r.id}", rules=[ctx.ref(r.id)]))
    # ---------------------------------------------------------------- solver-backed checks
    draws = [r for r in cat.skills.values() if r.draw is not None]
    if draws:
        q = ctx.query(ctx.chars_for({r.id for r in draws}))
        S = q.S
        for r in draws:
            holds = [live for _, live in X.holds(S, r.id, "ChangeDrawCardCountSkill")]
            if not holds:
                continue
            a = ctx.find(q, z3.And(z3.Or(holds), X.enc_draw_count(S) < 0))
            if a.status == "unknown":
                out.append(ctx.inconclusive("kinds", f"{r.name}能否使摸牌数为负", [r.id], a))
            elif a.sat:
                from skillproof.model import interpreter as I
                d = I.draw_count(cat, a.state, 0)
                who = cat.characters[a.state.seats[0].character].name
                out.append(Finding("KD003", "kinds", "error", f"{who}持有{r.label}时摸牌数可以是 {d}（负数）。",
                                   fix=f"让{r.label}的 draw 表达式不小于 0（例如用 max(…, 0) 或加条件）。", key=f"KD003|{r.id}", rules=[ctx.ref(r.id)],
                                   witness=ctx.witness(a.state, {"decision": "draw", "seat": 0}, {"draw": d})))
    for group in SEND_GROUPS:
        members = [r for r in cat.skills.values() if group in r.closure and r.send is not None]
        if not members:
            continue
        q = ctx.query(ctx.chars_for({r.id for r in members}))
        S = q.S
        force = X.enc_send_in_force(S, group)
        for r in members:
            slots = [sl for sl, _ in X.holds(S, r.id)]
            if not slots:
                continue
            blocked = []
            for d in range(len(S.codes.dirs)):
                for lc in range(3):
                    blocked.append(z3.Not(X.enc_send_allowed(S, group, z3.IntVal(d), z3.IntVal(lc))))
            in_force = X.slot_is(S, force, r.id)
            a = ctx.find(q, z3.And(in_force, z3.And(blocked)))
            if a.status == "unknown":
                out.append(ctx.inconclusive("kinds", f"{r.name}生效时能否传出情报", [r.id], a))
            elif a.sat:
                who = cat.characters[a.state.seats[0].character].name
                out.append(Finding("KD004", "kinds", "error",
                                   f"{who}的{r.label}生效时，任何方向、任何锁定方式都不允许传出情报（{SEND_GROUP_ZH[group]}）。",
                                   fix=f"放宽{r.label}的 send.rule，让至少一个方向或锁定方式允许传出。", key=f"KD004|{group}|{r.id}", rules=[ctx.ref(r.id)],
                                   witness=ctx.witness(a.state, {"decision": "send", "seat": 0, "group": group,
                                                                 "dir": a.state.message_dir, "lock_count": 0},
                                                       {"in_force": r.id, "allowed": False})))
    recv = [r for r in cat.skills.values() if r.receive is not None]
    if recv:
        q = ctx.query(ctx.chars_for({r.id for r in recv}))
        S = q.S
        for r in recv:
            terms = [z3.And(live, must, cannot) for live, must, cannot in X.receive_rule_parts(S, r.id)]
            if not terms:
                continue
            a = ctx.find(q, z3.Or(terms))
            if a.status == "unknown":
                out.append(ctx.inconclusive("kinds", f"{r.name}是否自相矛盾", [r.id], a))
            elif a.sat:
                out.append(Finding("KD006", "kinds", "warning",
                                   f"{r.label}自身的“必须接收”和“不能接收”会同时成立。",
                                   fix=f"让{r.label}的 receive.must 与 receive.cannot 的条件互斥。", key=f"KD006|{r.id}", rules=[ctx.ref(r.id)],
                                   witness=ctx.witness(a.state, {"decision": "receive", "seat": 0},
                                                       {"must": True, "cannot": True})))
    return out
