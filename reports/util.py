"""Helpers shared by the sarif, junit, markdown and html formats.

Every format reads a Report the same way: findings as plain dicts (a ``Finding`` or its ``to_dict`` form —
`diff` may hand either), the rules each finding involves (located, de-duplicated, in the finding's order),
and the sections a `diff` report adds in ``Report.extra``: ``new`` and ``resolved`` finding lists and
``decision_changes``. Nothing here depends on time, the environment or hash order.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from skillproof.checks.findings import INTENT_NAME, SEVERITIES, SEVERITY_RANK

from .common import question_line, seat_line, witness_lines

SEVERITY_ICON = {"error": "🔴", "warning": "🟠", "note": "🔵"}


def catalogue_paths(files, most: int = 6) -> tuple[list[str], str]:
    """The catalogue files a report covers, for people to read: all of them when there are at most ``most``,
    else the directory they share and a count — ``(["model/catalogue/"], " (67 files)")``."""
    files = [str(f) for f in files]
    if len(files) <= most:
        return files, ""
    try:
        common = os.path.commonpath(files)
    except ValueError:
        common = ""
    from .i18n import pick
    n = len(files)
    if common and common not in files:
        return [common.rstrip("/") + "/"], pick(f"（{n} 个文件）", f" ({n} files)")
    return files[:most], pick(f"，……（{n} 个文件）", f", … ({n} files)")


def fdict(f) -> dict:
    """A finding as its documented JSON dict (accepts a Finding or a dict already in that form)."""
    if isinstance(f, dict):
        return f
    return f.to_dict()


def rules_of(fd: dict) -> list[dict]:
    """The rules a finding involves, once each (same id, file and line), in the finding's order; a rule
    named twice with different roles keeps the roles joined."""
    out: dict[tuple, dict] = {}
    for r in fd.get("rules") or []:
        key = (r.get("id", ""), r.get("file", ""), r.get("line", 0))
        if key in out:
            role = r.get("role", "")
            if role and role not in out[key].get("role", "").split("; "):
                out[key]["role"] = "; ".join(x for x in (out[key].get("role", ""), role) if x)
            continue
        out[key] = dict(r)
        if r.get("name") == INTENT_NAME:
            out[key]["name"] = ref_name(INTENT_NAME, r.get("id", ""))
    return list(out.values())


def ref_name(name: str, ident: str) -> str:
    """How a report names a rule a finding cites: its catalogue name — an intent (``INTENT_NAME``) by that word in
    the run's language and its id."""
    if name != INTENT_NAME:
        return name
    from .i18n import pick
    return f"{pick(INTENT_NAME, 'intent')} {ident}"


def loc_text(r: dict) -> str:
    """``file:line`` of a rule reference, or '-' when it has no location."""
    return f"{r['file']}:{r.get('line', 0)}" if r.get("file") else "-"


def witness_text(fd: dict, cat=None) -> list[str]:
    """A witness as lines: the designer's scenario when the catalogue is at hand, else compact JSON."""
    w = fd.get("witness")
    if not w:
        return []
    told = fd.get("witness_lines")           # told with its own catalogue (a `diff`'s resolved finding: OLD's)
    if isinstance(told, dict) and told.get("zh"):
        from .i18n import pick
        return list(pick(told["zh"], told.get("en") or told["zh"]))
    if cat is not None:
        try:
            return witness_lines(cat, w)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass                   # a witness of another catalogue version (diff): fall back to JSON
    return [json.dumps(w, ensure_ascii=False, sort_keys=True)]


def code_info(report, code: str):
    """(family name, Code) of a check code, or (None, None) if the registry does not know it."""
    fam, c = report.codes().get(code, (None, None))
    return (fam.name if fam is not None else None), c


def sev_key(fd: dict):
    return (SEVERITY_RANK.get(fd.get("severity"), 9), fd.get("check", ""), fd.get("id", ""))


def failing_ids(report) -> set:
    return {f.id for f in report.failing()}


@dataclass
class DiffView:
    """A `diff` report, normalised. `skillproof diff` puts its sections in ``extra["diff"]`` (old/new file
    lists, changed_rules, resolved findings, decision_changes) and the new findings in ``report.findings``;
    the flat form (``extra["new"]``, ``extra["resolved"]``, ``extra["decision_changes"]``) is read too."""
    new: list                     # new findings (dicts)
    new_are_findings: bool        # the report's findings are the new ones (do not list them twice)
    resolved: list
    changes: list                 # decision changes (dicts)
    changed_rules: list           # [{"id", "change"}]
    old_files: list
    new_files: list
    allow_changes: bool

    @property
    def fails(self) -> bool:
        return bool(self.changes) and not self.allow_changes

    @property
    def decisions(self) -> list:
        """Changed decisions (and engine rules): the changes that are not one-sided situations."""
        return [c for c in self.changes if not is_possible(c)]

    @property
    def possible(self) -> list:
        """Situations possible in only one version (``decision`` = "possible")."""
        return [c for c in self.changes if is_possible(c)]


