"""Intents (IN): the rule book's promises, proved over the catalogue.

An ``[[intent]]`` of the catalogue is a promise of the rule book (a skill's own text, a tip, a base rule)
written as a yes/no question of the ask language, with its source (rule-book file and heading). Each is
answered with the same encoding as ``skillproof ask`` (checks/ask), within the bounds of the run. The
answer *yes* is a pass — a proved promise, which every report shows as passing — and:

* IN001 — the catalogue breaks the promise: for an ``always`` / ``never`` intent a counterexample, a trace of
  the game's events replayed through the reference interpreter, with the rules that make it happen; for a
  ``can`` intent the minimal set of rules that rule the promised situation out;
* IN002 — the promise holds only vacuously: no reachable moment satisfies its givens, so it says nothing.

The shipped catalogue models the server: an IN001 there is a real disagreement between the rule book and
the game server (its baseline entry names the server file).
"""
from __future__ import annotations

import time

from skillproof.checks.budget import BUDGET_REASON
from skillproof.checks.findings import INTENT_NAME, Finding, RuleRef
from skillproof.checks.registry import INCONCLUSIVE, Code, register
from skillproof.model import lang

#: the family's page in Chinese (`skillproof rules intent`; the docstring is the English)
DOC_ZH = """意图（IN）：规则书的承诺，在目录上证明。

目录中的 `[[intent]]` 是规则书的一条承诺（某个技能自己的文字、一条提示、一条基本规则），写成 `skillproof ask`
提问语言的一个是/否问题，并注明出处（规则书的文件和标题）。每条都用与 `skillproof ask` 相同的编码（checks/ask）、
在本次运行的范围内回答。回答“是”就是通过——一条已证明的承诺，每种报告都把它列为通过——否则：

* IN001 — 目录违反了承诺：对 `always` / `never` 意图给出反例，即一段经参考解释器重放的对局经过，并列出使它发生的规则；
  对 `can` 意图给出排除了所承诺情形的最小规则集合；
* IN002 — 承诺只是空洞地成立：没有任何可达的时刻满足它的前提，所以它什么也没说明。

随附的目录描述的是服务器：那里的 IN001 是规则书和游戏服务器之间真实的分歧（它的基线条目写明服务器文件）。
"""

