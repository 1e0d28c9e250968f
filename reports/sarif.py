"""SARIF 2.1.0 (OASIS), ready for GitHub code scanning (`github/codeql-action/upload-sarif`).

One run. ``tool.driver.rules`` lists every check of the registry (short description = what it finds, full
description = why it matters, help = both plus the example catalogue that triggers it). Each finding is a
result with its ``ruleId``, ``level`` (error / warning / note), message, one location per rule involved (the
catalogue file relative to ``%SRCROOT%`` and the rule's line), ``partialFingerprints`` from the finding's
meaning-based id (so code scanning tracks an alert across edits that move lines), and the witness in
``properties``. Findings accepted in a baseline are results with ``suppressions`` (kind ``external``, the
baseline's reason) — kind ``inSource``, at the comment, for an inline ``# skillproof: ignore[CODE] reason``;
stale baseline entries and inline suppressions are tool notifications. A proved ``[[intent]]`` is a result of
kind ``pass`` (level ``none``) at the intent's line, fingerprinted like its IN001 finding; a finding an
intent documents as designed behaviour carries ``properties.intendedBy``. Every rule carries its page inline
(``help.text`` and ``help.markdown``, in the run's language, as `skillproof rules CODE` prints it) and a ``helpUri``
only where the documentation is published (``[project.urls]`` Documentation; none yet: no dead link). A result's
first location is the rule the finding is about (code scanning shows only that one): the finding's first rule, and
in a `diff` report a changed rule first. Every result's message ends with the fix hint, and the invocation records
the command's ``exitCode``. A `diff` report adds its new and resolved
findings (``baselineState`` new / absent), one result per changed decision and one per situation possible in
only one version (rule ``possible-in-one-version``).
"""
from __future__ import annotations

import json
import os
import posixpath
from pathlib import PurePosixPath, PureWindowsPath
from urllib.parse import quote

from skillproof.checks.findings import SEVERITY_RANK

from skillproof import docs_url

from .ruledocs import help_uri

from .i18n import fix, msg, pick, role as role_word, t
from .util import (accepted_reason, accepted_where, summary, checkout_path, change_key, change_rules, change_sides, change_title, change_witness, code_info, diff_view,
                   exit_code, fdict, intended_of, is_possible, rules_of, stale_text, witness_text)

NAME = "sarif"
DESCRIPTION = "SARIF 2.1.0 for code scanning (GitHub, Azure DevOps, IDE viewers)"

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT = "skillproofFindingId/v1"
DECISION_RULE = "decision-changed"
POSSIBLE_RULE = "possible-in-one-version"
LEVEL = {"error": "error", "warning": "warning", "note": "note"}
PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "note": "recommendation"}


def artifact_location(path: str) -> dict:
    """A catalogue file as an artifactLocation: relative paths (as reports name files) are URIs relative
    to ``%SRCROOT%``, percent-encoded; absolute paths become file: URIs. A file of a git revision
    (``REV:path``, from `diff`) is located at ``path`` in the checkout."""
    path = checkout_path(path)
    p = path.replace(os.sep, "/") if os.sep != "/" else path
    if PureWindowsPath(path).is_absolute() and not p.startswith("/"):
        return {"uri": "file:///" + quote(p.replace("\\", "/"), safe="/:")}
    if p.startswith("/"):
        return {"uri": "file://" + quote(p, safe="/")}
    p = posixpath.normpath(p)
    return {"uri": quote(str(PurePosixPath(p)), safe="/"), "uriBaseId": SRCROOT}


def _text(s: str) -> dict:
    return {"text": s}


def _rule_links(rule: dict, uri: str | None) -> dict:
    """``helpUri`` only where the documentation is published (``skillproof.docs_url``): no dead link."""
    if uri:
        rule["helpUri"] = uri
    return rule


