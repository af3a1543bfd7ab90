"""What checking every answer costs: each enumeration path with its check, and without it.

    python benchmarks/bench_checking.py 12 14

Every solution a backend hands out is checked before it is handed on (arrays at a time by the
vectorised checker, `model/batches.py`). For each n, in one process, best of --repeat with the
two sides alternating: the API's stream (`nq.solve`), the engine's arrays (`batches`), a count
made by enumeration, and the CLI (`nqueens solve N -f FORMAT -o FILE`, in process) for every
format, each as it runs against the same path with the check switched off (this benchmark alone
does that, by replacing the checker). Prints checked / unchecked (the goal: at most 1.10), then
how much faster than CP-SAT our engine streams 12-queens through `nq.solve` (the goal: 200x).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from contextlib import nullcontext
from unittest import mock

from typer.main import get_command

import nqueens_cp as nq
from nqueens_cp.cli import app
from nqueens_cp.model.batches import BatchCheck

FORMATS = ("boards", "json", "jsonl", "csv")


def best_pair(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(checked, unchecked): the best of `repeat` runs of each, alternating."""
    checked, unchecked = [], []
    for _ in range(repeat):
        for times, off in ((checked, False), (unchecked, True)):
            with mock.patch.object(BatchCheck, "__call__", lambda self, a: None) if off else nullcontext():
                start = time.perf_counter()
                run()
                times.append(time.perf_counter() - start)
    return min(checked), min(unchecked)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="*", type=int, default=[12, 14])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    engine = nq.get_backend("bitmask")
    command = get_command(app)
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out")

        def cli(n: int, fmt: str) -> Callable[[], object]:
            def run() -> None:
                try:
                    command.main(["solve", str(n), "-f", fmt, "-o", out])
                except SystemExit as end:  # (the app ends every command with its exit code)
                    assert end.code == 0, end.code

            return run

        cli(6, "boards")()  # the kernels loaded, untimed
        print(f"{'n':>3} {'path':<22} {'checked':>10} {'unchecked':>10} {'ratio':>6}")
        for n in args.n:
            p = nq.Problem(n)
            paths: dict[str, Callable[[], object]] = {
                "nq.solve": lambda p=p: sum(1 for _ in nq.solve(p)),
                "batches": lambda p=p: sum(len(b) for b in engine.batches(p)),
                "count by enumeration": lambda p=p: engine.count_by_enumeration(p),
            }
            paths.update({f"cli -f {fmt}": cli(n, fmt) for fmt in FORMATS})
            for name, run in paths.items():
                checked, unchecked = best_pair(run, args.repeat)
                print(f"{n:>3} {name:<22} {checked:>9.4f}s {unchecked:>9.4f}s {checked / unchecked:>6.3f}")
    p = nq.Problem(12)
    ours = min(_seconds(lambda: sum(1 for _ in nq.solve(p))) for _ in range(args.repeat))
    cpsat = _seconds(lambda: sum(1 for _ in nq.solve(p, "cpsat")))
    print(f"12-queens through nq.solve: bitmask {ours:.4f} s, cpsat {cpsat:.2f} s: {cpsat / ours:.0f}x")


def _seconds(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
