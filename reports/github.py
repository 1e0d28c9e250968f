"""GitHub Actions workflow commands: one annotation per finding, on the catalogue line of its first rule.

``::error file=rules/skills.toml,line=228,title=CV002 conversion-vetoed::message`` — GitHub shows each as
an annotation on the pull request's changed lines and in the run's summary, with no upload and no
``security-events`` permission, so it works for pull requests from forks too. Levels follow severities
(error / warning / note → ``error`` / ``warning`` / ``notice``); the message carries the fix hint and the
finding's id. Accepted findings (baseline or inline) and designed behaviour (an [[intent]]'s
``intends``) are not annotated; stale suppressions are warnings at
their line; a `diff` report adds one warning per changed decision. The last line is the summary (plain
text, not a command). GitHub shows at most 10 annotations of each level per step; the rest are in the log.
"""
from __future__ import annotations

from .util import (change_rules, checkout_path, change_sides, change_title, diff_view, fdict, is_possible, possible_kind,
                   rules_of, stale_text, summary_line)

from .i18n import code_title, fix, msg, pick, t

NAME = "github"
DESCRIPTION = "GitHub Actions annotations (workflow commands), for any pull request, forks included"

LEVEL = {"error": "error", "warning": "warning", "note": "notice"}


def _data(s: str) -> str:
    return str(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(s: str) -> str:
    return _data(s).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, file: str = "", line: int = 0, title: str = "") -> str:
    props = []
    if file:
        props.append(f"file={_prop(checkout_path(file).replace(chr(92), '/'))}")
        if line:
            props.append(f"line={int(line)}")
    if title:
        props.append(f"title={_prop(title)}")
    return f"::{level} {','.join(props)}::{_data(message)}" if props else f"::{level}::{_data(message)}"


def _finding(report, fd: dict) -> str:
    rules = [r for r in rules_of(fd) if r.get("file")]
    first = rules[0] if rules else {}
    _fam, code = report.codes().get(fd.get("check", ""), (None, None))
    title = f"{fd.get('check', '')} {pick(code_title(fd.get('check', ''), code), code.name) if code else ''}".strip()
    body = msg(fd)
    if fix(fd):
        body += f"\n{t('fix')}{fix(fd)}"
    others = [f"{r.get('name') or r.get('id')} ({r['file']}:{r.get('line', 0)})" for r in rules[1:]]
    if others:
        body += f"\n{t('rules')}" + pick("；", "; ").join(others)
    body += f"\n[{fd.get('id', '')}]"
    level = "error" if fd.get("inconclusive") else LEVEL.get(fd.get("severity"), "warning")
    return command(level, body, first.get("file", ""), first.get("line", 0), title)


def render(report, cat=None) -> str:
    out = [_finding(report, fdict(f)) for f in report.actionable]      # designed behaviour: not annotated
    view = diff_view(report)
    if view is not None:
        if not view.new_are_findings:
            out += [_finding(report, fd) for fd in view.new]
        for ch in view.changes:
            old, new = change_sides(ch, cat)
            rules = [r for r in change_rules(ch) if r.get("file")]
            first = rules[0] if rules else {}
            out.append(command("notice" if view.allow_changes else "warning",
                               f"{change_title(ch, cat)}\n{t('OLD')}: {old}\n{t('NEW')}: {new}", first.get("file", ""),
                               first.get("line", 0), possible_kind(ch) if is_possible(ch) else t("decision_changed")))
    for e in report.stale:
        what = "inline suppression" if e.get("kind") == "inline" else "baseline entry"
        what_zh = "规则旁的忽略" if e.get("kind") == "inline" else "基线条目"
        out.append(command("warning", stale_text(e), e.get("file", ""), e.get("line", 0),
                           pick(f"过时的{what_zh}", f"stale {what}")))
    out.append(summary_line(report))
    return "\n".join(out) + "\n"
