"""The profile of a search's tree: its nodes at each depth (`kernels.profile`), cut into
numbered work items, run on threads in this process (the kernels hold no GIL) or, as a count's
items are, on the pool, on Dask and into a checkpoint.

The row search (a piece a row): on an open queens board, an item a node of the first two rows
whose first queen stands in the board's left half (a column's mirror image roots a tree of the
same shape, so those count twice), each searched by the classic three words a row; on every
other board, an item a column of the first row, searched with the attack table. The squares
search (pieces anywhere, `--pieces K`: its nodes at depth k are the placements of k pieces, up
to K): an item the first piece's square; open queens by rows that hold one queen or none, the
left half's squares counted twice; every other board square by square with the attack table,
walls cutting its lines, the pre-placed pieces the root.

A checkpoint records an item's count; the profile is a vector, so an item's count is its vector
written as one integer, entry k times 2^(64 k) (no entry reaches 2^64): the sum of items'
integers is the integer of their summed vectors.
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, NamedTuple

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


class Context(NamedTuple):
    """What an item needs (sent to the workers whole)."""

    #: "queens" or "rows" (the row search), "queens-anywhere" or "anywhere" (the squares search).
    search: str
    rows: int
    n: int
    #: Each item: a prefix of columns (the row search) or (row, column) of the first piece (the
    #: squares search), and its weight.
    items: list[tuple[tuple[int, ...], int]]
    #: The attack table and free columns the generic kernels read (None for open queens); for
    #: the squares search also the attack table's row of each square (`layouts.tables`).
    board: tuple[np.ndarray, ...] | None
    #: The profile's last depth: the rows, or the most pieces placed anywhere.
    depth: int
    #: The depth of an item's root: 0, or the pre-placed pieces placed anywhere.
    offset: int


def context(problem: Problem) -> tuple[Context, list[int]]:
    """The items of `problem`'s profile, and what no item counts: the root and, for the row
    search of open queens, the first row's nodes (items start at the second row)."""
    if problem.anywhere:
        return _anywhere(problem)
    m, n = problem.rows, problem.n
    base = [0] * (m + 1)
    base[0] = 1
    if _open_queens(problem) and m >= 2:
        base[1] = n
        items = [((c0, c1), w) for c0, w in _left_half(n) for c1 in range(n) if abs(c1 - c0) > 1]
        return Context("queens", m, n, items, None, m, 0), base
    attack, free = tables(problem)
    items = [((c,), 1) for c in range(n) if int(free[0]) >> c & 1]
    return Context("rows", m, n, items, (attack, free), m, 0), base


def _anywhere(problem: Problem) -> tuple[Context, list[int]]:
    """The squares search's items: the root is the pre-placed pieces (none where they attack
    each other), an item each square the first piece placed may take."""
    m, n, most = problem.rows, problem.n, problem.pieces
    base = [0] * (most + 1)
    if _open_queens(problem):
        base[0] = 1
        items = [((r, c), w) for r in range(m) for c, w in _left_half(n)]
        return Context("queens-anywhere", m, n, items, None, most, 0), base
    t = layouts.tables(problem, ())
    offset = len(problem.fixed)  # (never more than `most`: the problem refuses that)
    if t is None:
        return Context("anywhere", m, n, [], None, most, offset), base
    unit_at, attack, start = t[0], t[4], t[6]
    free = start[:-1].copy()
    base[offset] = 1
    squares = [(r, c) for r in range(m) for c in range(n) if int(free[r]) >> c & 1] if offset < most else []
    return Context("anywhere", m, n, [(sq, 1) for sq in squares], (attack, free, unit_at), most, offset), base


def _left_half(n: int) -> list[tuple[int, int]]:
    """The columns of a row's left half, each with its weight: a column and its mirror image
    root trees of one shape, so each counts twice, the middle one of an odd row once."""
    return [(c, 1 if 2 * c + 1 == n else 2) for c in range((n + 1) // 2)]


def item_vector(ctx: Context, i: int, stop: np.ndarray) -> tuple[np.ndarray, bool]:
    """Item i's nodes by depth, weighted, and whether it ran to its end."""
    from .kernels import profile as kernels

    prefix, weight = ctx.items[i]
    out = np.zeros(ctx.depth + 1, np.int64)
    m, n = ctx.rows, ctx.n
    if ctx.search == "queens":
        done = kernels.queens(m, n, np.array(prefix, np.int64), stop, out)
    elif ctx.search == "queens-anywhere":
        done = kernels.queens_anywhere(m, n, prefix[0], prefix[1], ctx.depth, stop, out)
    elif ctx.search == "anywhere":
        attack, free, unit_at = ctx.board  # type: ignore[misc]
        first = prefix[0] * n + prefix[1]
        done = kernels.anywhere(m, n, unit_at, attack, free, first, ctx.depth - ctx.offset, stop, out[ctx.offset :])
    else:
        attack, free = ctx.board  # type: ignore[misc]
        done = kernels.profile(m, n, attack, free, np.int64(prefix[0]), stop, out)
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
    that the rules allow among themselves; the last, the solutions), or, for pieces anywhere, at
    depth 0..pieces of the squares search (entry k: the placements of k pieces): the items on
    `workers` threads. Raises Unknown at a stop."""
    ctx, base = context(problem)
    total = np.array(base, np.int64)
    size = len(ctx.items)
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
    split, depth = SPLITS[ctx.search]
    saved = fingerprint(problem, depth) | {"split": split}
    warm = functools.partial(_warm, ctx.search)
    return Partition(saved, len(ctx.items), item_count, ctx, warm, algorithm="profile", wide=True), base


#: A checkpoint's name for each search's items, and the rows an item fixes (the squares
#: search's item is a square, which fixes the rows above it empty: "depth" 1, its first piece).
SPLITS = {
    "queens": ("profile-two-rows", 2),
    "rows": ("profile-first-row", 1),
    "queens-anywhere": ("profile-squares-queens", 1),
    "anywhere": ("profile-squares", 1),
}


#: A small board each search serves, whose first item loads its kernel.
_WARM: dict[str, dict[str, Any]] = {
    "queens": {},
    "rows": {"blocked": [(3, 3)]},
    "queens-anywhere": {"pieces": 2},
    "anywhere": {"pieces": 2, "piece": "N"},
}


def _warm(search: str) -> None:
    """The kernel of `search` loaded in this process (before forking the workers that share
    it), and none of the others'."""
    ctx, _ = context(Problem(4, **_WARM[search]))
    assert ctx.search == search
    item_count(ctx, 0)


def _open_queens(problem: Problem) -> bool:
    """Queens on a board with nothing on it and no wrap: the classic search's own kernel."""
    plain = not (problem.blocked or problem.fixed or problem.walls or problem.torus or problem.regions)
    return plain and problem.rule.notation == "Q" and problem.n <= 64
