"""CPMpy's solvers beside cpsat and bitmask, through `nqueens compare` (issue 37): the same hard
limits for every solver, each run in a sandboxed worker, PAR-2 from compare's own summary.

    python benchmarks/bench_cpmpy.py                       # the three tables, 5 s per run
    python benchmarks/bench_cpmpy.py --time-limit 20 --out /tmp/cpmpy-bench

Three sets, each one `compare` run: counting n = 8..11; a first solution for n = 50, 100, 200,
500 and 1000 (TOML instance files written beside the results); and a first solution on the
blocked sets `nqueens generate blocked` makes (CSPLib prob080's model, 5 instances of n = 28
with 200 squares blocked, seed 1). The sub-solvers run are those installed here
(`nqueens_cp.backends.cpmpy.installed`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

SUBSOLVERS = ("choco", "ortools", "z3", "exact", "pumpkin")


def nqueens(*args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("nqueens")
    return subprocess.run([str(exe), *args], capture_output=True, text=True)


def summary(label: str, args: list[str], backends: list[str], limit: float, out: Path) -> None:
    results = out / f"{label}.jsonl"
    proc = nqueens("compare", *args, "--backends", ",".join(backends), "--time-limit", str(limit),
                   "-o", str(results), "--json")
    if proc.returncode not in (0, 1):
        sys.exit(f"compare failed: {proc.stderr.strip()}")
    rows = json.loads(proc.stdout.splitlines()[-1])["summary"]
    print(f"\n{label} (time limit {limit:g} s; PAR-2 counts twice the limit for every unsolved run)")
    print(f"{'backend':<16} {'runs':>5} {'solved':>7} {'wrong':>6} {'total s':>9} {'PAR-2':>9}")
    for s in rows:
        par2 = "-" if s["par2"] is None else f"{s['par2']:.2f}"
        counts = f"{s['runs']:>5} {s['solved']:>7} {s['wrong']:>6}"
        print(f"{s['backend']:<16} {counts} {s['total_seconds']:>9.2f} {par2:>9}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--out", type=Path, default=None, help="keep the results files here")
    args = parser.parse_args()
    from nqueens_cp.backends.cpmpy import installed

    subs = [f"cpmpy:{s}" for s in SUBSOLVERS if s in installed()]
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-cpmpy-"))
    out.mkdir(parents=True, exist_ok=True)
    limit = args.time_limit
    summary("count", ["--n", "8..11", "--task", "count"], ["bitmask", "cpsat", *subs], limit, out)
    boards = out / "large"
    boards.mkdir(exist_ok=True)
    for n in (50, 100, 200, 500, 1000):
        (boards / f"queens-{n:04d}.toml").write_text(f"n = {n}\n")
    summary("first", ["--model", str(boards), "--task", "first"], ["bitmask", "cpsat", *subs], limit, out)
    sets = out / "blocked"
    made = nqueens("generate", "blocked", "--n", "28", "--blocks", "200", "--count", "5", "--seed", "1",
                   "--out", str(sets), "--force")
    if made.returncode != 0:
        sys.exit(f"generate failed: {made.stderr.strip()}")
    summary("blocked", ["--model", str(sets), "--task", "first"], ["bitmask", "cpsat", *subs], limit, out)
    print(f"\nresults files in {out}")


if __name__ == "__main__":
    main()
