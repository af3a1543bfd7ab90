"""Counting by joining half-boards (issue 36): the engine's join (backends/bitmask/join.py),
timed against the constellation counter in one run, as ratios, with where its time goes.

    python benchmarks/bench_join.py            # n = 12..16
    python benchmarks/bench_join.py 16 18 --sample 10

The method (the planner takes it for queens on even boards from n = 18):
- Split the board into the top h = n // 2 rows and the bottom n - h rows. A solution puts its
  top queens on some set C of h columns and its bottom queens on the other n - h.
- For each C, list the top half's partial solutions (h queens on the top rows, on the columns
  of C, no two attacking) and the bottom half's (on the other columns). A top and a bottom
  partial make a solution exactly when no diagonal holds a queen of each. Only diagonals that
  cross both halves matter: n - 1 of each direction, so each partial is a 2n - 2 bit signature
  (one word up to n = 33) and a pair matches when the AND of the two words is zero.
- The count is the sum over C of the matching pairs. Pairs are counted 64 at a time: the
  larger list is stored bit-transposed (for each signature bit, a word per group of 64
  partials that lack it), and each partial of the smaller list ANDs the rows of its own bits.
  A few "cut" bits, those most often set on both sides, index buckets of the larger list, and
  a partial visits only the buckets whose cut bits it does not share (a sieve).
- Symmetry: the left-right mirror maps C to its mirror image, and for even n the top-bottom
  mirror maps C to its complement, so one C in each class of up to 4 is counted and weighted.

Each count is checked against OEIS A000170 and against the constellation counter's.
`--sample K` times every K-th column set (for large n) and scales the time up by K.
"""

from __future__ import annotations

import argparse
import time

from nqueens_cp import Problem
from nqueens_cp.backends.bitmask import constellations, join
from nqueens_cp.backends.watch import NEVER

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104, 18: 666090624}


def join_count(n: int, sample: int = 1) -> tuple[int, float]:
    """(count, seconds) of the join over every `sample`-th column set (time scaled up by
    `sample`; the count is whole only for sample = 1)."""
    sets, weights = join.column_sets(n)
    start = time.perf_counter()
    total = join.count_sets(n, sets[::sample].copy(), weights[::sample].copy(), NEVER)
    return total, (time.perf_counter() - start) * sample


def constellation_count(n: int) -> int:
    """The constellation counter's count in this process (the planner takes the join for even
    n from 18, so the reference is called by its partition, item after item)."""
    problem = Problem(n)
    part = constellations.partition(problem, constellations.constellations(problem))
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
