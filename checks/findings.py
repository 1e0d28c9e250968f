"""Findings: what a check reports, with a meaning-based id, located rules and a replayable witness."""
from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass, field

SEVERITIES = ("error", "warning", "note")
SEVERITY_RANK = {"error": 0, "warning": 1, "note": 2}
#: the name a finding's reference to an [[intent]] carries (intents have ids, no names): reports name it by this
#: word in the run's language and its id (reports.util.ref_name)
INTENT_NAME = "意图"


@dataclass(frozen=True)
class RuleRef:
    id: str
    name: str
    file: str
    line: int
    role: str = ""              # what the rule does in this finding ("vetoes", "is vetoed", …)

    def to_dict(self) -> dict:
        d = {"id": self.id, "name": self.name, "file": self.file, "line": self.line}
        if self.role:
            d["role"] = self.role
        return d


@dataclass
class Finding:
    check: str                  # the code, e.g. "CV002"
    family: str                 # the check family, e.g. "conversion"
    severity: str
    message: str                # one sentence, in the designer's terms (Chinese names)
    key: str                    # what the finding means, independent of file order and lines
    rules: list = field(default_factory=list)      # of RuleRef
    witness: dict | None = None  # {"state": …, "question": …, "expect": …}
    inconclusive: bool = False
    details: dict = field(default_factory=dict)     # extra structured facts (e.g. "falls back to")
    fix: str = ""               # one line: what to change in the catalogue (filled by each family)
    message_en: str = ""        # the same sentence in English (`--lang en`); names stay the catalogue's
    fix_en: str = ""            # the fix hint in English

    def __post_init__(self):
        for sink in _SINKS:
            sink.append(self)

    @property
    def id(self) -> str:
        return f"{self.check}-{hashlib.sha1(self.key.encode('utf-8')).hexdigest()[:10]}"

    def sort_key(self):
        return (SEVERITY_RANK[self.severity], self.check, self.key)

    def to_dict(self) -> dict:
        d = {"id": self.id, "check": self.check, "family": self.family, "severity": self.severity,
             "message": self.message, "rules": [r.to_dict() for r in self.rules],
             "witness": self.witness}
        if self.inconclusive:
            d["inconclusive"] = True
        if self.details:
            d["details"] = self.details
        if self.fix:
            d["fix"] = self.fix
        if self.message_en:
            d["message_en"] = self.message_en
        if self.fix_en:
            d["fix_en"] = self.fix_en
        return d

    def text(self) -> str:
        """The sentence in the run's language (English falls back to the Chinese when a check has none)."""
        from skillproof.model.lang import is_en
        return (self.message_en or self.message) if is_en() else self.message

    def hint(self) -> str:
        """The fix hint in the run's language."""
        from skillproof.model.lang import is_en
        return (self.fix_en or self.fix) if is_en() else self.fix


def site_key(give) -> str:
    """What a gives site means — its giver, grant, receiver and fixed arguments — for finding keys: the
    same site keeps its key when the giver's [[…gives]] tables are reordered (its index would not)."""
    return f"{give.giver}>{give.grant}>{give.to}>{canonical(give.args)}"


_SINKS: list[list] = []


@contextlib.contextmanager
def collected():
    """Every Finding made inside the block, in order: a family stopped half-way (``--time-budget``) still
    reports what it found before it stopped."""
    sink: list = []
    _SINKS.append(sink)
    try:
        yield sink
    finally:
        _SINKS.remove(sink)


def rule_ref(cat, ident: str, role: str = "") -> RuleRef:
    """A located reference to a rule, card or character of the catalogue."""
    for table in (cat.skills, cat.cards, cat.characters):
        if ident in table:
            obj = table[ident]
            return RuleRef(ident, obj.name, obj.loc.file, obj.loc.line, role)
    return RuleRef(ident, ident, "", 0, role)


def canonical(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
