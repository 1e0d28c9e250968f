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

``skillproof baseline`` writes one entry per current finding; an entry it adds has ``reason = ""`` and
``to_review = true`` — accepted, so the next ``check --baseline`` runs, and flagged in every report as *to review*
until a human writes the reason and deletes the flag. Run again over an existing file, it rewrites the file in
place (tomlkit): the file's comments and layout stay, entries whose finding still occurs keep their reason (and
their comments; ``check``, ``severity``, ``message`` and ``rules`` are brought up to date), entries whose finding
no longer occurs are removed with the comment block right above them, and new findings are appended as above.
``check --baseline FILE`` then hides the accepted findings (SARIF keeps them as suppressed results, status
``underReview`` for the ones to review), reports the findings that are new, and flags stale entries — accepted
findings that no longer occur. A baseline with a missing or empty reason (and no ``to_review = true``), an unknown
key, a malformed or repeated id is rejected with the file, line and entry (exit 2). Inconclusive findings (INC001)
cannot be accepted: an undecided question is not a pass.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from skillproof.checks.registry import RUN_CODES, all_codes
from skillproof.model.locate import line_of, locate
from skillproof.model.msg import Msg
from skillproof.model.names import nearest

VERSION = 1
ID_RE = re.compile(r"^([A-Z]{2,}[0-9]{3})-[0-9a-f]{10}$")
ENTRY_KEYS = ("id", "check", "severity", "message", "rules", "reason", "to_review")
TOP_KEYS = ("version", "accepted")

HEADER = """\
# skillproof baseline: findings accepted as they are.
# `skillproof check --baseline THIS_FILE` hides these findings, reports new ones and flags stale entries.
# Every entry needs a reason a reviewer can agree with (intended design, what the server does, …):
# a baseline with an empty reason is rejected. Entries are matched by `id` (the finding's meaning, not its
# file or line); `check`, `severity`, `message` and `rules` are there for the reviewer.
# An entry whose finding no longer occurs is reported as stale: delete it. `skillproof baseline --output THIS_FILE`
# rewrites the file keeping its comments and reasons; an entry it adds says `to_review = true` (accepted, and
# flagged in every report) until someone writes its reason and deletes that line.
"""
HEADER_ZH = """\
# skillproof 基线：按原样接受的问题。
# `skillproof check --baseline 本文件` 隐藏这些问题，报告新问题，并标出过时的条目。
# 每个条目都要有评审者能认同的理由（设计如此、服务器就是这样做的……）：理由为空的基线会被拒绝。
# 条目按 `id`（问题的含义，而不是它的文件或行号）匹配；`check`、`severity`、`message` 和 `rules` 是给评审者看的。
# 问题不再出现的条目报告为过时：删掉它。`skillproof baseline --output 本文件` 就地改写本文件，保留注释和理由；
# 它新加的条目写着 `to_review = true`（已接受，并在每种报告里标为待审），直到有人写上理由并删掉那一行。
"""
TO_REVIEW_NOTE = ("由 `skillproof baseline` 写入：写上理由后删掉这一行",
                  "written by `skillproof baseline`: write the reason, then delete this line")


def header() -> str:
    """The comment block a new baseline file starts with, in the run's language."""
    from skillproof.model.lang import pick
    return pick(HEADER_ZH, HEADER)


class BaselineError(Exception):
    """A baseline that cannot be used; ``problems`` are `file:line: [entry] message` lines, each a message in
    both languages (model.msg.Msg): ``str(e)`` is the first and how many more, in the run's language."""

    def __init__(self, problems, lines=()):
        self.problems = [problems] if isinstance(problems, (str, Msg)) else list(problems)
        self.lines = list(lines)
        super().__init__()

    def __str__(self) -> str:
        return self._one_line()

    def _one_line(self) -> str:
        first = self.problems[0]
        rest = len(self.problems) - 1
        if rest <= 0:
            return str(first)
        at = sorted(set(self.lines[1:]))
        shown_at = ", ".join(map(str, at[:6])) + (", …" if len(at) > 6 else "")
        return str(Msg("{first}（另有 {rest} 个问题{zw}）", "{first} (and {rest} more problem{s}{ew})", first=first, rest=rest,
                       s="s" if rest != 1 else "", zw=f"，在第 {shown_at} 行" if at else "",
                       ew=(f" at line{'s' if len(at) != 1 else ''} {shown_at}") if at else ""))


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
    to_review: bool = False        # added by `skillproof baseline`, no reason yet: accepted, flagged in reports


