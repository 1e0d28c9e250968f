"""Text: grouped by severity and check, the witness indented under each finding, a summary line.
Colours only when writing to a terminal (and never with NO_COLOR set)."""
from __future__ import annotations

from skillproof.checks.findings import SEVERITIES

from .common import witness_lines
from .util import intended_line, intended_text, lead_with_intents, pass_text

NAME = "text"
DESCRIPTION = "for people at a terminal"

_COL = {"error": "\033[31;1m", "warning": "\033[33;1m", "note": "\033[36m", "dim": "\033[2m", "bold": "\033[1m",
        "reset": "\033[0m"}


def render(report, color: bool = False, cat=None, verbose: bool = True) -> str:
    c = (lambda k: _COL[k]) if color else (lambda k: "")
    codes = report.codes()
    out: list[str] = []
    shown = lead_with_intents(report.findings if report.show_intended else report.actionable)
    for sev in SEVERITIES:
        fs = [f for f in shown if f.severity == sev]
        if not fs:
            continue
        last = None
        for f in fs:
            if f.check != last:
                fam, code = codes.get(f.check, (None, None))
                name = code.name if code else f.check
                out.append(f"{c(sev)}{sev}{c('reset')} {c('bold')}{f.check}{c('reset')} {name}"
                           + (f" — {code.summary}" if code else ""))
                last = f.check
            loc = f"{f.rules[0].file}:{f.rules[0].line}" if f.rules and f.rules[0].file else "-"
            out.append(f"  {loc}: {f.message} {c('dim')}[{f.id}]{c('reset')}")
            it = intended_text(f.to_dict())
            if it:
                out.append(f"      {c('dim')}{it}{c('reset')}")
            elif f.fix:
                out.append(f"      {c('dim')}修正：{c('reset')}{f.fix}")
            others = [r for r in f.rules[1:] if r.file]
            if others:
                out.append(f"      {c('dim')}rules:{c('reset')} " + "; ".join(
                    f"{r.name} ({r.file}:{r.line})" for r in others))
            if verbose and f.witness and cat is not None:
                out.append(f"      {c('dim')}witness:{c('reset')}")
                out.extend(f"        {line}" for line in witness_lines(cat, f.witness))
        out.append("")
    line = intended_line(report)
    if line:
        out.append(f"{c('note')}{line}{c('reset')}")
        out.append("")
    if report.passes:
        out.append(f"{c('bold')}proved intents{c('reset')} ({len(report.passes)}; the rule book's promises the rules keep):")
        out.extend(f"  ✓ {pass_text(p)}" for p in report.passes)
        out.append("")
    diff = report.extra.get("diff") if report.extra else None
    if diff:
        out.extend(_diff_lines(report, diff, c, cat))
    if report.stale:
        from .util import stale_text
        inl = sum(1 for e in report.stale if e.get("kind") == "inline")
        what = ("baseline entries" if not inl else "inline suppressions" if inl == len(report.stale)
                else "baseline entries and inline suppressions")
        out.append(f"{c('warning')}stale {what}{c('reset')} (accepted findings that no longer occur):")
        out.extend(f"  {stale_text(e)}" for e in report.stale)
        out.append("")
    from .util import summary_line
    out.append(summary_line(report))
    return "\n".join(out) + "\n"


def _diff_lines(report, diff, c, cat) -> list[str]:
    from .common import question_line
    out = []
    if diff["changed_rules"]:
        out.append(f"{c('bold')}changed rules{c('reset')}: " + ", ".join(
            f"{r['id']} ({r['change']})" for r in diff["changed_rules"]))
        out.append("")
    for key, title in (("newly_understood", "newly understood (code the extractor now reads; not a rule change)"),
                       ("no_longer_understood", "no longer understood (read in OLD, unknown in NEW)")):
        if diff.get(key):
            out.append(f"{c('bold')}{title}{c('reset')}:")
            out.extend(f"  {u['id']} {u['field']}: {u['base']} → {u['head']}" + (f"  ({u['where']})" if u['where']
                                                                               else "") for u in diff[key])
            out.append("")
    if diff["resolved"]:
        out.append(f"{c('bold')}resolved findings{c('reset')} (in OLD, gone in NEW):")
        out.extend(f"  {f['id']}: {f['message']}" for f in diff["resolved"])
        out.append("")
    from .util import change_witness, is_possible
    decisions = [ch for ch in diff["decision_changes"] if not is_possible(ch)]
    possible = [ch for ch in diff["decision_changes"] if is_possible(ch)]
    if decisions:
        out.append(f"{c('warning')}changed decisions{c('reset')} (a state possible under both versions, answered differently):")
        for ch in decisions:
            where = "; ".join(f"{r['name']} ({r['file']}:{r['line']}, {r['change']})" for r in ch["rules"]) or "-"
            if not ch.get("witness"):                  # an engine rule changed: no witness state, the rule says it
                out.append(f"  {ch['decision']}: {ch.get('message') or ch['question']}")
                out.append(f"      {c('dim')}rules:{c('reset')} {where}")
                continue
            if cat is not None:
                q = question_line(cat, ch["question"], {})
                out.append(f"  {ch['decision']}: {q.rstrip(' ⇒')}")
            else:
                out.append(f"  {ch['decision']}: {ch['question']}")
            out.append(f"      old: {ch['old']}")
            out.append(f"      new: {ch['new']}")
            out.append(f"      {c('dim')}rules:{c('reset')} {where}")
            if cat is not None:
                out.append(f"      {c('dim')}witness:{c('reset')}")
                out.extend(f"        {line}" for line in change_witness(ch, cat))
        out.append("")
    if possible:
        out.append(f"{c('warning')}situations possible in one version only{c('reset')} (what a change makes possible, "
                   "or impossible):")
        for ch in possible:
            where = "; ".join(f"{r['name']} ({r['file']}:{r['line']}, {r['change']})" for r in ch["rules"]) or "-"
            out.append(f"  {ch['message']}")
            out.append(f"      old: {ch['old']}")
            out.append(f"      new: {ch['new']}")
            out.append(f"      {c('dim')}rules:{c('reset')} {where}")
            out.append(f"      {c('dim')}witness:{c('reset')}")
            out.extend(f"        {line}" for line in change_witness(ch, cat))
        out.append("")
    return out
