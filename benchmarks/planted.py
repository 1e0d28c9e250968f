"""Planted rule changes: a reproducible sample of commits on top of the server's last commit.

    .venv/bin/python benchmarks/planted.py --repo SERVER_REPO --out DIR [--spec benchmarks/history/planted.toml]
                                          [--only ID,...]

The server's own history is labelled out (benchmarks/history/README.md), so issue 24's held-out measurement also
runs on changes planted by hand: ``benchmarks/history/planted.toml`` lists them (``planted2.toml``, ``planted3.toml``,
later samples, are built the same way with ``--spec benchmarks/history/planted3.toml`` etc.), each ``[[edit]]`` one rule
change (or one quiet edit) written as small token replacements at lines of the server's ``base`` commit. This script
clones SERVER_REPO (a bare clone of CuteReimu/TheMessage works; nothing is downloaded) into DIR as a bare
repository, commits every edit on its own branch ``planted/ID`` from ``base`` — author, committer and dates fixed,
so every sha is the same on every machine — and writes ``DIR/labels-planted.toml`` in the format of the history
labels (``sha`` = the planted commit, ``parent`` = ``base``), which the history benchmark replays:

    .venv/bin/python benchmarks/history_bench.py --repo DIR --labels DIR/labels-planted.toml

A change of an edit (``[[edit.change]]``) is one of
  * ``path``, ``line``, ``old``, ``new``: on that line (1-based, at ``base``) the text ``old``, which must occur
    there exactly once, becomes ``new``;
  * ``path``, ``line``, ``insert``: the line ``insert`` (its own indentation included) goes before that line;
  * ``path``, ``line``, ``delete``: that line, which must hold ``delete`` exactly once, is removed.
Line numbers always refer to ``base``, whatever else the edit changes in the file. A change that does not apply
stops the script with the edit's id, the file and the line (exit 2); nothing is half written.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "benchmarks" / "history" / "planted.toml"
ENV_REPO = "SKILLPROOF_SERVER_REPO"
LABELS_NAME = "labels-planted.toml"
PREFIX = "src/main/kotlin/"
REAL_KINDS = ("skill_list", "send_rule", "win_result", "trigger", "skill_effect", "card_effect", "engine_timing",
              "setup_deck")
QUIET = ("refactor", "bot_logic")
LABELS = ("new_rule", "rule_change", "engine_change", "other_behaviour", "refactor", "bot_logic")
EDIT_KEYS = {"id", "label", "kind", "rules", "fields", "summary", "notes", "change"}
#: who and when every planted commit says it is (fixed: the shas depend on nothing else than the spec and base)
IDENT = {"GIT_AUTHOR_NAME": "skillproof planted", "GIT_AUTHOR_EMAIL": "planted@skillproof.invalid",
         "GIT_COMMITTER_NAME": "skillproof planted", "GIT_COMMITTER_EMAIL": "planted@skillproof.invalid",
         "GIT_AUTHOR_DATE": "2024-04-01T00:00:00+0000", "GIT_COMMITTER_DATE": "2024-04-01T00:00:00+0000"}
DATE = "2024-04-01"


class PlantError(Exception):
    """A spec that cannot be read or an edit that does not apply; the message says where."""


def load_spec(path: Path) -> dict:
    """The spec, checked for shape: {"base": sha, "edits": [edit, ...]}."""
    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except OSError as e:
        raise PlantError(f"{path}: cannot read ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise PlantError(f"{path}: not TOML ({e})") from None
    base = doc.get("base")
    if not isinstance(base, str) or len(base) != 40:
        raise PlantError(f"{path}: `base` must be the 40-hex sha the line numbers refer to")
    edits = doc.get("edit") or []
    seen = set()
    for n, e in enumerate(edits, 1):
        where = f"{path}: edit {n} ({e.get('id', '?')})"
        if not isinstance(e.get("id"), str) or not e["id"] or any(c in e["id"] for c in " ~^:?*[\\"):
            raise PlantError(f"{where}: `id` must be a short name usable in a branch name")
        if e["id"] in seen:
            raise PlantError(f"{where}: id used twice")
        seen.add(e["id"])
        if set(e) - EDIT_KEYS:
            raise PlantError(f"{where}: unknown keys {sorted(set(e) - EDIT_KEYS)}")
        if e.get("label") not in LABELS:
            raise PlantError(f"{where}: `label` must be one of {', '.join(LABELS)}")
        if e.get("kind") not in REAL_KINDS + QUIET:
            raise PlantError(f"{where}: `kind` must be one of {', '.join(REAL_KINDS + QUIET)}")
        if (e["kind"] in QUIET) != (e["label"] in QUIET) or (e["kind"] in QUIET and e["kind"] != e["label"]):
            raise PlantError(f"{where}: a quiet kind goes with the same label, a real one with a rule label")
        for key in ("rules", "fields"):
            if not isinstance(e.get(key, []), list) or not all(isinstance(x, str) and x for x in e.get(key, [])):
                raise PlantError(f"{where}: `{key}` must be a list of names")
        if not isinstance(e.get("summary"), str) or not e["summary"].strip():
            raise PlantError(f"{where}: no `summary`")
        changes = e.get("change") or []
        if not changes:
            raise PlantError(f"{where}: no [[edit.change]]")
        for c in changes:
            forms = [k for k in ("old", "insert", "delete") if k in c]
            ok = (isinstance(c.get("path"), str) and c["path"].startswith(PREFIX) and c["path"].endswith(".kt")
                  and isinstance(c.get("line"), int) and c["line"] >= 1 and len(forms) == 1
                  and (forms != ["old"] or isinstance(c.get("new"), str))
                  and set(c) <= {"path", "line", "old", "new", "insert", "delete"}
                  and all(isinstance(c[k], str) and "\n" not in c[k] for k in forms + (["new"] if "new" in c else [])))
            if not ok:
                raise PlantError(f"{where}: a change needs `path` (a {PREFIX}….kt file), `line` and exactly one of "
                                 f"`old` + `new`, `insert`, `delete` (one line of text each): {c}")
            if forms == ["old"] and not c["old"]:
                raise PlantError(f"{where}: empty `old` at {c['path']}:{c['line']}")
    return {"base": base, "edits": edits}


def apply_changes(edit_id: str, path: str, text: bytes, changes: list) -> bytes:
    """The file after the edit's changes to it (line numbers of the original text)."""
    lines = text.decode("utf-8").split("\n")
    before: dict = {}
    deleted = {c["line"] for c in changes if "delete" in c}
    for c in changes:
        if c["line"] in deleted and "old" in c or sum(1 for d in changes if "delete" in d and d["line"] == c["line"]) > 1:
            raise PlantError(f"edit {edit_id}: {path}:{c['line']}: a deleted line cannot also be changed")
    for c in changes:
        i = c["line"] - 1
        where = f"edit {edit_id}: {path}:{c['line']}"
        if i >= len(lines) or (i == len(lines) - 1 and lines[i] == "" and "insert" not in c):
            raise PlantError(f"{where}: the file has only {len(lines) - (lines[-1] == '')} lines")
        if "insert" in c:
            before.setdefault(i, []).append(c["insert"])
            continue
        needle = c.get("old", c.get("delete"))
        n = lines[i].count(needle)
        if n != 1:
            raise PlantError(f"{where}: {needle!r} occurs {n} times on that line, not once: {lines[i].strip()[:90]!r}")
        lines[i] = None if "delete" in c else lines[i].replace(needle, c["new"])
    out = []
    for i, ln in enumerate(lines):
        out.extend(before.get(i, []))
        if ln is not None:
            out.append(ln)
    return "\n".join(out).encode("utf-8")


