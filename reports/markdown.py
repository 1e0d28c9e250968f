"""Markdown for a pull-request comment (GitHub / GitLab flavoured): a status line, then one compact table
row per finding that needs action — severity, check, message, the rules with file:line — with the witness
folded in a ``<details>`` in the row; designed behaviour (findings an [[intent]] documents as intended) in
one line (listed with ``--show intended``), and the proved intents folded in a list. Findings accepted in the baseline fold into one section with their reasons;
stale baseline entries are listed. A `diff` report starts with the changed decisions and the new and
resolved findings. The comment stays under GitHub's 65,536-character limit: witnesses are dropped first
(notes, then warnings, then all), then rows, and the comment says so.
"""
from __future__ import annotations

import html

from .util import (SEVERITY_ICON, accepted_reason, catalogue_paths, intended_line, intended_text, lead_with_intents, change_rules, change_sides, change_title, change_witness,
                   change_text, changed_name, code_info, diff_view, exit_code, fdict, loc_text, rules_of, summary_line,
                   witness_text)

from .i18n import code_title, fix, is_en, msg, pick, t
from .i18n import sev as sev_word

NAME = "markdown"
DESCRIPTION = "a compact table for a pull-request comment"

LIMIT = 60_000          # GitHub rejects comments over 65,536 characters; keep a margin for a bot's header


def cell(s) -> str:
    """Text safe inside a GFM table cell (and as HTML): escaped, one line, no pipes."""
    s = html.escape(str(s), quote=False)
    for ch in ("\\", "`", "*", "_", "[", "]"):
        s = s.replace(ch, "\\" + ch)
    return s.replace("|", "&#124;").replace("\r", "").replace("\n", "<br>")


def code_span(s) -> str:
    return f"<code>{html.escape(str(s), quote=False).replace('|', '&#124;')}</code>"


def _rules_cell(rules) -> str:
    return "<br>".join(f"{cell(r.get('name') or r.get('id'))} {code_span(loc_text(r))}" for r in rules) or "—"


def _witness_cell(fd, cat) -> str:
    lines = witness_text(fd, cat)
    if not lines:
        return "—"
    body = "<br>".join(cell(x) for x in lines)
    return f"<details><summary>{pick('例证', 'witness')}</summary>{body}</details>"


def _check_cell(report, code) -> str:
    _fam, c = code_info(report, code)
    return f"{code_span(code)} {cell(code_title(code, c) if not is_en() else c.name)}" if c else code_span(code)


def _fix(fd) -> str:
    return f"<br>{t('fix')}{cell(fix(fd))}" if fix(fd) else ""


def _intended(fd) -> str:
    t = intended_text(fd)
    return f"<br><i>{cell(t)}</i>" if t else ""


def _finding_rows(report, fds, cat, witnesses) -> list[str]:
    out = [pick("| | 检查 | 问题 | 规则 | 例证 |", "| | Check | Finding | Rules | Witness |"), "| --- | --- | --- | --- | --- |"]
    for fd in fds:
        sev = fd.get("severity", "")
        tag = t("inconclusive") if fd.get("inconclusive") else sev_word(sev)
        w = _witness_cell(fd, cat) if witnesses(fd) else "—"
        out.append(f"| {SEVERITY_ICON.get(sev, '')} {tag} | {_check_cell(report, fd.get('check', ''))} | "
                   f"{cell(msg(fd))}{_fix(fd)}{_intended(fd)}<br><sub>{code_span(fd.get('id', ''))}</sub> | "
                   f"{_rules_cell(rules_of(fd))} | {w} |")
    return out


def _change_row(ch, cat, witnesses) -> str:
    old, new = change_sides(ch, cat)
    wl = change_witness(ch, cat) if witnesses({"severity": "warning"}) else []
    wc = f"<details><summary>{pick('例证', 'witness')}</summary>{'<br>'.join(cell(x) for x in wl)}</details>" if wl else "—"
    return (f"| {cell(change_title(ch, cat))} | {cell(old) or '—'} | {cell(new) or '—'} | "
            f"{_rules_cell(change_rules(ch))} | {wc} |")


