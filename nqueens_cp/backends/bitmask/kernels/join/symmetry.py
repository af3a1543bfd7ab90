"""The count of one column set's class: the top and bottom partials matched under the
symmetries that fold the count (the mirrors, the long diagonals' reflections, and on an even
board the top-bottom mirror that maps a set onto its complement)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....watch import FLAG
from ..bits import ONE as _ONE
from ..bits import ZERO as _ZERO
from ..bits import popcount
from .bands import _bands, listed
from .column_sets import _mirror, _reversed
from .matcher import matching
from .space import SLOT_FLIPPED_TOP, SLOT_FLIPPED_UNDER, SLOT_TOP, SLOT_UNDER, _scratch, new_space


@njit(cache=True, nogil=True)
def flipped(signatures, n, space, slot):
    """The signatures of the top-bottom mirror images (row r to n - 1 - r) of partials of the
    same columns, in space[slot]: a / diagonal d becomes the \\ diagonal 2n - 2 - d and the
    other way round, so the two (n - 1)-bit halves of a signature swap and each is read
    backwards, which is the whole 2n - 2 bits read backwards."""
    out = _scratch(space, slot, signatures.shape[0])[: signatures.shape[0]]
    shift = np.uint64(64 - 2 * (n - 1))
    for i in range(signatures.shape[0]):
        out[i] = _reversed(signatures[i]) >> shift
    return out


@njit(cache=True, nogil=True)
def _weighed(top, bottom, diagonals, unoccupied, left_out, space, stop):
    """The pairs of top x bottom that match, where a bottom partial with a bit of `left_out`
    (a queen on a long diagonal) is left out and a top partial weighs 2 per long diagonal it
    occupies (a bit of `diagonals`), or `unoccupied` when it occupies neither (_count_set)."""
    keep = 0
    for x in bottom:
        keep += (x & left_out) == _ZERO
    if keep == 0 or top.shape[0] == 0:
        return 0
    # (the copies are branch-free: each word is written, and kept by moving on past it; one
    # place more than kept takes the last write)
    kept = np.empty(keep + 1, np.uint64)
    j = _ZERO  # (unsigned indices: no negative-index wrap)
    for x in bottom:
        kept[j] = x
        j += np.uint64((x & left_out) == _ZERO)
    kept = kept[:keep]
    weight = np.empty(top.shape[0], np.int64)
    used = 0
    for i in range(np.uint64(top.shape[0])):
        d = popcount(top[i] & diagonals)
        weight[i] = (1 << d) if d else unoccupied
        used += weight[i] != 0
    if used == 0:
        return 0
    tops = np.empty(used + 1, np.uint64)
    weights = np.empty(used + 1, np.int64)
    j = _ZERO
    for i in range(np.uint64(top.shape[0])):
        tops[j], weights[j] = top[i], weight[i]
        j += np.uint64(weight[i] != 0)
    tops, weights = tops[:used], weights[:used]
    ones = np.ones(keep, np.int64)
    if used <= keep:
        return matching(tops, weights, kept, ones, space, stop)
    return matching(kept, ones, tops, weights, space, stop)


@njit(cache=True, nogil=True)
def _count_set(n, c, weight, tables, space, stop):
    """The solutions of the column set c's class, `weight` sets (see column_sets), counted
    under the long diagonals' symmetries as well as the mirrors:
    - The reflection in the anti-diagonal (r, c) -> (n - 1 - c, n - 1 - r) keeps every square
      of the anti-diagonal and maps the main diagonal's top squares onto its bottom ones; the
      reflection in the main diagonal does the same the other way round. So solutions with a
      queen on a long diagonal in the bottom half are the images of those with it in the top:
      counting only solutions whose bottom half has no queen on a long diagonal (the centre of
      an odd board aside, which both reflections keep), each twice per long diagonal its top
      half holds, counts every solution once.
    - The left-right mirror swaps the two long diagonals and keeps the halves, so it still maps
      c's count onto its mirror image's. The top-bottom mirror swaps the halves, so it holds
      only for solutions with no queen on a long diagonal: on an even board those of c and of
      its complement are counted once, twice, for c (`unoccupied` 2 and 0), or once each when
      the complement is c's own mirror image.
    The top partials of c are the mirror images of the bottom partials of c's columns, so on
    an even board each of c and its complement is listed once and serves both."""
    h = n // 2
    full = (_ONE << np.uint64(n)) - _ONE
    other = full & ~c
    _, forbid = _bands(n)
    diagonals = (_ONE << np.uint64(n - 1 - h)) | (_ONE << np.uint64(2 * n - 2 - h))
    t0, t1, t2, t3 = tables
    if n % 2 == 1:
        top = listed(n, h, 0, h, c, forbid, t0, t1, space, SLOT_TOP, stop)
        bottom = listed(n, h, h, n - h, other, forbid, t2, t3, space, SLOT_UNDER, stop)
        return weight * _weighed(top, bottom, diagonals, 1, _ZERO, space, stop)  # (forbid left them out)
    mirror = _mirror(c, n)
    mine = 1 if mirror == c else 2  # the sets c's mirror image adds
    top = listed(n, h, 0, h, c, forbid, t0, t1, space, SLOT_TOP, stop)
    under = listed(n, h, 0, h, other, forbid, t0, t1, space, SLOT_UNDER, stop)
    if other == mirror:  # the complement is in c's own class
        return mine * _weighed(top, flipped(under, n, space, SLOT_FLIPPED_UNDER), diagonals, 1, diagonals, space, stop)
    both = _weighed(top, flipped(under, n, space, SLOT_FLIPPED_UNDER), diagonals, 2, diagonals, space, stop)
    both += _weighed(under, flipped(top, n, space, SLOT_FLIPPED_TOP), diagonals, 0, diagonals, space, stop)
    return mine * both


@njit(cache=True, nogil=True)
def count_with(n, sets, weights, tables, stop):
    """The weighted solutions over the top column sets `sets`, the bands listed once in
    `tables` (band_tables(n), kept from one call to the next). A set flag (stop[FLAG],
    watch.py) ends the call within a set's listing or matching; the caller then discards what
    it returns."""
    total = 0
    space = new_space()
    for i in range(sets.shape[0]):
        if stop[FLAG] != 0:
            return total
        total += _count_set(n, sets[i], weights[i], tables, space, stop)
    return total

