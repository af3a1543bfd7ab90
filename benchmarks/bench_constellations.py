"""Which image represents a class of constellations: placements and seconds, per order.

    python benchmarks/bench_constellations.py 14 15 16

For each n, builds the constellation groups twice, with each class represented by its
lexicographically smallest image (the first order shipped) and by the default order (border-
column queens lowest), and reports for each: the groups, the placements the search makes in rows
1..n-3 (the rows the compiled loop iterates; the last two are counted branch-free), and the
seconds of the compiled count of every group (best of --repeat, the two orders alternating).
The ideal is 1/8 of the placements of the full search with no symmetry, also printed. Counts are
checked against OEIS A000170.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from nqueens_cp import Problem
from nqueens_cp.backends.base import Deadline
from nqueens_cp.backends.bitmask import constellations as cs
from nqueens_cp.backends.bitmask.rowkernels import count_constellations, group_masks
from nqueens_cp.backends.watch import NEVER

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104}


@njit  # not cached: numba's cache mishandles recursive functions
def _placements(masks, r, cols, d1, d2):
    n = masks.shape[0]
    if r == n - 2:
        return 0
    free = masks[r] & ~(cols | d1 | d2)
    total = 0
    while free:
        bit = free & -free
        free ^= bit
        total += 1 + _placements(masks, r + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1)
    return total


def placements(cons: cs.Constellations) -> int:
    """Placements in rows 1..n-3 over the plain groups, with the kernel's row masks."""
    total = 0
    masks = np.empty(cons.n, np.uint64)
    for i in np.flatnonzero(cons.fixed == 0).tolist():
        a, _, c, d, e = (int(v) for v in cons.items[i])
        group_masks(cons.n, a, c, d, cons.weights[i], masks)
        if e >= 0:
            masks[1] &= np.uint64(1 << e)
        total += _placements(masks.astype(np.int64), 1, 1 << a, 2 << a, (1 << a) >> 1)
    return total


def full_placements(n: int) -> int:
    return _placements(np.full(n, (1 << n) - 1, np.int64), 0, 0, 0, 0)


def seconds(cons: cs.Constellations) -> float:
    plain = np.flatnonzero(cons.fixed == 0)
    items = np.ascontiguousarray(cons.items[plain][:, [0, 2, 3, 4]])
    weights = np.ascontiguousarray(cons.weights[plain])
    out = np.zeros(plain.size, np.int64)
    start = time.perf_counter()
    count_constellations(cons.n, items, weights, out, NEVER)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ns", nargs="*", type=int, default=[14, 15])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    orders = {"lexicographic": cs._lexicographic, "default": cs._key}
    seconds(cs.constellations(Problem(8)))  # load the compiled kernel
    print(f"{'n':>3} {'order':>14} {'groups':>7} {'placements':>14} {'/ ideal':>8} {'seconds':>8}")
    for n in args.ns:
        p = Problem(n)
        ideal = full_placements(n) / 8
        cons = {name: cs.constellations(p, key) for name, key in orders.items()}
        for name, c in cons.items():
            q, _, _ = cs.classes_in_process(p, c, Deadline("bench", None))
            assert q == A000170[n], (name, q)
        best = dict.fromkeys(orders, float("inf"))
        for _ in range(args.repeat):
            for name, c in cons.items():
                best[name] = min(best[name], seconds(c))
        for name, c in cons.items():
            k = placements(c)
            print(f"{n:>3} {name:>14} {len(c):>7} {k:>14,} {k / ideal:8.2f} {best[name]:8.3f}")
        print(f"{n:>3} {'ideal (1/8)':>14} {'':>7} {ideal:>14,.0f}", flush=True)


if __name__ == "__main__":
    main()
