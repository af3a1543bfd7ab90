"""The compiled counts of plain queens by ring constellations (`partitions.constellations`): a
constellation's completions, with what its four queens attack taken out of every row first,
and the solutions that the half and the quarter turn fix, which one search over half boards
finds."""

from __future__ import annotations

import numpy as np
from numba import njit

from ...watch import FLAG, NODES
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import full as _full
from .queens import _count_from


@njit(cache=True, inline="always")
def _bit_at(col, n):
    """Bit col, or 0 when col is off the board."""
    if 0 <= col < n:
        return _ONE << np.uint64(col)
    return _ZERO


@njit(cache=True, nogil=True)
def ring_masks(n, k, a, b, c, d, masks):
    """Fill masks with the row masks of constellation (a, b, c, d) of ring k: rows k and n-1-k
    hold columns a and b, rows c and d columns k and n-1-k, and every other row loses those four
    columns and the squares the four queens attack diagonally."""
    lo = k
    hi = n - 1 - k
    one = _ONE
    used = (one << np.uint64(a)) | (one << np.uint64(b)) | (one << np.uint64(lo)) | (one << np.uint64(hi))
    full = _full(n)
    for r in range(n):
        gone = used
        for pr, pc in ((lo, a), (hi, b), (c, lo), (d, hi)):
            gap = abs(r - pr)
            gone |= _bit_at(pc - gap, n) | _bit_at(pc + gap, n)
        masks[r] = full & ~gone
    masks[lo] = one << np.uint64(a)
    masks[hi] = one << np.uint64(b)
    masks[c] = one << np.uint64(lo)
    masks[d] = one << np.uint64(hi)


@njit(cache=True, nogil=True)
def count_ring(n, k, items, weights, out, stop):
    """out[i] = weights[i] times the completions of constellation items[i] = (a, b, c, d) of ring
    k on a plain queens board: the queens of rows k and n-1-k in columns a and b, those of columns
    k and n-1-k in rows c and d. What the four queens attack is taken out of every row's mask
    first, so the search, from the first row down, meets no square they attack."""
    masks = np.empty(n, np.uint64)
    for i in range(items.shape[0]):
        if stop[FLAG] != 0:
            return
        ring_masks(n, k, items[i, 0], items[i, 1], items[i, 2], items[i, 3], masks)
        out[i] = weights[i] * _count_from(masks, True, False, 0, _ZERO, _ZERO, _ZERO, stop)


@njit(cache=True, nogil=True)
def count_point_symmetric(n, stop):
    """(P, R): the plain n-queens solutions fixed by the half turn, and those fixed by the
    quarter turn (n <= 32). A half-turn solution is its top half: queens are placed in pairs
    (r, x) and (n-1-r, n-1-x), row by row down to the middle (odd n: the centre square holds a
    queen); each complete one is tested for the quarter turn (s[s[r]] = n-1-r)."""
    half = n // 2
    m = n - 1
    cols = np.zeros(half + 1, np.uint64)
    sums = np.zeros(half + 1, np.uint64)  # diagonals r + c, 0..2n-2
    difs = np.zeros(half + 1, np.uint64)  # anti-diagonals r - c + n - 1
    cand = np.zeros(half + 1, np.int64)  # next column to try at each level
    place = np.zeros(n, np.int64)
    if n % 2:
        c = m // 2
        place[c] = c
        cols[0] = _ONE << np.uint64(c)
        sums[0] = _ONE << np.uint64(2 * c)
        difs[0] = _ONE << np.uint64(m)
    p = 0
    q = 0
    r = 0
    placed = 0  # pairs placed: this search's nodes, added to stop[NODES]
    cand[0] = 0
    while r >= 0:
        if r == half:
            p += 1
            fixed = True
            for i in range(n):
                if place[place[i]] != m - i:
                    fixed = False
                    break
            q += fixed
            r -= 1
            continue
        x = cand[r]
        if x >= n:
            if stop[FLAG] != 0:
                stop[NODES] += placed
                return p, q
            r -= 1
            continue
        cand[r] = x + 1
        y = m - x
        r2 = m - r
        if x == y or r + x == m or r == x:  # the pair would share a column or a diagonal
            continue
        bits = (_ONE << np.uint64(x)) | (_ONE << np.uint64(y))
        s = (_ONE << np.uint64(r + x)) | (_ONE << np.uint64(r2 + y))
        d = (_ONE << np.uint64(r - x + m)) | (_ONE << np.uint64(r2 - y + m))
        if (cols[r] & bits) != _ZERO or (sums[r] & s) != _ZERO or (difs[r] & d) != _ZERO:
            continue
        place[r] = x
        place[r2] = y
        placed += 1
        cols[r + 1] = cols[r] | bits
        sums[r + 1] = sums[r] | s
        difs[r + 1] = difs[r] | d
        r += 1
        cand[r] = 0
    stop[NODES] += placed
    return p, q
