"""Shared by the quiet-equivalence tests: the gate's comparison of two versions of one small Kotlin file, each read
through ``quiet_source`` first as the gate reads it (``unread.compare`` on the normal forms)."""
from __future__ import annotations

from skillproof.model.extract.quiet_source import quiet_source
from skillproof.model.extract.syntax import _make_parser
from skillproof.model.extract.unread import compare

_P = _make_parser()


def quiet_changes(src: str, before: str, after: str, rel: str = "skill/Cure.kt") -> list:
    """(where, change) of every construct the gate finds changed when ``BODY`` in ``src`` becomes ``after``."""
    a, b = (quiet_source(_P, src.replace("BODY", x).encode()) for x in (before, after))
    return [(c.where, c.change) for c in compare({rel: a}, {rel: b}).changes]
