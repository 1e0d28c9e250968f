"""What a rule does, told in words: a loaded ``do`` op (``model.catalogue.DoOp``) as a phrase in the run's language —
``draws 2 cards``, ``the target discards black_messages + 1 cards`` → ``目标弃置（自己的黑色情报数+1）张牌`` — with its
players said as the moment's nouns (``model.effects.player_nouns``), its condition and amounts by ``expr_words``, cards
and grants by the catalogue's names. Used where a change of an effect is reported (``checks.diff_rules``).

``op_key`` is an op's meaning as text (its note left out: a note is for readers), for comparing two versions."""
from __future__ import annotations

from . import effects as X
from . import events as EV
from . import expr as E
from .expr_words import DIRECTION, words
from .lang import pick

#: how many cards, for the phrases below
_WHICH = {"choose": ("", ""), "actor_chooses": ("（由对方选）", " (the actor picks)"), "random": ("（随机）", " at random"),
          "all": ("全部", "all")}
_COLOUR = {"any": ("", ""), "black": ("含黑色的", "black "), "pure_black": ("纯黑色的", "pure black "),
           "non_black": ("非黑色的", "non-black "), "red": ("含红色的", "red "), "blue": ("含蓝色的", "blue "),
           "red_or_blue": ("含红色或蓝色的", "red or blue "), "two_colours": ("双色的", "two-colour "),
           "shares_message": ("与情报同色的", "sharing a colour with the message "),
           "outside_message": ("有情报没有的颜色的", "with a colour the message lacks ")}
_SHOW = {"hand_card": ("一张手牌", "a hand card"), "hand": ("全部手牌", "the hand"), "message": ("情报", "the message"),
         "identity": ("身份", "the identity"), "deck_top": ("牌堆顶的牌", "the deck's top card")}
_PUT_FROM = {"hand": ("手牌", "a hand card"), "deck_top": ("牌堆顶的牌", "the deck's top card"),
             "message": ("这份情报", "the message"), "message_area": ("情报区的牌", "a message from an area"),
             "this_card": ("这张牌", "this card")}


def _p(name, nouns) -> str:
    if name == "self":
        return pick("自己", "the holder")
    if name == "all":
        return pick("每名存活角色", "every living player")
    if name == "others":
        return pick("每名其他存活角色", "every other living player")
    zh, en = nouns.get(name, (name, name))
    return pick(zh, en)


def _n(v, nouns, cat) -> str:
    if isinstance(v, int):
        return str(v)
    if v is None:
        return "1"
    return pick(f"（{words(v, cat, players=nouns)}）", f"({words(v, cat, players=nouns)})")


def _cards(v, cat) -> str:
    if not v:
        return ""
    names = [cat.name_of(c) if cat is not None else c for c in v]
    return pick("、".join(names), ", ".join(names))


