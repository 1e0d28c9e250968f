"""One documentation page per check (docs/rules/CODE.md), written from the registry — the same text as
`skillproof rules CODE` — and the address SARIF's ``helpUri`` gives for it."""
from __future__ import annotations

import os

from skillproof import REPOSITORY
from skillproof.checks.registry import RUN_CODES, families

DOCS_DIR = "docs/rules"


def help_uri(code: str) -> str:
    return f"{REPOSITORY}/blob/main/{DOCS_DIR}/{code}.md"


def page(code, family=None) -> str:
    sev = "|".join(code.severities)
    out = [f"# {code.code} {code.name}", "",
           f"**Severity:** {sev}" + (f" — {code.severity} by default; {code.also_when}." if code.also_when else "")
           + "  ",
           f"**Family:** {family.name} — {family.title}" if family else "**Family:** (the solver itself)", "",
           "## What it finds", "", f"{code.summary[0].upper()}{code.summary[1:]}.", "",
           "## Why it matters", "", f"{code.why[0].upper()}{code.why[1:]}.", ""]
    if code.example:
        out += ["## A catalogue that triggers it", "", "```toml", code.example, "```", ""]
    if code.todo:
        out += ["## What to do", "", code.todo, ""]
    else:
        out += ["## What to do", "",
                "Each finding says, in its `fix` line, what to change in the catalogue. If the finding describes "
                "the intended design (or what the real server does), accept it where the rule is written:", "",
                "```toml", f"# skillproof: ignore[{code.code}] the reason a reviewer can agree with", "[[skill]]",
                'id = "…"', "```", "",
                "or in the baseline (`skillproof baseline`, see docs/ci.md). Both need a reason; an accepted "
                "finding that no longer occurs is reported as stale. When the rule book documents it as designed, "
                f"an `[[intent]]` with `intends = [\"{code.code}\"]` (or `\"{code.code}@RULE\"`) and the rule-book "
                "source turns it into a note linked to that passage (docs/catalogue-format.md).", ""]
    out += [f"`skillproof rules {code.code}` prints the same facts; `skillproof check --select {code.code}` runs "
            f"only this check.", ""]
    return "\n".join(out)


def pages() -> dict[str, str]:
    """{file name: text} for every check, and README.md as the index."""
    out = {}
    index = ["# The checks", "", "One page per check code; `skillproof rules` lists them too.", "",
             "| code | severity | name | finds |", "| --- | --- | --- | --- |"]
    for fam in families():
        for c in fam.codes:
            out[f"{c.code}.md"] = page(c, fam)
            index.append(f"| [{c.code}]({c.code}.md) | {'|'.join(c.severities).replace('|', ' / ')} | {c.name} | "
                         f"{c.summary} |")
    for c in RUN_CODES.values():
        out[f"{c.code}.md"] = page(c)
        index.append(f"| [{c.code}]({c.code}.md) | {c.severity} | {c.name} | {c.summary} |")
    out["README.md"] = "\n".join(index) + "\n"
    return out


def write(directory: str) -> list[str]:
    os.makedirs(directory, exist_ok=True)
    written = []
    for name, text in sorted(pages().items()):
        path = os.path.join(directory, name)
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        written.append(path)
    return written
