"""The compiled row search for any piece on any board up to 64 columns (the generic kernel).

It is `pysearch.any_piece` in numba: the piece's moves arrive as a table, not as code. Row r's
free squares are `masks[r] & ~taken[r][r]`, where `taken[r][r']` holds the columns of row r'
ruled out by the pieces of rows < r. Placing a piece in column c of row r rules out, in every
later row r', its column and `reach[r' - r, c]`: the columns its moves (leaps, slides, one-way
lines, wrapped on a torus) reach r' - r rows away, built from `Piece.offsets`. Attacks are
symmetric, so looking down from every piece checks every pair, whatever the piece or shape.

The search stops when its output is full or its node budget spent, and resumes where it left
off (Ctrl-C and time limits are seen between calls). With an output of no rows it counts: the
last row's free squares are counted at once rather than placed one by one.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit

from ...model.problem import Problem
from ...run.compiled import use_user_cache
from ..base import BackendError
from .rowkernels import _index, _lowbit

if config.DISABLE_JIT:  # the masks need fixed-width integers (planner.jit_enabled)
    raise BackendError("bitmask: numba's JIT is disabled (NUMBA_DISABLE_JIT): the compiled kernels cannot run")

use_user_cache()

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return (x * _H01) >> np.uint64(56)


def reach_table(problem: Problem) -> np.ndarray:
    """reach[d, c]: the columns a piece in column c attacks d rows below (d >= 1), besides its
    own column, on the problem's board (wrapped on a torus)."""
    m, n = problem.rows, problem.n
    reach = np.zeros((max(m, 1), n), np.uint64)
    for d in range(1, m):
        offsets = problem.offsets(d)
        for c in range(n):
            cols = {(c + o) % n if problem.torus else c + o for o in offsets}
            reach[d, c] = sum(1 << x for x in cols if 0 <= x < n)
    return reach


def new_state(masks: np.ndarray) -> tuple[np.ndarray, ...]:
    """Fresh search state: (avail, taken, place, st), st = [current row, done flag, nodes]."""
    m = masks.shape[0]
    avail = np.zeros(m, np.uint64)
    avail[0] = masks[0]
    return avail, np.zeros((m, m), np.uint64), np.zeros(m, np.int16), np.zeros(3, np.int64)


@njit(cache=True, nogil=True)
def search(masks, reach, avail, taken, place, st, out, budget):
    """Write up to out.shape[0] next solutions into `out` and return how many; with an `out` of
    no rows, count the solutions instead and return the count. Places at most about `budget`
    pieces a call; sets st[1] when the search is exhausted and adds its placements to st[2]."""
    m = masks.shape[0]
    last = m - 1
    cap = out.shape[0]
    counting = cap == 0
    r = st[0]
    found = 0
    nodes = 0
    while counting or found < cap:
        a = avail[r]
        if a == _ZERO:
            if r == 0:
                st[1] = 1
                break
            if nodes >= budget:  # looked at on the way back only: off the placement path
                break
            r -= 1
            continue
        if r == last and counting:  # every free square of the last row completes a solution
            k = _popcount(a)
            avail[r] = _ZERO
            found += k
            nodes += k
            continue
        bit = _lowbit(a)
        avail[r] = a ^ bit
        c = _index(bit)
        place[r] = c
        nodes += 1
        if r == last:
            out[found, :] = place
            found += 1
            continue
        nxt = r + 1
        for r2 in range(nxt, m):
            taken[nxt, r2] = taken[r, r2] | bit | reach[r2 - r, c]
        r = nxt
        avail[r] = masks[r] & ~taken[r, r]
    st[0] = r
    st[2] += nodes
    return found
