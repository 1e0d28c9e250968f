"""Helpers shared by the commands: loading a catalogue with located, non-traceback errors."""
from __future__ import annotations

import sys

from .cli import EXIT_USAGE
from .model.loader import CatalogueErrors, load


class UsageError(Exception):
    """Bad input: reported as one line on stderr, exit 2."""


def load_or_report(paths):
    """Load a catalogue; on errors print every one (file:line: [key] message) and return None."""
    try:
        cat = load(paths or None)
    except CatalogueErrors as e:
        report_catalogue_errors(e)
        return None
    from .checks.suppress import problems
    bad = problems(cat)
    for p in bad:
        sys.stderr.write(f"error: {p}\n")
    if bad:
        sys.stderr.write(f"{len(bad)} error{'s' if len(bad) != 1 else ''} in the catalogue; nothing was checked\n")
        return None
    return cat


def report_catalogue_errors(e, what: str = "the catalogue", done: str = "nothing was checked"):
    """Print a catalogue's errors, causes first (a file that cannot be read), and the count."""
    for err in e.errors:
        sys.stderr.write(f"error: {err}\n")
    for line in getattr(e, "folded_lines", lambda: [])():
        sys.stderr.write(f"{line}\n")
    n = len(e.errors)
    sys.stderr.write(f"{n} error{'s' if n != 1 else ''} in {what}; {done}\n")


def write_out(path: str | None, text: str) -> int:
    """Write ``text`` to ``path`` (standard output when None); 0, or 2 after saying why it failed."""
    if not path:
        sys.stdout.write(text)
        return 0
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as e:
        sys.stderr.write(f"error: cannot write {path}: {e.strerror}\n")
        return 2
    return 0


def add_catalogue_arg(p):
    p.add_argument("paths", nargs="*", default=[], metavar="PATH",
                   help="catalogue files or directories (default: the shipped catalogue of the real game)")


__all__ = ["UsageError", "load_or_report", "add_catalogue_arg", "write_out", "EXIT_USAGE"]
