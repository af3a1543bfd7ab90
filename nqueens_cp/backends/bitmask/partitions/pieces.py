"""The count of any other piece and board cut into numbered sub-problems, so that every piece
and shape counts on the process pool, through checkpoints and on Dask like the queen does.

A sub-problem pins the pieces of the first two rows: (c0, c1, weight), the search then runs
from row 0 with those rows' masks narrowed to the one square (the kernel itself rules out a
pair that attacks). The pairs listed are those the symmetries leave (`tables.first_rows`): on
a plain torus c0 = 0 only, weighted n (2n for one of each pair c1, n - c1 where the mirror
holds); elsewhere, where the mirror holds, c0 in the left half, weighted 2 (the middle column
of an odd board 1). The order is fixed, so item i means the same in every run, and the
fingerprint holds a digest of the list.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ....model.problem import Problem
from ...base import Deadline
from ..searches import count_into
from ..tables import first_rows, masks_array, moves, narrowed
from .base import Counts, Items, Split, fingerprint, warm

#: Sub-problems one compiled call counts in this process (a call costs more than a small one).
SLICE = 64


def pairs(problem: Problem) -> np.ndarray:
    """The sub-problems as rows (c0, c1, weight), from the parts `tables.first_rows` allows; c1 =
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


Context = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def context(problem: Problem) -> Context:
    return (masks_array(problem), *moves(problem), pairs(problem))


def run(ctx: Context, indices: np.ndarray, stop: np.ndarray, deadline: Deadline | None = None) -> Counts:
    """The weighted completions of sub-problems `indices`, in one call of `searches.count_into`
    (the generic kernel, or the piece's own)."""
    masks, slides, reach, subs = ctx
    parts = np.stack(
        [narrowed(masks, 1 << int(c0), 1 << int(c1) if c1 >= 0 else 0) for c0, c1, _ in subs[indices].tolist()]
    )
    weights = np.ascontiguousarray(subs[indices, 2])
    out = np.zeros(indices.size, np.int64)
    count_into(parts, slides, reach, weights, out, stop, deadline)
    return Counts(int(out.sum()))


def digest(subs: np.ndarray) -> str:
    """What the numbering means, for checkpoint fingerprints (another list is refused)."""
    return hashlib.sha256(np.ascontiguousarray(subs, np.int64).tobytes()).hexdigest()[:16]


def items(problem: Problem) -> Items:
    ctx = context(problem)
    return Items(
        fingerprint(problem, 2, Split.ANY_PIECE) | {"rows": problem.rows, "sub_problems": digest(ctx[3])},
        ctx[3].shape[0],
        run,
        ctx,
        lambda: load_kernels(problem),
        per_call=SLICE,
    )


def load_kernels(problem: Problem) -> None:
    """Load the generic kernel in this process (one serves every board of the piece)."""
    warm(run, context(Problem(4, problem.piece, rows=2)))
