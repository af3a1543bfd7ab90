"""Counting small boards a row at a time on numpy arrays, with no compiled kernel.

A fresh process spends most of a small count loading numba and its cached kernels (about 0.8 s
here, which numba cannot cut), while the count itself takes milliseconds. So the boards a user
counts every day are counted here instead: every partial placement of the first rows is one
entry of three arrays (the columns and the two diagonals it attacks, as the row search keeps
them), each row expands all of them at once by each free column, and the last row is counted,
not expanded. Where the board keeps its mirror image, the first row's left half is counted
twice (and its middle column once). The arrays hold every partial placement of a row at once,
so their size is bounded from the board before anything is allocated (`peak_bytes`): 11 MB at
n = 12.
"""

from __future__ import annotations

import numpy as np

from ...model.problem import Problem
from ..base import Deadline

#: The most partial placements of one row, a classic board of n columns, none blocked (the
#: peak is the row of most, found by this counter; blocked squares only remove entries).
PEAK_ENTRIES = {
    **{1: 1, 2: 2, 3: 6, 4: 6, 5: 14, 6: 46, 7: 164, 8: 568},
    **{9: 2292, 10: 9632, 11: 44148, 12: 222720, 13: 1151778},
}

#: Bytes an entry costs at the peak: three int64 arrays for a row and the pieces of the next.
ENTRY_BYTES = 6 * 8


def peak_bytes(problem: Problem) -> int:
    """What the arrays may hold at once, declared by the plan before any is made."""
    return PEAK_ENTRIES[problem.n] * ENTRY_BYTES


def count(problem: Problem, deadline: Deadline) -> int:
    """The number of solutions of a queen or rook board of at most 13 columns (blocked and
    fixed squares in its row masks); the deadline is looked at between rows."""
    n, m = problem.n, problem.rows
    masks = list(problem.row_masks)
    diagonals = problem.rule.diagonals
    if m == 1:
        return masks[0].bit_count()
    if problem.is_mirror_symmetric():
        half = (1 << (n // 2)) - 1
        middle = (1 << (n // 2)) if n % 2 else 0
        return 2 * _count(n, [masks[0] & half, *masks[1:]], diagonals, deadline) + (
            _count(n, [masks[0] & middle, *masks[1:]], diagonals, deadline) if middle else 0
        )
    return _count(n, masks, diagonals, deadline)


def _count(n: int, masks: list[int], diagonals: bool, deadline: Deadline) -> int:
    full = (1 << n) - 1
    cols = np.zeros(1, np.int64)
    left = np.zeros(1, np.int64)  # squares attacked along the diagonal going left, next row
    right = np.zeros(1, np.int64)
    for mask in masks[:-1]:
        deadline.check()
        free = ~(cols | left | right) & mask
        grown: tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]] = ([], [], [])
        for c in range(n):
            bit = np.int64(1 << c)
            chosen = (free & bit) != 0
            if not chosen.any():
                continue
            grown[0].append(cols[chosen] | bit)
            if diagonals:
                grown[1].append(((left[chosen] | bit) << 1) & full)
                grown[2].append((right[chosen] | bit) >> 1)
        if not grown[0]:
            return 0
        cols = np.concatenate(grown[0])
        if diagonals:
            left, right = np.concatenate(grown[1]), np.concatenate(grown[2])
        else:
            left = right = np.zeros(1, np.int64)
    free = ~(cols | left | right) & masks[-1]
    return int(np.bitwise_count(free).sum())
