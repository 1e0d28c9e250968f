"""How ``skillproof extract`` scales with the size of one Kotlin file: time per size, and the ratio between sizes.

    .venv/bin/python benchmarks/extract_scaling.py [--sizes 1000,4000,16000] [--form one-line|multi-line]
        [--time-budget 600] [--json]

The small server of ``tests/fixtures/kotlin/server`` is copied to a temporary directory with one more file,
``skill/Big.kt``, holding N small skill classes (``--form one-line``, the default: each class on one line with
``;`` between its members — a syntax tree-sitter-kotlin recovers from, and whose recovery grew about quadratically
with the classes of one file; ``multi-line``: the same classes over four lines, which parse cleanly), and
``skillproof extract --kotlin DIR --output OUT -q`` is run on it in a fresh process (its wall time measured here:
start-up included). Printed per size: the file's bytes, the seconds, the seconds per 1,000 classes, and the ratio to
the size before it together with the ratio of sizes — linear growth keeps the two close (a file over 64 KiB is
parsed in parts cut at top-level declarations: model/extract/syntax.py ``parse_kotlin``).

Exit status 1 when a run fails (exit code other than 0 or 2: 2 is a degraded extraction, which these files are
not meant to be but which says nothing about time).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "fixtures" / "kotlin" / "server"


def big_file(n: int, form: str) -> str:
    lines = ["package demo.game.skill", "", "import demo.game.Game", "import demo.game.Player", ""]
    for i in range(n):
        if form == "one-line":
            lines.append(f"class Big{i} : TriggeredSkill {{ override val skillId = SkillId.MUTE; "
                         f"override val isInitialSkill = true }}")
        else:
            lines.append(f"class Big{i} : TriggeredSkill {{\n    override val skillId = SkillId.MUTE\n"
                         f"    override val isInitialSkill = true\n}}\n")
    return "\n".join(lines) + "\n"


def run(n: int, form: str, budget: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="skillproof-scaling-") as tmp:
        d = Path(tmp) / "server"
        shutil.copytree(SERVER, d)
        text = big_file(n, form)
        (d / "skill" / "Big.kt").write_text(text, encoding="utf-8")
        cmd = [sys.executable, "-m", "skillproof.cli", "extract", "--kotlin", str(d), "--output", str(Path(tmp) / "o"),
               "-q", "--lang", "en", "--time-budget", str(budget)]
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        took = time.perf_counter() - t
        return {"classes": n, "bytes": len(text.encode("utf-8")), "seconds": round(took, 2), "exit": p.returncode,
                "tail": p.stderr.strip().splitlines()[-1:] if p.returncode not in (0, 2) else []}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,4000,16000", help="classes in the one file, comma-separated")
    ap.add_argument("--form", choices=("one-line", "multi-line"), default="one-line")
    ap.add_argument("--time-budget", type=float, default=600.0, help="extract's --time-budget (seconds)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    try:
        sizes = [int(x) for x in a.sizes.split(",") if x.strip()]
    except ValueError:
        print(f"extract_scaling: --sizes takes whole numbers separated by commas, not {a.sizes!r}", file=sys.stderr)
        return 2
    if not sizes or min(sizes) < 1:
        print("extract_scaling: --sizes needs at least one size of 1 or more", file=sys.stderr)
        return 2
    rows, bad = [], False
    for n in sizes:
        r = run(n, a.form, a.time_budget)
        rows.append(r)
        bad |= r["exit"] not in (0, 2)
        if not a.json:
            prev = rows[-2] if len(rows) > 1 else None
            ratio = (f"  x{r['seconds'] / max(prev['seconds'], 1e-9):.2f} for x{n / prev['classes']:.2f} the classes"
                     if prev else "")
            print(f"{n:>7,} classes  {r['bytes']:>10,} bytes  {r['seconds']:>8.2f} s  "
                  f"{1000 * r['seconds'] / n:>6.3f} s per 1,000  exit {r['exit']}{ratio}", flush=True)
            for line in r["tail"]:
                print(f"         {line}")
    if a.json:
        print(json.dumps({"form": a.form, "runs": rows}, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
