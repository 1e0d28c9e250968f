"""Text: grouped by severity and check, the witness indented under each finding, a summary line.
Colours only when writing to a terminal (and never with NO_COLOR set)."""
from __future__ import annotations

from skillproof.checks.findings import SEVERITIES

from .common import witness_lines
from .i18n import code_heading, fix, msg, pick, t
from .i18n import sev as sev_word
from .util import change_text, changed_name, intended_line, intended_text, lead_with_intents, pass_text

NAME = "text"
DESCRIPTION = "for people at a terminal"

_COL = {"error": "\033[31;1m", "warning": "\033[33;1m", "note": "\033[36m", "dim": "\033[2m", "bold": "\033[1m",
        "reset": "\033[0m"}


def render(report, color: bool = False, cat=None, verbose: bool = True) -> str:
    c = (lambda k: _COL[k]) if color else (lambda k: "")
    codes = report.codes()
    from .util import summary_line
    out: list[str] = header_lines(report, c) + [""]
    shown = lead_with_intents(report.findings if report.show_intended else report.actionable)
    for sev in SEVERITIES:
        fs = [f for f in shown if f.severity == sev]
        if not fs:
            continue
        last = None
        for f in fs:
            if f.check != last:
                fam, code = codes.get(f.check, (None, None))
                head = code_heading(f.check, code)
                out.append(f"{c(sev)}{sev_word(sev)}{c('reset')} {c('bold')}{f.check}{c('reset')}"
                           f"{head[len(f.check):]}")
                last = f.check
            loc = f"{f.rules[0].file}:{f.rules[0].line}" if f.rules and f.rules[0].file else "-"
            out.append(f"  {loc}: {msg(f)} {c('dim')}[{f.id}]{c('reset')}")
            it = intended_text(f.to_dict())
            if it:
                out.append(f"      {c('dim')}{it}{c('reset')}")
            elif fix(f):
                out.append(f"      {c('dim')}{t('fix')}{c('reset')}{fix(f)}")
            others = [r for r in f.rules[1:] if r.file]
            if others:
                out.append(f"      {c('dim')}{t('rules')}{c('reset')}" + pick("；", "; ").join(
                    f"{r.name} ({r.file}:{r.line})" for r in others))
            if verbose and f.witness and cat is not None:
                out.append(f"      {c('dim')}{t('witness')}{c('reset')}")
                out.extend(f"        {line}" for line in witness_lines(cat, f.witness))
        out.append("")
    line = intended_line(report)
    if line:
        out.append(f"{c('note')}{line}{c('reset')}")
        out.append("")
    if report.passes and report.show_proved:
        out.append(f"{c('bold')}{t('proved_intents')}{c('reset')}" + pick(
            f"（{len(report.passes)} 个；{t('proved_intents_why')}）：", f" ({len(report.passes)}; {t('proved_intents_why')}):"))
        out.extend(f"  ✓ {pass_text(p)}" for p in report.passes)
        out.append("")
    elif report.passes:
        n = len(report.passes)
        out.append(f"{c('bold')}✓ {t('proved_intents')}{c('reset')}" + pick(
            f"：{n} 个（{t('proved_intents_why')}）——`skillproof check --show proved` 逐条列出",
            f": {n} ({t('proved_intents_why')}) — `skillproof check --show proved` lists them"))
        out.append("")
    diff = report.extra.get("diff") if report.extra else None
    if diff:
        out.extend(_diff_lines(report, diff, c, cat))
    review = sorted(getattr(report, "to_review", ()) or ())
    if review:
        out.append(pick(f"{c('warning')}待审的基线条目{c('reset')}（已接受，但还没有理由：写上 reason，再删掉 to_review 那一行）：",
                        f"{c('warning')}baseline entries to review{c('reset')} (accepted, no reason yet: write the "
                        "reason, then delete the to_review line):"))
        out.extend(f"  {fid}" for fid in review)
        out.append("")
    if report.stale:
        from .util import stale_text
        inl = sum(1 for e in report.stale if e.get("kind") == "inline")
        what = ("baseline entries" if not inl else "inline suppressions" if inl == len(report.stale)
                else "baseline entries and inline suppressions")
        what_zh = ("基线条目" if not inl else "规则旁的忽略" if inl == len(report.stale) else "基线条目和规则旁的忽略")
        out.append(pick(f"{c('warning')}过时的{what_zh}{c('reset')}（接受的问题已不再出现）：",
                        f"{c('warning')}stale {what}{c('reset')} (accepted findings that no longer occur):"))
        out.extend(f"  {stale_text(e)}" for e in report.stale)
        out.append("")
    out.append(summary_line(report))
    return "\n".join(out) + "\n"


