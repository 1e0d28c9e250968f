"""The install line of the README on a fresh machine: build the wheel, make an empty virtual environment, install
the wheel into it with its dependencies from the package index (the README's command), run `skillproof check`
from it in another directory, and print the environment's size on disk (the README's figure).

    python benchmarks/install_size.py [--keep DIR]

Needs the network (the package index); takes a minute or two. Prints one line per step and, at the end, the
size of the environment and of its largest packages (du -s, KiB)."""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def du(path: Path) -> int:
    """Bytes on disk under ``path`` (what `du -s` counts, in KiB blocks, times 1024)."""
    out = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0]) * 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", help="build the environment here and keep it")
    args = ap.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="skillproof-install-"))
    work.mkdir(parents=True, exist_ok=True)
    dist, env = work / "dist", work / "env"
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)], check=True)
    wheel = next(dist.glob("*.whl"))
    print(f"built {wheel.name} ({wheel.stat().st_size / 1024:.0f} KiB) in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    py = env / "bin" / "python"
    base = du(env)
    # the README's install line: `pip install fengsheng_skillproof-….whl` (its dependencies from the index)
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") or k == "PIP_CERT"}
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--isolated", str(wheel)], check=True, env=clean)
    print(f"installed into an empty venv in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    with tempfile.TemporaryDirectory() as cwd:
        r = subprocess.run([str(env / "bin" / "skillproof"), "check"], capture_output=True, text=True, cwd=cwd)
    print(f"skillproof check from it: exit {r.returncode} in {time.perf_counter() - t:.1f} s — "
          f"{r.stdout.splitlines()[1] if len(r.stdout.splitlines()) > 1 else r.stderr.strip()}")
    total = du(env)
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    sizes = sorted(((du(p), p.name) for p in site.iterdir() if p.is_dir() and not p.name.endswith(".dist-info")),
                   reverse=True)
    print(f"environment: {total / 2**20:.0f} MiB on disk ({(total - base) / 2**20:.0f} MiB for skillproof and its "
          f"dependencies, {base / 2**20:.0f} MiB the empty venv with pip)")
    print("largest: " + ", ".join(f"{name} {size / 2**20:.1f} MiB" for size, name in sizes[:8]))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if r.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
