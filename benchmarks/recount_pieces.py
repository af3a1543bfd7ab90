"""The k nonattacking queens on an n x n board counted a second way, every k from one search (a
row of OEIS A348129; its sum A287227(n)), where `nqueens count N --pieces 1..N` counts each k by
the engine's layouts search, a queen at a time in square order. The second method of
docs/oeis/b348129.txt, written here from the rules alone and sharing no code with the package.

    python benchmarks/recount_pieces.py N [N ...] [--threads T]

No two queens share a row, so a placement is a row search in which each row holds one queen or
none: a row's attacks are the three classic words (columns, and the two diagonals shifted a row
at a time), and the last row adds its free columns at once. The work items are the first queen's
square (the board's top rows empty above it); a square and its mirror image across the middle
column root trees of one shape, so the left half is searched and counted twice.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

ONE = np.uint64(1)


@njit(cache=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - ONE
        count += 1
    return count


@njit(cache=True, nogil=True)
def below(n, row, col, out):
    """Add to out[k] the placements of k queens whose first queen (in reading order) stands on
    (row, col): rows above it empty, each row below it holding one queen or none."""
    full = (ONE << np.uint64(n)) - ONE
    bit = ONE << np.uint64(col)
    if row == n - 1:
        out[1] += 1
        return
    cols = np.zeros(n + 1, np.uint64)
    left = np.zeros(n + 1, np.uint64)
    right = np.zeros(n + 1, np.uint64)
    free = np.zeros(n + 1, np.uint64)
    empty = np.zeros(n + 1, np.bool_)  # the row may still stay empty
    queens = np.zeros(n + 1, np.int64)
    d = row + 1
    cols[d], left[d], right[d], queens[d] = bit, (bit << ONE) & full, bit >> ONE, 1
    free[d] = full & ~(cols[d] | left[d] | right[d])
    empty[d] = True
    while d > row:
        if d == n - 1:  # the last row: empty, or a queen on any free column
            out[queens[d]] += 1
            out[queens[d] + 1] += _popcount(free[d])
            d -= 1
            continue
        if free[d]:
            low = free[d] & (~free[d] + ONE)
            free[d] ^= low
            c, lt, rt, q = cols[d] | low, ((left[d] | low) << ONE) & full, (right[d] | low) >> ONE, queens[d] + 1
        elif empty[d]:
            empty[d] = False
            c, lt, rt, q = cols[d], (left[d] << ONE) & full, right[d] >> ONE, queens[d]
        else:
            d -= 1
            continue
        d += 1
        cols[d], left[d], right[d], queens[d] = c, lt, rt, q
        free[d] = full & ~(c | lt | rt)
        empty[d] = True


def row_of(n: int, threads: int) -> list[int]:
    """T(n, k) for k = 0..n: the empty board, then each first square's placements (the left
    half's twice, the middle column's once)."""
    items = [(r, c, 1 if 2 * c == n - 1 else 2) for r in range(n) for c in range((n + 1) // 2)]

    def run(item: tuple[int, int, int]) -> np.ndarray:
        r, c, weight = item
        out = np.zeros(n + 2, np.int64)
        below(n, r, c, out)
        return weight * out

    total = np.zeros(n + 2, np.int64)
    total[0] = 1
    with ThreadPoolExecutor(threads) as pool:
        for out in pool.map(run, items):
            total += out
    return [int(v) for v in total[: n + 1]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="+")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    for n in args.n:
        if not 1 <= n <= 63:
            parser.error(f"n = {n}: the board is 1 to 63 columns (a row is one 64-bit word)")
        start = time.perf_counter()
        row = row_of(n, args.threads)
        seconds = time.perf_counter() - start
        print(f"row {n}: {', '.join(map(str, row))}; sum {sum(row)}; {seconds:.1f} s", flush=True)


if __name__ == "__main__":
    main()
