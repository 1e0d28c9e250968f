"""The Report: everything a format needs, computed once, in a stable order.

Reports are deterministic: the same catalogue and options give byte-identical output (no timings, no
absolute paths, sorted keys). Timings go to stderr, never into a report.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from skillproof import __version__
from skillproof.checks.findings import SEVERITIES, SEVERITY_RANK
from skillproof.checks.intents import is_intended as _intended
from skillproof.checks.registry import RUN_CODES, all_codes


@dataclass
class Report:
    findings: list                        # active findings (not suppressed by a baseline), sorted
    catalogue_files: list
    families: list                        # family names that ran
    fail_on: str = "error"
    suppressed: list = field(default_factory=list)   # [(Finding, reason)]
    stale: list = field(default_factory=list)        # baseline entries whose finding no longer exists
    graph: dict | None = None             # the conflict graph (export form), for html
    stats: dict = field(default_factory=dict)        # deterministic counters only
    title: str = "skillproof check"
    extra: dict = field(default_factory=dict)        # e.g. the decision changes of `diff`
    in_source: dict = field(default_factory=dict)    # suppressed finding id -> its inline comment {file, line}
    passes: list = field(default_factory=list)       # proved intents: [{"intent", "claim", "source", "id", …}]
    show_intended: bool = False           # list designed behaviour in full (`check --show intended`)
    show_proved: bool = False             # list the proved intents one by one in the text (`check --show proved`)
    to_review: set = field(default_factory=set)      # ids of suppressed findings whose baseline entry is to review

    @property
    def tool_version(self) -> str:
        return __version__

    def codes(self) -> dict:
        """code -> (Family, Code) for every known check (plus the inconclusive pseudo-check)."""
        out = dict(all_codes())
        for c in RUN_CODES.values():
            out[c.code] = (None, c)
        return out

    def counts(self) -> dict:
        c = {s: 0 for s in SEVERITIES}
        for f in self.findings:
            c[f.severity] += 1
        return c

    def failing(self) -> list:
        """Findings at or above ``fail_on`` — never designed behaviour an intent documents (a note that
        cannot fail a run, even at ``--fail-on note``)."""
        if self.fail_on == "none":
            return []
        lim = SEVERITY_RANK[self.fail_on]
        return [f for f in self.findings if not f.inconclusive and SEVERITY_RANK[f.severity] <= lim
                and not _intended(f)]

    @property
    def intended(self) -> list:
        """Findings an intent documents as designed behaviour (notes, linked to the intent)."""
        return [f for f in self.findings if _intended(f)]

    @property
    def actionable(self) -> list:
        """The findings a designer acts on: everything but designed behaviour."""
        return [f for f in self.findings if not _intended(f)]

    @property
    def inconclusive(self) -> list:
        return [f for f in self.findings if f.inconclusive]

    def exit_code(self) -> int:
        if self.failing():
            return 1
        if self.inconclusive:
            return 3
        return 0

    def summary(self) -> dict:
        by_check: dict = {}
        for f in self.findings:
            by_check[f.check] = by_check.get(f.check, 0) + 1
        inline = sum(1 for e in self.stale if e.get("kind") == "inline")
        return {"total": len(self.findings), "by_severity": self.counts(), "by_check": dict(sorted(by_check.items())),
                "inconclusive": len(self.inconclusive), "suppressed": len(self.suppressed),
                "suppressed_inline": len(self.in_source), "baseline_to_review": len(self.to_review),
                "stale_baseline_entries": len(self.stale) - inline, "stale_inline_suppressions": inline, "fail_on": self.fail_on,
                "failing": len(self.failing()), "exit_code": self.exit_code(),
                "intended": len(self.intended), "intents_proved": len(self.passes), **self.stats}
