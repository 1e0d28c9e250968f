"""skillproof baseline — write the current findings as accepted, for a human to give each a reason."""
from __future__ import annotations

import os
import sys

from .optvalues import nonempty_file
from skillproof.model.lang import pick

from .common import add_catalogue_arg, load_or_report, write_out
from .helpfmt import metavar

NAME = "baseline"
HELP = "write the current findings as a baseline of accepted findings (each needs a reason)"
DESCRIPTION = """Run every check (as `skillproof check` does) and write one [[accepted]] entry per finding —
its meaning-based id, check, severity, message and rules, `reason = ""` and `to_review = true`: accepted, so
`check --baseline FILE` runs, and flagged as to review in every report until a human writes the reason and
deletes the to_review line. Then `check --baseline FILE` hides the accepted findings, reports new ones and
flags stale entries.

If FILE exists, it is rewritten in place: its comments and layout stay, the reasons of findings that still
occur are kept, entries of findings that no longer occur are removed (with the comments right above them),
and new findings are added to review (a summary goes to standard error). TOML by default; JSON when FILE
ends in .json. Inconclusive findings are never written (an undecided
question is not a pass).

exit codes: 0 written; 2 bad input or usage (nothing written); 3 written, but some question was
inconclusive and is not in the baseline; 4 internal error."""
HELP_ZH = "把当前的问题写成已接受问题的基线（每一条都需要填写理由）"
DESCRIPTION_ZH = """\
运行每个检查（同 skillproof check），为每个问题写一个 [[accepted]] 条目——它按含义得出的编号、检查、
级别、说明和相关规则，以及 `reason = ""` 和 `to_review = true`：已接受，所以 skillproof check --baseline 文件
能照常运行，但在每种报告里都标为待审，直到有人写上理由并删掉 `to_review` 那一行。之后 skillproof check
--baseline 文件 隐藏已接受的问题，报告新问题，并标出过时的条目。

文件已存在时就地改写：文件的注释和排版保持不变，仍然出现的问题保留原来的理由，不再出现的问题的条目
（连同紧挨在它上面的注释）被删除，新问题作为待审条目加入（摘要写到标准错误）。默认写 TOML；文件名以
.json 结尾时写 JSON。无法判定的问题从不写入
（没有判定的问题不算通过）。

退出码：0 已写入；2 输入或用法有误（什么也没有写）；3 已写入，但有问题无法判定，没有写进基线；
4 内部错误。"""


def add_arguments(p):
    from .cmd_check import add_solver_args
    add_catalogue_arg(p)
    p.add_argument("--output", "-o", type=nonempty_file("--output"), metavar=metavar("FILE"),
                   help=pick("把基线写到这个文件（默认：标准输出）；已有的文件保留其中的理由",
                             "write the baseline here (default: standard output); an existing FILE keeps its reasons"))
    p.add_argument("--select", default="", metavar=metavar("CODES"),
                   help=pick("只运行这些检查族或代码，用逗号分隔（例如 conversion,BN001）",
                             "only these families or codes, comma-separated (e.g. conversion,BN001)"))
    p.add_argument("--ignore", default="", metavar=metavar("CODES"),
                   help=pick("不写这些检查族或代码的问题", "leave findings of these families or codes out"))
    p.add_argument("--quiet", "-q", action="store_true",
                   help=pick("标准错误上不显示进度和摘要", "no progress or summary on standard error"))
    add_solver_args(p)


def run(args) -> int:
    from skillproof.reports import baseline as B

    from skillproof.model.msg import Msg

    from .exits import error_line
    from .cmd_check import _codes, run_checks, usage_problem
    msg = usage_problem(args)
    if msg:
        sys.stderr.write(error_line(msg) + "\n")
        return 2
    keep = keep_text = None
    if args.output:
        if os.path.isdir(args.output):
            sys.stderr.write(error_line(Msg("{o} 是一个目录；--output 要写文件名", "{o} is a directory; --output takes a file name",
                                            o=args.output)) + "\n")
            return 2
        if os.path.isfile(args.output):         # an existing baseline is refreshed; a device or FIFO only written
            try:
                keep = B.load(args.output, require_reasons=False)
                if not args.output.lower().endswith(".json"):
                    with open(args.output, encoding="utf-8") as fh:
                        keep_text = fh.read()
            except B.BaselineError as e:
                sys.stderr.write(error_line(e) + "\n" + str(Msg("（原有的基线保持不变；修好它，或写到另一个文件）",
                                                               "(the existing baseline is kept as it is; fix it or write "
                                                               "to another file)")) + "\n")
                return 2
    from .common import paths_of
    cat = load_or_report(paths_of(args))
    if cat is None:
        return 2
    from .common import empty_catalogue
    if empty_catalogue(cat):
        return 2
    result = run_checks(cat, args)
    ign = _codes(args.ignore)
    findings = [f for f in result.findings if f.check not in ign and f.family not in ign]
    from skillproof.checks import suppress
    findings = suppress.apply(cat, findings)[0]          # accepted in the catalogue already
    from skillproof.checks.intents import is_intended
    findings = [f for f in findings if not is_intended(f)]   # designed behaviour: accepted by its [[intent]]
    fmt = "json" if (args.output or "").lower().endswith(".json") else "toml"
    text = B.dumps(findings, fmt, keep, keep_text)
    if write_out(args.output, text):
        return 2
    from .cmd_check import say_time
    say_time(result, args)
    n_inc = sum(1 for f in findings if f.inconclusive)
    accepted = [f for f in findings if not f.inconclusive]
    if not args.quiet:
        where = Msg("{o}", "{o}", o=args.output) if args.output else Msg("标准输出", "standard output")
        n = len(accepted)
        msg = Msg("skillproof：{n} 个问题已写到{w}", "skillproof: {n} finding{s} written to {w}", n=n,
                  s="s" if n != 1 else "", w=where)
        if keep is not None:
            ids = {f.id for f in accepted}
            kept = sum(1 for e in keep.entries if e.id in ids and e.reason.strip())
            dropped = sum(1 for e in keep.entries if e.id not in ids)
            added = sum(1 for f in accepted if f.id not in keep.by_id())
            msg += Msg("（保留 {k} 条理由，新增 {a} 个，去掉 {d} 个不再出现的）",
                       " ({k} reasons kept, {a} new, {d} no longer occurring dropped)", k=kept, a=added, d=dropped)
        empty = sum(1 for f in accepted if keep is None or f.id not in keep.by_id()
                    or not keep.by_id()[f.id].reason.strip())
        if empty:
            msg += Msg("；{e} 条标为待审（`to_review = true`）：写上理由后删掉那一行",
                       "; {e} marked to review (`to_review = true`): write the reason{s}, then delete that line",
                       e=empty, s="s" if empty != 1 else "")
        sys.stderr.write(str(msg) + "\n")
    if n_inc:
        sys.stderr.write(str(Msg("skillproof：{n} 个无法判定的问题没有写进基线（请调高 --timeout）\n",
                                 "skillproof: {n} inconclusive question{s} left out of the baseline (raise --timeout)\n",
                                 n=n_inc, s="s were" if n_inc != 1 else " was")))
        return 3
    return 0
