"""The sat backend beside bitmask and cpsat on hard blocked boards, and what its CNF costs.

    python benchmarks/bench_sat.py                 # 5 boards per n, 20 s limit: a few minutes
    python benchmarks/bench_sat.py --count 20 --time-limit 60

Boards of the ASP competition's shape (CSPLib prob080: n = 48, 50, 56 with 1962, 2142, 2734
blocked squares) from `nqueens generate blocked`, decided (`--task first`) by the three
backends through the comparison harness, in one run, under the same limit: each backend's
solved count, median time and PAR-2, and every answer checked against the others.

The second part times, in this process, the CNF encoding of each n = 56 board against the
whole sat `first` call on it (which includes the encoding). Goal (issue #16): encoding under
5% of the solve time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHAPES = ((48, 1962), (50, 2142), (56, 2734))
EXE = str(Path(sys.executable).with_name("nqueens"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=5, help="boards per n (default 5)")
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=20.0)
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench_sat."))
    try:
        folder = work / "set"
        subprocess.run([EXE, "generate", "blocked", "--n", ",".join(str(n) for n, _ in SHAPES),
                        "--blocks", ",".join(str(b) for _, b in SHAPES), "--count", str(a.count),
                        "--seed", str(a.seed), "--out", str(folder)], check=True, capture_output=True)  # fmt: skip
        r = subprocess.run([EXE, "compare", "--model", str(folder), "--backends", "bitmask,cpsat,sat",
                            "--task", "first", "--time-limit", str(a.time_limit), "--json"],
                           capture_output=True, text=True)  # fmt: skip
        if r.returncode != 0:
            sys.exit(f"compare failed ({r.returncode}): {r.stderr.strip()}")
        summary = json.loads(r.stdout.splitlines()[-1])["summary"]
        print(f"{len(SHAPES) * a.count} boards, limit {a.time_limit:g} s, every answer checked")
        print(f"{'backend':10} {'solved':>7} {'unknown':>8} {'median s':>9} {'PAR-2':>9}")
        for s in summary:
            median = f"{s['median_seconds']:.3f}" if s["median_seconds"] is not None else "-"
            print(f"{s['backend']:10} {s['solved']:7} {s['unknown']:8} {median:>9} {s['par2']:9.1f}")

        from nqueens_cp.backends.sat import encode
        from nqueens_cp.io.formats import read_model

        encode(read_model(next(folder.glob("n48-*.param"))))  # imports and caches, outside the timings
        rows = [json.loads(line) for line in r.stdout.splitlines()[:-1]]
        solved = {x["instance"]: x["seconds"] for x in rows if x["backend"] == "sat" and x["status"] != "unknown"}
        shares = []
        for path in sorted(folder.glob("n56-*.param")):
            if str(path) not in solved:
                continue
            start = time.perf_counter()
            encode(read_model(path))
            shares.append((time.perf_counter() - start) / solved[str(path)])
        if shares:
            median = sorted(shares)[len(shares) // 2]
            print(f"CNF encoding at n = 56: {min(shares):.1%} .. {max(shares):.1%} of the sat first call "
                  f"(median {median:.1%}, {len(shares)} boards sat decided; goal < 5%)")  # fmt: skip
        else:
            print("CNF encoding at n = 56: sat decided no n = 56 board within the limit")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
