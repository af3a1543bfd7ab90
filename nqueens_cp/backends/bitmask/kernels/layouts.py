"""The compiled search of boards whose lines walls cut, or whose pieces stand anywhere: a piece
at a time, square after square in row order, each square's attacks a mask a row.

- `attacks` makes the tables: for each square, the squares its piece attacks when lines stop at
  `stops` (walls and pawns), itself included, as a uint64 a row. Every line is walked from the
  square to the first stop, the edge, or (on a torus) back to the square; leaps jump. One piece
  a row adds its whole row, so a row holds one piece and no more.
- `search` places units: a unit is a set of squares placed together, each square its own unit
  for a count, a symmetry's orbit of squares for the layouts that symmetry fixes (Burnside).
  `unit_at[s]` is the unit whose first square is s (-1: none), and placing it takes its
  squares' attacks away from what is free. Before a row is entered, the pieces left must fit
  in the rows from it on (each row at most `caps[r]` pieces, its segments between walls, and no
  more than its free squares): with one piece a row, a row left with no free square ends the
  branch at once, as the classic row search does.

The search stops when its output is full or its node budget spent, and resumes where it left
off; with an output of no rows it counts. tests/test_walls.py holds it to a brute force written
from the rules.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...watch import FLAG, NODES
from ..slots import AT, DONE, PLACED
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import popcount as _popcount
from .bits import trailing_zeros


@njit(cache=True, nogil=True)
def attacks(m, n, torus, steps, leaps, stops, whole_rows):
    """(m * n, m) uint64: row r' of square s's entry, the columns of row r' that a piece on s
    attacks (s itself included); lines walk `steps` to the first square set in `stops` (a mask
    a row), leaps `leaps` jump; `whole_rows` adds each square's row (one piece a row)."""
    out = np.zeros((m * n, m), np.uint64)
    for r in range(m):
        for c in range(n):
            s = r * n + c
            out[s, r] |= _ONE << np.uint64(c)
            if whole_rows:
                out[s, r] |= ~_ZERO if n == 64 else (_ONE << np.uint64(n)) - _ONE
            for k in range(steps.shape[0]):
                a, b = steps[k, 0], steps[k, 1]
                rr, cc = r, c
                for _ in range(m * n):
                    rr, cc = rr + a, cc + b
                    if torus:
                        rr, cc = rr % m, cc % n
                    elif rr < 0 or rr >= m or cc < 0 or cc >= n:
                        break
                    if (rr == r and cc == c) or (stops[rr] >> np.uint64(cc)) & _ONE:
                        break
                    out[s, rr] |= _ONE << np.uint64(cc)
            for k in range(leaps.shape[0]):
                rr, cc = r + leaps[k, 0], c + leaps[k, 1]
                if torus:
                    rr, cc = rr % m, cc % n
                elif rr < 0 or rr >= m or cc < 0 or cc >= n:
                    continue
                out[s, rr] |= _ONE << np.uint64(cc)
    return out


@njit(cache=True, nogil=True)
def new_state(m, depth, start):
    """Fresh search state (avail, left, at_row, bits, pick, st): per depth the free squares (a
    mask a row), the pieces left, the row its candidates are in and those not yet tried, and the
    first square of the unit placed; st = [depth, done, nodes]. `start` is the free squares and the pieces to place
    (avail row 0..m-1, then the count in a last slot)."""
    avail = np.zeros((depth + 1, m), np.uint64)
    left = np.zeros(depth + 1, np.int64)
    at_row = np.zeros(depth + 1, np.int64)
    bits = np.zeros(depth + 1, np.uint64)
    pick = np.zeros(depth + 1, np.int64)
    for r in range(m):
        avail[0, r] = start[r]
    left[0] = np.int64(start[m])
    at_row[0] = -1
    st = np.zeros(3, np.int64)
    if left[0] == 0:  # nothing to place: the empty layout is the one solution
        st[AT] = -1
    return avail, left, at_row, bits, pick, st


@njit(cache=True, nogil=True)
def _fits(pieces, avail, caps, r0):
    """Whether `pieces` can still fit in rows r0.. of `avail` (each row at most its cap)."""
    room = 0
    for r in range(r0, avail.shape[0]):
        got = _popcount(avail[r])
        room += got if got < caps[r] else caps[r]
        if room >= pieces:
            return True
    return False


@njit(cache=True, nogil=True)
def search(n, unit_at, unit_size, unit_rows, unit_mask, unit_attack, caps, first, avail, left, at_row, bits,
           pick, st, out, stop, budget):
    """Write up to out.shape[0] next solutions into `out` (each row the first squares of the
    units picked, r * n + c, -1 after the last) and return how many; with an `out` of no rows,
    count them and return the count.
    `first` >= 0 tries only that square at depth 0 (a work item: the layouts whose first piece
    stands there). Stops early at `budget` placements or when stop[FLAG] is set; resumable."""
    m = avail.shape[1]
    counting = out.shape[0] == 0
    found = 0
    spent = 0
    d = st[AT]
    if d < 0:  # the empty layout: one solution, once
        st[DONE] = 1
        if counting:
            return 1
        out[0, :] = -1
        return 1
    while True:
        if found and not counting and found == out.shape[0]:
            break
        if spent >= budget or stop[FLAG]:
            break
        if d < 0:
            st[DONE] = 1
            break
        r = at_row[d]
        b = bits[d]
        while b == _ZERO:
            if d == 0 and first >= 0:
                if r < 0:
                    r = first // n
                    b = _ONE << np.uint64(first % n)
                    break
                r = m
                break
            r += 1
            if r >= m or not _fits(left[d], avail[d], caps, r):
                r = m
                break
            b = avail[d, r]
        if r >= m:
            d -= 1
            continue
        c = trailing_zeros(b)
        b &= b - _ONE
        at_row[d] = r
        bits[d] = b
        u = unit_at[r * n + c]
        if u < 0 or unit_size[u] > left[d]:
            continue
        ok = (avail[d, r] >> np.uint64(c)) & _ONE == _ONE
        if ok and unit_size[u] > 1:
            for rr in range(unit_rows[u], m):
                if unit_mask[u, rr] & ~avail[d, rr]:
                    ok = False
                    break
        if not ok:
            continue
        spent += 1
        pick[d] = r * n + c
        rest = left[d] - unit_size[u]
        if rest == 0:
            if not counting:
                for k in range(d + 1):
                    out[found, k] = pick[k]
                for k in range(d + 1, out.shape[1]):
                    out[found, k] = -1
            found += 1
            continue
        for rr in range(r, m):
            avail[d + 1, rr] = avail[d, rr] & ~unit_attack[u, rr]
        left[d + 1] = rest
        at_row[d + 1] = r
        later = _ZERO if c == 63 else ~((_ONE << np.uint64(c + 1)) - _ONE)  # the columns after c
        bits[d + 1] = avail[d + 1, r] & later
        d += 1
    st[AT] = d
    st[PLACED] += spent
    stop[NODES] += spent
    return found
