"""The join on boards of fewer rows than columns (kernels/join/rectangles.py) against the
constellation counter, the planner's other count of plain queens on an m x n board, in one run,
as ratios; and the longest list a worker of the join holds, for the planner's memory table.

    python benchmarks/bench_rectangles.py 18:16 18:17          # whole counts, checked equal
    python benchmarks/bench_rectangles.py 20:16 20:19 --every 50
    python benchmarks/bench_rectangles.py 21:19 21:20 --longest
    python benchmarks/bench_rectangles.py 21:20 --every 1000 --join-only

Each board is given as N:M (n columns, m rows). Both counts run in this process on one core,
warm, each through its own work items (the planner would take the join for both where it
serves). With `--every K` each counts every K-th of its work items, from the middle of the
first K, and its CPU time is scaled up by K: an estimate of the whole (the items differ in
cost), for sizes too long to count twice; `--join-only` leaves constellations out, where even their
sample would take an hour. With `--longest`, a seeded sample of 300 top column
sets gives the most placements of the bottom rows one of them leaves (partitions.join.RECTANGLES).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from numba.typed import List

from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.kernels.join.rectangles import bottom_placements
from nqueens_cp.backends.bitmask.kernels.join.space import new_space
from nqueens_cp.backends.bitmask.partitions import constellations, join
from nqueens_cp.backends.bitmask.partitions.base import Items
from nqueens_cp.backends.watch import NEVER


def timed(items: Items, every: int) -> tuple[int, float]:
    """(the count of every `every`-th item, its CPU seconds times `every`)."""
    picked = np.arange(every // 2 if every > 1 else 0, items.size, every)
    start = time.process_time()
    counts = items.run(items.context, picked, NEVER, None)
    return counts.count, (time.process_time() - start) * every


def bottoms(m: int, n: int, c: int) -> int:
    """The placements of the bottom rows of an m x n board on the columns the top set c leaves."""
    return int(bottom_placements(m, n, c, _SPACE)[0])


#: The kernels' reusable arrays (a typed list, as the kernels make it: a Python list is reflected).
_SPACE = List(new_space())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="+", help="N:M, n columns and m < n rows")
    parser.add_argument("--every", type=int, default=1, help="count every K-th item of each, and scale up")
    parser.add_argument("--longest", action="store_true", help="the longest list over 300 seeded column sets")
    parser.add_argument("--join-only", action="store_true", help="time the join alone")
    args = parser.parse_args()
    boards = [tuple(int(x) for x in board.split(":")) for board in args.boards]
    if args.longest:
        for n, m in boards:
            sets = join.rectangle_sets(m, n)
            sample = random.Random(n * 100 + m).sample(sets.tolist(), min(300, sets.shape[0]))
            print(f"{n}:{m}  longest bottom list {max(bottoms(m, n, c) for c in sample):,}")
        return
    for items in (join.items(Problem(10, rows=8)), constellations.items(Problem(12, rows=10))):
        timed(items, 1)  # kernels loaded before the clock
    print("board   join s   constellations s   join / constellations")
    for n, m in boards:
        problem = Problem(n, rows=m)
        count, took = timed(join.items(problem), args.every)
        if args.join_only:
            print(f"{n}:{m:<4} {took:8.1f}", flush=True)
            continue
        reference, cons = timed(constellations.items(problem), args.every)
        if args.every == 1:
            assert count == reference, (n, m, count, reference)
        print(f"{n}:{m:<4} {took:8.1f}   {cons:16.1f}   {took / cons:10.2f}", flush=True)


if __name__ == "__main__":
    main()
