"""The generic kernel's count cut into numbered sub-problems, so that any piece and board shape
counts on the process pool, through checkpoints and on Dask like the queen does.

A sub-problem pins the pieces of the first two rows: (c0, c1, weight), the search then runs
from row 0 with those rows' masks narrowed to the one square (the kernel itself rules out a
pair that attacks). The pairs listed are those the symmetries leave (`rows.first_rows`, as the
in-process count uses them): on a plain torus c0 = 0 only, weighted n (2n for one of each pair
c1, n - c1 where the mirror holds); elsewhere, where the mirror holds, c0 in the left half,
weighted 2 (the middle column of an odd board 1). The order is fixed, so item i means the same
in every run, and the fingerprint holds a digest of the list.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from ...model.problem import Problem
from .rows import count_parts, first_rows, narrowed
from .split import fingerprint
from .tables import masks_array


def items(problem: Problem) -> np.ndarray:
    """The sub-problems as rows (c0, c1, weight), from the parts `rows.first_rows` allows; c1 =
    -1 on a board of one row."""
    n, masks = problem.n, problem.row_masks
    out = []
    for row0, row1, weight in first_rows(problem):
        for c0 in range(n):
            if not (masks[0] & row0) >> c0 & 1:
                continue
            if problem.rows == 1:
                out.append((c0, -1, weight))
                continue
            out += [(c0, c1, weight) for c1 in range(n) if (masks[1] & row1) >> c1 & 1 and c1 != c0]
    return np.array(out, np.int64).reshape(-1, 3)


def context(problem: Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    from . import anykernel as k

    slides, reach = k.tables(problem)
    return masks_array(problem), slides, reach, items(problem)


def count_item_nodes(ctx: tuple[np.ndarray, ...], i: int) -> tuple[int, int]:
    """(weighted count, nodes) of sub-problem i, searched to its end."""
    masks, slides, reach, subs = ctx
    c0, c1, weight = (int(v) for v in subs[i])
    stats: dict[str, int] = {}
    part = narrowed(masks, 1 << c0, 1 << c1 if c1 >= 0 else 0)
    return count_parts(part[None], slides, reach, np.array([weight]), stats), stats["nodes"]


def count_item(ctx: tuple[np.ndarray, ...], i: int) -> int:
    """Work item i of a partitioned count (see nqueens_cp.run.partition)."""
    return count_item_nodes(ctx, i)[0]


def digest(subs: np.ndarray) -> str:
    """What the numbering means, for checkpoint fingerprints (another list is refused)."""
    return hashlib.sha256(np.ascontiguousarray(subs, np.int64).tobytes()).hexdigest()[:16]


def partition(problem: Problem) -> Any:
    from ...run.partition import Partition

    ctx = context(problem)
    return Partition(
        fingerprint(problem, 2) | {"rows": problem.rows, "split": "any-piece", "sub_problems": digest(ctx[3])},
        ctx[3].shape[0],
        count_item,
        ctx,
        lambda: count_item_nodes(context(Problem(4, problem.piece, rows=2)), 0),  # load the kernel
    )
