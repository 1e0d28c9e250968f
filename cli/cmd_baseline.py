"""skillproof baseline — write the current findings as accepted, for a human to give each a reason."""
from __future__ import annotations

import os
import sys

from .common import add_catalogue_arg, load_or_report, write_out

NAME = "baseline"
HELP = "write the current findings as a baseline of accepted findings (each needs a reason)"
DESCRIPTION = """Run every check (as `skillproof check` does) and write one [[accepted]] entry per finding —
its meaning-based id, check, severity, message and rules, and `reason = ""`, which a human must fill in:
`check --baseline FILE` rejects a baseline with an empty reason. Then `check --baseline FILE` hides the
accepted findings, reports new ones and flags stale entries.

If FILE exists, the reasons of findings that still occur are kept, entries of findings that no longer
occur are dropped, and new findings are added with an empty reason (a summary goes to standard error).
TOML by default; JSON when FILE ends in .json. Inconclusive findings are never written (an undecided
question is not a pass).

exit codes: 0 written; 2 bad input or usage (nothing written); 3 written, but some question was
inconclusive and is not in the baseline; 4 internal error."""


def add_arguments(p):
    from .cmd_check import add_solver_args
    add_catalogue_arg(p)
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write the baseline here (default: standard output); an existing FILE keeps its reasons")
    p.add_argument("--select", default="", metavar="CODES",
                   help="only these families or codes, comma-separated (e.g. conversion,BN001)")
    p.add_argument("--ignore", default="", metavar="CODES", help="leave findings of these families or codes out")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress or summary on standard error")
    add_solver_args(p)


def run(args) -> int:
    from skillproof.reports import baseline as B

    from skillproof.model.msg import Msg

    from .cli import error_line
    from .cmd_check import _codes, run_checks, usage_problem
    msg = usage_problem(args)
    if msg:
        sys.stderr.write(error_line(msg) + "\n")
        return 2
    keep = None
    if args.output:
        if os.path.isdir(args.output):
            sys.stderr.write(error_line(Msg("{o} 是一个目录；--output 要写文件名", "{o} is a directory; --output takes a file name",
                                            o=args.output)) + "\n")
            return 2
        if os.path.exists(args.output):
            try:
                keep = B.load(args.output, require_reasons=False)
            except B.BaselineError as e:
                sys.stderr.write(error_line(e) + "\n" + str(Msg("（原有的基线保持不变；修好它，或写到另一个文件）",
                                                               "(the existing baseline is kept as it is; fix it or write "
                                                               "to another file)")) + "\n")
                return 2
    cat = load_or_report(args.paths)
    if cat is None:
        return 2
    result = run_checks(cat, args)
    ign = _codes(args.ignore)
    findings = [f for f in result.findings if f.check not in ign and f.family not in ign]
    from skillproof.checks import suppress
    findings = suppress.apply(cat, findings)[0]          # accepted in the catalogue already
    fmt = "json" if (args.output or "").lower().endswith(".json") else "toml"
    text = B.dumps(findings, fmt, keep)
    if write_out(args.output, text):
        return 2
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
            msg += Msg("；使用前请填上 {e} 条空的理由", "; fill in the {e} empty reason{s} before using it", e=empty,
                       s="s" if empty != 1 else "")
        sys.stderr.write(str(msg) + "\n")
    if n_inc:
        sys.stderr.write(str(Msg("skillproof：{n} 个无法判定的问题没有写进基线（请调高 --timeout）\n",
                                 "skillproof: {n} inconclusive question{s} left out of the baseline (raise --timeout)\n",
                                 n=n_inc, s="s were" if n_inc != 1 else " was")))
        return 3
    return 0
