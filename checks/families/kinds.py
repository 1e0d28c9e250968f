"""Kind contradictions (KD).

The loader rejects what cannot be read (an InvalidSkill combined with other kinds, a parameter table
without its kind, a MainPhaseSkill with a fight-phase condition). These checks report rules that can be read
but whose kinds or parameters contradict the lattice of the design note:

* KD001 — a generated kind (OneTurnSkill, CannotPlayCard, MustReceiveMessage, InvalidSkill) marked initial;
* KD002 — a conversion that can never change a card (its targets are only its own source);
* KD003 — a draw rule that can make the draw count negative;
* KD004 — a SendMessage rule that, while in force, allows no way to send at all;
* KD005 — a BeforeDieSkill that is neither triggered nor active (nothing ever fires it);
* KD006 — a MustReceiveMessage rule whose own must and cannot hold at once;
* KD007 — a card type with no window in which it can be used;
* KD008 — an ActiveSkill with no window in which it can be used;
* KD009 — a character's own skill marked non-initial (KD001 covers handed-out ones marked initial);
* KD010 — a gives site hands out a ban that bans nothing.
"""
from __future__ import annotations

import itertools

import z3
from ..terms import And, Or

from skillproof.model import turn as T
from skillproof.checks.enc.core import holds as slots_holding, slot_is
from skillproof.checks.enc.draw import enc_draw_count
from skillproof.checks.enc.receive import receive_rule_parts
from skillproof.checks.enc.send import enc_send_allowed, enc_send_in_force
from skillproof.checks.enc.windows import enc_at_decision
from skillproof.checks.findings import Finding
from skillproof.checks.graph import param_domains
from skillproof.checks.registry import Code, register
from skillproof.model import kinds as K
from skillproof.model.kinds import SEND_GROUP_ZH, SEND_GROUPS

#: the family's page in Chinese (`skillproof rules kinds`; the docstring is the English)
DOC_ZH = """技能种类矛盾（KD）。

读不懂的写法由加载器直接拒绝（被无效 `InvalidSkill` 和别的种类写在一起、参数表缺少它所属的种类、
出牌阶段技能带争夺阶段的条件）。这里的检查报告读得懂、但种类或参数与设计说明的种类体系相矛盾的规则：

* KD001 — 生成出的技能（本回合技能、不能出牌、必须/不能接收情报、被无效）或运行时给出的技能被标为初始技能；
* KD002 — 永远不改变牌的转化（目标只有它自己的来源）；
* KD003 — 可能让摸牌数为负的摸牌规则；
* KD004 — 生效时不允许任何传出方式的传情报规则；
* KD005 — 既不是触发技能也不是主动技能的死亡前技能（没有任何时机会发动它）；
* KD006 — 自己的“必须接收”和“不能接收”会同时成立的接收规则；
* KD007 — 没有任何可用时机的卡牌；
* KD008 — 没有任何可用时机的主动技能；
* KD009 — 角色自己的技能被标为非初始（运行时给出的技能被标为初始由 KD001 报告）；
* KD010 — 给出点给出的禁令一张牌也不禁止。
"""

