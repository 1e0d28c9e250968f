"""下回合 — a question about the next turn, after something that happened this turn: 肥原龙川这回合用过诡诈了，下回合还能
再用吗 / 被调虎离山禁止出牌的角色，下回合还能出牌吗 / 禁闭的效果会持续到下一个回合吗.

The question is read as two parts split at the next-turn word: the premise (what happened this turn: a skill used or
fired, a card or skill that handed out a grant) and the question asked in the next turn. At the turn's end the server
clears what is turn-scoped (phase/NextTurn.kt: every player's use counts reset, InvalidSkill unwrapped, OneTurnSkills
— CannotPlayCard among them — lost), so when everything the premise names is turn-scoped (a skill that neither flips
its role nor is removed once used, a grant whose catalogue ``lifetime`` is ``turn``) the next turn is a turn without
it: the question is asked without the premise, and the answer says why. A premise that outlasts the turn (a skill
that flips its role face up, one removed once used, a grant that lasts) is not dropped: *unknown*, saying which.

Two forms are told from the catalogue alone: whether the effect lasts into the next turn (…的效果会持续到下一个回合吗:
*no* when every grant the giver hands out is turn-scoped) and whether what it took comes back (…下回合技能能恢复吗:
*yes* then)."""
from __future__ import annotations

import re

from skillproof.model.lang import pick

from .lexer import names_in
from .result import Result
from .syntax import Query

NEXT = re.compile(r"在?(下一个回合|下一回合|下个回合|下回合|下一轮|下轮)")
_THIS = re.compile(r"(这一回合|这个回合|这回合|本回合|当前回合)")
_LASTS = re.compile(r"(会|能|还会)?(持续|保留|延续|保持)(到|至)?$")
_BACK = re.compile(r"^(的)?(技能|能力)?(就)?(会|能|可以)?(恢复|复原|回来)")
_CLOSE = re.compile(r"(了)?(吗|呢|么|不)?[？?]?$")
_VERB_ONLY = re.compile(r"(还)?(能|可以|会)?(再次|又|再)?(用|发动|使用)(了)?(吗|呢|么|不)?[？?]?$")
_SERVER = "phase/NextTurn.kt:34-36"


def _lasting(cat, kind: str, ident: str):
    """Why what the premise names outlasts the turn ((zh, en)), or None when the turn's end clears it."""
    if kind == "character":
        return None
    if kind == "card":
        grants = [g.grant for g in cat.cards[ident].gives]
        name = cat.cards[ident].name
    else:
        r = cat.skills[ident]
        name = r.name
        if r.is_grant:
            grants = [ident]
        elif r.gives:
            grants = [g.grant for g in r.gives]
        else:
            grants = []
        if not r.is_grant:
            if r.flips:
                return (f"{name}发动时翻开角色牌，回合结束不会翻回", f"{name} turns its role face up, which the turn's end "
                                                                   "does not undo")
            if r.consumed or r.limit == "game":
                return (f"{name}一局只能用一次", f"{name} is once a game")
    for g in grants:
        life = cat.skills[g].lifetime
        if life != "turn":
            return (f"{name}给出的{cat.skills[g].name}持续到{life}", f"{name}'s {cat.skills[g].name} lasts ({life})")
    return None


def _cleared(cat, premise: list) -> tuple:
    """What the turn's end clears of the premise, said ((zh, en))."""
    zh, en = [], []
    for kind, ident, _ in premise:
        if kind == "character":
            continue
        if kind == "card":
            gs = [g.grant for g in cat.cards[ident].gives]
        else:
            r = cat.skills[ident]
            gs = [ident] if r.is_grant else [g.grant for g in r.gives]
            if not gs:
                zh.append(f"{r.name}的使用次数清零")
                en.append(f"{r.name}'s use count is reset")
                continue
        for g in [cat.skills[x] for x in dict.fromkeys(gs)]:
            zh.append(f"{g.name}（lifetime = turn）失去")
            en.append(f"{g.name} (lifetime = turn) is lost")
    return "、".join(dict.fromkeys(zh)), ", ".join(dict.fromkeys(en))


