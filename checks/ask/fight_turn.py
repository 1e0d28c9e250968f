"""Another player's turn of the fight phase — 威逼能在别人的争夺回合用吗 / 截获能在别人的争夺回合使用吗. In 争夺阶段 the
players are asked one at a time from the player the message is in front of (server FightPhaseIdle.whoseFightTurn;
model/turn.py ``WINDOWS["fight"]``). A card or an active skill with no 争夺阶段 window is not used there at all: *no*,
told from its windows, whatever the bound. One with a 争夺阶段 window may or may not wait to be asked — the server
tests it rule by rule (JieHuo / DiaoBao.canUse test ``r === fsm.whoseFightTurn``; WuDao's canUse and its handler do
not: 误导 may be played at any moment of the phase), and the catalogue keeps only the window (``fight = "anyone"``): the
question is refused, saying so — never answered from what the catalogue does not hold."""
from __future__ import annotations

import re

from skillproof.model.lang import pick
from skillproof.model.turn import WINDOWS

from skillproof.model.msg import Msg

from .errors import QueryError
from .lexer import names_in
from .result import Result
from .syntax import Query

#: another player's turn of asking in 争夺阶段 (别人的争夺回合, 不是自己的争夺回合), or "someone else's fight turn"
OTHERS_FIGHT_TURN = re.compile(r"(?:别人|他人|其他角色|其他人|其他玩家|对方|别的角色|别家)的?争夺(?:回合|轮次)"
                               r"|(?:不是|并非|非)(?:自己|我|他|她)?的?争夺(?:回合|轮次)"
                               r"|(?:someone|somebody|another player)(?:'s| else's)? (?:turn in the fight|fight turn)",
                               re.I)
#: the question asks of a use (能…使用 / 打 / 出 / 发动, can … be used / play)
USE = re.compile(r"(能|可以|能否|能不能|可不可以|can|could)", re.I)


def answer(cat, names, text) -> Result | None:
    """The answer to a use in another player's turn of the fight phase, or None when ``text`` is not one."""
    if not isinstance(text, str) or OTHERS_FIGHT_TURN.search(text) is None or USE.search(text) is None:
        return None
    named = list(dict.fromkeys((kind, rid) for kind, rid, _ in names_in(text, names)
                               if kind == "card" or kind == "rule" and not cat.skills[rid].is_grant))
    if len(named) != 1:
        return None
    from .constraints import _ref
    kind, rid = named[0]
    rule = cat.cards[rid] if kind == "card" else cat.skills[rid]
    if kind == "skill" and not rule.has("ActiveSkill"):
        return None                                  # a triggered skill: the parser says what it reads
    r = _ref(cat, rid, None)
    wins = dict(rule.windows or {})
    if "fight" in wins:
        m = OTHERS_FIGHT_TURN.search(text)
        raise QueryError(Msg(f"{r['name']}在争夺阶段使用；是否要等到被询问（别人的争夺回合里能不能用）服务器逐张牌检查"
                             f"（截获、调包检查 whoseFightTurn，误导不检查），目录只记了时机（{r['file']}:{r['line']}），"
                             f"读不出来；能问的是：'{r['name']}能在别人的争夺阶段使用吗'",
                             f"{r['name']} is used in the fight phase; whether it waits to be asked (another player's "
                             f"turn of asking) the server tests rule by rule (截获 and 调包 test whoseFightTurn, 误导 "
                             f"does not) and the catalogue keeps only the window ({r['file']}:{r['line']}): not read; "
                             f"askable: 'can {r['name']} be used in another player's fight phase?'"),
                         m.start(), m.end())
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
