"""Enumeration and output speed: writing every board of n-queens against counting them.

    python benchmarks/bench_enumerate.py 14

In one process, best of --repeat: `count(n)` on one worker, every solution written as boards and
as jsonl to /dev/null (the CLI's path: compiled batches formatted by compiled code), and the time
to write that many bytes. Prints boards / (count + write) -- the goal is at most 3.
"""

from __future__ import annotations

import argparse
import os
import time

import nqueens_cp as nq
from nqueens_cp.io.render import write_solutions


class Counter:
    def __init__(self, sink) -> None:
        self.sink, self.bytes = sink, 0

    def write(self, data: bytes) -> None:
        self.bytes += len(data)
        self.sink.write(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=14)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    p = nq.Problem(args.n)
    with open(os.devnull, "wb") as sink:
        engine = nq.get_backend("bitmask")
        write_solutions(nq.Problem(6), engine.batches(nq.Problem(6)), "boards", sink)  # JIT cache
        nq.count(8)
        best: dict[str, float] = {}
        size = 0
        for _ in range(args.repeat):
            for name in ("count", "boards", "jsonl", "write"):
                start = time.perf_counter()
                if name == "count":
                    nq.count(p, workers=1)
                elif name == "write":
                    sink.write(b"x" * size)
                else:
                    out = Counter(sink)
                    write_solutions(p, engine.batches(p), name, out)
                    size = out.bytes if name == "boards" else size
                best[name] = min(best.get(name, 1e9), time.perf_counter() - start)
    for name, sec in best.items():
        print(f"{name:<7} {sec:8.3f} s")
    print(f"boards / (count + write {size:,} bytes) = {best['boards'] / (best['count'] + best['write']):.2f}")


if __name__ == "__main__":
    main()
