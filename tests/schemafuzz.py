"""The typed fuzz: every key of the catalogue, of the configuration and of the command line given values of
the wrong type, huge and non-finite numbers, deep nesting, long strings and paths — generated from the JSON
Schemas (``model/schema.json``, ``skillproof schema config``) and from the command line's own parser, so a key
added later is fuzzed without anyone remembering to; and odd files in catalogue directories (links to
directories, FIFOs, links to nothing, unreadable directories).

A case is reproduced by its kind and seed (``case(kind, seed, workdir)``): the seed picks the key (``seed %
number of keys``, so the first N cases of a kind cover every key) and the value. Every case must end in a
verdict (exit 0, 1, or for ``check`` 3 without an INT001 disagreement of the twins) or in located one-line
errors (exit 2) — never exit 4, a traceback, an unlocated message or a hang. Used by
tests/test_schemafuzz.py (a few hundred cases per kind) and benchmarks/fuzz_inputs.py (the long run).
"""
from __future__ import annotations

import copy
import json
import math
import os
import random
import re
import shutil
import stat
import tomllib
from pathlib import Path

import fuzzkit as F

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TEMPLATE = HERE / "fixtures" / "fuzz" / "template.toml"
TINY = HERE / "fixtures" / "families" / "base.toml"
KINDS = ("catalogue", "config", "cli", "files")
CHECK_EVERY = 5          # of the fuzzed catalogues that load, every 5th seed is run through `check` as well


class Raw(str):
    """TOML text written as it is (what a Python value cannot say: nesting beyond the limits, 40 digits)."""


# ------------------------------------------------------------------------------------------ the keys
def catalogue_schema() -> dict:
    return json.loads((ROOT / "model" / "schema.json").read_text(encoding="utf-8"))


def config_schema() -> dict:
    from skillproof.config import schema
    return schema()


def key_paths(schema: dict, path: tuple = ()) -> list[tuple[tuple, dict]]:
    """Every key the schema names, with its schema: ('skill', '[]', 'fires', 'at') — '[]' an array's items."""
    out = []
    for k, sub in (schema.get("properties") or {}).items():
        out.append((path + (k,), sub))
        out.extend(key_paths(sub, path + (k,)))
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, dict):
        out.extend(key_paths(items, path + ("[]",)))
    for alt in schema.get("oneOf", []) + schema.get("anyOf", []):
        if isinstance(alt, dict) and alt.get("type") == "array" and isinstance(alt.get("items"), dict):
            out.extend(key_paths(alt["items"], path + ("[]",)))
    return out


def cli_options() -> list[tuple[str, str, object]]:
    """(command, option, argparse action) for every option of every command that takes a value."""
    from skillproof.cli import build_parser
    p = build_parser()
    out = []
    for name, sp in sorted(p._commands.items()):
        for a in sp._actions:
            if not a.option_strings or a.nargs == 0 or a.dest in ("help", "lang", "debug"):
                continue
            out.append((name, max(a.option_strings, key=len), a))
    return out


# ----------------------------------------------------------------------------------- hostile values
def _kind(sch: dict) -> str:
    if "enum" in sch:
        return "enum"
    if "oneOf" in sch or "anyOf" in sch:
        return "union"
    return sch.get("type", "any")