def driver_rules(report, with_decisions: bool, with_possible: bool = False) -> list[dict]:
    """Every check as a reporting descriptor, in the run's language: the short description is its title, the
    full one what it finds and why it matters, ``help`` its whole page (``text`` and ``markdown``, as
    `skillproof rules CODE` prints it, the example catalogue included)."""
    from .i18n import code_title, family_title, page_text
    from .ruledocs import markdown_page, text_page
    out = []
    for code, (fam, c) in sorted(report.codes().items()):
        tags = ["skillproof", fam.name if fam is not None else "solver"]
        out.append(_rule_links({
            "id": code,
            "name": c.name,
            "shortDescription": _text(code_title(code, c)),
            "fullDescription": _text(pick(f"{page_text(c, 'summary')}：{page_text(c, 'why')}。",
                                          f"{page_text(c, 'summary')}: {page_text(c, 'why')}.")),
            "help": {"text": text_page(c, fam, indent=""), "markdown": markdown_page(c, fam)},
            "defaultConfiguration": {"level": LEVEL[c.severity]},
            "properties": {"tags": tags, "family": tags[1], "precision": "very-high",
                           "problem.severity": PROBLEM_SEVERITY[c.severity],
                           **({"familyTitle": family_title(fam.name, fam)} if fam is not None else {})},
        }, help_uri(code)))
    ci = f"{docs_url().rstrip('/')}/ci.md" if docs_url() else None
    if with_decisions:
        s = pick("新版规则下，游戏引擎的某个判定结果不同", "a decision of the game engine has a different outcome in the new rule version")
        why = pick("一处规则改动改变了服务器在某个可达局面中的判定（能否使用、选用的转化、禁令、接收、传出技能的覆盖、跳过、摸牌数）；"
                   "例证就是这样的局面",
                   "a rule edit changed what the server decides (can-use, the conversion chosen, bans, receive, "
                   "send override, skipping, draw count) for some reachable state; the witness is such a state")
        out.append(_rule_links({"id": DECISION_RULE, "name": DECISION_RULE, "shortDescription": _text(s),
                                "fullDescription": _text(pick(f"{s}：{why}。", f"{s}: {why}.")),
                                "help": {"text": pick(f"{s}。\n\n{why}。", f"{s}.\n\n{why}."),
                                         "markdown": pick(f"**{s}。**\n\n{why}。", f"**{s}.**\n\n{why}.")},
                                "defaultConfiguration": {"level": "warning"},
                                "properties": {"tags": ["skillproof", "diff"], "family": "diff", "precision": "very-high"}},
                               ci))
    if with_possible:
        s = pick("涉及改动的规则的某个局面只在一个版本中可能", "a situation involving a changed rule is possible in only one rule version")
        why = pick("一处规则改动改变了可能发生的事（角色多了一个技能、新角色、给出点的范围变大、某个标志改变）：例证是该局面可能的那个版本"
                   "中的一条经过，另一个版本的解释器说明它在那里为什么不可能",
                   "a rule edit changed what can happen (a skill added to a character, a new character, a grant site "
                   "reaching further, a flag flipped): the witness is a trace of the version where it is possible, and "
                   "the other version's interpreter says why it is not possible there")
        out.append(_rule_links({"id": POSSIBLE_RULE, "name": POSSIBLE_RULE, "shortDescription": _text(s),
                                "fullDescription": _text(pick(f"{s}：{why}。", f"{s}: {why}.")),
                                "help": {"text": pick(f"{s}。\n\n{why}。", f"{s}.\n\n{why}."),
                                         "markdown": pick(f"**{s}。**\n\n{why}。", f"**{s}.**\n\n{why}.")},
                                "defaultConfiguration": {"level": "warning"},
                                "properties": {"tags": ["skillproof", "diff"], "family": "diff", "precision": "very-high"}},
                               ci))
    return out


def _location(r: dict, idx: int, artifacts: dict) -> dict:
    loc: dict = {"id": idx}
    if r.get("file"):
        al = dict(artifact_location(r["file"]))
        if r["file"] in artifacts:
            al["index"] = artifacts[r["file"]]
        loc["physicalLocation"] = {"artifactLocation": al, "region": {"startLine": max(1, int(r.get("line") or 1))}}
    loc["logicalLocations"] = [{"name": r.get("name") or r.get("id", ""),
                                "fullyQualifiedName": r.get("id", ""), "kind": "member"}]
    role = pick(f"（{role_word(r)}）", f" — {role_word(r)}") if r.get("role") else ""
    loc["message"] = _text(f"{r.get('name') or r.get('id')}{role}")
    return loc


def _first_changed(rules: list[dict], changed: set) -> list[dict]:
    """The rules of a result with the changed ones (a `diff`'s changed rules) first, each group in its order: code
    scanning shows a result at its first location, which must be a line the pull request touched."""
    return [r for r in rules if r.get("id") in changed] + [r for r in rules if r.get("id") not in changed]


