"""skillproof diff OLD NEW — what a rule change does: new and resolved findings, and every decision
whose outcome changed, each with a witness state where the two versions disagree."""
from __future__ import annotations

import os
import subprocess
import sys

from .cmd_check import add_report_args, add_solver_args, emit, run_checks

NAME = "diff"
HELP = "compare two catalogue versions (paths or git REV:PATH): new findings and changed decisions"
DESCRIPTION = """Compare two versions of a catalogue. Each side is a catalogue path (file or directory) or a git
revision of one, REV:PATH (e.g. origin/main:model/catalogue/). Reports findings new in NEW and resolved
since OLD, and every decision (conversion and which skill fires, bans, receive, send rules, skipping,
draw count) whose answer differs between the versions in some state reachable under both — found by the
solver over both encodings at once, with a witness replayed under each version.

exit codes: 0 no new findings at or above --fail-on and no changed decision (or --allow-changes);
1 new findings or changed decisions; 2 bad input or usage; 3 inconclusive; 4 internal error."""


def add_arguments(p):
    p.add_argument("old", metavar="OLD", help="the old catalogue: PATH or git REV:PATH")
    p.add_argument("new", metavar="NEW", help="the new catalogue: PATH or git REV:PATH")
    p.add_argument("--allow-changes", action="store_true", help="report changes but exit 0 for them")
    p.add_argument("--per-decision", type=int, default=3, metavar="N",
                   help="witnesses per changed decision (default 3)")
    add_report_args(p)
    add_solver_args(p)


class SideError(Exception):
    pass


def _git(*args) -> str:
    try:
        r = subprocess.run(["git", *args], capture_output=True, text=True, encoding="utf-8")
    except FileNotFoundError:
        raise SideError("git is not installed") from None
    except UnicodeDecodeError as e:
        raise SideError(f"git {args[-1]}: not UTF-8 text ({e.reason})") from None
    if r.returncode != 0:
        raise SideError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"git {' '.join(args)} failed")
    return r.stdout


def read_side(spec: str) -> dict:
    """{display name: TOML text} for a path or a git REV:PATH."""
    if os.path.exists(spec) or ":" not in spec:
        if not os.path.exists(spec):
            raise SideError(f"{spec}: no such file or directory")
        paths = []
        if os.path.isdir(spec):
            from pathlib import Path

            from skillproof.model.loader import link_out_of
            paths = sorted(os.path.join(spec, f) for f in os.listdir(spec) if f.endswith(".toml"))
            for p in paths:
                away = link_out_of(Path(p), Path(spec))
                if away is not None:
                    raise SideError(f"{p}: a symbolic link out of the catalogue directory (to {away}); not read")
        else:
            paths = [spec]
        if not paths:
            raise SideError(f"{spec}: no .toml catalogue files")
        out = {}
        for p in paths:
            try:
                with open(p, encoding="utf-8") as fh:
                    out[os.path.relpath(p)] = fh.read()
            except (OSError, UnicodeDecodeError) as e:
                raise SideError(f"{p}: cannot read ({e})") from None
        return out
    rev, _, path = spec.partition(":")
    path = path.rstrip("/")
    if rev.startswith("-"):
        # it would reach git as an option
        raise SideError(f"{spec}: a git revision cannot start with '-'")
    kind = _git("cat-file", "-t", f"{rev}:{path}" if path else f"{rev}:").strip()
    if kind == "blob":
        return {spec: _git("show", f"{rev}:{path}")}
    names = [n for n in _git("ls-tree", "--name-only", f"{rev}:{path}" if path else f"{rev}:").splitlines()
             if n.endswith(".toml")]
    if not names:
        raise SideError(f"{spec}: no .toml catalogue files at that revision")
    return {f"{rev}:{path + '/' if path else ''}{n}": _git("show", f"{rev}:{path + '/' if path else ''}{n}")
            for n in sorted(names)}


def run(args) -> int:
    from skillproof.checks.diff import Differ
    from skillproof.model.loader import CatalogueErrors, load
    cats = []
    for spec in (args.old, args.new):
        try:
            texts = read_side(spec)
        except SideError as e:
            sys.stderr.write(f"error: {e}\n")
            return 2
        try:
            cats.append(load(texts=texts))
        except CatalogueErrors as e:
            for err in e.errors:
                sys.stderr.write(f"error: {err}\n")
            sys.stderr.write(f"{len(e.errors)} errors in {spec}; nothing was compared\n")
            return 2
    old, new = cats
    try:
        differ = Differ(old, new, n=args.max_seats, G=args.max_grants, timeout_ms=max(1, int(args.timeout * 1000)),
                        rlimit=max(0, args.rlimit))
        changes = differ.changes(per_decision=max(1, args.per_decision))
    except KeyError as e:               # an id whose kind changed between versions (e.g. a skill made a grant)
        sys.stderr.write(f"error: cannot compare: {e} means different things in the two versions\n")
        return 2
    args.select, args.ignore = "", ""
    res_old = run_checks(old, args)
    res_new = run_checks(new, args)
    old_ids = {f.id for f in res_old.findings}
    new_ids = {f.id for f in res_new.findings}
    added = [f for f in res_new.findings if f.id not in old_ids]
    resolved = [f for f in res_old.findings if f.id not in new_ids]
    from skillproof.checks.findings import Finding
    from skillproof.reports.model import Report
    inconc = [Finding("INC001", "diff", "error", f"无法判定：{msg}", key=f"inconclusive|diff|{msg}", inconclusive=True)
              for msg in differ.inconclusive]
    report = Report(findings=added + inconc, catalogue_files=list(new.files), families=list(res_new.families),
                    fail_on=args.fail_on, title="skillproof diff",
                    extra={"diff": {"old": list(old.files), "new": list(new.files), "allow_changes": args.allow_changes,
                                    "changed_rules": [{"id": k, "change": v} for k, v in sorted(differ.changed.items())],
                                    "resolved": [f.to_dict() for f in resolved],
                                    "decision_changes": [c.to_dict() for c in changes]}},
                    stats={"solver_queries": res_new.stats.get("queries", 0)})
    rc = emit(report, args, new)
    if rc:
        return rc
    if report.failing() or (changes and not args.allow_changes):
        return 1
    if report.inconclusive:
        return 3
    return 0
