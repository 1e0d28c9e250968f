"""Another player's turn of the fight phase — 截获能在别人的争夺回合使用吗 / 不是自己的争夺回合能打调包吗: told from the
window itself, not searched. In 争夺阶段 the players are asked one at a time from the player the message is in front
of (server FightPhaseIdle.whoseFightTurn; model/turn.py ``WINDOWS["fight"]``), and a card or an active skill of the
window is used only by the player asked now (JieHuo / DiaoBao / WuDao.canUse test ``r === fsm.whoseFightTurn``; the
catalogue keeps that test as the window's actor, model/extract/effect_values.py ``_WINDOW_ACTOR``). So while another
player is asked, the player uses none of them: *no*, whatever the bound; a rule with no 争夺阶段 window is not used in
it at all. A triggered skill answers events, in anyone's turn of asking — not read here (the parser says so)."""
from __future__ import annotations

import re

from skillproof.model.lang import pick
from skillproof.model.turn import WINDOWS

from .result import Result
from .syntax import Query

#: another player's turn of asking in 争夺阶段 (别人的争夺回合, 不是自己的争夺回合), or "someone else's fight turn"
OTHERS_FIGHT_TURN = re.compile(r"(?:别人|他人|其他角色|其他人|其他玩家|对方|别的角色|别家)的?争夺(?:回合|轮次)"
                               r"|(?:不是|并非|非)(?:自己|我|他|她)?的?争夺(?:回合|轮次)"
                               r"|(?:someone|somebody|another player)(?:'s| else's)? (?:turn in the fight|fight turn)",
                               re.I)
#: the question asks of a use (能…使用 / 打 / 出 / 发动, can … be used / play)
USE = re.compile(r"(能|可以|能否|能不能|可不可以|can|could)", re.I)


def _named(cat, names, text: str) -> list:
    """The cards and skills the text names (longest names first, each span once): [(kind, id)]."""
    found, taken = [], []
    words = []
    for cid, c in cat.cards.items():
        words += [(w, "card", cid) for w in [c.name] + list(getattr(c, "aliases", []) or [])]
    for sid, s in cat.skills.items():
        if not getattr(s, "is_grant", False):
            words.append((s.name, "skill", sid))
    for w, kind, rid in sorted(words, key=lambda x: -len(x[0])):
        if not w:
            continue
        for m in re.finditer(re.escape(w), text, re.I):
            span = range(m.start(), m.end())
            if any(set(span) & set(t) for t in taken):
                continue
            taken.append(span)
            if (kind, rid) not in found:
                found.append((kind, rid))
    return found


def answer(cat, names, text) -> Result | None:
    """The answer to a use in another player's turn of the fight phase, or None when ``text`` is not one."""
    if not isinstance(text, str) or OTHERS_FIGHT_TURN.search(text) is None or USE.search(text) is None:
        return None
    named = _named(cat, names, text)
    if len(named) != 1:
        return None
    from .constraints import _ref
    kind, rid = named[0]
    rule = cat.cards[rid] if kind == "card" else cat.skills[rid]
    if kind == "skill" and not rule.has("ActiveSkill"):
        return None                                  # a triggered skill: the parser says what it reads
    r = _ref(cat, rid, None)
    fight = WINDOWS["fight"]
    wins = dict(rule.windows or {})
    if "fight" in wins:
        why = pick(f"争夺阶段逐一询问角色（从情报所在的角色起），{r['name']}只能由正被询问的角色使用：别人的争夺回合里轮不到自己",
                   f"the fight phase asks the players one at a time (from the player the message is in front of), and "
                   f"{r['name']} is used only by the player asked now: in another player's turn of asking, not by him")
        says = [{"kind": "rule", "rules": [r], "says": pick(f"{r['name']}的时机：{fight.zh}（被询问的角色）",
                                                             f"{r['name']}'s window: the fight phase (the player asked)")},
                {"kind": "rule", "rules": [{"id": "", "name": "FightPhaseIdle.whoseFightTurn", "file": "model/turn.py",
                                            "line": 0}],
                 "says": pick("争夺阶段：从情报所在的角色起依次询问，每次只有被询问的角色能出牌或发动技能"
                              "（服务器 FightPhaseIdle.whoseFightTurn）",
                              "the fight phase: every player is asked in turn from the player the message is in front "
                              "of; only the player asked plays a card or uses a skill (server FightPhaseIdle."
                              "whoseFightTurn)")}]
    else:
        shown = "、".join(WINDOWS[w].zh for w in wins if w in WINDOWS) or pick("没有", "none")
        why = pick(f"{r['name']}不在争夺阶段使用（它的时机：{shown}）",
                   f"{r['name']} is not used in the fight phase at all (its windows: {shown})")
        says = [{"kind": "rule", "rules": [r], "says": why}]
    says.append({"kind": "bound", "rules": [], "says": pick("这是时机本身的规则：每一局都成立，与搜索界限无关",
                                                           "the window's own rule: it holds of every game, whatever "
                                                           "the bound")})
    res = Result(Query(text, "exists", None), "no", headline=pick("否——" + why, "no — " + why))
    res.because = says
    return res
