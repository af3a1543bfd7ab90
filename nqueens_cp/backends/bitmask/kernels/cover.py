"""The compiled search for dominating sets: the fewest pieces that occupy or attack every square
to cover, a uint64 a row (boards up to 64 columns).

Pieces are chosen in increasing square order, so each set is reached once: the next piece
comes after the last, and no later than `last[u]`, the last square that covers u, the first
square still uncovered (a piece after it could not cover u). Two bounds cut a branch that
cannot end within `k` pieces: a row with more squares uncovered than `spill` times the pieces
left needs a piece of its own (a piece covers at most `spill` squares of a row it does not
stand in), so there can be no more such rows than pieces left; and the pieces left must cover
what is uncovered, at most `most` squares each. With `independent`, a piece may not stand on a
square an earlier one attacks (`allow` narrows as pieces are placed).

The search stops at the first set (`first`), counts them all (an `out` of no rows), or writes
them all (a set a row of `out`, as many rows as the count said); it stops early at stop[FLAG]
and adds its placements to stop[NODES]. tests/test_optimise.py holds it to OEIS A075458,
A075324, A002564 and a brute force.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...watch import FLAG, NODES
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import popcount as _popcount
from .bits import trailing_zeros


@njit(cache=True, inline="always")
def _first(unc):
    """The first uncovered square's (row, column), row -1 where none is left."""
    for r in range(unc.shape[0]):
        if unc[r]:
            return r, trailing_zeros(unc[r])
    return -1, 0


@njit(cache=True, inline="always")
def _hopeless(unc, left, spill, most):
    """Whether `left` more pieces cannot cover `unc` (see the module's bounds)."""
    total = 0
    crowded = 0
    for r in range(unc.shape[0]):
        got = _popcount(unc[r])
        total += got
        if got > spill * left:
            crowded += 1
    return crowded > left or total > most * left


@njit(cache=True, nogil=True)
def search(n, cover, attack, last, need, allow0, k, independent, spill, most, first, stop, out, only=-1, then=-1):
    """The sets of at most `k` pieces (on squares `allow0` permits) that cover `need` (a row of
    bits a board row) with their last piece in square order and not before, each once (every
    set of the fewest pieces that cover is one): the number found, each written as a row of
    `out` (its squares r * n + c, -1 after them) while rows are left; with `first`, 1 at most.
    `only` >= 0: the sets whose first piece stands on that square alone (a work item); `then`
    >= 0 too: and whose second piece stands on that one."""
    m = need.shape[0]
    unc = np.zeros((k + 1, m), np.uint64)
    allow = np.zeros((k + 1, m), np.uint64)
    nxt = np.zeros(k + 1, np.int64)
    hi = np.zeros(k + 1, np.int64)
    chosen = np.zeros(k + 1, np.int64)
    for r in range(m):
        unc[0, r] = need[r]
        allow[0, r] = allow0[r]
    r0, c0 = _first(unc[0])
    if r0 < 0:
        return 1
    if k == 0 or _hopeless(unc[0], k, spill, most):
        return 0
    hi[0] = last[r0 * n + c0]
    if only >= 0:
        if only > hi[0]:
            return 0
        nxt[0] = only
        hi[0] = only
    found = 0
    spent = 0
    d = 0
    while d >= 0:
        if nxt[d] > hi[d] or stop[FLAG]:
            d -= 1
            continue
        s = nxt[d]
        nxt[d] += 1
        r, c = s // n, s % n
        if not (allow[d, r] >> np.uint64(c)) & _ONE:
            continue
        spent += 1
        chosen[d] = s
        left = k - d - 1
        for rr in range(m):
            unc[d + 1, rr] = unc[d, rr] & ~cover[s, rr]
        ur, uc = _first(unc[d + 1])
        if ur < 0:
            if found < out.shape[0]:  # (a row for each set written: the first, or all)
                for i in range(d + 1):
                    out[found, i] = chosen[i]
                for i in range(d + 1, out.shape[1]):
                    out[found, i] = -1
            found += 1
            if first or found == out.shape[0]:
                break
            continue
        if left == 0 or _hopeless(unc[d + 1], left, spill, most):
            continue
        u = ur * n + uc
        if last[u] <= s:
            continue
        for rr in range(m):
            allow[d + 1, rr] = allow[d, rr] & ~attack[s, rr] if independent else allow[d, rr]
        nxt[d + 1] = s + 1
        hi[d + 1] = last[u]
        if d == 0 and then >= 0:  # (a work item of the first two pieces)
            if then <= s or then > last[u]:
                continue
            nxt[1] = then
            hi[1] = then
        d += 1
    stop[NODES] += spent
    return found


@njit(cache=True, nogil=True)
def lasts(n, cover, allow):
    """last[u]: the last square a piece may stand on (in `allow`) that covers u; -1 for none."""
    m = cover.shape[1]
    out = np.full(m * n, -1, np.int64)
    for s in range(m * n):
        if not (allow[s // n] >> np.uint64(s % n)) & _ONE:
            continue
        for r in range(m):
            bits = cover[s, r]
            while bits != _ZERO:
                c = trailing_zeros(bits)
                bits &= bits - _ONE
                out[r * n + c] = s
    return out
