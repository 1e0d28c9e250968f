"""`摸几张` of an effect — 小九发动广发报能摸几张牌 / how many cards does 广发报 draw: the draws of a skill's effect,
told from the catalogue (its ``do``: each ``draw`` op, who draws, how many, under which condition, file:line).

The draw-count question (``which draw``) otherwise asks the draw phase's count (Config.HandCardCountEachTurn and the
skills that change it, model.interp.draw): with a premise that a skill is used or fires, that count is not what the
designer asks — the premise's moment is not the draw phase, and a search for the draw phase's count under it answered
*no* ("the count never shows"), which is no answer to 几张. A skill whose effect draws nothing is said so; a skill with
no ``do`` (its effect only prose) is *unknown*, never a guess."""
from __future__ import annotations

import re

from skillproof.model.lang import pick

from .result import Result
from .syntax import Atom, Query

#: who draws, as the catalogue's ``do`` names the player, and as the answer says it
_WHO = {"self": ("持有者自己", "its holder"), "receiver": ("接收者", "the receiver"), "sender": ("传出者", "the sender"),
        "target": ("目标", "the target"), "each": ("每名角色", "each player"), "all": ("所有角色", "every player"),
        "user": ("使用者", "the user"), "dying": ("濒死角色", "the dying player")}
_FIRED = ("use", "fires_on", "fires", "fire")


def fired_skill(q: Query, cat) -> str | None:
    """The skill or card whose effect a draw-count question asks of (小九发动广发报能摸几张牌: a premise that it is used or
    fires; 使用平衡后摸几张牌: the card played; 知音能摸几张牌: the skill as the topic, when it is no skill that changes the
    draw phase's count), else None. Other premises may stand beside it: the answer says each draw's own condition."""
    if q.mode != "which" or q.which is None or q.which.kind != "draw":
        return None
    found = []
    for g in q.givens:
        a = g.claim if g.kind == "claim" else None
        if isinstance(a, Atom) and a.kind in _FIRED and a.rule in cat.skills and not a.cards:
            found.append(a.rule)
        elif isinstance(a, Atom) and a.kind == "play" and a.cards and a.cards[-1] in cat.cards and \
                a.cards[0] in (None, a.cards[-1]):
            found.append(a.cards[-1])
        elif g.kind == "with" and g.rule in cat.skills and "ChangeDrawCardCountSkill" not in cat.skills[g.rule].kinds:
            found.append(g.rule)
    return found[0] if len(set(found)) == 1 else None


#: a card or skill named first, then how many it draws (平衡结算后双方各摸几张牌, 平衡能摸几张牌): its effect
_TEXT = re.compile(r"^\s*(?P<name>[^，,\s]+?)\s*(?:结算后|结算时|的效果|生效后|生效时)?\s*[，,]?\s*"
                   r"(?:能让|会让|能令|让|令)?\s*(?:双方|目标|使用者|自己|大家|所有人|每个人|两人)?\s*"
                   r"(?:各|一共|总共|分别)?\s*(?:能|会|可以|要)?\s*(?:各|一共|总共|分别)?\s*摸(?:几张|多少张)牌?"
                   r"\s*(?:吗|呢)?\s*[？?]?\s*$")


def named_effect(cat, names, text) -> str | None:
    """The card or skill a question that names only it and asks how many it draws is about (平衡结算后双方各摸几张牌)."""
    m = _TEXT.match(text) if isinstance(text, str) else None
    if m is None:
        return None
    for kind in ("card", "rule"):
        ident = names.find(kind, m.group("name"))
        if ident is not None and (kind == "card" or "ChangeDrawCardCountSkill" not in cat.skills[ident].kinds):
            return ident
    return None


def _draws(ops, conds=()) -> list:
    """The ``draw`` ops of an effect, each with the conditions of the branches it is under (outermost first)."""
    out = []
    for op in ops or ():
        here = conds + ((op.cond,) if op.cond is not None else ())
        if op.op == "draw":
            out.append((op, here))
        for branch in op.options or ():
            out += _draws(branch, here)
    return out


def _cond_words(conds, cat, event) -> str:
    from skillproof.model.expr_words import words
    return pick("且", " and ").join(words(c, cat, event) for c in conds)


def answer(cat, q: Query, rid: str | None = None) -> Result | None:
    """The *data* answer of a draw-count question about a skill's or card's effect, or None when ``q`` is not one."""
    from .constraints import _ref
    rid = rid or fired_skill(q, cat)
    if rid is None:
        return None
    r = cat.skills.get(rid) or cat.cards[rid]
    ref = _ref(cat, rid)
    if not r.do:
        return Result(q, "unknown", headline=pick(f"不确定——{r.name}的效果只写在文字里：{r.text}",
                                                  f"inconclusive — {r.name}'s effect is only prose: {getattr(r, 'text', '')}"),
                      reason="the effect is only prose")
    draws = _draws(r.do)
    if not draws:
        says = pick(f"{r.name}的效果不摸牌（目录 do 里没有 draw）", f"{r.name}'s effect draws no card (no draw in its do)")
        res = Result(q, "data", headline=says)
        res.because = [{"kind": "rule", "rules": [ref], "says": says}]
        return res
    parts, because = [], []
    event = r.on[0].event if getattr(r, "on", None) else None          # the trigger's event names its players (传出者, 接收者)
    for op, conds in draws:
        n = op.args.get("n")
        who = _WHO.get(str(op.args.get("who", "self")), (str(op.args.get("who")),) * 2)
        if rid in cat.cards and op.args.get("who", "self") == "self":
            who = ("使用者", "the user")                 # a card's effect: its user
        count = str(n) if isinstance(n, int) else pick(f"（{n}）", f"({n})")
        say = pick(f"{who[0]}摸{count}张", f"{who[1]} draws {count}")
        if conds:
            say += pick(f"（当{_cond_words(conds, cat, event)}）", f" (when {_cond_words(conds, cat, event)})")
        if op.may:
            say += pick("（可选）", " (optional)")
        parts.append(say)
        because.append({"kind": "rule", "rules": [{"id": rid, "name": r.name, "file": op.loc.file,
                                                     "line": op.loc.line}], "says": say})
    head = pick(f"{r.name}的效果：" + "；".join(parts) + "（目录的 do，服务器的效果）",
                f"{r.name}'s effect: " + "; ".join(parts) + " (the catalogue's do, the server's effect)")
    res = Result(q, "data", headline=head)
    res.because = because + [{"kind": "bound", "rules": [],
                              "says": pick("这是目录的数据：每一局都成立，与搜索界限无关",
                                           "catalogue data: it holds of every game, whatever the bound")}]
    return res
