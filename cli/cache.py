"""The results cache of the checks (as ruff's or mypy's): a run of every family over a catalogue is kept, keyed by
everything its result depends on, and the next run with the same key reads it instead of asking the solver again.

The key is a SHA-256 of
- the catalogue as loaded (its whole object graph, pickled: rules, conditions, file names and lines — so a
  comment that moves a rule a line down is a new key, as its findings' locations change),
- the options that change what is asked (``checks.context.Options`` but the deadline: a complete result is the
  same whatever budget it had),
- skillproof's own source (every module of the package and the schema), z3's version and Python's: a change of
  the tool is a change of the key, whatever its version number says;
so an entry is either the exact result the checks would compute again, or absent. A result is only stored when it
is complete and decided: nothing inconclusive (a timeout or a spent budget depends on the machine), nothing
stopped. Only the command reads or writes it (``cli.cli.entry``, whose interpreter has its string hashing fixed:
with random hashing the witnesses themselves vary), never ``main`` called as a function.

Where: ``$SKILLPROOF_CACHE_DIR``, else ``$XDG_CACHE_HOME/skillproof``, else ``~/.cache/skillproof``; the newest
``KEEP`` entries are kept. Off with ``--no-cache`` or ``SKILLPROOF_NO_CACHE=1``. An entry that cannot be read
(cut short, another version's, edited by hand) is a miss, never an error: the checks run. Entries are JSON (never
pickle: a cache directory is not trusted code) and written whole (a temporary file renamed into place); each
carries a digest of what it holds, and what it holds is checked for the shape the reports read (a hand-edited value,
a field of the wrong type: a miss, never an internal error). Only a regular file of at most ``MAX_BYTES`` is read as
an entry (a FIFO, or a link to ``/dev/zero``, named as one would block the run or fill its memory); a cache directory
that is a file, unwritable, or on a full disk only means nothing is kept."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
import sys
import tempfile
from pathlib import Path

#: entries kept (the newest by modification time); one is a few hundred kilobytes for the shipped catalogue
KEEP = 64
FORMAT = 2
#: an entry larger than this is not read (the shipped catalogue's is about 300 KB)
MAX_BYTES = 64 * 1024 * 1024

_SOURCE_DIGEST: str | None = None


#: set by the command's entry point (``cli.cli.entry``): ``main`` called as a function (a test, a program using
#: skillproof) computes every time, as a library call should
COMMAND = False


def enabled(args=None) -> bool:
    if not COMMAND or getattr(args, "no_cache", False) or os.environ.get("SKILLPROOF_NO_CACHE", "") not in ("", "0"):
        return False
    return not sys.flags.hash_randomization


def directory() -> Path:
    d = os.environ.get("SKILLPROOF_CACHE_DIR")
    if d:
        return Path(d)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "skillproof"


def source_digest() -> str:
    """A digest of skillproof's own code (every .py file and the schema of the installed package)."""
    global _SOURCE_DIGEST
    if _SOURCE_DIGEST is None:
        h = hashlib.sha256()
        root = Path(__file__).resolve().parent.parent          # the tree holding cli/, model/, checks/, reports/
        import skillproof
        dirs = sorted({Path(p).resolve() for p in getattr(skillproof, "__path__", [])} |
                      {root / d for d in ("model", "checks", "reports")})
        for d in dirs:
            if not d.is_dir():
                continue
            for p in sorted(d.rglob("*")):
                if p.suffix in (".py", ".json") and p.is_file() and "__pycache__" not in p.parts:
                    h.update(str(p.relative_to(d)).encode())
                    h.update(p.read_bytes())
        import z3
        h.update(f"|z3 {z3.get_version_string()}|py {sys.version}".encode())
        _SOURCE_DIGEST = h.hexdigest()
    return _SOURCE_DIGEST


def key(cat, options) -> str | None:
    """The entry's key, or None when the catalogue cannot be pickled (then nothing is cached)."""
    try:
        blob = pickle.dumps(cat, protocol=4)
    except Exception:                   # noqa: BLE001 — an object that does not pickle: no cache, no error
        return None
    opts = {f.name: getattr(options, f.name) for f in dataclasses.fields(options) if f.name != "deadline"}
    h = hashlib.sha256()
    h.update(f"skillproof-cache {FORMAT}|{source_digest()}|".encode())
    h.update(json.dumps(opts, sort_keys=True, default=repr).encode())
    h.update(hashlib.sha256(blob).digest())
    return h.hexdigest()


