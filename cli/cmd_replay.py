"""`skillproof replay FILE`: replay a scenario file through the reference interpreter."""
from __future__ import annotations

import json
import sys

from skillproof.model.lang import pick

from .exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from .helpfmt import metavar

NAME = "replay"
HELP = "replay a scenario file (a saved witness) through the interpreter and compare with what it expects"
DESCRIPTION = """\
Replay a scenario file through the reference interpreter: its trace is run event by event (each event
checked in the window it happens in), every question is answered step by step on the state the trace
reaches, and each answer is compared with the scenario's "expect".

A scenario file is the JSON of a witness — {"trace": {"setup": …, "events": […]}, "question": …,
"expect": …, "also": […]} — as written by `skillproof explain ID --save FILE` or `skillproof ask …
--save FILE`. Edit it (a character, an event, a grant's parameters …) and replay it to see what changes.
Older scenario files hold one state instead of a trace ({"state": …}); they are replayed as untimed states.

Exit codes: 0 every answer as expected; 1 some answer differs, an event of the trace is illegal (or the
older state is not reachable), or a question is not asked at a moment where its decision is taken;
2 bad input (the file or the catalogue, or a value over the limits of docs/catalogue-format.md
§ Limits), reported as FILE:LINE: [path] message; 4 internal error (a bug in skillproof)."""
HELP_ZH = "用解释器重放一个例证文件（保存下来的例证），并与它预期的结果比较"
DESCRIPTION_ZH = """\
用参考解释器重放一个例证文件：逐个事件运行它的轨迹（每个事件都在它发生的时机中检查），在轨迹达到的
局面上逐步回答每个问题，再把每个回答与例证文件中的 "expect" 比较。

例证文件是一个例证的 JSON——{"trace": {"setup": …, "events": […]}, "question": …, "expect": …,
"also": […]}——由 `skillproof explain 编号 --save 文件` 或 `skillproof ask … --save 文件` 写出。
修改它（一个角色、一个事件、一个获得的技能的参数……）再重放，就能看到结果如何变化。
较早的例证文件存的是一个局面而不是轨迹（{"state": …}），它们作为不带时机的局面重放。

退出码：0 每个回答都与预期相同；1 有回答不同、轨迹中有不合规则的事件（或较早的局面不可达），
或有问题没有在作出它的判定的时刻提出；2 输入有误（文件或目录，或某个值超出 docs/catalogue-format.md
规定的上限），报告为 文件:行号: [路径] 说明；4 内部错误（skillproof 自身的缺陷）。"""


def add_arguments(p):
    p.add_argument("file", metavar=metavar("FILE"), help=pick("例证文件（JSON）", "the scenario file (JSON)"))
    from .common import add_catalogue_arg
    add_catalogue_arg(p)
    p.add_argument("--json", action="store_true",
                   help=pick("以 JSON 输出回答和讲述", "answers and narration as JSON"))
    p.add_argument("--brief", action="store_true",
                   help=pick("只给出回答，不给逐步的推理", "answers only, without the step-by-step reasoning"))


def replay(cat, d: dict) -> dict:
    """Replay a validated scenario: the state its trace reaches (or its untimed state), the trace's illegal
    events, and each question's answer, narrated and compared with what the scenario expects."""
    from skillproof.checks import scenario as SC
    from skillproof.model.interp.decide import matches
    from skillproof.model.interp.snapshot import reachable
    from skillproof.model.interp.windows import at_decision
    from skillproof.model import narrate as N
    from skillproof.model.interp import trace as TR
    from skillproof.model.interp.play import run as play_run
    trace = SC.trace_of(d)
    if trace is not None:
        run = play_run(cat, trace)
        st = run.state
        st.trace = trace
        problems = [{"event": k, "reason": why} for k, why in run.errors]
        story = N.story(cat, trace, st)
    else:
        st = SC.state_of(d)
        problems = [{"event": None, "reason": why} for why in reachable(cat, st)]
        story = N.origin(cat, st)
    answers = []
    for q, expect in SC.items(d):
        tr = N.narrate(cat, st, q)
        at = at_decision(st, q.get("decision", ""), q.get("seat", 0))
        match = None if expect is None else matches(tr.answer, expect)
        answers.append({"question": q, "expect": expect, "trace": tr, "matches": match, "at_moment": at})
    ok = not problems and all(a["matches"] is not False and a["at_moment"] for a in answers)
    return {"timed": trace is not None, "state": st, "problems": problems, "story": story, "answers": answers,
            "ok": ok, "ignored_state": trace is not None and "state" in d}


def run(args) -> int:
    from skillproof.checks import scenario as SC

    from .common import load_or_report
    from .common import paths_of
    cat = load_or_report(paths_of(args))
    if cat is None:
        return EXIT_USAGE
    try:
        d = SC.load(args.file, cat)
    except SC.ScenarioErrors as e:
        from .exits import error_line
        for err in e.errors:
            sys.stderr.write(error_line(err) + "\n")
        return EXIT_USAGE
    r = replay(cat, d)
    if args.json:
        out = {"file": args.file, "timed": r["timed"], "legal": not r["problems"], "reachable": not r["problems"],
               "why_not": [p["reason"] for p in r["problems"]], "problems": r["problems"], "ok": r["ok"],
               "state": r["state"].to_dict(), "story": [s.to_dict() for s in r["story"]],
               "answers": [{"question": a["question"], "expect": a["expect"], "answer": a["trace"].answer,
                            "matches": a["matches"], "at_decision_moment": a["at_moment"],
                            "steps": [s.to_dict() for s in a["trace"].steps], "conclusion": a["trace"].conclusion}
                           for a in r["answers"]]}
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
        return EXIT_OK if r["ok"] else EXIT_FINDINGS
    sys.stdout.write("\n".join(text_lines(cat, args, d, r)) + "\n")
    return EXIT_OK if r["ok"] else EXIT_FINDINGS