def hostile_value(rng: random.Random, sch: dict):
    """A value that is wrong for ``sch`` (or right in an odd way: at a bound, huge, empty)."""
    k = rng.choice([5000, 200, 40, 17])
    common = [
        lambda: 3, lambda: -1, lambda: 0, lambda: 1.5, lambda: math.nan, lambda: math.inf, lambda: -math.inf,
        lambda: True, lambda: "", lambda: "x", lambda: [], lambda: [1, "x"], lambda: {}, lambda: {"a": 1},
        lambda: Raw("[" * k + "]" * k), lambda: Raw("{a=" * k + "1" + "}" * k), lambda: Raw("9" * rng.choice([19, 40, 400])),
        lambda: Raw("1e309"), lambda: Raw("1979-05-27T07:32:00Z"), lambda: "x" * rng.choice([201, 10_001, 300_000]),
        lambda: rng.choice(["a\u2028b", "\u200bx", "\x1b[31mred", "\u202eevil", "ѕelf", "a\r\nb", "\ufeffA"]),
        lambda: ["A"] * rng.choice([65, 6000]), lambda: [[["A"]]], lambda: {"x" * 300: 1}, lambda: DELETE,
    ]
    kind = _kind(sch)
    own = []
    if kind == "integer":
        own = [lambda: 2 ** 31, lambda: -(2 ** 31), lambda: 10 ** 6 + 1, lambda: -10 ** 6 - 1, lambda: 1_000_000, lambda: "3"]
    elif kind == "number":
        own = [lambda: 1e308, lambda: 1e-300, lambda: -0.0, lambda: "1.5"]
    elif kind == "boolean":
        own = [lambda: "true", lambda: 1, lambda: "yes"]
    elif kind == "string":
        own = [lambda: F.hostile_expression(rng), lambda: "alive and", lambda: "self." * 900 + "alive",
               lambda: "p: " + F.hostile_expression(rng), lambda: "Jie_Huo", lambda: "A"]
    elif kind == "enum":
        vals = [v for v in sch["enum"] if isinstance(v, str)]
        own = [lambda: vals[0].upper(), lambda: vals[0] + "\u200b", lambda: F.odd_name(rng, vals[0]),
               lambda: [vals[0]], lambda: rng.choice(vals)]
    elif kind == "array":
        items = sch.get("items") if isinstance(sch.get("items"), dict) else {}
        own = [lambda: [hostile_value(rng, items)], lambda: [hostile_value(rng, items)] * 2, lambda: "A",
               lambda: [None.__class__.__name__], lambda: [{}]]
    elif kind == "object":
        own = [lambda: {"bogus": 1}, lambda: {p: hostile_value(rng, s) for p, s in list((sch.get("properties") or {}).items())[:2]},
               lambda: [{}], lambda: "table"]
    elif kind == "union":
        alts = sch.get("oneOf") or sch.get("anyOf")
        own = [lambda: hostile_value(rng, rng.choice(alts))]
    return rng.choice(own + common if own and rng.random() < 0.5 else common + own)()


DELETE = object()       # the key removed


# ------------------------------------------------------------------------------------------ TOML out
def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else F.toml_string(k)


def toml_value(v) -> str:
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return F.toml_string(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v if x is not DELETE) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(x)}" for k, x in v.items() if x is not DELETE) + "}"
    raise TypeError(type(v))


def toml_dump(data: dict) -> str:
    """Top-level tables as ``[t]``, arrays of tables as ``[[t]]`` (one key a line), everything deeper inline."""
    lines = []
    for k, v in data.items():
        if isinstance(v, dict):
            lines.append(f"[{_key(k)}]")
            lines += [f"{_key(a)} = {toml_value(b)}" for a, b in v.items()]
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for entry in v:
                lines.append(f"[[{_key(k)}]]")
                lines += [f"{_key(a)} = {toml_value(b)}" for a, b in entry.items()]
        else:
            lines.insert(0, f"{_key(k)} = {toml_value(v)}")
        lines.append("")
    return "\n".join(lines)


def _hosts(data, path: tuple) -> list[tuple]:
    """Concrete places (keys and indices) where ``path`` exists in ``data``; else where its parent does."""
    def find(node, rest, at):
        if not rest:
            return [at]
        head, tail = rest[0], rest[1:]
        if head == "[]":
            return [p for i, x in enumerate(node) for p in find(x, tail, at + (i,))] if isinstance(node, list) else []
        if isinstance(node, dict) and head in node:
            return find(node[head], tail, at + (head,))
        return []
    full = find(data, path, ())
    if full:
        return full
    return [p + (path[-1],) for p in find(data, path[:-1], ())]


def put(data, where: tuple, value):
    node = data
    for k in where[:-1]:
        node = node[k]
    if value is DELETE:
        if isinstance(node, dict):
            node.pop(where[-1], None)
    else:
        node[where[-1]] = value


def _make_place(data, path: tuple) -> tuple:
    """A place for ``path`` when the template has none: under the first entry of its table, made as needed."""
    node, at = data, ()
    for i, k in enumerate(path[:-1]):
        if k == "[]":
            if not isinstance(node, list) or not node:
                return ()
            node, at = node[0], at + (0,)
            continue
        nxt = path[i + 1]
        if k not in node or not isinstance(node[k], (dict, list)):
            node[k] = [{}] if nxt == "[]" else {}
        node, at = node[k], at + (k,)
    return at + (path[-1],)


