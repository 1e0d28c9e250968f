"""The gate on the server's own history: replay labelled commit pairs through `skillproof diff --kotlin`.

    .venv/bin/python benchmarks/history_bench.py --repo TheMessage [--labels benchmarks/history/labels.toml]
                                                 [--only SHA,...] [--label engine_change,...] [--kind trigger,...]
                                                 [--json out.json]

(``--repo`` may be left out when ``SKILLPROOF_SERVER_REPO`` names the clone; ``--labels`` takes any labels file
of the same format, inside the repository or not; ``--labels`` may be repeated.)

For every labelled pair (parent → commit) it runs the one command a CI job would run,

    skillproof diff --kotlin REPO PARENT COMMIT --format json --output …

and prints the verdict, the exit code and the time; then a summary. A *real change* (label new_rule,
rule_change or engine_change) is **caught** when the gate fails (exit 1) and a failing item — a changed engine
rule, a changed decision or a new finding — names one of the rules or engine rules the label lists; a refactor
or bot-logic commit is **quiet** when the gate passes (exit 0). Exit 2 is a *degraded* extraction (or bad
input), exit 3 inconclusive, anything else (a traceback) a crash. For a missed change the script says why: what
the catalogues differ in when no decision differs and no situation involving a changed id is possible in only one
version.

Every pair also has a *kind* of change (``kind``: issue 24's table — skill_list, send_rule, win_result, trigger,
skill_effect, card_effect, engine_timing, setup_deck — or refactor / bot_logic for quiet commits). By kind, a real
change is **caught** when the gate fails (exit 1; naming one of the labelled rules when the label names any),
**inconclusive** when it exits 3 naming the unread rule code (UNR001) or an undecided question, **missed** when it
passes; a quiet commit is **quiet** when it passes, else a false alarm (exit 1), inconclusive (exit 3) or degraded
(exit 2). The table of kinds is printed after the summary by label.

Labels are our own reading of each commit's diff (benchmarks/history/README.md); REPO is a clone of
CuteReimu/TheMessage (a bare one works). Nothing is downloaded by this script.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import os
import resource
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
#: issue 24's kinds of change, in its table's order, then the quiet ones
KINDS = ("skill_list", "send_rule", "win_result", "trigger", "skill_effect", "card_effect", "engine_timing",
         "setup_deck")
KIND_TITLES = {"skill_list": "skill list / new character", "send_rule": "send rule", "win_result": "win / result",
               "trigger": "triggered skill's event or condition", "skill_effect": "skill effect",
               "card_effect": "card effect or condition", "engine_timing": "engine timing",
               "setup_deck": "set-up / deck", "refactor": "refactor", "bot_logic": "robot / protocol / logging"}
ENV_REPO = "SKILLPROOF_SERVER_REPO"

#: the game states of the dying window (the 澄清 asking round, server phase/*ChengQing*.kt) and the function that finds the
#: dying (ProcessFsm.checkDying): every rule the gate reads from them (their steps, their asking order)
_DYING = tuple(f"{k}.{c}." for c in ("StartWaitForChengQing", "WaitForChengQing", "WaitNextForChengQing",
                                     "UseChengQingOnDying") for k in ("state", "flow", "order.step")) + (
    "state.ProcessFsm.checkDying", "flow.ProcessFsm.checkDying", "order.from.ProcessFsm.checkDying", "skip_dying")
#: the game states a message passes through from its send to its receive (server phase/)
_SEND = tuple(f"{k}.{c}." for c in ("SendPhaseStart", "OnSendCard", "OnSendCardSkill", "SendPhaseIdle",
                                    "MessageMoveNext", "OnChooseReceiveCard", "OnReceiveCard")
              for k in ("state", "flow"))

#: the label's `fields` for engine rules → the names the extractor gives them (a prefix ending in "." matches
#: every name it starts, and so does one ending in "_": ``setup.tasks_`` → setup.tasks_told, setup.tasks_dealt …; one
#: with ``*`` every name it matches as a pattern: ``prop.*.isFemale``); a
#: field not listed names the engine rule of the same name (``deck.shuffle``; ``rules.must_beats_cannot`` the [rules] key
#: must_beats_cannot) — so a label with no rules and such a field is met only by a failure naming that rule
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
    # what a message does on its way when no skill steps in: the send check's keys, the face it is handed on with, and
    # what the states of its way do (where it stops, whom it passes over, where it ends: their steps and clauses)
    "engine.send_defaults": ("lock_self.", "send_dir", "send_lock", "send_to_self", "send_check", "send_face") + _SEND,
    "engine.send_defaults.lock": ("lock_self.",),
    "engine.result_pass": ("result_pass.",),
    "engine.win_pass": ("win_pass.",),
    "engine.convert_loop": ("convert.", "face_down_converts", "face_down_grant_converts"),
    "engine.draw_fold": ("draw_base", "draw_fold"),
    # the end of the game: the win checks the gate reads (win.check, win.killer, win.nextturn, win.last_alive, the
    # win skills' passes) and the player marked as lost
    "engine.win_pass": ("win_pass.", "win.", "lose"),
    # dying and its rescue: the states of the 澄清 asking round, the check that finds the dying and the window's skip
    "engine.die": _DYING,
    "engine.dying": _DYING,
    # a message on its way: the states from the send to the receive, and the send checks
    "engine.send": _SEND + ("send_", "lock_self."),
    # where used and received cards go: the deck's discard, the state after a card resolves, the game's discard
    "engine.discard": ("deck.discard", "state.OnFinishResolveCard.", "flow.OnFinishResolveCard.",
                       "game.playerDiscardCard"),
    # the set-up: the secret tasks (which, dealt, told) and the starting hand
    "setup.tasks": ("setup.tasks", "setup.tasks_"),
    "setup.hand_begin": ("setup.hand",),
    # a role's sex: its row of the role table (the character's id names it), or what "female" means — the getter of
    # the server's isFemale (prop.<Class>.isFemale: face up and female, or female alone)
    "character.female": ("character.female", "prop.*.isFemale"),
}


def load_labels(path: Path) -> list[dict]:
    with open(path, "rb") as fh:
        return tomllib.load(fh)["commit"]


def expected_names(pair: dict) -> set:
    names = set(pair.get("rules") or [])
    for f in pair.get("fields") or []:
        names.update(FIELD_NAMES.get(f, (f.removeprefix("rules."),)))    # a [rules] key: the rule of its name
    return names


def _matches(named: set, expected: set) -> list:
    """The labelled names a failing item names: by id, or (``file:Stem``) by a rule located in the labelled rule's
    own Kotlin file (a follow-up skill the labelled skill hands out, e.g. ``XiangJinSiSuo2`` in XiangJinSiSuo.kt)."""
    out = set()
    norm = {_norm_id(n) for n in named}                    # a rule id's - and _ are one (must-beats-cannot)
    for e in expected:
        if "*" in e:                                       # a pattern: ``prop.*.isFemale``
            out.update(n for n in named if fnmatch.fnmatchcase(_norm_id(n), _norm_id(e)))
        elif e.endswith((".", "_")):
            out.update(n for n in named if _norm_id(n).startswith(_norm_id(e)))
        elif _norm_id(e) in norm or _norm_id(f"file:{e}") in norm:
            out.add(e)
    return sorted(out)


def _norm_id(name: str) -> str:
    """A rule id as compared with a label's: ``-`` and ``_`` read alike (a label may spell ``must-beats-cannot`` the
    id ``must_beats_cannot``)."""
    return name.replace("-", "_")


def _diff(report) -> dict:
    """The diff section of a JSON report."""
    return (report or {}).get("diff") or ((report or {}).get("extra") or {}).get("diff") or {}


def named_in(report: dict) -> set:
    """Every rule a failing item of a `diff --kotlin` JSON report names (an unread-code finding, UNR001, is
    inconclusive, not failing: what it names does not count), and ``file:Stem`` for the Kotlin file each is at."""
    d = _diff(report)
    out = set()
    refs = []
    for ch in d.get("decision_changes") or []:
        refs += ch.get("rules") or []
        if (ch.get("question") or {}).get("engine_rule"):
            out.add(ch["question"]["engine_rule"])
    for f in report.get("findings") or []:
        if f.get("check") != "UNR001" and not f.get("inconclusive"):
            refs += f.get("rules") or []
    for r in refs:
        out.add(r.get("id"))
        if r.get("file"):
            out.add("file:" + Path(r["file"]).stem)
    out.discard(None)
    return out


def replay(repo: str, pair: dict, extra_args=(), timeout=600) -> dict:
    """Run the gate on one pair: {rc, seconds, report (dict or None), stderr}."""
    with tempfile.TemporaryDirectory(prefix="history-bench-") as td:
        out = Path(td) / "report.json"
        cmd = [sys.executable, "-m", "skillproof", "diff", "--kotlin", repo, pair["parent"], pair["sha"],
               "--format", "json", "--output", str(out), "--quiet", "--lang", "en", *extra_args]   # its summary is English
        t = time.perf_counter()
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            rc, err = r.returncode, r.stderr
        except subprocess.TimeoutExpired:
            rc, err = -1, f"timed out after {timeout}s"
        secs = time.perf_counter() - t
        ru2 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (ru2.ru_utime - ru.ru_utime) + (ru2.ru_stime - ru.ru_stime)     # the gate's processes, all of them
        report = None
        if out.exists():
            try:
                report = json.loads(out.read_text(encoding="utf-8"))
            except json.JSONDecodeError:
                report = None
    return {"rc": rc, "seconds": secs, "cpu": cpu, "report": report, "stderr": err}


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
            return "failed, other rule", "names " + ", ".join(sorted(n for n in named if not n.startswith("file:"))[:4])
        changed = [f"{r['id']}({r['change'][0]})" for r in d.get("changed_rules") or []]
        if changed:
            return "missed", ("catalogues differ (" + ", ".join(changed[:6]) + (" …" if len(changed) > 6 else "")
                              + ") but no decision differs and no situation is possible in one version only")
        return "missed", "the extracted catalogues do not differ"
    if label in QUIET:
        if rc == 0:
            nu = len(d.get("newly_understood") or [])
            return "quiet", f"{nu} newly understood" if nu else ""
        return "false alarm", "names " + ", ".join(sorted(n for n in named if not n.startswith("file:"))[:4])
    return ("flagged" if rc == 1 else "quiet"), ("names " + ", ".join(sorted(n for n in named if not n.startswith("file:"))[:4])) if rc == 1 else ""


def kind_of(pair: dict) -> str:
    """The pair's kind of change (``kind``; for a file without it, read from the label)."""
    if pair.get("kind"):
        return pair["kind"]
    return pair["label"] if pair["label"] in QUIET else "other"