KD001 = Code("KD001", "generated-kind-initial", "error",
             "a rule of a generated kind (never initial by the design note) is marked initial",
             "initial rules can be invalidated and are restored at turn end; a one-turn rule marked initial "
             "can survive the turn end wrapped in an InvalidSkill",
             summary_zh="生成出的技能（本回合技能、不能出牌、必须/不能接收情报、被无效这几种，"
                        "设计说明里它们从不是初始技能），或者运行时才给出的技能，被标为初始技能（`initial = true`）",
             why_zh="初始技能会被无效，并在回合结束时恢复；标为初始的本回合技能被无效时套上被无效的壳，"
                    "能躲过回合结束时的移除，留到下一回合",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "giver"
name = "给予者"
hidden = false
female = false
skills = ["Give"]
[[skill]]
id = "Give"
name = "禁甲"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "Ban"
to = "all"
[[grant]]
id = "Ban"
name = "不能出甲"
kinds = ["CannotPlayCard"]
initial = true            # a CannotPlayCard is handed out, never initial
lifetime = "turn"
ban = { cards = ["A"], all = false }''')
KD002 = Code("KD002", "conversion-to-itself", "warning",
             "a conversion whose only possible target is its own source never converts anything",
             "rule 2 of the design note: a card declared as itself is played without conversion",
             summary_zh="一条转化什么也不转：可选转化只能把牌当作它本身，或者必须转化的参数能让一张牌必须当作它本身",
             why_zh="设计说明卡牌转化第 2 条：想当作的牌本来就是这张牌时，不发生转化，直接打出。"
                    "只能当作自己的可选转化永远不起作用；必须转化还会因此否决这张牌的其他用法",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "odd"
name = "怪人"
hidden = false
female = false
skills = ["SelfConv"]
[[skill]]
id = "SelfConv"
name = "自变"
kinds = ["ConvertCardSkill"]
convert = { from = "A", to = ["A"], must = false }   # 甲 as 甲: converts nothing''')
KD003 = Code("KD003", "draw-count-negative", "error",
             "the draw count can become negative",
             "a negative count is not a number of cards; the server would draw nothing or fail",
             summary_zh="摸牌数可能变成负数",
             why_zh="负数不是牌的张数：服务器要么一张也不摸，要么出错",
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
id = "odd"
name = "怪人"
hidden = false
female = false
skills = ["Minus"]
[[skill]]
id = "Minus"
name = "少摸"
kinds = ["ChangeDrawCardCountSkill"]
draw = "count - 5"     # 2 cards drawn, less 5''')
KD004 = Code("KD004", "send-impossible", "error",
             "while this SendMessage rule is in force no direction / lock / card choice is allowed",
             "the player cannot send a message at all and the turn cannot proceed",
             summary_zh="这条传情报规则（传出方向、锁定或传出哪张情报）生效时，任何方向、"
                        "任何锁定方式都不允许传出情报",
             why_zh="玩家根本传不出情报，这个回合进行不下去",
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
id = "odd"
name = "怪人"
hidden = false
female = false
skills = ["NoSend"]
[[skill]]
id = "NoSend"
name = "不能传"
kinds = ["SendMessageDirectionSkill"]
send = { rule = "dir == up and dir == left" }   # no direction is both''')
KD005 = Code("KD005", "before-die-never-fires", "warning",
             "a BeforeDieSkill that is neither a TriggeredSkill nor an ActiveSkill",
             "BeforeDieSkill only says the skill may fire while its owner is dead; without a trigger or a "
             "use nothing ever fires it",
             summary_zh="死亡前技能（`BeforeDieSkill`）既不是触发技能（`TriggeredSkill`）"
                        "也不是主动技能（`ActiveSkill`）",
             why_zh="死亡前技能只是说持有者死后也能发动；既没有触发时机又不能主动使用，就没有任何时机会发动它",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "odd"
name = "怪人"
hidden = false
female = false
skills = ["Ghost"]
[[skill]]
id = "Ghost"
name = "亡魂"
kinds = ["BeforeDieSkill"]     # neither triggered nor active: nothing ever fires it''')
KD006 = Code("KD006", "receive-self-contradiction", "warning",
             "a MustReceiveMessage rule says must and cannot receive at once",
             "one half of the rule is always overridden by the server's must-wins rule",
             summary_zh="一条必须/不能接收情报的规则，自己的“必须接收”和“不能接收”会同时成立",
             why_zh="两者同时成立时，服务器按“必须接收优先”推翻其中一半：这条规则有一半白写了",
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
id = "odd"
name = "怪人"
hidden = false
female = false
skills = ["Both"]
[[skill]]
id = "Both"
name = "又收又拒"
kinds = ["MustReceiveMessage"]
receive = { must = "true", cannot = "red in message" }   # a red message: must and cannot''')


KD007 = Code("KD007", "card-never-usable", "error", "a card type with no window in which it can be used",
             "a card without `windows` can never be played by anyone: the deck holds a dead card, or the "
             "windows line was lost in an edit",
             summary_zh="某种卡牌没有任何可以使用的时机",
             why_zh="没有写 `windows` 的卡牌谁也打不出：牌堆里多了一张死牌，或者编辑时丢了 `windows` 这一行",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[card]]
id = "Wu_Dao"
name = "误导"          # no phases: nobody can ever play it
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []''')
KD008 = Code("KD008", "active-skill-no-window", "error",
             "an ActiveSkill with no window in which it can be used",
             "an active skill is used only in the idle points it names (出牌阶段, 争夺阶段, 濒死求澄清 …); one that "
             "names none, or whose conditions are all plainly false, can never be used",
             summary_zh="主动技能没有任何可以使用的时机",
             why_zh="主动技能只能在它写明的时机使用（出牌阶段、争夺阶段、濒死求澄清……）；一个时机也没写，"
                    "或者条件全都明显不成立的，永远用不了",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "bian_yun_jiang"
name = "边云疆"
hidden = false
female = false
skills = ["YouDiShenRu"]
[[skill]]
id = "YouDiShenRu"
name = "诱敌深入"      # used at 传递阶段开始时; without windows it never is
kinds = ["ActiveSkill"]
fight = "false"
dying = "false"''')


KD009 = Code("KD009", "own-skill-not-initial", "warning",
             "a character's own skill (a [[skill]]) marked initial = false",
             "the design note: isInitialSkill marks the skills held from the start, and only those can be "
             "invalidated; a character's own skill marked otherwise escapes 禁闭 and 调虎离山",
             summary_zh="角色自己的技能（`[[skill]]`）被标为非初始技能（`initial = false`）",
             why_zh="设计说明：`isInitialSkill` 表示开局就拥有的技能，只有这种技能会被无效；"
                    "标错的角色技能不会被禁闭、调虎离山无效",
             example='''[[card]]
id = "Jie_Huo"
name = "截获"
phases = ["fight"]
[[card]]
id = "Wu_Dao"
name = "误导"
phases = ["fight"]
[[character]]
id = "sp_li_ning_yu"
name = "SP李宁玉"
hidden = false
female = true
skills = ["YingBian"]
[[skill]]
id = "YingBian"
name = "应变"
kinds = ["ConvertCardSkill"]
initial = false       # SP李宁玉 starts with it: it must be initial
convert = { from = "Jie_Huo", to = ["Wu_Dao"], must = false }''')
KD010 = Code("KD010", "ban-bans-nothing", "warning",
             "a gives site hands out a ban (CannotPlayCard) that bans no card at all",
             "the player is told 'you cannot play cards' and can play every one; usually the card list or "
             "the all-cards flag was lost",
             summary_zh="给出点给出的禁令（不能出牌）一张牌也不禁止",
             why_zh="玩家被告知“你不能出牌”，却每张牌都能出；通常是丢了被禁的牌（`cards`）或“禁止所有牌”"
                    "（`all_cards`）",
             example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "zhang_yi_ting"
name = "张一挺"
hidden = false
female = false
skills = ["QiangLing"]
[[skill]]
id = "QiangLing"
name = "强令"
kinds = ["TriggeredSkill"]
[[skill.gives]]
grant = "CannotPlayCard"
to = "all"
args = { cards = [], all_cards = false }   # bans nothing
[[grant]]
id = "CannotPlayCard"
name = "不能出牌"
kinds = ["CannotPlayCard"]
lifetime = "turn"
params = { cards = "set<card>", all_cards = "bool" }
ban = { cards = "cards", all = "all_cards" }''')


def _conv_targets(cat, r):
    """All (source, target) pairs a conversion can have (parameters over their site domains)."""
    conv = r.convert
    dom = param_domains(cat, r.id) if r.is_grant else {}
    if conv.source.kind == "param" and all(t.kind == "param" for t in conv.targets) and r.is_grant:
        # joint enumeration: a 'where' may forbid source == target (变则通: A != B)
        from skillproof.model.interp.core import Env, evaluate
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


def _empty_ban(ctx, out, give):
    """KD010: every ban this site can hand out bans no card."""
    from skillproof.checks.findings import site_key
    from skillproof.checks.graph import site_ban_cards
    cat = ctx.cat
    grant = cat.skills.get(give.grant)
    if grant is None or grant.ban is None or site_ban_cards(cat, give, include_all=True):
        return
    out.append(Finding("KD010", "kinds", "warning",
                       f"{cat.giver_name(give)}给出的{grant.label}什么牌也不禁止（cards 为空，all 为假）。",
                       fix="给这个 gives 写上被禁的牌（args.cards）或设 all_cards = true。",
                       message_en=(f"the {grant.name} that {cat.name_of(give.giver)} hands out bans no card at all "
                                   f"(cards is empty, all is false)."),
                       fix_en="write the banned cards in this gives (args.cards) or set all_cards = true.",
                       key=f"KD010|{site_key(give)}", rules=[ctx.ref(give.giver, "hands it out"), ctx.ref(grant.id)]))


GROUP_EN = {"SendMessageDirectionSkill": "direction", "SendMessageCanLockSkill": "lock",
            "SendMessageCardSkill": "message card"}


@register("kinds", "Kind contradictions", [KD001, KD002, KD003, KD004, KD005, KD006, KD007, KD008,
                                                KD009, KD010], order=5, shared_lane=1, weight=3)
def run(ctx):
    cat = ctx.cat
    out = []
    for c in cat.cards.values():
        if c.windows and len(T.dead_windows(c.windows)) == len(c.windows):
            out.append(_no_actor(ctx, "KD007", c.id, c.name, f"【{c.name}】", c.windows, "card"))
        elif not c.windows:
            out.append(Finding("KD007", "kinds", "error", f"【{c.name}】没有任何可以使用的时机（windows 为空），谁也打不出这张牌。",
                               key=f"KD007|{c.id}", rules=[ctx.ref(c.id)],
                               message_en=f"{c.name} has no window in which it can be used (windows is empty): nobody can play it.",
                               fix_en=(f"write windows for {c.name}: the windows the rule book lets it be used in, each "
                                       f"with who may use it there — e.g. windows = {{ main = \"turn\" }} for a card of "
                                       f"the player's own main phase, {{ fight = \"anyone\" }} for one of 争夺阶段, "
                                       f"{{ send = \"in_front\" }} for one used when the message reaches you."),
                               fix=(f"给【{c.name}】写上 windows：规则书允许它使用的时机，以及在那里谁可以使用——例如自己出牌阶段的牌写 "
                                    f"windows = {{ main = \"turn\" }}，争夺阶段的牌写 {{ fight = \"anyone\" }}，"
                                    f"情报传到面前时使用的牌写 {{ send = \"in_front\" }}。")))
    for r in cat.skills.values():
        if r.has("ActiveSkill") and r.windows and len(T.dead_windows(r.windows)) == len(r.windows):
            out.append(_no_actor(ctx, "KD008", r.id, r.name, r.label, r.windows, "skill"))
        elif r.has("ActiveSkill") and r.windows and len(_false_windows(r)) == len(r.windows):
            out.append(_never_holds(ctx, r))
        elif r.has("ActiveSkill") and not r.windows:
            out.append(Finding("KD008", "kinds", "error",
                               f"{r.label}是主动技能，却没有任何可以使用的时机（windows 为空，争夺/濒死条件都恒为假）。",
                               key=f"KD008|{r.id}", rules=[ctx.ref(r.id)],
                               message_en=(f"{r.name} is an active skill with no window in which it can be used (windows "
                                           f"is empty, the fight / dying conditions are always false)."),
                               fix_en=(f"write windows for {r.name} (e.g. windows = {{ send_start = \"turn\" }}), or give "
                                       f"it a fight / dying condition that can hold."),
                               fix=f"给{r.label}写上 windows（例如 windows = {{ send_start = \"turn\" }}），或给出成立的 fight / dying 条件。"))
    for r in cat.skills.values():
        gen = K.generated_kinds(r.kinds)
        if r.initial and gen:
            out.append(Finding("KD001", "kinds", "error",
                               f"{r.label}属于生成出的技能（{'、'.join(gen)}），却标为初始技能（initial = true）。",
                               message_en=(f"{r.name} is of a generated kind ({', '.join(gen)}), yet marked initial "
                                           f"(initial = true)."),
                               fix_en=f"set {r.name}'s initial to false, or drop the generated kinds from its kinds.",
                               fix=f"把{r.label}的 initial 改为 false，或从 kinds 中去掉生成出的类型。", key=f"KD001|{r.id}", rules=[ctx.ref(r.id)], details={"kinds": gen}))
        elif r.initial and r.is_grant:
            out.append(Finding("KD001", "kinds", "error",
                               f"{r.label}是运行时给出的技能，却标为初始技能（initial = true）：它会像角色自己的技能一样被无效。",
                               fix=f"把{r.label}的 initial 改为 false（只有开局就拥有的技能是初始技能）。",
                               message_en=(f"{r.name} is handed out at run time, yet marked initial (initial = true): it "
                                           f"would be invalidated like the role's own skills."),
                               fix_en=f"set {r.name}'s initial to false (only skills held from the start are initial).",
                               key=f"KD001|{r.id}", rules=[ctx.ref(r.id)], details={"kinds": []}))
        if not r.initial and not r.is_grant and cat.owners(r.id):
            out.append(Finding("KD009", "kinds", "warning",
                               f"{r.label}是角色开局就拥有的技能，却标为非初始技能（initial = false）：禁闭、调虎离山无法使它无效。",
                               fix=f"把{r.label}的 initial 改为 true，或说明它为何不能被无效。",
                               message_en=(f"{r.name} is held by a character from the start, yet marked not initial "
                                           f"(initial = false): 禁闭 and 调虎离山 cannot invalidate it."),
                               fix_en=f"set {r.name}'s initial to true, or say why it cannot be invalidated.",
                               key=f"KD009|{r.id}", rules=[ctx.ref(r.id)]))
        for give in r.gives:
            _empty_ban(ctx, out, give)
        if r.has("BeforeDieSkill") and not (r.has("TriggeredSkill") or r.has("ActiveSkill")):
            out.append(Finding("KD005", "kinds", "warning",
                               f"{r.label}是 BeforeDieSkill，但既不是触发技能也不是主动技能，没有任何时机会发动它。",
                               fix=f"给{r.label}的 kinds 加上 TriggeredSkill 或 ActiveSkill，让它有发动的时机。",
                               message_en=(f"{r.name} is a BeforeDieSkill but neither triggered nor active: nothing ever "
                                           f"fires it."),
                               fix_en=f"add TriggeredSkill or ActiveSkill to {r.name}'s kinds, so that something fires it.", key=f"KD005|{r.id}", rules=[ctx.ref(r.id)]))
        if r.convert is not None and r.convert.must:
            same = sorted({a for a, b in _conv_targets(cat, r) if a == b})
            if same:
                out.append(Finding("KD002", "kinds", "warning",
                                   f"{r.label}是必须转化，参数却可以让{ctx.card(same[0])}必须当作它本身使用：这不是转化，"
                                   f"却会否决这张牌的其他用法。",
                                   fix=f"在给出{r.label}的地方用 where 排除来源与目标相同（例如 A != B）。",
                                   message_en=(f"{r.name} is a must-conversion whose parameters can make {ctx.card(same[0])} "
                                               f"be played as itself: that converts nothing, yet vetoes the card's other uses."),
                                   fix_en=f"where {r.name} is handed out, exclude source equal to target with where (e.g. A != B).",
                                   key=f"KD002|{r.id}", rules=[ctx.ref(r.id)] + [ctx.ref(g.giver) for g in cat.sites(r.id)[:1]]))
        if r.convert is not None and not r.convert.must:
            pairs = _conv_targets(cat, r)
            if pairs and all(a == b for a, b in pairs):
                out.append(Finding("KD002", "kinds", "warning",
                                   f"{r.label}只能把牌当作它本身使用：按设计说明第 2 条不发生转化，这个技能永远不起作用。",
                                   fix=f"让{r.label}的 convert.to 包含与 convert.from 不同的牌，或删除这条转化。",
                                   message_en=(f"{r.name} can only play a card as itself: by note 2 of the design that is "
                                               f"no conversion, so the skill never does anything."),
                                   fix_en=f"let {r.name}'s convert.to hold a card other than convert.from, or delete the conversion.", key=f"KD002|{r.id}", rules=[ctx.ref(r.id)]))
    for c in cat.cards.values():
        for give in c.gives:
            _empty_ban(ctx, out, give)
    # ---------------------------------------------------------------- solver-backed checks
    draws = [r for r in cat.skills.values() if r.draw is not None]
    sends = [(group, r) for group in SEND_GROUPS for r in cat.skills.values() if group in r.closure and r.send is not None]
    recv = [r for r in cat.skills.values() if r.receive is not None]
    ctx.plan([{r.id} for r in draws] + [{r.id} for _, r in sends] + [{r.id} for r in recv])   # states shared ahead
    if draws:
        for r in draws:
            q = ctx.query_for({r.id})
            S = q.S
            holds = [live for _, live in slots_holding(S, r.id, "ChangeDrawCardCountSkill")]
            if not holds:
                continue
            a = ctx.find(q, And(enc_at_decision(S, "draw"), Or(holds), enc_draw_count(S) < 0))
            if a.status == "unknown":
                out.append(ctx.inconclusive("kinds", f"{r.name}能否使摸牌数为负", [r.id], a))
            elif a.sat:
                from skillproof.model.interp.draw import draw_count
                d = draw_count(cat, a.state, 0)
                who = cat.characters[a.state.seats[0].character].name
                out.append(Finding("KD003", "kinds", "error", f"{who}持有{r.label}时摸牌数可以是 {d}（负数）。",
                                   fix=f"让{r.label}的 draw 表达式不小于 0（例如用 `max(…, 0)` 或加条件）。",
                                   message_en=f"while {who} holds {r.name} the draw count can be {d} (negative).",
                                   fix_en=f"keep {r.name}'s draw expression at 0 or above (e.g. `max(…, 0)`, or a condition).", key=f"KD003|{r.id}", rules=[ctx.ref(r.id)],
                                   witness=ctx.witness(a.state, {"decision": "draw", "seat": 0}, {"draw": d})))
    for group, r in sends:
        q = ctx.query_for({r.id})
        S = q.S
        force = enc_send_in_force(S, group)
        slots = [sl for sl, _ in slots_holding(S, r.id)]
        if not slots:
            continue
        blocked = []
        for d in range(len(S.codes.dirs)):
            for lc in range(3):
                blocked.append(z3.Not(enc_send_allowed(S, group, z3.IntVal(d), z3.IntVal(lc))))
        in_force = slot_is(S, force, r.id)
        a = ctx.find(q, And(enc_at_decision(S, "send"), in_force, And(blocked)))
        if a.status == "unknown":
            out.append(ctx.inconclusive("kinds", f"{r.name}生效时能否传出情报", [r.id], a))
        elif a.sat:
            who = cat.characters[a.state.seats[0].character].name
            out.append(Finding("KD004", "kinds", "error",
                               f"{who}的{r.label}生效时，任何方向、任何锁定方式都不允许传出情报（{SEND_GROUP_ZH[group]}）。",
                               fix=f"放宽{r.label}的 send.rule，让至少一个方向或锁定方式允许传出。",
                               message_en=(f"while {who}'s {r.name} is in force, no direction and no way of locking lets "
                                           f"the message be sent ({GROUP_EN[group]} rule)."),
                               fix_en=f"relax {r.name}'s send.rule so that at least one direction or lock is allowed.", key=f"KD004|{group}|{r.id}", rules=[ctx.ref(r.id)],
                               witness=ctx.witness(a.state, {"decision": "send", "seat": 0, "group": group,
                                                             "dir": a.state.message_dir, "lock_count": 0},
                                                   {"in_force": r.id, "allowed": False})))
    if recv:
        for r in recv:
            q = ctx.query_for({r.id})
            S = q.S
            terms = [And(live, must, cannot) for live, must, cannot in receive_rule_parts(S, r.id)]
            if not terms:
                continue
            a = ctx.find(q, And(enc_at_decision(S, "receive"), Or(terms)))
            if a.status == "unknown":
                out.append(ctx.inconclusive("kinds", f"{r.name}是否自相矛盾", [r.id], a))
            elif a.sat:
                out.append(Finding("KD006", "kinds", "warning",
                                   f"{r.label}自身的“必须接收”和“不能接收”会同时成立。",
                                   fix=f"让{r.label}的 receive.must 与 receive.cannot 的条件互斥。",
                                   message_en=f"{r.name}'s own 'must receive' and 'cannot receive' can hold at once.",
                                   fix_en=f"make {r.name}'s receive.must and receive.cannot conditions exclusive.", key=f"KD006|{r.id}", rules=[ctx.ref(r.id)],
                                   witness=ctx.witness(a.state, {"decision": "receive", "seat": 0},
                                                       {"must": True, "cannot": True})))
    return out


def _plainly_false(node) -> bool:
    from skillproof.model import expr as E
    return isinstance(node, E.Lit) and node.value is False


def _false_windows(r) -> list:
    """The windows of an ActiveSkill it can never be used in for its own conditions: its `requires` is plainly
    false, or the window's condition (`main`, `fight`, `dying`: usable.skill_usable_now) is — or its actor never
    acts there. ``windows = { main = "turn" }`` with ``main = "false"`` named a window and was no KD008."""
    if _plainly_false(r.requires):
        return list(r.windows)
    dead = set(T.dead_windows(r.windows))
    return [w for w in r.windows if w in dead or (w in T.COND_WINDOWS and _plainly_false(getattr(r, w, None)))]


def _never_holds(ctx, r):
    """KD008 for an ActiveSkill whose every window's condition (or its `requires`) is plainly false."""
    ws = ", ".join(r.windows)
    return Finding("KD008", "kinds", "error",
                   f"{r.label}的每个时机的条件都恒为假（{ws}：main / fight / dying 或 requires 写的是 false），谁也用不出这个主动技能。",
                   key=f"KD008|{r.id}|conditions", rules=[ctx.ref(r.id)], details={"windows": dict(r.windows)},
                   message_en=(f"{r.name}'s condition is plainly false in each of its windows ({ws}: its main / fight / "
                               f"dying condition or its requires is false): nobody can use this active skill."),
                   fix_en=f"give {r.name} a condition that can hold in one of its windows, or drop the window.",
                   fix=f"给{r.label}在某个时机写上能成立的条件，或去掉这个时机。")


def _no_actor(ctx, code, ident, name, label, windows, what):
    """KD007 / KD008 for windows whose every actor can never act there (model.turn.never_acts): ``nobody``,
    or the dying player outside 濒死求澄清 — as dead as no windows at all."""
    parts_zh = "、".join(f"{T.WINDOWS[w].zh}的 {a}" for w, a in windows.items())
    parts_en = ", ".join(f"{a} in {w}" for w, a in windows.items())
    kind_zh, kind_en = ("牌", "card") if what == "card" else ("主动技能", "active skill")
    return Finding(code, "kinds", "error",
                   f"{label}的每个时机都没有人能使用它（{parts_zh}：这些角色在那里永远不会行动），谁也用不出这张{kind_zh}。",
                   key=f"{code}|{ident}|actors", rules=[ctx.ref(ident)], details={"windows": dict(windows)},
                   message_en=(f"{name} has windows, but in each of them its actor can never act ({parts_en}): "
                               f"nobody can use this {kind_en}."),
                   fix_en=(f"name who may use {name} in each window (e.g. \"turn\", \"anyone\", \"in_front\"); "
                           f"\"dying_player\" acts only in the dying window, \"nobody\" never."),
                   fix=(f"为{label}的每个时机写上谁可以使用（例如 \"turn\"、\"anyone\"、\"in_front\"）；"
                        f"\"dying_player\" 只在濒死求澄清中行动，\"nobody\" 从不行动。"))
