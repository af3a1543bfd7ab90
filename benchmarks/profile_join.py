"""Where the join's time goes, by function, from Linux perf's samples (issue 36).

    python benchmarks/profile_join.py 18 --sample 2

perf cannot name numba's compiled code: it lies in anonymous memory, and the JIT event
listener of numba's LLVM build does not speak perf's format. So this script compiles the join's
kernels afresh (a throwaway NUMBA_CACHE_DIR, since code loaded from the cache carries no
function names), counts every `sample`-th column set under `perf record`, then writes the
addresses of the compiled functions to /tmp/perf-PID.map, which `perf report` reads. It prints
each kernel's share of the count's samples. Functions the compiler inlined are counted in their
caller (the matcher's inner loop in `matching`, the AVX2 scan in `listed`).

Without `--child`, it runs itself under perf and reports; perf must be installed and allowed to
sample this user's processes (kernel.perf_event_paranoid <= 2).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

#: A kernel's own function as numba names it (Itanium-mangled): ...4join7matcher8matchingB3v91...
#: (its module, then its name, each after its length); its copies linked into other kernels'
#: code are named alike, so each is counted under its name.
_OWN = re.compile(r"_ZN10nqueens_cp8backends7bitmask7kernels4join(\d+)(\w+)")


def _own_name(mangled: str) -> str | None:
    """`module.function` of a join kernel's mangled name, or None for any other function."""
    own = _OWN.match(mangled)
    if not own:
        return None
    length, rest = int(own[1]), own[2]
    module, rest = rest[:length], rest[length:]
    digits = len(rest) - len(rest.lstrip("0123456789"))
    if not digits:
        return None
    size = int(rest[:digits])
    return f"{module}.{rest[digits : digits + size]}"


def child(n: int, sample: int) -> None:
    """The count under perf, then the map of the compiled functions' addresses."""
    from numba.core.registry import CPUDispatcher

    from nqueens_cp.backends.bitmask.kernels import join
    from nqueens_cp.backends.bitmask.kernels.join import bands, column_sets, matcher, symmetry
    from nqueens_cp.backends.bitmask.partitions.join import column_sets as sets_of
    from nqueens_cp.backends.watch import NEVER

    sets, weights = sets_of(n)
    tables = join.band_tables(n)
    join.count_with(n, sets[::sample].copy(), weights[::sample].copy(), tables, NEVER)
    found = set()
    kernels = [getattr(m, name) for m in (bands, column_sets, matcher, symmetry) for name in dir(m)]
    for kernel in kernels:
        if not isinstance(kernel, CPUDispatcher):
            continue
        for compiled in kernel.overloads.values():
            library = compiled.library
            for function in library._final_module.functions:
                own = _own_name(function.name)  # a join kernel's code, not a wrapper's
                if own and not function.is_declaration:
                    found.add((library.get_pointer_to_function(function.name), f"join.{own}"))
    starts = sorted(a for a in found if a[0])
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for (start, name), (after, _) in zip(starts, [*starts[1:], (starts[-1][0] + 4096, "")], strict=True):
            out.write(f"{start:x} {min(after - start, 1 << 20):x} {name}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int)
    parser.add_argument("--sample", type=int, default=1, help="count every K-th column set")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.n, args.sample)
        return
    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "perf.data")
        env = {**os.environ, "NUMBA_CACHE_DIR": os.path.join(scratch, "cache")}
        me = [sys.executable, os.path.abspath(__file__), str(args.n), "--sample", str(args.sample), "--child"]
        subprocess.run(["perf", "record", "-q", "-o", data, *me], env=env, check=True)
        report = subprocess.run(
            ["perf", "report", "-i", data, "--sort", "sym", "--stdio"], capture_output=True, text=True, check=True
        ).stdout
    shares: Counter[str] = Counter()
    for line in report.splitlines():
        hit = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+join\.(\w+)", line)
        if hit:
            shares[hit[2]] += float(hit[1])
    total = sum(shares.values())
    print(f"n = {args.n}, every {args.sample}th column set: share of the join's samples (compilation left out)")
    for name, share in shares.most_common():
        print(f"  {name:20} {100 * share / total:5.1f}%")


if __name__ == "__main__":
    main()
