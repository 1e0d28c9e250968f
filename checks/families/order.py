"""Order dependence (OD).

Two places in the server fold rules in an order that the game composition decides:

* the draw count is a fold over the player's skill list (ChangeDrawCardCountSkill) — two draw rules
  that do not commute give a count that depends on which was acquired first;
* WinSkill and ChangeGameResultSkill passes go round the table starting at whose turn — two result
  rules on different seats that do not commute give a result that depends on the seating. Whose turn
  it is is a fact of the game, not an order: the check keeps it fixed (a third player's turn) and
  exchanges the two holders' seats, so a rule that acts only in its owner's turn (比翼双飞) is not
  reported for coming first in its own turn.

For every pair the solver either proves independence (the compositions agree in every reachable state)
or shows two orders that disagree. Two WinSkills whose order matters because each one's firing blocks the other
meet only at a check where both conditions became true since the process node before (the server folds them at
every node, and a firing ends the game there): where no game reaches the first table found, the pair is asked
again for one a game reaches — nobody declared before the fold, the turn player's answer to his message's receive
putting a second card into an area (``_REACH``).

* OD001 — draw rules whose order of acquisition changes the draw count;
* OD002 — win / game-result rules whose seat order changes who wins.
"""
from __future__ import annotations

import itertools

import z3
from ..terms import And, Eq, Or

from skillproof.checks.enc.core import holds, memo
from skillproof.checks.enc.result import enc_result_pass, result_holders
from skillproof.checks.enc.state import _as_int
from skillproof.checks.enc.windows import enc_at_decision
from skillproof.checks.findings import Finding
from skillproof.checks.registry import Code, register

#: the family's page in Chinese (`skillproof rules order`; the docstring is the English)
DOC_ZH = """顺序依赖（OD）。

服务器有两处按牌局组成决定的顺序依次结算规则：

* 摸牌数按玩家的技能列表依次计算（摸牌数量技能 `ChangeDrawCardCountSkill`）——两条不可交换的摸牌规则，
  摸牌数取决于先获得哪一条；
* 宣胜技能（`WinSkill`）和影响游戏结果的技能（`ChangeGameResultSkill`）从当前回合的玩家起绕桌结算——两名玩家
  各持一条不可交换的结算规则，结果取决于座位。当前是谁的回合是牌局的事实，不是顺序：检查固定它（第三名玩家的回合），
  只交换两名持有者的座位，所以只在自己回合起作用的规则（比翼双飞）不会因为在自己回合先结算而被报告。

对每一对规则，求解器要么证明两者互不影响（所有可达局面下两种顺序结果相同），要么给出结果不同的两种顺序。
两条宣胜技能若因彼此“未宣胜”的条件而顺序相关，只能在自上一个流程节点以来两人的条件同时成立的胜负判定中相遇
（服务器在每个节点都结算宣胜技能，一旦生效游戏即在该节点结束）：若第一个局面没有哪局游戏能到达，就再问一个能到达的
局面——结算前无人宣胜，当前回合玩家在自己传出的情报被接收后用技能再把一张牌放进情报区。

* OD001 — 获得顺序会改变摸牌数的摸牌规则；
* OD002 — 座位顺序会改变谁获胜的宣胜或影响游戏结果的规则。
"""

