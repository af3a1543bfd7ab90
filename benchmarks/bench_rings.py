"""One pinned ring or two: what a deeper sub-problem costs, as ratios measured in one run.

    python benchmarks/bench_rings.py 14 15 16

Issue 26 asked for deeper sub-problems (two rings pinned, as Q27 pins the two outer ones). For
each n this counts every class of the shipped constellations (the innermost ring) three ways,
alternating, best of --repeat, all with the same compiled count loop (`_count_from` via
`count_queens`, on row masks that hold every pinned queen and what it attacks):

- one ring: the shipped `count_ring`;
- two inner rings: each class split by the queens of the next ring out (rows and columns k-1
  and n-k), one search per split;
- two outer rings (Q27's coronal sub-problems): classes of ring 1 split by ring 0.

Splitting a class by the queens of more lines never shrinks the tree it searches in total: a
partial placement above the new pinned rows is searched once for every way to fill them that
it leaves open, and is pruned earlier only when it leaves none. The counts are checked against
OEIS A000170 (the shipped count) and each split against one search per class; the nodes are
the search's placements (pinned rows included).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.kernels.queens import count_queens
from nqueens_cp.backends.bitmask.kernels.rings import count_ring, ring_masks
from nqueens_cp.backends.bitmask.partitions import constellations as cs
from nqueens_cp.backends.bitmask.tables import innermost_ring

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104}
ONE = np.uint64(1)


@njit(cache=True)
def _take(masks, r, c):
    """Pin a queen on (r, c): its column and diagonals leave every other row."""
    n = masks.shape[0]
    for q in range(n):
        g = abs(q - r)
        gone = ONE << np.uint64(c)
        if c - g >= 0:
            gone |= ONE << np.uint64(c - g)
        if c + g < n:
            gone |= ONE << np.uint64(c + g)
        masks[q] &= ~gone
    masks[r] = ONE << np.uint64(c)


@njit(cache=True)
def _column(masks, pinned, col, stop, weight, depth, out):
    """Pin the queen of column `col` (one of depth 2..3), or find it pinned; recurse."""
    n = masks.shape[0]
    for r in range(n):
        if pinned[r] and masks[r] == ONE << np.uint64(col):
            return _next(masks, pinned, stop, weight, depth, out)
    total = 0
    for r in range(n):
        if pinned[r] or not (masks[r] >> np.uint64(col)) & ONE:
            continue
        m = masks.copy()
        _take(m, r, col)
        pinned[r] = True
        total += _next(m, pinned, stop, weight, depth, out)
        pinned[r] = False
    return total


@njit(cache=True)
def _next(masks, pinned, stop, weight, depth, out):
    """Depth 0, 1: the two rows of the new ring; 2, 3: its two columns; 4: the search."""
    n = masks.shape[0]
    lo, hi = out[1], n - 1 - out[1]
    if depth == 4:
        out[0] += 1
        return weight * count_queens(masks, 0, np.uint64(0), np.uint64(0), np.uint64(0), stop)
    if depth >= 2:
        return _column(masks, pinned, lo if depth == 2 else hi, stop, weight, depth + 1, out)
    row = lo if depth == 0 else hi
    if pinned[row]:
        return _next(masks, pinned, stop, weight, depth + 1, out)
    total = 0
    for c in range(n):
        if (masks[row] >> np.uint64(c)) & ONE:
            m = masks.copy()
            _take(m, row, c)
            pinned[row] = True
            total += _next(m, pinned, stop, weight, depth + 1, out)
            pinned[row] = False
    return total


@njit(cache=True)
def count_two_rings(n, k, k2, items, weights, stop, out):
    """The classes of ring k split by the queens of ring k2; out[0] counts the searches."""
    masks = np.empty(n, np.uint64)
    total = 0
    out[1] = k2
    for i in range(items.shape[0]):
        a, b, c, d = items[i, 0], items[i, 1], items[i, 2], items[i, 3]
        ring_masks(n, k, a, b, c, d, masks)
        pinned = np.zeros(n, np.bool_)
        pinned[k] = pinned[n - 1 - k] = pinned[c] = pinned[d] = True
        total += _next(masks, pinned, stop, weights[i], 0, out)
    return total


def run(n: int, way: str) -> tuple[int, int, int, float]:
    """(count, searches, nodes, seconds) of the plain classes, `way` one of the three."""
    p = Problem(n)
    inner = innermost_ring(n)
    cons = cs.constellations(p, ring=1 if way == "two outer" else inner)
    plain = np.flatnonzero(cons.fixed == 0)
    items, weights = cons.items[plain], cons.weights[plain]
    stop = np.zeros(2, np.int64)
    start = time.perf_counter()
    if way == "one ring":
        out = np.zeros(plain.size, np.int64)
        count_ring(n, cons.ring, items, weights, out, stop)
        count, searches = int(out.sum()), plain.size
    else:
        info = np.zeros(2, np.int64)
        count = int(count_two_rings(n, cons.ring, cons.ring - 1, items, weights, stop, info))
        searches = int(info[0])
    seconds = time.perf_counter() - start
    if way != "one ring":  # the same classes, one search each
        out = np.zeros(plain.size, np.int64)
        count_ring(n, cons.ring, items, weights, out, np.zeros(2, np.int64))
        assert count == int(out.sum()), (way, count, int(out.sum()))
    return count, searches, int(stop[1]), seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ns", nargs="*", type=int, default=[14, 15])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    ways = ("one ring", "two inner", "two outer")
    for way in ways:
        run(12, way)  # compiled before the clock starts
    print(f"{'n':>3} {'sub-problems':>14} {'':>10} {'searches':>10} {'nodes':>14} {'seconds':>8} {'/ one ring':>11}")
    for n in args.ns:
        assert nq.count(n) == A000170[n]  # the shipped count, classes with rotation-fixed flags included
        best: dict[str, tuple[int, int, int, float]] = {}
        for _ in range(args.repeat):
            for way in ways:
                got = run(n, way)
                if way not in best or got[3] < best[way][3]:
                    best[way] = got
        base = best["one ring"]
        for way in ways:
            _, searches, nodes, seconds = best[way]
            ratio = f"{seconds / base[3]:.2f}x, nodes {nodes / base[2]:.2f}x"
            print(f"{n:>3} {way:>14} {'':>10} {searches:>10,} {nodes:>14,} {seconds:>8.3f} {ratio:>11}")


if __name__ == "__main__":
    main()
