"""Counting by joining half-boards (issue 36): the engine's join (backends/bitmask/kernels/join/),
timed against the constellation counter in one run, as ratios.

    python benchmarks/bench_join.py            # n = 12..16
    python benchmarks/bench_join.py 16 17 18 --sample 10

Both run in this process on one core, warm (kernels compiled before the clock starts), the join
over its column sets (kernels/join/symmetry.py: count_with) and the constellation counter item after item through
its own partition (the planner takes the join from n = 16, so nq.count would time the join
twice). The method is described in kernels/join/__init__.py. Each count is checked against OEIS A000170 and
against the constellation counter's. `--sample K` times every K-th column set (for large n)
and scales the time up by K; the constellation counter then runs whole.
"""

from __future__ import annotations

import argparse
import time

from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.kernels.join import band_tables, count_with
from nqueens_cp.backends.bitmask.partitions import constellations
from nqueens_cp.backends.bitmask.partitions.join import column_sets
from nqueens_cp.backends.watch import NEVER

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104, 18: 666090624}


def join_count(n: int, sample: int = 1) -> tuple[int, float]:
    """(count, seconds) of the join over every `sample`-th column set (time scaled up by
    `sample`, but for the bands listed once; the count is whole only for sample = 1)."""
    sets, weights = column_sets(n)
    start = time.perf_counter()
    tables = band_tables(n)
    listed = time.perf_counter() - start
    start = time.perf_counter()
    total = count_with(n, sets[::sample].copy(), weights[::sample].copy(), tables, NEVER)
    return total, listed + (time.perf_counter() - start) * sample


def constellation_count(n: int) -> int:
    """The constellation counter's count in this process (the planner takes the join for even
    n from 18, so the reference is called by its partition, item after item)."""
    problem = Problem(n)
    part = constellations.items(problem).partition()
    return sum(part.func(part.context, i) for i in range(part.size))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[12, 13, 14, 15, 16])
    parser.add_argument("--sample", type=int, default=1, help="time every K-th column set (large n)")
    args = parser.parse_args()
    join_count(8)  # compile
    constellation_count(12)  # load the constellations' kernels
    print("n      join s  constellations s  join / constellations")
    for n in args.sizes:
        count, took = join_count(n, args.sample)
        if args.sample == 1:
            assert count == A000170.get(n, count), (n, count)
        start = time.perf_counter()
        reference = constellation_count(n)
        cons = time.perf_counter() - start
        if args.sample == 1:
            assert count == reference, (n, count, reference)
        print(f"{n:<4} {took:9.2f}  {cons:16.2f}  {took / cons:10.2f}")


if __name__ == "__main__":
    main()
