"""numba-compiled row-search kernels of the bitmask engine (boards up to 64 columns, one uint64
per row).

A row's free squares are `masks[row] & ~(cols | d1 | d2)`: `cols` holds the used columns,
`d1`/`d2` the squares the placed pieces attack along the two diagonal directions, shifted one
column per row. The lowest free square is peeled off with `a & -a`, so solutions come out in
lexicographic order. Every integer in the hot loops is uint64: numba turns a uint64/int64 mix
into float64, which would silently lose bits.

All kernels are iterative with an explicit stack, so the enumeration can stop when its output
buffer is full or its node budget spent, and resume on the next call exactly where it left off:
Python regains control in bounded slices (Ctrl-C, time limits).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...watch import FLAG, NODES
from ..slots import AT, DONE, PLACED
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import full as _full
from .bits import lowbit as _lowbit
from .bits import trailing_zeros


@njit(cache=True, inline="always")
def _last_two(m, diag, c, x, y, free):
    """Completions of the last two rows, given the attacks (c, x, y) on the second-to-last row,
    its free squares `free` and the last row's mask m. n-2 columns are taken, so `free` has at
    most two squares and each leaves one column for the last row. Branch-free: at the bottom of
    the search whether a square works is a coin toss a branch predictor loses."""
    b = _lowbit(free)
    e = free ^ b
    if diag:
        fb = m & ~(c | b | ((x | b) << _ONE) | ((y | b) >> _ONE))
        fe = m & ~(c | e | ((x | e) << _ONE) | ((y | e) >> _ONE))
    else:
        fb = m & ~(c | b)
        fe = m & ~(c | e)
    return ((b != _ZERO) & (fb != _ZERO)) + ((e != _ZERO) & (fe != _ZERO))


@njit(cache=True, inline="always")
def _few(free):
    """The squares of a word with at most two set (the second-to-last row's free squares)."""
    return np.int64(free != _ZERO) + np.int64((free & (free - _ONE)) != _ZERO)


@njit(cache=True, inline="always")
def _count_from(masks, diag, plain, row0, cols0, d1_0, d2_0, stop):
    """Number of completions of rows row0.. given the attacks (cols0, d1_0, d2_0) on row0.
    `plain`: every row's mask is the full board, so no mask is loaded in the loop. When stop[FLAG]
    is set (by another thread: Ctrl-C, a deadline), the loop returns at its next backtrack; the
    caller knows the result is then partial. The placements made (the last two rows' included)
    are added to stop[NODES], the search's nodes.

    Why it is fast: the current row's state lives in locals; a frame is
    pushed only for a row with squares left to try, so the last square descends like a tail
    call; a dead end one row down is skipped without a push; the last two rows are counted
    branch-free (`_last_two`); and row indices are unsigned (no negative-index wraparound)."""
    n = masks.shape[0]
    last = n - 1
    a = masks[row0] & ~(cols0 | d1_0 | d2_0)
    if row0 == last:
        got = np.int64(a != _ZERO)
        stop[NODES] += got
        return got
    m = masks[last]
    if row0 == last - 1:
        got = _last_two(m, diag, cols0, d1_0, d2_0, a)
        stop[NODES] += _few(a) + got
        return got
    if a == _ZERO:
        return 0
    frames = np.empty(8 * n, np.uint64)  # (squares left, cols, d1, d2, row, -, -, -) per open row
    sp = _ZERO
    two = np.uint64(2)
    three = np.uint64(3)
    four = np.uint64(4)
    stride = np.uint64(8)  # a frame per cache line
    bottom = np.uint64(last - 2)  # from this row, the rest is counted by _last_two
    r = np.uint64(row0)
    c0, l0, g0 = cols0, d1_0, d2_0
    total = 0
    placed = 0
    while True:
        bit = _lowbit(a)
        a ^= bit
        placed += 1
        c = c0 | bit
        if diag:
            x = (l0 | bit) << _ONE
            y = (g0 | bit) >> _ONE
        else:
            x = _ZERO
            y = _ZERO
        nxt = (m if plain else masks[r + _ONE]) & ~(c | x | y)
        if r == bottom:
            got = _last_two(m, diag, c, x, y, nxt)
            total += got
            placed += _few(nxt) + got
        elif nxt != _ZERO:
            if a != _ZERO:
                frames[sp], frames[sp + _ONE], frames[sp + two] = a, c0, l0
                frames[sp + three], frames[sp + four] = g0, r
                sp += stride
            r += _ONE
            a, c0, l0, g0 = nxt, c, x, y
            continue
        if a == _ZERO:
            if sp == _ZERO or stop[FLAG] != 0:
                stop[NODES] += placed
                return total
            sp -= stride
            a, c0, l0, g0, r = frames[sp], frames[sp + _ONE], frames[sp + two], frames[sp + three], frames[sp + four]


@njit(cache=True, inline="always")
def _is_plain(masks):
    """Every row may use every column: nothing blocked or fixed narrows a mask."""
    return np.all(masks == _full(masks.shape[0]))


@njit(cache=True, inline="always")
def _count(masks, diag, row0, cols0, d1_0, d2_0, stop):
    """`_count_from` with the board kind (plain or not) looked up once and folded into the loop."""
    if _is_plain(masks):
        return _count_from(masks, diag, True, row0, cols0, d1_0, d2_0, stop)
    return _count_from(masks, diag, False, row0, cols0, d1_0, d2_0, stop)


# One compiled loop per piece rule and per board kind (plain or with blocked squares), so the
# diagonal test and the mask load are folded away rather than branched on in the hot loop.
@njit(cache=True, nogil=True)
def count_queens(masks, row0, cols0, d1_0, d2_0, stop):
    return _count(masks, True, row0, cols0, d1_0, d2_0, stop)


@njit(cache=True, nogil=True)
def count_rooks(masks, row0, cols0, d1_0, d2_0, stop):
    return _count(masks, False, row0, cols0, d1_0, d2_0, stop)


def new_state(masks: np.ndarray) -> tuple[np.ndarray, ...]:
    """Fresh search state for `enumerate_batch`: (avail, cols, d1, d2, k2, place, st) where k2
    carries knight attacks and st = [current row, done flag, nodes so far]."""
    n = masks.shape[0]
    avail = np.zeros(n, np.uint64)
    avail[0] = masks[0]
    zeros = [np.zeros(n, np.uint64) for _ in range(4)]
    return (avail, *zeros, np.zeros(n, np.int16), np.zeros(3, np.int64))


@njit(cache=True, inline="always")
def _rot(v, s, n, full):
    """Rotate the n-bit value v left by s (0 <= s < n): columns wrapping round a torus."""
    if s == 0:
        return v
    return ((v << np.uint64(s)) | (v >> np.uint64(n - s))) & full


@njit(cache=True)
def _torus_knights_ok(place, n):
    """No two pieces a knight's move apart on the torus (rows and columns modulo n)."""
    for r in range(n):
        for dr in (1, 2):
            dc = (place[(r + dr) % n] - place[r]) % n
            if (dc == (3 - dr) % n or dc == (dr - 3) % n) and (r + dr) % n != r:
                return False
    return True


@njit(cache=True)
def enumerate_batch(masks, diag, knight, torus, avail, cols, d1, d2, k2, place, st, out, budget):
    """Write up to out.shape[0] next solutions into `out` and return how many, placing at most
    `budget` pieces; sets st[DONE] when the search is exhausted and adds the placements to st[PLACED].
    The state arrays carry the search between calls.

    Knight moves keep k2[r], the squares of row r+1 reached from row r-1 (those of row r from
    the row above are added when row r's free squares are computed). On a torus, masks rotate
    instead of shift; knight moves that wrap across the first and last rows are checked on each
    complete placement."""
    n = masks.shape[0]
    last = n - 1
    full = _full(n)
    cap = out.shape[0]
    r = st[AT]
    k = 0
    nodes = 0
    while k < cap:
        a = avail[r]
        if a == _ZERO:
            if r == 0:
                st[DONE] = 1
                break
            if nodes >= budget:  # looked at on the way back only: off the placement path
                break
            r -= 1
            continue
        bit = _lowbit(a)
        avail[r] = a ^ bit
        place[r] = trailing_zeros(bit)
        nodes += 1
        if r == last:
            if knight and torus and not _torus_knights_ok(place, n):
                continue
            out[k, :] = place
            k += 1
            continue
        c = cols[r] | bit
        x = _ZERO
        y = _ZERO
        if diag:
            if torus:
                x = _rot(d1[r] | bit, 1, n, full)
                y = _rot(d2[r] | bit, (n - 1) % n, n, full)
            else:
                x = (d1[r] | bit) << _ONE
                y = (d2[r] | bit) >> _ONE
        n1 = _ZERO
        n2 = _ZERO
        if knight:
            if torus:
                n1 = k2[r] | _rot(bit, 2 % n, n, full) | _rot(bit, (n - 2 % n) % n, n, full)
                n2 = _rot(bit, 1 % n, n, full) | _rot(bit, (n - 1) % n, n, full)
            else:
                n1 = k2[r] | (bit << np.uint64(2)) | (bit >> np.uint64(2))
                n2 = (bit << _ONE) | (bit >> _ONE)
        r += 1
        cols[r] = c
        d1[r] = x
        d2[r] = y
        k2[r] = n2
        avail[r] = masks[r] & ~(c | x | y | n1)
    st[AT] = r
    st[PLACED] += nodes
    return k
