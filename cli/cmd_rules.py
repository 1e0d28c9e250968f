"""skillproof rules — what each check finds, why it matters, and a catalogue that triggers it."""
from __future__ import annotations

import sys

NAME = "rules"
HELP = "list the checks, or explain one (like `ruff rule`)"
HELP_ZH = "列出所有检查，或讲解其中一个"


def add_arguments(p):
    from skillproof.helpfmt import metavar
    from skillproof.optvalues import nonempty_file
    from skillproof.model.lang import pick
    p.add_argument("code", nargs="?", metavar=metavar("CODE"),
                   help=pick("检查代码（例如 CV002）或检查族的名字", "a check code (e.g. CV002) or family name"))
    p.add_argument("--write-docs", type=nonempty_file("--write-docs"), metavar=metavar("DIR"),
                   help=pick("把每个检查写成一页 Markdown（另加一个索引页）放进这个文件夹，同 docs/rules/",
                             "write one Markdown page per check (and an index) into DIR, as in docs/rules/"))


def listing(fams, run_codes) -> None:
    """Every family and code, in the run's language: a family's title, each code's severity and one-line title
    (Chinese from reports/i18n.py, English from the registry)."""
    from skillproof.reports.i18n import code_title, family_title, pick, sev
    width = 14 if pick("zh", "en") == "en" else 8

    def sevs(c) -> str:
        return "|".join(sev(x) for x in c.severities)
    for f in fams:
        print(f"{f.name} — {family_title(f.name, f)}")
        for c in f.codes:
            print(f"  {c.code}  {sevs(c):<{width}} {c.name}{pick('：', ': ')}{code_title(c.code, c)}")
    for c in run_codes.values():
        print(f"{c.code}  {sevs(c):<{width}} {c.name}{pick('：', ': ')}{code_title(c.code, c)}")
    print(pick("\n（有两个级别的检查：`skillproof rules 编号` 说明各在什么时候适用）",
               "\n(a code with two severities: `skillproof rules CODE` says when each applies)"))


def family_page(f) -> str:
    """A family's page in the run's language: its title, what it checks (the module's DOC_ZH or docstring) and
    its codes."""
    from skillproof.reports.i18n import code_title, family_doc, family_title, pick
    out = [f"# {f.name} — {family_title(f.name, f)}", "", family_doc(f), ""]
    out += [f"  {c.code}  {c.name}{pick('：', ': ')}{code_title(c.code, c)}" for c in f.codes]
    return "\n".join(out) + "\n"


def code_page(c, fam=None) -> str:
    """A check's page in the run's language (reports.ruledocs.text_page: the text SARIF's help carries too)."""
    from skillproof.reports.ruledocs import text_page
    return text_page(c, fam)


def run(args) -> int:
    from skillproof.checks.registry import RUN_CODES, families
    from skillproof.model.msg import Msg
    if args.write_docs:
        from skillproof.reports import ruledocs
        try:
            written = ruledocs.write(args.write_docs)
        except OSError as e:
            from skillproof.model.errtext import os_reason

            from .exits import error_line
            sys.stderr.write(error_line(Msg("写不了 {p}：{why}", "cannot write {p}: {why}", p=args.write_docs,
                                            why=os_reason(e))) + "\n")
            return 2
        from .cli import printable
        sys.stderr.write(printable(str(Msg("skillproof：{n} 个说明页已写到 {d}", "skillproof: {n} pages written to {d}",
                                           n=len(written), d=args.write_docs))) + "\n")
        return 0
    fams = families()
    if not args.code:
        listing(fams, RUN_CODES)
        return 0
    want = args.code.strip()
    for f in fams:
        if f.name == want:
            sys.stdout.write(family_page(f))
            return 0
        for c in f.codes:
            if c.code.lower() == want.lower() or c.name == want:
                sys.stdout.write(code_page(c, f))
                return 0
    for c in RUN_CODES.values():              # the run's own codes (no family)
        if c.code.lower() == want.lower() or c.name == want:
            sys.stdout.write(code_page(c))
            return 0
    from skillproof.model.names import did_you_mean, nearest, shown
    known = [f.name for f in fams] + [c.code for f in fams for c in f.codes] + list(RUN_CODES)
    hint = nearest(want, known)

    from .exits import error_line
    sys.stderr.write(error_line(Msg("没有检查 '{w}'{dym}", "no check '{w}'{dym}", w=shown(want),
                                    dym=did_you_mean(f"'{hint}'") if hint else "")) + "\n")
    return 2
