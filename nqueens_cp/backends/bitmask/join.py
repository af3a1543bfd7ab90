"""Counting queens by joining half-boards: the count as pairs of top and bottom partial
solutions that share no diagonal, matched 64 at a time, instead of a search to the leaves.

Why: the constellation counter walks the whole tree (at the C yardstick's node rate, with 4.4x
fewer nodes), and every refinement of that search measured lost; the fastest published CPU
counter joins partial boards instead. This is a join of our own, in the engine's style:
- Split the board into its top h = n // 2 rows and the other n - h. A solution puts its top
  queens on some set C of h columns and its bottom queens on the rest, so the count is a sum
  over C: a work item is a few such sets.
- For each C, every top partial solution (h queens on the top rows and the columns of C, no
  two attacking) and every bottom one is listed. A top and a bottom partial make a solution
  exactly when no diagonal holds a queen of each; only the diagonals that cross both halves
  can, n - 1 of each direction, so a partial is a 2n - 2 bit signature and a pair matches when
  the AND of the two words is zero (one word up to n = 33).
- A half's partials are themselves a join, of its two quarters (its first rows and the rest):
  each quarter is listed once per C by a short search and grouped by the columns it uses, and
  pairs from complementary groups are kept where their diagonals differ. A search of the half
  would visit many nodes per partial; the quarters' join tries about 11 pairs per partial.
- The larger list is stored bit-transposed, a word per group of 64 partials, and only the bits
  set on both sides count. Up to MAX_CUTS "cut" bits, those most often set on both sides,
  split it into buckets, and a partial of the smaller list visits only the buckets whose cut
  bits it does not share (a sieve). The other bits are taken CHUNK at a time: for each chunk,
  a table holds, per pattern of its bits, the words of the partials that lack all of them, so
  a partial ANDs one word per chunk it touches (not one per bit) and counts the ones: 64 pairs
  per AND.
- The left-right mirror maps C onto its mirror image and, on an even board, the top-bottom
  mirror maps it onto its complement: one C of each class is counted and weighted by the
  class's size (up to 4).
Measured (docs/benchmarks.md, benchmarks/bench_join.py) it takes half the constellation
counter's time at n = 18; odd boards keep only the left-right mirror, and constellations.
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
#: Words ANDed side by side (the matcher's inner loop holds them in four registers: one AVX2
#: register where the CPU has it).
BLOCK = 4
#: Signature bits per chunk of the AND tables: a partial ANDs one row per chunk it touches,
#: each row the AND of up to CHUNK bits' rows, made once per list (2^CHUNK rows per chunk).
CHUNK = 5
#: Room for partial solutions at first (grown by doubling, so memory follows the largest list).
FIRST_ROOM = 1 << 12


@njit(cache=True, nogil=True)
def _placements(n, r0, rows, allowed, position, d1o, d2o, po):
    """Every placement of `rows` queens on rows r0.. in distinct columns of `allowed`, no two
    attacking, written to d1o, d2o (its / and \\ diagonals, r + c and r - c + n - 1, as words)
    and po (the positions within `allowed` of its columns, as a mask): their number, or -1
    when the arrays are too small."""
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
        avail[i] = allowed & ~(nc | nl | nr)


@njit(cache=True, nogil=True)
def _by_positions(n, r0, rows, allowed, position, width):
    """The placements of _placements grouped by the positions they use: (first, d1, d2), the
    group of position mask s being first[s]:first[s + 1] (counting sort, 2^width groups)."""
    room = 1 << 10
    while True:
        d1 = np.empty(room, np.uint64)
        d2 = np.empty(room, np.uint64)
        pos = np.empty(room, np.int64)
        k = _placements(n, r0, rows, allowed, position, d1, d2, pos)
        if k >= 0:
            break
        room *= 2
    first = np.zeros((1 << width) + 1, np.int64)
    for i in range(k):
        first[pos[i] + 1] += 1
    for s in range(1 << width):
        first[s + 1] += first[s]
    at = first[:-1].copy()
    g1 = np.empty(k, np.uint64)
    g2 = np.empty(k, np.uint64)
    for i in range(k):
        j = at[pos[i]]
        at[pos[i]] += 1
        g1[j], g2[j] = d1[i], d2[i]
    return first, g1, g2


@njit(cache=True, nogil=True)
def listed(n, r0, rows, allowed):
    """The signatures of the partial solutions on `rows` rows from r0 in the columns `allowed`
    (as many as rows). Bits 0..n-2 are the / diagonals r + c = h..h+n-2 and bits n-1..2n-3
    the \\ diagonals r - c + n - 1 in the same range, h = n // 2.

    The half is itself a join of two quarters, its first rows // 2 rows and the rest: each is
    listed by a search over all of `allowed` and grouped by the columns it uses, and a partial
    is a pair from complementary groups whose diagonals differ, found by a branch-free scan
    (about 11 pairs tried per partial at n = 18, where a search of the half visits far more
    nodes per leaf)."""
    hu = np.uint64(n // 2)
    window = (_ONE << np.uint64(n - 1)) - _ONE
    shift = np.uint64(n - 1)
    position = np.zeros(n, np.int64)
    width = 0
    for c in range(n):
        if (allowed >> np.uint64(c)) & _ONE:
            position[c] = 1 << width
            width += 1
    upper = rows // 2
    f1, a1, a2 = _by_positions(n, r0, upper, allowed, position, width)
    f2, b1, b2 = _by_positions(n, r0 + upper, rows - upper, allowed, position, width)
    every = (1 << width) - 1
    room = FIRST_ROOM
    out = np.empty(room, np.uint64)
    k = 0
    for s in range(1 << width):
        lo, hi = f2[every ^ s], f2[(every ^ s) + 1]
        if f1[s + 1] == f1[s] or hi == lo:
            continue
        need = k + (f1[s + 1] - f1[s]) * (hi - lo)
        if need > room:
            while room < need:
                room *= 2
            grown = np.empty(room, np.uint64)
            grown[:k] = out[:k]
            out = grown
        for i in range(f1[s], f1[s + 1]):
            x1, x2 = a1[i], a2[i]
            for j in range(lo, hi):
                y1, y2 = x1 | b1[j], x2 | b2[j]
                out[k] = ((y1 >> hu) & window) | (((y2 >> hu) & window) << shift)
                k += ((x1 & b1[j]) | (x2 & b2[j])) == _ZERO
    return out[:k]


@njit(cache=True, nogil=True)
def _cut_pattern(x, cuts, k):
    """Which of the k cut bits x holds, as a k-bit number."""
    v = 0
    for j in range(k):
        if (x >> np.uint64(cuts[j])) & _ONE:
            v |= 1 << j
    return v


@njit(cache=True, nogil=True)
def matching(small, big):
    """The pairs of small x big whose signatures share no bit (see the module's text). The
    big list is stored in blocks of BLOCK words (64 partials a word) per bucket; the small
    list is grouped by its cut bits, and each bucket is visited by every compatible group in
    turn, so its tables stay in the cache while they are read."""
    seen_small, seen_big = _ZERO, _ZERO
    for x in small:
        seen_small |= x
    for x in big:
        seen_big |= x
    both = seen_small & seen_big  # a bit set on one side only can never clash
    fs = np.zeros(64, np.int64)
    fb = np.zeros(64, np.int64)
    for x in small:
        y = x & both
        while y != _ZERO:
            fs[trailing_zeros(y)] += 1
            y &= y - _ONE
    for x in big:
        y = x & both
        while y != _ZERO:
            fb[trailing_zeros(y)] += 1
            y &= y - _ONE
    k = 0
    while k < MAX_CUTS and (big.shape[0] >> (k + 1)) >= MIN_BUCKET:
        k += 1
    score = fs * fb
    cuts = np.zeros(k, np.int64)
    cutmask = _ZERO
    for j in range(k):
        best = np.argmax(score)
        if score[best] <= 0:
            k = j
            break
        cuts[j] = best
        score[best] = -1
        cutmask |= _ONE << np.uint64(best)
    rest = both & ~cutmask
    rank = np.zeros(64, np.int64)  # the bits that stay, numbered 0..q-1, CHUNK to a chunk
    q = 0
    y = rest
    while y != _ZERO:
        rank[trailing_zeros(y)] = q
        q += 1
        y &= y - _ONE
    entries = 1 << CHUNK
    stride = max((q + CHUNK - 1) // CHUNK, 1) * entries  # table entries per block
    buckets = 1 << k
    bucket = np.empty(big.shape[0], np.int64)
    sizes = np.zeros(buckets, np.int64)
    for i in range(big.shape[0]):
        bucket[i] = _cut_pattern(big[i], cuts, k)
        sizes[bucket[i]] += 1
    first = np.zeros(buckets + 1, np.int64)  # each bucket's blocks
    for b in range(buckets):
        first[b + 1] = first[b] + (sizes[b] + 64 * BLOCK - 1) // (64 * BLOCK)
    blocks = first[buckets]
    # entry (block, chunk c, pattern e): BLOCK words with a 1 for each partial of the block that
    # lacks every bit of e in chunk c, at table[((block * stride) + c * entries + e) * BLOCK]
    table = np.full(blocks * stride * BLOCK, _ALL)
    valid = np.zeros(blocks * BLOCK, np.uint64)
    placed = np.zeros(buckets, np.int64)
    for i in range(big.shape[0]):
        b = bucket[i]
        at = first[b] * BLOCK + placed[b] // 64  # its word: block * BLOCK + lane
        lane = at % BLOCK
        bit = _ONE << np.uint64(placed[b] % 64)
        placed[b] += 1
        valid[at] |= bit
        x = big[i] & rest
        while x != _ZERO:
            r = rank[trailing_zeros(x)]
            table[((at // BLOCK) * stride + (r // CHUNK) * entries + (1 << (r % CHUNK))) * BLOCK + lane] &= ~bit
            x &= x - _ONE
    for e0 in range(0, blocks * stride, entries):
        for e in range(3, entries):
            low = e & -e
            if low != e:
                into, a, b = (e0 + e) * BLOCK, (e0 + (e ^ low)) * BLOCK, (e0 + low) * BLOCK
                for lane in range(BLOCK):
                    table[into + lane] = table[a + lane] & table[b + lane]
    # the small list grouped by cut pattern, each partial as its table entries (one per chunk)
    start = np.zeros(buckets + 1, np.int64)
    mine = np.empty(small.shape[0], np.int64)
    for i in range(small.shape[0]):
        mine[i] = _cut_pattern(small[i], cuts, k)
        start[mine[i] + 1] += 1
    for b in range(buckets):
        start[b + 1] += start[b]
    slot = start[:-1].copy()
    entry = np.zeros((small.shape[0], stride // entries), np.int64)
    used = np.zeros(small.shape[0], np.int64)
    for i in range(small.shape[0]):
        at = slot[mine[i]]
        slot[mine[i]] += 1
        y = small[i] & rest
        while y != _ZERO:
            r = rank[trailing_zeros(y)]
            entry[at, r // CHUNK] |= 1 << (r % CHUNK)
            y &= y - _ONE
        m = 0
        for c in range(stride // entries):
            if entry[at, c] != 0:
                entry[at, m] = c * entries + entry[at, c]
                m += 1
        used[at] = m
    total = 0
    for b in range(buckets):
        if first[b] == first[b + 1]:
            continue
        free = (buckets - 1) & ~b
        s = free
        while True:  # every group of the small list whose cut bits are disjoint from b's
            for i in range(start[s], start[s + 1]):
                for block in range(first[b], first[b + 1]):
                    w = block * BLOCK
                    a0, a1, a2, a3 = valid[w], valid[w + 1], valid[w + 2], valid[w + 3]
                    for j in range(used[i]):
                        o = (block * stride + entry[i, j]) * BLOCK
                        a0 &= table[o]
                        a1 &= table[o + 1]
                        a2 &= table[o + 2]
                        a3 &= table[o + 3]
                    total += popcount(a0) + popcount(a1) + popcount(a2) + popcount(a3)
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
            total += weights[i] * matching(top, bottom)
        else:
            total += weights[i] * matching(bottom, top)
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
