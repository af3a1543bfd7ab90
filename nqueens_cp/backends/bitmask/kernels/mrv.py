"""numba kernel of the bitmask backend's search for constrained boards (blocked or fixed squares).

Instead of filling rows top to bottom, each step branches on the most constrained line: the
unfilled row or column with the fewest free squares, counted by popcount over per-row and
per-column bitmasks kept side by side. Placing a piece clears what it attacks in both views
with O(n) word operations, and the search fails as soon as an unfilled row or column has no
free square. Every solution is reached exactly once (a branch fixes the one square a line
holds), so the same loop counts and finds. Within a line, squares are tried fail-first: the
one whose crossing line is most constrained comes first.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..slots import AT, DONE
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import lowbit, popcount, trailing_zeros


@njit(cache=True, inline="always")
def _bit(i, n):
    """Bit i if 0 <= i < n, else 0."""
    if 0 <= i < n:
        return _ONE << np.uint64(i)
    return _ZERO


@njit(cache=True, inline="always")
def _clear(view, level, line, pos, n, diag):
    """In one view (rows, or columns), a piece on line `line` at position `pos`: empty that
    line and, in every other line i, clear position pos and for queens pos +/- (i - line)."""
    for i in range(n):
        d = i - line
        kill = _bit(pos, n)
        if diag:
            kill |= _bit(pos + d, n) | _bit(pos - d, n)
        view[level, i] &= ~kill
    view[level, line] = _ZERO


@njit(cache=True)
def _place(rf, cf, src, dst, r, c, n, diag):
    """Copy level src to dst and put a piece on (r, c) in the row view and the column view."""
    for i in range(n):
        rf[dst, i] = rf[src, i]
        cf[dst, i] = cf[src, i]
    _clear(rf, dst, r, c, n, diag)
    _clear(cf, dst, c, r, n, diag)


@njit(cache=True)
def _select(rf, cf, level, rows_done, cols_done, n):
    """The most constrained unfilled line as (kind, index, free squares): kind 0 a row, 1 a
    column; free squares 0 means a dead end."""
    best = n + 1
    kind = 0
    index = -1
    for i in range(n):
        if (rows_done >> np.uint64(i)) & _ONE == _ZERO:
            k = popcount(rf[level, i])
            if k < best:
                best, kind, index = k, 0, i
                if k == 0:
                    return kind, index, 0
        if (cols_done >> np.uint64(i)) & _ONE == _ZERO:
            k = popcount(cf[level, i])
            if k < best:
                best, kind, index = k, 1, i
                if k == 0:
                    return kind, index, 0
    return kind, index, best


@njit(cache=True, inline="always")
def _fail_first(cand, crossing):
    """Of the untried squares of the branching line, the one whose crossing line has the
    fewest free squares (ties: the lowest): on hard generated boards it halves the total time of
    the plain lowest-first order (docs/benchmarks.md § The most-constrained line, fail first)."""
    best = 65
    pick = _ZERO
    rest = cand
    while rest != _ZERO:
        b = lowbit(rest)
        rest ^= b
        k = popcount(crossing[trailing_zeros(b)])
        if k < best:
            best = k
            pick = b
    return pick


def new_state(n: int) -> tuple[np.ndarray, ...]:
    """Search state for `run`: per level the row and column views, the lines already filled,
    the line branched on, its untried squares and the square placed; st = [level, done]."""
    levels = n + 1
    return (
        np.zeros((levels, n), np.uint64),  # rf: free columns of each row
        np.zeros((levels, n), np.uint64),  # cf: free rows of each column
        np.zeros(levels, np.uint64),  # rows_done
        np.zeros(levels, np.uint64),  # cols_done
        np.zeros(levels, np.int64),  # kind: 0 row, 1 column
        np.zeros(levels, np.int64),  # index of that line
        np.zeros(levels, np.uint64),  # cand: its squares not tried yet
        np.zeros(levels, np.int64),  # pr: row placed at this level
        np.zeros(levels, np.int64),  # pc: column placed at this level
        np.zeros(2, np.int64),  # st
    )


@njit(cache=True)
def start(masks, rf, cf, rows_done, cols_done, kind, index, cand, pr, pc, st):
    n = masks.shape[0]
    for r in range(n):
        rf[0, r] = masks[r]
        for c in range(n):
            if (masks[r] >> np.uint64(c)) & _ONE:
                cf[0, c] |= _ONE << np.uint64(r)
    k0, i0, free = _select(rf, cf, 0, _ZERO, _ZERO, n)
    st[AT] = 0
    st[DONE] = 1 if free == 0 else 0
    kind[0], index[0] = k0, i0
    if free:
        cand[0] = rf[0, i0] if k0 == 0 else cf[0, i0]


@njit(cache=True)
def run(masks, diag, rf, cf, rows_done, cols_done, kind, index, cand, pr, pc, st, stop_at, budget, place):
    """Go on with the search: stop after `stop_at` solutions (0: never) or `budget` placements.
    Returns (solutions found in this call, placements made); st[DONE] is set when the search is
    over. The last solution found is written to `place`."""
    n = masks.shape[0]
    found = 0
    nodes = 0
    d = st[AT]
    while st[DONE] == 0:
        if d < 0:
            st[DONE] = 1
            break
        if nodes >= budget:
            break
        a = cand[d]
        if a == _ZERO:
            d -= 1
            continue
        bit = _fail_first(a, cf[d] if kind[d] == 0 else rf[d])
        cand[d] = a ^ bit
        j = trailing_zeros(bit)
        r, c = (index[d], j) if kind[d] == 0 else (j, index[d])
        pr[d], pc[d] = r, c
        nodes += 1
        _place(rf, cf, d, d + 1, r, c, n, diag)
        rows_done[d + 1] = rows_done[d] | (_ONE << np.uint64(r))
        cols_done[d + 1] = cols_done[d] | (_ONE << np.uint64(c))
        if d + 1 == n:
            found += 1
            for i in range(n):
                place[pr[i]] = pc[i]
            if found == stop_at:
                break
            continue
        k1, i1, free = _select(rf, cf, d + 1, rows_done[d + 1], cols_done[d + 1], n)
        if free == 0:
            continue
        d += 1
        kind[d], index[d] = k1, i1
        cand[d] = rf[d, i1] if k1 == 0 else cf[d, i1]
    st[AT] = d
    return found, nodes
