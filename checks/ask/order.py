"""`which order A B [on EVENT]` — 承志和遗信在角色死亡时怎么结算 / in what order do 承志 and 遗信 fire: how two triggered
skills answering one event are dealt with, told from the catalogue and the server's engine rules.

Not a solver question. For every event kind both skills answer (or the one the question names): each skill's ``on``
entry (whose event, the guard in words, file:line), whether it is asked at all (a dead holder: only a BeforeDieSkill
or a granted skill), what it does (its ``do`` in words), then the order the server asks in — read in the server:

- ``Game.dealListeningSkill(whoseTurn.location)`` (Game.kt:350–368, called by ProcessFsm.resolve, ProcessFsm.kt:30):
  seat by seat from the turn player; each player's skills in the order of his skill list (``player.skills.forEach``);
  a dead player's skill only when it is a BeforeDieSkill or not initial (Game.kt:361); the first skill that answers
  takes over (``?.let { return it }``) and the pass starts again from the turn player when it is done;
- ``Event.checkResolve`` (Event.kt:18): a skill answers one event once.

So two skills of one player go in his list order; two players' skills in seat order from the turn player (which of
them is nearer depends on the seats: both orders happen). Where one skill's effect changes what the other's guard or
effect reads (``checks/firing.py``: accesses, with the players matched through the event's roles), the answer says
which way the order matters; where the two touch nothing in common it says they commute. The rule book (strategy/
faq.md, 接收情报 2) lets a player choose the order of his own skills; the server asks in list order — said too.
"""
from __future__ import annotations

from skillproof.model import events as EV
from skillproof.model.lang import pick

from .result import Result
from .syntax import Query

#: the server lines the order rests on
SERVER = ("server Game.kt:350-368 (dealListeningSkill: seats from whoseTurn.location, player.skills.forEach, "
          "alive || BeforeDieSkill || !isInitialSkill at :361); Event.kt:18 (checkResolve: once per event)")


def _player(rule, on, word: str | None) -> str | None:
    """The event role a player word of the rule stands for on ``on`` ('self' through its whose), or a name of its
    own ('holder:<id>' for a holder that is not the event's principal); None when it cannot be told."""
    if word is None:
        return None
    kind = EV.EVENT_KINDS[on.event]
    if word == "self":
        if on.whose == ("self",) and kind.principal:
            return kind.principal
        if len(on.whose) == 1 and on.whose[0] not in ("any", "other", "self"):
            return on.whose[0]
        return f"holder:{rule.id}"
    if word in ("all", "others"):
        return "all"
    if kind.role(word) is not None:
        return word
    return None


def _same(a: str | None, b: str | None, ra, oa, rb, ob) -> str:
    """'yes' / 'no' / 'may': can the two players be one?"""
    if a is None or b is None or "all" in (a, b):
        return "may"
    if a == b:
        return "yes"
    hold = {f"holder:{ra.id}": oa, f"holder:{rb.id}": ob}
    for h, on in hold.items():
        other = b if a == h else a if b == h else None
        if other is not None and not other.startswith("holder:"):
            kind = EV.EVENT_KINDS[on.event]
            if on.whose == ("other",) and other == kind.principal:
                return "no"
            return "may"
    if a.startswith("holder:") or b.startswith("holder:"):
        return "may"
    return "no" if a != b else "yes"


def interference(cat, ra, oa, rb, ob) -> list:
    """[(zh, en, sure)]: where the first's effect changes what the second's guard or effect reads, or both change one
    thing (checks/firing.py accesses), the players matched through the event's roles; ``sure`` when the players are
    the same for certain."""
    from .. import firing as F
    from ..trigger_checks import _op_words
    out = []
    for first, of, second, os_ in ((ra, oa, rb, ob), (rb, ob, ra, oa)):
        writes = [x for x in F.accesses(first) if x.mode != "read"]
        reads = [(x, "guard") for x in F.expr_reads(os_.when)] + \
            [(x, "effect") for x in F.accesses(second) if x.mode == "read"]
        for w in writes:
            for r, where in reads:
                if not F.conflict(w, r):
                    continue
                same = "yes" if w.res not in F.PLAYER_RESOURCES else \
                    _same(_player(first, of, w.who), _player(second, os_, r.who), first, of, second, os_)
                if same == "no":
                    continue
                wz, we = _op_words(first, w.at) if w.at is not None else ("", "")
                rz, re_ = F.RESOURCES.get(w.res, (w.res, w.res))
                zh = (f"{first.label}的“{wz}”改变{rz}，{second.label}的{'触发条件' if where == 'guard' else '效果'}读它："
                      f"{first.label}先结算时，{second.label}看到的是改变后的")
                en = (f"{first.name}'s “{we}” changes the {re_}, which {second.name}'s "
                      f"{'guard' if where == 'guard' else 'effect'} reads: when {first.name} goes first, "
                      f"{second.name} sees it changed")
                out.append((zh, en, same == "yes"))
    seen, uniq = set(), []
    for x in out:
        if x[:2] not in seen:
            seen.add(x[:2])
            uniq.append(x)
    return uniq