IN001 = Code(
    "IN001", "intent-violated", "warning",
    "the catalogue breaks a promise of the rule book (an [[intent]])",
    "the rules do something the rule book says they never do (or cannot do what it says they can): the "
    "counterexample is a game in which the promise fails, and the rules listed make it fail",
    summary_zh="目录违反了规则书的一条承诺（一条 `[[intent]]`）",
    why_zh="规则做了规则书说它们从不做的事（或者做不到规则书说能做的事）：反例是一局承诺落空的游戏，"
           "列出的规则使它落空",
    also_when_zh="以意图写明的级别（`severity`）为准",
    todo_zh="阅读反例：一局逐个事件展开、承诺在其中落空的游戏，以及使它落空的规则。修改这些规则，让承诺成立——或者，"
            "当规则描述的是一个确实违反规则书的真实服务器（随附的目录就是）时，"
            "把这个问题当作它本来就是的缺陷报告留着，在基线里接受它，写明理由和服务器文件（`skillproof baseline`，"
            "见 docs/ci.md），这样检查仍能拦下任何*新*被违背的承诺。如果规则书其实没有这样承诺，"
            "修正意图的 `claim` 或 `source`。只要意图的 `id` 和 `claim` 不变，问题的编号就不变。",
    example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "plain"
name = "路人"
hidden = false
female = false
skills = []
[[character]]
id = "bian_yun_jiang"
name = "边云疆"
hidden = false
female = false
skills = ["YouDiShenRu"]
[[skill]]
id = "YouDiShenRu"
name = "诱敌深入"
kinds = ["ActiveSkill"]
windows = { send_start = "anyone" }     # any holder, in anyone's turn
[[intent]]
id = "youdishenru-own-send-phase"
claim = "never anyone use 诱敌深入 in another player's turn"
source = "skills/extend2.md › B-边云疆（军人） › 诱敌深入"''',
    also=("error", "note"), also_when="the severity the intent gives",
    todo="Read the counterexample: a game, event by event, in which the promise fails, and the rules that make "
         "it fail. Change those rules so the promise holds — or, when the rules describe a real server that breaks "
         "the rule book (the shipped catalogue), keep the finding as the bug report it is and accept it in the "
         "baseline with the reason and the server file (`skillproof baseline`, see docs/ci.md), so the gate still "
         "catches any *new* broken promise. If the rule book does not promise it after all, correct the intent's "
         "`claim` or `source`. A finding keeps its id while the intent's id and claim stay the same.")

IN002 = Code(
    "IN002", "intent-vacuous", "warning",
    "an intent holds only because no reachable moment satisfies its givens",
    "a promise about situations that never arise proves nothing: its givens are probably misspelt or "
    "contradict the rules (a skill nobody can hold, a window its decision is never taken in)",
    todo="Correct the intent's givens (with / under / where / window words) so that they describe situations the "
         "game can reach; `skillproof ask` with the same question shows why none can.",
    summary_zh="意图之所以成立，只是因为没有任何可达的时刻满足它的前提",
    why_zh="关于从不出现的情形的承诺什么也证明不了：它的前提多半写错了，或者与规则相矛盾（一个没人能持有的技能、"
           "一个从不在其中作出相应决定的时机）",
    todo_zh="修正意图的前提（`with` / `under` / `where` 和时机词），让它们描述游戏能达到的情形；"
            "用 `skillproof ask` 问同一个问题，可以看到为什么一个也达不到。",
    example='''[[card]]
id = "A"
name = "甲"
phases = ["fight"]
[[character]]
id = "bian_yun_jiang"
name = "边云疆"
hidden = false
female = false
skills = ["YouDiShenRu"]
[[skill]]
id = "YouDiShenRu"
name = "诱敌深入"
kinds = ["ActiveSkill"]
windows = { send_start = "turn" }
[[skill]]
id = "MiXin"
name = "密信"                           # a skill no character holds
kinds = ["ActiveSkill"]
windows = { send_start = "turn" }
[[intent]]
id = "nobody-holds-it"
claim = "never anyone use 诱敌深入 in another player's turn with 密信"   # nobody ever holds 密信
source = "skills/extend2.md › B-边云疆（军人） › 诱敌深入"''')

FIX = ("让目录（及它描述的服务器）遵守这条承诺；若服务器的做法才是本意，修改意图的 claim 或 source。"
       "接受现状时在基线里写明理由和服务器文件。")
FIX_EN = ("make the catalogue (and the server it describes) keep this promise; if the server's way is what is meant, "
          "change the intent's claim or source. To accept it as it is, give the reason and the server file in the "
          "baseline.")


def intent_ref(it, role: str = "") -> RuleRef:
    return RuleRef(it.id, INTENT_NAME, it.loc.file, it.loc.line, role)


def key_of(it) -> str:
    """What the finding means: the intent and its claim (edit the claim: a new promise, a new id)."""
    return f"IN001|{it.id}|{' '.join(it.claim.split())}"


def session_for(ctx):
    from skillproof.checks.ask import Session
    o = ctx.options
    # one engine over every character and grant shared by all the intents (measured: cheaper than a shape
    # per question, at the real game's size and at three times it)
    return Session(ctx.cat, seats=o.max_seats, grants=o.max_grants, timeout_ms=o.timeout_ms, turns=o.turns,
                   rlimit=o.rlimit, general=ctx.shared)


@register("intent", "Intents: the rule book's promises", [IN001, IN002], order=90, lane=0, weight=11)
def run(ctx):
    cat = ctx.cat
    if not cat.intents:
        return []
    from skillproof.checks.intents import claims
    queries, _bad = claims(cat)            # bad claims stop the run at load (cli/common.load_or_report)
    sess = session_for(ctx)
    out = []
    for it in cat.intents:
        q = queries.get(it.id)
        if q is None:
            continue
        ctx.say(f"intent {it.id}")
        deadline = ctx.options.deadline
        if deadline is not None:          # --time-budget: what is left of it, or nothing asked
            left_ms = int((deadline - time.time()) * 1000)
            if left_ms <= 0:
                ctx.stats["unasked"] = ctx.stats.get("unasked", 0) + 1
                out.append(_inconclusive(ctx, it, BUDGET_REASON))
                continue
            sess.timeout_ms = max(1, min(ctx.options.timeout_ms, left_ms))
        # an example that proves a claim "can …" is not shown (a pass): the solver's first one will do;
        # a counterexample is a finding's witness and is made the plainest
        with lang.using("en"):            # the finding's details (headline, reasons) do not depend on --lang
            res = sess.ask(q, reasons=q.mode == "exists", minimal=q.mode != "exists")
        ctx.stats["queries"] += 1
        ctx.stats["solver_seconds"] += res.seconds
        if ctx.progress:
            ctx.progress({"questions": 1})
        if res.answer == "unknown":
            out.append(_inconclusive(ctx, it, res.reason or "timeout"))
            continue
        if res.answer == "yes":
            if res.vacuous:
                out.append(_vacuous(it, res))
            else:
                ctx.passes.append(_pass(it, q, res))
            continue
        out.append(_violated(ctx, it, q, res))
    return out


def _inconclusive(ctx, it, reason: str) -> Finding:
    from skillproof.model.reason import en, zh      # the interpreter's reasons keep both languages
    return Finding(INCONCLUSIVE.code, "intent", "error", f"无法判定意图【{it.id}】（求解器返回 unknown：{zh(reason)}）",
                   key=f"inconclusive|intent|{it.id}", rules=[intent_ref(it, "the promise")], inconclusive=True,
                   fix=_give_up(ctx),
                   message_en=f"cannot decide the intent {it.id} (the solver answered unknown: {en(reason)})",
                   fix_en=_give_up(ctx, "en"))


def _give_up(ctx, lang: str = "zh") -> str:
    from skillproof.checks.context import give_up_hint
    return give_up_hint(ctx.options.timeout_ms, ctx.options.rlimit, lang)


def _pass(it, q, res) -> dict:
    """A proved intent, as reports show it; ``id`` is the id its IN001 finding has when it is broken (so a
    code-scanning alert closes when the promise holds again)."""
    return {"intent": it.id, "id": Finding("IN001", "intent", it.severity, "", key=key_of(it)).id, "claim": it.claim, "mode": q.mode, "source": it.source, "text": it.text,
            "severity": it.severity, "file": it.loc.file, "line": it.loc.line, "family": "intent",
            "answer": res.answer, "bounds": {k: v for k, v in res.bounds.items() if k != "timeout_ms"}}


def _vacuous(it, res) -> Finding:
    return Finding(
        "IN002", "intent", "warning",
        f"意图【{it.id}】只是空洞地成立：没有可达的时刻满足它的前提（{it.claim}），所以它什么也没证明。",
        key=f"IN002|{it.id}|{' '.join(it.claim.split())}", rules=[intent_ref(it, "holds only vacuously")],
        fix="检查意图的前提（with / under / where / 时间词）是否写错，或是否与规则矛盾。",
        message_en=(f"the intent {it.id} holds only vacuously: no reachable moment meets its givens ({it.claim}), so "
                    f"it proves nothing."),
        fix_en="check whether the intent's givens (with / under / where / time words) are miswritten or contradict the rules.",
        details={"intent": it.id, "claim": it.claim, "source": it.source})


def _violated(ctx, it, q, res) -> Finding:
    cat = ctx.cat
    refs = [intent_ref(it, "the promise")]
    seen = {it.id}

    def add(ident, role):
        if ident and ident not in seen and (ident in cat.skills or ident in cat.cards or ident in cat.characters):
            seen.add(ident)
            refs.append(ctx.ref(ident, role))

    witness = None
    if res.witness is not None:            # always / never: a counterexample, made a game of the server
        witness = ctx.game_witness(res.witness)
        for tr in res.traces:              # the interpreter's reasoning on it: the rules that decide
            for ident in tr.rules(decisive_only=True) + tr.rules():
                add(ident, "makes it happen")
        for step in res.origin:            # the trace's events: who handed out what
            add(step.rule, "in the trace")
        example = _example(cat, witness)
        example_en = _example(cat, witness, "en")
    else:                                  # can: the minimal set of constraints that rule it out
        for item in res.because:
            for r in item.get("rules", []):
                add(r.get("id"), "rules it out")
        example = "没有任何可达的局面做得到"
        example_en = "no reachable situation does it"
    what = it.text or it.claim
    msg = f"违反意图【{it.id}】：{what}（{it.source}）——{example}。"
    details = {"intent": it.id, "claim": it.claim, "source": it.source, "mode": q.mode, "answer": res.answer,
               "headline": res.headline, "bounds": {k: v for k, v in res.bounds.items() if k != "timeout_ms"}}
    if res.because:
        details["because"] = res.because
    msg_en = f"breaks the intent {it.id}: {' '.join(it.claim.split())} ({it.source}) — {example_en}."
    return Finding("IN001", "intent", it.severity, msg, key=key_of(it), rules=refs, witness=witness, fix=FIX,
                   message_en=msg_en, fix_en=FIX_EN,
                   details=details)


def _example(cat, w: dict, lang: str = "zh") -> str:
    """The counterexample in a few words: who, at which moment of whose turn."""
    from skillproof.model import turn as TW
    st = w["state"]
    seats = st["seats"]
    who = cat.name_of(seats[0]["character"])
    turn = st.get("turn")
    whose = cat.name_of(seats[turn]["character"]) if isinstance(turn, int) and turn < len(seats) else "?"
    win = TW.WINDOWS[st["window"]].zh if st.get("window") in TW.WINDOWS else ""
    if lang == "en":
        win_en = TW.WINDOW_EN.get(st.get("window"), "")
        return (f"counterexample: {who}, {whose}'s turn, {win_en}"
                + (" (see the trace below)" if w.get("trace") else ""))
    return f"反例：{who}，{whose}的回合·{win}" + ("（见下面的经过）" if w.get("trace") else "")