def _digest(payload: dict) -> str:
    return hashlib.sha256(json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


def _read(p: Path) -> str | None:
    """The text of the entry ``p`` when it is a regular file of at most MAX_BYTES (else None: a miss); a FIFO named
    as an entry is refused, not waited on (model/readfile.py)."""
    from .model import readfile as RF
    try:
        raw = RF.read_regular(p, MAX_BYTES)
    except RF.NotRead:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


_STR_FIELDS = ("check", "family", "severity", "message", "key", "fix", "message_en", "fix_en")
_PASS_STR = ("intent", "id", "claim", "mode", "source", "text", "severity", "file", "family", "answer")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _well_formed(d: dict) -> bool:
    """The entry holds what the reports read, of the types they read it as."""
    from skillproof.checks.findings import SEVERITIES
    fs, stats, fams, passes = d.get("findings"), d.get("stats"), d.get("families"), d.get("passes")
    if not (isinstance(fs, list) and isinstance(stats, dict) and isinstance(fams, list) and isinstance(passes, list)):
        return False
    if not all(isinstance(x, str) for x in fams) or \
            not all(isinstance(k, str) and isinstance(v, (int, float, str, bool)) for k, v in stats.items()):
        return False
    for f in fs:
        if not isinstance(f, dict) or not all(isinstance(f.get(n), str) for n in _STR_FIELDS) or \
                f["severity"] not in SEVERITIES or not isinstance(f.get("inconclusive"), bool) or \
                not isinstance(f.get("details"), dict) or not (f.get("witness") is None or isinstance(f["witness"], dict)):
            return False
        rules = f.get("rules")
        if not isinstance(rules, list) or not all(
                isinstance(r, dict) and set(r) == {"id", "name", "file", "line", "role"} and _is_int(r["line"])
                and all(isinstance(r[n], str) for n in ("id", "name", "file", "role")) for r in rules):
            return False
    for x in passes:
        if not isinstance(x, dict) or not all(isinstance(x.get(n), str) for n in _PASS_STR) or \
                x["severity"] not in SEVERITIES or not _is_int(x.get("line")) or not isinstance(x.get("bounds"), dict):
            return False
    return True


def load(k: str):
    """The cached Result of key ``k``, or None: a miss when the entry is absent, not a regular file, too large,
    not what this version writes, its digest not that of what it holds, or not of the shape reports read."""
    from skillproof.checks.context import Result
    from skillproof.checks.findings import Finding, RuleRef
    p = directory() / f"{k}.json"
    text = _read(p)
    if text is None:
        return None
    try:
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("key") != k:
            return None
        if d.get("digest") != _digest({n: d.get(n) for n in ("key", "findings", "stats", "families", "passes")}) \
                or not _well_formed(d):
            return None
        names = {f.name for f in dataclasses.fields(Finding)}
        findings = []
        for fd in d["findings"]:
            fd = {n: v for n, v in fd.items() if n in names}
            fd["rules"] = [RuleRef(**r) for r in fd.get("rules", [])]
            findings.append(Finding(**fd))
        res = Result(findings, dict(d["stats"]), list(d["families"]), list(d["passes"]))
    except Exception:                   # noqa: BLE001 — unreadable, partial, another format: a miss
        return None
    try:
        os.utime(p)                     # recently used: kept by the pruning
    except OSError:
        pass
    return res


def store(k: str, result) -> None:
    """Keep ``result`` under ``k`` when it is complete and decided; never fails the run."""
    if result.inconclusive or result.stats.get("unasked"):
        return
    d = {"format": FORMAT, "key": k,
         "findings": [dataclasses.asdict(x) for x in result.findings],     # its RuleRefs as dicts too
         "stats": {n: v for n, v in result.stats.items() if isinstance(v, (int, float, str, bool))},
         "families": list(result.families), "passes": list(result.passes)}
    try:
        d["digest"] = _digest({n: d[n] for n in ("key", "findings", "stats", "families", "passes")})
    except (TypeError, ValueError):
        return                          # a value JSON cannot hold: no cache
    from .model.signals import held
    tmp = None
    try:
        text = json.dumps(d, ensure_ascii=False)       # dict order kept: reports print it
        folder = directory()
        folder.mkdir(parents=True, exist_ok=True)
        with held():                    # recorded as it is made: a signal cannot leave it behind (model.signals)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, folder / f"{k}.json")
        tmp = None
        _prune(folder)
    except (OSError, TypeError, ValueError):
        return                          # a read-only home, a full disk, a value JSON cannot hold: no cache
    finally:
        if tmp is not None:             # not renamed into place: an error, or a signal
            with held():
                try:
                    os.unlink(tmp)
                except OSError:
                    pass


def _mtime(p: Path) -> float:
    try:
        return p.lstat().st_mtime
    except OSError:
        return 0.0


def _prune(folder: Path) -> None:
    entries = sorted(folder.glob("*.json"), key=_mtime, reverse=True)
    for p in entries[KEEP:]:
        try:
            p.unlink()
        except OSError:
            pass
