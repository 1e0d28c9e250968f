"""Hostile inputs for the fuzz tests (tests/test_fuzz_inputs.py) and the long fuzz run
(benchmarks/fuzz_inputs.py): mutated catalogues and mutated scenario files, each drawn from a seeded
``random.Random`` so that a case is reproduced by its seed.

A case runs the real command line in this process (``skillproof catalogue DIR`` / ``skillproof replay
FILE``) and is judged by ``verdict``: the exit code must be 0, 1 or 2, never a traceback or an internal
error, and on exit 2 every line on stderr must be a located one-line message.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shutil
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHIPPED = ROOT / "model" / "catalogue"

# ---------------------------------------------------------------------------------- hostile pieces
LOOKALIKES = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "s": "ѕ", "i": "і", "y": "у",
              "J": "Ј", "H": "Н", "B": "В", "K": "К", "M": "М", "T": "Т"}
INVISIBLE = ["\u200b", "\u200d", "\ufeff", "\u2028", "\u2029", "\r", "\u202e", "\x00", "\x1b"]


def _big(rng) -> int:
    return rng.choice([11, 41, 400, 4301, 6000])


def _deep(rng) -> int:
    return rng.choice([17, 33, 65, 98, 120, 330, 495, 1200])


def hostile_expression(rng) -> str:
    k = _deep(rng)
    return rng.choice([
        lambda: "(" * k + "alive" + ")" * k,
        lambda: " and ".join(["alive"] * k),
        lambda: " or ".join(["face_up"] * k),
        lambda: "not " * k + "alive",
        lambda: "hand_count > " + "9" * _big(rng),
        lambda: "-" * k + "1 > 0",
        lambda: " + ".join(["1"] * k) + " > 0",
        lambda: "hand_count > 0 and " + "x" * rng.choice([65, 5000, 300000]),
        lambda: "any(p: " * min(k, 200) + "alive" + ")" * min(k, 200),
        lambda: "{" * k + "red" + "}" * k,
        lambda: "if alive then " * min(k, 300) + "true" + " else false" * min(k, 300),
        lambda: "ѕelf.alive",
        lambda: "self\u200b.alive",
        lambda: "alive and\u2028face_up",
        lambda: "alive ==",
        lambda: "hand_count > 1" + ".5" * k,
    ])()


def toml_string(s: str) -> str:
    """A TOML basic string holding ``s`` (control characters as \\u escapes, as a designer's editor
    would write them)."""
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def odd_name(rng, name: str) -> str:
    """``name`` with a lookalike letter, an invisible character, a line break or made huge."""
    choice = rng.randrange(5)
    if choice == 0 and any(c in LOOKALIKES for c in name):
        i = rng.choice([i for i, c in enumerate(name) if c in LOOKALIKES])
        return name[:i] + LOOKALIKES[name[i]] + name[i + 1:]
    if choice == 1:
        i = rng.randrange(len(name) + 1)
        return name[:i] + rng.choice(INVISIBLE) + name[i:]
    if choice == 2:
        return name + rng.choice(["\r\n", "\n", "\u2028"]) + name
    if choice == 3:
        return name * rng.choice([30, 3000, 200000])
    return name + "x"


def hostile_toml_value(rng) -> str:
    k = _deep(rng)
    return rng.choice([
        lambda: "[" * k + "]" * k,
        lambda: "{a=" * k + "1" + "}" * k,
        lambda: "9" * _big(rng),
        lambda: "-" + "9" * _big(rng),
        lambda: "0x" + "f" * _big(rng),
        lambda: toml_string("x" * rng.choice([201, 10001, 1000000])),
        lambda: toml_string(rng.choice(["self\u2028x", "a\r\nb", "\u200bself", "ѕelf", "\ufeffJie_Huo", "\x1b[31mred"])),
        lambda: toml_string(hostile_expression(rng)),
        lambda: '["x"]', lambda: '[["Jie_Huo"]]', lambda: "{x = 1}", lambda: "5", lambda: "true", lambda: "1.5",
        lambda: '""', lambda: "[]", lambda: "{}", lambda: "1979-05-27", lambda: "inf", lambda: "nan",
        lambda: "[" + ", ".join(['"Jie_Huo"'] * rng.choice([40, 6000])) + "]",
        lambda: "[1, 2, 3]", lambda: '[true, "x", 1]',
    ])()


_ONE_LINE_VALUE = re.compile(r'^(\s*)([A-Za-z0-9_.]+)\s*=\s*("[^"\\]*"|-?\d+|true|false|\[[^\[\]]*\])\s*$')


def mutate_catalogue(rng: random.Random, texts: dict[str, str]) -> tuple[dict, str]:
    """One hostile edit of a catalogue ({file name: text}); returns the new texts and what was done."""
    texts = dict(texts)
    name = rng.choice(sorted(texts))
    text = texts[name]
    lines = text.split("\n")
    op = rng.randrange(12)
    values = [i for i, ln in enumerate(lines) if _ONE_LINE_VALUE.match(ln)]
    names = [i for i, ln in enumerate(lines) if re.search(r'"[A-Za-z_]{3,}"', ln)]
    if (op <= 2 and not values) or (op == 3 and not names):
        op = 8
    if op <= 2:                                  # a value replaced by something hostile
        i = rng.choice(values)
        m = _ONE_LINE_VALUE.match(lines[i])
        key = m.group(2)
        if key in ("fight", "dying", "draw", "when", "where", "rule", "must", "cannot") and rng.random() < 0.6:
            val = toml_string(hostile_expression(rng))
        else:
            val = hostile_toml_value(rng)
        lines[i] = f"{m.group(1)}{key} = {val}"
        what = f"{name}:{i + 1} {key} = <{val[:40]}…>"
    elif op == 3:                                # a name used somewhere made odd
        i = rng.choice(names)
        m = rng.choice(list(re.finditer(r'"([A-Za-z_]{3,})"', lines[i])))
        new = toml_string(odd_name(rng, m.group(1)))
        lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        what = f"{name}:{i + 1} odd name {m.group(1)}"
    elif op == 4:                                # a new skill with a hostile condition
        expr = toml_string(hostile_expression(rng))
        key = rng.choice(["fight", "dying"])
        lines += ["", "[[skill]]", 'id = "FuzzSkill"', 'name = "fuzz"', 'kinds = ["ActiveSkill"]', f"{key} = {expr}"]
        what = f"{name}: new skill with {key} = <{expr[:40]}…>"
    elif op == 5:                                # a key that is huge or odd
        key = rng.choice(["k" * rng.choice([201, 1000000]), '"a\\u2028b"', '"ѕkills"', "a." * rng.choice([20, 3000]) + "b"])
        lines.insert(rng.randrange(len(lines) + 1), f"{key} = 1")
        what = f"{name}: key <{key[:30]}…>"
    elif op == 6:                                # counts over the limits
        n = rng.choice([70, 600, 2100])
        kind = rng.choice(["card", "character", "gives"])
        if kind == "card":
            lines += [f'[[card]]\nid = "FuzzCard{j}"\nname = "c{j}"' for j in range(n)]
        elif kind == "character":
            lines += [f'[[character]]\nid = "fuzz{j}"\nname = "f{j}"\nhidden = false\nfemale = false\nskills = []'
                      for j in range(n)]
        else:
            lines += ["[[skill]]", 'id = "FuzzGiver"', 'name = "g"', 'kinds = ["TriggeredSkill"]']
            lines += ['[[skill.gives]]\ngrant = "InvalidSkill"\nto = "target"' for _ in range(n)]
        what = f"{name}: {n} more {kind}"
    elif op == 7:                                # lines deleted, duplicated or swapped
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        kind = rng.choice(["delete", "duplicate", "swap"])
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(j, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        what = f"{name}: {kind} line {i + 1}"
    elif op == 8:                                # characters inserted anywhere
        pos = rng.randrange(len(text) + 1)
        ins = rng.choice(["\r", "\x00", "\u2028", "[", "]", "{", '"', "'''", '"""', "=", "#", "\\", "\ufeff",
                          "[" * 600, "{" * 400])
        text = text[:pos] + ins + text[pos:]
        texts[name] = text
        return texts, f"{name}: inserted {ins[:5]!r} at {pos}"
    elif op == 9:                                # the file cut short
        pos = rng.randrange(len(text) + 1)
        texts[name] = text[:pos]
        return texts, f"{name}: cut at {pos}"
    elif op == 10:                               # a table's value type swapped
        tbl = rng.choice(["convert", "ban", "receive", "send", "plays"])
        val = hostile_toml_value(rng)
        lines += ["", "[[skill]]", 'id = "FuzzTable"', 'name = "t"', 'kinds = ["ConvertCardSkill"]', f"{tbl} = {val}"]
        what = f"{name}: {tbl} = <{val[:40]}…>"
    else:                                        # bytes that are not UTF-8, or a huge file
        kind = rng.choice(["utf8", "huge"])
        if kind == "utf8":
            pos = rng.randrange(len(text) + 1)
            texts[name] = text[:pos].encode() + b"\xff\xfe" + text[pos:].encode()    # type: ignore[assignment]
        else:
            texts[name] = text + "\n# " + "x" * (2 * 1024 * 1024 + 10)
        return texts, f"{name}: {kind}"
    texts[name] = "\n".join(lines)
    return texts, what


