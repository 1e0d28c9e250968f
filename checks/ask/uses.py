"""几次 — 肥原龙川一回合最多能发动几次诡诈 / how many times a turn can 诡诈 be used: how often a skill may be used, told from
the catalogue's ``limit`` (``turn``: once a turn — the server's getSkillUseCount, reset for every player at the turn's
end, phase/NextTurn.kt:34; ``game``: once a game; ``none``: no count of its own — its window and ``requires`` bound
it). Not a search: *data*, whatever the bound."""
from __future__ import annotations

import re

from skillproof.model.lang import pick

from .result import Result
from .syntax import Query

_ASK = re.compile(r"^\s*(?P<a>[^，,\s]*?)\s*(?:在)?(?P<per>一回合|每回合|一个回合|每个回合|一局|每局|一局游戏|整局)(?:里|中|内)?\s*(?P<b>[^，,\s]*?)\s*"
                  r"(?:最多|至多|一共|总共)?\s*(?:能|可以|能够)?\s*(?:发动|使用|用)\s*(?:几次|多少次)\s*(?P<c>[^，,\s]*?)\s*"
                  r"(?:吗|呢)?\s*[？?]?\s*$")


def answer(cat, names, text) -> Result | None:
    """The answer to a how-many-times question about one skill, or None when ``text`` is not one."""
    m = _ASK.match(text) if isinstance(text, str) else None
    if m is None:
        return None
    rids = []
    for part in (m.group("a"), m.group("b"), m.group("c")):
        for w in (part, part.removesuffix("的")):
            rid = names.find("rule", w) if w else None
            if rid is not None:
                rids.append(rid)
                break
            ch = names.find("character", w) if w else None
            if ch is not None:
                break
    if len(set(rids)) != 1:
        return None
    from .constraints import _ref
    r = cat.skills[rids[0]]
    per_game = m.group("per") in ("一局", "每局", "一局游戏", "整局")
    if r.limit == "turn" and per_game:
        says = pick(f"{r.name}每回合限一次（目录 limit = turn：服务器的使用次数在每个回合结束时清零，phase/NextTurn.kt:34）："
                    "一局里没有总数，每个能用它的回合各一次",
                    f"{r.name} is once a turn (catalogue limit = turn: the server's use count is reset at every turn's "
                    "end, phase/NextTurn.kt:34): no count over a game, once in each turn it can be used")
        head = says
    elif r.limit == "turn":
        says = pick(f"{r.name}每回合限一次（目录 limit = turn：服务器的使用次数，回合结束时清零，phase/NextTurn.kt:34）",
                    f"{r.name} is once a turn (catalogue limit = turn: the server's use count, reset at the turn's end, "
                    "phase/NextTurn.kt:34)")
        head = pick(f"1 次——{says}", f"1 — {says}")
    elif r.limit == "game" or r.consumed:
        says = pick(f"{r.name}一局只能用一次（目录 limit = game）", f"{r.name} is once a game (catalogue limit = game)")
        head = pick(f"一局 1 次——{says}", f"once a game — {says}")
    else:
        says = pick(f"{r.name}没有自己的次数限制（目录 limit = none）：能用几次由它的时机和条件决定",
                    f"{r.name} has no count of its own (catalogue limit = none): its window and conditions bound it")
        head = says
    res = Result(Query(text, "which", None), "data", headline=head)
    res.because = [{"kind": "rule", "rules": [_ref(cat, r.id)], "says": says},
                   {"kind": "bound", "rules": [], "says": pick("这是目录的数据：每一局都成立，与搜索界限无关",
                                                               "catalogue data: it holds of every game, whatever the bound")}]
    return res
