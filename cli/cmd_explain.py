"""`skillproof explain ID`: the story of one finding of `skillproof check`."""
from __future__ import annotations

import json
import sys

from skillproof.model.lang import pick

from .exits import EXIT_INCONCLUSIVE, EXIT_OK, EXIT_USAGE
from .helpfmt import metavar
from .optvalues import nonempty_file

NAME = "explain"
HELP = "tell the story of a finding: its witness step by step, the rules involved, how to reach it in a game"
DESCRIPTION = """\
Explain one finding of `skillproof check` by its id (e.g. CV002-1a2b3c4d5e): the checks of its family are run
again on the catalogue, and the finding's witness — a trace of game events, each in its turn and window —
is replayed through the reference interpreter: how the situation arises step by step, then the
interpreter's deciding steps, with every rule involved at its catalogue file:line.

  skillproof explain UR004-ccae11561e
  skillproof explain UR004-ccae11561e --save scenario.json    # then: skillproof replay scenario.json

Exit codes: 0 explained; 2 bad input (unknown id, unreadable catalogue); 3 not found while questions of its family
were not decided (raise --timeout); 4 internal error."""
HELP_ZH = "讲述一个问题的来龙去脉：逐步的例证、涉及的规则、在游戏中如何达到"
DESCRIPTION_ZH = """\
按编号（例如 CV002-1a2b3c4d5e）讲解 skillproof check 的一个问题：在目录上重新运行它所属检查族的检查，
再用参考解释器重放这个问题的例证——一条游戏事件的轨迹，每个事件都在它的回合和时机中——先讲局面如何
一步步出现，再讲解释器作出判定的步骤，每条涉及的规则都标出它在目录中的文件:行号。

  skillproof explain UR004-ccae11561e
  skillproof explain UR004-ccae11561e --save scenario.json    # 然后：skillproof replay scenario.json

退出码：0 已讲解；2 输入有误（未知的编号、读不了的目录）；3 没有找到而它的检查族有问题没有判定（加大 --timeout）；
4 内部错误。"""


def add_arguments(p):
    p.add_argument("id", nargs="?", metavar=metavar("ID"),
                   help=pick("skillproof check 输出的问题编号，例如 CV002-1a2b3c4d5e",
                             "a finding id as `skillproof check` prints it, e.g. CV002-1a2b3c4d5e"))
    from .common import add_catalogue_arg
    add_catalogue_arg(p)
    p.add_argument("--save", "--scenario", dest="save", type=nonempty_file("--save"), metavar=metavar("FILE"),
                   help=pick("把例证写成例证文件，供 skillproof replay 重放",
                             "write the witness as a scenario file for `skillproof replay FILE`"))
    p.add_argument("--json", action="store_true",
                   help=pick("以 JSON 输出问题、讲述和它的来历", "the finding, its narration and its origin as JSON"))
    from .cmd_check import add_solver_args
    add_solver_args(p)          # the bounds of `check` (and its configuration): the same bounds, the same witness


def _family_of(code: str):
    from skillproof.checks.registry import RUN_CODES, all_codes
    codes = all_codes()
    if code in codes:
        return codes[code][0], codes[code][1]
    if code in RUN_CODES:
        return None, RUN_CODES[code]
    return None, None


