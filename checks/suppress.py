"""Applying inline suppressions (``# skillproof: ignore[CODE] reason`` in the catalogue, read by
``model/suppress.py``): a finding is accepted when a comment next to the table of one of its rules names
its check code or its id. Inconclusive findings are never accepted. A comment code that accepts nothing
(while its check ran) is stale, and reported as baseline entries are."""
from __future__ import annotations

from .registry import INCONCLUSIVE, RUN_CODES, all_codes


def problems(cat) -> list:
    """``file:line: [skillproof: ignore] message`` for every comment naming a check that does not exist
    (messages in both languages: model.msg)."""
    from skillproof.model.loader import CatalogueError
    from skillproof.model.msg import Msg
    from skillproof.model.names import did_you_mean, nearest
    codes = set(all_codes())
    out = []
    key = "skillproof: ignore"
    for s in cat.suppressions:
        for c in s.codes:
            code = c.split("-", 1)[0]
            if code in RUN_CODES:
                out.append(CatalogueError(s.file, s.line, key, Msg(
                               "无法判定的问题不能被接受（它不是通过）：{zh}",
                               "an inconclusive question cannot be accepted (it is not a pass): {en}",
                               zh="请调高 --timeout" if code == INCONCLUSIVE.code else "请把这个不一致报告给 skillproof",
                               en="raise --timeout instead" if code == INCONCLUSIVE.code
                               else "report the disagreement to skillproof")))
            elif code not in codes:
                hint = nearest(code, codes)
                out.append(CatalogueError(s.file, s.line, key, Msg("未知的检查 '{c}'{dym}", "unknown check '{c}'{dym}", c=code,
                                                                   dym=did_you_mean(f"'{hint}'") if hint else "")))
    return out


def apply(cat, findings, ran=None):
    """(active findings, suppressed [(Finding, reason)], where {finding id: {"file", "line"}}, stale [dict]).

    ``ran`` names the families or codes that ran (None: all): comments for checks that did not run are
    neither matched nor stale."""
    used: set = set()
    active, suppressed, where = [], [], {}
    for f in findings:
        hit = None
        if not f.inconclusive:
            rules = {r.id for r in f.rules}
            for s in cat.suppressions:
                if s.rule not in rules:
                    continue
                c = next((c for c in s.codes if c == f.check or c.lower() == f.id.lower()), None)
                if c is not None:
                    hit = s
                    used.add((s.file, s.line, c))
                    break
        if hit is None:
            active.append(f)
        else:
            suppressed.append((f, hit.reason))
            where[f.id] = {"file": hit.file, "line": hit.line, "rule": hit.rule}
    fam_of = {c: fam.name for c, (fam, _) in all_codes().items()}
    scope = set(ran) if ran else None
    stale = []
    for s in cat.suppressions:
        for c in s.codes:
            code = c.split("-", 1)[0]
            if (s.file, s.line, c) in used:
                continue
            if scope is not None and code not in scope and fam_of.get(code) not in scope:
                continue
            stale.append({"id": c, "check": code, "reason": s.reason, "file": s.file, "line": s.line,
                          "kind": "inline", "rule": s.rule})
    stale.sort(key=lambda d: (d["file"], d["line"], d["id"]))
    return active, suppressed, where, stale
