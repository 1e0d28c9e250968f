"""What an answer is: ``Result`` (yes / no / unknown, the witness scenario, the narration, the minimal
reasons) and ``Item``, one tracked constraint of a question."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .syntax import Given, Query

if TYPE_CHECKING:
    from .engine import Engine


@dataclass
class Item:
    """One tracked constraint of a query: a reachability constraint, the subject, a given or the claim."""
    kind: str              # reach | subject | given | claim
    label: str
    rules: tuple
    expr: object
    lit: object = None
    given: Given | None = None


@dataclass
class Result:
    query: Query
    answer: str                         # yes | no | unknown
    headline: str = ""
    witness: dict | None = None         # scenario: {state, question, expect, also}
    witness_role: str = ""              # example | counterexample
    traces: list = field(default_factory=list)
    origin: list = field(default_factory=list)
    because: list = field(default_factory=list)
    core: list = field(default_factory=list)        # Items of the minimal core (for re-checking)
    illustration: dict | None = None    # for 'no': a state where the givens hold but the claim does not
    illustration_traces: list = field(default_factory=list)
    illustration_origin: list = field(default_factory=list)
    values: list = field(default_factory=list)      # which: [{value, name, witness, traces}]
    reason: str = ""
    notes: list = field(default_factory=list)
    bounds: dict = field(default_factory=dict)
    seconds: float = 0.0
    engine: Engine | None = None
    vacuous: bool = False               # a proof that follows from the givens alone (they never hold)
    reading: dict | None = None         # an ambiguous 'play X': the reading taken and the other's answer

    def to_json(self) -> dict:
        d = {"answer": self.answer, "query": self.query.text, "mode": self.query.mode, "headline": self.headline,
             "witness": self.witness, "because": self.because}
        if self.witness is not None:
            d["witness_role"] = self.witness_role
            d["steps"] = [t.to_dict() for t in self.traces]
            d["origin"] = [s.to_dict() for s in self.origin]
        if self.illustration is not None:
            d["illustration"] = self.illustration
            d["illustration_steps"] = [t.to_dict() for t in self.illustration_traces]
            d["illustration_origin"] = [s.to_dict() for s in self.illustration_origin]
        if self.values:
            d["values"] = [{k: v for k, v in x.items() if k not in ("traces", "origin")} |
                           {"steps": [t.to_dict() for t in x.get("traces", [])],
                            "origin": [s.to_dict() for s in x.get("origin", [])]} for x in self.values]
        if self.reason:
            d["reason"] = self.reason
        if self.notes:
            d["notes"] = self.notes
        if self.reading is not None:
            d["reading"] = self.reading
        d["bounds"] = self.bounds
        return d