def header_lines(report, c=lambda k: "") -> list[str]:
    """What the report leads with: which catalogue was checked (its files, or their directory and how many) and
    the summary line (repeated as the report's last line, which CI logs read)."""
    from .util import catalogue_paths, diff_view, summary_line
    files, more = catalogue_paths(report.catalogue_files)
    what = pick("、", ", ").join(files) + more if files else pick("（没有文件）", "(no files)")
    v = diff_view(report)
    if v is not None and (v.old_files or v.new_files):
        old, omore = catalogue_paths(v.old_files)
        new, nmore = catalogue_paths(v.new_files)
        what = pick(f"旧版 {'、'.join(old)}{omore} → 新版 {'、'.join(new)}{nmore}",
                    f"OLD {', '.join(old)}{omore} → NEW {', '.join(new)}{nmore}")
    return [f"{c('bold')}{report.title}{c('reset')}{pick('：', ': ')}{what}", summary_line(report)]


def _diff_lines(report, diff, c, cat) -> list[str]:
    from .common import question_line
    out = []
    if diff["changed_rules"]:
        out.append(f"{c('bold')}{t('changed_rules')}{c('reset')}{pick('：', ': ')}" + pick("，", ", ").join(
            pick(f"{_rule_name(cat, r)}（{change_text(r)}）", f"{_rule_name(cat, r)} ({change_text(r)})")
            for r in diff["changed_rules"]))
        out.append("")
    for key in ("newly_understood", "no_longer_understood"):
        if diff.get(key):
            out.append(f"{c('bold')}{t(key)}{c('reset')}{pick('：', ':')}")
            out.extend(f"  {u['id']} {u['field']}: {u['base']} → {u['head']}" + (f"  ({u['where']})" if u['where']
                                                                               else "") for u in diff[key])
            out.append("")
    if diff["resolved"]:
        out.append(f"{c('bold')}{t('resolved_findings')}{c('reset')}{pick('：', ':')}")
        out.extend(f"  {f['id']}: {msg(f)}" for f in diff["resolved"])
        out.append("")
    from .util import change_sides, change_title, change_witness, is_possible
    decisions = [ch for ch in diff["decision_changes"] if not is_possible(ch)]
    possible = [ch for ch in diff["decision_changes"] if is_possible(ch)]
    if decisions:
        out.append(f"{c('warning')}{t('changed_decisions')}{c('reset')}{pick('：', ':')}")
        for ch in decisions:
            where = _where(ch)
            if not ch.get("witness"):                  # an engine rule changed: no witness state, the rule says it
                title = change_title(ch, cat)
                out.append(f"  {title}" if ch.get("decision") == "engine" and ch.get("message")
                           else f"  {_decision(ch)}{pick('：', ': ')}{title}")
                out.append(f"      {c('dim')}{t('rules')}{c('reset')}{where}")
                continue
            if cat is not None:
                q = question_line(cat, ch["question"], {})
                out.append(f"  {_decision(ch)}{pick('：', ': ')}{q.rstrip(' ⇒')}")
            else:
                out.append(f"  {change_title(ch, None)}")
            old, new = change_sides(ch, cat)
            out.append(f"      {t('old')}{old}")
            out.append(f"      {t('new')}{new}")
            out.append(f"      {c('dim')}{t('rules')}{c('reset')}{where}")
            if cat is not None:
                out.append(f"      {c('dim')}{t('witness')}{c('reset')}")
                out.extend(f"        {line}" for line in change_witness(ch, cat))
        out.append("")
    if possible:
        out.append(f"{c('warning')}{t('possible_one_side')}{c('reset')}{pick('：', ':')}")
        for ch in possible:
            where = _where(ch)
            old, new = change_sides(ch, cat)
            out.append(f"  {change_title(ch, cat)}")
            out.append(f"      {t('old')}{old}")
            out.append(f"      {t('new')}{new}")
            out.append(f"      {c('dim')}{t('rules')}{c('reset')}{where}")
            out.append(f"      {c('dim')}{t('witness')}{c('reset')}")
            out.extend(f"        {line}" for line in change_witness(ch, cat))
        out.append("")
    return out


def _where(ch: dict) -> str:
    """The rules a change involves: ``name (file:line, what changed)`` each."""
    from .util import change_rules
    return pick("；", "; ").join(
        pick(f"{r['name']}（{r['file']}:{r['line']}，{r.get('role', '')}）",
             f"{r['name']} ({r['file']}:{r['line']}, {r.get('role', '')})") for r in change_rules(ch)) or "-"


def _rule_name(cat, r: dict) -> str:
    """A changed rule by its name (``changed_rules`` carries it; else the catalogue's, else the id)."""
    if r.get("name"):
        return changed_name(r)
    if cat is not None:
        try:
            return cat.name_of(r["id"])
        except (KeyError, AttributeError):
            pass
    return r["id"]


def _decision(ch: dict) -> str:
    from .common import decision_word
    return decision_word(ch.get("decision", ""))
