"""One documentation page per check (docs/rules/CODE.md), written from the registry — the same text as
`skillproof rules CODE` — and the address SARIF's ``helpUri`` gives for it: the published documentation's
(``skillproof.docs_url()``, from ``[project.urls]`` Documentation) when there is one, else none (SARIF then
carries the page inline, in the run's language)."""
from __future__ import annotations

import os

from skillproof import docs_url
from skillproof.checks.registry import RUN_CODES, families

DOCS_DIR = "docs/rules"


def help_uri(code: str) -> str | None:
    """The address of a check's page (None: the project publishes no documentation yet)."""
    base = docs_url()
    return f"{base.rstrip('/')}/rules/{code}.md" if base else None


def text_page(c, fam=None, indent: str = "    ") -> str:
    """A check's page in the run's language (``fam`` None: a code of the run itself), as `skillproof rules CODE`
    prints it and SARIF's ``help.text`` carries it: severities and family, when its second severity applies,
    what it finds, why it matters, what to do (when it says), the example catalogue as written."""
    from .i18n import family_title, page_text, pick, sev
    sevs = "|".join(sev(x) for x in c.severities)
    where = (pick(f"检查族 {fam.name}「{family_title(fam.name, fam)}」", f"family {fam.name}") if fam is not None
             else pick("运行本身", "the run itself"))
    out = [pick(f"# {c.code} {c.name}（{sevs}，{where}）", f"# {c.code} {c.name} ({sevs}, {where})"), ""]
    if c.also_when:
        out += [pick(f"级别：默认为{sev(c.severity)}；{page_text(c, 'also_when')}。",
                     f"Severity: {c.severity} by default; {page_text(c, 'also_when')}."), ""]
    out += [pick("查什么：", "What it finds: ") + page_text(c, "summary") + pick("。", "."), "",
            pick("为什么重要：", "Why it matters: ") + page_text(c, "why") + pick("。", "."), ""]
    if c.todo:
        out += [pick("怎么办：", "What to do: ") + page_text(c, "todo"), ""]
    if c.example:
        out += [pick("会触发它的目录示例：", "Example catalogue that triggers it:"), ""]
        out += [indent + line for line in c.example.splitlines()] + [""]
    if help_uri(c.code):
        out.append(pick("说明页（英文）：", "More: ") + help_uri(c.code))
    return "\n".join(out).rstrip("\n") + "\n"


def markdown_page(c, fam=None) -> str:
    """The same page as Markdown (SARIF's ``help.markdown``), in the run's language."""
    from .i18n import code_title, family_title, page_text, pick, sev
    out = [f"**{c.code} {c.name}** — {code_title(c.code, c)}", "",
           pick("**级别：**", "**Severity:** ") + " / ".join(sev(x) for x in c.severities)
           + (pick(f"（默认为{sev(c.severity)}；{page_text(c, 'also_when')}）",
                   f" ({c.severity} by default; {page_text(c, 'also_when')})") if c.also_when else "")
           + (pick(f" · **检查族：** {fam.name}「{family_title(fam.name, fam)}」", f" · **Family:** {fam.name} — {fam.title}")
              if fam is not None else ""), "",
           pick("**查什么：**", "**What it finds:** ") + page_text(c, "summary") + pick("。", "."), "",
           pick("**为什么重要：**", "**Why it matters:** ") + page_text(c, "why") + pick("。", "."), ""]
    if c.todo:
        out += [pick("**怎么办：**", "**What to do:** ") + page_text(c, "todo"), ""]
    if c.example:
        out += [pick("会触发它的目录示例：", "Example catalogue that triggers it:"), "", "```toml", c.example, "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def page(code, family=None) -> str:
    sev = "|".join(code.severities)
    out = [f"# {code.code} {code.name}", "",
           f"**Severity:** {sev}" + (f" — {code.severity} by default; {code.also_when}." if code.also_when else "")
           + "  ",
           f"**Family:** {family.name} — {family.title}" if family else
           f"**Family:** ({getattr(code, 'made_by', '') or 'the solver itself'})", "",
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
    out += [f"`skillproof rules {code.code}` prints the same facts" + (
        f"; `skillproof check --select {code.code}` runs only this check." if not getattr(code, "made_by", "") else "."),
        ""]
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
    """Write every page into ``directory``: all of them or none (skillproof.model.signals.write_all); the paths."""
    from skillproof.model.catfiles import make_dirs
    from skillproof.model.signals import write_all
    make_dirs(directory)
    files = [(os.path.join(directory, name), text) for name, text in sorted(pages().items())]
    failed = write_all(files, newline="\n")
    if failed:
        raise failed[1]
    return [path for path, _ in files]
