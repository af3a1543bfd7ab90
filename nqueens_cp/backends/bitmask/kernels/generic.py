"""The compiled row search for any piece on any board up to 64 columns (the generic kernel).

It is `pysearch.any_piece` in numba, with the piece's moves arriving as tables, not as code:
- a **slide** along (a, b) (a rider's image, a one-way line) is a mask per row: the columns of
  row r that pieces of rows r - a, r - 2a, ... attack along it. Placing a piece in row r sets
  row r + a's mask to row r's mask plus the piece, shifted b columns: the queen's diagonals
  are the slides (1, 1) and (1, -1), shifted one column per row;
- a **leap** reaches at most D rows down: `reach[d, c]` holds the columns a piece in column c
  attacks d rows below, and `taken[r][r']` what the pieces above row r rule out in row r'
  (r' < r + D: nothing above reaches further), copied down one level per placement.
On a torus the lines wrap across rows too, so every move goes through `reach` (D = rows - 1,
built from `Piece.offsets`, which wraps). Attacks are symmetric, so looking down from every
piece checks every pair.

The search stops when its output is full or its node budget spent, and resumes where it left
off (Ctrl-C and time limits are seen between calls). With an output of no rows it counts: the
last row's free squares are counted at once rather than placed one by one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...watch import FLAG, NODES
from ..slots import AT, DONE, PLACED
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import lowbit as _lowbit
from .bits import popcount as _popcount
from .bits import trailing_zeros


@njit(cache=True, nogil=True)
def new_state(masks, slides):
    """Fresh search state: (avail, cols, lines, taken, place, st), st = [row, done flag, nodes];
    lines has a column per slide and one more (see `search`). Compiled, so that `count_items`
    makes each sub-problem's state with it too."""
    m = masks.shape[0]
    avail = np.zeros(m, np.uint64)
    avail[0] = masks[0]
    return (
        avail,
        np.zeros(m, np.uint64),
        np.zeros((m, slides.shape[0] + 1), np.uint64),
        np.zeros((m, m), np.uint64),
        np.zeros(m, np.int16),
        np.zeros(3, np.int64),
    )


@njit(cache=True, inline="always")
def _slid(line, bit, left, right):
    """A line's mask carried one step along its slide: plus the piece, shifted."""
    return ((line | bit) << left) >> right