def run(args) -> int:
    from skillproof.checks import context as CX
    from skillproof.checks.registry import all_codes
    from skillproof.model.names import nearest

    from skillproof.model.names import shown

    from skillproof.model.msg import Msg

    from .exits import error_line
    from .common import load_or_report
    if not args.id:
        sys.stderr.write(error_line(Msg("`explain` 需要问题编号，例如 `skillproof explain CV002-1a2b3c4d5e`"
                                        "（`skillproof check` 在方括号里列出每个问题的编号）",
                                        "explain needs a finding id, e.g. `skillproof explain CV002-1a2b3c4d5e` "
                                        "(`skillproof check` prints every finding's id in brackets)")) + "\n")
        return EXIT_USAGE
    ident = shown(args.id.strip(), 40)         # echoed in messages: one line, short
    code = ident.split("-", 1)[0].upper()
    fam, code_info = _family_of(code)
    if code_info is None:
        sug = nearest(code, list(all_codes()))
        sys.stderr.write(error_line(Msg("'{i}' 不是问题编号：没有检查的代码是 '{c}'{zs}（编号形如 'CV002-1a2b3c4d5e'）",
                                        "'{i}' is not a finding id: no check has the code '{c}'{es} (ids look like "
                                        "CV002-1a2b3c4d5e)", i=ident, c=shown(code, 20),
                                        zs=f"——你是不是想写 '{sug}'？" if sug else "",
                                        es=f" — did you mean {sug}?" if sug else "")) + "\n")
        return EXIT_USAGE
    if fam is None:
        sys.stderr.write(error_line(Msg("'{i}' 是无法判定的问题；运行 `skillproof check` 查看它",
                                        "{i} is an inconclusive-question finding; run `skillproof check` to see it",
                                        i=ident)) + "\n")
        return EXIT_USAGE
    from .common import paths_of
    cat = load_or_report(paths_of(args))
    if cat is None:
        return EXIT_USAGE
    from .common import overwrites_input
    if overwrites_input([args.save], cat):
        return EXIT_USAGE
    if args.timeout <= 0:
        sys.stderr.write(error_line(Msg("--timeout 必须是正的秒数，不能是 {t:g}",
                                        "--timeout must be a positive number of seconds, not {t:g}",
                                        t=args.timeout)) + "\n")
        return EXIT_USAGE
    from .cmd_check import options_of, usage_problem
    problem = usage_problem(args)
    if problem:
        sys.stderr.write(error_line(problem) + "\n")
        return EXIT_USAGE
    # only the finding's family is reported; over one shared state the families asked before it in its lane are
    # asked too (checks.context.lane_families), so the witness is the one `check` printed
    result = CX.run(cat, options_of(args, only=(fam.name,)), jobs=max(1, args.jobs))
    finding = next((f for f in result.findings if f.id.lower() == ident.lower()), None)
    if finding is None:
        undecided = sum(1 for f in result.findings if getattr(f, "inconclusive", False))
        if undecided:
            # not found, but not shown absent either: questions that would decide it gave up (--timeout, unknown)
            sys.stderr.write(error_line(Msg(
                "没有找到问题 '{i}'，但它的检查族有 {n} 个问题没有判定（求解器“未知”，或超过 --timeout / --rlimit）：它可能就在"
                "其中；加大 --timeout（或 --rlimit）再试",
                "finding {i} was not found, but {n} question(s) of its family were not decided (solver unknown, or over "
                "--timeout / --rlimit): it may be among them; raise --timeout (or --rlimit) and try again", i=ident,
                n=undecided)) + "\n")
            return EXIT_INCONCLUSIVE
        same = [f.id for f in result.findings if f.check == code]
        near = nearest(ident, same) if same else None
        msg = Msg("这个目录中没有问题 '{i}'", "no finding {i} in this catalogue", i=ident)
        if near:
            msg += Msg("——你是不是想写 '{n}'？", " — did you mean {n}?", n=near)
        elif same:
            listed = ", ".join(same[:6]) + (" …" if len(same) > 6 else "")
            msg += Msg("（{c} 的问题有：{l}）", " (findings of {c}: {l})", c=code, l=listed)
        else:
            msg += Msg("（'{f}' 检查族没有找到 {c} 的问题）", " (the {f} checks found nothing of {c})", f=fam.name, c=code)
        sys.stderr.write(error_line(msg) + "\n")
        return EXIT_USAGE
    story = tell(cat, finding, fam, code_info)
    if args.save:
        if finding.witness is None:
            sys.stderr.write(pick(f"注意：{finding.id} 没有可保存的例证\n", f"note: {finding.id} has no witness scenario to save\n"))
        else:
            from .cmd_ask import scenario_file
            from skillproof.model.signals import write_file
            try:
                write_file(args.save, json.dumps(scenario_file(finding.witness, finding=finding.id), ensure_ascii=False,
                                                 indent=2) + "\n")
            except OSError as e:
                from skillproof.model.errtext import os_reason
                sys.stderr.write(error_line(Msg("写不了 {p}：{why}", "cannot write {p}: {why}", p=args.save,
                                                why=os_reason(e))) + "\n")
                return EXIT_USAGE
    if args.json:
        sys.stdout.write(json.dumps(story["json"], ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(story["lines"]) + "\n")
        if args.save and finding.witness is not None:
            from .cmd_ask import saved_text
            sys.stdout.write("\n" + saved_text(args.save))
    return EXIT_OK


def tell(cat, finding, fam, code) -> dict:
    """The story of a finding, in the run's language: lines of text and the same as JSON (its ids)."""
    from skillproof.checks.context import replay_problems
    from skillproof.model import narrate as N
    from skillproof.model.interp import trace as TR
    from skillproof.model.interp.play import run as play_run
    from skillproof.model.lang import is_en, pick
    from skillproof.model.state import State
    from skillproof.checks.findings import INTENT_NAME
    from skillproof.reports import i18n
    from skillproof.reports.util import ref_name

    from .cmd_ask import question_title, state_lines_of, story_lines
    lines = [f"{finding.id}  {i18n.sev(finding.severity)}  {i18n.code_heading(code.code, code)}", "",
             finding.text(), ""]
    if is_en():
        lines += [f"why it matters: {code.why}", ""]
    elif finding.hint():
        lines += [f"{i18n.t('fix')}{finding.hint()}", ""]
    lines.append(pick("相关规则：", "rules involved:"))
    for r in finding.rules:
        loc = f"  [{r.file}:{r.line}]" if r.file else ""
        name = ref_name(r.name, r.id)            # an intent: the word and its id
        if r.name != INTENT_NAME and r.id and \
                (r.id not in cat.skills and r.id not in cat.cards and r.id not in cat.characters):
            name += f" {r.id}"
        lines.append(f"  - {name}{' — ' + r.role if r.role and is_en() else ''}{loc}")
    js = {"finding": finding.to_dict(), "why": code.why, "summary": code.summary}
    w = finding.witness
    if w is None:
        lines += ["", pick("这个问题没有例证（它关于目录本身）。",
                           "this finding has no witness scenario (it is about the catalogue itself).")]
        return {"lines": lines, "json": js}
    trace = TR.Trace.from_dict(w["trace"]) if "trace" in w else None
    if trace is not None:
        st = play_run(cat, trace).state
        st.trace = trace
    else:
        st = State.from_dict(w["state"])
    problems = replay_problems(cat, w)
    lines += ["", pick("局面（解释器重放：每个答案都与所述一致）：", "the scenario (the interpreter replays it: every answer as "
                                                          "claimed):") if not problems else
              pick("局面（不能重放：", "the scenario (DOES NOT REPLAY: ") + pick("；", "; ").join(problems)
              + pick("）：", "):")]
    lines += state_lines_of(cat, st)
    origin = N.story(cat, trace, st)
    lines += ["", pick("在游戏中如何发生（逐步）：", "how it happens in a game, step by step:") if trace is not None else
              pick("在真实游戏中如何到达：", "how to reach it in a real game:")]
    lines += story_lines(origin)
    lines += ["", pick("解释器的推理（逐步）：", "the interpreter, step by step:")]
    traces = []
    for item in [{"question": w["question"], "expect": w["expect"]}] + w.get("also", []):
        tr = N.narrate(cat, st, item["question"])
        traces.append(tr)
        exp = N.answer_text(cat, item["expect"])
        lines.append(pick(f"  {question_title(cat, item['question'])}——问题所述：{exp}",
                          f"  {question_title(cat, item['question'])} — the finding claims {exp}"))
        lines += tr.lines("    ")
    js.update({"replays": not problems, "problems": problems, "origin": [s.to_dict() for s in origin],
               "trace": w.get("trace"),
               "steps": [t.to_dict() for t in traces]})
    return {"lines": lines, "json": js}
