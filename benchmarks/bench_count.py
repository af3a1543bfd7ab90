"""Counting speed against the C yardstick, as ratios measured in one run.

    python benchmarks/bench_count.py            # n = 15 and 16
    python benchmarks/bench_count.py 14 15 16 17

Builds ../shared/bench/nqueens_ref.c with cc -O3 -march=native, then for each n runs the C
program, `nqueens_cp.count(n)` on one worker and on --workers workers, and the symmetry-class
count, alternately, best of --repeat runs each, and prints package time / C time. Counts are
checked against OEIS A000170 (and A002562 for the classes).

    python benchmarks/bench_count.py 15 16 17 --checkpoint   # also through a checkpoint file
    python benchmarks/bench_count.py --callgrind 13           # instructions, under valgrind

--checkpoint also counts each n through the partitioned path with a checkpoint file (the same
numbered sub-problems as `nqueens count N --checkpoint F`, on --workers workers), checks the
total against A000170, and re-sums the finished file as `--check` does.

--callgrind N counts instructions with valgrind's callgrind, for the C program's search and for
our count of N on one worker. Numba's compiled code carries no symbols valgrind can see, so ours
is a difference of two runs of one process: count(11) then count(N), less count(11) alone (both
load the same kernels), i.e. the instructions of count(N) in process, Python included.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nqueens_cp as nq

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104, 18: 666090624}
A002562 = {12: 1787, 13: 9233, 14: 45752, 15: 285053, 16: 1846955}
REF = Path(__file__).resolve().parents[2] / "shared" / "bench" / "nqueens_ref.c"


def build_reference(src: Path = REF) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not src.exists():
        sys.exit(f"need a C compiler and {src}")
    exe = Path(tempfile.mkdtemp()) / "nqueens_ref"
    subprocess.run([cc, "-O3", "-march=native", "-o", str(exe), str(src)], check=True)
    return exe


def c_seconds(exe: Path, n: int) -> float:
    _, count, seconds = subprocess.run([str(exe), str(n)], capture_output=True, text=True, check=True).stdout.split()
    assert int(count) == A000170[n], count
    return float(seconds)


def py_seconds(n: int, **kw) -> float:
    start = time.perf_counter()
    count = nq.count(n, **kw)
    seconds = time.perf_counter() - start
    assert count == A000170[n], count
    return seconds


def unique_seconds(n: int, workers: int) -> float:
    start = time.perf_counter()
    result = nq.count_classes(n, workers=workers)
    seconds = time.perf_counter() - start
    assert (result.unique, result.total) == (A002562[n], A000170[n]), result
    return seconds


def checkpoint_seconds(n: int, workers: int) -> float:
    from nqueens_cp.run.partition import checked_total, count_partitioned, pool_runner

    part = nq.get_backend("bitmask").partition(nq.Problem(n))
    with tempfile.TemporaryDirectory() as folder:
        ck = Path(folder) / "c.json"
        start = time.perf_counter()
        total = count_partitioned(part, pool_runner(workers), ck)
        seconds = time.perf_counter() - start
        assert total == A000170[n] == checked_total(part, ck), total
    return seconds


def _instructions(cmd: list[str], collect: str | None = None) -> int:
    with tempfile.TemporaryDirectory() as folder:
        args = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out"]
        args += [f"--toggle-collect={collect}"] if collect else []
        r = subprocess.run([*args, *cmd], capture_output=True, text=True, check=True)
    return int(r.stderr.rsplit("Collected :", 1)[1].split()[0])


def callgrind(n: int) -> None:
    if shutil.which("valgrind") is None:
        sys.exit("--callgrind needs valgrind")
    cc = shutil.which("cc") or shutil.which("gcc")
    exe = Path(tempfile.mkdtemp()) / "nqueens_ref"
    subprocess.run([str(cc), "-O3", "-march=native", "-g", "-o", str(exe), str(REF)], check=True)
    c = _instructions([str(exe), str(n)], "search")
    code = "import nqueens_cp as nq; nq.count(11, workers=1)"
    # once outside valgrind: a compiled kernel missing from numba's cache is compiled (and counted)
    # by whichever run meets it first, which would make the difference meaningless
    subprocess.run([sys.executable, "-c", f"{code}; nq.count({n}, workers=1)"], check=True)
    base = _instructions([sys.executable, "-c", code])
    ours = _instructions([sys.executable, "-c", f"{code}; assert nq.count({n}, workers=1) == {A000170[n]}"]) - base
    print(f"callgrind n = {n}: C search {c / 1e6:,.0f} M instructions; "
          f"nqueens_cp count {ours / 1e6:,.0f} M ({ours / c:.2f}x)")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ns", nargs="*", type=int, default=[15, 16])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--unique", action="store_true", help="also time count --unique (enumerates)")
    ap.add_argument("--checkpoint", action="store_true", help="also count through a checkpoint file")
    ap.add_argument("--callgrind", type=int, metavar="N", help="only count instructions for N, under valgrind")
    args = ap.parse_args()
    if args.callgrind:
        callgrind(args.callgrind)
        return
    exe = build_reference()
    nq.count(13, workers=1)  # load the compiled kernels (constellations from n = 13) outside the timings
    nq.count(13, workers=args.workers)
    w = args.workers
    head = f"{'n':>3} {'C s':>8} {'1 worker s':>11} {'ratio':>6} {f'{w} workers s':>12} {'ratio':>6}"
    head += f" {f'unique {w}w s':>11} {'ratio':>6}" if args.unique else ""
    print(head + (f" {f'checkpoint {w}w s':>16} {'ratio':>6}" if args.checkpoint else ""))
    for n in args.ns:
        cs, one, many, uniq, ckpt = [], [], [], [], []
        for _ in range(args.repeat):
            cs.append(c_seconds(exe, n))
            one.append(py_seconds(n, workers=1))
            many.append(py_seconds(n, workers=w))
            if args.unique and n in A002562:
                uniq.append(unique_seconds(n, w))
            if args.checkpoint:
                ckpt.append(checkpoint_seconds(n, w))
        c = min(cs)
        line = f"{n:>3} {c:8.3f} {min(one):11.3f} {min(one) / c:6.2f} {min(many):12.3f} {min(many) / c:6.2f}"
        if uniq:
            line += f" {min(uniq):11.3f} {min(uniq) / c:6.2f}"
        if ckpt:
            line += f" {min(ckpt):16.3f} {min(ckpt) / c:6.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
