"""Hard blocked boards: bitmask against CP-SAT on generated CSPLib prob080 sets.

    python benchmarks/bench_blocked.py                       # 4 sizes x min-free 1..4 x 2 seeds
    python benchmarks/bench_blocked.py --seeds 4 --cpsat-workers 8

Sets as in the competition: n = 28 (595 blocks), 48 (1962), 50 (2142), 56 (2734), min-free 1..4.
Each instance is decided (`first`) by both backends with a time limit; a found solution is
validated, and each answer is cross-checked against the other backend's (a time limit is
"unknown", never "no solution"). Prints per-instance times, totals and the slowest instances.
"""

from __future__ import annotations

import argparse
import time

import nqueens_cp as nq
from nqueens_cp.backends import Status
from nqueens_cp.bench.generate import blocked_instance

SETS = [(28, 595), (48, 1962), (50, 2142), (56, 2734)]


def decide(backend, p) -> tuple[Status, float]:
    start = time.perf_counter()
    outcome = backend.first(p)
    seconds = time.perf_counter() - start
    if outcome.solution is not None:
        assert p.is_solution(outcome.solution), "invalid solution"
    return outcome.status, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--cpsat-workers", type=int, default=None, help="default: all cores")
    args = ap.parse_args()
    bitmask = nq.get_backend("bitmask", time_limit=args.time_limit)
    opts = {"time_limit": args.time_limit}
    if args.cpsat_workers:
        opts["workers"] = args.cpsat_workers
    cpsat = nq.get_backend("cpsat", **opts)
    bitmask.first(nq.Problem(8, blocked=[(0, 0)]))  # JIT cache
    rows = []
    print(f"{'instance':<18} {'answer':<12} {'bitmask s':>10} {'cpsat s':>9}")
    for n, blocks in SETS:
        for min_free in (1, 2, 3, 4):
            for seed in range(args.seeds):
                p = blocked_instance(n, blocks, min_free, seed)
                a, ta = decide(bitmask, p)
                b, tb = decide(cpsat, p)
                known = {s for s in (a, b) if s is not Status.UNKNOWN}
                assert len(known) <= 1, f"backends disagree on n={n} min-free={min_free} seed={seed}: {a} vs {b}"
                answer = known.pop().value if known else "unknown"
                name = f"{n}-{blocks}-{min_free}-s{seed}"
                rows.append((name, answer, ta, tb, a, b))
                mark = "" if a is not Status.UNKNOWN else " (bitmask: time limit)"
                print(f"{name:<18} {answer:<12} {ta:10.3f} {tb:9.3f}{mark}", flush=True)
    total_a = sum(r[2] for r in rows)
    total_b = sum(r[3] for r in rows)
    print(
        f"\n{len(rows)} instances; bitmask total {total_a:.2f}s, CP-SAT total {total_b:.2f}s, "
        f"ratio {total_a / total_b:.3f}"
    )
    print(
        f"bitmask: max {max(r[2] for r in rows):.2f}s; unknown {sum(r[4] is Status.UNKNOWN for r in rows)}; "
        f"CP-SAT: max {max(r[3] for r in rows):.2f}s; unknown {sum(r[5] is Status.UNKNOWN for r in rows)}"
    )
    print("slowest for bitmask:", ", ".join(f"{r[0]} {r[2]:.2f}s" for r in sorted(rows, key=lambda r: -r[2])[:5]))
    print("slowest for CP-SAT: ", ", ".join(f"{r[0]} {r[3]:.2f}s" for r in sorted(rows, key=lambda r: -r[3])[:5]))


if __name__ == "__main__":
    main()
