"""`skillproof replay FILE`: replay a scenario file through the reference interpreter."""
from __future__ import annotations

import json
import sys

from .cli import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

NAME = "replay"
HELP = "replay a scenario file (a saved witness) through the interpreter and compare with what it expects"
DESCRIPTION = """\
Replay a scenario file through the reference interpreter: the state is checked for reachability, every
question is answered step by step, and each answer is compared with the scenario's "expect".

A scenario file is the JSON of a witness — {"state": …, "question": …, "expect": …, "also": […]} — as
written by `skillproof explain ID --save FILE` or `skillproof ask … --save FILE`. Edit it (a character, a
skill's parameters, the face-up flag …) and replay it to see what changes.

Exit codes: 0 every answer as expected; 1 some answer differs, or the state is not reachable;
2 bad input (the file or the catalogue, or a value over the limits of docs/catalogue-format.md
§ Limits), reported as FILE:LINE: [path] message; 4 internal error (a bug in skillproof)."""


def add_arguments(p):
    p.add_argument("file", metavar="FILE", help="the scenario file (JSON)")
    p.add_argument("paths", nargs="*", default=[], metavar="PATH",
                   help="catalogue files or directories (default: the shipped catalogue)")
    p.add_argument("--json", action="store_true", help="answers and narration as JSON")
    p.add_argument("--brief", action="store_true", help="answers only, without the step-by-step reasoning")


def run(args) -> int:
    from skillproof.checks import scenario as SC
    from skillproof.model import interpreter as I
    from skillproof.model import narrate as N

    from .cmd_ask import question_title, scenario_lines
    from .common import load_or_report
    cat = load_or_report(args.paths)
    if cat is None:
        return EXIT_USAGE
    try:
        d = SC.load(args.file, cat)
    except SC.ScenarioErrors as e:
        for err in e.errors:
            sys.stderr.write(f"error: {err}\n")
        return EXIT_USAGE
    st = SC.state_of(d)
    why = I.reachable(cat, st)
    results = []
    ok = not why
    for q, expect in SC.items(d):
        tr = N.narrate(cat, st, q)
        if expect is None:
            match = None
        else:
            match = I.matches(tr.answer, expect)
            ok = ok and match
        results.append((q, expect, tr, match))
    if args.json:
        out = {"file": args.file, "reachable": not why, "why_not": why, "ok": ok,
               "answers": [{"question": q, "expect": e, "answer": tr.answer, "matches": m,
                            "steps": [s.to_dict() for s in tr.steps], "conclusion": tr.conclusion}
                           for q, e, tr, m in results]}
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
        return EXIT_OK if ok else EXIT_FINDINGS
    from skillproof.model.names import shown
    lines = [f"scenario {shown(args.file, 200)}" + (f" — {shown(d['query'], 200)}" if d.get("query") else "")
             + (f" — finding {shown(d['finding'], 80)}" if d.get("finding") else ""), ""]
    lines += scenario_lines(cat, d)
    lines.append("")
    if why:
        lines.append("NOT REACHABLE: no game under this catalogue produces this state:")
        lines += [f"  - {w}" for w in why]
    else:
        lines.append("reachable: a game under this catalogue can produce this state")
    n_bad = 0
    for q, expect, tr, match in results:
        lines.append("")
        head = question_title(cat, q)
        got = ", ".join(f"{k} = {_show(cat, tr.answer.get(k))}" for k in (expect or tr.answer))
        if match is None:
            lines.append(f"{head}: {got}")
        elif match:
            lines.append(f"{head}: {got} — as expected")
        else:
            n_bad += 1
            want = ", ".join(f"{k} = {_show(cat, v)}" for k, v in expect.items())
            lines.append(f"{head}: {got} — DIFFERS from the expected {want}")
        if not args.brief:
            lines += tr.lines("  ")
    lines.append("")
    if ok:
        lines.append(f"ok: {len(results)} answer{'s' if len(results) != 1 else ''} as expected")
    else:
        parts = []
        if why:
            parts.append("the state is not reachable")
        if n_bad:
            parts.append(f"{n_bad} of {len(results)} answers differ from what the scenario expects")
        lines.append("FAIL: " + "; ".join(parts))
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK if ok else EXIT_FINDINGS


def _show(cat, v) -> str:
    from skillproof.model import narrate as N
    if v is None:
        return "none"
    return N.value(cat, v)
