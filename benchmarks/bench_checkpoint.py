"""What a checkpoint costs: a partitioned count with and without --checkpoint, as ratios measured
in one run (alternating, best of --repeat).

    python benchmarks/bench_checkpoint.py            # n = 11 and 15, 1 and 2 workers

Each recorded item is one append to the journal (fsynced at most once a second), and a pool
reports finished items through shared memory, so the cost per item does not grow with the file.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import nqueens_cp as nq
from nqueens_cp.run.partition import count_partitioned, pool_runner

A000170 = {11: 2680, 12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512}


def seconds(n: int, workers: int, checkpoint: Path | None) -> float:
    part = nq.get_backend("bitmask").partition(nq.Problem(n))
    if checkpoint is not None and checkpoint.exists():
        checkpoint.unlink()
    start = time.perf_counter()
    assert count_partitioned(part, pool_runner(workers), checkpoint) == A000170[n]
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ns", nargs="*", type=int, default=[11, 15])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    nq.count(13, workers=1)  # load the kernels outside the timings (13: the first size they count)
    with tempfile.TemporaryDirectory() as folder:
        ck = Path(folder) / "c.json"
        print(f"{'n':>3} {'items':>7} {'workers':>7} {'plain s':>8} {'checkpoint s':>12} {'ratio':>6}")
        for n in args.ns:
            items = nq.get_backend("bitmask").partition(nq.Problem(n)).size
            for workers in (1, 2):
                plain, checked = [], []
                for _ in range(args.repeat):
                    plain.append(seconds(n, workers, None))
                    checked.append(seconds(n, workers, ck))
                a, b = min(plain), min(checked)
                print(f"{n:>3} {items:>7} {workers:>7} {a:8.3f} {b:12.3f} {b / a:6.2f}", flush=True)


if __name__ == "__main__":
    main()