def _git(repo: Path, *args, env=None, data: bytes | None = None) -> bytes:
    r = subprocess.run(["git", "-C", str(repo), *args], input=data, capture_output=True,
                       env={**os.environ, **(env or {})})
    if r.returncode:
        raise PlantError(f"git {' '.join(args[:3])}: {r.stderr.decode('utf-8', 'replace').strip()}")
    return r.stdout


def plant(repo: Path, spec: dict, only=()) -> list[dict]:
    """Commit every edit of the spec on its own branch of the bare repository `repo`; the labelled pairs."""
    base = spec["base"]
    if _git(repo, "cat-file", "-t", base).strip() != b"commit":
        raise PlantError(f"base {base} is not a commit of {repo}")
    pairs = []
    env = {**IDENT, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    with tempfile.TemporaryDirectory(prefix="planted-") as td:
        for e in spec["edits"]:
            if only and e["id"] not in only:
                continue
            by_path: dict = {}
            for c in e["change"]:
                by_path.setdefault(c["path"], []).append(c)
            index = {**env, "GIT_INDEX_FILE": str(Path(td) / f"index-{e['id']}")}
            _git(repo, "read-tree", base, env=index)
            for path, changes in by_path.items():
                try:
                    old = _git(repo, "show", f"{base}:{path}")
                except PlantError:
                    raise PlantError(f"edit {e['id']}: {path} is not a file of {base[:12]}") from None
                new = apply_changes(e["id"], path, old, changes)
                if new == old:
                    raise PlantError(f"edit {e['id']}: {path} is unchanged by its changes")
                blob = _git(repo, "hash-object", "-w", "--stdin", data=new).decode().strip()
                mode = _git(repo, "ls-tree", base, "--", path).decode().split()[0]
                _git(repo, "update-index", "--cacheinfo", f"{mode},{blob},{path}", env=index)
            tree = _git(repo, "write-tree", env=index).decode().strip()
            subject = f"planted {e['id']}: {e['kind']}"
            sha = _git(repo, "commit-tree", "--no-gpg-sign", tree, "-p", base, env=env,
                       data=(subject + "\n\n" + e["summary"].strip() + "\n").encode()).decode().strip()
            _git(repo, "update-ref", f"refs/heads/planted/{e['id']}", sha)
            pair = {"sha": sha, "parent": base, "date": DATE, "subject": subject, "label": e["label"],
                    "kind": e["kind"], "rules": list(e.get("rules", [])), "fields": list(e.get("fields", [])),
                    "files": sorted(p[len(PREFIX):] for p in by_path), "summary": e["summary"].strip()}
            if e.get("notes"):
                pair["notes"] = e["notes"].strip()
            pairs.append(pair)
    return pairs


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def labels_text(pairs: list, spec_path: Path) -> str:
    """The labels file (history_bench's format), in the spec's order."""
    counts = {}
    for p in pairs:
        counts[p["kind"]] = counts.get(p["kind"], 0) + 1
    real = sum(n for k, n in counts.items() if k in REAL_KINDS)
    out = [f"# Planted rule changes, written by benchmarks/planted.py from {spec_path.name}: each pair is one edit",
           "# committed on top of the server's base commit (parent). Replay with benchmarks/history_bench.py.",
           f"# Counts: {len(pairs)} pairs, {real} real changes, {len(pairs) - real} quiet.",
           "# By kind: " + " · ".join(f"{k} {counts.get(k, 0)}" for k in REAL_KINDS + QUIET), ""]
    for p in pairs:
        out.append("[[commit]]")
        for k in ("sha", "parent", "date", "subject", "label", "kind"):
            out.append(f"{k} = {_toml_str(p[k])}")
        for k in ("rules", "fields", "files"):
            out.append(f"{k} = [" + ", ".join(_toml_str(x) for x in p[k]) + "]")
        out.append(f"summary = {_toml_str(p['summary'])}")
        if p.get("notes"):
            out.append(f"notes = {_toml_str(p['notes'])}")
        out.append("")
    return "\n".join(out)


def build(repo: str, out: Path, spec_path: Path = SPEC, only=()) -> list[dict]:
    """Clone `repo` into `out` (bare), plant every edit, write the labels file; the pairs."""
    spec = load_spec(spec_path)
    if only:
        unknown = set(only) - {e["id"] for e in spec["edits"]}
        if unknown:
            raise PlantError(f"--only: no edit named {', '.join(sorted(unknown))}")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PlantError(f"{out}: exists and is not an empty directory")
    r = subprocess.run(["git", "clone", "--bare", "--quiet", "--no-tags", repo, str(out)], capture_output=True)
    if r.returncode:
        raise PlantError(f"cannot clone {repo}: {r.stderr.decode('utf-8', 'replace').strip()}")
    try:
        pairs = plant(out, spec, only)
    except PlantError:
        shutil.rmtree(out, ignore_errors=True)
        raise
    (out / LABELS_NAME).write_text(labels_text(pairs, spec_path), encoding="utf-8")
    return pairs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", default=os.environ.get(ENV_REPO),
                    help=f"a clone of CuteReimu/TheMessage holding the spec's base commit (default: ${ENV_REPO})")
    ap.add_argument("--out", required=True, metavar="DIR", help="where the clone with the planted branches goes")
    ap.add_argument("--spec", default=str(SPEC), help=f"the edits (default: {SPEC.relative_to(ROOT)})")
    ap.add_argument("--only", default="", help="comma-separated edit ids to plant")
    a = ap.parse_args(argv)
    if not a.repo:
        ap.error(f"no server clone: give --repo or set {ENV_REPO}")
    only = tuple(x.strip() for x in a.only.split(",") if x.strip())
    try:
        pairs = build(a.repo, Path(a.out), Path(a.spec), only)
    except PlantError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    real = sum(p["kind"] in REAL_KINDS for p in pairs)
    print(f"{len(pairs)} edits planted in {a.out} ({real} real changes, {len(pairs) - real} quiet); labels: "
          f"{Path(a.out) / LABELS_NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
