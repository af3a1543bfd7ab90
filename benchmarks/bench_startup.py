"""Start-up latency of `nqueens count 8`: compiling the kernels, loading them from numba's cache, warm.

    python benchmarks/bench_startup.py

Each figure comes from fresh processes. "compile" runs the command with NUMBA_CACHE_DIR pointing at
a new empty directory, so every kernel the command needs is compiled (what the first run after an
install pays); "cached" runs it again with that directory filled (what every later run pays). The
in-process line splits the cached run: importing the package and numba, the first count(8) (loads
the compiled kernel from disk), and a warm count(8).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

CLI = [sys.executable, "-c", "from nqueens_cp.cli import main; main()", "count", "8"]

IN_PROCESS = """
import time
t0 = time.perf_counter()
import numba
t1 = time.perf_counter()
import nqueens_cp as nq
t2 = time.perf_counter()
assert nq.count(8) == 92
t3 = time.perf_counter()
warm = []
for _ in range(200):
    s = time.perf_counter()
    nq.count(8)
    warm.append(time.perf_counter() - s)
print(t1 - t0, t2 - t1, t3 - t2, min(warm))
"""


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - start
    assert out.split() == ["92"], out
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    compile_s, cached_s, parts = [], [], []
    for _ in range(2):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            compile_s.append(wall(CLI, env))
            cached_s += [wall(CLI, env) for _ in range(args.repeat)]
            for _ in range(args.repeat):
                run = subprocess.run([sys.executable, "-c", IN_PROCESS], env=env, capture_output=True, text=True)
                parts.append([float(x) for x in run.stdout.split()])
    best = [min(p[i] for p in parts) for i in range(4)]
    print(f"nqueens count 8, compile (empty cache): {min(compile_s):.2f} s  (best of {len(compile_s)})")
    print(f"nqueens count 8, cached:                {min(cached_s):.2f} s  (best of {len(cached_s)})")
    print(
        f"in process, cached: import numba {best[0]:.2f} s, import nqueens_cp {best[1]:.2f} s, "
        f"first count(8) {best[2]:.2f} s, warm count(8) {best[3] * 1e3:.2f} ms"
    )


if __name__ == "__main__":
    main()
