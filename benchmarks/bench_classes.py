"""Symmetry classes against the count they come from, for pieces whose reflections can fix a
solution (no diagonal rider: the region puzzle's RF, rooks, leapers with the rook's moves).

    python benchmarks/bench_classes.py [--repeat 3] [CASES ...]   (a case: PIECE:N, say RF:12)

Each case is timed in this process, warm (its kernels loaded by a first run): the best of
--repeat runs of `count N --piece PIECE` and of `count N --piece PIECE --unique`, and their ratio,
measured in one run. The classes are the count and the solutions each subgroup of the square's
symmetries fixes (Burnside's lemma): the ratio says what the fixed-point searches add.
"""

from __future__ import annotations

import argparse
import time

import nqueens_cp as nq

CASES = ("RF:11", "RF:12", "RF:13", "RC:12", "R:11", "RN:12")


def best(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=CASES)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'case':>8} {'count s':>9} {'classes s':>10} {'ratio':>7}  classes")
    for case in args.cases:
        piece, n = case.split(":")
        p = nq.Problem(int(n), piece)
        nq.count_classes(p)  # (kernels loaded, compiled where they were not)
        counted = best(lambda p=p: nq.count(p), args.repeat)
        classes = best(lambda p=p: nq.count_classes(p), args.repeat)
        unique = nq.count_classes(p).unique
        print(f"{case:>8} {counted:9.3f} {classes:10.3f} {classes / counted:6.2f}x  {unique:,}")


if __name__ == "__main__":
    main()
