"""Does an action of the game raise the event another kind of skill answers? — 置入情报区会触发接收情报的技能吗 / 置入情报区
算接收情报吗 / does putting a card into a message area trigger the skills of receiving? Told from the engine's event table
(``model.events.EVENT_KINDS``), not searched: each action raises its own event — a card put into an area raises
AddMessageCardEvent (card/LiYou.kt, card/FengYunBianHuan.kt, the skills' put ops; interp ops.put), a message received
raises ReceiveCardEvent (phase/ReceivePhaseIdle.kt only), a death PlayerDieEvent … — and a triggered skill answers only
the events its ``on`` names (model.link, server Game.dealListeningSkill). So the answer is *yes* exactly when the two
name the same event, and the skills of the catalogue answering each are listed (rule book strategy/faq.md 置入情报区:
置入情报区不视为接收情报)."""
from __future__ import annotations

import re

from skillproof.model import events as EV
from skillproof.model.lang import pick

from .result import Result
from .syntax import Query, Which

#: an action or an event as designers name it -> the event kind it is (model.events.EVENT_KINDS); longest first
WORDS = {
    "add_message": ("置入情报区", "放入情报区", "放进情报区", "置入别人的情报区", "置入自己的情报区", "置于情报区", "置入情报",
                    "放入情报", "收集情报", "有牌被置入情报区", "把牌置入情报区"),
    "receive": ("接收情报", "收到情报", "接收", "接收情报时"),
    "die": ("角色死亡", "死亡"),
    "send": ("传出情报", "传出情报时"),
    "discard": ("弃牌",),
    "give_card": ("交给", "交出手牌"),
    "choose_receive": ("选择接收情报", "选择接收"),
}
_Q = r"\s*(?:吗|么|嘛|呢)?\s*[？?。!！]*\s*$"
FRAMES = (
    re.compile(r"^\s*(?P<a>[^，,\s]+?)\s*(?:会|能|可以|是否会|也会|还会)?\s*(?:触发|引发)\s*(?P<b>[^，,\s]+?)\s*"
               r"(?:的|类的|相关的|类)?\s*(?:技能|触发技)" + _Q),
    re.compile(r"^\s*(?P<a>[^，,\s]+?)\s*(?:算|算作|算是|视为|视作|是)\s*(?P<b>[^，,\s]+?)" + _Q),
)


def kind_of(phrase: str) -> str | None:
    p = phrase.strip()
    for key, words in WORDS.items():
        if p in words:
            return key
    return None


def raises_query(cat, text: str) -> Query | None:
    """The question as a ``raises`` Query (Which.rules = (the action's event, the asked event)), or None."""
    for rx in FRAMES:
        m = rx.match(text)
        if m is None:
            continue
        a, b = kind_of(m.group("a")), kind_of(m.group("b"))
        if a is None or b is None:
            continue
        return Query(text, "exists", None, None, which=Which("raises", m.start(), rules=(a, b), end=m.end()))
    return None


def _answering(cat, key: str) -> list:
    return sorted({r.name for r in cat.skills.values() for o in (r.on or ()) if o.event == key})


def answer(cat, q: Query) -> Result:
    a, b = q.which.rules
    ka, kb = EV.EVENT_KINDS[a], EV.EVENT_KINDS[b]
    same = a == b
    who_b = _answering(cat, b)
    who_a = _answering(cat, a)
    res = Result(q, "yes" if same else "no")
    said = pick(f"这个动作引发{ka.server}（{ka.zh}，{ka.raised}）", f"the action raises {ka.server} ({ka.en}, {ka.raised})")
    if same:
        res.headline = pick(f"是——{said}：回应它的技能会被询问", f"yes — {said}: the skills answering it are asked")
    else:
        res.headline = pick(f"否——{said}，不是{kb.server}（{kb.zh}）：回应{kb.zh}的技能不会因此发动",
                            f"no — {said}, not {kb.server} ({kb.en}): the skills answering it do not fire on it")
    res.because = [
        {"kind": "rule", "rules": [{"id": "", "name": ka.server, "file": "", "line": 0}],
         "says": pick(f"每个动作只引发它自己的事件；{kb.server} 只在 {kb.raised} 引发",
                      f"each action raises its own event; {kb.server} is raised in {kb.raised} only")},
        {"kind": "rule", "rules": [{"id": "", "name": "Game.dealListeningSkill", "file": "", "line": 0}],
         "says": pick("触发技只回应它的 on 写明的事件（服务器 Game.dealListeningSkill；model/events.py）",
                      "a triggered skill answers only the events its `on` names (server Game.dealListeningSkill; "
                      "model/events.py)")},
        {"kind": "bound", "rules": [], "says": pick("这是引擎的规则：对每一局都成立，与搜索界限无关",
                                                   "an engine rule: it holds of every game, whatever the bound")}]
    res.notes.append(pick(f"回应{kb.zh}的技能：{'、'.join(who_b) or '无'}", f"skills answering {kb.en}: {', '.join(who_b) or 'none'}"))
    if not same:
        res.notes.append(pick(f"回应{ka.zh}的技能：{'、'.join(who_a) or '无'}", f"skills answering {ka.en}: {', '.join(who_a) or 'none'}"))
    res.bounds = {} if same else {"table": True}    # a no: the rules refuse it in every game
    return res
