"""The nearest accepted phrasing of a refused question, offered in its error ("最接近的可接受说法：…" / "nearest
accepted phrasing: …"). First the small edits that keep what the designer asked: the name or keyword the error
suggests put in place of the misspelt word; an aside after the question left out (…吗？还有别的吗). Failing those,
the question the language accepts that is most like it: of ``EXAMPLES`` (every form of the grammar, in Chinese
and in English), the one whose words, with the names as their kinds (card, skill, character), are closest to the
refused question's, with the refused question's own names put in its places. Every phrasing offered is parsed
first: it is accepted as written."""
from __future__ import annotations

import re

from skillproof.model.msg import Msg

from .errors import QueryError

#: accepted questions, one of each form, the suggestions are made from (a test parses every one)
EXAMPLES = (
    "SP李宁玉能把截获当作误导使用吗？",
    "在别人的出牌阶段，SP李宁玉能发动应变吗？",
    "SP李宁玉被禁闭后还能发动应变吗？",
    "张一挺禁用截获后，SP李宁玉还能把截获当作误导使用吗？",
    "变则通宣言截获→调包时，SP李宁玉还能把截获当作误导使用吗？",
    "有人濒死时，顾小梦能发动急智吗？",
    "顾小梦面朝上时还能发动急智吗？",
    "博爱一回合能发动两次吗？",
    "截获能在别人的回合使用吗？",
    "被锁定的角色能选择不接收吗？",
    "传出者一定要接收吗？",
    "老鳖能把向上的情报向左传吗？",
    "SP韩梅发动冷血训练后能否向上传出并锁定1人？",
    "CP韩梅摸几张牌？",
    "谁能在别人的回合发动偷天？",
    "后来人之后，还持有后来人吗？",
    "鄭文先能视为使用截获吗？",
    "争夺阶段能行动的角色会被跳过吗？",
    "被信鸽联络指定的角色能接收情报吗？",
    "小铃铛能用信鸽联络指定自己吗？",
    "只有当前回合角色能在出牌阶段出牌吗？",
    "变则通能宣言澄清吗？",
    "被密令的SP韩梅能发动冷血训练吗？",
    "王响有两张红色情报时摸几张牌？",
    "没有手牌的角色在争夺阶段会被跳过吗？",
    "出牌阶段结束时会提醒我发动鱼死网破吗？",
    "can SP李宁玉 play 截获 as 误导?",
    "can SP李宁玉 use 应变 after 禁闭?",
    "can anyone play 截获 in another player's turn?",
    "can 顾小梦 use 急智 when someone is dying?",
    "never anyone cannot receive where locked",
    "which send rule for direction for 老鳖",
    "how many cards does CP小九 draw?",
    "who can use 偷天 in another player's turn?",
    "can the sender lock himself?",
    "can a locked player refuse the message?",
    "can SP韩梅 send up locking 1 under 冷血训练·必锁一人 in another player's turn?",
    "is 截获 banned for anyone under 强令's ban on 截获?",
    "can 鄭文先 resolve 截获 under 强令 declares 截获?",
    "can 老鳖 send left where message_dir == up when invalidated?",
    "can anyone be skipped in 濒死求澄清 after 后来人 when not holding cards?",
    "is 秦无命 prompted about 鱼死网破 when ending the main phase?",
)
#: a word for a kind of thing where one thing of the kind is asked about, and the names tried in its place
_KIND_FOR = {"技能": "skill", "主动技能": "skill", "角色技能": "skill", "触发技能": "skill", "skill": "skill",
             "skills": "skill", "卡牌": "card", "牌": "card", "card": "card", "cards": "card"}
_STAND_INS = {"skill": ("偷天", "应变", "急智", "冷血训练"), "card": ("截获", "误导", "调包", "澄清")}
_SEP = re.compile(r"[？?。]")
_DID = re.compile(r"(?:你是不是想写|did you mean) ?'?([^'?？）)]+?)'?[？?）)]")
_CJK = re.compile(r"[\u3400-\u9fff]")


def nearest_phrasing(parse, text: str, err: QueryError, words=None) -> str | None:
    """The nearest phrasing of ``text`` that ``parse`` (text → Query, or a QueryError) accepts, or None.
    ``words``: text → its tokens as (text, kind, name id or None) — the names and their kinds."""

    def accepted(t: str) -> bool:
        if not t.strip() or t == text:
            return False
        try:
            parse(t)
            return True
        except (QueryError, RecursionError):
            return False

    col, end = err.col, max(err.end, err.col + 1)
    m = _DID.search(err.text.render("zh")) or _DID.search(err.text.render("en"))
    if m:                                                   # the misspelt name, spelt right
        t = text[:col] + m.group(1).strip() + text[end:]
        if accepted(t):
            return t
    kind = _KIND_FOR.get(text[col:end])
    for name in _STAND_INS.get(kind, ()):                  # a kind of thing (技能, 卡牌) where one is named
        t = text[:col] + name + text[end:]
        if accepted(t):
            return t
    seps = [x.end() for x in _SEP.finditer(text) if x.end() <= col]
    if seps and seps[-1] < len(text):                       # an aside after the question: left out
        t = text[:seps[-1]]
        if accepted(t):
            return t
    if words is None:
        return None
    return like_example(text, words, accepted)


def like_example(text: str, words, accepted) -> str | None:
    """The example question most like ``text``, its names replaced by ``text``'s own of the same kind."""
    mine = words(text)
    zh = any(_CJK.search(w) and kind is None for w, kind, _ in mine)
    shape = [kind or w for w, kind, _ in mine]
    kinds = sorted(k for _, k, _ in mine if k)
    ranked = []
    for n, ex in enumerate(EXAMPLES):
        theirs = words(ex)
        if any(_CJK.search(w) and kind is None for w, kind, _ in theirs) != zh:
            continue                                        # an example in the question's language
        score = _lcs(shape, [kind or w for w, kind, _ in theirs])
        slots = sorted(k for _, k, _ in theirs if k)
        score -= 2 * sum(abs(kinds.count(k) - slots.count(k)) for k in set(kinds) | set(slots))
        ranked.append((-score, n, ex, theirs))
    ranked.sort()
    pools: dict = {}
    for w, kind, _ in mine:
        if kind is not None:
            pools.setdefault(kind, []).append(w)
    for _, _, ex, theirs in ranked[:8]:                     # the closest that holds the question's own names
        out, used = ex, {}
        for w, kind, _ in theirs:
            if kind is None or not pools.get(kind):
                continue
            k = used.get(kind, 0)
            if k < len(pools[kind]):
                out = out.replace(w, "\0" + pools[kind][k] + "\0", 1)
                used[kind] = k + 1
        out = out.replace("\0", "")
        if out != ex and accepted(out):
            return out
    return ranked[0][2] if ranked and accepted(ranked[0][2]) else None


#: what a word weighs when two questions are compared: a name's kind most, punctuation and particles least
_LIGHT = set("的了吗呢？?，,。、把将还也都又")


def _weight(x: str) -> int:
    if x in ("card", "character", "rule"):
        return 3
    return 0 if x in _LIGHT else 2


def _lcs(a: list, b: list) -> int:
    """The weight of the longest common subsequence of two word lists."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + _weight(x) if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def offer(e: QueryError, near: str | None) -> QueryError:
    """``e`` with the nearest accepted phrasing said in its message (and kept in ``e.nearest``)."""
    e.nearest = near
    if near:
        e.text = e.text + Msg("；最接近的可接受说法：「{n}」", "; nearest accepted phrasing: `{n}`", n=near)
    return e
