"""JSON: the documented, stable schema.

{"version": 1, "tool": {...}, "catalogue": {"files": [...]},
 "findings": [{"id", "check", "family", "severity", "message", "rules": [{"id", "name", "file", "line"}],
               "witness": {"state", "question", "expect", "also"?}, "inconclusive"?, "details"?}],
 "suppressed": [{…finding, "reason", "accepted": "baseline" | {"inline": {"file", "line", "rule"}}}],
 "stale": [{"id", "check", "reason", "file", "line", "kind"?: "inline", "rule"?}],
 "passes": [{"intent", "id", "claim", "mode", "source", "text", "severity", "file", "line", "bounds"}],
 "summary": {...}}
Every finding also has "fix": one line saying what to change in the catalogue; a finding an [[intent]]
documents as designed behaviour has ``details.intended_by`` ({"intent", "source", "text", "file", "line"}).
``passes`` are the intents proved (the rule book's promises the rules keep).
"""
from __future__ import annotations

import json

from .util import summary

NAME = "json"
DESCRIPTION = "machine-readable findings (stable schema, sorted keys)"


def document(report) -> dict:
    doc = {
        "version": 1,
        "tool": {"name": "skillproof", "version": report.tool_version},
        "catalogue": {"files": list(report.catalogue_files)},
        "findings": [f.to_dict() for f in report.findings],
        "suppressed": [{**f.to_dict(), "reason": reason,
                        "accepted": ({"inline": report.in_source[f.id]} if f.id in report.in_source else "baseline"),
                        **({"to_review": True} if f.id in report.to_review else {})}
                       for f, reason in report.suppressed],
        "stale": [dict(e) for e in report.stale],
        "passes": [dict(p) for p in report.passes],
        "summary": summary(report),
    }
    if report.extra:
        doc.update(report.extra)
    return doc


def render(report) -> str:
    return json.dumps(document(report), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