def unread_of(report) -> list:
    """The UNR001 and UNR002 findings of a JSON report (the unread rule code and the catalogue differences no decision
    tells apart it names)."""
    return [f for f in (report or {}).get("findings") or [] if f.get("check") in ("UNR001", "UNR002")]


def kind_verdict(pair: dict, run: dict) -> str:
    """caught / other rule / inconclusive / missed / degraded / crash for a real change; quiet / false alarm /
    inconclusive / degraded / crash for a quiet one."""
    rc, rep, err = run["rc"], run["report"], run["stderr"]
    if rc not in (0, 1, 2, 3) or "Traceback (most recent call last)" in err:
        return "crash"
    if rc == 2:
        return "degraded"
    if kind_of(pair) in QUIET:
        return {0: "quiet", 1: "false alarm", 3: "inconclusive"}[rc]
    if rc == 3:
        return "inconclusive"
    if rc == 0:
        return "missed"
    expected = expected_names(pair)
    if not expected or _matches(named_in(rep) if rep else set(), expected):
        return "caught"
    return "other rule"


def kind_table(rows: list) -> list[str]:
    """caught / inconclusive / missed per kind of change, and quiet / failing per quiet kind."""
    by: dict = {}
    for p, _v, _d, r in rows:
        by.setdefault(kind_of(p), []).append(r["kind_verdict"])
    out = []
    real = [k for k in KINDS if k in by] + sorted(k for k in by if k not in KINDS and k not in QUIET)
    if real:
        out.append(f"{'kind of change':<40} {'pairs':>5} {'caught':>6} {'other':>6} {'inconc.':>7} {'missed':>6} "
                   f"{'degr.':>5}")
        tot = [0] * 6
        for k in real:
            vs = by[k]
            c = [len(vs), vs.count("caught"), vs.count("other rule"), vs.count("inconclusive"), vs.count("missed"),
                 vs.count("degraded") + vs.count("crash")]
            tot = [a + b for a, b in zip(tot, c)]
            out.append(f"{KIND_TITLES.get(k, k):<40} {c[0]:>5} {c[1]:>6} {c[2]:>6} {c[3]:>7} {c[4]:>6} {c[5]:>5}")
        out.append(f"{'all real changes':<40} {tot[0]:>5} {tot[1]:>6} {tot[2]:>6} {tot[3]:>7} {tot[4]:>6} {tot[5]:>5}")
        if tot[0]:
            out.append(f"real changes failing the gate: {tot[1] + tot[2]}/{tot[0]} "
                       f"({100 * (tot[1] + tot[2]) / tot[0]:.0f}%; naming the labelled rule: {tot[1]}); failing or "
                       f"inconclusive: {tot[1] + tot[2] + tot[3]}/{tot[0]} "
                       f"({100 * (tot[1] + tot[2] + tot[3]) / tot[0]:.0f}%)")
    quiet = [k for k in QUIET if k in by]
    if quiet:
        out.append(f"{'quiet kind':<40} {'pairs':>5} {'quiet':>6} {'alarm':>6} {'inconc.':>7} {'degr.':>5}")
        tq = [0] * 5
        for k in quiet:
            vs = by[k]
            c = [len(vs), vs.count("quiet"), vs.count("false alarm"), vs.count("inconclusive"),
                 vs.count("degraded") + vs.count("crash")]
            tq = [a + b for a, b in zip(tq, c)]
            out.append(f"{KIND_TITLES.get(k, k):<40} {c[0]:>5} {c[1]:>6} {c[2]:>6} {c[3]:>7} {c[4]:>5}")
        bad = tq[0] - tq[1]
        out.append(f"quiet commits failing or inconclusive: {bad}/{tq[0]} ({100 * bad / tq[0]:.0f}%; "
                   f"target at most 10%)")
    return out


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
        cpu = [r.get("cpu", 0.0) for *_x, r in rows]
        out.append(f"time per pair: median {statistics.median(secs):.1f} s, max {max(secs):.1f} s, "
                   f"total {sum(secs) / 60:.1f} min (wall clock); CPU time of the gate per pair: median "
                   f"{statistics.median(cpu):.1f} s, max {max(cpu):.1f} s; load average at the end "
                   f"{os.getloadavg()[0]:.1f}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", default=os.environ.get(ENV_REPO),
                    help=f"a clone of CuteReimu/TheMessage (bare is fine; default: ${ENV_REPO})")
    ap.add_argument("--labels", action="append", metavar="PATH",
                    help=f"a labels file (any path; repeatable; default: {LABELS.relative_to(ROOT)})")
    ap.add_argument("--kind", default="", help="comma-separated kinds of change to replay")
    ap.add_argument("--only", default="", help="comma-separated sha prefixes to replay")
    ap.add_argument("--label", default="", help="comma-separated labels to replay")
    ap.add_argument("--json", metavar="FILE", help="also write every verdict as JSON")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per pair before it counts as a crash")
    a = ap.parse_args(argv)
    if not a.repo:
        ap.error(f"no server clone: give --repo or set {ENV_REPO}")
    pairs = []
    for path in a.labels or [str(LABELS)]:
        lp = Path(path).expanduser()
        if not lp.is_file():
            ap.error(f"{path}: no such labels file")
        try:
            pairs.extend(load_labels(lp))
        except (tomllib.TOMLDecodeError, KeyError) as e:
            ap.error(f"{path}: not a labels file ({e})")
    if a.only:
        pre = tuple(x.strip() for x in a.only.split(",") if x.strip())
        pairs = [p for p in pairs if p["sha"].startswith(pre)]
    if a.label:
        pairs = [p for p in pairs if p["label"] in a.label.split(",")]
    if a.kind:
        pairs = [p for p in pairs if kind_of(p) in a.kind.split(",")]
    rows = []
    for p in pairs:
        run = replay(a.repo, p, timeout=a.timeout)
        v, detail = verdict(p, run)
        run["kind_verdict"] = kv = kind_verdict(p, run)
        unr = unread_of(run["report"])
        if unr:
            detail = (detail + "; " if detail else "") + f"{len(unr)} unread: " + ", ".join(
                f"{(f.get('details') or {}).get('file', '').rsplit('/', 1)[-1]}:{(f.get('details') or {}).get('line')}"
                f" {f['rules'][0]['name'] if f.get('rules') else ''}"
                f"{' ' + (f.get('details') or {}).get('key', '') if f.get('check') == 'UNR002' else ''}"
                f"{' (' + (f.get('details') or {}).get('what', '') + ')' if (f.get('details') or {}).get('what') else ''}"
                for f in unr[:3]) + (" …" if len(unr) > 3 else "")
        rows.append((p, v, detail, run))
        print(f"{p['sha'][:8]} {kind_of(p):<13} {kv:<12} exit {run['rc']}  {run['seconds']:5.1f}s "
              f"(cpu {run['cpu']:4.1f}s)  {detail}",
              flush=True)
    print()
    for line in summary(rows):
        print(line)
    print()
    for line in kind_table(rows):
        print(line)
    if a.json:
        Path(a.json).write_text(json.dumps([{"sha": p["sha"], "label": p["label"], "kind": kind_of(p),
                                             "verdict": v, "kind_verdict": r["kind_verdict"], "detail": d,
                                             "unread": [(f.get("details") or {}) for f in unread_of(r["report"])],
                                             "rc": r["rc"], "seconds": round(r["seconds"], 2),
                                             "cpu": round(r.get("cpu", 0.0), 2)}
                                            for p, v, d, r in rows], indent=1, ensure_ascii=False) + "\n",
                                encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
