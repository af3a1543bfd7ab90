"""The comparison harness at benchmark scale, against running the CLI once per file.

    python benchmarks/bench_harness.py              # 100 instances per n: about 25 minutes
    python benchmarks/bench_harness.py --count 10   # the same measurement on a 40-instance set

The set has the shape of the ASP competition's blocked n-queens set (CSPLib prob080): n = 28,
48, 50, 56 with 595, 1962, 2142, 2734 blocked squares, `--count` instances each, written by
`nqueens generate blocked`. Measured in one run, on the same files:
  per-file  `nqueens first --model F` for each file, one after the other;
  jobs 1    `nqueens compare --model DIR --backends bitmask --task first --jobs 1`;
  jobs 2    the same with `--jobs 2`.
Every answer of the harness passes its own checks (validator, exit code 0), and the per-file
answers must give the same status (solved / no solution) file for file. The overhead line runs
`--runs` copies of an 8-queens instance and charges the harness for the wall time that is not
any run's own time, less the start-up it pays once (measured with a single copy).

Goals (issue #15): jobs 1 at most 0.55x per-file; jobs 2 at most 0.6x jobs 1; overhead under
5 ms per run.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHAPES = ((28, 595), (48, 1962), (50, 2142), (56, 2734))
EXE = str(Path(sys.executable).with_name("nqueens"))


def nqueens(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True)


def timed(*args: str) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    r = nqueens(*args)
    return time.perf_counter() - start, r


def harness(folder: Path, jobs: int, out: Path) -> tuple[float, list[dict]]:
    out.unlink(missing_ok=True)
    took, r = timed("compare", "--model", str(folder), "--backends", "bitmask", "--task", "first",
                    "--jobs", str(jobs), "-o", str(out))  # fmt: skip
    if r.returncode != 0:
        sys.exit(f"harness failed ({r.returncode}): {r.stderr.strip()}")
    return took, list(csv.DictReader(out.open()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100, help="instances per n (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=300, help="8-queens runs for the overhead line")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_harness."))
    try:
        folder = work / "set"
        r = nqueens("generate", "blocked", "--n", ",".join(str(n) for n, _ in SHAPES),
                    "--blocks", ",".join(str(b) for _, b in SHAPES), "--count", str(a.count),
                    "--seed", str(a.seed), "--out", str(folder))  # fmt: skip
        if r.returncode != 0:
            sys.exit(r.stderr.strip())
        files = sorted(folder.iterdir())
        print(f"{len(files)} instances in {folder}")

        per_file, statuses = 0.0, {}
        for f in files:
            took, r = timed("first", "--model", str(f), "--json")
            per_file += took
            if r.returncode != 0:
                sys.exit(f"nqueens first --model {f} failed: {r.stderr.strip()}")
            statuses[str(f)] = json.loads(r.stdout)["status"]
        one, rows = harness(folder, 1, work / "jobs1.csv")
        two, rows2 = harness(folder, 2, work / "jobs2.csv")
        for row in rows + rows2:
            said = statuses[row["instance"]]
            if said != row["status"]:
                sys.exit(f"per-file and harness disagree on {row['instance']}: {said} vs {row['status']}")
        solving = sum(float(r["seconds"]) for r in rows)
        print(f"per-file CLI  {per_file:9.1f} s   ({per_file - solving:.1f} s of it not solving)")
        print(f"jobs 1        {one:9.1f} s   {one / per_file:.2f}x per-file   (goal <= 0.55)")
        print(f"jobs 2        {two:9.1f} s   {two / one:.2f}x jobs 1      (goal <= 0.60)")
        print(f"answers       {sum(r['status'] == 'solved' for r in rows)} solved, "
              f"{sum(r['status'] == 'no solution' for r in rows)} no solution, all checked")  # fmt: skip

        small = work / "small"
        small.mkdir()
        model = Path(__file__).resolve().parents[1] / "models" / "queens-8.toml"
        shutil.copy(model, small / "q0000.toml")
        base, _ = harness(small, 1, work / "small1.csv")
        for i in range(1, a.runs):
            shutil.copy(model, small / f"q{i:04d}.toml")
        took, rows = harness(small, 1, work / "small.csv")
        own = sum(float(r["seconds"]) for r in rows[1:])
        overhead = (took - base - own) / (a.runs - 1) * 1000
        print(f"overhead      {overhead:9.2f} ms per run  (goal < 5; {a.runs} runs of 8-queens)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