def is_possible(c: dict) -> bool:
    """A change of `diff` that is a situation possible in only one version (not a changed decision)."""
    return c.get("decision") == "possible"


def possible_kind(c: dict) -> str:
    """'possible only in NEW' / 'possible only in OLD'."""
    from .i18n import t
    return t("possible_only_new" if c.get("side") == "new" else "possible_only_old")


def diff_view(report) -> DiffView | None:
    ex = report.extra or {}
    d = ex.get("diff")
    if isinstance(d, dict):
        return DiffView([fdict(f) for f in report.findings if not fdict(f).get("inconclusive")], True,
                        sorted((fdict(f) for f in d.get("resolved") or []), key=sev_key),
                        [_change(c) for c in d.get("decision_changes") or []],
                        [dict(r) for r in d.get("changed_rules") or []],
                        [str(x) for x in d.get("old") or []], [str(x) for x in d.get("new") or []],
                        bool(d.get("allow_changes", ex.get("allow_changes", False))))
    if any(k in ex for k in ("new", "resolved", "decision_changes")):
        return DiffView(sorted((fdict(f) for f in ex.get("new") or []), key=sev_key), False,
                        sorted((fdict(f) for f in ex.get("resolved") or []), key=sev_key),
                        [_change(c) for c in ex.get("decision_changes") or []],
                        [dict(r) for r in ex.get("changed_rules") or []], [], [],
                        bool(ex.get("allow_changes", False)))
    return None


def _change(c) -> dict:
    return dict(c) if isinstance(c, dict) else (c.to_dict() if hasattr(c, "to_dict") else dict(vars(c)))


def exit_code(report) -> int:
    """The exit code the command gives for this report (`diff`: changed decisions fail too)."""
    rc = report.exit_code()
    v = diff_view(report)
    if v is not None and rc != 1 and v.fails:
        return 1
    return rc


def summary(report) -> dict:
    """The report's summary as the command ends: for `diff`, the changed decisions and one-sided situations
    that fail the gate count among ``failing`` (``failing_changes``) and ``exit_code`` is the command's."""
    s = dict(report.summary())
    v = diff_view(report)
    if v is not None:
        s["failing_changes"] = len(v.changes) if v.fails else 0
        s["failing"] = s.get("failing", 0) + s["failing_changes"]
        s["exit_code"] = exit_code(report)
    return s


def change_key(c: dict) -> str:
    """A stable id of a decision change: its decision and question (as `diff` keys them)."""
    import hashlib
    from skillproof.checks.findings import canonical
    if c.get("id"):
        return str(c["id"])
    key = f"{c.get('decision')}|{canonical(c.get('question') or {})}"
    return f"decision-{hashlib.sha1(key.encode('utf-8')).hexdigest()[:10]}"


def change_title(c: dict, cat=None) -> str:
    """One line naming a decision change: the question, in the designer's terms when the catalogue is here
    (a change's own sentence — ``message`` / ``message_en`` — when it has one), in the run's language."""
    from .common import decision_word
    from .i18n import msg, pick
    if c.get("message"):
        return str(msg(c))
    q = c.get("question") or {}
    head = decision_word(c.get("decision", "")) + pick("：", ": ")
    if cat is not None and q:
        try:
            return head + question_line(cat, q, {}).rstrip(" ⇒")
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
    return head + (json.dumps(q, ensure_ascii=False, sort_keys=True) if q else "")


def answer_text(c: dict, side: str, cat=None) -> str:
    """What OLD or NEW decides (``side`` = "old" / "new"), as a short text in the run's language."""
    from .i18n import pick
    w = c.get("witness") if isinstance(c.get("witness"), dict) else {}
    if is_possible(c) and c.get("side") in ("new", "old"):
        if c["side"] == side:
            return pick("可能", "possible")
        other = w.get("other") or {}
        why = pick(other.get("text", ""), other.get("text_en") or other.get("text", ""))
        if why:
            return pick(f"不可能：{why}", f"impossible: {why}")
    if c.get("decision") == "engine" and isinstance(c.get("values"), dict) and side in c["values"]:
        from skillproof.checks.diff_text import engine_value
        return engine_value(c["values"][side])
    v = c.get(side, c.get({"old": "before", "new": "after"}[side]))
    if v is None:
        return ""
    if isinstance(v, dict) and cat is not None and c.get("question"):
        try:
            shown = {k: ("—" if x is None else x) for k, x in v.items()}
            return question_line(cat, c["question"], shown).split(" ⇒ ", 1)[1]
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)