def shipped_texts() -> dict[str, str]:
    """{path inside the catalogue: text} of every file of the shipped catalogue."""
    return {p.relative_to(SHIPPED).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(SHIPPED.rglob("*.toml"))}


def write_catalogue(texts: dict, directory: Path) -> Path:
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    for name, t in texts.items():
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).write_bytes(t if isinstance(t, bytes) else t.encode("utf-8", "surrogatepass"))
    return directory


# --------------------------------------------------------------------------------------- scenarios
BASE_SCENARIOS = [
    {"state": {"seats": [
        {"character": "sp_li_ning_yu", "skills": [
            {"rule": "YingBian"}, {"rule": "YouDao"},
            {"rule": "BianZeTong2", "args": {"A": "Jie_Huo", "B": "Po_Yi"}, "giver": 1, "site": "BianZeTong#0"}]},
        {"character": "chen_da_er", "skills": [{"rule": "BianZeTong"}]}], "turn": 1},
     "question": {"decision": "can_play", "seat": 0, "actual": "Jie_Huo", "declared": "Wu_Dao"},
     "expect": {"can_play": False},
     "also": [{"question": {"decision": "conversion", "seat": 0, "actual": "Jie_Huo", "declared": "Po_Yi"},
               "expect": {"ok": True, "via": "BianZeTong2"}}]},
    {"state": {"seats": [{"character": "gu_xiao_meng", "skills": [{"rule": "JiZhi"}, {"rule": "ChengZhi"},
                                                                        {"rule": "WeiSheng"}], "hand_count": 2},
                         {"character": "chen_da_er", "skills": [{"rule": "BianZeTong"}]}],
               "turn": 1, "dying": 1, "message": ["red"], "message_dir": "left", "unknowns": {}},
     "question": {"decision": "skip_dying", "seat": 0},
     "also": [{"question": {"decision": "send", "seat": 1, "group": "SendMessageCanLockSkill", "dir": "left",
                            "lock_count": 1}},
              {"question": {"decision": "result", "kind": "win", "turn": 0, "declared": [1], "winners": [0],
                            "picks": {"0/0/0": 1}}},
              {"question": {"decision": "holds", "seat": 1, "rule": "BianZeTong"}, "expect": {"holds": True}},
              {"question": {"decision": "draw"}}, {"question": {"decision": "turn_end", "seat": 0}}]},
]


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, path + (i,))


