"""How long a count too long to try will take: the join over a sample of its column sets,
beside the same sample of a size whose whole count was measured.

    python benchmarks/estimate_join.py 22 23 --every 4000

For each size, every K-th column set (from the middle of the first K, so that the sample is
spread over the whole ordered list) is counted in this process on one core, warm, and the CPU
time is scaled up to all the sets. Each size after the first is printed as a ratio to the first:
a whole count's measured wall time (docs/benchmarks.md) times that ratio estimates the other
size's. The sample's sets are a small share of the work, so the ratio, not the core-seconds, is
the figure to use: two workers share caches, and the sets differ in cost.

    python benchmarks/estimate_join.py 23 --every 400 --from-item 23841

With --from-item I, each sampled set is timed alone, and the share of the sample's CPU time in
the work items from I on is printed besides: the share of a count's work that a run resumed
from a checkpoint holding items 0 to I - 1 had left (PER_ITEM sets an item), which turns that
run's wall time into the whole count's.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from nqueens_cp.backends.bitmask.kernels.join import band_tables, count_with
from nqueens_cp.backends.bitmask.partitions.join import PER_ITEM, column_sets
from nqueens_cp.backends.watch import NEVER


def sampled(n: int, every: int, sets: np.ndarray, weights: np.ndarray, tables: tuple) -> tuple[int, float]:
    """(sets sampled, CPU seconds scaled up to all of n's column sets)."""
    part = slice(every // 2, None, every)
    picked, picked_weights = sets[part].copy(), weights[part].copy()
    start = time.process_time()
    count_with(n, picked, picked_weights, tables, NEVER)
    return picked.shape[0], (time.process_time() - start) * sets.shape[0] / picked.shape[0]


def share_from(n: int, every: int, item: int, sets: np.ndarray, weights: np.ndarray, tables: tuple) -> float:
    """The share of the sample's CPU time in the column sets of work items `item` on."""
    seconds = {False: 0.0, True: 0.0}
    for s in range(every // 2, sets.shape[0], every):
        start = time.process_time()
        count_with(n, sets[s : s + 1].copy(), weights[s : s + 1].copy(), tables, NEVER)
        seconds[s >= item * PER_ITEM] += time.process_time() - start
    return seconds[True] / (seconds[False] + seconds[True])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--every", type=int, default=4000, help="count every K-th column set")
    parser.add_argument("--from-item", type=int, help="also the share of the work in items from I on")
    args = parser.parse_args()
    warm_sets, warm_weights = column_sets(12)
    count_with(12, warm_sets, warm_weights, band_tables(12), NEVER)  # kernels loaded before the clock
    first = None
    for n in args.sizes:
        sets, weights = column_sets(n)
        tables = band_tables(n)  # made once per worker in a count, so outside the clock
        picked, seconds = sampled(n, args.every, sets, weights, tables)
        first = first or seconds
        ratio = f"{seconds / first:.2f}x n = {args.sizes[0]}"
        print(f"n = {n}: {picked} sets sampled, ~{seconds:,.0f} CPU seconds for all, {ratio}")
        if args.from_item is not None:
            share = share_from(n, args.every, args.from_item, sets, weights, tables)
            print(f"n = {n}: {share:.1%} of the sampled work is in items from {args.from_item} on")


if __name__ == "__main__":
    main()
