"""Queen domination: gamma(Q_n) proved, ours beside CP-SAT, and the minimum sets counted.

    python benchmarks/bench_dominate.py [--n 8..12] [--cpsat-limit 120] [--count-to 12] [--independent-to 0]

For each n: our engine's proof of the fewest queens that cover the n x n board (OEIS A075458),
then CP-SAT's (its portfolio on every core, the same model as data: a Boolean a square, each
square covered by itself or a square that attacks it), within --cpsat-limit seconds; the ratio
is measured in the same run. Then the minimum sets (A002564) counted by our engine up to
--count-to, and the minimum independent dominating sets (A002568) with their classes (A002567)
up to --independent-to. Each figure is held to the OEIS term.
"""

from __future__ import annotations

import argparse
import time

import nqueens_cp as nq
from nqueens_cp.backends import get_backend

A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13]
A002564 = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8, 288, 4632, 205832, 2968, 124, 16, 84]
A002568 = [1, 4, 1, 16, 16, 120, 8, 728, 92, 8, 2, 840, 24, 436, 10188]
A002567 = [1, 1, 1, 2, 2, 17, 1, 91, 16, 1, 1, 105, 4, 55, 1314, 16, 2, 28]


def timed(name: str, n: int, limit: float | None = None, count: bool = False, **how: bool) -> tuple[float, nq.Outcome]:
    b = get_backend(name, time_limit=limit) if limit else get_backend(name)
    start = time.perf_counter()
    outcome = b.optimum(nq.Problem(n), "dominate", count=count, **how)
    return time.perf_counter() - start, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="8..12")
    parser.add_argument("--cpsat-limit", type=float, default=120.0)
    parser.add_argument("--count-to", type=int, default=12)
    parser.add_argument("--independent-to", type=int, default=0)
    args = parser.parse_args()
    low, _, high = args.n.partition("..")
    timed("bitmask", 4)  # (the kernels loaded)
    for n in range(int(low), int(high or low) + 1):
        ours, got = timed("bitmask", n)
        assert got.value == got.bound == A075458[n - 1], (n, got)
        theirs, their = timed("cpsat", n, args.cpsat_limit)
        proved = their.value == their.bound
        said = f"{theirs:.2f} s, {theirs / ours:.0f}x" if proved else f"no proof in {theirs:.0f} s ({their.bound})"
        print(f"gamma(Q_{n}) = {got.value}: ours {ours:.3f} s; CP-SAT {said}", flush=True)
    for n in range(1, args.count_to + 1):
        seconds, got = timed("bitmask", n, count=True)
        assert got.count == A002564[n - 1], (n, got.count)
        print(f"A002564({n}) = {got.count:,}: {seconds:.2f} s", flush=True)
    for n in range(1, args.independent_to + 1):
        seconds, got = timed("bitmask", n, independent=True, unique=True)
        assert (got.count, got.classes) == (A002568[n - 1], A002567[n - 1]), (n, got.count, got.classes)
        print(f"A002568({n}) = {got.count:,} in A002567({n}) = {got.classes:,} classes: {seconds:.2f} s", flush=True)


if __name__ == "__main__":
    main()
