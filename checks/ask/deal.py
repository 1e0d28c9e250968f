"""What a game of N players deals — 四人局能抽到清道夫吗 / 三人局会有神秘人吗 / can a 4-player game deal 诱变者?: told from
the model's deal (model.interp.win ``dealt`` — how many players of each identity — and ``tasks_dealt`` — the secret
tasks dealt to the black identities, server Game.start: 镇压者 / 篡夺者 / 双重间谍 / 先行者 always, 诱变者 / 搅局者 / 清道夫
only at five players or more). A secret task is dealt only to a black identity (神秘人), so a count with no black
identity deals none. Not a search: *yes* / *no* from the deal itself, whatever the bound."""
from __future__ import annotations

import re

from skillproof.model.interp import win as W
from skillproof.model.lang import pick

from .phrases import IDENTITIES, TASKS
from .result import Result
from .syntax import Query

_NUM = {"二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_WORDS = sorted(set(TASKS) | set(IDENTITIES), key=len, reverse=True)
DEAL_ZH = re.compile(r"^\s*(?:在)?(?P<n>[二两三四五六七八九2-9])人(?:局|场|的游戏|游戏)(?:里|中|的时候|时)?[，,]?\s*"
                     r"(?:能|会|可以|可能|能不能|有没有可能)?\s*(?:抽到|有|出现|拿到|发到|发出|分到|抽出)\s*(?:身份是)?"
                     r"(?P<what>" + "|".join(map(re.escape, _WORDS)) + r")(?:身份|任务)?\s*(?:吗|么|嘛)?\s*[？?]?\s*$")
DEAL_EN = re.compile(r"^\s*(?:can|could|does|will)\s+(?:a|an)\s+(?P<n>[2-9])[- ]player\s+game\s+(?:deal|have|give)\s+"
                     r"(?:a|an|the)?\s*(?P<what>\w+)\s*[?.!]*\s*$", re.I)
_SRC = "model/interp/win.py"


def answer(cat, text) -> Result | None:
    """The answer to a what-is-dealt question, or None when ``text`` is not one."""
    if not isinstance(text, str):
        return None
    m = DEAL_ZH.match(text) or DEAL_EN.match(text)
    if m is None:
        return None
    n = _NUM.get(m.group("n")) or int(m.group("n"))
    what = m.group("what").lower()
    task, ident = TASKS.get(what), IDENTITIES.get(what)
    if task is None and ident is None:
        return None
    counts = W.dealt(n)
    black = counts["black"][1] if counts else 0
    if task is not None:
        pool = W.tasks_dealt(n)
        name = W.TASK_WORDS[task]
        yes = task in pool and black > 0
        if task not in pool:
            why = pick(f"{n}人局发的秘密任务只有{'、'.join(W.TASK_WORDS[t][0] for t in pool)}（{name[0]}要五人或以上）",
                       f"a game of {n} deals only {', '.join(W.TASK_WORDS[t][1] for t in pool)} ({name[1]} needs five "
                       "players or more)")
        elif black == 0:
            why = pick(f"{n}人局不发黑色身份（神秘人），秘密任务只发给神秘人", f"a game of {n} deals no black identity")
        else:
            why = pick(f"{n}人局最多{black}名神秘人，各发一个秘密任务，{name[0]}在其中（服务器 Game.start）",
                       f"a game of {n} deals up to {black} black identities a secret task each, {name[1]} among them "
                       "(server Game.start)")
    else:
        lo, hi = counts[ident] if counts and ident in counts else (0, 0)
        yes = hi > 0
        why = pick(f"{n}人局发{lo}到{hi}名{what}（服务器 Game.start）", f"a game of {n} deals {lo} to {hi} of {what} "
                                                                       "(server Game.start)")
    res = Result(Query(text, "exists", None), "yes" if yes else "no",
                 headline=pick(("是——" if yes else "否——") + why, ("yes — " if yes else "no — ") + why))
    res.because = [{"kind": "rule", "rules": [{"id": "deal", "name": pick("发身份与秘密任务", "the deal"),
                                               "file": _SRC, "line": 152}], "says": why},
                   {"kind": "bound", "rules": [], "says": pick("这是发牌规则本身：每一局都成立，与搜索界限无关",
                                                               "the deal itself: it holds of every game, whatever the "
                                                               "bound")}]
    return res