def answer(cat, q: Query) -> Result:
    """The Result of a ``which order`` question: answer *data*, one value per event kind both skills answer."""
    from skillproof.model.effects_words import op_words
    from .events import _entry
    a_id, b_id = q.which.rules
    ra, rb = cat.skills[a_id], cat.skills[b_id]
    for r in (ra, rb):
        if not r.has("TriggeredSkill"):
            kinds = "、".join(sorted(r.closure)) if r.closure else "?"
            return Result(q, "data", headline=pick(
                f"{r.label}不是触发技（{kinds}）：它不回应事件，与{(rb if r is ra else ra).label}没有结算先后可言",
                f"{r.name} is not a triggered skill ({kinds}): it answers no event, so it has no order with "
                f"{(rb if r is ra else ra).name}"), values=[], notes=[])
        if not r.on:
            why = pick(f"{r.label}没有目录中的触发条件（'on'）：{r.trigger or r.text}",
                       f"{r.name} has no trigger in the catalogue ('on'): {r.trigger or r.text}")
            return Result(q, "unknown", headline=pick(f"{r.label}的触发时机只写在文字里，无法说明结算顺序",
                                                      f"{r.name}'s trigger is only prose: no order can be told"),
                          reason=why)
    events = [o.event for o in ra.on if any(o.event == p.event for p in rb.on)]
    if q.which.event is not None:
        events = [e for e in events if e == q.which.event]
    events = list(dict.fromkeys(events))
    if not events:
        ea = "、".join(EV.EVENT_KINDS[o.event].zh for o in ra.on)
        eb = "、".join(EV.EVENT_KINDS[o.event].zh for o in rb.on)
        asked = EV.EVENT_KINDS[q.which.event] if q.which.event else None
        zh = f"{ra.label}回应：{ea}；{rb.label}回应：{eb}" + (f"；所问的是「{asked.zh}」" if asked else "")
        en = f"{ra.name} answers: {', '.join(EV.EVENT_KINDS[o.event].en for o in ra.on)}; {rb.name}: " \
             f"{', '.join(EV.EVENT_KINDS[o.event].en for o in rb.on)}" + (f"; the question asks of {asked.en}" if asked else "")
        return Result(q, "data", headline=pick(f"{ra.label}和{rb.label}从不回应同一个事件，没有先后可言（{zh}）",
                                               f"{ra.name} and {rb.name} never answer one event together: no order to "
                                               f"tell ({en})"), values=[], notes=[])
    owners_a, owners_b = set(cat.owners(a_id)), set(cat.owners(b_id))
    both = sorted(owners_a & owners_b)
    values, notes = [], []
    for ev in events:
        kind = EV.EVENT_KINDS[ev]
        oa = next(o for o in ra.on if o.event == ev)
        ob = next(o for o in rb.on if o.event == ev)
        for r, o in ((ra, oa), (rb, ob)):
            ent = _entry(cat, r, o)
            does = pick("；", "; ").join(op_words(op, cat, (o,)) for op in r.do) if r.do else pick("（效果只写在文字里）", "(effect only prose)")
            if not EV.dispatched(alive=False, before_die=r.has("BeforeDieSkill"), initial=r.initial):
                asked = pick("只在持有者存活时被询问", "asked only while its holder is alive")
            elif r.has("BeforeDieSkill"):
                asked = pick("持有者死亡后仍被询问（BeforeDieSkill）", "asked though its holder is dead (BeforeDieSkill)")
            else:
                asked = pick("获得的技能：持有者死亡后仍被询问", "a granted skill: asked after its holder died too")
            ent["name"] = pick(f"{r.label}：{ent['says']['zh']}；{asked}；效果：{does}",
                               f"{r.name}: {ent['says']['en']}; {asked}; it does: {does}")
            ent["rule"] = r.id
            values.append(ent)
        if both:
            ch = cat.characters[both[0]]
            first, second = (ra, rb) if ch.skills.index(a_id) < ch.skills.index(b_id) else (rb, ra)
            order = pick(f"「{kind.zh}」：同一名角色（{ch.name}）的两个技能按技能列表顺序询问：{first.label}先，{second.label}后"
                         f"（规则书 strategy/faq.md 接收情报第2条说由该角色决定顺序；服务器按列表顺序）",
                         f"{kind.en}: one player's ({ch.name}) two skills are asked in his skill-list order: {first.name} "
                         f"first, then {second.name} (the rule book, strategy/faq.md 接收情报 2, lets the player choose; "
                         f"the server asks in list order)")
        elif oa.whose == ob.whose and len(oa.whose) == 1 and oa.whose[0] not in ("any", "other") and \
                (oa.whose[0] != "self" or kind.principal):
            order = pick(f"「{kind.zh}」：两者都只回应自己持有者的事件，而它们不在同一名角色身上：不会回应同一个事件；"
                         f"两个这样的事件一起待处理时（如两人同时死亡），从当前回合角色起按座位询问，谁离当前回合角色近谁先",
                         f"{kind.en}: each answers only its own holder's event, and no one player holds both: they never "
                         f"answer one event; when two such events are pending together (two players dying at once), "
                         f"seats are asked from the turn player, and whoever sits nearer goes first")
        else:
            order = pick(f"「{kind.zh}」：不同角色的技能从当前回合角色起按座位顺序询问，谁离当前回合角色近谁先"
                         f"（两种先后都会出现，取决于座位）",
                         f"{kind.en}: different players' skills are asked seat by seat from the turn player: whoever "
                         f"sits nearer the turn player goes first (both orders happen, depending on the seats)")
        notes.append(order)
        inter = interference(cat, ra, oa, rb, ob)
        if inter:
            for zh, en, sure in inter:
                notes.append(pick(("" if sure else "可能：") + zh, ("" if sure else "possibly: ") + en))
        else:
            notes.append(pick(f"两者的效果与条件互不读写对方改变的东西：先后不影响结果",
                              f"neither changes what the other's guard or effect reads: the order does not change the "
                              f"outcome"))
    notes.append(pick("服务器：每个事件从当前回合角色起按座位询问，每名角色的技能按列表顺序，死亡角色只问 BeforeDieSkill 和获得的技能，"
                      "第一个回应的技能结算完后再从头询问，每个技能对一个事件至多回应一次",
                      f"{EV.ORDER}; {EV.ONCE}; a dead player is asked only for BeforeDieSkills and granted skills; the "
                      f"first skill that answers resolves, then the pass starts again from the turn player"))
    notes.append(SERVER)
    head = pick(f"{ra.label}和{rb.label}都回应：" + "、".join(EV.EVENT_KINDS[e].zh for e in events),
                f"{ra.name} and {rb.name} both answer: " + ", ".join(EV.EVENT_KINDS[e].en for e in events))
    return Result(q, "data", headline=head, values=values, notes=notes)