def _render(report, cat, witnesses, max_rows) -> str:
    out: list[str] = []
    rc = exit_code(report)
    status = (pick("❌ 未通过", "❌ failing") if rc == 1 else
              (pick("⚠️ 无法判定", "⚠️ inconclusive") if rc == 3 else pick("✅ 通过", "✅ passing")))
    out.append(f"## {cell(report.title)}: {status}")
    out.append("")
    out.append(cell(summary_line(report)))
    out.append("")
    cut = 0
    view = diff_view(report)
    if view is not None:
        if view.old_files or view.new_files:
            out.append(f"{t('OLD')}: {', '.join(code_span(f) for f in view.old_files) or '—'}<br>"
                       f"{t('NEW')}: {', '.join(code_span(f) for f in view.new_files) or '—'}")
            out.append("")
        if view.changed_rules:
            out.append(pick("改动的规则：", "Rules changed: ") + pick("，", ", ").join(
                cell(pick(f"{changed_name(r)}（{change_text(r)}）", f"{changed_name(r)} ({change_text(r)})"))
                for r in view.changed_rules))
            out.append("")
        nu = ((report.extra or {}).get("diff") or {}).get("newly_understood") or []
        if nu:                                     # `diff --kotlin`: code the extractor now reads (not a change)
            out.append(pick("新读懂的代码（不是规则改动）：", "Newly understood (not a rule change): ") + ", ".join(
                f"{code_span(u.get('id', ''))} {cell(u.get('field', ''))}" for u in nu))
            out.append("")
        allowed = pick("——`--allow-changes` 允许", " — allowed by `--allow-changes`") if view.changes and view.allow_changes else ""
        out.append(f"### {pick('改变的判定', 'Decisions changed')} ({len(view.decisions)}){allowed if view.decisions else ''}")
        out.append("")
        if view.decisions:
            out += [pick("| 判定 | 旧版 | 新版 | 规则 | 例证 |", "| Decision | OLD | NEW | Rules | Witness |"), "| --- | --- | --- | --- | --- |"]
            out += [_change_row(ch, cat, witnesses) for ch in view.decisions]
        else:
            out.append(pick("没有判定改变。", "No decision changed."))
        out.append("")
        if view.possible:
            out.append(f"### {pick('只在一个版本中可能的局面', 'Situations possible in one version only')} ({len(view.possible)}){allowed}")
            out.append("")
            out += [pick("| 局面 | 旧版 | 新版 | 规则 | 例证 |", "| Situation | OLD | NEW | Rules | Witness |"), "| --- | --- | --- | --- | --- |"]
            out += [_change_row(ch, cat, witnesses) for ch in view.possible]
            out.append("")
        if not view.new_are_findings:
            out.append(f"### {pick('新问题', 'New findings')} ({len(view.new)})")
            out.append("")
            out += _finding_rows(report, view.new, cat, witnesses) if view.new else [pick("无。", "None.")]
            out.append("")
    fds = [fdict(f) for f in lead_with_intents(report.findings if report.show_intended else report.actionable)]
    title = pick("新问题", "New findings") if view is not None and view.new_are_findings else pick("问题", "Findings")
    out.append(f"### {title} ({len(fds)})")
    out.append("")
    if fds:
        shown = fds if max_rows is None else fds[:max_rows]
        cut = len(fds) - len(shown)
        out += _finding_rows(report, shown, cat, witnesses)
        if cut:
            out += ["", pick(f"……还有 {cut} 个问题没有列出：评论会太长（见完整报告）。",
                             f"… and {cut} more finding{'s' if cut != 1 else ''} not shown: the comment would be too "
                             "long (see the full report).")]
    else:
        out.append(pick("没有问题。", "No findings."))
    out.append("")
    line = intended_line(report)
    if line:
        out.append(f"🔵 {cell(line)}")
        out.append("")
    if report.passes:
        n = len(report.passes)
        out.append(pick(f"<details><summary>✅ {n} 个意图已证明：规则遵守的规则书承诺</summary>",
                        f"<details><summary>✅ {n} intent{'s' if n != 1 else ''} proved: the rule book's promises the "
                        f"rules keep</summary>"))
        out.append("")
        out += [f"- ✅ {code_span(p.get('intent', ''))} {cell(p.get('text') or p.get('claim', ''))} "
                f"<sub>{cell(p.get('source', ''))}</sub>" for p in report.passes]
        out.append("")
        out.append("</details>")
        out.append("")
    if view is not None:
        out.append(f"### {pick('已解决的问题', 'Resolved findings')} ({len(view.resolved)})")
        out.append("")
        out += _finding_rows(report, view.resolved, None, lambda fd: False) if view.resolved else [pick("无。", "None.")]
        out.append("")
    if report.suppressed:
        n = len(report.suppressed)
        inline = len(report.in_source)
        where = ("in the baseline" if not inline else "inline" if inline == n else "in the baseline or inline")
        where_zh = ("基线中" if not inline else "规则旁" if inline == n else "基线中或规则旁")
        out.append(pick(f"<details><summary>{n} 个问题已在{where_zh}接受</summary>",
                        f"<details><summary>{n} finding{'s' if n != 1 else ''} accepted {where}</summary>"))
        out.append("")
        out += [pick("| | 检查 | 问题 | 理由 |", "| | Check | Finding | Reason |"), "| --- | --- | --- | --- |"]
        for f, reason in report.suppressed:
            fd = fdict(f)
            w = report.in_source.get(fd.get("id"))
            at = f" ({code_span(w['file'] + ':' + str(w['line']))})" if w else ""
            out.append(f"| {SEVERITY_ICON.get(fd.get('severity'), '')} {sev_word(fd.get('severity', ''))} | "
                       f"{_check_cell(report, fd.get('check', ''))} | {cell(msg(fd))}<br>"
                       f"<sub>{code_span(fd.get('id', ''))}</sub> | {cell(accepted_reason(report, fd.get('id', ''), reason))}{at} |")
        out.append("")
        out.append("</details>")
        out.append("")
    if report.stale:
        inl = sum(1 for e in report.stale if e.get("kind") == "inline")
        what = ("baseline entries" if not inl else "inline suppressions" if inl == len(report.stale)
                else "baseline entries and inline suppressions")
        what_zh = ("基线条目" if not inl else "规则旁的忽略" if inl == len(report.stale) else "基线条目和规则旁的忽略")
        out.append(pick(f"### 过时的{what_zh} ({len(report.stale)})", f"### Stale {what} ({len(report.stale)})"))
        out.append("")
        out.append(pick("接受的问题已不再出现——删掉这些：", "Accepted findings that no longer occur — delete these "
                   + ("entries from the baseline:" if not inl else "comments:" if inl == len(report.stale)
                      else "entries and comments:")))
        out.append("")
        for e in report.stale:
            at = f" ({code_span(str(e['file']) + ':' + str(e.get('line', 0)))})" if e.get("file") else ""
            kind = pick("规则旁 ", "inline ") if e.get("kind") == "inline" else ""
            out.append(f"- {kind}{code_span(e.get('id', ''))}{at}: {cell(e.get('reason', ''))}")
        out.append("")
    shown, more = catalogue_paths(report.catalogue_files)
    files = ", ".join(code_span(f) for f in shown) + more
    out.append(f"<sub>skillproof {cell(report.tool_version)} · {t('catalogue')}: {files or '—'}</sub>")
    return "\n".join(out) + "\n"


def render(report, cat=None) -> str:
    from skillproof.checks.findings import SEVERITY_RANK
    tries = [lambda fd: True,
             lambda fd: SEVERITY_RANK.get(fd.get("severity"), 9) <= SEVERITY_RANK["warning"],
             lambda fd: SEVERITY_RANK.get(fd.get("severity"), 9) <= SEVERITY_RANK["error"],
             lambda fd: False]
    for w in tries:
        text = _render(report, cat, w, None)
        if len(text) <= LIMIT:
            return text
    lo, hi = 0, len(report.findings)       # then the most rows that fit (binary search)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(_render(report, cat, tries[-1], mid)) <= LIMIT:
            lo = mid
        else:
            hi = mid - 1
    return _render(report, cat, tries[-1], lo)
