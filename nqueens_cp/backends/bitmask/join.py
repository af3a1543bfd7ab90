"""Counting queens by joining half-boards: the count as pairs of top and bottom partial
solutions that share no diagonal, matched 64 at a time, instead of a search to the leaves.

Why: the constellation counter walks the whole tree (at the C yardstick's node rate, with 4.4x
fewer nodes), and every refinement of that search measured lost; the fastest published CPU
counter joins partial boards instead. This is a join of our own, in the engine's style:
- Split the board into its top h = n // 2 rows and the other n - h. A solution puts its top
  queens on some set C of h columns and its bottom queens on the rest, so the count is a sum
  over C: a work item is a few such sets.
- For each C, every top partial solution (h queens on the top rows and the columns of C, no
  two attacking) and every bottom one is listed by a bitmask search. A top and a bottom partial
  make a solution exactly when no diagonal holds a queen of each; only the diagonals that cross
  both halves can, n - 1 of each direction, so a partial is a 2n - 2 bit signature and a pair
  matches when the AND of the two words is zero (one word up to n = 33).
- The larger list is stored bit-transposed: for each signature bit, a word per group of 64
  partials with a 1 for each that lacks it. A partial of the smaller list ANDs the rows of its
  own bits and counts the ones: 64 pairs per word, in loops the compiler vectorises. Up to
  MAX_CUTS "cut" bits, those most often set on both sides, split the larger list into buckets,
  and a partial visits only the buckets whose cut bits it does not share (a sieve).
- The left-right mirror maps C onto its mirror image and, on an even board, the top-bottom
  mirror maps it onto its complement: one C of each class is counted and weighted by the
  class's size (up to 4).
Measured (docs/benchmarks.md, benchmarks/bench_join.py) it overtakes the constellation counter
on even boards from n = 18; odd boards keep only the left-right mirror, and constellations.
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ...model.problem import Problem
from .bits import popcount, trailing_zeros

if TYPE_CHECKING:
    from ...run.partition import Partition

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = ~np.uint64(0)

#: Column sets counted per work item (a few hundred to a few thousand items from n = 18).
PER_ITEM = 16
#: The most cut bits of the sieve (2^MAX_CUTS buckets); fewer where buckets would be small.
MAX_CUTS = 8
#: The smallest bucket the sieve cuts down to (partials), below which a cut costs more than it saves.
MIN_BUCKET = 256
#: Room for partial solutions at first (grown by doubling, so memory follows the largest list).
FIRST_ROOM = 1 << 12


@njit(cache=True, nogil=True)
def _partials(n, r0, rows, allowed, out):
    """The signatures of every placement of `rows` queens on rows r0.. in the columns of
    `allowed` (as many columns as rows), no two attacking, written to `out`: their number, or
    -1 when `out` is too small. Bits 0..n-2 are the / diagonals r + c = h..h+n-2 and bits
    n-1..2n-3 the \\ diagonals r - c + n - 1 in the same range, h = n // 2."""
    h = np.uint64(n // 2)
    full = (_ONE << np.uint64(n)) - _ONE
    window = (_ONE << np.uint64(n - 1)) - _ONE
    avail = np.zeros(rows, np.uint64)
    cols = np.zeros(rows, np.uint64)
    ld = np.zeros(rows, np.uint64)
    rd = np.zeros(rows, np.uint64)
    d1 = np.zeros(rows, np.uint64)
    d2 = np.zeros(rows, np.uint64)
    k = 0
    i = 0
    avail[0] = allowed
    while True:
        a = avail[i]
        if a == _ZERO:
            if i == 0:
                return k
            i -= 1
            continue
        bit = a & (~a + _ONE)
        avail[i] = a ^ bit
        c = trailing_zeros(bit)
        r = r0 + i
        nd1 = d1[i] | (_ONE << np.uint64(r + c))
        nd2 = d2[i] | (_ONE << np.uint64(r - c + n - 1))
        if i == rows - 1:
            if k == out.shape[0]:
                return -1
            out[k] = ((nd1 >> h) & window) | (((nd2 >> h) & window) << np.uint64(n - 1))
            k += 1
            continue
        nc = cols[i] | bit
        nl = ((ld[i] | bit) << _ONE) & full
        nr = (rd[i] | bit) >> _ONE
        i += 1
        cols[i] = nc
        ld[i] = nl
        rd[i] = nr
        d1[i] = nd1
        d2[i] = nd2
        avail[i] = allowed & ~(nc | nl | nr)


@njit(cache=True, nogil=True)
def listed(n, r0, rows, allowed):
    """The signatures of the partial solutions on `rows` rows from r0 in the columns `allowed`."""
    out = np.empty(FIRST_ROOM, np.uint64)
    while True:
        k = _partials(n, r0, rows, allowed, out)
        if k >= 0:
            return out[:k]
        out = np.empty(2 * out.shape[0], np.uint64)


@njit(cache=True, nogil=True)
def matching(small, big, nbits):
    """The pairs of small x big whose signatures share no bit (see the module's text)."""
    fs = np.zeros(nbits, np.int64)
    fb = np.zeros(nbits, np.int64)
    for x in small:
        while x != _ZERO:
            fs[trailing_zeros(x)] += 1
            x &= x - _ONE
    for x in big:
        while x != _ZERO:
            fb[trailing_zeros(x)] += 1
            x &= x - _ONE
    k = 0
    while k < MAX_CUTS and (big.shape[0] >> (k + 1)) >= MIN_BUCKET:
        k += 1
    score = fs * fb
    cuts = np.zeros(k, np.int64)
    cutmask = _ZERO
    for j in range(k):
        cuts[j] = np.argmax(score)
        score[cuts[j]] = -1
        cutmask |= _ONE << np.uint64(cuts[j])
    buckets = 1 << k
    bucket = np.empty(big.shape[0], np.int64)
    sizes = np.zeros(buckets, np.int64)
    for i in range(big.shape[0]):
        v = 0
        for j in range(k):
            if (big[i] >> np.uint64(cuts[j])) & _ONE:
                v |= 1 << j
        bucket[i] = v
        sizes[v] += 1
    first = np.zeros(buckets + 1, np.int64)
    for b in range(buckets):
        first[b + 1] = first[b] + (sizes[b] + 63) // 64
    groups = first[buckets]
    lacks = np.full(nbits * groups, _ALL)  # row of bit b: lacks[b * groups + group]
    valid = np.zeros(groups, np.uint64)
    placed = np.zeros(buckets, np.int64)
    for i in range(big.shape[0]):
        b = bucket[i]
        g = first[b] + placed[b] // 64
        bit = _ONE << np.uint64(placed[b] % 64)
        placed[b] += 1
        valid[g] |= bit
        x = big[i] & ~cutmask
        while x != _ZERO:
            lacks[trailing_zeros(x) * groups + g] &= ~bit
            x &= x - _ONE
    rows = np.empty(nbits, np.int64)
    acc = np.empty(groups, np.uint64)
    total = 0
    for x in small:
        mine = 0
        for j in range(k):
            if (x >> np.uint64(cuts[j])) & _ONE:
                mine |= 1 << j
        m = 0
        y = x & ~cutmask
        while y != _ZERO:
            rows[m] = trailing_zeros(y) * groups
            m += 1
            y &= y - _ONE
        free = (buckets - 1) & ~mine
        s = free
        while True:  # every bucket whose cut bits are disjoint from this partial's
            g0 = first[s]
            w = first[s + 1] - g0
            for g in range(w):
                acc[g] = valid[g0 + g]
            for j in range(m):
                base = rows[j] + g0
                for g in range(w):
                    acc[g] &= lacks[base + g]
            for g in range(w):
                total += popcount(acc[g])
            if s == 0:
                break
            s = (s - 1) & free
    return total


@njit(cache=True, nogil=True)
def count_sets(n, sets, weights, stop):
    """The weighted solutions over the top column sets `sets`. A set flag (stop[0], watch.py)
    ends the call between two sets; the caller then discards what it returns."""
    h = n // 2
    full = (_ONE << np.uint64(n)) - _ONE
    total = 0
    for i in range(sets.shape[0]):
        if stop[0] != 0:
            return total
        top = listed(n, 0, h, sets[i])
        if top.shape[0] == 0:
            continue
        bottom = listed(n, h, n - h, full & ~sets[i])
        if bottom.shape[0] == 0:
            continue
        if top.shape[0] <= bottom.shape[0]:
            total += weights[i] * matching(top, bottom, 2 * n - 2)
        else:
            total += weights[i] * matching(bottom, top, 2 * n - 2)
    return total


@njit(cache=True, nogil=True)
def _column_sets(n, out_sets, out_weights):
    """Every set of n // 2 of n columns (Gosper's rule walks them in increasing order), kept
    where it is the smallest of its class; the number kept."""
    full = (np.int64(1) << n) - 1
    c = (np.int64(1) << (n // 2)) - 1
    images = np.empty(4, np.int64)
    k = 0
    while c <= full:
        mirror = np.int64(0)
        for x in range(n):
            if (c >> x) & 1:
                mirror |= np.int64(1) << (n - 1 - x)
        images[0], images[1], images[2], images[3] = c, mirror, full ^ c, full ^ mirror
        kinds = 4 if n % 2 == 0 else 2  # the top-bottom mirror maps C to its complement
        smallest, weight = c, 0
        for i in range(kinds):
            smallest = min(smallest, images[i])
            weight += 1
            for j in range(i):
                if images[j] == images[i]:
                    weight -= 1
                    break
        if smallest == c:
            out_sets[k] = c
            out_weights[k] = weight
            k += 1
        low = c & -c
        ripple = c + low
        c = (((ripple ^ c) >> 2) // low) | ripple
    return k


def column_sets(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(sets, weights): the smallest top column set of each class under the mirrors that hold
    (left-right; top-bottom too on an even board), in increasing order, and its class's size."""
    most = comb(n, n // 2)
    sets, weights = np.empty(most, np.int64), np.empty(most, np.int64)
    k = _column_sets(n, sets, weights)
    return sets[:k].astype(np.uint64), weights[:k].copy()


Context = tuple[int, np.ndarray, np.ndarray]


def context(problem: Problem) -> Context:
    return (problem.n, *column_sets(problem.n))


def items(ctx: Context) -> int:
    return -(-ctx[1].shape[0] // PER_ITEM)


def count_item(ctx: Context, i: int, stop: np.ndarray | None = None) -> int:
    """Work item i: PER_ITEM column sets (see nqueens_cp.run.partition)."""
    from ..watch import NEVER

    n, sets, weights = ctx
    part = slice(i * PER_ITEM, (i + 1) * PER_ITEM)
    return int(count_sets(n, sets[part], weights[part], NEVER if stop is None else stop))


def item_info(ctx: Context, i: int) -> dict[str, object]:
    """What a checkpoint records beside item i's count: its column sets, so a record can be
    recounted on its own."""
    sets = ctx[1]
    return {"column_sets": [int(c) for c in sets[i * PER_ITEM : (i + 1) * PER_ITEM]]}


def partition(problem: Problem) -> Partition:
    """The count as numbered work items (pool, Dask, checkpoints): PER_ITEM column sets each."""
    from ...run.partition import Partition
    from .split import fingerprint

    ctx = context(problem)
    return Partition(
        fingerprint(problem, 0) | {"split": "join", "depth": None, "per_item": PER_ITEM},
        items(ctx),
        count_item,
        ctx,
        load_kernels,
        lambda i: item_info(ctx, i),
    )


def load_kernels() -> None:
    """Load the compiled kernels in this process (before forking workers that share them)."""
    count_item(context(Problem(8)), 0)
