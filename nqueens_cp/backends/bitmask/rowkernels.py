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
from numba import config, njit

from ...run.compiled import use_user_cache
from ..base import BackendError
from ..watch import FLAG, NODES
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import trailing_zeros
from .slots import AT, DONE, PLACED

if config.DISABLE_JIT:  # the bit tricks need fixed-width integers that wrap (planner.jit_enabled)
    raise BackendError("bitmask: numba's JIT is disabled (NUMBA_DISABLE_JIT): the compiled kernels cannot run")

use_user_cache()



@njit(cache=True, inline="always")
def _lowbit(a):
    return a & (~a + _ONE)


@njit(cache=True, inline="always")
def _full(n):
    """All n columns set (a shift by 64 is undefined, hence the special case)."""
    return ~_ZERO if n == 64 else (_ONE << np.uint64(n)) - _ONE


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

    Why it is fast (figures in the README): the current row's state lives in locals; a frame is
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
