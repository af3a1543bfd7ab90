"""Any piece: the generic compiled search against the queen kernel, as ratios measured in one run.

    python benchmarks/bench_pieces.py            # n = 13, best of 3
    python benchmarks/bench_pieces.py --n 12 --repeat 5

Nodes per second on one worker, for the pieces the issue names (RN, RNN, QNN, RF, a one-way
line) and the queen, counted by the generic kernel and by the piece's own kernel (kernels/generated.py,
which a count switches to once it is large, or at once when it is on disk; `count --json`
reports the nodes), against the queen's specialised row kernel. The queen kernel counts no
nodes of its own (it is the hot loop), so its nodes are those of the same search tree as the
generic kernel walks it on the queen: the same rows in the same order, the same squares ruled
out; the three kernels count the placements of the last row alike, and the piece's kernel is
checked to walk the generic kernel's tree node for node. Also: the CP-SAT model of each piece
built at n = 50 (milliseconds).

Then the count the planner runs (classes of ring constellations under the symmetries that
hold, each searched by the piece's kernel) against the same kernels' count without classes
(half the first row where the left-right mirror holds, else the whole first row): seconds and
nodes, one worker, with the counts checked equal. For the pieces that keep all 8 symmetries at
n, and for boards that keep fewer: one-way lines (4 symmetries along a diagonal, 2 otherwise)
and rectangles (4).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import get_backend
from nqueens_cp.backends.watch import tally

PIECES = ("RN", "RNN", "QNN", "RF", "Rline(1,-1)")
SYMMETRIC = ("RN", "RNN", "QNN", "RF", "rook", "superqueen")
#: Boards that keep fewer symmetries: (piece, rows, columns), with rows and columns counted from n.
FEWER = (("Rline(1,-1)", 0, 0), ("Rline(1,2)", -1, -1), ("queen", -2, 2), ("RN", -2, 0), ("RNN", -1, 3))


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def quickest(fn) -> tuple[float, object]:
    """The fastest of calls of `fn` repeated for at least 50 ms (once for a longer call): a
    call of a tenth of a millisecond (QNN's tree at n = 13) needs many to show its speed, as
    timeit's autorange does."""
    times, out, spent = [], None, 0.0
    while spent < 0.05 or not times:
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
        spent += times[-1]
    return min(times), out


def kernels(p: Problem) -> tuple[Callable[[], tuple[int, int]], Callable[[], tuple[int, int]]]:
    """Calls of the generic kernel and of the piece's own kernel (kernels/generated.py, compiled here, as
    the first large count of a piece does) on the whole tree (no mirror: the queen kernel is
    timed on the whole tree too), each giving (count, nodes). As for the queen kernel, the masks
    and tables are made before the clock starts: the calls alone are timed."""
    from nqueens_cp.backends.bitmask.kernels import generated
    from nqueens_cp.backends.bitmask.kernels import generic as k
    from nqueens_cp.backends.bitmask.tables import masks_array, moves

    masks, (slides, reach) = masks_array(p)[None], moves(p)
    own = generated.CACHE.kernel(generated.key(slides, reach, p.rows))
    one = np.ones(1, np.int64)

    def generic() -> tuple[int, int]:
        stop, out = tally(), np.zeros(1, np.int64)
        k.count_items(masks, slides, reach, one, out, stop, 1 << 62)
        return int(out[0]), int(stop[1])

    def piece() -> tuple[int, int]:
        stop, out = tally(), np.zeros(1, np.int64)
        own(masks, reach, one, out, stop)
        return int(out[0]), int(stop[1])

    return generic, piece


def mirror_count(p: Problem) -> tuple[int, int]:
    """(count, nodes) of the generic count over half the first row, or the whole one where the
    mirror does not hold: the engine's items of the first two rows, in one process."""
    from nqueens_cp.backends.base import Deadline
    from nqueens_cp.backends.bitmask.partitions import count_items, pieces

    out = count_items(pieces.items(p), 1, Deadline("bench", None))
    return out.count, out.nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=13)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n = args.n

    from nqueens_cp.backends.bitmask.kernels import queens as k
    from nqueens_cp.backends.bitmask.tables import masks_array
    from nqueens_cp.backends.watch import NEVER

    queen = Problem(n)
    masks = masks_array(queen)
    zero = np.uint64(0)
    k.count_queens(masks, 0, zero, zero, zero, NEVER)  # compiled before the clock starts
    kernels(Problem(6, "RN"))[0]()
    count = int(k.count_queens(masks, 0, zero, zero, zero, NEVER))
    count2, queen_nodes = kernels(queen)[0]()
    assert count == count2 == nq.count(queen), (count, count2)

    def queen_call() -> None:
        k.count_queens(masks, 0, zero, zero, zero, NEVER)

    print(f"n = {n}, one worker, best of {args.repeat}; nodes per second of the generic kernel and of the")
    print("piece's own kernel (kernels/generated.py, compiled before the clock starts), and their ratios to the")
    print("queen kernel's (timed on its tree, interleaved with each piece's calls: the same machine state)")
    head = f"{'piece':<14}{'count':>14}{'nodes':>16}{'queen M/s':>11}{'generic M/s':>13}{'/ queen':>9}"
    print(f"{head}{'own M/s':>10}{'/ queen':>9}")
    for piece in ("queen", *PIECES):
        p = Problem(n, piece)
        generic_call, own_call = kernels(p)
        t_queen, t_generic, t_own = [], [], []
        for _ in range(args.repeat):
            t_queen.append(quickest(queen_call)[0])
            seconds, (c, nodes) = quickest(generic_call)
            t_generic.append(seconds)
            seconds, (c2, nodes2) = quickest(own_call)
            t_own.append(seconds)
        assert c == c2 == get_backend("bitmask", workers=1).count(p).count and nodes == nodes2
        queen_rate, generic, own = queen_nodes / min(t_queen), nodes / min(t_generic), nodes / min(t_own)
        row = f"{piece:<14}{c:>14,}{nodes:>16,}{queen_rate / 1e6:>11.1f}{generic / 1e6:>13.1f}"
        print(f"{row}{generic / queen_rate:>9.2f}{own / 1e6:>10.1f}{own / queen_rate:>9.2f}")

    print(f"\nCount by constellations against the first row (n = {n}, one worker, best of {args.repeat})")
    print(f"{'piece':<14}{'board':>7}{'count':>14}{'row s':>10}{'classes s':>10}{'time':>7}{'nodes':>7}")
    boards = [Problem(n, piece) for piece in SYMMETRIC]
    boards += [Problem(n + dc, piece, rows=n + dr) for piece, dr, dc in FEWER]
    for p in boards:
        t_mirror, (c, mirror_nodes) = best(lambda p=p: mirror_count(p), args.repeat)
        t_classes, out = best(lambda p=p: get_backend("bitmask", workers=1).count(p), args.repeat)
        assert out.count == c and get_backend("bitmask").plan(p, "count").algorithm == "constellations"
        ratio = out.stats["nodes"] / mirror_nodes
        row = f"{p.piece:<14}{p.shape:>7}{c:>14,}{t_mirror:>10.3f}{t_classes:>10.3f}"
        print(f"{row}{t_classes / t_mirror:>7.2f}{ratio:>7.2f}")

    from nqueens_cp.backends.cpsat import build_model

    print("\nCP-SAT model built at n = 50 (ms, best of 3)")
    for piece in ("queen", *PIECES):
        seconds, _ = best(lambda piece=piece: build_model(Problem(50, piece)), 3)
        print(f"{piece:<14}{seconds * 1000:>8.1f}")


if __name__ == "__main__":
    main()