def change_sides(c: dict, cat=None) -> tuple[str, str]:
    return answer_text(c, "old", cat), answer_text(c, "new", cat)


def change_witness(c: dict, cat=None) -> list[str]:
    """The witness of a change as lines (without a question line: OLD and NEW say it): the trace told step by
    step, the table it reaches; for a situation possible in one version, why the other version rules it out."""
    from .i18n import pick
    w = c.get("witness")
    if not w:
        return []
    if is_possible(c) and isinstance(w, dict):
        return _possible_lines(c, w, cat)
    if cat is not None and isinstance(w, dict) and "state" in w:
        try:
            lines = witness_lines(cat, {"state": w["state"], "question": c.get("question") or {},
                                        "expect": c.get("new") or {}, **({"trace": w["trace"]} if w.get("trace") else {})})
            if w.get("old_trace"):
                lines.insert(-1, pick("（旧版读这个局面时牌桌不同；它的经过在 JSON 报告里）",
                                      "(OLD reads this situation with another table; its trace is in the JSON report)"))
            return lines[:-1]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass
    return [json.dumps(w, ensure_ascii=False, sort_keys=True)]


def _possible_lines(c: dict, w: dict, cat) -> list[str]:
    """A one-sided situation: its trace as that version's narration tells it (``model.narrate_story.steps``, stored in
    the witness in both languages), the table it ends at, and the other version's reason."""
    from skillproof.model.turn import window_name
    from .common import step_line
    from .i18n import pick, t
    new_side = w.get("side", c.get("side")) == "new"
    side, other = (t("NEW"), t("OLD")) if new_side else (t("OLD"), t("NEW"))
    lines = [pick(f"经过（{side}）：", f"what happened ({side}):")]
    un = w.get("unrealised")
    if isinstance(un, dict):
        lines.insert(0, pick(f"（时序模型的轨迹：界限内没有找到服务器能打出的一局——{un.get('zh', '')}；牌桌不动）",
                             f"(the timed model's trace: no game of the server found within the bounds — "
                             f"{un.get('en', '')}; the table does not move)"))
    steps = pick(w.get("steps") or [], w.get("steps_en") or w.get("steps") or [])
    lines += [f"  {step_line(s)}" for s in steps]
    st = w.get("state") or {}
    if st.get("window"):
        lines.append(pick("此时：", "now: ") + window_name(st["window"]))
    if cat is not None and new_side:              # the report's catalogue is NEW's: it names NEW's tables
        try:
            lines += [seat_line(cat, i, s, st["seats"], st) for i, s in enumerate(st.get("seats") or [])]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass
    o = w.get("other") or {}
    reason = pick(o.get("text", ""), o.get("text_en") or o.get("text", ""))
    if reason:
        lines.append(f"{other}{pick('：', ': ')}{reason}")
    return lines


CHANGE = {"added": ("新增", "added"), "changed": ("改动", "changed"), "removed": ("删除", "removed"),
          "gives site changed": ("给出点改动", "gives site changed")}


def change_text(r: dict) -> str:
    """What happened to a changed rule (a `diff` rule reference or changed_rules entry), in the run's language:
    改动 / changed, 由奇货可居改名 / renamed from 奇货可居, 加入毛不拔的技能 / added to 毛不拔's skills."""
    from .i18n import pick
    ch = str(r.get("change", ""))
    of = r.get("of", "")
    if ch == "added to skills":
        return pick(f"加入{of}的技能", f"added to {of}'s skills")
    if ch == "removed from skills":
        return pick(f"移出{of}的技能", f"removed from {of}'s skills")
    if ch.startswith("renamed from "):
        old = r.get("from") or ch[len("renamed from "):]
        return pick(f"由{old}改名", f"renamed from {old}")
    zh, en = CHANGE.get(ch, (ch, ch))
    return pick(zh, en)


def changed_name(r: dict) -> str:
    """A changed rule's name in the run's language (``name_en`` where the English differs)."""
    from .i18n import pick
    name = r.get("name") or r.get("id", "")
    return pick(name, r.get("name_en") or name)


