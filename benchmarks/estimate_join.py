"""How long a count too long to try will take: the join over a sample of its column sets,
beside the same sample of a size whose whole count was measured.

    python benchmarks/estimate_join.py 22 23 --every 4000

For each size, every K-th column set (from the middle of the first K, so that the sample is
spread over the whole ordered list) is counted in this process on one core, warm, and the CPU
time is scaled up to all the sets. Each size after the first is printed as a ratio to the first:
a whole count's measured wall time (docs/benchmarks.md) times that ratio estimates the other
size's. The sample's sets are a small share of the work, so the ratio, not the core-seconds, is
the figure to use: two workers share caches, and the sets differ in cost.
"""

from __future__ import annotations

import argparse
import time

from nqueens_cp.backends.bitmask.kernels.join import band_tables, count_with
from nqueens_cp.backends.bitmask.partitions.join import column_sets
from nqueens_cp.backends.watch import NEVER


def sampled(n: int, every: int) -> tuple[int, float]:
    """(sets sampled, CPU seconds scaled up to all of n's column sets)."""
    sets, weights = column_sets(n)
    tables = band_tables(n)  # made once per worker in a count, so outside the clock
    part = slice(every // 2, None, every)
    picked, picked_weights = sets[part].copy(), weights[part].copy()
    start = time.process_time()
    count_with(n, picked, picked_weights, tables, NEVER)
    return picked.shape[0], (time.process_time() - start) * sets.shape[0] / picked.shape[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--every", type=int, default=4000, help="count every K-th column set")
    args = parser.parse_args()
    warm_sets, warm_weights = column_sets(12)
    count_with(12, warm_sets, warm_weights, band_tables(12), NEVER)  # kernels loaded before the clock
    first = None
    for n in args.sizes:
        picked, seconds = sampled(n, args.every)
        first = first or seconds
        ratio = f"{seconds / first:.2f}x n = {args.sizes[0]}"
        print(f"n = {n}: {picked} sets sampled, ~{seconds:,.0f} CPU seconds for all, {ratio}")


if __name__ == "__main__":
    main()
