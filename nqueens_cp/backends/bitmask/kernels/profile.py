"""The compiled count of a row search's nodes at each depth: the profile of the backtrack tree
(OEIS A319284 for queens; its row sums A319283).

The search places one piece a row, top to bottom, each square's attacks a mask a row (the
layouts' `attacks` table, its whole row included). A node at depth k is a placement of the
first k rows that the rules allow among themselves, so the profile's entry k is also the count
of the board's first k rows alone: the tests hold it to that count, made by the engine's other
searches.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import popcount as _popcount
from .bits import trailing_zeros


@njit(cache=True, nogil=True)
def profile(m, n, attack, free, first, stop, out):
    """Add to out[k] the nodes at depth k >= 1 of the row search of an m-row board in the branch
    whose row-0 piece stands in column `first` (a work item; the root is the caller's):
    `attack[s, r]` the columns of row r a piece on square s = r * n + c attacks, `free[r]` the
    columns row r may take. Stops when stop[0] is set (checked every 65,536 nodes) and returns
    False; True when the branch was walked."""
    avail = np.zeros((m + 1, m), np.uint64)
    bits = np.zeros(m + 1, np.uint64)
    for r in range(m):
        avail[0, r] = free[r]
    bits[0] = free[0] & (_ONE << np.uint64(first))
    d = 0
    spent = 0
    while d >= 0:
        if bits[d] == 0:
            d -= 1
            continue
        low = bits[d] & (~bits[d] + _ONE)
        bits[d] ^= low
        s = d * n + trailing_zeros(low)
        out[d + 1] += 1
        spent += 1
        if spent & 0xFFFF == 0 and stop[0]:
            return False
        if d + 1 < m:
            for r in range(d + 1, m):
                avail[d + 1, r] = avail[d, r] & ~attack[s, r]
            bits[d + 1] = avail[d + 1, d + 1]
            d += 1
    return True


@njit(cache=True, nogil=True)
def queens(m, n, prefix, stop, out):
    """`profile` for queens on an open m x n board with nothing blocked, below the node whose
    first rows hold `prefix` (a column a row, 1 <= len(prefix) < m): that node itself (at depth
    len(prefix), where its queens do not attack each other) and every node under it. The
    classic search: a row's attacks three words (columns, diagonals shifted a row at a time),
    each node in O(1). A node's children are counted at once, by the bits of its free columns,
    as it is made; so a child with no free column, or one on the last row but one (whose
    children are the tree's leaves), is made and counted without a step down and back. The
    level being walked lives in locals (its words, its untried columns, its grandchildren so
    far), saved to the stack only on a step down: siblings then never wait on a store to memory."""
    full = (_ONE << np.uint64(n)) - _ONE if n < 64 else ~np.uint64(0)
    cols = np.zeros(m + 1, np.uint64)
    left = np.zeros(m + 1, np.uint64)
    right = np.zeros(m + 1, np.uint64)
    avail = np.zeros(m + 1, np.uint64)
    below = np.zeros(m + 3, np.int64)  # out's entries under the prefix's children, summed once at the end
    c, lt, rt = _ZERO, _ZERO, _ZERO
    for col in prefix:
        bit = _ONE << np.uint64(col)
        if bit & (c | lt | rt):
            return True
        c, lt, rt = c | bit, ((lt | bit) << _ONE) & full, (rt | bit) >> _ONE
    d = prefix.shape[0]
    out[d] += 1
    if d == m:
        return True
    nxt = full & ~(c | lt | rt)
    out[d + 1] += _popcount(nxt)
    if d + 1 == m or nxt == _ZERO:
        return True
    top = d
    c0, l0, r0, untried = c, lt, rt, nxt  # the node at depth d whose children are being made
    found = np.int64(0)  # their children, counted so far (depth d + 2)
    spent = 0
    while True:
        if untried == _ZERO:
            below[d + 2] += found
            found = 0
            if d == top:
                break
            d -= 1
            c0, l0, r0, untried = cols[d], left[d], right[d], avail[d]
            continue
        low = untried & (~untried + _ONE)
        untried ^= low
        spent += 1
        if spent & 0xFFFF == 0 and stop[0]:
            return False
        c, lt, rt = c0 | low, ((l0 | low) << _ONE) & full, (r0 | low) >> _ONE
        nxt = full & ~(c | lt | rt)
        found += _popcount(nxt)  # the new node's children
        if d + 2 == m or nxt == _ZERO:  # they are leaves, or there are none: no step down
            continue
        below[d + 2] += found
        found = 0
        cols[d], left[d], right[d], avail[d] = c0, l0, r0, untried
        d += 1
        c0, l0, r0, untried = c, lt, rt, nxt
    for k in range(top + 2, m + 1):
        out[k] += below[k]
    return True


@njit(cache=True, nogil=True)
def anywhere(m, n, unit_at, attack, free, first, most, stop, out):
    """Add to out[k] the placements of k >= 1 pieces, placed anywhere a square at a time in
    reading order, whose first piece stands on square `first` (a work item): each placement is
    one node of that search, so out is the profile of the squares search. `unit_at[s]` the row
    of `attack` of square s, `attack[u, r]` the columns of row r its piece attacks (its own
    square included), `free[r]` the columns row r may take; no placement of more than `most`
    pieces is made. Stops as `profile` does."""
    avail = np.zeros((most + 1, m), np.uint64)
    row = np.zeros(most + 1, np.int64)
    bits = np.zeros(most + 1, np.uint64)
    out[1] += 1
    if most == 1:
        return True
    r0 = first // n
    u = unit_at[first]
    for r in range(r0, m):
        avail[1, r] = free[r] & ~attack[u, r]
    low = _ONE << np.uint64(first - r0 * n)
    row[1] = r0
    bits[1] = avail[1, r0] & ~((low << _ONE) - _ONE)  # the row's squares after the piece
    d = 1
    spent = 0
    while d >= 1:
        if bits[d] == 0:
            if row[d] + 1 < m:
                row[d] += 1
                bits[d] = avail[d, row[d]]
            else:
                d -= 1
            continue
        low = bits[d] & (~bits[d] + _ONE)
        bits[d] ^= low
        r = row[d]
        u = unit_at[r * n + trailing_zeros(low)]
        out[d + 1] += 1
        spent += 1
        if spent & 0xFFFF == 0 and stop[0]:
            return False
        if d + 1 == most:
            continue
        for rr in range(r, m):
            avail[d + 1, rr] = avail[d, rr] & ~attack[u, rr]
        row[d + 1] = r
        bits[d + 1] = avail[d + 1, r] & ~((low << _ONE) - _ONE)
        d += 1
    return True


@njit(cache=True, nogil=True)
def queens_anywhere(m, n, row, col, most, stop, out):
    """`anywhere` for queens on an open m x n board, by rows: no two queens share a row, so a
    placement is a row search in which each row below the first queen's holds one queen or
    none, a row's attacks the classic three words. Each placement is counted once, where its
    last row is decided (the last row's queens at once, by its free columns), or where its
    `most`-th queen stands (the rows below it then stay empty)."""
    full = (_ONE << np.uint64(n)) - _ONE if n < 64 else ~np.uint64(0)
    bit = _ONE << np.uint64(col)
    if row == m - 1 or most == 1:
        out[1] += 1
        return True
    cols = np.zeros(m + 1, np.uint64)
    left = np.zeros(m + 1, np.uint64)
    right = np.zeros(m + 1, np.uint64)
    avail = np.zeros(m + 1, np.uint64)
    empty = np.zeros(m + 1, np.bool_)  # the row may still stay empty
    queens = np.zeros(m + 1, np.int64)  # the queens above the row
    d = row + 1
    cols[d], left[d], right[d], queens[d] = bit, (bit << _ONE) & full, bit >> _ONE, 1
    avail[d] = full & ~(cols[d] | left[d] | right[d])
    empty[d] = True
    spent = 0
    while d > row:
        if d == m - 1:
            out[queens[d]] += 1
            if queens[d] < most:
                out[queens[d] + 1] += _popcount(avail[d])
            d -= 1
            continue
        spent += 1
        if spent & 0xFFFF == 0 and stop[0]:
            return False
        if avail[d]:
            low = avail[d] & (~avail[d] + _ONE)
            avail[d] ^= low
            q = queens[d] + 1
            if q == most:  # the rows below stay empty
                out[q] += 1
                continue
            c, lt, rt = cols[d] | low, ((left[d] | low) << _ONE) & full, (right[d] | low) >> _ONE
        elif empty[d]:
            empty[d] = False
            q = queens[d]
            c, lt, rt = cols[d], (left[d] << _ONE) & full, right[d] >> _ONE
        else:
            d -= 1
            continue
        d += 1
        cols[d], left[d], right[d], queens[d] = c, lt, rt, q
        avail[d] = full & ~(c | lt | rt)
        empty[d] = True
    return True
