"""What both forms of `skillproof diff` share (the catalogue diff of ``cmd_diff`` and the server gate of
``kotlin_diff``): a finding of one version told with its own catalogue, the inconclusive questions as findings, the
changed ``[rules]`` keys as failing changes, and writing the report with diff's exit code. The layer under both
commands: it imports neither."""
from __future__ import annotations

import dataclasses

from .cmd_check import emit


def _plain(v):
    """An engine rule's value as JSON has it (tuples as lists)."""
    return list(v) if isinstance(v, tuple) else v


def _rule_value(v):
    """A [rules] value as compared and shown: a condition (``send_lock``) as its text."""
    from skillproof.model import expr as E
    return E.to_text(v) if isinstance(v, E.Node) else v


def rules_entries(old, new) -> list:
    """Every ``[rules]`` key whose value differs between two catalogues, as decision changes of the report (the
    engine rule itself changed: no witness needed). Used by the plain catalogue ``diff``."""
    from skillproof.checks.diff_text import both, engine_change
    from skillproof.model.extract.engine import show_value
    out = []
    for f in dataclasses.fields(old.rules):
        if f.name in ("loc", "key_locs"):
            continue
        a, b = _rule_value(getattr(old.rules, f.name)), _rule_value(getattr(new.rules, f.name))
        if a == b:
            continue
        loc = new.rules.at(f.name) or old.rules.at(f.name)
        zh, en = both(engine_change, f.name, a, b)
        out.append({"id": f"engine-{f.name}", "decision": "engine", "message": zh, "message_en": en,
                    "question": {"engine_rule": f.name}, "old": {f.name: show_value(a)},
                    "new": {f.name: show_value(b)}, "values": {"old": _plain(a), "new": _plain(b)}, "key": True,
                    "witness": None,
                    "rules": [{"id": f.name, "name": f.name, "file": loc.file if loc else "",
                               "line": loc.line if loc else 0, "change": "changed"}]})
    return out


def question(f) -> str:
    """What a finding asks, for telling new findings from old ones: its id, but for an INC001 that only says a finding
    could not be realised as a game (``details.finding``) the id of that finding — the same question realised in
    one version and not in the other is neither new nor resolved (the realiser's search, not a rule, differs)."""
    d = getattr(f, "details", None) or {}
    if getattr(f, "check", "") == "INC001" and isinstance(d.get("finding"), str) and d["finding"]:
        return d["finding"]
    return f.id


def told(f, cat) -> dict:
    """A finding of one version as the report lists it, its witness told with that version's catalogue in both
    languages (``witness_lines``: the report's catalogue is NEW's, a resolved finding's witness is OLD's)."""
    from skillproof.model import lang
    from skillproof.reports.common import witness_lines
    d = f.to_dict()
    if f.witness:
        try:
            lines = {}
            for code in lang.LANGS:
                with lang.using(code):
                    lines[code] = witness_lines(cat, f.witness)
            d["witness_lines"] = lines
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass
    return d


def inconclusive_findings(msgs, args=None) -> list:
    """An INC001 finding per question the diff could not decide (``Differ.inconclusive``: (key, Chinese,
    English) each; the key — the English wording of earlier versions — makes the id)."""
    from skillproof.checks.context import give_up_hint
    from skillproof.checks.findings import Finding
    t_ms = max(1, int(args.timeout * 1000)) if args is not None else 20000
    rl = max(0, args.rlimit) if args is not None else 0
    out = []
    for m in msgs:
        key, zh, en = m if isinstance(m, tuple) else (m, m, m)
        out.append(Finding("INC001", "diff", "error", f"无法判定：{zh}", key=f"inconclusive|diff|{key}",
                           inconclusive=True, message_en=f"cannot decide: {en}", fix=give_up_hint(t_ms, rl),
                           fix_en=give_up_hint(t_ms, rl, "en")))
    return out


def finish(report, args, cat, changed: bool) -> int:
    """Write the report; diff's exit code: 1 for failing findings or (without --allow-changes) any change, 3 when
    something was inconclusive, else 0 (2 when the report cannot be written)."""
    rc = emit(report, args, cat)
    if rc:
        return rc
    if report.failing() or (changed and not args.allow_changes):
        return 1
    if report.inconclusive:
        return 3
    return 0
