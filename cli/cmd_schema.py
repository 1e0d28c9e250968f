"""skillproof schema — print the JSON Schema of the catalogue format (for editors' TOML support)."""
from __future__ import annotations

import sys
from importlib import resources

NAME = "schema"
HELP = "print the JSON Schema of the catalogue format"


def add_arguments(p):
    pass


def text() -> str:
    return resources.files("skillproof.model").joinpath("schema.json").read_text(encoding="utf-8")


def run(args) -> int:
    sys.stdout.write(text())
    return 0