@dataclass
class Baseline:
    path: str
    entries: list

    def by_id(self) -> dict:
        return {e.id: e for e in self.entries}

    def to_review(self) -> set:
        """The ids of the entries still to review (``to_review = true``)."""
        return {e.id for e in self.entries if e.to_review}

    def __len__(self):
        return len(self.entries)


# ------------------------------------------------------------------------------------------------ load
def load(path, require_reasons: bool = True) -> Baseline:
    """Read and validate a baseline. Raises BaselineError naming file, line and entry."""
    name = str(path)
    from skillproof.model import limits as L
    from skillproof.model import readfile as RF
    try:
        raw = RF.read_regular(path, L.FILE_BYTES)
    except RF.NotRead as e:
        if e.why == RF.MISSING:
            msg = Msg("{n}: 没有这个基线文件（用 `skillproof baseline --output {n}` 写一个）",
                      "{n}: no such baseline file (write one with `skillproof baseline --output {n}`)", n=name)
        elif e.why == RF.DIRECTORY:
            msg = Msg("{n}: 这是一个目录，不是基线文件", "{n}: is a directory, not a baseline file", n=name)
        elif e.why == RF.NOT_REGULAR:     # a FIFO blocked the run until a writer came, /dev/zero was read until memory ran out
            msg = Msg("{n}: 不是普通文件（管道、设备……），不是基线文件",
                      "{n}: not a regular file (a FIFO, a device …), not a baseline file", n=name)
        elif e.why == RF.TOO_BIG:
            msg = Msg("{n}: 基线超过 {limit:,} 字节（上限）", "{n}: the baseline is over {limit:,} bytes (the limit)",
                      n=name, limit=L.FILE_BYTES)
        else:
            from skillproof.model.errtext import os_reason
            msg = Msg("{n}: 读不了基线：{why}", "{n}: cannot read the baseline: {why}", n=name, why=os_reason(e.error))
        raise BaselineError(msg) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BaselineError(Msg("{n}: 基线不是 UTF-8 文本（第 {at} 字节）", "{n}: the baseline is not UTF-8 text (byte {at})",
                                n=name, at=e.start))
    if text.startswith("\ufeff"):            # an editor's UTF-8 mark: TOML refuses it as "invalid statement", JSON as well
        from skillproof.model.errtext import BOM, BOM_JSON
        raise BaselineError(Msg("{n}:1: {m}", "{n}:1: {m}", n=name, m=BOM_JSON if name.lower().endswith(".json") else BOM))
    if name.lower().endswith(".json"):
        data, lines = _parse_json(name, text)
    else:
        data, lines = _parse_toml(name, text)
    return _validate(name, data, lines, require_reasons)


def _parse_toml(name, text):
    from skillproof.model import tomlsafe
    data, bad = tomlsafe.loads(text)          # within the input limits: no recursion, no huge integers
    if bad:
        raise BaselineError(Msg("{n}:{ln}: {m}", "{n}:{ln}: {m}", n=name, ln=bad[0], m=bad[1]))
    locs = locate(text)
    return data, lambda *p: line_of(locs, p)