# --------------------------------------------------------------------------------------------- cases
_CACHE: dict = {}


def _keys(kind: str):
    if kind not in _CACHE:
        if kind == "catalogue":
            _CACHE[kind] = [(p, s) for p, s in key_paths(catalogue_schema()) if p[-1] != "[]"]
        elif kind == "config":
            _CACHE[kind] = key_paths(config_schema())
        elif kind == "cli":
            _CACHE[kind] = cli_options()
        else:
            _CACHE[kind] = list(ODD_FILES)
    return _CACHE[kind]


def keys_of(kind: str) -> int:
    return len(_keys(kind))


def catalogue_case(seed: int, workdir: Path) -> dict:
    rng = random.Random(seed)
    path, sch = _keys("catalogue")[seed % keys_of("catalogue")]
    data = tomllib.loads(TEMPLATE.read_text(encoding="utf-8"))
    hosts = _hosts(data, path)
    where = rng.choice(hosts) if hosts else _make_place(data, path)
    val = hostile_value(rng, sch)
    if where:
        put(data, where, val)
    d = workdir / f"cat{seed}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    (d / "cat.toml").write_text(toml_dump(data), encoding="utf-8", errors="surrogatepass")
    what = f"{'.'.join(map(str, where or path))} = {_short(val)}"
    argv = ["catalogue", str(d), "--no-config"]
    r = _run(argv, what, seed, strict=True)
    if r["rc"] == 0 and seed % CHECK_EVERY == 0:    # some that load are checked too: the checks meet the value
        r = _run(["check", "-q", "--jobs", "1", "--timeout", "2", "--no-config", str(d)], what, seed)
    shutil.rmtree(d, ignore_errors=True)
    return r


def config_case(seed: int, workdir: Path) -> dict:
    rng = random.Random(seed)
    path, sch = _keys("config")[seed % keys_of("config")]
    d = workdir / f"cfg{seed}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    val = hostile_value(rng, sch)
    table: dict = {}
    if val is not DELETE:
        node = table
        for k in path[:-1]:
            node = node.setdefault(k, {}) if k != "[]" else node
        node[path[-1]] = val if path[-1] != "[]" else [val]
    in_pyproject = rng.random() < 0.3
    text = toml_dump({"tool": {"skillproof": table}}) if in_pyproject else toml_dump(table)
    if in_pyproject:               # [tool] { skillproof = {...} } is written as a table of one inline table
        text = "[tool.skillproof]\n" + "\n".join(f"{_key(k)} = {toml_value(v)}" for k, v in table.items()) + "\n"
    cfile = d / ("pyproject.toml" if in_pyproject else "skillproof.toml")
    cfile.write_text(text, encoding="utf-8", errors="surrogatepass")
    what = f"config {'.'.join(path)} = {_short(val)}"
    command = rng.choice(["catalogue", "check"])
    argv = [command, "--config", str(cfile), str(TINY)] + (["-q", "--jobs", "1"] if command == "check" else [])
    if command == "check" and path[0] in ("jobs",):
        argv = [command, "--config", str(cfile), str(TINY), "-q"]
    r = _run(argv, what, seed, strict=True)
    shutil.rmtree(d, ignore_errors=True)
    return r


_CLI_VALUES = ["0", "-3", "-1", "nan", "inf", "-inf", "1e309", "", " ", "x", "1.5", "9" * 40, "99999999999",
               "\n", "a\u2028b", "\x1b[2J", "\u202e", "-", "--", "-x", "x" * 5000, "/".join(["abc"] * 1500),
               "/dev/null", "/", "/nonexistent/dir/file", ".", "HEAD", "json", "sarif:", ":x", "sarif:" + "a" * 5000,
               "text:/", "CV001", "conversion,bogus", "10", "1", "2"]