def result(report, fd: dict, rule_index: dict, artifacts: dict, cat=None, suppression: str | None = None,
           baseline_state: str | None = None, changed: set = frozenset()) -> dict:
    code = fd.get("check", "")
    sev = fd.get("severity", "warning")
    res: dict = {
        "ruleId": code,
        "level": LEVEL.get(sev, "warning"),
        "message": _text(msg(fd) + (f"\n{t('fix')}{fix(fd)}" if fix(fd) else "")),
        "partialFingerprints": {FINGERPRINT: fd.get("id", "")},
    }
    if code in rule_index:
        res["ruleIndex"] = rule_index[code]
    locs = [_location(r, i, artifacts) for i, r in enumerate(_first_changed(rules_of(fd), changed))]
    if locs:
        res["locations"] = locs
        if len(locs) > 1:        # code scanning shows only the first location; it lists related ones
            res["relatedLocations"] = [{k: v for k, v in x.items() if k != "id"} for x in locs[1:]]
    fam, _c = code_info(report, code)
    props: dict = {"findingId": fd.get("id", ""), "family": fd.get("family") or fam or "", "severity": sev}
    if fd.get("witness"):
        props["witness"] = fd["witness"]
        if cat is not None:
            props["witnessText"] = witness_text(fd, cat)
    if fd.get("inconclusive"):
        props["inconclusive"] = True
    if fd.get("details"):
        props["details"] = fd["details"]
    if fd.get("fix"):
        props["fix"] = fd["fix"]
    if intended_of(fd):
        props["intendedBy"] = intended_of(fd)
    res["properties"] = props
    if suppression is not None:
        where = (getattr(report, "in_source", {}) or {}).get(fd.get("id"))
        review = fd.get("id") in (getattr(report, "to_review", ()) or ())
        sup: dict = {"kind": "inSource" if where else "external", "status": "underReview" if review else "accepted",
                     "justification": accepted_reason(report, fd.get("id", ""), suppression)
                     or accepted_where(report, fd.get("id", ""))}
        if where:
            sup["location"] = {"physicalLocation": {"artifactLocation": artifact_location(where["file"]),
                                                    "region": {"startLine": max(1, int(where["line"]))}}}
        res["suppressions"] = [sup]
    if baseline_state:
        res["baselineState"] = baseline_state
        if baseline_state == "absent":       # resolved: no longer a problem, so not an alert either
            res["kind"] = "pass"
            res["level"] = "none"
    return res


def pass_result(p: dict, rule_index: dict, artifacts: dict) -> dict:
    """A proved intent: a result of kind ``pass`` (level none) at the intent's line, fingerprinted like the
    IN001 finding it would be if broken — so code scanning closes that alert when the promise holds again."""
    what = p.get("text") or p.get("claim", "")
    res: dict = {"ruleId": "IN001", "kind": "pass", "level": "none",
                 "message": _text(pick(f"意图 {p.get('intent')} 成立：{what}（{p.get('source', '')}）",
                                       f"intent {p.get('intent')} holds: {what} ({p.get('source', '')})")),
                 "partialFingerprints": {FINGERPRINT: p.get("id", "")}}
    if "IN001" in rule_index:
        res["ruleIndex"] = rule_index["IN001"]
    loc = _location({"id": p.get("intent", ""), "name": f"{pick('意图', 'intent')} {p.get('intent')}", "file": p.get("file", ""),
                     "line": p.get("line", 1)}, 0, artifacts)
    res["locations"] = [loc]
    res["properties"] = {"intent": p.get("intent"), "claim": p.get("claim"), "mode": p.get("mode"),
                         "source": p.get("source"), "bounds": p.get("bounds", {}), "family": "intent"}
    return res