def _parse_json(name, text):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        from skillproof.model.errtext import json_reason
        raise BaselineError(Msg("{n}:{ln}: JSON 语法错误：{m}", "{n}:{ln}: JSON syntax error: {m}", n=name, ln=e.lineno,
                                m=json_reason(e.msg)))
    except (RecursionError, ValueError) as e:     # nested too deep, a number of thousands of digits
        raise BaselineError(Msg("{n}:1: 在上限之内读不了这个 JSON（'{t}'）", "{n}:1: cannot read this JSON within the limits ({t})",
                                n=name, t=type(e).__name__))
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
    from skillproof.model.names import did_you_mean, shown
    problems: list = []
    lines: list[int] = []

    def bad(ln, what, msg):
        problems.append(Msg("{n}:{ln}: {what}{m}", "{n}:{ln}: {what}{m}", n=name, ln=ln, what=what, m=msg))
        lines.append(ln)

    def dym(hint):
        return did_you_mean(f"'{hint}'") if hint else ""

    if not isinstance(data, dict):
        raise BaselineError(Msg("{n}:1: 基线是带 `version` 和 [[accepted]] 项的表",
                                "{n}:1: a baseline is a table with `version` and [[accepted]] entries", n=name))
    for k in data:
        if k not in TOP_KEYS:
            hint = nearest(k, TOP_KEYS)
            bad(line(k), "", Msg("未知的键 '{k}'{more}", "unknown key '{k}'{more}", k=shown(k), more=dym(hint) if hint else Msg(
                "（基线只有 `version` 和 [[accepted]] 项）", " (a baseline has `version` and [[accepted]] entries)")))
    if "version" in data and data["version"] != VERSION:
        bad(line("version"), "", Msg("不支持的基线版本 '{v}'（这个 skillproof 读版本 {V}）",
                                     "unsupported baseline version {v!r} (this skillproof reads {V})",
                                     v=data['version'], V=VERSION))
    acc = data.get("accepted", [])
    if not isinstance(acc, list):
        bad(line("accepted"), "", Msg("'accepted' 必须是表数组：写成 [[accepted]]",
                                      "'accepted' must be an array of tables: write [[accepted]]"))
        acc = []
    codes = set(all_codes())
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for i, e in enumerate(acc):
        ln = line("accepted", i)
        if not isinstance(e, dict):
            bad(ln, f"[accepted #{i + 1}] ", Msg("每一项都必须是表", "each entry must be a table"))
            continue
        eid = e.get("id")
        what = f"[accepted #{i + 1}{' ' + eid if isinstance(eid, str) and eid else ''}] "
        for k in e:
            if k not in ENTRY_KEYS:
                hint = nearest(k, ENTRY_KEYS)
                bad(line("accepted", i, k), what, Msg("未知的键 '{k}'{more}", "unknown key '{k}'{more}", k=shown(k),
                                                      more=dym(hint) if hint else Msg("（可用的键：{z}）", " (keys: {e})",
                                                      z="、".join(f"'{x}'" for x in ENTRY_KEYS), e=", ".join(ENTRY_KEYS))))
        if not isinstance(eid, str) or not eid:
            bad(ln, what, Msg("缺少 'id'：每一项都以问题编号为键，例如 'CV001-3a1451036d'",
                              "'id' is missing: every entry is keyed by a finding id such as 'CV001-3a1451036d'"))
            continue
        m = ID_RE.match(eid)
        if not m:
            bad(line("accepted", i, "id"), what, Msg("'{id}' 不是问题编号（代码加十位十六进制数字，例如 'CV001-3a1451036d'）",
                                                     "'{id}' is not a finding id (a code and ten hex digits, "
                                                     "e.g. 'CV001-3a1451036d')", id=shown(eid)))
            continue
        code = m.group(1)
        if code in RUN_CODES:
            bad(line("accepted", i, "id"), what, Msg(
                "无法判定的问题不能被接受（没有判定的问题不是通过）：{z}",
                "an inconclusive finding cannot be accepted (an undecided question is not a pass): {e}",
                z="请调高 --timeout" if code == "INC001" else "请把这个不一致报告给 skillproof",
                e="raise --timeout instead" if code == "INC001" else "report the disagreement to skillproof"))
        elif code not in codes:
            hint = nearest(code, codes)
            # kept: an unknown code never matches and is reported as stale, but say so now if it is a typo
            if hint:
                bad(line("accepted", i, "id"), what, Msg("未知的检查 '{c}'{dym}", "unknown check '{c}'{dym}", c=code,
                                                         dym=dym(hint)))
        chk = e.get("check", code)
        if chk != code:
            bad(line("accepted", i, "check"), what, Msg("'check' 的值 '{chk}' 与 id 的代码 '{c}' 不符",
                                                        "check {chk!r} does not match the id's code '{c}'",
                                                        chk=shown(chk), c=code))
        if eid in seen:
            bad(ln, what, Msg("重复：同一个 id 已在第 {ln} 行接受", "repeated: the same id is accepted at line {ln}",
                              ln=seen[eid]))
        seen.setdefault(eid, ln)
        review = e.get("to_review", False)
        if not isinstance(review, bool):
            bad(line("accepted", i, "to_review"), what, Msg("'to_review' 必须是 `true` 或 `false`",
                                                            "'to_review' must be true or false"))
            review = False
        reason = e.get("reason")
        if reason is None or not isinstance(reason, str):
            if (require_reasons and not review) or reason is not None:
                bad(ln, what, Msg("缺少 'reason'：说明为什么接受这个问题", "'reason' is missing: say why this finding is accepted")
                    if reason is None else Msg("'reason' 必须是字符串", "'reason' must be a string"))
            reason = ""
        elif require_reasons and not review and not reason.strip():
            bad(line("accepted", i, "reason"), what, Msg(
                "'reason' 是空的：说明为什么接受这个问题（或者标上 `to_review = true`，表示还要审）",
                "'reason' is empty: say why this finding is accepted (or mark it `to_review = true`, still to review)"))
        for k, typ in (("message", str), ("severity", str), ("rules", list)):
            if k in e and not isinstance(e[k], typ):
                bad(line("accepted", i, k), what, Msg("'{k}' 必须是{z}", "'{k}' must be a {e}", k=k,
                                                      z="字符串" if typ is str else "列表",
                                                      e="string" if typ is str else "list"))
        rules = e.get("rules", [])
        entries.append(Entry(eid, reason, code, e.get("severity", "") if isinstance(e.get("severity"), str) else "",
                             e.get("message", "") if isinstance(e.get("message"), str) else "",
                             [str(r) for r in rules] if isinstance(rules, list) else [], name, ln, i + 1,
                             bool(review)))
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
    """Baseline entries for findings (inconclusive ones left out), reasons kept from ``keep``; a finding without
    a reason there is ``to_review``."""
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
        e = {"id": f.id, "check": f.check, "severity": f.severity, "message": f.message, "rules": rules,
             "reason": old[f.id].reason if f.id in old else ""}
        if f.id not in old or old[f.id].to_review or not e["reason"].strip():
            e["to_review"] = True
        out.append(e)
    return out


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)      # a JSON string is a valid TOML basic string


