"""GitLab Code Quality report (``artifacts:reports:codequality``): a JSON array of issues.

Each finding is one issue — ``description`` (the message), ``check_name`` (the code), ``fingerprint``
(the finding's meaning-based id, hashed as GitLab expects, so a finding keeps its identity across
pushes), ``severity`` (error → critical, warning → major, note → info; an inconclusive question →
blocker) and ``location`` (the catalogue file and line of its first rule) — plus ``content.body`` in
Markdown with the fix hint, the other rules and the witness. GitLab shows new and resolved issues in the
merge request widget and on the diff lines. Accepted findings and designed behaviour (an [[intent]]'s
``intends``) are left out. Sorted and deterministic.
"""
from __future__ import annotations

import hashlib
import json

from .util import checkout_path, diff_view, fdict, rules_of, witness_text

NAME = "gitlab"
DESCRIPTION = "GitLab Code Quality report (merge request widget and diff annotations)"

from .i18n import fix, msg, pick, t

SEVERITY = {"error": "critical", "warning": "major", "note": "info"}


def issue(report, fd: dict, cat=None) -> dict:
    rules = [r for r in rules_of(fd) if r.get("file")]
    first = rules[0] if rules else {"file": (report.catalogue_files or ["-"])[0], "line": 1}
    _fam, code = report.codes().get(fd.get("check", ""), (None, None))
    body = []
    if fix(fd):
        body.append(f"**{t('fix').strip()}** {fix(fd)}")
    if len(rules) > 1:
        body.append(f"**{t('rules').strip()}** " + pick("；", "; ").join(f"{r.get('name') or r.get('id')} (`{r['file']}:{r.get('line', 0)}`)"
                                             for r in rules))
    w = witness_text(fd, cat)
    if w:
        body.append(f"**{t('witness')}**\n\n```\n" + "\n".join(w) + "\n```")
    body.append(f"{t('id')}: `{fd.get('id', '')}`")
    return {
        "type": "issue",
        "check_name": fd.get("check", ""),
        "description": f"{fd.get('check', '')}: {msg(fd)}",
        "content": {"body": "\n\n".join(body)},
        "categories": ["Bug Risk"] if fd.get("severity") == "error" else ["Style"],
        "fingerprint": hashlib.md5(fd.get("id", "").encode("utf-8")).hexdigest(),
        "severity": "blocker" if fd.get("inconclusive") else SEVERITY.get(fd.get("severity"), "major"),
        "location": {"path": checkout_path(first["file"]).replace("\\", "/"), "lines": {"begin": max(1, int(first.get("line") or 1))}},
        **({"engine_name": "skillproof"}),
        **({"other_locations": [{"path": checkout_path(r["file"]), "lines": {"begin": max(1, int(r.get("line") or 1))}}
                                for r in rules[1:]]} if len(rules) > 1 else {}),
    }


def _rule_issue(c: dict) -> dict:
    """A rule whose effect, guard or use condition changed (``checks.diff_rules``): an issue at its line."""
    r = (c.get("rules") or [{}])[0]
    return {"type": "issue", "check_name": "rule-changed", "description": f"rule-changed: {msg(c)}",
            "content": {"body": f"{t('id')}: `{c.get('id', '')}`"}, "categories": ["Bug Risk"],
            "fingerprint": hashlib.md5(str(c.get("id", "")).encode("utf-8")).hexdigest(), "severity": "critical",
            "location": {"path": checkout_path(r.get("file") or "-").replace("\\", "/"),
                         "lines": {"begin": max(1, int(r.get("line") or 1))}}, "engine_name": "skillproof"}


def render(report, cat=None) -> str:
    fds = [fdict(f) for f in report.actionable]          # designed behaviour is not a code-quality issue
    view = diff_view(report)
    if view is not None and not view.new_are_findings:
        fds += view.new
    issues = [issue(report, fd, cat) for fd in fds]
    if view is not None and not view.allow_changes:
        issues += [_rule_issue(c) for c in view.changes if c.get("decision") == "rule"]
    issues.sort(key=lambda i: (i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"],
                               i["fingerprint"]))
    return json.dumps(issues, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
