"""`skillproof extract`: build a catalogue from the game server's Kotlin source, or compare one with it."""
from __future__ import annotations

import sys
from pathlib import Path

from .cli import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from .common import load_or_report
from .model.extract import ExtractError, compare, extract

NAME = "extract"
HELP = "extract a catalogue from the game server's Kotlin source (and compare it with a hand-kept one)"
DESCRIPTION = """\
Parse the game server's Kotlin sources (tree-sitter) and write a catalogue in skillproof's TOML format:
cards, the role table's characters, skills (kinds from the class hierarchy, isInitialSkill, conversion
parameters, canUse and the other rule methods when they are simple expressions) and grants (nested skill
classes and the places that hand skills out at run time).

What cannot be decided from the code is written as `unknown` (or a free parameter) and listed in the
extraction report, printed to stderr and written as DIR/extraction-report.md with --output.

  skillproof extract --kotlin TheMessage/src/main/kotlin --output extracted/
  skillproof extract --kotlin TheMessage/src/main/kotlin --compare            # vs the shipped catalogue
  skillproof extract --kotlin TheMessage/src/main/kotlin --compare my-catalogue/

Without --output and --compare the catalogue is printed on stdout (one TOML document).
Exit codes: 0 done (with --compare: no differences), 1 --compare found differences, 2 bad input or a degraded
extraction (a file holding rules fails to parse, a character loses skills the role table gives it, or more
undecided items than --undecided-baseline allows; the output is still written, the reasons printed);
4 internal error."""

_SHIPPED = "<shipped>"
_FILES = ("rules.toml", "cards.toml", "characters.toml", "skills.toml", "grants.toml")


def add_arguments(p):
    p.add_argument("--kotlin", metavar="SRC_DIR", required=True,
                   help="the server's Kotlin sources (src/main/kotlin of a checkout, or the checkout itself)")
    p.add_argument("--output", metavar="DIR",
                   help="write the catalogue (rules.toml, cards.toml, characters.toml, skills.toml, grants.toml) and "
                        "extraction-report.md into DIR (created if missing)")
    p.add_argument("--compare", metavar="CATALOGUE", nargs="?", const=_SHIPPED,
                   help="list what differs between the extracted catalogue and CATALOGUE (a file or "
                        "directory; default: the shipped catalogue); exit 1 if anything differs")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the summary line of the report")
    p.add_argument("--undecided-baseline", type=int, metavar="N",
                   help="the extraction is degraded (exit 2) when it has more than N + 20 undecided items")
    p.add_argument("--allow-degraded", action="store_true",
                   help="exit 0 even when the extraction is degraded (the reasons are still printed)")


def _err(msg: str) -> int:
    sys.stderr.write(f"skillproof extract: error: {msg}\n")
    return EXIT_USAGE


def run(args) -> int:
    src = Path(args.kotlin)
    out_dir = Path(args.output) if args.output else None
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        return _err(f"--output {out_dir} exists and is not a directory")
    hand = None
    if args.compare is not None:
        hand = load_or_report(None if args.compare == _SHIPPED else [args.compare])
        if hand is None:
            return EXIT_USAGE
    try:
        ex = extract(src)
    except ExtractError as e:
        return _err(str(e))
    except OSError as e:
        return _err(f"cannot read {src}: {e.strerror or e}")

    if not args.quiet:
        for item in ex.report:
            sys.stderr.write(f"{item}\n")
    sys.stderr.write(ex.summary() + "\n")
    counts = ex.undecided_counts()
    if counts and not args.quiet:
        sys.stderr.write("undecided by kind: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + "\n")

    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            for name, text in ex.files.items():
                (out_dir / name).write_text(text, encoding="utf-8")
            (out_dir / "extraction-report.md").write_text(ex.report_markdown(), encoding="utf-8")
        except OSError as e:
            return _err(f"cannot write to {out_dir}: {e.strerror or e}")
        others = sorted(p.name for p in out_dir.glob("*.toml") if p.name not in _FILES)
        if others:
            sys.stderr.write(f"note: {out_dir} also holds {', '.join(others)}; loading the directory reads "
                             "those too\n")
        sys.stderr.write(f"wrote {', '.join(_FILES)} and extraction-report.md to {out_dir}\n")
    elif hand is None:
        sys.stdout.write("\n".join(ex.files[n] for n in _FILES))

    if ex.load_errors:
        sys.stderr.write("skillproof extract: error: the extracted catalogue does not load (please report this "
                         "with the source it came from):\n")
        for e in ex.load_errors:
            sys.stderr.write(f"  {e}\n")
        return EXIT_USAGE

    from .model.extract.degraded import degradation
    reasons = degradation(ex, baseline=args.undecided_baseline)
    for r in reasons:
        sys.stderr.write(f"skillproof extract: {'warning' if args.allow_degraded else 'error'}: the extraction is "
                         f"degraded: {r}\n")
    if reasons and not args.allow_degraded:
        return EXIT_USAGE
    if hand is None:
        return EXIT_OK
    diffs = compare(ex.catalogue, hand)
    skipped_chars = sum(1 for c in hand.characters.values() if c.origin == "rulebook")
    skipped_rules = sum(1 for r in hand.skills.values() if r.origin == "rulebook")
    for d in diffs:
        sys.stdout.write(f"{d}\n")
    what = "the shipped catalogue" if args.compare == _SHIPPED else args.compare
    note = ""
    if skipped_chars or skipped_rules:
        note = (f" (rule-book-only entries of the hand-kept catalogue are not compared: {skipped_chars} "
                f"character{'s' if skipped_chars != 1 else ''}, {skipped_rules} rule{'s' if skipped_rules != 1 else ''})")
    if diffs:
        sys.stdout.write(f"{len(diffs)} difference{'s' if len(diffs) != 1 else ''} between the server and "
                         f"{what}{note}\n")
        return EXIT_FINDINGS
    sys.stdout.write(f"no differences between the server and {what}{note}\n")
    return EXIT_OK
