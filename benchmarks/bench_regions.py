"""Region puzzles: making sets with exactly one solution, and solving one, ours beside CP-SAT.

    python benchmarks/bench_regions.py [--repeat 3]

Times, in this process: 20 puzzles of 9x9 and 100 of 12x12 made (`region_set`, seed 1: each
map checked for a second solution by our engine's region search), then one 12x12 puzzle solved
and proved unique (its solutions counted) by our engine and by CP-SAT's squares model, best of
--repeat, with their ratio measured in the same run.
"""

from __future__ import annotations

import argparse
import time

from bench_classes import best  # (benchmarks/ is the script's folder)

import nqueens_cp as nq
from nqueens_cp.bench.generate import region_set


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for n, count in ((9, 20), (12, 100)):
        start = time.perf_counter()
        puzzles = region_set(n, count, seed=1)
        grades = {g: sum(p.grade == g for p in puzzles) for g in ("easy", "medium", "hard")}
        print(f"{count} puzzles of {n}x{n}: {time.perf_counter() - start:.2f} s ({grades})")
    p = region_set(12, 1, seed=7)[0].problem
    assert nq.count(p) == nq.count(p, "cpsat") == 1
    ours = best(lambda: nq.count(p), args.repeat)
    theirs = best(lambda: nq.count(p, "cpsat"), args.repeat)
    print(f"a 12x12 puzzle solved and proved unique: ours {ours:.4f} s, CP-SAT {theirs:.4f} s, {ours / theirs:.3f}x")


if __name__ == "__main__":
    main()
