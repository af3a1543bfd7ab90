"""The count of the sets of k pieces that dominate a board cut into numbered work items: one a
square the first piece (in square order) takes (`kernels.cover`), those of the first row cut
again by the second piece's square, since every set starts there or later and their subtrees
are the heaviest (`_item`). The list is fixed for a problem and k, so item i means the same in
every run."""

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

    problem, k, independent, (cover, attack, last, need, allow, spill, most), first = ctx
    if k == 0:  # the optimum is the pre-placed pieces alone, which cover: item 0 holds their one set
        return Counts(int(0 in indices.tolist()))
    none = np.zeros((0, max(1, k)), np.int64)
    squares = problem.rows * problem.n
    total = 0
    for i in indices.tolist():
        one, two = _item(i, k, problem.n, squares)
        tables = (cover, attack, last, need, allow, k, independent, spill, most, first, stop, none, one, two)
        total += int(search(problem.n, *tables))
    return Counts(total)


def _item(i: int, k: int, n: int, squares: int) -> tuple[int, int]:
    """Item i's first square and second (-1: any): the first row's squares hold the heaviest
    subtrees (every set starts there or later), so each is cut again by its second piece's
    square; the others are whole."""
    if k < 2:
        return i, -1
    cut = n * squares  # (the first row's squares, each with a second square of the board)
    return (i // squares, i % squares) if i < cut else (n + i - cut, -1)


def size(problem: Problem, k: int) -> int:
    """How many items: the first row's squares by every second square, then the rest whole."""
    squares = problem.rows * problem.n
    return squares if k < 2 else problem.n * squares + squares - problem.n


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
        size(problem, k),
        run,
        (problem, k, independent, tables, first),
        load,
        per_call=SLICE,
    )