OD001 = Code(
    "OD001", "draw-order-dependent", "warning",
    "the draw count depends on the order two draw rules were acquired in",
    "the same two skills give different numbers of cards depending on who handed out what first",
    summary_zh="摸牌数取决于两条摸牌规则的获得顺序",
    why_zh="同样两个技能，谁先给出了什么，摸到的牌数就不一样",
    example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "g1"
name = "加一者"
hidden = false
female = false
skills = ["GivePlus"]
[[character]]
id = "g2"
name = "翻倍者"
hidden = false
female = true
skills = ["GiveDouble"]
[[skill]]
id = "GivePlus"
name = "给加一"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "PlusOne"
to = "all"
[[skill]]
id = "GiveDouble"
name = "给翻倍"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Double"
to = "all"
[[grant]]
id = "PlusOne"
name = "多摸一张"
kinds = ["ChangeDrawCardCountSkill", "OneTurnSkill"]
lifetime = "turn"
draw = "count + 1"
[[grant]]
id = "Double"
name = "摸牌翻倍"
kinds = ["ChangeDrawCardCountSkill", "OneTurnSkill"]
lifetime = "turn"
draw = "count * 2"        # (2+1)*2 = 6, but 2*2+1 = 5''')

OD002 = Code(
    "OD002", "result-order-dependent", "warning",
    "who wins depends on which of two result skills is applied first (the seating round the table)",
    "the same game, ending in the same player's turn, has different winners depending only on where the "
    "two holders sit",
    summary_zh="谁获胜取决于两个结算技能谁先结算（绕桌的座位顺序）",
    why_zh="同一局游戏、在同一名玩家的回合结束，只因两名持有者坐的位置不同，胜者就不同",
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
id = "w1"
name = "胜者一"
hidden = false
female = false
skills = ["JoinWinner"]
[[character]]
id = "w2"
name = "胜者二"
hidden = false
female = true
skills = ["Spoil"]
[[skill]]
id = "JoinWinner"
name = "同胜"             # 我胜利时，无身份者一同胜利
kinds = ["ChangeGameResultSkill"]
[[skill.result]]
when = "in_winners"
winners_add = "q: q.identity == none"
[[skill]]
id = "Spoil"
name = "搅局"             # 我没胜利时，移除红方胜者，我胜利
kinds = ["ChangeGameResultSkill"]
[[skill.result]]
when = "not in_winners"
winners_remove = "q: q != self and q.identity == red"
winners_add = "q: q == self"''')


#: how many tables the family asks for a pair of WinSkills when the realiser finds no game reaching the check of
#: the one before (each further table excludes the last one's turn player and pass: see _REACH)
MAX_ASKS = 4

#: _REACH — whether a game reaches the check a pair's question is asked at. The server folds the WinSkills at every
#: process node (ProcessFsm.resolve: its listening skills dealt, then checkWin → Game.checkWin, whether or not
#: anybody declared), and a WinSkill whose condition holds there adds a declared winner, which ends the game at that
#: node. So two WinSkills whose order matters because each one's firing blocks the other (白月光 / 意中人: "未宣胜")
#: meet only at a check where both conditions became true since the node before — two message areas changed (or a
#: face, or a skill turned valid) between two process nodes. A receive puts one card into one area; what else the
#: receive's node deals before its check is the listening skills that answer it (ReceivePhaseIdle): one of them
#: that puts a card into an area (realise.puts_on_receive — SP小九's 赤子之心 puts a card of the message's colour
#: into her own area after a message she sent is received, skill/ChiZiZhiXin.kt) makes the second change. Seats
#: holding only the pair's own skills and 钱敏's cannot: 暗藏杀机 puts a pure black card, 壮志满怀 and 先发制人 take
#: cards out, and 先发制人's flip of a face-down role also makes that role's skills invalid for the turn
#: (skill/XianFaZhiRen.kt: InvalidSkill.deal, then playerSetRoleFaceUp) — so the table the solver picks first
#: (any seat 2, any declared winners before the fold) may be one no game reaches. The family asks the realiser
#: (checks/realise.py, a win check's receive answered by such a skill) and, while it finds no game, asks the
#: solver for another table, up to MAX_ASKS; it prefers a check where nobody declared before the fold (the
#: server folds the WinSkills there too: no third change is needed) whose turn player holds such a skill.


def _receive_putter_characters(cat) -> list:
    """The characters holding a TriggeredSkill that answers, as its sender, a receive by putting a card into a
    message area (realise.puts_on_receive) — what the turn player of a check after his own message's receive may
    hold — in catalogue order."""
    from skillproof.checks.realise import puts_on_receive
    return [c for c, ch in cat.characters.items()
            if any(r is not None and puts_on_receive(r, own=True) for r in (cat.skills.get(x) for x in ch.skills))]


def _draw_pairs(cat):
    rules = sorted((r for r in cat.skills.values() if r.draw is not None), key=lambda r: r.id)
    return list(itertools.combinations(rules, 2))


def _run_draw(ctx, out):
    cat = ctx.cat
    for r1, r2 in _draw_pairs(cat):
        # the order of two rules in one list varies only if both can be acquired in either order
        if not (r1.is_grant and r2.is_grant):
            continue
        q = ctx.query_for({r1.id, r2.id})
        S = q.S
        c = z3.Int(f"od_count_{r1.id}_{r2.id}")
        terms = []
        for (sa, la), (sb, lb) in itertools.product(holds(S, r1.id, "ChangeDrawCardCountSkill"),
                                                    holds(S, r2.id, "ChangeDrawCardCountSkill")):
            if sa.index == sb.index:
                continue
            f = lambda r, sl, v: _as_int(S.compile(r.draw, S.ctx(0, sl, count=v)))
            one_two = f(r2, sb, f(r1, sa, c))
            two_one = f(r1, sa, f(r2, sb, c))
            terms.append(And(la, lb, one_two != two_one))
        if not terms:
            continue
        a = ctx.find(q, And(enc_at_decision(S, "draw"), c >= 0, c <= 20, Or(terms)))
        if a.status == "unknown":
            out.append(ctx.inconclusive("order", f"{r1.name}与{r2.name}的摸牌顺序是否影响结果", [r1.id, r2.id], a))
            continue
        if not a.sat:
            continue
        st = a.state
        insts = st.seats[0].skills
        i1 = next((i for i, x in enumerate(insts) if x.rule == r1.id), None)
        i2 = next((i for i, x in enumerate(insts) if x.rule == r2.id), None)
        if i1 is None or i2 is None:
            continue            # the decoded state does not hold both: no order to swap
        swapped = st.copy()
        sk = swapped.seats[0].skills
        sk[i1], sk[i2] = sk[i2], sk[i1]
        from skillproof.model.interp.draw import draw_count
        d1, d2 = draw_count(cat, st, 0), draw_count(cat, swapped, 0)
        if d1 == d2:
            continue            # the disagreement needs an intermediate count no real fold produces
        msg = (f"{r1.label}和{r2.label}的获得顺序会改变摸牌数：一种顺序摸{d1}张，另一种摸{d2}张。")
        out.append(Finding(
            "OD001", "order", "warning", msg,
            message_en=(f"the order in which {r1.name} and {r2.name} were acquired changes the draw count: one order "
                        f"draws {d1}, the other {d2}."),
            fix_en=(f"make the draw changes of {r1.name} and {r2.name} commute (e.g. both only add or subtract a "
                    f"constant), or fix their order in the draw expression."),
            fix=f"让{r1.label}和{r2.label}的摸牌数改动可交换（例如都只加减常数），或在 draw 表达式里固定先后。", key=f"OD001|{r1.id}|{r2.id}",
            rules=[ctx.ref(r1.id), ctx.ref(r2.id)],
            witness=ctx.witness(st, {"decision": "draw", "seat": 0}, {"draw": d1}),
            details={"orders": [{"state": st.to_dict(), "draw": d1}, {"state": swapped.to_dict(), "draw": d2}]}))


def _run_result(ctx, out, kind):
    cat = ctx.cat
    kname = "WinSkill" if kind == "win" else "ChangeGameResultSkill"
    rules = sorted((r for r in cat.skills.values() if getattr(r, kind)), key=lambda r: r.id)
    holders_all = {c.id for c in cat.characters.values() if any(kname in cat.skills[s].closure for s in c.skills)}
    pairs = []
    for ra, rb in itertools.combinations(rules, 2):
        for ca, cb in itertools.product(cat.owners(ra.id), cat.owners(rb.id)):
            if ca == cb:
                continue                    # one seat: the list order is fixed, no seating question
            pairs.append((ra, rb, ca, cb))
            break
    others = [c for c in cat.characters if c not in holders_all] if ctx.shared else \
        _other_players(ctx, rules, holders_all)
    seat1: dict = {}
    for _, _, ca, cb in pairs:
        seat1.setdefault(ca, []).append(cb)
    for ra, rb, ca, cb in pairs:
        _pair(ctx, out, kind, kname, ra, rb, ca, cb, others, seat1[ca])


def _other_players(ctx, rules, holders_all) -> list:
    """Who may sit at seats 2.. (no result skill of the kind): the rest of the table matters to a result
    rule only through what its conditions read of a player — attributes (hidden, female) and the state of
    the seat, alike for every such character — or by naming a character or a skill. So one plain character
    of each kind (``Context.plain_players``) and every non-holder the rules name, or that holds a skill they
    name, stand for all of them (the same argument as a question's cone)."""
    cat = ctx.cat
    ids = {r.id for r in rules}
    named = ctx.symmetry.named_characters(ids)
    named_skills = ctx.symmetry.named_skills(ids)
    named |= {c for sk in named_skills for c in cat.owners(sk)}
    keep = [c for c in cat.characters if c not in holders_all and c in named]
    plain = ctx.plain_players(ids | named_skills, skip=set(keep) | holders_all)
    order = {c: i for i, c in enumerate(cat.characters)}
    return sorted(set(keep) | set(plain), key=order.__getitem__)


@memo
def _plain_others(S, others: tuple) -> list:
    """Seats 2.. hold characters with no result skill: made once per symbolic state (many pairs share one)."""
    codes = [S.codes.char[o] for o in others]
    return [z3.Implies(S.present[s], Or([Eq(S.char[s], c) for c in codes])) for s in range(2, S.n)]


def _pair(ctx, out, kind, kname, ra, rb, ca, cb, others, partners):
    """Seats 0 and 1 hold the two rules; the game ends in seat 2's turn; the pass goes 2, 0, 1 with the
    table as it is and 2, 1, 0 with the two holders' seats exchanged."""
    cat = ctx.cat
    n = min(cat.rules.seats, max(3, ctx.options.max_seats))
    if n < 3:
        return                     # two seats: the turn player always comes first, no seating question
    # one state per first holder, shared by its pairs (measured cheaper at 10x than a state per pair's
    # cone): seat 1 one of its partners, seats 2.. the plain players standing for everyone else
    chars_other = None if ctx.shared else list(dict.fromkeys(partners + others))
    q = ctx.query([ca], G=0, n=n, grants=[], chars_other=chars_other)
    S = q.S
    C = S.codes
    fix = [S.char[1] == C.char[cb], S.present[1], S.present[2]]
    fix += _plain_others(S, tuple(others))
    D0 = [z3.Bool(f"od_{kind}_d0_{s}") for s in range(S.n)]
    W0 = [z3.Bool(f"od_{kind}_w0_{s}") for s in range(S.n)]
    pre = [z3.Implies(D0[s], And(W0[s], S.present[s])) for s in range(S.n)]
    pre += [z3.Implies(W0[s], S.present[s]) for s in range(S.n)] + [Or(D0)]
    holders = result_holders(S, kind, {1: cb})
    S.extra = []
    as_is = list(range(S.n))
    swapped = [1, 0] + list(range(2, S.n))
    D1, W1, p1 = enc_result_pass(S, kind, 2, holders, D0, W0, "a", as_is)
    D2, W2, p2 = enc_result_pass(S, kind, 2, holders, D0, W0, "b", swapped)
    same_pick = []
    for key in p1.keys() & p2.keys():
        (v1, c1), (v2, c2) = p1[key], p2[key]
        same_pick.append(z3.Implies(And([a == b for a, b in zip(c1, c2)]), v1 == v2))
    differ = Or([a != b for a, b in zip(D1 + W1, D2 + W2)])
    goal = And(fix + pre + S.extra + same_pick + [differ])
    a = ctx.find(q, goal, prefer=[z3.Not(d) for d in D0[3:]] + [z3.Not(w) for w in W0[3:]])
    if a.status == "unknown":
        out.append(ctx.inconclusive("order", f"{ra.name}与{rb.name}的结算顺序是否影响胜负", [ra.id, rb.id], a))
        return
    if not a.sat:
        return
    first = _answer(ctx, S, kind, a, D0, W0, (D1, W1, p1), (D2, W2, p2), as_is, swapped)
    finding = _finding(ctx, kind, ra, rb, *first)
    out.append(finding)
    if kind == "win" and "unrealised" in first[-1]:
        # no game reaches this table's check: other tables are asked at the end of the lane (no solver term made
        # here, so the lane's later families keep their witnesses)
        ctx.later("order", lambda: _reach(ctx, q, kind, ra, rb, S, fix + S.extra + same_pick + [differ], a.model,
                                          (D0, W0), (D1, W1, p1), (D2, W2, p2), as_is, swapped))


def _reach(ctx, q, kind, ra, rb, S, goal, m, inputs, one, two, as_is, swapped):
    """The pair's question asked again where its first table has no game of the server (_REACH), at the end of
    the lane (Context.later): a table whose check a game reaches — nobody need have declared before the fold —
    up to MAX_ASKS tables, each realised; the finding of the first that is a game, else None (the first stays)."""
    cat = ctx.cat
    C = S.codes
    D0, W0 = inputs
    pre = [z3.Implies(D0[s], And(W0[s], S.present[s])) for s in range(S.n)]
    pre += [z3.Implies(W0[s], S.present[s]) for s in range(S.n)]
    at = S.ctx(0, None)
    three = [Or(S.seat_attr(s, "red_messages", at) >= 3, S.seat_attr(s, "blue_messages", at) >= 3)
             for s in range(S.n)]
    # nobody declared before the fold (the server folds the WinSkills there too: no third change is needed); a
    # turn player whose skill answers his message's receive by putting a card into his own area; the areas such a
    # check sees changed — the receiver's and the turn player's — and the fewest other players with three
    # messages of a colour (each got his third since the node before, or earlier without ending the game)
    prefer = [z3.Not(d) for d in D0] + [z3.Not(w) for w in W0]
    putters = [C.char[c] for c in _receive_putter_characters(cat) if c in C.char]
    if putters:
        prefer.append(Or([Eq(S.char[2], c) for c in putters]))
    prefer += [three[2]] + [z3.Not(t) for t in three]
    seen = [z3.Not(And([v == m.eval(v, model_completion=True) for v in [S.char[2]] + D0 + W0 + one[0] + one[1] +
                        two[0] + two[1]]))]     # the first table
    for _ in range(MAX_ASKS):
        a = ctx.find(q, And(goal + pre + seen), prefer=prefer)
        if not a.sat:
            return None
        got = _answer(ctx, S, kind, a, D0, W0, one, two, as_is, swapped)
        if "unrealised" not in got[-1]:
            return _finding(ctx, kind, ra, rb, *got)
        m = a.model
        seen.append(z3.Not(And([v == m.eval(v, model_completion=True) for v in [S.char[2]] + three + D0 + W0])))
    return None


def _finding(ctx, kind, ra, rb, st, one, two, w) -> Finding:
    """OD002 of a table and its two (question, expect) pairs, with the witness."""
    cat = ctx.cat
    (q1, e1), (q2, e2) = one, two
    names = [cat.characters[x.character].name for x in st.seats]
    fmt = lambda xs: "、".join(names[i] for i in xs) or "无人"  # noqa: E731
    fmt_en = lambda xs: ", ".join(names[i] for i in xs) or "nobody"  # noqa: E731
    if e1["winners"] != e2["winners"]:
        what, k, what_en = "胜者", "winners", "winners"
    else:
        what, k, what_en = "宣胜者", "declared", "declared winners"
    msg = (f"{ra.label}（{names[0]}）和{rb.label}（{names[1]}）的结算先后会改变结果：在{names[2]}的回合结算时，"
           f"{names[0]}先于{names[1]}结算则{what}为{fmt(e1[k])}，两人座位互换则{what}为{fmt(e2[k])}。")
    return Finding(
        "OD002", "order", "warning", msg,
        message_en=(f"whether {ra.name} ({names[0]}) or {rb.name} ({names[1]}) settles first changes the result: "
                    f"settling in {names[2]}'s turn, with {names[0]} before {names[1]} the {what_en} are "
                    f"{fmt_en(e1[k])}; with their seats swapped, {fmt_en(e2[k])}."),
        fix_en=(f"make {ra.name} and {rb.name} settle independently of their order (e.g. only in their owner's "
                f"turn), or say which one wins."),
        fix=f"让{ra.label}和{rb.label}的结算与先后无关（例如只在自己的回合结算），或写明以谁为准。", key=f"OD002|{kind}|{ra.id}|{rb.id}",
        rules=[ctx.ref(ra.id), ctx.ref(rb.id)],
        witness=w,
        details={"kind": kind})


def _answer(ctx, S, kind, a, D0, W0, one, two, as_is, swapped) -> tuple:
    """(the table, its two (question, expect) pairs, the witness) of a model of the pair's question."""
    m = a.model
    b = lambda e: z3.is_true(m.eval(e, model_completion=True))  # noqa: E731
    st = a.state
    present = [s for s in range(S.n) if b(S.present[s])]
    renum = {s: i for i, s in enumerate(present)}
    dec0 = [renum[s] for s in present if b(D0[s])]
    win0 = [renum[s] for s in present if b(W0[s])]

    def picks_of(pk):
        out_ = {}
        for (s, rid, ei), (v, _) in pk.items():
            if s not in renum:
                continue        # an absent seat picks nothing
            idx = next((i for i, x in enumerate(st.seats[renum[s]].skills) if x.rule == rid), None)
            if idx is None:
                continue        # a pick of a skill the seat does not hold is never read
            out_[f"{renum[s]}/{idx}/{ei}"] = renum.get(m.eval(v, model_completion=True).as_long(), 0)
        return out_

    res = []
    for seating, (D, W, pk) in ((as_is, one), (swapped, two)):
        res.append(({"decision": "result", "kind": kind, "turn": renum[2], "declared": dec0, "winners": win0,
                     "picks": picks_of(pk), "seating": [renum[s] for s in seating if s in renum]},
                    {"declared": [renum[s] for s in present if b(D[s])],
                     "winners": [renum[s] for s in present if b(W[s])]}))
    (q1, e1), (q2, e2) = res
    return st, (q1, e1), (q2, e2), ctx.witness(st, q1, e1, also=[(q2, e2)])


@register("order", "Order dependence", [OD001, OD002], order=70, shared_lane=1, weight=7, defers=True)   # lanes balanced as measured
def run(ctx):
    out = []
    _run_draw(ctx, out)
    _run_result(ctx, out, "win")
    _run_result(ctx, out, "result")
    return out
