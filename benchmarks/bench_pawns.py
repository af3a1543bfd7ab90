"""The N+k queens problem: n + k queens and k pawns on an n x n board, ours beside CP-SAT.

    python benchmarks/bench_pawns.py [--top 16] [--repeat 3] [--workers 2]

Times, in this process, `count N --pieces N+1 --pawns 1` (OEIS A103330) for each N up to --top
on our engine (its layouts search, on --workers processes), each count held to the OEIS term;
and, on the boards CP-SAT enumerates in seconds, CP-SAT's count of the squares formulation
beside ours (one worker each, best of --repeat), with their ratio measured in the same run.
"""

from __future__ import annotations

import argparse
import time

from bench_classes import best  # (benchmarks/ is the script's folder)

import nqueens_cp as nq

#: OEIS A103330, n = 1.. (n+1 queens and a pawn on n x n).
A103330 = [0, 0, 0, 0, 0, 16, 20, 128, 396, 2288, 11152, 65712, 437848, 3118664, 23387448, 183463680,
           1474699536, 12485203304]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for n in (6, 7, 8):
        p = nq.Problem(n, pieces=n + 1, pawns=1)
        ours = best(lambda p=p: nq.count(p, workers=1), args.repeat)
        theirs = best(lambda p=p: nq.count(p, "cpsat"), args.repeat)
        assert nq.count(p) == nq.count(p, "cpsat") == A103330[n - 1]
        print(f"n = {n}: ours {ours:.4f} s, CP-SAT {theirs:.4f} s, CP-SAT / ours {theirs / ours:.0f}x")
    for n in range(10, args.top + 1):
        start = time.perf_counter()
        got = nq.count(nq.Problem(n, pieces=n + 1, pawns=1), workers=args.workers)
        seconds = time.perf_counter() - start
        assert got == A103330[n - 1], (n, got)
        print(f"count {n} --pieces {n + 1} --pawns 1: {got:,} in {seconds:.2f} s on {args.workers} workers")


if __name__ == "__main__":
    main()