def _entry_text(e: dict) -> str:
    out = ["[[accepted]]\n"]
    for k in ENTRY_KEYS:
        if k not in e:
            continue
        v = e[k]
        if isinstance(v, bool):
            from skillproof.model.lang import pick
            note = pick(*TO_REVIEW_NOTE)
            out.append(f"{k} = {'true' if v else 'false'}" + (f"    # {note}" if k == "to_review" else "") + "\n")
        elif isinstance(v, list):
            out.append(f"{k} = [{', '.join(_toml_str(x) for x in v)}]\n")
        else:
            out.append(f"{k} = {_toml_str(v)}\n")
    return "".join(out)


def dumps(findings, fmt: str = "toml", keep: Baseline | None = None, keep_text: str | None = None) -> str:
    """The baseline of ``findings``: JSON, or TOML — a new file (the header, then one entry per finding), or, given
    the existing file's text (``keep_text``, loaded as ``keep``), that file rewritten in place (``refresh``)."""
    entries = entries_for(findings, keep)
    if fmt == "json":
        return json.dumps({"version": VERSION, "accepted": entries}, ensure_ascii=False, indent=2) + "\n"
    if keep_text is not None:
        return refresh(keep_text, entries)
    out = [header(), f"version = {VERSION}\n"]
    for e in entries:
        out.append("\n" + _entry_text(e))
    return "".join(out)


