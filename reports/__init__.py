"""Report formats: each module only formats a Report (bandit's formatters).

A format module has NAME, DESCRIPTION and ``render(report) -> str``; ``FORMATS`` lists them.
"""
from __future__ import annotations

import importlib

FORMATS = ["text", "json", "sarif", "junit", "markdown", "html", "github", "gitlab"]
_MODULES = {"json": "jsonfmt"}


def formatter(name: str):
    """The module rendering format ``name`` (None if that format is not installed)."""
    try:
        return importlib.import_module(f"skillproof.reports.{_MODULES.get(name, name)}")
    except ModuleNotFoundError as e:
        if e.name == f"skillproof.reports.{_MODULES.get(name, name)}":
            return None
        raise


def available() -> list[str]:
    return [f for f in FORMATS if formatter(f) is not None]