def text_lines(cat, args, d: dict, r: dict) -> list[str]:
    """The replay told for people, in the run's language."""
    from skillproof.model import narrate as N
    from skillproof.model import turn as TW
    from skillproof.model.lang import pick
    from skillproof.model.names import shown
    from skillproof.reports.common import decision_word

    from .cmd_ask import question_title, state_lines_of, story_lines
    head = pick(f"例证 {shown(args.file, 200)}", f"scenario {shown(args.file, 200)}")
    if d.get("query"):
        head += pick(f"——问题「{shown(d['query'], 200)}」", f" — {shown(d['query'], 200)}")
    if d.get("finding"):
        head += pick(f"——来自 {shown(d['finding'], 80)}", f" — finding {shown(d['finding'], 80)}")
    lines = [head, ""]
    st = r["state"]
    if r["timed"]:
        n = len(d["trace"].get("events", []))
        lines.append(pick(f"经过（{n}个事件），逐步：", f"the trace ({n} event{'s' if n != 1 else ''}), step by step:"))
        lines += story_lines(r["story"])
        if r["ignored_state"]:
            lines.append(pick("  （文件里写的局面被忽略：局面由经过产生）",
                              "  (the file's 'state' is ignored: the state is what the trace makes)"))
        lines += ["", pick("到达的局面：", "the state it reaches:")]
    else:
        lines.append(pick("注意：这个例证没有经过——按不计时的局面重放（同时是每个时刻；游戏能否到达它按旧的快照检查）",
                          "note: this scenario has no trace — replayed as an untimed state (every moment at once; "
                          "whether a game reaches it is the older snapshot check)"))
    lines += state_lines_of(cat, st)
    lines.append("")
    if r["problems"]:
        lines.append(pick("不合法：经过违反了回合的规则：", "ILLEGAL: the trace breaks the rules of the turn:") if r["timed"] else
                     pick("不可达：按这个目录，没有游戏会产生这个局面：",
                          "NOT REACHABLE: no game under this catalogue produces this state:"))
        for p in r["problems"]:
            k = p["event"]
            where = pick("开局的牌桌", "the table at the start") if k == -1 else \
                pick(f"事件{k}", f"event {k}") if k is not None and k < len(d["trace"].get("events", [])) \
                else pick("结尾", "at the end") if k is not None else None
            lines.append(f"  - {where + pick('：', ': ') if where else ''}{p['reason']}")
    elif r["timed"]:
        lines.append(pick("合法：每个事件在其发生的时机都被允许", "legal: every event is allowed in the window it happens in"))
    else:
        lines.append(pick("可达：按这个目录，游戏能产生这个局面", "reachable: a game under this catalogue can produce this state"))
    n_bad = n_moment = 0
    for a in r["answers"]:
        q, expect, tr, match = a["question"], a["expect"], a["trace"], a["matches"]
        lines.append("")
        head = question_title(cat, q)
        got = N.answer_text(cat, tr.answer, list(expect or tr.answer))
        if match is None:
            lines.append(pick(f"{head}：{got}", f"{head}: {got}"))
        elif match:
            lines.append(pick(f"{head}：{got}——与预期一致", f"{head}: {got} — as expected"))
        else:
            n_bad += 1
            want = N.answer_text(cat, expect)
            lines.append(pick(f"{head}：{got}——与预期的{want}不同", f"{head}: {got} — DIFFERS from the expected {want}"))
        if not a["at_moment"]:
            n_moment += 1
            wins, actor = TW.DECISION_WINDOWS[q["decision"]]
            ends = TW.window_name(st.window) if st.window in TW.WINDOWS else (st.window or "")
            lines.append(pick(f"  不在其时机：{decision_word(q['decision'])}在{'、'.join(TW.WINDOWS[w].zh for w in wins)}由"
                              f"{TW.ACTORS[actor][0]}判定；经过结束于{ends}",
                              f"  NOT AT ITS MOMENT: {decision_word(q['decision'])} is decided in "
                              f"{'/'.join(TW.window_name(w) for w in wins)} by {TW.ACTORS[actor][1]}; the trace ends "
                              f"in {ends}"))
        if not args.brief:
            lines += tr.lines("  ")
    lines.append("")
    total = len(r["answers"])
    if r["ok"]:
        lines.append(pick(f"通过：{total}个答案与预期一致", f"ok: {total} answer{'s' if total != 1 else ''} as expected"))
    else:
        parts = []
        if r["problems"]:
            parts.append(pick(f"经过中有{len(r['problems'])}个不合法的事件", f"{len(r['problems'])} illegal event(s) in the trace")
                         if r["timed"] else pick("局面不可达", "the state is not reachable"))
        if n_bad:
            parts.append(pick(f"{total}个答案中有{n_bad}个与例证的预期不同",
                              f"{n_bad} of {total} answers differ from what the scenario expects"))
        if n_moment:
            parts.append(pick(f"{n_moment}个问题不是在其判定时机提出的", f"{n_moment} question(s) not asked at their decision moment"))
        lines.append(pick("失败：" + "；".join(parts), "FAIL: " + "; ".join(parts)))
    return lines
