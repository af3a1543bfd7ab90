"""Two source trees of nqueens_cp side by side: is the new one slower?

    git worktree add /tmp/old <commit>
    python benchmarks/bench_versions.py /tmp/old . --repeat 5

Runs, alternating between the trees so that a slower minute of the shared machine hits both, the
backtrack tree's profile at n = 16 on one thread, `count(16)` on one worker, the enumeration of
every solution of n = 14 written as jsonl to /dev/null, and the join (CPU time) over every
1000th column set of n = 21 and of n = 22, where the matcher is most of the time. Each
measurement is a fresh process with the tree first on sys.path, timed inside the process after a
warm-up (start-up and numba's cache loading excluded). Prints the best time of each tree and the
ratio new / old.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

CASES = {
    "profile 16": """
import time, nqueens_cp as nq
b = nq.get_backend("bitmask", workers=1)
b.profile(nq.Problem(12))
t = time.perf_counter(); assert b.profile(nq.Problem(16))[-1] == 14772512; print(time.perf_counter() - t)
""",
    "count 16": """
import time, nqueens_cp as nq
nq.count(12, workers=1)
t = time.perf_counter(); assert nq.count(16, workers=1) == 14772512; print(time.perf_counter() - t)
""",
    "enumerate 14": """
import os, time, nqueens_cp as nq
try:  # the layout before the io/ package first: an editable install can answer for the other
    from nqueens_cp.render import write_solutions
except ImportError:
    from nqueens_cp.io.render import write_solutions
assert write_solutions.__code__.co_filename.startswith(nq.__file__.rpartition("/")[0])
b = nq.get_backend("bitmask")
with open(os.devnull, "wb") as out:
    write_solutions(nq.Problem(8), b.batches(nq.Problem(8)), "jsonl", out)
    t = time.perf_counter(); assert write_solutions(nq.Problem(14), b.batches(nq.Problem(14)), "jsonl", out) == 365596
print(time.perf_counter() - t)
""",
}

#: The join (CPU time) over every 1000th column set, at an odd and an even size: the bands'
#: tables are made before the clock starts, as a worker makes them once for all its sets.
_JOIN = """
import time
from nqueens_cp.backends.bitmask.kernels.join import band_tables, count_with
from nqueens_cp.backends.bitmask.partitions.join import column_sets
from nqueens_cp.backends.watch import NEVER
sets, weights = column_sets(12); count_with(12, sets, weights, band_tables(12), NEVER)
sets, weights = column_sets({n}); tables = band_tables({n})
sets, weights = sets[::1000].copy(), weights[::1000].copy()
t = time.process_time(); assert count_with({n}, sets, weights, tables, NEVER) > 0
print(time.process_time() - t)
"""
for _n in (21, 22):
    CASES[f"join {_n}, every 1000th set"] = _JOIN.format(n=_n)


#: Run before each case: the package imported must be the tree's. (`python -c` put the working
#: folder first on sys.path, before PYTHONPATH, so from inside a checkout both sides timed the
#: checkout; `-P` leaves it out.)
_TREE_CHECK = "import sys, nqueens_cp; assert nqueens_cp.__file__.startswith(sys.argv[1]), nqueens_cp.__file__\n"


def measure(tree: Path, code: str) -> float:
    root = str(tree.resolve())
    env = {**os.environ, "PYTHONPATH": root}
    command = [sys.executable, "-P", "-c", _TREE_CHECK + code, root + os.sep]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--case", choices=list(CASES), action="append", help="only these cases (default: all)")
    args = ap.parse_args()
    report = {}
    for name in args.case or list(CASES):
        code = CASES[name]
        times: dict[str, list[float]] = {"old": [], "new": []}
        for _ in range(args.repeat):
            for label, tree in (("old", args.old), ("new", args.new)):
                times[label].append(measure(tree, code))
        old, new = min(times["old"]), min(times["new"])
        report[name] = {"old_s": round(old, 4), "new_s": round(new, 4), "new/old": round(new / old, 3)}
        print(f"{name}: old {old:.3f} s, new {new:.3f} s, new/old {new / old:.3f}")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
