"""The profile of the row search's tree: its nodes at each depth (`kernels.profile`), cut into
numbered work items, run on threads in this process (the kernels hold no GIL) or, as a count's
items are, on the pool, on Dask and into a checkpoint.

Queens on an open board: an item a node of the first two rows whose first queen stands in the
board's left half (a column's mirror image roots a tree of the same shape, so those count
twice), each searched by the classic three words a row. Every other board: an item a column of
the first row, searched with the attack table. A checkpoint records an item's count; the
profile is a vector, so an item's count is its vector written as one integer, entry k times
2^(64 k) (no entry reaches 2^64): the sum of items' integers is the integer of their summed
vectors.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from ...model.problem import Problem
from ..base import Deadline
from ..watch import watched
from . import layouts

if TYPE_CHECKING:
    from ...run.partition import Partition

#: An entry's width in an item's integer.
BITS = 64


def tables(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """(attack, free): each square's attacks a mask a row (its row included), and the columns
    each row may take (usable squares; a pre-placed piece's row, its column alone)."""
    attack = layouts.attack_table(problem, ())
    free = layouts.open_rows(problem, layouts.closed(problem))
    for r, c in problem.fixed:
        free[r] &= np.uint64(1) << np.uint64(c)
    return attack, free


#: What an item needs: (rows, columns, the items' prefixes and weights, the attack table and
#: free columns where the board is not open queens, else None).
Context = tuple[int, int, list[tuple[tuple[int, ...], int]], "tuple[np.ndarray, np.ndarray] | None"]


def context(problem: Problem) -> tuple[Context, list[int]]:
    """The items of `problem`'s profile, and what no item counts: the root and, for open
    queens, the first row's nodes (items start at the second row)."""
    m, n = problem.rows, problem.n
    base = [0] * (m + 1)
    base[0] = 1
    if _open_queens(problem) and m >= 2:
        base[1] = n
        half = [(c, 1 if 2 * c + 1 == n else 2) for c in range((n + 1) // 2)]
        items = [((c0, c1), w) for c0, w in half for c1 in range(n) if abs(c1 - c0) > 1]
        return (m, n, items, None), base
    attack, free = tables(problem)
    items = [((c,), 1) for c in range(n) if int(free[0]) >> c & 1]
    return (m, n, items, (attack, free)), base


def item_vector(ctx: Context, i: int, stop: np.ndarray) -> tuple[np.ndarray, bool]:
    """Item i's nodes by depth, weighted, and whether it ran to its end."""
    from .kernels.profile import profile as walk
    from .kernels.profile import queens

    m, n, items, board = ctx
    prefix, weight = items[i]
    out = np.zeros(m + 1, np.int64)
    if board is None:
        done = queens(m, n, np.array(prefix, np.int64), stop, out)
    else:
        attack, free = board
        done = walk(m, n, attack, free, np.int64(prefix[0]), stop, out)
    return out * weight, bool(done)


def item_count(ctx: Context, i: int) -> int:
    """Item i's vector as one integer (see the module): what a checkpoint records."""
    from ..watch import tally

    vector, _ = item_vector(ctx, i, tally())
    return sum(int(v) << (BITS * k) for k, v in enumerate(vector.tolist()))


def decoded(total: int, base: list[int]) -> list[int]:
    """The profile from the items' summed integer and what no item counts."""
    mask = (1 << BITS) - 1
    return [b + (total >> (BITS * k) & mask) for k, b in enumerate(base)]


def profile(problem: Problem, deadline: Deadline, workers: int) -> list[int]:
    """Nodes at depth 0..rows of the row search (entry k: the placements of the first k rows
    that the rules allow among themselves; the last, the solutions): the items on `workers`
    threads. Raises Unknown at a stop."""
    ctx, base = context(problem)
    total = np.array(base, np.int64)
    size = len(ctx[2])
    with watched(deadline) as stop, ThreadPoolExecutor(max(1, min(workers, size or 1))) as pool:
        parts = list(pool.map(lambda i: item_vector(ctx, i, stop)[0], range(size)))
    deadline.check(None)  # (a signal's stop raises as the block ends)
    for part in parts:
        total += part
    return [int(v) for v in total]


def partition(problem: Problem) -> tuple[Partition, list[int]]:
    """The profile's items as a count's (checkpoints, Dask), and what no item counts."""
    from ...run.partition import Partition
    from .partitions.base import fingerprint

    ctx, base = context(problem)
    split = "profile-two-rows" if ctx[3] is None else "profile-first-row"
    saved = fingerprint(problem, 2 if ctx[3] is None else 1) | {"split": split}
    return Partition(saved, len(ctx[2]), item_count, ctx, _warm, algorithm="profile", wide=True), base


def _warm() -> None:
    """Both kernels loaded in this process (before forking the workers that share them)."""
    for small in (Problem(4), Problem(4, blocked=[(3, 3)])):
        item_count(context(small)[0], 0)


def _open_queens(problem: Problem) -> bool:
    """Queens on a board with nothing on it and no wrap: the classic search's own kernel."""
    plain = not (problem.blocked or problem.fixed or problem.walls or problem.torus or problem.regions)
    return plain and problem.rule.notation == "Q" and problem.n <= 64