def op_words(op, cat, on: tuple = ()) -> str:
    """One op as a phrase (with its condition and whether it may be declined)."""
    nouns = X.player_nouns(on)
    a = op.args
    k = op.op
    who = _p(a.get("who", "self"), nouns)
    if k == "draw":
        s = pick(f"{who}摸{_n(a.get('n', 1), nouns, cat)}张牌", f"{who} draws {_n(a.get('n', 1), nouns, cat)} card(s)")
    elif k == "discard":
        col = _COLOUR.get(a.get("colour") or "any", ("", ""))
        if a.get("which") == "all":
            s = pick(f"{who}弃置全部{col[0]}手牌", f"{who} discards all {col[1]}hand cards")
        else:
            w = _WHICH.get(a.get("which", "choose"), ("", ""))
            s = pick(f"{who}弃置{_n(a.get('n', 1), nouns, cat)}张{col[0]}手牌{w[0]}",
                     f"{who} discards {_n(a.get('n', 1), nouns, cat)} {col[1]}hand card(s){w[1]}")
    elif k in ("give", "take"):
        frm, to = _p(a.get("from", "self"), nouns), _p(a.get("to", "self"), nouns)
        col = _COLOUR.get(a.get("colour") or "any", ("", ""))
        only = _cards(a.get("card"), cat)
        kinds = pick(f"（{only}）", f" ({only})") if only else ""
        if a.get("which") == "all":                 # 承志: every hand card (n is not read)
            s = pick(f"{frm}交给{to}全部{col[0]}手牌{kinds}", f"{frm} gives {to} all {col[1]}hand cards{kinds}")
        else:
            s = pick(f"{frm}交给{to}{_n(a.get('n', 1), nouns, cat)}张{col[0]}手牌{kinds}",
                     f"{frm} gives {to} {_n(a.get('n', 1), nouns, cat)} {col[1]}hand card(s){kinds}")
    elif k == "show":
        what = _SHOW.get(a.get("what", "hand_card"), ("", ""))
        s = pick(f"{who}向{_p(a.get('to', 'all'), nouns)}展示{what[0]}",
                 f"{who} shows {what[1]} to {_p(a.get('to', 'all'), nouns)}")
    elif k == "put_message":
        frm = _PUT_FROM.get(a.get("from", "hand"), ("", ""))
        of = _p(a["of"], nouns) if a.get("of") else ""
        col = _COLOUR.get(a.get("colour") or "any", ("", ""))
        s = pick(f"把{of}{col[0]}{frm[0]}置入{_p(a.get('to', 'self'), nouns)}的情报区",
                 f"{col[1]}{frm[1]}{' of ' + of if of else ''} is put into {_p(a.get('to', 'self'), nouns)}'s message area")
        if a.get("three") == "to_hand":
            by = _p(a.get("by", "self"), nouns)
            s += pick(f"（会让其凑满三张同色时改收入{by}的手牌）", f" (into {by}'s hand instead when it would make three of a "
                                                         "colour there)")
        elif a.get("three") == "forbidden":
            s += pick("（不得让其凑满三张同色）", " (not when it would make three of a colour there)")
    elif k == "send_message":
        frm = _PUT_FROM.get(a.get("from", "hand"), ("", ""))
        of = _p(a["of"], nouns) if a.get("of") else ""
        col = _COLOUR.get(a.get("colour") or "any", ("", ""))
        up = a.get("face", "down") == "up"
        lock = _p(a["lock"], nouns) if a.get("lock") else ""
        s = pick(f"{_p(a.get('by', 'self'), nouns)}把{of}{col[0]}{frm[0]}{'正面' if up else '背面'}朝上作为情报传出"
                 + (f"，锁定{lock}" if lock else ""),
                 f"{_p(a.get('by', 'self'), nouns)} sends {col[1]}{frm[1]}{' of ' + of if of else ''} face "
                 f"{'up' if up else 'down'} as the message" + (f", locking {lock}" if lock else ""))
    elif k == "remove_message":
        whose = _p(a.get("whose", "self"), nouns)
        to = a.get("to", "discard_pile")
        dest = {"discard_pile": ("弃牌堆", "the discard pile"),
                "hand": (f"{_p(a.get('by', 'self'), nouns)}的手牌", f"{_p(a.get('by', 'self'), nouns)}'s hand"),
                "area": (f"{_p(a.get('into', 'self'), nouns)}的情报区", f"{_p(a.get('into', 'self'), nouns)}'s message area")}[to]
        col = _COLOUR.get(a.get("colour") or "any", ("", ""))
        s = pick(f"{whose}情报区的一张{col[0]}情报移到{dest[0]}", f"a {col[1]}message of {whose}'s area goes to {dest[1]}")
    elif k == "flip":
        up = a.get("face", "up") == "up"
        if a.get("what") == "message":
            s = pick("情报翻为正面朝上" if up else "情报翻为背面朝上", "the message is turned face up" if up
                     else "the message is turned face down")
        else:
            s = pick(f"{who}的角色翻为{'正面' if up else '背面'}朝上", f"{who}'s role is turned face {'up' if up else 'down'}")
    elif k == "move_message":
        s = pick(f"情报移到{_p(a['to'], nouns)}面前", f"the message moves in front of {_p(a['to'], nouns)}")
    elif k == "redirect":
        d = {**DIRECTION, "reverse": ("反方向", "the other way")}.get(a.get("dir"), (str(a.get("dir")), str(a.get("dir"))))
        s = pick(f"情报改为{d[0]}传", f"the message now goes {d[1]}")
    elif k == "lock":
        s = pick(f"锁定{who}", f"{who} is locked")
    elif k == "cancel":
        only = _cards(a.get("card"), cat)
        s = pick(f"使{only or '这张牌'}无效", f"{only or 'the card'} is cancelled")
    elif k == "grant":
        g = cat.name_of(a["grant"]) if cat is not None else a["grant"]
        s = pick(f"{_p(a.get('to', 'self'), nouns)}获得【{g}】", f"{_p(a.get('to', 'self'), nouns)} gets {g}")
    elif k == "end_turn":
        s = pick("回合结束", "the turn ends")
    elif k == "skip":
        s = pick(f"跳过{a['phase']}", f"the {a['phase']} is skipped")
    elif k == "receive":
        s = pick(f"{who}立即接收情报", f"{who} receives the message at once")
        if a.get("three") == "to_hand":
            by = _p(a.get("by", "self"), nouns)
            s += pick(f"（会凑满三张同色时改收入{by}的手牌，回合结束）",
                      f" (into {by}'s hand instead when it would make three of a colour, and the turn ends)")
    elif k == "take_message":
        if a.get("to", "discard_pile") == "hand":
            by = _p(a.get("by", "self"), nouns)
            s = pick(f"待收情报收入{by}的手牌", f"the message goes into {by}'s hand")
        else:
            s = pick("待收情报进入弃牌堆", "the message is discarded")
    elif k == "kill":
        s = pick(f"{who}死亡", f"{who} dies")
    elif k == "raise":
        kind = EV.EVENT_KINDS.get(a["event"])
        ev = pick(kind.zh, kind.en) if kind else a["event"]
        whom = _p(a["who"], nouns) if a.get("who") else ""
        s = pick(f"引发事件“{ev}”" + (f"（{whom}）" if whom else ""),
                 f"raises the event '{ev}'" + (f" ({whom})" if whom else ""))
    elif k == "ask_from":
        s = pick(f"争夺阶段从{_p(a['who'], nouns)}起重新询问", f"the fight round is asked again from {_p(a['who'], nouns)}")
    elif k == "choose":
        alts = [pick("，", ", ").join(op_words(o, cat, on) for o in alt) for alt in op.options]
        if len(alts) == 1:
            s = alts[0]
        else:
            s = pick("选择其一：" + "；或".join(alts), "one of: " + "; or ".join(alts))
    elif k == "each":
        body = pick("，", ", ").join(op_words(o, cat, on) for o in op.options[0])
        s = pick(f"从自己起每名存活的{'其他' if a.get('who') == 'others' else ''}角色依次：{body}",
                 f"for each living {'other ' if a.get('who') == 'others' else ''}player from the actor on: {body}")
    elif k == "repeat":
        body = pick("，", ", ").join(op_words(o, cat, on) for o in op.options[0])
        times = _n(a.get("n", 1), nouns, cat)
        if a.get("up_to") is not None:
            times = pick(f"{times}到{_n(a['up_to'], nouns, cat)}", f"{times} to {_n(a['up_to'], nouns, cat)}")
        s = pick(f"重复{times}次：{body}", f"{times} times: {body}")
        a = {k2: v for k2, v in a.items() if k2 != "up_to"}
    elif k == "prose":
        s = a.get("note", "")
    else:
        spec = X.OPS.get(k)
        s = pick(spec.zh, spec.en) if spec else k
    if a.get("up_to") is not None:
        s += pick(f"（张数由其决定，至多{_n(a['up_to'], nouns, cat)}张）", f" (how many is his pick, up to {_n(a['up_to'], nouns, cat)})")
    if a.get("where") is not None:
        s += pick(f"（这张牌 it 须满足：{words(a['where'], cat, players=nouns)}）",
                  f" (the card, it, must meet: {words(a['where'], cat, players=nouns)})")
    if isinstance(a.get("as"), str):
        s += pick(f"（记作 {a['as']}）", f" (called {a['as']})")
    if op.may:
        s = pick(f"可以：{s}", f"may: {s}")
    if op.cond is not None and not (isinstance(op.cond, E.Lit) and op.cond.value is True):
        s = pick(f"若{words(op.cond, cat, players=nouns)}，{s}", f"{s} if {words(op.cond, cat, players=nouns)}")
    return s


def op_key(op) -> str:
    """An op's meaning as one line of text (note left out; amounts and conditions as the condition language)."""
    parts = [op.op]
    for k in sorted(op.args):
        v = op.args[k]
        if isinstance(v, (E.Node, E.Lambda)):
            v = E.to_text(v)
        parts.append(f"{k}={v}")
    if op.cond is not None:
        parts.append("if=" + E.to_text(op.cond))
    if op.may:
        parts.append("may")
    for alt in op.options:
        parts.append("[" + "; ".join(op_key(o) for o in alt) + "]")
    return " ".join(parts)


def read_ops(ops) -> list:
    """The ops a comparison reads: ``prose`` ops are what is not translated, so they are left out (a change there is
    the unread-code check's to name)."""
    out = []
    for o in ops:
        if o.op == "prose":
            continue
        if o.options:
            alts = [read_ops(alt) for alt in o.options]
            o = type(o)(o.op, o.args, o.cond, o.loc, o.may, "", tuple(tuple(a) for a in alts if a))
            if not o.options:
                continue
        out.append(o)
    return out
