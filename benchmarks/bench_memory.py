"""Peak memory of streaming enumeration: flat in the number of solutions.

    python benchmarks/bench_memory.py              # n = 10, 12, 14 through the API and the CLI

Each run is a fresh process; its peak resident set size (ru_maxrss, from wait4) is printed.
Streaming means the peak does not grow with the number of solutions (724 -> 365,596).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

API = "import nqueens_cp as nq, sys; n = int(sys.argv[1]); print(sum(1 for _ in nq.solve(n)))"


def peak_mb(argv: list[str]) -> tuple[float, float, str]:
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE if argv[1] == "-c" else sink)
        out = proc.stdout.read().decode().strip() if proc.stdout else ""
        _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, argv
    return usage.ru_maxrss / 1024, time.perf_counter() - start, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ns", nargs="*", type=int, default=[10, 12, 14])
    args = ap.parse_args()
    nqueens = os.path.join(os.path.dirname(sys.executable), "nqueens")
    print(f"{'run':<44} {'peak MB':>8} {'seconds':>8}")
    for n in args.ns:
        mb, sec, out = peak_mb([sys.executable, "-c", API, str(n)])
        print(f"{f'API: sum(1 for _ in solve({n})) = {out}':<44} {mb:8.1f} {sec:8.2f}")
        for fmt in ("jsonl", "boards"):
            mb, sec, _ = peak_mb([nqueens, "solve", str(n), "--format", fmt])
            print(f"{f'CLI: nqueens solve {n} --format {fmt} > /dev/null':<44} {mb:8.1f} {sec:8.2f}")


if __name__ == "__main__":
    main()
