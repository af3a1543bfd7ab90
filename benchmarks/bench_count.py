"""Counting speed against the C yardstick, as ratios measured in one run.

    python benchmarks/bench_count.py            # n = 15 and 16
    python benchmarks/bench_count.py 14 15 16 17

Builds ../shared/bench/nqueens_ref.c with cc -O3 -march=native, then for each n runs the C
program and `nqueens_cp.count(n)` (bitmask, one process) alternately, best of --repeat runs each,
and prints package time / C time. Counts are checked against OEIS A000170.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nqueens_cp as nq

A000170 = {14: 365596, 15: 2279184, 16: 14772512, 17: 95815104, 18: 666090624}
REF = Path(__file__).resolve().parents[2] / "shared" / "bench" / "nqueens_ref.c"


def build_reference(src: Path = REF) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not src.exists():
        sys.exit(f"need a C compiler and {src}")
    exe = Path(tempfile.mkdtemp()) / "nqueens_ref"
    subprocess.run([cc, "-O3", "-march=native", "-o", str(exe), str(src)], check=True)
    return exe


def c_seconds(exe: Path, n: int) -> float:
    _, count, seconds = subprocess.run([str(exe), str(n)], capture_output=True, text=True, check=True).stdout.split()
    assert int(count) == A000170[n], count
    return float(seconds)


def py_seconds(n: int, **kw) -> float:
    start = time.perf_counter()
    count = nq.count(n, **kw)
    seconds = time.perf_counter() - start
    assert count == A000170[n], count
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ns", nargs="*", type=int, default=[15, 16])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    exe = build_reference()
    nq.count(8)  # load the JIT cache outside the timings
    print(f"{'n':>3} {'C s':>8} {'bitmask s':>10} {'ratio':>6}")
    for n in args.ns:
        cs, ps = [], []
        for _ in range(args.repeat):
            cs.append(c_seconds(exe, n))
            ps.append(py_seconds(n))
        print(f"{n:>3} {min(cs):8.3f} {min(ps):10.3f} {min(ps) / min(cs):6.2f}")


if __name__ == "__main__":
    main()
