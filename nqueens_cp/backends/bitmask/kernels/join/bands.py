"""The half-boards' partial solutions as a join of two bands of rows: each band's placements
are grouped by the columns they use (listed once for every column set where they are few), and
a half's partials are the pairs from complementary groups whose diagonals differ."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....watch import FLAG
from ..bits import ONE as _ONE
from ..bits import ZERO as _ZERO
from ..bits import lowbit, trailing_zeros
from .column_sets import _binomials, _next_of_size, _rank
from .intrinsics import _PACKS, PACKED, _paired_packed
from .space import SLOT_LOWER, SLOT_PLACED, SLOT_UPPER, _scratch, new_space

#: Room for partial solutions at first (grown by doubling, so memory follows the largest list).
FIRST_ROOM = 1 << 12


@njit(cache=True, nogil=True)
def _placements(n, r0, rows, allowed, forbid, position, d1o, d2o, po):
    """Every placement of `rows` queens on rows r0.. in distinct columns of `allowed` (less the
    columns forbid[r] in row r), no two attacking, written to d1o, d2o (its / and \\
    diagonals, r + c and r - c + n - 1, as words) and po (the positions within `allowed` of
    its columns, as a mask): their number, or -1 when the arrays are too small."""
    full = (_ONE << np.uint64(n)) - _ONE
    if rows == 0:
        if d1o.shape[0] == 0:
            return -1
        d1o[0], d2o[0], po[0] = _ZERO, _ZERO, 0
        return 1
    avail = np.zeros(rows, np.uint64)
    cols = np.zeros(rows, np.uint64)
    ld = np.zeros(rows, np.uint64)
    rd = np.zeros(rows, np.uint64)
    d1 = np.zeros(rows, np.uint64)
    d2 = np.zeros(rows, np.uint64)
    pos = np.zeros(rows, np.int64)
    k = 0
    i = 0
    avail[0] = allowed & ~forbid[r0]
    while True:
        a = avail[i]
        if a == _ZERO:
            if i == 0:
                return k
            i -= 1
            continue
        bit = lowbit(a)
        avail[i] = a ^ bit
        c = trailing_zeros(bit)
        r = r0 + i
        nd1 = d1[i] | (_ONE << np.uint64(r + c))
        nd2 = d2[i] | (_ONE << np.uint64(r - c + n - 1))
        npos = pos[i] | position[c]
        if i == rows - 1:
            if k == d1o.shape[0]:
                return -1
            d1o[k], d2o[k], po[k] = nd1, nd2, npos
            k += 1
            continue
        nc = cols[i] | bit
        nl = ((ld[i] | bit) << _ONE) & full
        nr = (rd[i] | bit) >> _ONE
        i += 1
        cols[i], ld[i], rd[i], d1[i], d2[i], pos[i] = nc, nl, nr, nd1, nd2, npos
        avail[i] = allowed & ~(nc | nl | nr | forbid[r0 + i])


@njit(cache=True, nogil=True)
def _grouped(n, half, r0, rows, allowed, forbid, seam, most, space, slot):
    """The placements of _placements over the columns `allowed`, grouped by the columns they
    use: (first, seen, sig), the group of the column set of rank i (_rank, the columns numbered
    by their position within `allowed`) being first[i]:first[i + 1] (a counting sort), seen the
    diagonals a placement shares with the rows on the other side of the row `seam` and sig its
    part of the signature of the halves that meet below row `half` - 1 (see listed). In
    space[slot], 2 words each. Empty (first too) when there are more than `most` placements."""
    position = np.zeros(n, np.int64)
    width = 0
    for c in range(n):
        if (allowed >> np.uint64(c)) & _ONE:
            position[c] = 1 << width
            width += 1
    k, d1, d2, pos = _placed(n, r0, rows, allowed, forbid, position, most, space)
    if k < 0:
        return np.zeros(0, np.int64), space[slot][:0], space[slot][:0]
    binomial = _binomials(n)
    numbered = np.arange(n)
    first = np.zeros(binomial[width, rows] + 1, np.int64)
    for i in range(k):
        pos[i] = _rank(pos[i], numbered, binomial)
        first[pos[i] + 1] += 1
    for i in range(first.shape[0] - 1):
        first[i + 1] += first[i]
    at = first[:-1].copy()
    grouped = _scratch(space, slot, 2 * k)
    seen, sig = grouped[:k], grouped[k : 2 * k]
    for i in range(k):
        j = at[pos[i]]
        at[pos[i]] += 1
        seen[j] = _signature(n, d1[i], d2[i], seam)
        sig[j] = _signature(n, d1[i], d2[i], half)
    return first, seen, sig


@njit(cache=True, nogil=True)
def _placed(n, r0, rows, allowed, forbid, position, most, space):
    """Every placement of _placements, as (k, d1, d2, pos): their number and views of
    space[SLOT_PLACED] (three words a placement, its room doubled until they fit); k = -1
    when there are more than a room of at least `most` holds (no larger room is made)."""
    while True:
        raw = _scratch(space, SLOT_PLACED, 3 * FIRST_PLACEMENTS)
        room = raw.shape[0] // 3
        d1, d2, pos = raw[:room], raw[room : 2 * room], raw[2 * room : 3 * room].view(np.int64)
        k = _placements(n, r0, rows, allowed, forbid, position, d1, d2, pos)
        if k >= 0 or room >= most:
            return k, d1[: max(k, 0)], d2[: max(k, 0)], pos[: max(k, 0)]
        space[SLOT_PLACED] = np.empty(6 * room, np.uint64)


@njit(cache=True, nogil=True, inline="always")
def _signature(n, d1, d2, row):
    """The diagonals of a placement (its / and \\ diagonals d1 and d2, as _placements writes
    them) that cross from the rows above `row` into the rows from it on: the n - 1 / diagonals
    r + c = row..row+n-2, then the \\ diagonals r - c + n - 1 in the same range, one word."""
    window = (_ONE << np.uint64(n - 1)) - _ONE
    at = np.uint64(row)
    return ((d1 >> at) & window) | (((d2 >> at) & window) << np.uint64(n - 1))


#: Room for a band's placements at first (doubled until they fit).
FIRST_PLACEMENTS = 1 << 10
#: The most placements of a band listed once for every column set (band_tables): 128 MB kept
#: (n = 21 lists its bottom half's 6-row band of 4.5 million once, where each set searched it).
MOST_LISTED_ONCE = 1 << 23


#: No bound on a band's placements (one column set's, listed per set).
_UNBOUNDED = 1 << 62


@njit(cache=True, nogil=True)
def _bands(n):
    """The bands of the half-boards on an n x n board, as (first row, rows) pairs: the top
    half's two, then (odd n) the bottom half's, whose rows leave the long diagonals (forbid)."""
    h = n // 2
    if n % 2 == 0:
        return np.array([0, h // 2, h // 2, h - h // 2], np.int64), np.zeros(n, np.uint64)
    forbid = np.zeros(n, np.uint64)  # the bottom half (with the middle row) leaves its long diagonals but the centre
    for r in range(h + 1, n):
        forbid[r] = (_ONE << np.uint64(r)) | (_ONE << np.uint64(n - 1 - r))
    b = n - h
    return np.array([0, h // 2, h // 2, h - h // 2, h, b // 2, h + b // 2, b - b // 2], np.int64), forbid


@njit(cache=True, nogil=True)
def band_tables(n):
    """The bands' placements over all n columns, grouped as _grouped groups them, listed
    once for every column set where a band has at most MOST_LISTED_ONCE placements (an
    empty table otherwise: that band is searched per column set). Listing them once saves
    a search per band and column set."""
    rows_of, forbid = _bands(n)
    full = (_ONE << np.uint64(n)) - _ONE
    tables = []
    for q in range(4):
        first, seen, sig = np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.uint64)
        if 2 * q < rows_of.shape[0]:
            r0, rows = rows_of[2 * q], rows_of[2 * q + 1]
            seam = r0 + rows if q % 2 == 0 else r0
            f, a, b = _grouped(n, n // 2, r0, rows, full, forbid, seam, MOST_LISTED_ONCE, new_space(), SLOT_UPPER)
            first, seen, sig = f.copy(), a.copy(), b.copy()
        tables.append((first, seen, sig))
    return tables[0], tables[1], tables[2], tables[3]


@njit(cache=True, nogil=True)
def listed(n, half, r0, rows, allowed, forbid, upper_table, lower_table, space, slot, stop):
    """The signatures of the partial solutions on `rows` rows from r0 in the columns `allowed`
    (as many as rows), less the columns forbid[r] in each row r, in space[slot]. Bits 0..n-2
    are the / diagonals r + c = h..h+n-2 and bits n-1..2n-3 the \\ diagonals r - c + n - 1 in
    the same range, h = `half` the first row of the bottom half (the diagonals that cross from
    one half into the other: n // 2 on a square).

    The half is itself a join of two bands, its first rows // 2 rows and the rest: each is
    grouped by the columns it uses, from its table (band_tables) or, where that is empty,
    from a search over all of `allowed`, and a partial is a pair from complementary groups
    whose diagonals differ (only the 2n - 2 that cross the seam between them can be shared:
    one word, `seen`), found by a branch-free scan (about 11 pairs tried per partial at n = 18,
    where a search of the half visits far more nodes per leaf)."""
    upper = rows // 2
    seam = r0 + upper
    column = np.zeros(n, np.int64)  # the columns of `allowed`, in order
    width = 0
    for c in range(n):
        if (allowed >> np.uint64(c)) & _ONE:
            column[width] = c
            width += 1
    numbered = np.arange(n)
    f1, a, sa = upper_table
    column_1 = column
    if f1.shape[0] == 0:
        f1, a, sa = _grouped(n, half, r0, upper, allowed, forbid, seam, _UNBOUNDED, space, SLOT_UPPER)
        column_1 = numbered
    f2, b, sb = lower_table
    column_2 = column
    if f2.shape[0] == 0:
        f2, b, sb = _grouped(n, half, seam, rows - upper, allowed, forbid, seam, _UNBOUNDED, space, SLOT_LOWER)
        column_2 = numbered
    binomial = _binomials(n)
    every = (1 << width) - 1
    out = _scratch(space, slot, FIRST_ROOM)
    k = 0
    s = (1 << upper) - 1
    while s <= every:  # every set of `upper` of the columns (Gosper's rule)
        if stop[FLAG] != 0:  # (the caller discards what a stopped call returns)
            return out[:k]
        u = _rank(s, column_1, binomial)
        v = _rank(every ^ s, column_2, binomial)
        s = _next_of_size(s) if s != 0 else every + 1
        lo, hi = f2[v], f2[v + 1]
        if f1[u + 1] == f1[u] or hi == lo:
            continue
        need = k + (f1[u + 1] - f1[u]) * (hi - lo) + PACKED  # (a packed scan stores PACKED words at once)
        if need > out.shape[0]:
            grown = np.empty(2 * need, np.uint64)
            grown[:k] = out[:k]
            space[slot] = out = grown
        k = _paired(a, sa, b, sb, out, k, f1[u], f1[u + 1], lo, hi, _PACKS)
    return out[:k]


@njit(cache=True, nogil=True)
def _paired(a, sa, b, sb, out, k, lo1, hi1, lo2, hi2, packs):
    """The scan of listed: out[k:] gets sa[i] | sb[j] for each pair (i, j) of lo1..hi1 x
    lo2..hi2 whose `a[i] & b[j]` is zero, in order; the new k. Four pairs at a time where
    `packs` (_paired_packed, up to three words written past the last kept); otherwise one at
    a time, with unsigned indices so that numba drops its negative-index wrap on every access."""
    if packs:
        return _paired_packed(a, sa, b, sb, out, k, lo1, hi1, lo2, hi2)
    at = np.uint64(k)
    for i in range(np.uint64(lo1), np.uint64(hi1)):
        x, xs = a[i], sa[i]
        for j in range(np.uint64(lo2), np.uint64(hi2)):
            out[at] = xs | sb[j]
            at += np.uint64((x & b[j]) == _ZERO)
    return np.int64(at)

