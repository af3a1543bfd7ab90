"""The compiled test that a solution is canonical: the smallest of its symmetry class, as the
row tuples compare, under a group of the board's symmetries given as rows of
`symmetry.table_array`. The classes' searches (`partitions.classes`) run it on every batch
they enumerate."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _image(sol, t, img):
    """img = the image of solution `sol` under the symmetry whose row of
    nqueens_cp.symmetry.TABLE is t = (transpose, reflect rows, reflect columns)."""
    m = sol.shape[0] - 1
    for r in range(sol.shape[0]):
        a, b = r, sol[r]
        if t[0]:
            a, b = b, a
        if t[1]:
            a = m - a
        if t[2]:
            b = m - b
        img[a] = b


@njit(cache=True)
def count_canonical(sols, table, by_orbit):
    """Add to by_orbit[k] the canonical solutions among the rows of `sols` whose class has k
    members, under the group whose symmetries are the rows of `table` (symmetry.table_array)."""
    n = sols.shape[1]
    img = np.empty(n, sols.dtype)
    for i in range(sols.shape[0]):
        sol = sols[i]
        canonical = True
        stabilizer = 0
        for g in range(table.shape[0]):
            _image(sol, table[g], img)
            order = 0  # -1: image smaller, 0: equal, 1: larger
            for r in range(n):
                if img[r] != sol[r]:
                    order = -1 if img[r] < sol[r] else 1
                    break
            if order < 0:
                canonical = False
                break
            if order == 0:
                stabilizer += 1
        if canonical:
            by_orbit[table.shape[0] // stabilizer] += 1
