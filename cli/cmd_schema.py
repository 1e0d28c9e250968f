"""skillproof schema — print the JSON Schema of the catalogue format (for editors' TOML support), or of
the configuration file (`skillproof schema config`)."""
from __future__ import annotations

import json
import sys
from importlib import resources

NAME = "schema"
HELP = "print the JSON Schema of the catalogue format (or `schema config`: of the configuration file)"
HELP_ZH = "输出目录格式的 JSON Schema（或 skillproof schema config：配置文件的）"


def add_arguments(p):
    from .model.lang import pick
    p.add_argument("what", nargs="?", default="catalogue", choices=["catalogue", "config"],
                   metavar="{catalogue,config}",
                   help=pick("catalogue（目录格式，默认）或 config（配置文件：pyproject.toml 中的 [tool.skillproof] "
                             "或 skillproof.toml）",
                             "catalogue (default) or config: [tool.skillproof] in pyproject.toml / skillproof.toml"))


def text() -> str:
    return resources.files("skillproof.model").joinpath("schema.json").read_text(encoding="utf-8")


def run(args) -> int:
    if args.what == "config":
        from .config import schema
        sys.stdout.write(json.dumps(schema(), ensure_ascii=False, indent=2) + "\n")
        return 0
    sys.stdout.write(text())
    return 0