def change_rules(c: dict) -> list[dict]:
    """The located rules of a decision change, named in the run's language (their `change` — added / changed /
    removed — as the role)."""
    rules = []
    for r in c.get("rules") or []:
        if hasattr(r, "to_dict"):
            r = r.to_dict()
        if isinstance(r, dict):
            r = dict(r)
            if r.get("change") and not r.get("role"):
                r["role"] = change_text(r)
            r["name"] = changed_name(r)
            rules.append(r)
    return rules_of({"rules": rules})


def summary_line(report) -> str:
    """The verdict and the counts, in one line (the text format's summary, without colours), in the run's
    language: 通过 / 未通过 / 无法判定 (ok / FAIL / INCONCLUSIVE with --lang en; scripts read the exit code or
    JSON's ``summary``)."""
    from .i18n import is_en, plural, sev
    en = is_en()
    v = diff_view(report)
    pre = ""
    if v is not None:
        n, p = len(v.decisions), len(v.possible)
        if en:
            pre = (f"{n} changed decision{'s' if n != 1 else ''}"
                   + (f", {p} situation{'s' if p != 1 else ''} possible in one version only" if p else "")
                   + f"{' (allowed)' if v.changes and v.allow_changes else ''}, {len(v.new)} new finding"
                   f"{'s' if len(v.new) != 1 else ''}, {len(v.resolved)} resolved; ")
        else:
            pre = (f"{n} 个判定改变" + (f"，{p} 个局面只在一个版本中可能" if p else "")
                   + f"{'（已允许）' if v.changes and v.allow_changes else ''}，{len(v.new)} 个新问题，"
                   f"{len(v.resolved)} 个已解决；")
    cnt = report.counts()
    parts = [f"{cnt[s]} {s}{'s' if cnt[s] != 1 else ''}" if en else f"{sev(s)} {cnt[s]}" for s in SEVERITIES]
    extra = []
    if report.inconclusive:
        extra.append(f"{len(report.inconclusive)} inconclusive" if en else f"{len(report.inconclusive)} 个无法判定")
    n_int = len(report.intended)
    if n_int:
        extra.append(f"{n_int} of the notes designed behaviour" if en else f"其中 {n_int} 个提示是设计如此")
    if report.passes:
        extra.append(plural(len(report.passes), " 个意图已证明", "intent") + (" proved" if en else ""))
    inline = len(getattr(report, "in_source", {}) or {})
    if len(report.suppressed) - inline:
        k = len(report.suppressed) - inline
        extra.append(f"{k} suppressed by baseline" if en else f"{k} 个被基线接受")
    if inline:
        extra.append(f"{inline} suppressed inline" if en else f"{inline} 个在规则旁被忽略")
    review = len(getattr(report, "to_review", ()) or ())
    if review:
        extra.append(f"{review} baseline entr{'ies' if review != 1 else 'y'} to review" if en else f"{review} 条基线条目待审")
    st_inline = sum(1 for e in report.stale if e.get("kind") == "inline")
    if len(report.stale) - st_inline:
        k = len(report.stale) - st_inline
        extra.append(f"{k} stale baseline entries" if en else f"{k} 条过时的基线条目")
    if st_inline:
        extra.append(f"{st_inline} stale inline suppression{'s' if st_inline != 1 else ''}" if en
                     else f"{st_inline} 条过时的规则旁忽略")
    status = ({0: "ok", 1: "FAIL", 3: "INCONCLUSIVE"} if en else {0: "通过", 1: "未通过", 3: "无法判定"}).get(
        exit_code(report), "FAIL" if en else "未通过")
    n = len(report.findings)
    if en:
        s = f"{pre}{status}: {n} finding{'s' if n != 1 else ''} ({', '.join(parts)})"
        if extra:
            s += "; " + ", ".join(extra)
        return s + f"; failing at --fail-on={report.fail_on}: {len(report.failing())}"
    s = f"{pre}{status}：{n} 个问题（{'，'.join(parts)}）"
    if extra:
        s += "；" + "，".join(extra)
    return s + f"；按 --fail-on={report.fail_on} 判为失败：{len(report.failing())}"


def accepted_reason(report, fid: str, reason: str) -> str:
    """An accepted finding's reason as reports show it: a baseline entry still to review says so."""
    from .i18n import pick
    if fid in (getattr(report, "to_review", ()) or ()):
        return pick("待审（基线条目标为 to_review，还没有写理由）", "to review (the baseline entry says to_review; no reason yet)") \
            + (f"：{reason}" if reason.strip() else "")
    return reason


