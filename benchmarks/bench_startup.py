"""Start-up latency of the CLI: `nqueens count 8` and `nqueens count 12`, compiled, cached and warm.

    python benchmarks/bench_startup.py

Each CLI figure is the wall time of a fresh process. A process that has not loaded the compiled
kernels counts boards up to n = 10 in Python, so `count 8` never imports numba; `count 12` loads
the count kernel. "compile" runs it with NUMBA_CACHE_DIR pointing at a new empty directory, so
the kernel is compiled (what the first run after an install pays); "cached" runs it again with
that directory filled (what every later run pays). The in-process line splits a cached run:
importing the package, numba, the first kernel call (loads it from disk), and a warm count(8).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

A000170 = {8: "92", 12: "14200"}

IN_PROCESS = """
import time
t0 = time.perf_counter()
import nqueens_cp as nq
t1 = time.perf_counter()
import numba
t2 = time.perf_counter()
assert nq.count(12, workers=1) == 14200
t3 = time.perf_counter()
warm = []
for _ in range(200):
    s = time.perf_counter()
    nq.count(8)
    warm.append(time.perf_counter() - s)
print(t1 - t0, t2 - t1, t3 - t2, min(warm))
"""


def cli_seconds(n: int, env: dict[str, str]) -> float:
    cmd = [sys.executable, "-c", "from nqueens_cp.entry import main; main()", "count", str(n), "--workers", "1"]
    start = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - start
    assert out.split() == [A000170[n]], out
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    compiled, cached8, cached12, parts = [], [], [], []
    for _ in range(2):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            compiled.append(cli_seconds(12, env))
            for _ in range(args.repeat):
                cached8.append(cli_seconds(8, env))
                cached12.append(cli_seconds(12, env))
                run = subprocess.run([sys.executable, "-c", IN_PROCESS], env=env, capture_output=True, text=True)
                parts.append([float(x) for x in run.stdout.split()])
    best = [min(p[i] for p in parts) for i in range(4)]
    print(f"nqueens count 8  (Python, no numba):     {min(cached8):.2f} s  (best of {len(cached8)})")
    print(f"nqueens count 12, kernel compiled:       {min(compiled):.2f} s  (best of {len(compiled)})")
    print(f"nqueens count 12, kernel from the cache: {min(cached12):.2f} s  (best of {len(cached12)})")
    print(
        f"in process: import nqueens_cp {best[0]:.2f} s, import numba {best[1]:.2f} s, "
        f"first kernel call (count 12) {best[2]:.2f} s, then a warm count(8) {best[3] * 1e3:.2f} ms"
    )


if __name__ == "__main__":
    main()
