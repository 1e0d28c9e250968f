"""Helpers shared by the sarif, junit, markdown and html formats.

Every format reads a Report the same way: findings as plain dicts (a ``Finding`` or its ``to_dict`` form —
`diff` may hand either), the rules each finding involves (located, de-duplicated, in the finding's order),
and the sections a `diff` report adds in ``Report.extra``: ``new`` and ``resolved`` finding lists and
``decision_changes``. Nothing here depends on time, the environment or hash order.
"""
from __future__ import annotations

import json

from skillproof.checks.findings import SEVERITIES, SEVERITY_RANK

from .common import witness_lines

SEVERITY_ICON = {"error": "🔴", "warning": "🟠", "note": "🔵"}


def fdict(f) -> dict:
    """A finding as its documented JSON dict (accepts a Finding or a dict already in that form)."""
    if isinstance(f, dict):
        return f
    return f.to_dict()


def rules_of(fd: dict) -> list[dict]:
    """The rules a finding involves, once each (same id, file and line), in the finding's order; a rule
    named twice with different roles keeps the roles joined."""
    out: dict[tuple, dict] = {}
    for r in fd.get("rules") or []:
        key = (r.get("id", ""), r.get("file", ""), r.get("line", 0))
        if key in out:
            role = r.get("role", "")
            if role and role not in out[key].get("role", "").split("; "):
                out[key]["role"] = "; ".join(x for x in (out[key].get("role", ""), role) if x)
            continue
        out[key] = dict(r)
    return list(out.values())


def loc_text(r: dict) -> str:
    """``file:line`` of a rule reference, or '-' when it has no location."""
    return f"{r['file']}:{r.get('line', 0)}" if r.get("file") else "-"


def witness_text(fd: dict, cat=None) -> list[str]:
    """A witness as lines: the designer's scenario when the catalogue is at hand, else compact JSON."""
    w = fd.get("witness")
    if not w:
        return []
    if cat is not None:
        try:
            return witness_lines(cat, w)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass                   # a witness of another catalogue version (diff): fall back to JSON
    return [json.dumps(w, ensure_ascii=False, sort_keys=True)]


def code_info(report, code: str):
    """(family name, Code) of a check code, or (None, None) if the registry does not know it."""
    fam, c = report.codes().get(code, (None, None))
    return (fam.name if fam is not None else None), c


def sev_key(fd: dict):
    return (SEVERITY_RANK.get(fd.get("severity"), 9), fd.get("check", ""), fd.get("id", ""))


def failing_ids(report) -> set:
    return {f.id for f in report.failing()}


def diff_sections(report) -> dict:
    """The sections of a `diff` report, normalised: {"new": [dict], "resolved": [dict],
    "decision_changes": [dict]}; empty lists when the report is not a diff."""
    ex = report.extra or {}
    return {
        "new": sorted((fdict(f) for f in ex.get("new") or []), key=sev_key),
        "resolved": sorted((fdict(f) for f in ex.get("resolved") or []), key=sev_key),
        "decision_changes": [dict(c) if isinstance(c, dict) else dict(vars(c)) for c in
                             ex.get("decision_changes") or []],
    }


def is_diff(report) -> bool:
    ex = report.extra or {}
    return any(k in ex for k in ("new", "resolved", "decision_changes"))


def change_title(c: dict) -> str:
    """One line naming a decision change (uses its message when `diff` gives one)."""
    if c.get("message"):
        return str(c["message"])
    bits = [str(c.get("decision", "decision"))]
    for k in ("rule", "rules", "character", "card", "question"):
        if c.get(k) and not isinstance(c[k], (dict, list)):
            bits.append(str(c[k]))
    return " ".join(bits) + " changed"


def change_sides(c: dict) -> tuple[str, str]:
    """What OLD and NEW decide, as short texts (empty when the change does not say)."""
    def show(v):
        if v is None:
            return ""
        return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)
    return show(c.get("old", c.get("before"))), show(c.get("new", c.get("after")))


def change_rules(c: dict) -> list[dict]:
    """The located rules of a decision change, if it names any."""
    rules = c.get("rules") or []
    return rules_of({"rules": [r if isinstance(r, dict) else fdict(r) for r in rules
                               if isinstance(r, dict) or hasattr(r, "to_dict")]})


def summary_line(report) -> str:
    """`ok`/`FAIL` and the counts, in one line (the text format's summary, without colours)."""
    cnt = report.counts()
    parts = [f"{cnt[s]} {s}{'s' if cnt[s] != 1 else ''}" for s in SEVERITIES]
    extra = []
    if report.inconclusive:
        extra.append(f"{len(report.inconclusive)} inconclusive")
    if report.suppressed:
        extra.append(f"{len(report.suppressed)} suppressed by baseline")
    if report.stale:
        extra.append(f"{len(report.stale)} stale baseline entries")
    status = {0: "ok", 1: "FAIL", 3: "INCONCLUSIVE"}.get(report.exit_code(), "FAIL")
    s = f"{status}: {len(report.findings)} findings ({', '.join(parts)})"
    if extra:
        s += "; " + ", ".join(extra)
    return s + f"; failing at --fail-on={report.fail_on}: {len(report.failing())}"
