"""Does the order of the rows matter to the constellations' search? Nodes, not seconds.

    python benchmarks/bench_orders.py 14 15 16          # 300 classes sampled per n
    python benchmarks/bench_orders.py 17 --sample 100

The shipped search fills the rows of a class top-down, its diagonals carried by shifts, which
only a contiguous order allows. Any order is possible with diagonals kept by their index (r + c,
c - r) instead. For a seeded sample of the classes of plain queens (innermost ring, the default
representatives), this counts the placements of the same classes:
- `shipped`: rows 0, 1, ..., n-1;
- `fewest`: the rows sorted once per class by their free squares after pinning (pinned rows
  first), then by distance to the middle;
- `mrv d`: the row with the fewest free squares chosen afresh at each of the first d levels
  (the four pinned rows take the first four), the rest top-down;
- `mrv`: the row with the fewest free squares chosen afresh at every level.
Every order's counts are checked equal class by class. What a node costs in each order is not
measured here: choosing afresh scans every open row.
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.kernels.bits import popcount
from nqueens_cp.backends.bitmask.kernels.rings import ring_masks
from nqueens_cp.backends.bitmask.partitions.constellations import constellations

_ONE = np.uint64(1)


@njit(cache=True, inline="always")
def _free(masks, r, n, cols, d1, d2):
    """Row r's free squares; d1 holds the diagonals r + c, d2 the diagonals c - r + n - 1."""
    return masks[r] & ~(cols | (d1 >> np.uint64(r)) | (d2 >> np.uint64(n - 1 - r)))


@njit(cache=True)
def _search(masks, order, used, level, free_levels, n, cols, d1, d2, nodes):
    """Solutions from `level` on: rows chosen afresh (fewest free squares) while level <
    free_levels, then taken in `order` (the rows not used yet, in that order)."""
    if level == n:
        return 1
    r = -1
    if level < free_levels:
        fewest = 65
        for i in range(n):
            if not used[i]:
                k = popcount(_free(masks, i, n, cols, d1, d2))
                if k < fewest:
                    fewest, r = k, i
    else:
        for i in order:
            if not used[i]:
                r = i
                break
    a = _free(masks, r, n, cols, d1, d2)
    used[r] = True
    total = 0
    while a:
        bit = a & (~a + _ONE)
        a ^= bit
        nodes[0] += 1
        total += _search(
            masks, order, used, level + 1, free_levels, n, cols | bit, d1 | (bit << np.uint64(r)),
            d2 | (bit << np.uint64(n - 1 - r)), nodes,
        )
    used[r] = False
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int, nargs="*", default=[14, 15, 16])
    ap.add_argument("--sample", type=int, default=300)
    args = ap.parse_args()
    for n in args.n:
        cons = constellations(Problem(n))
        rng = np.random.default_rng(1)
        searched = np.flatnonzero(cons.fixed == 0)
        sample = rng.choice(searched, size=min(args.sample, searched.size), replace=False)
        ways = {"shipped": 0, "fewest": 0, **{f"mrv {d}": 0 for d in (6, 8, 10, 12)}, "mrv": 0}
        nodes = dict.fromkeys(ways, 0)
        masks = np.empty(n, np.uint64)
        middle = np.abs(2 * np.arange(n) - n + 1)
        for i in sample:
            ring_masks(n, cons.ring, *cons.items[i].tolist(), masks)
            free = np.array([int(m).bit_count() for m in masks])
            counts = set()
            for way in ways:
                order = np.arange(n) if way != "fewest" else np.lexsort((middle, free))
                levels = {"shipped": 0, "fewest": 0, "mrv": n}.get(way, int(way.split()[-1]) if " " in way else 0)
                spent = np.zeros(1, np.int64)
                counts.add(_search(masks, order, np.zeros(n, np.bool_), 0, levels, n, 0, 0, 0, spent))
                nodes[way] += int(spent[0])
            assert len(counts) == 1, (n, cons.items[i])
        base = nodes["shipped"]
        print(f"n = {n}, {sample.size} classes: " + ", ".join(f"{w} {nodes[w] / base:.2f}" for w in ways))


if __name__ == "__main__":
    main()