def answer(session, text: str) -> Result | None:
    """The answer of a next-turn question, or None when ``text`` is not one (no next-turn word, or nothing named
    before it but a character — 边云疆在下一回合还能再发动诱敌深入吗 is a 再次 question, parser.py)."""
    if not isinstance(text, str):
        return None
    m = NEXT.search(text)
    if m is None:
        return None
    cat, names = session.cat, session.names
    pre, rest = text[:m.start()].rstrip("，,、 "), text[m.end():].lstrip("，,、 ")
    premise = names_in(pre, names)
    things = [p for p in premise if p[0] != "character"]
    again = _again(session, text, premise, rest)
    if again is not None:
        return again
    if not things or not rest.strip("吗呢么？? ") and not _LASTS.search(_THIS.sub("", pre).rstrip("的")):
        return None
    if any(k == "card" and not cat.cards[i].gives for k, i, _ in things):
        return None                                     # 截获下回合能用吗: a card that leaves nothing this turn
    from .constraints import _ref
    refs = [_ref(cat, ident) for _, ident, _ in things]
    for kind, ident, _ in things:
        why = _lasting(cat, kind, ident)
        if why is not None:
            return Result(Query(text, "exists", None), "unknown",
                          headline=pick(f"不确定——{why[0]}：下回合并不是没有它的回合，这还不能问",
                                        f"inconclusive — {why[1]}: the next turn is not a turn without it, which is "
                                        "not asked yet"),
                          reason="the premise outlasts the turn")
    zh, en = _cleared(cat, things)
    says = pick(f"回合结束时服务器清除本回合的效果（{_SERVER}）：{zh}",
                f"at the turn's end the server clears this turn's effects ({_SERVER}): {en}")
    giver_rest = _THIS.sub("", pre)
    if _LASTS.search(giver_rest.rstrip("的")) and _CLOSE.fullmatch(rest):        # …的效果会持续到下一个回合吗
        res = Result(Query(text, "exists", None), "no",
                     headline=pick(f"否——不会持续到下回合：{says}", f"no — it does not last into the next turn: {says}"))
        res.because = [{"kind": "rule", "rules": refs, "says": says}]
        return res
    if _BACK.match(rest):                                                       # …下回合技能能恢复吗
        res = Result(Query(text, "exists", None), "yes",
                     headline=pick(f"是——下回合恢复：{says}", f"yes — it is back in the next turn: {says}"))
        res.because = [{"kind": "rule", "rules": refs, "says": says}]
        return res
    chars = [p for p in premise if p[0] == "character"]
    fresh = rest
    if not any(k == "character" for k, _, _ in names_in(rest, names)) and chars:
        fresh = chars[0][2] + fresh                     # the premise's character is the one asked about
    used = [(k, i, w) for k, i, w in things if k == "rule" and not cat.skills[i].is_grant and not cat.skills[i].gives]
    if not any(k in ("rule", "card") for k, _, _ in names_in(rest, names)):
        if used and _VERB_ONLY.search(fresh):           # 下回合还能再用吗: the skill the premise used
            fresh = _VERB_ONLY.sub(f"能发动{used[0][2]}吗", fresh)
        elif not used and _VERB_ONLY.search(fresh):     # 强令禁掉的牌下个回合能用了吗: any card
            fresh = _VERB_ONLY.sub("能出牌吗", fresh)
    fresh = re.sub(r"(还能|还可以)?(再次|又|再)(?=(发动|使用|用|出|打))", "", fresh)
    fresh = re.sub(r"了(?=(吗|呢|么|不)?[？?]?$)", "", fresh)
    fresh = re.sub(r"(接收|收到)([^，,]*?情报)(?=(还能|能|可以))", r"\1\2后，", fresh)   # 接收黑色情报还能视死吗
    if fresh.startswith(("还能", "能", "可以", "还可以")):
        fresh = "角色" + fresh
    res = session.ask(fresh)
    res.notes.insert(0, pick(f"按下回合读：问的是「{fresh}」——{says}，下回合如同没有「{pre}」",
                             f"read as the next turn: asked '{fresh}' — {says}; the next turn is as if '{pre}' never "
                             "happened"))
    res.headline = pick("下回合：", "next turn: ") + res.headline
    res.because = list(res.because or []) + [{"kind": "rule", "rules": refs, "says": says}]
    return res


