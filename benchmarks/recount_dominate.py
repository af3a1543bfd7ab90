"""The minimum dominating sets of queens counted a second way: the cover search over its whole
tree, no symmetry, each set once (where `nqueens dominate N --count` weighs the sets found below
a root cut by the board's symmetries). The second method of docs/oeis/b002568.txt.

    python benchmarks/recount_dominate.py N VALUE [--independent]

VALUE is the optimum the first method proved (the search counts the sets of that many queens).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import nqueens_cp as nq
from nqueens_cp.backends.bitmask.kernels.cover import search
from nqueens_cp.backends.bitmask.optimise import search_tables
from nqueens_cp.backends.bitmask.partitions.cover import WHOLE
from nqueens_cp.backends.watch import tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("value", type=int)
    parser.add_argument("--independent", action="store_true")
    args = parser.parse_args()
    tables = search_tables(nq.Problem(args.n), args.independent)
    assert tables is not None
    cover, by, attack, need, allow, spill, most = tables
    start = time.perf_counter()
    none = np.zeros((0, args.value), np.int64)
    kernel = (cover, by, attack, need, allow, args.value, args.independent, spill, most, False, tally(), none)
    sets = search(args.n, *kernel, *WHOLE)
    print(f"n = {args.n}: {sets} sets of {args.value} queens, {time.perf_counter() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