def cli_case(seed: int, workdir: Path) -> dict:
    rng = random.Random(seed)
    command, flag, action = _keys("cli")[seed % keys_of("cli")]
    choices = list(action.choices or [])
    val = rng.choice(_CLI_VALUES + ([rng.choice(choices)] if choices else []))
    d = workdir / f"cli{seed}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    if val.startswith("/") and val not in ("/dev/null", "/") and not val.startswith("/nonexistent"):
        pass
    elif val in ("x", "1.5", "json", "HEAD", "1", "2", "10", "CV001") and command in ("check", "baseline", "extract"):
        val = str(d / val) if flag in ("--output", "--baseline") else val
    base = {"check": [str(TINY), "-q", "--no-config"], "catalogue": [str(TINY), "--no-config"],
            "baseline": [str(TINY), "-q", "--no-config", "--output", str(d / "b.toml")],
            "explain": ["-c", str(TINY), "--no-config", "X"], "replay": [str(d / "none.json"), "--no-config"],
            "ask": ["-c", str(TINY), "--no-config", "can plain use 甲"], "rules": ["--no-config"],
            "schema": [], "extract": ["--kotlin", str(d / "src"), "--output", str(d / "out")],
            "diff": [str(TINY), str(TINY), "--no-config"]}.get(command, [])
    argv = [command, *base, f"{flag}={val}" if val.startswith("-") else flag, *([] if val.startswith("-") else [val])]
    what = f"{command} {flag} {_short(val)}"
    cwd = os.getcwd()
    was_device = _is_device("/dev/null")
    try:
        os.chdir(d)
        r = _run(argv, what, seed)
    finally:
        os.chdir(cwd)
    shutil.rmtree(d, ignore_errors=True)
    if was_device and not _is_device("/dev/null") and not r["problem"]:
        # a report renamed over the device node (run as root): every later `< /dev/null` reads the report
        r["problem"] = "replaced the device /dev/null with a regular file (restore it: mknod -m 666 /dev/null c 1 3)"
    return r


def _is_device(path: str) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except OSError:
        return False


def _odd_dirlink(d: Path):
    os.symlink("/tmp", d / "elsewhere")


def _odd_dirlink_in(d: Path):
    (d / "sub").mkdir()
    os.symlink(d / "sub", d / "again")


def _odd_fifo(d: Path):
    os.mkfifo(d / "pipe.toml")


def _odd_dangling(d: Path):
    os.symlink(d / "missing.toml", d / "dangling.toml")


def _odd_loop(d: Path):
    os.symlink(d / "loop2.toml", d / "loop1.toml")
    os.symlink(d / "loop1.toml", d / "loop2.toml")


def _odd_unreadable(d: Path):
    (d / "closed").mkdir()
    (d / "closed" / "x.toml").write_text("")
    os.chmod(d / "closed", 0)


def _odd_dir_named_toml(d: Path):
    (d / "dir.toml").mkdir()


def _odd_socket(d: Path):
    import socket
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(d / "sock.toml"))
    finally:
        s.close()


def _odd_deep(d: Path):
    q = d
    for _ in range(60):
        q = q / "d"
    q.mkdir(parents=True)
    (q / "deep.toml").write_text(TINY.read_text(encoding="utf-8").replace('id = "plain"', 'id = "plain2"'))


def _odd_long_name(d: Path):
    (d / ("x" * 250 + ".toml")).write_text("")


def _odd_outlink(d: Path):
    os.symlink(TINY, d / "out.toml")


ODD_FILES = {"link to a directory": _odd_dirlink, "link to a directory inside": _odd_dirlink_in, "FIFO": _odd_fifo,
             "dangling link": _odd_dangling, "loop of links": _odd_loop, "unreadable directory": _odd_unreadable,
             "directory named .toml": _odd_dir_named_toml, "socket": _odd_socket, "nested 60 deep": _odd_deep,
             "250-character name": _odd_long_name, "link out": _odd_outlink}


def files_case(seed: int, workdir: Path) -> dict:
    rng = random.Random(seed)
    names = _keys("files")
    picked = [names[seed % len(names)]] + rng.sample(names, rng.choice([0, 0, 1, 2]))
    d = workdir / f"files{seed}"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    shutil.copy(TINY, d / "base.toml")
    done = []
    for name in dict.fromkeys(picked):
        try:
            ODD_FILES[name](d)
            done.append(name)
        except OSError:
            pass
    command = rng.choice(["catalogue", "check"])
    argv = [command, str(d), "--no-config"] + (["-q", "--jobs", "1"] if command == "check" else [])
    r = _run(argv, ", ".join(done), seed, strict=True)
    for root, dirs, _files in os.walk(d):
        for x in dirs:
            try:
                os.chmod(os.path.join(root, x), stat.S_IRWXU)
            except OSError:
                pass
    shutil.rmtree(d, ignore_errors=True)
    return r


