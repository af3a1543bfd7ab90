"""What the fuzzer itself adds per board, the program's own run aside: drawing it, our engine's
answer, and the judging, at n <= 12 (the target: under 20 ms a board).

    python benchmarks/bench_fuzz.py [--boards 300] [--max-n 12] [--task solve]

The program's output is our engine's own answer, written where the program's would be, so that
what is timed is the fuzzer's share of a real campaign (`fuzz.judge_output` on that file, as
`ProgramSubject` judges a program's). Prints the milliseconds per board and their ratio to the
target, measured in this run.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import nqueens_cp as nq
from nqueens_cp.check import fuzz as fz

TARGET_MS = 20.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--max-n", type=int, default=12)
    parser.add_argument("--task", choices=fz.TASKS, default="solve")
    args = parser.parse_args()
    oracle = nq.get_backend("bitmask")
    families = fz.Families(max_n=args.max_n)
    rng = random.Random(0)
    nq.count(13)  # the kernels loaded before the clock starts (13: the first size they count)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stdout"
        spent, slowest, wrong = 0.0, 0.0, 0
        for _ in range(args.boards):
            start = time.perf_counter()
            _, p = fz.draw(rng, families)
            drawn = time.perf_counter() - start
            if args.task == "count":  # the program's output (not timed: the program's share)
                out.write_text(f"{nq.count(p)}\n")
            else:
                sols = list(nq.solve(p)) if args.task == "solve" else [s for s in [nq.first(p)] if s]
                out.write_text("".join(" ".join(map(str, s)) + "\n" for s in sols))
            start = time.perf_counter()
            wrong += fz.judge_output(out, p, oracle, args.task, False) is not None
            took = drawn + time.perf_counter() - start
            spent, slowest = spent + took, max(slowest, took)
    per = 1000 * spent / args.boards
    print(
        f"{args.boards} boards up to n = {args.max_n}, --task {args.task}: {per:.2f} ms a board "
        f"(slowest {1000 * slowest:.1f} ms), {per / TARGET_MS:.2f}x the {TARGET_MS:g} ms target"
    )
    assert wrong == 0, f"{wrong} boards judged wrong against our own answer"


if __name__ == "__main__":
    main()