_MARK = "\ue000FUZZ\ue000"


def hostile_json(rng) -> tuple[object, str | None]:
    """(a JSON value, or the marker with raw JSON text to put in its place)."""
    k = _deep(rng)
    return rng.choice([
        lambda: (["Jie_Huo"], None), lambda: ({"a": 1}, None), lambda: ([], None), lambda: ({}, None),
        lambda: (None, None), lambda: (True, None), lambda: (1.5, None), lambda: (-3, None), lambda: (7, None),
        lambda: (10 ** 12, None), lambda: ("", None),
        lambda: (_MARK, "9" * _big(rng)), lambda: (_MARK, "-" + "9" * _big(rng)), lambda: (_MARK, "1e99999"),
        lambda: (_MARK, "[" * k + "]" * k), lambda: (_MARK, '{"a":' * k + "1" + "}" * k),
        lambda: ("x" * rng.choice([65, 10001, 900000]), None),
        lambda: (rng.choice(["self\u2028x", "a\r\nb", "\u200bJie_Huo", "Jіe_Huo", "\ufeffred", "\x1b[2J"]), None),
        lambda: (_MARK, "NaN"), lambda: (_MARK, "Infinity"),
    ])()


def mutate_scenario(rng: random.Random, base: dict) -> tuple[str | bytes, str]:
    """A hostile scenario file (its text) made from ``base``; and what was done."""
    d = json.loads(json.dumps(base))
    op = rng.randrange(8)
    raw = None
    if op <= 3:                                  # a value replaced
        paths = [p for p in _paths(d) if p]
        path = rng.choice(paths)
        val, raw = hostile_json(rng)
        parent = d
        for p in path[:-1]:
            parent = parent[p]
        parent[path[-1]] = val
        what = f"{'/'.join(map(str, path))} = <{str(raw or val)[:30]}…>"
    elif op == 4:                                # a key deleted, renamed or added
        paths = [p for p in _paths(d) if p and isinstance(p[-1], str)]
        path = rng.choice(paths)
        parent = d
        for p in path[:-1]:
            parent = parent[p]
        kind = rng.choice(["delete", "rename", "add"])
        if kind == "delete":
            del parent[path[-1]]
        elif kind == "rename":
            parent[odd_name(rng, path[-1])] = parent.pop(path[-1])
        else:
            val, raw = hostile_json(rng)
            parent[odd_name(rng, "extra")] = val
        what = f"{kind} key {'/'.join(map(str, path))}"
    elif op == 5:                                # a name made odd
        paths = [p for p in _paths(d) if p and isinstance(_get(d, p), str)]
        path = rng.choice(paths)
        parent = _get(d, path[:-1])
        parent[path[-1]] = odd_name(rng, parent[path[-1]])
        what = f"odd name at {'/'.join(map(str, path))}"
    elif op == 6:                                # many seats, skills, questions
        kind = rng.choice(["seats", "skills", "also"])
        n = rng.choice([10, 300, 3000])
        if kind == "seats":
            d["state"]["seats"] = d["state"]["seats"] * n
        elif kind == "skills":
            d["state"]["seats"][0]["skills"] = d["state"]["seats"][0]["skills"] * n
        else:
            d["also"] = (d.get("also") or [{"question": d["question"]}]) * n
        what = f"{n}x {kind}"
    else:                                        # the text itself damaged
        text = json.dumps(d, ensure_ascii=False, indent=2)
        kind = rng.choice(["cut", "insert", "utf8", "bom", "deep", "huge"])
        pos = rng.randrange(len(text) + 1)
        if kind == "cut":
            return text[:pos], f"cut at {pos}"
        if kind == "insert":
            ins = rng.choice(["{", "[", '"', ",", ":", "\x00", "\u2028", "]]]", "\\"])
            return text[:pos] + ins + text[pos:], f"inserted {ins!r} at {pos}"
        if kind == "utf8":
            return text[:pos].encode() + b"\xff" + text[pos:].encode(), "invalid UTF-8"
        if kind == "bom":
            return "\ufeff" + text, "BOM"
        if kind == "deep":
            k = rng.choice([40, 5000, 100000])
            return "[" * k + "]" * k, f"nested {k} deep"
        return text + " " * (1024 * 1024 + 1), "over 1 MiB"
    text = json.dumps(d, ensure_ascii=False, indent=rng.choice([None, 2]))
    if raw is not None:
        text = text.replace(json.dumps(_MARK, ensure_ascii=False), raw)
    return text, what


