"""The check registry: each family is a small module that registers itself (bandit-style plugins).

A family declares its codes — each documented like a linter rule page: what it finds, why it matters, and
an example catalogue that triggers it — and a ``run(ctx)`` that yields findings.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str
    name: str                   # kebab-case name, e.g. "conversion-vetoed"
    severity: str
    summary: str                # what it finds (one line)
    why: str                    # why it matters
    example: str = ""           # a small catalogue (TOML) that triggers it
    also: tuple = ()            # other severities a finding of this code may have …
    also_when: str = ""         # … and when (documented by `skillproof rules` and the docs pages)
    todo: str = ""              # what to do about a finding, when not the usual (fix the rule or accept it)

    @property
    def severities(self) -> tuple:
        """Every severity a finding of this code can have, the default first."""
        return (self.severity,) + tuple(s for s in self.also if s != self.severity)


@dataclass
class Family:
    name: str
    title: str
    codes: list
    run: object                 # callable(ctx) -> iterable of Finding
    doc: str = ""
    order: int = 50
    lane: int = 0               # families of one lane share a solver; lanes run in parallel

    def code(self, code: str) -> Code:
        return next(c for c in self.codes if c.code == code)


_FAMILIES: dict[str, Family] = {}


def register(name: str, title: str, codes: list, order: int = 50, lane: int = 0):
    """Decorator for a family's ``run(ctx)``."""
    def deco(fn):
        import sys
        mod = sys.modules[fn.__module__]
        _FAMILIES[name] = Family(name, title, codes, fn, (mod.__doc__ or "").strip(), order, lane)
        return fn
    return deco


def families() -> list[Family]:
    """Every registered family, in a stable order (importing the family modules on first use)."""
    from . import families as pkg
    for m in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg.__name__}.{m.name}")
    return sorted(_FAMILIES.values(), key=lambda f: (f.order, f.name))


def all_codes() -> dict[str, tuple[Family, Code]]:
    out = {}
    for f in families():
        for c in f.codes:
            out[c.code] = (f, c)
    return out


INCONCLUSIVE = Code("INC001", "solver-inconclusive", "error",
                    "the solver could not decide a question (unknown or timeout), or --time-budget ran out "
                    "before it was asked",
                    "an undecided question is not a pass: the rules it covers are unverified")
INTERNAL = Code("INT001", "backends-disagree", "error",
                "the z3 encoding and the reference interpreter disagree on a question: the solver's witness does "
                "not replay in the interpreter (a bug in skillproof, not in the catalogue)",
                "the family's answer rests on the encoding; when the interpreter, which defines the rules' meaning, "
                "says otherwise, neither a finding nor a pass can be trusted, so the question is left undecided",
                todo="Report it to skillproof's maintainers with the catalogue and the finding's `details` (the "
                     "question, what the solver claimed and what the interpreter says): they reproduce the "
                     "disagreement and fix the back-end that is wrong. The rest of the family was not asked. The run "
                     "exits 3 (inconclusive) when nothing else fails; an INT001 finding, like INC001, can be neither "
                     "suppressed nor accepted in a baseline, nor documented by an intent.")
#: the codes no family owns: what the run itself reports about questions it could not decide
RUN_CODES = {c.code: c for c in (INCONCLUSIVE, INTERNAL)}
