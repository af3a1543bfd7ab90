"""Which ring is pinned and which image represents a class: placements and seconds.

    python benchmarks/bench_constellations.py 14 15 16

For each n, builds the sub-problems for every ring k (rows k and n-1-k, columns k and n-1-k)
with the default order of representatives, and for the innermost ring with the lexicographic
order too, and reports for each: the sub-problems, the placements the search makes in the rows
the compiled loop iterates (every row above the last two, which are counted branch-free, less
the four pinned ones), and the seconds of the compiled count of every sub-problem (best of
--repeat, alternating). The ideal is 1/8 of the placements of the full search with no symmetry,
also printed. Counts are checked against OEIS A000170.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from nqueens_cp import Problem
from nqueens_cp.backends.base import Deadline
from nqueens_cp.backends.bitmask.kernels.rings import count_ring, ring_masks
from nqueens_cp.backends.bitmask.partitions import constellations as cs
from nqueens_cp.backends.bitmask.partitions import count_items
from nqueens_cp.backends.bitmask.tables import innermost_ring
from nqueens_cp.backends.watch import NEVER

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104}


@njit  # not cached: numba's cache mishandles recursive functions
def _placements(masks, r, cols, d1, d2):
    n = masks.shape[0]
    if r == n - 2:
        return 0
    free = masks[r] & ~(cols | d1 | d2)
    single = free != 0 and (free & (free - 1)) == 0 and masks[r] == free  # a pinned row
    total = 0
    while free:
        bit = free & -free
        free ^= bit
        total += (0 if single else 1) + _placements(masks, r + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1)
    return total


def placements(cons: cs.Constellations) -> int:
    """Placements in the rows the compiled loop iterates, over the plain sub-problems."""
    total = 0
    masks = np.empty(cons.n, np.uint64)
    for i in np.flatnonzero(cons.fixed == 0).tolist():
        ring_masks(cons.n, cons.ring, *cons.items[i].tolist(), masks)
        total += _placements(masks.astype(np.int64), 0, 0, 0, 0)
    return total


def full_placements(n: int) -> int:
    return _placements(np.full(n, (1 << n) - 1, np.int64), 0, 0, 0, 0)


def seconds(cons: cs.Constellations) -> float:
    plain = np.flatnonzero(cons.fixed == 0)
    out = np.zeros(plain.size, np.int64)
    start = time.perf_counter()
    count_ring(cons.n, cons.ring, cons.items[plain], cons.weights[plain], out, NEVER)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ns", nargs="*", type=int, default=[14, 15])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    seconds(cs.constellations(Problem(8)))  # load the compiled kernel
    print(f"{'n':>3} {'ring':>5} {'order':>14} {'items':>7} {'placements':>14} {'/ ideal':>8} {'seconds':>8}")
    for n in args.ns:
        p = Problem(n)
        ideal = full_placements(n) / 8
        inner = innermost_ring(n)
        cons = {(k, "default"): cs.constellations(p, cs._key, k) for k in range(inner + 1)}
        cons[inner, "lexicographic"] = cs.constellations(p, cs._lexicographic, inner)
        for name, c in cons.items():
            q = count_items(cs.items(p, c), 1, Deadline("bench", None)).count
            assert q == A000170[n], (name, q)
        best = dict.fromkeys(cons, float("inf"))
        for _ in range(args.repeat):
            for name, c in cons.items():
                best[name] = min(best[name], seconds(c))
        for (k, order), c in cons.items():
            x = placements(c)
            print(f"{n:>3} {k:>5} {order:>14} {len(c):>7} {x:>14,} {x / ideal:8.2f} {best[k, order]:8.3f}")
        print(f"{n:>3} {'':>5} {'ideal (1/8)':>14} {'':>7} {ideal:>14,.0f}", flush=True)


if __name__ == "__main__":
    main()
