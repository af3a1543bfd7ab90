"""The join on a board of fewer rows than columns (m x n, m < n): m queens, a row each, in
distinct columns, as the pairs of a top partial (its first h = m // 2 rows, on a set C of h
columns) and a bottom partial (the other m - h rows, on any m - h of the other columns) that
share no diagonal.

Why: on a square the bottom's columns are C's complement, one list a set; on a rectangle they
are any m - h of the n - h others. So a set's bottom list holds every placement of the bottom
rows that avoids C, found by one search, and the matcher counts its pairs with C's top
partials as it does on a square (the signatures are the diagonals that cross from one half into
the other, n - 1 of each direction wherever the halves meet).

Symmetry: the rectangle keeps the left-right mirror and, with an even number of rows, the
top-bottom mirror, which swaps the halves. A pair (C, D), D the bottom's columns, is counted in
its class {(C, D), (C', D'), (D, C), (D', C')} (' the mirror image; the last two only with an
even m) where it is the smallest, weighing the class's size: C runs over the sets no larger than
their mirror image (`list_rectangle_sets`), and each bottom partial has its own weight, 0 where
its pair is not the smallest (`_class_weight`). Measured against the constellation counter in
docs/benchmarks.md (the join on rectangles)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....watch import FLAG
from ..bits import ONE as _ONE
from .bands import _UNBOUNDED, _placed, _signature, listed
from .column_sets import _mirror, _next_of_size
from .matcher import matching
from .space import SLOT_TOP, SLOT_UNDER, SLOT_WEIGHTS, _scratch, new_space


@njit(cache=True, nogil=True)
def list_rectangle_sets(m, n, out):
    """Every set of m // 2 of n columns that is no larger than its mirror image, in increasing
    order, into `out`: the number listed."""
    full = (np.int64(1) << n) - 1
    c = (np.int64(1) << (m // 2)) - 1
    k = 0
    while c <= full:
        if np.uint64(c) <= _mirror(c, n):
            out[k] = c
            k += 1
        c = _next_of_size(c) if c != 0 else full + 1
    return k


@njit(cache=True, nogil=True, inline="always")
def _before(a0, a1, b0, b1):
    """Whether the pair (a0, a1) comes before (b0, b1) (by their first sets, then their second)."""
    return a0 < b0 or (a0 == b0 and a1 < b1)


@njit(cache=True, nogil=True)
def _class_weight(c, mc, d, md, even):
    """The weight of the pair of columns (c, d), mc and md their mirror images: the size of its
    class under the mirrors (the top-bottom one swaps c and d, on an even number of rows), or 0
    where another of the class comes before it. (c, d) and (d, c) differ (disjoint, not empty),
    so two images can meet only as the left-right mirror's or the half turn's fixed points."""
    if _before(mc, md, c, d):
        return 0
    if not even:
        return 1 if (mc == c and md == d) else 2
    if _before(d, c, c, d) or _before(md, mc, c, d):
        return 0
    return 2 if (mc == c and md == d) or (md == c and mc == d) else 4


@njit(cache=True, nogil=True)
def bottom_placements(m, n, c, space):
    """Every placement of the bottom rows (m // 2..) on the columns the top set c leaves, as
    (k, d1, d2, used): their number, their diagonals and their columns, as masks (views of
    space's placements)."""
    full = (_ONE << np.uint64(n)) - _ONE
    column = np.zeros(n, np.int64)  # (_placements ORs its columns' entries)
    for x in range(n):
        column[x] = 1 << x
    h = m // 2
    return _placed(n, h, m - h, full & ~np.uint64(c), np.zeros(m, np.uint64), column, _UNBOUNDED, space)


@njit(cache=True, nogil=True)
def _bottoms(m, n, c, space):
    """The signatures of the bottom partials of the top set c (the rows m // 2.. on any of the
    columns c leaves), those whose pair is the smallest of its class, in space[SLOT_UNDER],
    and their weights, in space[SLOT_WEIGHTS]."""
    h = m // 2
    k, d1, d2, used = bottom_placements(m, n, c, space)
    mc = _mirror(c, n)
    sig = _scratch(space, SLOT_UNDER, k)
    weights = _scratch(space, SLOT_WEIGHTS, k).view(np.int64)
    kept = 0
    for i in range(k):
        d = np.uint64(used[i])
        w = _class_weight(np.uint64(c), mc, d, _mirror(d, n), m % 2 == 0)
        sig[kept] = _signature(n, d1[i], d2[i], h)
        weights[kept] = w
        kept += w != 0
    return sig[:kept], weights[:kept]


@njit(cache=True, nogil=True)
def count_rectangles(m, n, sets, stop):
    """The weighted placements of m queens on an m x n board (m < n) over the top column sets
    `sets` (from list_rectangle_sets). A set flag (stop[FLAG], watch.py) ends the call within a
    set's listing or matching; the caller then discards what it returns."""
    h = m // 2
    forbid = np.zeros(m, np.uint64)
    none = (np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.uint64))
    space = new_space()
    total = 0
    for i in range(sets.shape[0]):
        if stop[FLAG] != 0:
            return total
        c = sets[i]
        top = listed(n, h, 0, h, np.uint64(c), forbid, none, none, space, SLOT_TOP, stop)
        if top.shape[0] == 0:
            continue
        bottom, weights = _bottoms(m, n, c, space)
        if bottom.shape[0] == 0:
            continue
        ones = np.ones(top.shape[0], np.int64)
        if top.shape[0] <= bottom.shape[0]:
            total += matching(top, ones, bottom, weights, space, stop)
        else:
            total += matching(bottom, weights, top, ones, space, stop)
    return total