_HEADER_LINE = re.compile(r"^[ \t]*\[\[[ \t]*accepted[ \t]*\]\][ \t]*(#.*)?$")


def _blocks(text: str):
    """The file cut at its [[accepted]] headers: (preamble, [entry block]); each entry block starts with the
    comment lines right above its header (its own comments) and runs to the next block. None when the cut does
    not match what tomlkit reads (a header-like line inside a multi-line string)."""
    import tomlkit
    lines = text.splitlines(keepends=True)
    heads = [i for i, ln in enumerate(lines) if _HEADER_LINE.match(ln.rstrip("\r\n"))]
    starts = []
    for n, h in enumerate(heads):
        if n:
            lower = heads[n - 1] + 1
        else:                            # the file's own comments (its header) are not the first entry's
            keys = [i for i in range(h) if lines[i].strip() and not lines[i].lstrip().startswith("#")]
            lower = keys[-1] + 1 if keys else h
        k = h
        while k - 1 >= lower and lines[k - 1].lstrip().startswith("#"):
            k -= 1
        starts.append(k)
    if not starts:
        return text, []
    blocks = ["".join(lines[a:b]) for a, b in zip(starts, starts[1:] + [len(lines)])]
    try:
        doc = tomlkit.parse(text)
        count = len(doc.get("accepted", []))
        ids = [tomlkit.parse(b).get("accepted", [{}])[0].get("id") for b in blocks]
    except Exception:           # noqa: BLE001 — not cut where tomlkit reads tables: rewrite without the cut
        return None
    if count != len(blocks) or ids != [t.get("id") for t in doc.get("accepted", [])]:
        return None
    return "".join(lines[:starts[0]]), blocks


def refresh(text: str, entries: list[dict]) -> str:
    """The existing baseline ``text`` rewritten for ``entries`` (``entries_for``), keeping what people wrote: every
    comment and the layout of the kept entries, their reasons; an entry no longer current goes with the comments
    right above it; new entries are appended (``to_review``). tomlkit edits the values in place."""
    import tomlkit
    want = {e["id"]: e for e in entries}
    cut = _blocks(text)
    if cut is None:                      # a header-like line inside a string: edit the document as a whole
        doc = tomlkit.parse(text)
        aot = doc.get("accepted")
        if aot is None:
            doc.append("accepted", tomlkit.aot())
            aot = doc["accepted"]
        for i in reversed(range(len(aot))):
            if aot[i].get("id") not in want:
                del aot[i]
        have = set()
        for tbl in aot:
            _update(tbl, want[tbl["id"]])
            have.add(tbl["id"])
        for e in entries:
            if e["id"] not in have:
                aot.append(tomlkit.parse(_entry_text(e))["accepted"][0])
        return tomlkit.dumps(doc)
    pre, blocks = cut
    out = [pre]
    have = set()
    for b in blocks:
        doc = tomlkit.parse(b)
        tbl = doc["accepted"][0]
        if tbl.get("id") not in want or tbl.get("id") in have:
            continue
        have.add(tbl["id"])
        _update(tbl, want[tbl["id"]])
        out.append(tomlkit.dumps(doc))
    added = [e for e in entries if e["id"] not in have]
    body = "".join(out)
    for e in added:
        body = body.rstrip("\n") + "\n\n" + _entry_text(e)
    if "version" not in tomlkit.parse(body):
        body = f"version = {VERSION}\n" + body
    return body


def _update(tbl, e: dict) -> None:
    """A kept entry brought up to date: what is there for the reviewer (check, severity, message, rules) set to the
    finding's current values where they differ; the reason and the comments stay."""
    for k in ("check", "severity", "message", "rules"):
        if tbl.get(k) != e[k]:
            tbl[k] = e[k]
    if e.get("to_review") and not str(tbl.get("reason", "")).strip() and "to_review" not in tbl:
        tbl["to_review"] = True
