"""The gate on the server's own history: replay labelled commit pairs through `skillproof diff --kotlin`.

    .venv/bin/python benchmarks/history_bench.py --repo TheMessage [--labels benchmarks/history/labels.toml]
                                                 [--only SHA,...] [--label engine_change,...] [--json out.json]

For every labelled pair (parent → commit) it runs the one command a CI job would run,

    skillproof diff --kotlin REPO PARENT COMMIT --format json --output …

and prints the verdict, the exit code and the time; then a summary. A *real change* (label new_rule,
rule_change or engine_change) is **caught** when the gate fails (exit 1) and a failing item — a changed engine
rule, a changed decision or a new finding — names one of the rules or engine rules the label lists; a refactor
or bot-logic commit is **quiet** when the gate passes (exit 0). Exit 2 is a *degraded* extraction (or bad
input), exit 3 inconclusive, anything else (a traceback) a crash. For a missed change the script says why: what
the catalogues differ in when no decision differs and no situation involving a changed id is possible in only one
version.

Labels are our own reading of each commit's diff (benchmarks/history/README.md); REPO is a clone of
CuteReimu/TheMessage (a bare one works). Nothing is downloaded by this script.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "benchmarks" / "history" / "labels.toml"
CHANGES = ("new_rule", "rule_change", "engine_change")
QUIET = ("refactor", "bot_logic")

#: the label's `fields` for engine rules → the names the extractor gives them (a prefix ending in "." matches
#: every name it starts)
FIELD_NAMES = {
    "rules.face_down_converts": ("face_down_converts", "face_down_grant_converts"),
    "rules.turn_end": ("turn_end",),
    "engine.receive_reconcile": ("must_receive", "must_beats_cannot"),
    "engine.initial_face_up": ("roles.start_face_up",),
    "engine.trigger_dispatch": ("trigger.",),
    "engine.dead_owner_skip": ("trigger.dead_owner", "result_pass.dead_owner", "win_pass.dead_owner"),
    "engine.invalidation_scope": ("invalidation.wraps",),
    "engine.skip_fight": ("skip_fight",),
    "engine.skip_dying": ("skip_dying",),
    "engine.send_defaults": ("lock_self.",),
    "engine.send_defaults.lock": ("lock_self.",),
    "engine.result_pass": ("result_pass.",),
    "engine.convert_loop": ("convert.", "face_down_converts", "face_down_grant_converts"),
    "engine.draw_fold": ("draw_base",),
}


def load_labels(path: Path) -> list[dict]:
    with open(path, "rb") as fh:
        return tomllib.load(fh)["commit"]


def expected_names(pair: dict) -> set:
    names = set(pair.get("rules") or [])
    for f in pair.get("fields") or []:
        names.update(FIELD_NAMES.get(f, ()))
    return names


def _matches(named: set, expected: set) -> list:
    out = set()
    for e in expected:
        if e.endswith("."):
            out.update(n for n in named if n.startswith(e))
        elif e in named:
            out.add(e)
    return sorted(out)


def _diff(report) -> dict:
    """The diff section of a JSON report."""
    return (report or {}).get("diff") or ((report or {}).get("extra") or {}).get("diff") or {}


def named_in(report: dict) -> set:
    """Every rule a failing item of a `diff --kotlin` JSON report names."""
    d = _diff(report)
    out = set()
    for ch in d.get("decision_changes") or []:
        out.update(r.get("id") for r in ch.get("rules") or [])
        if (ch.get("question") or {}).get("engine_rule"):
            out.add(ch["question"]["engine_rule"])
    for f in report.get("findings") or []:
        out.update(r.get("id") for r in f.get("rules") or [])
    out.discard(None)
    return out


def replay(repo: str, pair: dict, extra_args=(), timeout=600) -> dict:
    """Run the gate on one pair: {rc, seconds, report (dict or None), stderr}."""
    with tempfile.TemporaryDirectory(prefix="history-bench-") as td:
        out = Path(td) / "report.json"
        cmd = [sys.executable, "-m", "skillproof", "diff", "--kotlin", repo, pair["parent"], pair["sha"],
               "--format", "json", "--output", str(out), "--quiet", "--lang", "en", *extra_args]   # its summary is English
        t = time.perf_counter()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            rc, err = r.returncode, r.stderr
        except subprocess.TimeoutExpired:
            rc, err = -1, f"timed out after {timeout}s"
        secs = time.perf_counter() - t
        report = None
        if out.exists():
            try:
                report = json.loads(out.read_text(encoding="utf-8"))
            except json.JSONDecodeError:
                report = None
    return {"rc": rc, "seconds": secs, "report": report, "stderr": err}


def verdict(pair: dict, run: dict) -> tuple[str, str]:
    """(verdict, detail) of one replayed pair."""
    rc, rep, err = run["rc"], run["report"], run["stderr"]
    label = pair["label"]
    if rc not in (0, 1, 2, 3) or "Traceback (most recent call last)" in err:
        last = [ln for ln in err.strip().splitlines() if ln.strip()]
        return "crash", last[-1] if last else f"exit {rc}"
    if rc == 2:
        why = [ln[len("error: "):] for ln in err.splitlines() if ln.startswith("error: ")]
        return "degraded", "; ".join(why) or "exit 2"
    if rc == 3:
        return "inconclusive", "exit 3"
    named = named_in(rep) if rep else set()
    d = _diff(rep)
    if label in CHANGES:
        if rc == 1:
            hit = _matches(named, expected_names(pair))
            if hit:
                return "caught", "names " + ", ".join(hit[:4])
            return "failed, other rule", "names " + ", ".join(sorted(named)[:4])
        changed = [f"{r['id']}({r['change'][0]})" for r in d.get("changed_rules") or []]
        if changed:
            return "missed", ("catalogues differ (" + ", ".join(changed[:6]) + (" …" if len(changed) > 6 else "")
                              + ") but no decision differs and no situation is possible in one version only")
        return "missed", "the extracted catalogues do not differ"
    if label in QUIET:
        if rc == 0:
            nu = len(d.get("newly_understood") or [])
            return "quiet", f"{nu} newly understood" if nu else ""
        return "false alarm", "names " + ", ".join(sorted(named)[:4])
    return ("flagged" if rc == 1 else "quiet"), ("names " + ", ".join(sorted(named)[:4])) if rc == 1 else ""


def summary(rows: list) -> list[str]:
    def count(labels, verdicts):
        return sum(1 for p, v, _d, _r in rows if p["label"] in labels and v in verdicts)
    n_change = sum(1 for p, *_ in rows if p["label"] in CHANGES)
    n_quiet = sum(1 for p, *_ in rows if p["label"] in QUIET)
    n_other = sum(1 for p, *_ in rows if p["label"] not in CHANGES + QUIET)
    caught = count(CHANGES, ("caught",))
    out = [f"pairs: {len(rows)} ({n_change} real changes, {n_quiet} refactor/bot-logic, {n_other} other behaviour)"]
    if n_change:
        out.append(f"real changes caught (exit 1 naming the changed rule): {caught}/{n_change} "
                   f"({100 * caught / n_change:.0f}%)")
        for lab in CHANGES:
            n = sum(1 for p, *_ in rows if p["label"] == lab)
            if n:
                out.append(f"  {lab}: {count((lab,), ('caught',))}/{n} caught, "
                           f"{count((lab,), ('failed, other rule',))} failed naming another rule, "
                           f"{count((lab,), ('missed',))} missed, {count((lab,), ('degraded',))} degraded")
    if n_quiet:
        fa = count(QUIET, ("false alarm",))
        out.append(f"refactor/bot-logic quiet: {count(QUIET, ('quiet',))}/{n_quiet}; false alarms: {fa} "
                   f"({100 * fa / n_quiet:.0f}%); degraded: {count(QUIET, ('degraded',))}")
    if n_other:
        out.append(f"other behaviour (outside the catalogue): {count(('other_behaviour',), ('flagged',))}/{n_other} "
                   "flagged")
    out.append(f"crashes: {sum(1 for _p, v, *_ in rows if v == 'crash')}; exit 3: "
               f"{sum(1 for _p, v, *_ in rows if v == 'inconclusive')}; degraded (exit 2): "
               f"{sum(1 for _p, v, *_ in rows if v == 'degraded')}")
    secs = [r["seconds"] for *_x, r in rows]
    if secs:
        out.append(f"time per pair: median {statistics.median(secs):.1f} s, max {max(secs):.1f} s, "
                   f"total {sum(secs) / 60:.1f} min")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True, help="a clone of CuteReimu/TheMessage (bare is fine)")
    ap.add_argument("--labels", default=str(LABELS), help="the labelled pairs (default: %(default)s)")
    ap.add_argument("--only", default="", help="comma-separated sha prefixes to replay")
    ap.add_argument("--label", default="", help="comma-separated labels to replay")
    ap.add_argument("--json", metavar="FILE", help="also write every verdict as JSON")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per pair before it counts as a crash")
    a = ap.parse_args(argv)
    pairs = load_labels(Path(a.labels))
    if a.only:
        pre = tuple(x.strip() for x in a.only.split(",") if x.strip())
        pairs = [p for p in pairs if p["sha"].startswith(pre)]
    if a.label:
        pairs = [p for p in pairs if p["label"] in a.label.split(",")]
    rows = []
    for p in pairs:
        run = replay(a.repo, p, timeout=a.timeout)
        v, detail = verdict(p, run)
        rows.append((p, v, detail, run))
        print(f"{p['sha'][:8]} {p['label']:<15} {v:<18} exit {run['rc']}  {run['seconds']:5.1f}s  {detail}",
              flush=True)
    print()
    for line in summary(rows):
        print(line)
    if a.json:
        Path(a.json).write_text(json.dumps([{"sha": p["sha"], "label": p["label"], "verdict": v, "detail": d,
                                             "rc": r["rc"], "seconds": round(r["seconds"], 2)}
                                            for p, v, d, r in rows], indent=1, ensure_ascii=False) + "\n",
                                encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
