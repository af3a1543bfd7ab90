"""The count of boards with walls, pieces anywhere or pawns cut into numbered work items: one a
class of pawn sets under the board's symmetries (weighted by its size), or, with no pawns, one
a square the first piece takes (`layouts.work`). The list is fixed for a problem, so item i
means the same in every run, and the fingerprint holds a digest of it.
"""

from __future__ import annotations

import numpy as np

from ....model.problem import Problem
from ...base import Deadline
from .. import layouts
from .base import Counts, Items, Split, fingerprint, warm

#: Items one call counts in this process (many are small).
SLICE = 16

Context = tuple[Problem, np.ndarray]


def run(ctx: Context, indices: np.ndarray, stop: np.ndarray, deadline: Deadline | None = None) -> Counts:
    """The weighted counts of items `indices` (a stop leaves what was counted: a lower bound)."""
    problem, rows = ctx
    return Counts(sum(layouts.count_item(problem, rows[i], stop) for i in indices.tolist()))


def items(problem: Problem) -> Items:
    rows = layouts.work(problem)
    ctx = (problem, rows)
    return Items(
        fingerprint(problem, 0, Split.LAYOUTS) | {"rows": problem.rows, "sub_problems": layouts.digest(rows)},
        rows.shape[0],
        run,
        ctx,
        lambda: warm(run, (Problem(3, walls=[(1, 1)]), layouts.work(Problem(3, walls=[(1, 1)])))),
        per_call=SLICE,
    )