CASES = {"catalogue": catalogue_case, "config": config_case, "cli": cli_case, "files": files_case}


def case(kind: str, seed: int, workdir: Path) -> dict:
    return CASES[kind](seed, workdir)


# ----------------------------------------------------------------------------------------- judging
def _short(v) -> str:
    if v is DELETE:
        return "<deleted>"
    s = toml_value(v) if not isinstance(v, str) or isinstance(v, Raw) else repr(v)
    return s if len(s) <= 40 else s[:40] + f"…({len(s):,})"


_USAGE = re.compile(r"^(usage: |用法：|\s+\S|skillproof( \w+)?(: error: |：错误：)|\((run|运行) |（运行 )")


def judge(argv, rc: int, out: str, err: str, strict: bool = False) -> str | None:
    """What is wrong with one run, or None (``strict``: on exit 2 every line a located message or a closing
    count — for what a file holds; a command-line value may also be refused as a usage error)."""
    if "Traceback" in err or "internal error" in err or "内部错误" in err:
        return f"crashed: {err.strip().splitlines()[-1][:300] if err.strip() else ''}"
    if rc == 3 and argv[0] in ("check", "baseline", "explain", "diff", "ask"):
        if "INT001" in out or "INT001" in err:
            return "INT001: the interpreter and z3 twins disagree"
        return None
    if rc not in (0, 1, 2):
        return f"exit code {rc}"
    if rc == 2:
        lines = [ln for ln in err.rstrip("\n").split("\n") if ln.strip()]
        if not lines:
            return "exit 2 without a message"
        usage = not strict and any(_USAGE.match(ln) for ln in lines) and any("error" in ln or "错误" in ln for ln in lines)
        for ln in lines:
            if any(c in ln for c in "\r\x0b\x0c\x1b\x00\u2028\u2029\u200b\ufeff\u202e"):
                return f"raw control or invisible character echoed: {ln[:200]!r}"
            if len(ln) > 2000:
                return f"a message line of {len(ln):,} characters"
        if strict and not all(F.LOCATED.match(ln) or F.SUMMARY.match(ln) or _CONFIG_SUMMARY.match(ln) for ln in lines):
            return f"not a located message: {next(ln for ln in lines if not F.LOCATED.match(ln))[:200]!r}"
        if not strict and not usage and not _located_or_plain(lines):
            return f"neither a located message nor a usage error: {lines[0][:200]!r}"
    return None


_PLAIN = re.compile(r"^(error: |错误：)")
_CONFIG_SUMMARY = re.compile(r"^\d+ errors? in the configuration; nothing was run|^配置中有 \d+ 个错误")


def _located_or_plain(lines) -> bool:
    """Every line is a located message (file:line:), a usage error of a flag, or a closing count."""
    return all(F.LOCATED.match(ln) or F.SUMMARY.match(ln) or _PLAIN.match(ln) or
               re.match(r"^\d+ errors? in the configuration|^配置中有", ln) for ln in lines)


def _no_fork(method=None):
    raise ValueError("no fork in the fuzz")


def _run(argv, what, seed, strict=False) -> dict:
    # the lanes of `check` run one after the other in this process (the fallback of checks.context.run where
    # there is no fork): a case runs inside a test process that has threads (pytest-xdist), and a fork there
    # can inherit a held lock; the fuzz judges exit codes and messages, which the lanes' order does not change
    import multiprocessing
    real = multiprocessing.get_context
    multiprocessing.get_context = _no_fork
    try:
        rc, out, err, secs = F.run_cli(argv)
    finally:
        multiprocessing.get_context = real
    return {"seed": seed, "what": what, "argv": [a if len(a) < 80 else a[:80] + "…" for a in argv], "rc": rc,
            "seconds": secs, "problem": judge(argv, rc, out, err, strict), "stderr": err[:600]}