@njit(cache=True, nogil=True)
def search(masks, slides, reach, avail, cols, lines, taken, place, st, out, budget):
    """Write up to out.shape[0] next solutions into `out` and return how many; with an `out` of
    no rows, count the solutions instead and return the count. Places at most about `budget`
    pieces a call; sets st[DONE] when the search is exhausted and adds its placements to st[PLACED].

    Most placements are leaves (the next row has no free square, or it is the last row, counted
    at once), so a placement costs the same for every piece: what row r + 1 loses is
    lines[r, k] (made on entering row r: the columns used above r, what their pieces attack in
    row r + 1 along every slide and leap), plus the new piece's own attacks on row r + 1,
    `near[c]` (its column's one-step slides and one-row leaps, made once per call). A shift
    distributes over OR, so the slides of the pieces above and of the new one may be shifted
    apart. What the rows further down read (columns, every slide's mask, the leaps' rows) is
    written only on descending; a count does not descend into the second-to-last row, whose few
    squares it takes in a short loop, each counting the last row's at once. Slides are the rows
    of `slides`, those of one row step first (as slide_directions orders them); lines[r, j] holds
    the columns of row r that the pieces above attack along slide j."""
    m = masks.shape[0]
    last = m - 1
    k = slides.shape[0]
    depth = reach.shape[0] - 1
    cap = out.shape[0]
    counting = cap == 0
    steps = slides[:, 0].copy()
    shl = np.zeros(k, np.uint64)  # a shift by b: left by b >= 0, or right by -b
    shr = np.zeros(k, np.uint64)
    one_step = 0  # the slides of one row step come first
    for j in range(k):
        if slides[j, 1] >= 0:
            shl[j] = slides[j, 1]
        else:
            shr[j] = -slides[j, 1]
        if steps[j] == 1:
            one_step = j + 1
    near = np.zeros(reach.shape[1], np.uint64)  # a column of the board each
    for c in range(reach.shape[1]):
        bit = _ONE << np.uint64(c)
        v = bit
        for j in range(one_step):
            v |= _slid(_ZERO, bit, shl[j], shr[j])
        if depth > 0:
            v |= reach[1, c]
        near[c] = v
    r = st[AT]
    a = avail[r]  # the current row's squares left live here; avail holds the rows above
    found = 0
    nodes = 0
    while counting or found < cap:
        if a == _ZERO:
            if r == 0:
                st[DONE] = 1
                break
            if nodes >= budget:  # looked at on the way back only: off the placement path
                break
            r -= 1
            a = avail[r]
            continue
        if r == last and counting:  # a board of one row: its free squares are its solutions
            count = _popcount(a)
            a = _ZERO
            found += count
            nodes += count
            continue
        bit = _lowbit(a)
        a ^= bit
        nodes += 1
        c = trailing_zeros(bit)
        if r == last:
            place[r] = c
            out[found, :] = place
            found += 1
            continue
        nxt = r + 1
        free = masks[nxt] & ~(lines[r, k] | near[c])
        if counting and nxt == last:  # the last row's free squares are its solutions
            count = _popcount(free)
            found += count
            nodes += count
            continue
        if free == _ZERO:  # a dead end one row down: the next square of this row, no descent
            continue
        place[r] = c
        used = cols[r] | bit
        cols[nxt] = used
        for j in range(k):
            down = r + steps[j]
            if down < m:
                lines[down, j] = _slid(lines[r, j], bit, shl[j], shr[j])
        for d in range(1, depth + 1):  # leaps: the rows they reach, carried one level down
            r2 = r + d
            if r2 >= m:
                break
            v = reach[d, c]
            if d < depth:  # row r + depth is beyond every piece above r
                v |= taken[r, r2]
            taken[nxt, r2] = v
        if nxt < last:  # what the pieces above row nxt rule out of row nxt + 1
            for j in range(one_step):
                used |= _slid(lines[nxt, j], _ZERO, shl[j], shr[j])
            for j in range(one_step, k):
                used |= lines[nxt + 1, j]  # zero above the slide's first step
            if depth > 0:
                used |= taken[nxt, nxt + 1]
            lines[nxt, k] = used
            if counting and nxt == last - 1:  # the last two rows, counted here: no descent
                rest = masks[last] & ~used
                while free != _ZERO:
                    b = _lowbit(free)
                    free ^= b
                    count = _popcount(rest & ~near[trailing_zeros(b)])
                    found += count
                    nodes += 1 + count
                continue
        avail[r] = a
        r = nxt
        a = free
    avail[r] = a
    st[AT] = r
    st[PLACED] += nodes
    return found


@njit(cache=True, nogil=True)
def count_items(masks, slides, reach, weights, out, stop, budget):
    """out[i] = weights[i] times the solutions of the row masks masks[i] (a sub-problem a row),
    item after item in one call: many small sub-problems cost one call, not one each. Returns
    how many items it finished: it leaves the item under way with the solutions found so far
    (weighted: a lower bound) when the stop flag stop[FLAG] (watch.py) is set, read between slices
    of `search`, or once it has made `budget` placements (`generated` then takes over and counts
    the item again). The placements are added to stop[NODES]."""
    nothing = np.empty((0, masks.shape[1]), np.int16)
    spent = 0
    for i in range(masks.shape[0]):
        rows = masks[i]
        avail, cols, lines, taken, place, st = new_state(rows, slides)
        found = 0
        while st[DONE] == 0:
            if stop[FLAG] != 0 or spent + st[PLACED] >= budget:
                out[i] = weights[i] * found
                stop[NODES] += st[PLACED]
                return i
            left = min(budget - spent - st[PLACED], 1 << 20)
            found += search(rows, slides, reach, avail, cols, lines, taken, place, st, nothing, left)
        out[i] = weights[i] * found
        stop[NODES] += st[PLACED]
        spent += st[PLACED]
    return masks.shape[0]