def _get(d, path):
    for p in path:
        d = d[p]
    return d


# ------------------------------------------------------------------------------------------ running
LOCATED = re.compile(r"^(error: |错误：).+?:\d+: ")
SUMMARY = re.compile(r"^\d+ errors? in the catalogue; nothing was checked$"
                     r"|^\(\d+ further errors? hidden: (they follow|it follows) from .+ not being readable\)$"
                     r"|^目录中有 [\d,]+ 个错误；什么也没有检查$"
                     r"|^（另有 [\d,]+ 个错误未列出：它们都因为 .+ 读不了而产生）$")


def run_cli(argv) -> tuple[int, str, str, float]:
    """Run ``skillproof ARGV`` in this process: (exit code, stdout, stderr, seconds)."""
    from skillproof.cli import main
    out, err = io.StringIO(), io.StringIO()
    t = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(argv))
        except SystemExit as e:                  # argparse
            rc = e.code if isinstance(e.code, int) else 2
        except Exception:                        # noqa: BLE001 — an escaped exception is what we look for
            import traceback
            err.write(traceback.format_exc())
            rc = 1
    return rc, out.getvalue(), err.getvalue(), time.perf_counter() - t


def verdict(rc: int, out: str, err: str) -> str | None:
    """What is wrong with a run on hostile input, or None: exit 0/1/2, no traceback, no internal error,
    and on exit 2 only located one-line messages on stderr."""
    if "Traceback" in err or "internal error" in err or "内部错误" in err:
        return f"crashed: {err.strip().splitlines()[-1][:300] if err.strip() else ''}"
    if rc not in (0, 1, 2):
        return f"exit code {rc}"
    if rc == 2:
        lines = err.rstrip("\n").split("\n")
        if not lines or not LOCATED.match(lines[0]):
            return f"not a located message: {err[:200]!r}"
        for ln in lines:
            if not (LOCATED.match(ln) or SUMMARY.match(ln)):
                return f"a line that is not a located message: {ln[:200]!r}"
            if any(c in ln for c in "\r\x0b\x0c\x1b\x00\u2028\u2029\u200b\ufeff\u202e"):
                return f"raw control or invisible character echoed: {ln[:200]!r}"
    return None


def catalogue_case(seed: int, workdir: Path, texts: dict | None = None) -> dict:
    rng = random.Random(seed)
    mutated, what = mutate_catalogue(rng, texts or shipped_texts())
    d = write_catalogue(mutated, workdir / f"cat{seed}")
    rc, out, err, secs = run_cli(["catalogue", str(d)])
    shutil.rmtree(d, ignore_errors=True)
    return {"seed": seed, "what": what, "rc": rc, "seconds": secs, "problem": verdict(rc, out, err),
            "stderr": err[:500]}


def scenario_case(seed: int, workdir: Path) -> dict:
    rng = random.Random(seed)
    base = BASE_SCENARIOS[rng.randrange(len(BASE_SCENARIOS))]
    text, what = mutate_scenario(rng, base)
    p = workdir / f"s{seed}.json"
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    rc, out, err, secs = run_cli(["replay", str(p)])
    os.unlink(p)
    return {"seed": seed, "what": what, "rc": rc, "seconds": secs, "problem": verdict(rc, out, err),
            "stderr": err[:500]}
