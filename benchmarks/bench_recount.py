"""Certify constellation counts: recount a seeded sample of sub-problems with the mirror-only
kernel (the reference) and compare, item by item.

    python benchmarks/bench_recount.py 16 --sample 40 --seed 1

Each sampled constellation (a, b, c, d) of ring k is recounted as a board with pre-placed
queens: (k, a), (n-1-k, b), (c, k) and (d, n-1-k), counted by the row split's compiled kernel
(which knows nothing of rings), then weighted by its class size. Prints each item's two counts,
and the constellation path's total against OEIS A000170.
"""

from __future__ import annotations

import argparse
import random
import time

from nqueens_cp import InvalidProblem, Problem
from nqueens_cp.backends.base import Deadline
from nqueens_cp.backends.bitmask.partitions import constellations as cs
from nqueens_cp.backends.bitmask.partitions import count_items, item_count
from nqueens_cp.backends.bitmask.partitions.rows import count_one, split
from nqueens_cp.backends.bitmask.tables import masks_array

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104}


def mirror_count(n: int, ring: int, a: int, b: int, c: int, d: int) -> int:
    """Completions of constellation (a, b, c, d) of ring `ring`, by the mirror-only kernel on a
    board that says the same thing with pre-placed queens (one queen per line does the rest)."""
    lo, hi = ring, n - 1 - ring
    try:
        p = Problem(n, fixed=sorted({(lo, a), (hi, b), (c, lo), (d, hi)}))
    except InvalidProblem:
        return 0  # the fixed queens attack each other
    masks = masks_array(p)
    return sum(count_one(masks, True, sub) for sub in split(p, 2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, nargs="?", default=16)
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n = args.n
    p = Problem(n)
    cons = cs.constellations(p)
    start = time.perf_counter()
    q = count_items(cs.items(p, cons), 1, Deadline("bench", None)).count
    print(
        f"n = {n}: {len(cons)} sub-problems, total {q} in {time.perf_counter() - start:.2f} s "
        f"({'=' if q == A000170.get(n, q) else '!='} A000170)"
    )
    plain = [i for i in range(len(cons)) if cons.fixed[i] == 0]
    wrong = 0
    for i in sorted(random.Random(args.seed).sample(plain, min(args.sample, len(plain)))):
        a, b, c, d = (int(v) for v in cons.items[i])
        mine = item_count((cs.run, (p, cons)), i)
        theirs = int(cons.weights[i]) * mirror_count(n, cons.ring, a, b, c, d)
        wrong += mine != theirs
        same = "==" if mine == theirs else "!="
        print(f"item {i:>6} (ring {cons.ring}: a={a}, b={b}, c={c}, d={d}): {mine} {same} {theirs}")
    print(f"{args.sample} sampled items: {wrong} disagree")
    raise SystemExit(1 if wrong or q != A000170.get(n, q) else 0)


if __name__ == "__main__":
    main()
