"""Start-up latency: where a fresh `nqueens` process spends its time, and the small counts.

    python benchmarks/bench_startup.py

Each CLI figure is the median wall time of --repeat fresh processes on a warm cache (the
kernels compiled once before): `nqueens --help`, `--version`, `backends`, `count 8`, `count 12`
(counted a row at a time on numpy arrays, no compiled kernel), `count 13` (the first size that
loads the compiled kernels) and `count 16` (the join, compiled ahead of time: no numba; and with
its JIT kernels, NQUEENS_CP_AOT=0). Then, in process: what importing each part costs (`python -X
importtime` read for the package, typer, numpy, numba), and the row-at-a-time counter against the
compiled one for n = 8 to 13, each in a process that has not loaded numba yet (what a user's one
count pays) and warm, which places the planner's threshold (FRONTIER_MAX_N).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

A000170 = {8: "92", 12: "14200", 13: "73712", 16: "14772512"}
COMMANDS = (["--help"], ["--version"], ["backends"], ["count", "8"], ["count", "12"], ["count", "13"], ["count", "16"])
#: `count 16` again with the join's JIT kernels instead of its module compiled ahead of time.
JIT = {"NQUEENS_CP_AOT": "0"}

#: One count in a fresh process, by one algorithm: (import, first count, a warm count) seconds.
ONE_COUNT = """
import sys, time
t0 = time.perf_counter()
import nqueens_cp as nq
from nqueens_cp.backends.base import Deadline
from nqueens_cp.backends.bitmask import frontier
n, how = int(sys.argv[1]), sys.argv[2]
p = nq.Problem(n)
def run():
    if how == "numpy":
        return frontier.count(p, Deadline("bench", None))
    b = nq.get_backend("bitmask", workers=1)
    from nqueens_cp.backends.bitmask.planner import Algorithm
    from nqueens_cp.backends.bitmask.partitions import count_items, for_count
    items = for_count(p, Algorithm.COUNT_SPLIT if n < 11 else Algorithm.CONSTELLATIONS)
    return count_items(items, 1, b.deadline(), None, True).count
t1 = time.perf_counter()
first = run()
t2 = time.perf_counter()
warm = []
for _ in range(5):
    start = time.perf_counter()
    run()
    warm.append(time.perf_counter() - start)
print(t1 - t0, t2 - t1, min(warm), first)
"""


def cli_seconds(argv: list[str], env: dict[str, str] | None = None) -> float:
    cmd = [sys.executable, "-c", "from nqueens_cp.entry import main; main()", *argv]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=os.environ | (env or {})).stdout
    seconds = time.perf_counter() - start
    if argv[0] == "count":
        assert out.split() == [A000170[int(argv[1])]], out
    return seconds


def import_times() -> dict[str, float]:
    """Seconds of the cumulative import of a few top-level parts, for `nqueens count 12`."""
    code = "from nqueens_cp.entry import main; import sys; sys.argv = ['nqueens', 'count', '12']; main()"
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True).stderr
    wanted = {"typer", "numpy", "numba", "nqueens_cp.cli", "pydantic", "ortools"}
    found: dict[str, float] = {}
    for line in err.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() in wanted:
            found[parts[2].strip()] = max(found.get(parts[2].strip(), 0.0), int(parts[1]) / 1e6)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    for n in ("13", "16"):  # the kernels compiled and cached (the join's ahead of time too), untimed
        cli_seconds(["count", n])
    times: dict[str, list[float]] = {" ".join(c): [] for c in COMMANDS} | {"count 16 (JIT)": []}
    for _ in range(args.repeat):
        for c in COMMANDS:
            times[" ".join(c)].append(cli_seconds(c))
        times["count 16 (JIT)"].append(cli_seconds(["count", "16"], JIT))
    for name, ts in times.items():
        print(f"nqueens {name:<14} {statistics.median(ts):.3f} s  (median of {len(ts)})")
    parts = import_times()
    print("importing, for count 12: " + ", ".join(f"{k} {v:.3f} s" for k, v in sorted(parts.items())))
    print(f"{'n':>3} {'numpy: import':>14} {'first':>7} {'warm':>7}   {'compiled: first':>16} {'warm':>7}")
    for n in range(8, 14):
        row = []
        for how in ("numpy", "compiled"):
            run = subprocess.run([sys.executable, "-c", ONE_COUNT, str(n), how], capture_output=True, text=True)
            t_import, first, warm, count = (float(x) for x in run.stdout.split())
            row.append((t_import, first, warm, int(count)))
        (i, f1, w1, c1), (_, f2, w2, c2) = row
        assert c1 == c2, (n, c1, c2)
        print(f"{n:>3} {i:>13.3f}s {f1:>6.3f}s {w1:>6.3f}s   {f2:>15.3f}s {w2:>6.3f}s")


if __name__ == "__main__":
    main()
