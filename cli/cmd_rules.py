"""skillproof rules — what each check finds, why it matters, and a catalogue that triggers it."""
from __future__ import annotations

import sys

NAME = "rules"
HELP = "list the checks, or explain one (like `ruff rule`)"


def add_arguments(p):
    p.add_argument("code", nargs="?", help="a check code (e.g. CV002) or family name")


def run(args) -> int:
    from skillproof.checks.registry import INCONCLUSIVE, families
    fams = families()
    if not args.code:
        for f in fams:
            print(f"{f.name} — {f.title}")
            for c in f.codes:
                print(f"  {c.code}  {c.severity:<7} {c.name}: {c.summary}")
        print(f"{INCONCLUSIVE.code}  {INCONCLUSIVE.severity:<7} {INCONCLUSIVE.name}: {INCONCLUSIVE.summary}")
        return 0
    want = args.code.strip()
    for f in fams:
        if f.name == want:
            print(f"# {f.name} — {f.title}\n\n{f.doc}\n")
            for c in f.codes:
                print(f"  {c.code}  {c.name}: {c.summary}")
            return 0
        for c in f.codes:
            if c.code.lower() == want.lower() or c.name == want:
                print(f"# {c.code} {c.name} ({c.severity}, family {f.name})\n")
                print(f"What it finds: {c.summary}.\n")
                print(f"Why it matters: {c.why}.\n")
                if c.example:
                    print("Example catalogue that triggers it:\n")
                    print("\n".join("    " + line for line in c.example.splitlines()))
                return 0
    from skillproof.model.names import nearest, shown
    known = [f.name for f in fams] + [c.code for f in fams for c in f.codes]
    hint = nearest(want, known)
    sys.stderr.write(f"error: no check '{shown(want)}'" + (f" — did you mean '{hint}'?" if hint else "") + "\n")
    return 2
