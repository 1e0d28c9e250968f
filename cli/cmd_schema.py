"""skillproof schema — print the JSON Schema of the catalogue format (for editors' TOML support), or of
the configuration file (`skillproof schema config`)."""
from __future__ import annotations

import json
import sys
from importlib import resources

NAME = "schema"
HELP = "print the JSON Schema of the catalogue format (or `schema config`: of the configuration file)"


def add_arguments(p):
    p.add_argument("what", nargs="?", default="catalogue", choices=["catalogue", "config"],
                   help="catalogue (default) or config: [tool.skillproof] in pyproject.toml / skillproof.toml")


def text() -> str:
    return resources.files("skillproof.model").joinpath("schema.json").read_text(encoding="utf-8")


def run(args) -> int:
    if args.what == "config":
        from .config import schema
        sys.stdout.write(json.dumps(schema(), ensure_ascii=False, indent=2) + "\n")
        return 0
    sys.stdout.write(text())
    return 0