#: words of a question that name the event kind it asks the order on (longest first)
EVENT_WORDS = (("角色死亡", "die"), ("死亡", "die"), ("死", "die"), ("dies", "die"), ("death", "die"), ("die", "die"),
               ("接收情报", "receive"), ("接收", "receive"), ("收到情报", "receive"), ("receive", "receive"),
               ("传出情报", "send"), ("传出", "send"), ("sent", "send"), ("回合结束", "turn_end"),
               ("turn ends", "turn_end"), ("传递阶段开始", "send_phase_start"), ("置入情报区", "add_message"),
               ("结算后", "card_resolved"), ("resolved", "card_resolved"), ("使用", "use_card"), ("弃", "discard"),
               ("交给", "give_card"))
#: words that make a question naming two skills a question of their order
ORDER_WORDS = ("怎么结算", "如何结算", "怎样结算", "谁先", "先后", "顺序", "哪个先", "谁会先", "怎么处理", "如何处理",
               "同时发动", "同时触发", "in what order", "which first", "which goes first", "which fires first",
               "resolve together", "order")


def order_query(cat, text: str, names) -> Query | None:
    """A question naming two triggered skills and asking their order (承志和遗信在角色死亡时怎么结算？ / in what order do
    承志 and 遗信 fire?) as a ``which order`` Query, or None when it is not one."""
    from .lexer import tokenize
    from .syntax import Which
    low = text.lower()
    if not (any(w in low for w in ORDER_WORDS) or "how do" in low and "resolve" in low):
        return None
    rules = []
    for t in tokenize(text, names):
        if t.kind != "word":
            continue
        rid = names.find("rule", t.text)
        if rid and rid in cat.skills and rid not in [r for r, _ in rules]:
            rules.append((rid, t))
    if len(rules) > 2:
        from skillproof.model.msg import Msg
        from .errors import QueryError
        t = rules[2][1]
        raise QueryError(Msg("结算顺序一次只比较两个技能，却写了{n}个（如：'承志和遗信谁先发动'）",
                             "an order compares two skills at a time, not {n} (e.g. 'which fires first, 承志 or 遗信')",
                             n=len(rules)), t.col, t.end)
    if len(rules) != 2:
        return None
    event = None
    rest = low
    for _, t in rules:                      # 视死 is no death: the skills' own names are not event words
        rest = rest[:t.col] + " " * (t.end - t.col) + rest[t.end:]
    for w, ev in EVENT_WORDS:
        if w in rest:
            event = ev
            break
    (a, ta), (b, tb) = rules
    which = Which("order", ta.col, end=tb.end, rule=a)
    which.rules = (a, b)
    which.event = event
    return Query(text, "which", None, None, which=which)
