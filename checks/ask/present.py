"""The text of an answer, in the run's language (``model.lang``): its headline, the question's claim and
parameters as the designer wrote them (quoted), the solver's reasons for giving up, and each constraint of a
proof (``constraints.describe_item``) in the designer's terms with the catalogue lines behind it."""
from __future__ import annotations

import re

from skillproof.model import narrate as N
from skillproof.model.lang import is_en, param_name, pick, yes_no
from skillproof.model.reason import Reason, en, zh
from skillproof.model.state import State

from .constraints import decided_by, dedupe, describe_item  # noqa: F401  (answer.py imports them from here)
from .syntax import Query, atoms_of


def quoted(text: str) -> str:
    """The designer's own words (a claim, a given), quoted: 「…」 / `…`."""
    return pick(f"「{text}」", f"`{text}`")


def bound_text(S) -> str:
    """The bounds of a proof: within 3 seats, 2 granted skills and traces of 2 turns."""
    return pick(f"在至多{S.n}个座位、{S.G}个获得的技能、{S.T}个回合的经过内",
                f"within {S.n} seats, {S.G} granted skills and traces of {S.T} turn{'s' if S.T != 1 else ''}")


def headline(cat, q: Query, S, answer: str, role: str, st: State | None) -> str:
    """One line: the answer to ``q`` with what shows it (a witness ``st``, or ``role`` "proof" within the
    bounds of the symbolic state ``S``)."""
    ct = claim_text(q)
    claim = pick(f"「{ct}」" if ct else "所问的情形", ct or "the claim")
    said_phase = any(w in t for t in [ct or ""] + [g.text for g in q.givens] for w in ("摸牌阶段", "draw phase"))
    if any(a.kind == "draw" for a in atoms_of(q.claim)) and not said_phase:
        # 'draw N' is the draw phase's count (model/interp/draw.py), not a draw by an effect (视死, 绵里藏针: ask
        # what the skill does); say the reading, so "can he draw two cards?" is not taken for "ever draws two"
        claim += pick("（读作摸牌阶段的摸牌数；技能让人摸牌请问技能做什么：「〈技能〉能让〈角色〉摸牌吗」）",
                      " (read as the draw phase's count; for a skill's draw ask what it does: "
                      "`does SKILL make PLAYER draw?`)")
    given = ""
    if q.givens:
        texts = list(dict.fromkeys(g.text for g in q.givens))     # a window given twice (its turn, its phase): once
        given = pick("，前提" + "、".join(quoted(t) for t in texts), " (" + "; ".join(texts) + ")")
    who = cat.characters[q.subject].name if q.subject else None
    seen = cat.characters[st.seats[0].character].name if st is not None else None
    bound = bound_text(S)
    if q.mode == "exists":
        if answer == "yes":
            return pick(f"是——例如{seen}：{claim}{given}", f"yes — e.g. {seen}: {claim}{given}")
        return pick(f"否——{who + '在任何情况下' if who else '任何角色'}都不会：{claim}{given}（{bound}）",
                    f"no — {who + ' never' if who else 'no player ever'}: {claim}{given} ({bound})")
    if q.mode == "always":
        if answer == "yes":
            return pick(f"是——{'对' + who if who else ''}总是如此：{claim}{given}（{bound}）",
                        f"yes — always{' for ' + who if who else ''}: {claim}{given} ({bound})")
        return pick(f"否——反例（{seen}）：并非{claim}{given}", f"no — counterexample ({seen}): not {claim}{given}")
    if q.mode == "never":
        if answer == "yes":
            return pick(f"是——{'对' + who if who else ''}从不发生：{claim}{given}（{bound}）",
                        f"yes — never{' for ' + who if who else ''}: {claim}{given} ({bound})")
        return pick(f"否——会发生，例如{seen}：{claim}{given}", f"no — it happens, e.g. {seen}: {claim}{given}")
    return ""


#: fixed sentences of an answer: (zh, en), said with ``said``
COULD_NOT_DECIDE = ("求解器无法判定", "the solver could not decide")
DISAGREE = ("求解器与解释器不一致", "the solver and the interpreter disagree")
NO_STATE = ("否——没有可达的局面满足前提", "no — no reachable state satisfies the givens")
VACUOUS = ("前提本身（合在一起）在任何可达局面中都不成立——无论问什么，答案都只由前提得出",
           "the givens themselves can never hold (together) in a reachable state — whatever the question, the "
           "answer follows from them alone")


def said(pair: tuple[str, str]) -> str:
    return pick(*pair)


def no_replay(problem) -> Reason:
    """Why a solver's witness is not believed (the interpreter sees it otherwise), in both languages
    (``model.reason``: `check` quotes it in a finding's Chinese message and its English one); told for people
    by ``reason_text``."""
    return Reason(f"求解器的例证在解释器中不能重放：{zh(problem)}",
                  f"the solver's witness does not replay in the interpreter: {en(problem)}")


#: the solver's reasons for giving up, as ``Run.why_unknown`` is given them: reason -> (zh, en)
REASONS = {"unknown": "原因不明", "the core could not be extracted": "无法提取最小约束集合",
           "timeout while minimising the core": "缩小约束集合时超时",
           "unknown while checking the givens": "检查前提时无法判定"}


def reason_text(reason: str) -> str:
    """A Result's ``reason`` (an *unknown*'s) for people: as it is under en, in Chinese under zh."""
    if isinstance(reason, Reason):                 # the interpreter's reasons (no_replay): told in full
        return reason.en if is_en() else f"{reason.zh}（skillproof内部不一致，请报告）"
    if is_en():
        return reason
    m = re.match(r"timeout: no answer within (\d+) ms", reason)
    if m:
        return f"超时：{m.group(1)} ms内没有答案"
    if reason.startswith("the solver's witness does not replay"):
        return "求解器的例证在解释器中不能重放（skillproof内部不一致，请报告；--lang en 显示细节）"
    return REASONS.get(reason, "求解器给不出答案")


def arg_text(cat, v) -> str:
    kind, x = v
    if kind == "set":
        return "{" + pick("、", ", ").join(N.card(cat, c) for c in x) + "}"
    if kind == "card":
        return N.card(cat, x)
    if kind == "bool":
        return yes_no(x)
    return str(x)


def args_text(cat, args: dict) -> str:
    """A grant's parameters for people: A=截获，B=破译 / A=截获, B=破译 (所有牌=否 / all cards=no)."""
    return pick("，", ", ").join(f"{param_name(p)}={arg_text(cat, v)}" for p, v in args.items())


def claim_text(q: Query) -> str:
    if q.shown:
        return q.shown
    atoms = atoms_of(q.claim)
    if not atoms:
        return ""
    start = min(a.col for a in atoms if a.text) if any(a.text for a in atoms) else 0
    end = max(a.end for a in atoms if a.text) if any(a.text for a in atoms) else 0
    return q.text[start:end] if end > start else ""