def accepted_where(report, fid: str) -> str:
    """Where a suppressed finding was accepted: 'inline at file:line' or 'in the baseline'."""
    from .i18n import pick
    w = (getattr(report, "in_source", {}) or {}).get(fid)
    if w:
        return pick(f"在 {w['file']}:{w['line']} 的规则旁", f"inline at {w['file']}:{w['line']}")
    return pick("在基线中", "in the baseline")


def stale_text(e: dict) -> str:
    """One line for a stale baseline entry or inline suppression."""
    from .i18n import pick
    at = f" ({e['file']}:{e.get('line', 0)})" if e.get("file") else ""
    why_en = f" (reason was: {e['reason']})" if e.get("reason") else ""
    why_zh = f"（原理由：{e['reason']}）" if e.get("reason") else ""
    if e.get("kind") == "inline":
        return pick(f"规则旁的 ignore[{e.get('id')}]{at}（{e.get('rule', '')}）不再接受任何问题——删掉它{why_zh}",
                    f"inline ignore[{e.get('id')}]{at} next to {e.get('rule', '')} accepts nothing any more — delete it"
                    + why_en)
    return pick(f"基线条目 {e.get('id')}{at}：接受的问题不再出现——删掉它{why_zh}",
                f"baseline entry {e.get('id')}{at}: the accepted finding no longer occurs — delete it" + why_en)


def checkout_path(name: str) -> str:
    """A catalogue file as a path of the checkout: `diff` names files of a git revision ``REV:path`` (e.g.
    ``origin/main:rules/a.toml``); the same file of the working tree is ``path`` (git paths are relative to
    the repository root, where CI runs skillproof)."""
    rev, sep, rest = str(name).partition(":")
    if sep and len(rev) > 1 and rest and not rest.startswith(("/", "\\")) and "/" not in rev[:1]:
        return rest
    return str(name)


# ------------------------------------------------------------------------------- intents
def intended_of(fd: dict) -> dict:
    """The intent that documents a finding as designed behaviour ({} when none)."""
    return ((fd.get("details") or {}).get("intended_by")) or {}


def intended_text(fd: dict) -> str:
    """"intended by ID (source)" for a finding an intent documents as designed ('' otherwise)."""
    from .i18n import pick
    it = intended_of(fd)
    if not it:
        return ""
    return pick(f"设计如此，见意图 {it['intent']}（{it.get('source', '')}）",
                f"intended by {it['intent']} ({it.get('source', '')})")


def intended_line(report) -> str:
    """Designed behaviour in one line: how many findings, documented by which intents ('' when none)."""
    fs = report.intended
    if not fs:
        return ""
    by = {intended_of(fdict(f))["intent"] for f in fs}
    from .i18n import is_en
    if not is_en():
        more = "" if report.show_intended else "——`skillproof check --show intended` 列出它们"
        return f"设计如此：{len(fs)} 个问题是规则书写明的设计（{len(by)} 个意图说明了它们）{more}"
    more = "" if report.show_intended else " — `skillproof check --show intended` lists them"
    return (f"designed behaviour: {len(fs)} finding{'s' if len(fs) != 1 else ''} the rule book documents as "
            f"intended (by {len(by)} intent{'s' if len(by) != 1 else ''}){more}")


def pass_text(p: dict) -> str:
    """One line for a proved intent: its id, the promise, the source."""
    from .i18n import pick
    what = p.get("text") or p.get("claim", "")
    return pick(f"{p.get('intent')}：{what}（{p.get('source', '')}）", f"{p.get('intent')}: {what} ({p.get('source', '')})")


def passes_line(report) -> str:
    """How many intents were proved and how many are broken, in one line ('' without intents)."""
    broken = [f for f in report.findings if f.check == "IN001"] + \
        [f for f, _ in report.suppressed if fdict(f).get("check") == "IN001"]
    if not report.passes and not broken:
        return ""
    from .i18n import is_en
    acc = sum(1 for f, _ in report.suppressed if fdict(f).get('check') == 'IN001')
    if not is_en():
        return f"意图：{len(report.passes)} 个已证明，{len(broken)} 个被违反" + (f"（{acc} 个已接受）" if acc else "")
    return (f"intents: {len(report.passes)} proved, {len(broken)} broken" + (f" ({acc} accepted)" if acc else ""))


def lead_with_intents(findings) -> list:
    """Findings in report order with the broken intents first within each severity (what needs action
    leads: a rule-book promise the rules break)."""
    return sorted(findings, key=lambda f: (SEVERITY_RANK.get(fdict(f).get("severity"), 9),
                                           fdict(f).get("check") != "IN001"))
