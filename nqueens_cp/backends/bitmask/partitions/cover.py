"""The count of the sets of k pieces that dominate a board cut into numbered work items: the
search's (`kernels.cover`) root branches on the squares that could cover one square, and each
child again on another's; an item is a branch of the root and one of its child's (the second
number runs to the most squares any square has to cover it, so some items hold no branch and
count none). The list is fixed for a problem and k, so item i means the same in every run."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ....model.problem import Problem
from ...base import Deadline
from .base import Counts, Items, Split, fingerprint

#: Items one call counts in this process.
SLICE = 4

#: (the problem, the pieces, independent, the search's tables, whether an item stops at its
#: first set: a search for one, where the count is not wanted).
Context = tuple[Problem, int, bool, tuple[np.ndarray, ...], bool]


def run(ctx: Context, indices: np.ndarray, stop: np.ndarray, deadline: Deadline | None = None) -> Counts:
    """The sets of items `indices` (a stop leaves what was counted: a lower bound)."""
    from ..kernels.cover import search

    problem, k, independent, (cover, by, attack, need, allow, spill, most), first = ctx
    if k == 0:  # the optimum is the pre-placed pieces alone, which cover: item 0 holds their one set
        return Counts(int(0 in indices.tolist()))
    none = np.zeros((0, max(1, k)), np.int64)
    wide = _widest(by, allow)
    total = 0
    for i in indices.tolist():
        path = np.array(divmod(i, wide) if k > 1 else (i, -1), np.int64)
        tables = (cover, by, attack, need, allow, k, independent, spill, most, first, stop, none, path)
        total += int(search(problem.n, *tables))
    return Counts(total)


def _widest(by: np.ndarray, allow: np.ndarray) -> int:
    """The most allowed squares any square has to cover it: no node has more children."""
    counts = np.unpackbits((by & allow).view(np.uint8), axis=1).sum(axis=1)
    return max(1, int(counts.max()))


def size(problem: Problem, k: int, tables: tuple[np.ndarray, ...]) -> int:
    """How many items: the root's branches, by the most any child can have where k > 1."""
    from ..kernels.cover import root_choices

    _, by, _, need, allow, _, _ = tables
    root = int(root_choices(problem.n, by, need, allow))
    return root * _widest(by, allow) if k > 1 else root


def items(
    problem: Problem,
    k: int,
    independent: bool,
    tables: tuple[np.ndarray, ...],
    load: Callable[[], None],
    first: bool = False,
) -> Items:
    """The sets of k pieces besides the pre-placed ones that dominate `problem`, as the items
    of the module (those whose squares the search never takes count none); with `first`, each
    item stops at its first set. `load` loads the kernel (`optimise`, which makes the tables,
    counts a small board's items)."""
    return Items(
        fingerprint(problem, 0, Split.COVER) | {"pieces": k, "independent": independent, "first": first},
        size(problem, k, tables),
        run,
        (problem, k, independent, tables, first),
        load,
        per_call=SLICE,
    )
