"""JUnit XML, for the test-report views of Jenkins (junit step) and GitLab (artifacts:reports:junit).

One ``<testsuite>`` per check family that ran (``skillproof.<family>``). In it, each check code is one
passing test case while it finds nothing; each finding is its own test case, named by the code and the
finding's meaning-based id (stable across runs, so the CI's history tracks it), with

* ``<failure>`` when the finding is at or above ``--fail-on`` (the same findings that make the exit code 1),
* ``<error>`` when the solver could not decide (inconclusive: exit code 3),
* ``<skipped>`` when it is below ``--fail-on``, accepted in the baseline, or designed behaviour an [[intent]]
  documents (the message says which),

a proved ``[[intent]]`` is a passing test case of ``skillproof.intent`` (``IN001 intent ID [id]``, the name its
failing case has when the intent is broken),

and the message, the rules with file:line and the witness as the element's text. Stale baseline entries
are skipped test cases of ``skillproof.baseline``; a `diff` report adds ``skillproof.diff`` with one
failing test case per changed decision and per new finding. Times are 0: reports are deterministic.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from .util import (accepted_reason, accepted_where, change_key, change_rules, change_sides, change_title, change_witness, code_info, diff_view,
                   failing_ids, fdict, intended_text, is_possible, loc_text, possible_kind, rules_of, stale_text, witness_text)

from .i18n import fix, msg, pick, role, sev, t

NAME = "junit"
DESCRIPTION = "JUnit XML for Jenkins and GitLab test reports"

_BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _x(s) -> str:
    return _BAD_XML.sub("\ufffd", str(s))


def _rule_line(r: dict) -> str:
    """A rule of a finding or change: its name (the id only when it has none), where it is, its role."""
    return f"{r.get('name') or r.get('id')} {loc_text(r)}" + (f" — {role(r)}" if r.get("role") else "")


def _body(fd: dict, cat=None) -> str:
    lines = [msg(fd)] + ([f"{t('fix')}{fix(fd)}"] if fix(fd) else []) + \
        ["", f"{t('id')}: {fd.get('id', '')}", f"{t('check')}: {fd.get('check', '')} ({sev(fd.get('severity', ''))})"]
    rules = rules_of(fd)
    if rules:
        lines.append(t("rules").strip())
        lines.extend(f"  {_rule_line(r)}" for r in rules)
    w = witness_text(fd, cat)
    if w:
        lines.append(t("witness"))
        lines.extend(f"  {x}" for x in w)
    return "\n".join(lines) + "\n"


class _Suite:
    def __init__(self, name: str):
        self.el = ET.Element("testsuite", {"name": name})
        self.name = name
        self.counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}

    def case(self, name: str, classname: str | None = None):
        # no file/line attributes: the Jenkins xunit schema (junit-10.xsd) does not allow them; the
        # locations are in the text
        attrs = {"classname": _x(classname or self.name), "name": _x(name), "time": "0"}
        self.counts["tests"] += 1
        return ET.SubElement(self.el, "testcase", attrs)

    def outcome(self, case, kind: str, message: str, typ: str = "", text: str = ""):
        attrs = {"message": _x(message)}
        if typ:
            attrs["type"] = _x(typ)
        el = ET.SubElement(case, kind, attrs)
        if text:
            el.text = _x(text)
        self.counts[{"failure": "failures", "error": "errors", "skipped": "skipped"}[kind]] += 1

    def done(self):
        for k in ("tests", "failures", "errors", "skipped"):
            self.el.set(k, str(self.counts[k]))
        self.el.set("time", "0")
        return self.el


def _intent_case_name(check: str, intent: str, fid: str) -> str:
    """A test case per intent, named the same whether it holds or is broken (the CI's history tracks it)."""
    return f"{check} intent {intent} [{fid}]"


def _finding_case(suite: _Suite, report, fd: dict, cat, failing: set, reason: str | None = None):
    _fam, c = code_info(report, fd.get("check", ""))
    name = f"{fd.get('check')} {c.name if c else ''} [{fd.get('id')}]".replace("  ", " ")
    intent = (fd.get("details") or {}).get("intent") if fd.get("family") == "intent" else None
    if intent:
        name = _intent_case_name(fd.get("check", ""), intent, fd.get("id", ""))
    case = suite.case(name, f"{suite.name}.{fd.get('check')}")
    m = msg(fd)
    if reason is not None:
        reason = accepted_reason(report, fd.get("id", ""), reason)
        suite.outcome(case, "skipped", pick(f"已接受（{accepted_where(report, fd.get('id', ''))}）：{reason}——{m}",
                                            f"accepted {accepted_where(report, fd.get('id', ''))}: {reason} — {m}"))
        ET.SubElement(case, "system-out").text = _x(_body(fd, cat))
    elif fd.get("inconclusive"):
        suite.outcome(case, "error", m, f"{fd.get('check')} inconclusive", _body(fd, cat))
    elif fd.get("id") in failing:
        suite.outcome(case, "failure", m, f"{fd.get('check')} {fd.get('severity')}", _body(fd, cat))
    elif intended_text(fd):
        suite.outcome(case, "skipped", pick(f"{intended_text(fd)}：{m}", f"designed behaviour, {intended_text(fd)}: {m}"))
        ET.SubElement(case, "system-out").text = _x(_body(fd, cat))
    else:
        suite.outcome(case, "skipped", pick(f"{sev(fd.get('severity'))}低于 --fail-on={report.fail_on}：{m}",
                                            f"{fd.get('severity')} below --fail-on={report.fail_on}: {m}"))
        ET.SubElement(case, "system-out").text = _x(_body(fd, cat))


def document(report, cat=None) -> ET.Element:
    codes = report.codes()
    failing = failing_ids(report)
    by_family: dict[str, list] = {}
    for f in report.findings:
        fd = fdict(f)
        by_family.setdefault(fd.get("family", ""), []).append((fd, None))
    for f, reason in report.suppressed:
        fd = fdict(f)
        by_family.setdefault(fd.get("family", ""), []).append((fd, reason))
    ran = list(report.families)
    fam_codes = {}
    for code, (fam, c) in sorted(codes.items()):
        if fam is not None:
            fam_codes.setdefault(fam.name, []).append(c)
    root = ET.Element("testsuites", {"name": _x(report.title)})
    suites = []
    for fam in ran + sorted(set(by_family) - set(ran)):
        s = _Suite(f"skillproof.{fam}")
        items = sorted(by_family.get(fam, []), key=lambda x: (x[0].get("check", ""), x[0].get("id", "")))
        known = [c.code for c in fam_codes.get(fam, [])]
        passes = [p for p in report.passes if p.get("family", "intent") == fam]
        for c in fam_codes.get(fam, []):          # per code: its findings, or one passing test case
            mine = [x for x in items if x[0].get("check") == c.code]
            if c.code == "IN001" and passes:      # one passing test case per proved intent
                for p in passes:
                    s.case(_intent_case_name("IN001", p.get("intent", ""), p.get("id", "")), f"{s.name}.IN001")
            elif not mine:
                s.case(f"{c.code} {c.name}", f"{s.name}.{c.code}")
            for fd, reason in mine:
                _finding_case(s, report, fd, cat, failing, reason)
        for fd, reason in items:                  # codes outside the family's list (INC001)
            if fd.get("check") not in known:
                _finding_case(s, report, fd, cat, failing, reason)
        suites.append(s)
    if report.stale:
        s = _Suite("skillproof.baseline")
        for e in report.stale:
            case = s.case(f"stale entry [{e.get('id')}]", f"{s.name}.stale")
            s.outcome(case, "skipped", pick(f"过时：{stale_text(e)}", f"stale {stale_text(e)}"))
        suites.append(s)
    view = diff_view(report)
    if view is not None:
        s = next((x for x in suites if x.name == "skillproof.diff"), None)   # (inconclusive diff questions)
        if s is None:
            s = _Suite("skillproof.diff")
            suites.append(s)
        for ch in view.changes:
            rules = change_rules(ch)
            title = change_title(ch, cat)
            what = possible_kind(ch) if is_possible(ch) else t("decision_changed")
            case = s.case(f"{what}: {title} [{change_key(ch)}]", f"{s.name}.decision.{ch.get('decision')}")
            old, new = change_sides(ch, cat)
            colon = pick("：", ": ")
            text = "\n".join([title, f"{t('OLD')}{colon}{old}", f"{t('NEW')}{colon}{new}"]
                             + ([t("rules").strip()] + [f"  {_rule_line(r)}" for r in rules] if rules else [])
                             + ([t("witness")] + [f"  {x}" for x in change_witness(ch, cat)] if ch.get("witness") else [])
                             ) + "\n"
            if view.allow_changes:
                s.outcome(case, "skipped", pick(f"已允许（--allow-changes）：{title}", f"allowed (--allow-changes): {title}"))
                ET.SubElement(case, "system-out").text = _x(text)
            else:
                s.outcome(case, "failure", title, "possible-in-one-version" if is_possible(ch) else "decision-changed",
                          text)
        if not view.new_are_findings:
            for fd in view.new:
                case = s.case(pick(f"新问题 {fd.get('check')} [{fd.get('id')}]", f"new finding {fd.get('check')} [{fd.get('id')}]"),
                              f"{s.name}.new")
                s.outcome(case, "failure", msg(fd), f"{fd.get('check')} new", _body(fd, cat))
        for fd in view.resolved:
            case = s.case(pick(f"已解决的问题 {fd.get('check')} [{fd.get('id')}]",
                               f"resolved finding {fd.get('check')} [{fd.get('id')}]"), f"{s.name}.resolved")
            ET.SubElement(case, "system-out").text = _x(_body(fd))
        if view.changed_rules:
            props = ET.Element("properties")
            for r in view.changed_rules:
                ET.SubElement(props, "property", {"name": _x(f"rule {r.get('id')}"), "value": _x(r.get("change", ""))})
            s.el.insert(0, props)
    tot = {"tests": 0, "failures": 0, "errors": 0}      # junit-10.xsd has no `skipped` on <testsuites>
    for s in suites:
        root.append(s.done())
        for k in tot:
            tot[k] += s.counts[k]
    for k, v in tot.items():
        root.set(k, str(v))
    root.set("time", "0")
    return root


def render(report, cat=None) -> str:
    root = document(report, cat)
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
