"""Baselines: findings a human has accepted, each keyed by its meaning-based id and with a reason.

A baseline is a TOML file (or JSON, by its ``.json`` suffix) reviewed in pull requests::

    version = 1

    [[accepted]]
    id = "CV002-10bfcce968"          # the finding's meaning-based id: what is matched
    check = "CV002"                  # the rest is for the reviewer
    severity = "warning"
    message = "阿尔法的【任意变丁】想把甲当作丁使用，但……"
    rules = ["AnyToD 任意变丁", "MustAC 甲必丙"]
    reason = "intended: 甲必丙 is meant to take 甲 out of every other use"

``skillproof baseline`` writes one entry per current finding with ``reason = ""``; a human fills every
reason in. ``check --baseline FILE`` then hides the accepted findings (SARIF keeps them as suppressed
results), reports the findings that are new, and flags stale entries — accepted findings that no longer
occur. A baseline with a missing or empty reason, an unknown key, a malformed or repeated id is rejected
with the file, line and entry (exit 2). Inconclusive findings (INC001) cannot be accepted: an undecided
question is not a pass.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from skillproof.checks.registry import RUN_CODES, all_codes
from skillproof.model.locate import line_of, locate
from skillproof.model.names import nearest

VERSION = 1
ID_RE = re.compile(r"^([A-Z]{2,}[0-9]{3})-[0-9a-f]{10}$")
ENTRY_KEYS = ("id", "check", "severity", "message", "rules", "reason")
TOP_KEYS = ("version", "accepted")

HEADER = """\
# skillproof baseline: findings accepted as they are.
# `skillproof check --baseline THIS_FILE` hides these findings, reports new ones and flags stale entries.
# Every entry needs a reason a reviewer can agree with (intended design, what the server does, …):
# a baseline with an empty reason is rejected. Entries are matched by `id` (the finding's meaning, not its
# file or line); `check`, `severity`, `message` and `rules` are there for the reviewer.
# An entry whose finding no longer occurs is reported as stale: delete it.
"""


class BaselineError(Exception):
    """A baseline that cannot be used; ``problems`` are `file:line: [entry] message` strings."""

    def __init__(self, problems, lines=()):
        self.problems = list(problems) if not isinstance(problems, str) else [problems]
        self.lines = list(lines)
        super().__init__(self._one_line())

    def _one_line(self) -> str:
        first = self.problems[0]
        rest = len(self.problems) - 1
        if rest <= 0:
            return first
        at = sorted(set(self.lines[1:]))
        where = f" at line{'s' if len(at) != 1 else ''} " + ", ".join(map(str, at[:6])) + (", …" if len(at) > 6 else "") \
            if at else ""
        return f"{first} (and {rest} more problem{'s' if rest != 1 else ''}{where})"


@dataclass
class Entry:
    id: str
    reason: str
    check: str = ""
    severity: str = ""
    message: str = ""
    rules: list = field(default_factory=list)
    file: str = ""
    line: int = 0
    index: int = 0                 # 1-based position in the file


@dataclass
class Baseline:
    path: str
    entries: list

    def by_id(self) -> dict:
        return {e.id: e for e in self.entries}

    def __len__(self):
        return len(self.entries)


# ------------------------------------------------------------------------------------------------ load
def load(path, require_reasons: bool = True) -> Baseline:
    """Read and validate a baseline. Raises BaselineError naming file, line and entry."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise BaselineError(f"{name}: no such baseline file (write one with `skillproof baseline --output {name}`)")
    except IsADirectoryError:
        raise BaselineError(f"{name}: is a directory, not a baseline file")
    except OSError as e:
        raise BaselineError(f"{name}: cannot read the baseline: {e.strerror}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BaselineError(f"{name}: the baseline is not UTF-8 text (byte {e.start})")
    if name.lower().endswith(".json"):
        data, lines = _parse_json(name, text)
    else:
        data, lines = _parse_toml(name, text)
    return _validate(name, data, lines, require_reasons)


def _parse_toml(name, text):
    from skillproof.model import tomlsafe
    data, bad = tomlsafe.loads(text)          # within the input limits: no recursion, no huge integers
    if bad:
        raise BaselineError(f"{name}:{bad[0]}: {bad[1]}")
    locs = locate(text)
    return data, lambda *p: line_of(locs, p)


def _parse_json(name, text):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BaselineError(f"{name}:{e.lineno}: JSON syntax error: {e.msg}")
    except (RecursionError, ValueError) as e:     # nested too deep, a number of thousands of digits
        raise BaselineError(f"{name}:1: cannot read this JSON within the limits ({type(e).__name__})")
    # lines: each entry's id string, found in order after the previous one (JSON has no positions)
    starts: dict = {}
    pos = text.find('"accepted"')
    if isinstance(data, dict) and isinstance(data.get("accepted"), list):
        for i, e in enumerate(data["accepted"]):
            if isinstance(e, dict) and isinstance(e.get("id"), str):
                j = text.find(json.dumps(e["id"]), max(pos, 0))
                if j >= 0:
                    pos = j
            starts[i] = text.count("\n", 0, max(pos, 0)) + 1

    def line(*p):
        if len(p) >= 2 and p[0] == "accepted" and p[1] in starts:
            return starts[p[1]]
        return 1
    return data, line


def _validate(name, data, line, require_reasons) -> Baseline:
    problems: list[str] = []
    lines: list[int] = []

    def bad(ln, what, msg):
        problems.append(f"{name}:{ln}: {what}{msg}")
        lines.append(ln)

    if not isinstance(data, dict):
        raise BaselineError(f"{name}:1: a baseline is a table with `version` and [[accepted]] entries")
    for k in data:
        if k not in TOP_KEYS:
            hint = nearest(k, TOP_KEYS)
            bad(line(k), "", f"unknown key '{k}'" + (f" — did you mean '{hint}'?" if hint else
                                                     " (a baseline has `version` and [[accepted]] entries)"))
    if "version" in data and data["version"] != VERSION:
        bad(line("version"), "", f"unsupported baseline version {data['version']!r} (this skillproof reads {VERSION})")
    acc = data.get("accepted", [])
    if not isinstance(acc, list):
        bad(line("accepted"), "", "'accepted' must be an array of tables: write [[accepted]]")
        acc = []
    codes = set(all_codes())
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for i, e in enumerate(acc):
        ln = line("accepted", i)
        if not isinstance(e, dict):
            bad(ln, f"[accepted #{i + 1}] ", "each entry must be a table")
            continue
        eid = e.get("id")
        what = f"[accepted #{i + 1}{' ' + eid if isinstance(eid, str) and eid else ''}] "
        for k in e:
            if k not in ENTRY_KEYS:
                hint = nearest(k, ENTRY_KEYS)
                bad(line("accepted", i, k), what, f"unknown key '{k}'" + (f" — did you mean '{hint}'?" if hint else
                                                                           f" (keys: {', '.join(ENTRY_KEYS)})"))
        if not isinstance(eid, str) or not eid:
            bad(ln, what, "'id' is missing: every entry is keyed by a finding id such as 'CV001-3a1451036d'")
            continue
        m = ID_RE.match(eid)
        if not m:
            bad(line("accepted", i, "id"), what, f"'{eid}' is not a finding id (a code and ten hex digits, "
                                                  "e.g. 'CV001-3a1451036d')")
            continue
        code = m.group(1)
        if code in RUN_CODES:
            bad(line("accepted", i, "id"), what, "an inconclusive finding cannot be accepted (an undecided "
                                                  "question is not a pass): " +
                ("raise --timeout instead" if code == "INC001" else "report the disagreement to skillproof"))
        elif code not in codes:
            hint = nearest(code, codes)
            # kept: an unknown code never matches and is reported as stale, but say so now if it is a typo
            if hint:
                bad(line("accepted", i, "id"), what, f"unknown check '{code}' — did you mean '{hint}'?")
        chk = e.get("check", code)
        if chk != code:
            bad(line("accepted", i, "check"), what, f"check {chk!r} does not match the id's code '{code}'")
        if eid in seen:
            bad(ln, what, f"repeated: the same id is accepted at line {seen[eid]}")
        seen.setdefault(eid, ln)
        reason = e.get("reason")
        if reason is None or not isinstance(reason, str):
            if require_reasons or reason is not None:
                bad(ln, what, "'reason' is missing: say why this finding is accepted" if reason is None
                    else "'reason' must be a string")
            reason = ""
        elif require_reasons and not reason.strip():
            bad(line("accepted", i, "reason"), what, "'reason' is empty: say why this finding is accepted")
        for k, typ in (("message", str), ("severity", str), ("rules", list)):
            if k in e and not isinstance(e[k], typ):
                bad(line("accepted", i, k), what, f"'{k}' must be a {'string' if typ is str else 'list'}")
        rules = e.get("rules", [])
        entries.append(Entry(eid, reason, code, e.get("severity", "") if isinstance(e.get("severity"), str) else "",
                             e.get("message", "") if isinstance(e.get("message"), str) else "",
                             [str(r) for r in rules] if isinstance(rules, list) else [], name, ln, i + 1))
    if problems:
        raise BaselineError(problems, lines)
    return Baseline(name, entries)


# ----------------------------------------------------------------------------------------------- apply
def apply(base: Baseline, findings, ran=None):
    """Split findings by a baseline: (active findings, suppressed [(Finding, reason)], stale [dict]).

    ``ran`` (optional) names the families or codes that ran (e.g. with ``--select``): entries for checks
    that did not run are neither matched nor stale."""
    acc = base.by_id()
    active, suppressed, matched = [], [], set()
    for f in findings:
        e = acc.get(f.id)
        if e is not None and not f.inconclusive:
            suppressed.append((f, e.reason))
            matched.add(f.id)
        else:
            active.append(f)
    fam_of = {c: fam.name for c, (fam, _) in all_codes().items()}
    scope = set(ran) if ran is not None else None
    stale = []
    for e in base.entries:
        if e.id in matched:
            continue
        if scope is not None and e.check not in scope and fam_of.get(e.check) not in scope:
            continue
        d = {"id": e.id, "check": e.check, "reason": e.reason, "file": e.file, "line": e.line}
        if e.message:
            d["message"] = e.message
        stale.append(d)
    stale.sort(key=lambda d: (d["check"], d["id"]))
    suppressed.sort(key=lambda x: x[0].sort_key())
    return active, suppressed, stale


# ------------------------------------------------------------------------------------------------ write
def entries_for(findings, keep: Baseline | None = None) -> list[dict]:
    """Baseline entries for findings (inconclusive ones left out), reasons kept from ``keep``."""
    old = keep.by_id() if keep else {}
    out = []
    seen = set()
    for f in findings:
        if f.inconclusive or f.id in seen:
            continue
        seen.add(f.id)
        rules = []
        for r in f.rules:
            s = f"{r.id} {r.name}" if r.name and r.name != r.id else r.id
            if s not in rules:
                rules.append(s)
        out.append({"id": f.id, "check": f.check, "severity": f.severity, "message": f.message,
                    "rules": rules, "reason": old[f.id].reason if f.id in old else ""})
    return out


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)      # a JSON string is a valid TOML basic string


def dumps(findings, fmt: str = "toml", keep: Baseline | None = None) -> str:
    entries = entries_for(findings, keep)
    if fmt == "json":
        return json.dumps({"version": VERSION, "accepted": entries}, ensure_ascii=False, indent=2) + "\n"
    out = [HEADER, f"version = {VERSION}\n"]
    for e in entries:
        out.append("\n[[accepted]]\n")
        for k in ENTRY_KEYS:
            v = e[k]
            if isinstance(v, list):
                out.append(f"{k} = [{', '.join(_toml_str(x) for x in v)}]\n")
            else:
                out.append(f"{k} = {_toml_str(v)}\n")
    return "".join(out)