def _once_used(cat, kind: str, ident: str) -> bool:
    """A skill its holder has once a game (``consumed`` / ``limit = "game"``: the server removes it once used)."""
    r = cat.skills.get(ident) if kind == "rule" else None
    return r is not None and not r.is_grant and (r.consumed or r.limit == "game")


def _again(session, text: str, premise: list, rest: str) -> Result | None:
    """The next turn asked of one skill again — 边云疆发动过诱敌深入后，下回合还能再发动吗 (the premise used it, the rest asks
    the verb alone or the same skill), 端木静下一回合还能再用新思潮吗 (a character, then the skill): a skill the server
    removes once used (``consumed`` / ``limit = game``) is the 再次使用 question (*no*, from the catalogue: no later turn
    holds it); one whose use the turn's end resets (``limit = turn`` or none: getSkillUseCount, phase/NextTurn.kt:34),
    neither flipping its role nor handing out a grant, is asked as a use with nothing before it — the next turn is a
    turn without this turn's use. None for any other question (a premise of another kind, a skill that flips)."""
    cat, names = session.cat, session.names
    named = names_in(rest, names)
    asked = [(k, i, w) for k, i, w in named if k in ("rule", "card")]
    used = [(k, i, w) for k, i, w in premise if k == "rule" and not cat.skills[i].is_grant]
    chars = [p for p in premise + named if p[0] == "character"]
    if [p for p in premise if p[0] != "character"] and not used:
        return None
    if used:                                            # the premise used a skill: the rest asks it again
        if len(used) != 1 or not _VERB_ONLY.search(rest) or asked and [i for _, i, _ in asked] != [used[0][1]]:
            return None
        k, ident, word = used[0]
    else:                                               # 端木静下一回合还能再用新思潮吗
        if len(asked) != 1 or asked[0][0] != "rule" or not re.search(r"(再次|又|再)(用|发动|使用)", rest):
            return None
        k, ident, word = asked[0]
    r = cat.skills[ident]
    who = chars[0][2] if chars else ""
    if _once_used(cat, k, ident):
        fresh = f"{who}能再次使用{word}吗"
        res = session.ask(fresh)
        res.notes.insert(0, pick(f"按下回合读：问的是「{fresh}」——{r.name}一局只能用一次，之后的回合也不再持有",
                                 f"read as the next turn: asked '{fresh}' — {r.name} is once a game, no later turn "
                                 "holds it"))
        return res
    if r.flips or r.gives:
        return None
    fresh = f"{who}能发动{word}吗"
    says = pick(f"回合结束时服务器清除本回合的效果（{_SERVER}）：{r.name}的使用次数清零",
                f"at the turn's end the server clears this turn's effects ({_SERVER}): {r.name}'s use count is reset")
    res = session.ask(fresh)
    res.notes.insert(0, pick(f"按下回合读：问的是「{fresh}」——{says}，下回合如同本回合没有用过它",
                             f"read as the next turn: asked '{fresh}' — {says}; the next turn is as if it was not used "
                             "this turn"))
    res.headline = pick("下回合：", "next turn: ") + res.headline
    from .constraints import _ref
    res.because = list(res.because or []) + [{"kind": "rule", "rules": [_ref(cat, ident)], "says": says}]
    return res
