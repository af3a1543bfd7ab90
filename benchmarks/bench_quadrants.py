"""Our count beside the fastest published CPU counter, Evgeny Kluev's quadrant method (issue 36).

    python benchmarks/bench_quadrants.py PATH [SIZES...] [--threads T]

PATH is a checkout of the public repository EvgenyKluev/N-Queens-Count-Sol: a work tree, or a
bare git directory such as the one the search tool's fetch brings (its HEAD is exported). Its
code is not part of this project: the benchmark builds it in a temporary folder, once per board
size, with the settings its own `solcounter.h` tabulates for that size (sieve cuts, match sizes,
BMI2 and prefetch), BMI2 and prefetch compiled in, `g++ -std=c++20 -O3 -march=native`; and
built again with the matcher's group of 16 words its author advises for AVX-512 (its README:
`matchGroupSize`, 8 by default, "should most likely be changed for processors ... >= AVX512"),
where this machine has AVX-512. Then, in one run and for each size, it times both builds and
`nqueens count N --workers T` end to end on the same number of threads (our kernels compiled
and our modules' bytecode cached before, as after any first run of an installed copy), with the
peak resident memory of each, and our count in this process (no start-up); checks every count
against OEIS A000170, and prints our times over the faster build's. Sizes default to 16..18.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

import nqueens_cp as nq
from nqueens_cp.backends import get_backend
from nqueens_cp.backends.bitmask.partitions import join

A000170 = {
    14: 365596,
    15: 2279184,
    16: 14772512,
    17: 95815104,
    18: 666090624,
    19: 4968057848,
    20: 39029188884,
    21: 314666222712,
}

# Its solcounter.h's table, by size: sieveCuts, matchMinSize, bmiIntrin, prefetch ("*" read as on).
SETTINGS = {
    16: (0, 40, False, True),
    17: (0, 40, False, True),
    18: (0, 40, False, True),
    19: (0, 40, True, True),
    20: (3, 60, True, True),
    21: (3, 60, True, False),
    22: (6, 80, True, True),
}


NQUEENS = str(Path(sys.executable).with_name("nqueens"))
#: Our program's environment: as installed, its modules' bytecode cached. Where this one says
#: PYTHONDONTWRITEBYTECODE (some containers do), every start compiled the command line's modules
#: from their sources again, about 0.06 s that no installed copy pays.
INSTALLED = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def exported(checkout: Path, into: Path) -> Path:
    """The checkout's files in `into`: copied from a work tree, or HEAD exported from a bare one."""
    if (checkout / "quadrants1.h").exists():
        shutil.copytree(checkout, into, dirs_exist_ok=True)
        return into
    archive = subprocess.run(["git", f"--git-dir={checkout}", "archive", "HEAD"], capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def avx512() -> bool:
    with open("/proc/cpuinfo") as f:
        return " avx512f" in f.read()


def built(source: Path, n: int, group: int | None = None) -> Path:
    """Its program for board size n, with its own settings for n (see SETTINGS), the matcher's
    group of `group` words where given (its default otherwise)."""
    cuts, min_size, bmi, prefetch = SETTINGS[n]
    folder = source.parent / f"n{n}-{group or 'default'}"
    shutil.copytree(source, folder, dirs_exist_ok=True)
    counter = folder / "solcounter.h"
    text = re.sub(r"inline constexpr int size = \d+;", f"inline constexpr int size = {n};", counter.read_text())
    text = re.sub(r"\.sieveCuts = \d+", f".sieveCuts = {cuts}", text)
    text = re.sub(r"\.matchMinSize = \d+", f".matchMinSize = {min_size}", text)
    text = re.sub(r"\.bmiIntrin = \w+", f".bmiIntrin = {str(bmi).lower()}", text)
    text = re.sub(r"\.prefetch = \w+", f".prefetch = {str(prefetch).lower()}", text)
    counter.write_text(text)
    if group is not None:
        cfg = folder / "cfg.h"
        cfg.write_text(re.sub(r"int matchGroupSize = \d+;", f"int matchGroupSize = {group};", cfg.read_text()))
    for header, include in (("bmintrin.h", "bmi2.h"), ("prefetch.h", "prefetchx86.h")):
        path = folder / header
        path.write_text(path.read_text().replace(f'//#include "{include}"', f'#include "{include}"'))
    program = folder / "nqueens"
    command = ["g++", "-std=c++20", "-O3", "-march=native", "-pthread", "main.cpp", "-o", str(program)]
    subprocess.run(command, cwd=folder, check=True)
    return program


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[str, float, int]:
    """(stdout, seconds, peak resident MB) of a program run to its end, timed from outside; the
    peak is the largest of the program and the children it waited for (wait4's ru_maxrss)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    out = proc.stdout.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"bench_quadrants: {command[0]} ended with exit {proc.returncode}")
    return out, took, usage.ru_maxrss // 1024


def theirs(program: Path, threads: int) -> tuple[int, float, int]:
    """(count, seconds, peak MB) of its program."""
    out, took, peak = timed([str(program), str(threads)])
    return int(re.search(r"Result: (\d+)", out).group(1)), took, peak


def ours(n: int, threads: int) -> tuple[int, float, int, str]:
    """(count, seconds, peak MB, the plan's algorithm) of `nqueens count n --workers threads`,
    end to end (start-up included; the kernels compiled before, as after any first run)."""
    plan = get_backend("bitmask", workers=threads).plan(nq.Problem(n), "count")
    out, took, peak = timed([NQUEENS, "count", str(n), "--workers", str(threads)], INSTALLED)
    return int(out), took, peak, plan.algorithm.value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of EvgenyKluev/N-Queens-Count-Sol")
    parser.add_argument("sizes", nargs="*", type=int, default=[16, 17, 18])
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if not shutil.which("g++"):
        sys.exit("bench_quadrants: g++ is needed to build the quadrant counter")
    nq.count(13, workers=1)  # compile our kernels (constellations, the join) before any clock starts
    join.load_kernels()
    timed([NQUEENS, "count", "16", "--workers", str(args.threads)], INSTALLED)  # and its modules' bytecode
    with tempfile.TemporaryDirectory() as tmp:
        source = exported(args.checkout.expanduser(), Path(tmp) / "source")
        groups = [None, 16] if avx512() else [None]
        print(f"threads {args.threads}; quadrant builds: matcher group {', '.join(str(g or 8) for g in groups)}")
        print("n    quadrants s (MB) by build   ours s (MB)   in process s   ours / faster: end to end, in process")
        for n in args.sizes:
            runs = []
            for group in groups:
                count, took, peak = theirs(built(source, n, group), args.threads)
                assert count == A000170[n], (n, group, count)
                runs.append((took, peak))
            mine, our_time, our_peak, algorithm = ours(n, args.threads)
            assert mine == A000170[n], (n, mine)
            start = time.perf_counter()
            assert nq.count(n, workers=args.threads) == A000170[n]
            inside = time.perf_counter() - start
            best = min(t for t, _ in runs)
            shown = "  ".join(f"{t:7.2f} ({p:5})" for t, p in runs)
            print(
                f"{n:<4} {shown}   {our_time:7.2f} ({our_peak:5})  {inside:9.2f}   "
                f"{our_time / best:6.2f}, {inside / best:6.2f}   {algorithm}"
            )


if __name__ == "__main__":
    main()