def decision_result(c: dict, rule_index: dict, artifacts: dict, cat=None, allowed: bool = False,
                    changed: set = frozenset()) -> dict:
    old, new = change_sides(c, cat)
    msg = change_title(c, cat)
    if old or new:
        msg += pick(f"——旧版：{old or '?'}；新版：{new or '?'}", f" — OLD: {old or '?'}; NEW: {new or '?'}")
    rid = POSSIBLE_RULE if is_possible(c) else DECISION_RULE
    res: dict = {"ruleId": rid, "ruleIndex": rule_index[rid],
                 "level": "note" if allowed else "warning", "message": _text(msg)}
    rules = change_rules(c)
    changed = set(changed) | {r.get("id") for r in rules if r.get("change")}
    locs = [_location(r, i, artifacts) for i, r in enumerate(_first_changed(rules, changed))]
    if locs:
        res["locations"] = locs
        if len(locs) > 1:
            res["relatedLocations"] = [{k: v for k, v in x.items() if k != "id"} for x in locs[1:]]
    res["partialFingerprints"] = {FINGERPRINT: change_key(c)}
    props = {"decisionChange": c, "decision": c.get("decision", "")}
    if cat is not None and c.get("witness"):
        props["witnessText"] = change_witness(c, cat)
    res["properties"] = props
    return res


def document(report, cat=None) -> dict:
    view = diff_view(report)
    rules = driver_rules(report, bool(view and view.decisions), bool(view and view.possible))
    rule_index = {r["id"]: i for i, r in enumerate(rules)}
    files = sorted(set(report.catalogue_files))
    artifacts = {f: i for i, f in enumerate(files)}
    new_ids = {fd.get("id") for fd in view.new} if view else set()
    changed = {r.get("id") for r in view.changed_rules} if view else set()
    results = []
    for f in report.findings:
        fd = fdict(f)
        state = "new" if view and (view.new_are_findings or fd.get("id") in new_ids) else None
        results.append(result(report, fd, rule_index, artifacts, cat, baseline_state=state, changed=changed))
    for f, reason in sorted(report.suppressed, key=lambda x: _sort(fdict(x[0]))):
        results.append(result(report, fdict(f), rule_index, artifacts, cat, suppression=reason))
    for p in report.passes:
        results.append(pass_result(p, rule_index, artifacts))
    if view:
        seen = {r["properties"]["findingId"] for r in results}
        for fd in view.new:
            if fd.get("id") not in seen:
                results.append(result(report, fd, rule_index, artifacts, cat, baseline_state="new", changed=changed))
        for fd in view.resolved:
            results.append(result(report, fd, rule_index, artifacts, None, baseline_state="absent", changed=changed))
        for c in view.changes:
            results.append(decision_result(c, rule_index, artifacts, cat, view.allow_changes, changed))
    notes = []
    for e in report.stale:
        kind = "stale-inline-suppression" if e.get("kind") == "inline" else "stale-baseline-entry"
        n: dict = {"level": "warning", "descriptor": {"id": kind}, "message": _text(pick("过时：", "stale ") + stale_text(e))}
        if e.get("file"):
            n["locations"] = [{"physicalLocation": {"artifactLocation": artifact_location(e["file"]),
                                                    "region": {"startLine": max(1, int(e.get("line") or 1))}}}]
        n["properties"] = {k: v for k, v in sorted(e.items())}
        notes.append(n)
    invocation: dict = {"executionSuccessful": True, "exitCode": exit_code(report)}
    if notes:
        invocation["toolExecutionNotifications"] = notes
    run = {
        "tool": {"driver": {"name": "skillproof", "version": report.tool_version,
                            "semanticVersion": report.tool_version, "rules": rules}},
        "originalUriBaseIds": {SRCROOT: {"description": _text(pick("运行 skillproof 的目录；目录文件的路径相对于它",
                                                                   "the directory skillproof was run in; catalogue "
                                                                   "paths are relative to it"))}},
        "artifacts": [{"location": artifact_location(f), "roles": ["analysisTarget"], "mimeType": "application/toml"}
                      for f in files],
        "invocations": [invocation],
        "results": results,
        "properties": {"title": report.title, "summary": summary(report), "families": list(report.families)},
    }
    if view:
        run["properties"]["diff"] = {"old": view.old_files, "new": view.new_files, "changedRules": view.changed_rules,
                                     "decisionChanges": len(view.decisions), "possibleInOneVersion": len(view.possible),
                                     "newFindings": len(view.new),
                                     "resolvedFindings": len(view.resolved), "allowChanges": view.allow_changes}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _sort(fd: dict):
    return (SEVERITY_RANK.get(fd.get("severity"), 9), fd.get("check", ""), fd.get("id", ""))


def render(report, cat=None) -> str:
    return json.dumps(document(report, cat), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
