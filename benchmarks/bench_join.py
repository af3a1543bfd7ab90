"""Counting by joining half-boards (issue 36): a prototype of the join, timed against the
constellation counter in one run, as ratios, with where its time goes.

    python benchmarks/bench_join.py            # n = 12..16
    python benchmarks/bench_join.py 16 18 --sample 10

The method, as measured here (it is not the engine's yet: the planner never picks it):
- Split the board into the top h = n // 2 rows and the bottom n - h rows. A solution puts its
  top queens on some set C of h columns and its bottom queens on the other n - h.
- For each C, list the top half's partial solutions (h queens on the top rows, on the columns
  of C, no two attacking) and the bottom half's (on the other columns). A top and a bottom
  partial make a solution exactly when no diagonal holds a queen of each. Only diagonals that
  cross both halves matter: n - 1 of each direction, so each partial is a 2n - 2 bit signature
  (one word up to n = 33) and a pair matches when the AND of the two words is zero.
- The count is the sum over C of the matching pairs. Pairs are counted 64 at a time: the
  larger list is stored bit-transposed (for each signature bit, a word per group of 64
  partials that lack it), and each partial of the smaller list ANDs the rows of its own bits.
  A few "cut" bits, those most often set on both sides, index buckets of the larger list, and
  a partial visits only the buckets whose cut bits it does not share (a sieve).
- Symmetry: the left-right mirror maps C to its mirror image, and for even n the top-bottom
  mirror maps C to its complement, so one C in each class of up to 4 is counted and weighted.

Each count is checked against OEIS A000170 and against the constellation counter's.
`--sample K` times every K-th column set (for large n) and scales the times up by K, splitting
them into listing the partials and matching them.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
from numba import njit

import nqueens_cp as nq
from nqueens_cp.backends.bitmask.bits import popcount, trailing_zeros

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104, 18: 666090624}
ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = ~np.uint64(0)


@njit(cache=True, nogil=True)
def partials(n, h, r0, rows, allowed, out):
    """The signatures of every placement of `rows` queens on rows r0.. in the columns of
    `allowed` (as many columns as rows), written to `out`; their number, or -1 if `out` is full."""
    full = (ONE << np.uint64(n)) - ONE
    window = (ONE << np.uint64(n - 1)) - ONE
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
        if a == ZERO:
            if i == 0:
                return k
            i -= 1
            continue
        bit = a & (~a + ONE)
        avail[i] = a ^ bit
        c = trailing_zeros(bit)
        r = r0 + i
        nd1 = d1[i] | (ONE << np.uint64(r + c))
        nd2 = d2[i] | (ONE << np.uint64(r - c + n - 1))
        if i == rows - 1:
            if k == out.shape[0]:
                return -1
            out[k] = ((nd1 >> np.uint64(h)) & window) | (((nd2 >> np.uint64(h)) & window) << np.uint64(n - 1))
            k += 1
            continue
        nc = cols[i] | bit
        nl = ((ld[i] | bit) << ONE) & full
        nr = (rd[i] | bit) >> ONE
        i += 1
        cols[i], ld[i], rd[i], d1[i], d2[i] = nc, nl, nr, nd1, nd2
        avail[i] = allowed & ~(nc | nl | nr)


@njit(cache=True, nogil=True)
def matching(small, big, nbits, maxcut):
    """The pairs (s, b) of small x big with s & b == 0, 64 at a time (see the module's text)."""
    fs = np.zeros(nbits, np.int64)
    fb = np.zeros(nbits, np.int64)
    for x in small:
        while x != ZERO:
            fs[trailing_zeros(x)] += 1
            x &= x - ONE
    for x in big:
        while x != ZERO:
            fb[trailing_zeros(x)] += 1
            x &= x - ONE
    k = 0
    while k < maxcut and (big.shape[0] >> (k + 1)) >= 256:
        k += 1
    score = fs * fb
    cuts = np.zeros(k, np.int64)
    for j in range(k):
        cuts[j] = np.argmax(score)
        score[cuts[j]] = -1
    cutmask = ZERO
    for j in range(k):
        cutmask |= ONE << np.uint64(cuts[j])
    buckets = 1 << k
    index = np.empty(big.shape[0], np.int64)
    sizes = np.zeros(buckets, np.int64)
    for i in range(big.shape[0]):
        v = 0
        for j in range(k):
            if (big[i] >> np.uint64(cuts[j])) & ONE:
                v |= 1 << j
        index[i] = v
        sizes[v] += 1
    first = np.zeros(buckets + 1, np.int64)
    for b in range(buckets):
        first[b + 1] = first[b] + (sizes[b] + 63) // 64
    groups = first[buckets]
    lacks = np.full(nbits * groups, ALL)
    valid = np.zeros(groups, np.uint64)
    placed = np.zeros(buckets, np.int64)
    for i in range(big.shape[0]):
        b = index[i]
        g = first[b] + placed[b] // 64
        bit = ONE << np.uint64(placed[b] % 64)
        placed[b] += 1
        valid[g] |= bit
        x = big[i] & ~cutmask
        while x != ZERO:
            lacks[trailing_zeros(x) * groups + g] &= ~bit
            x &= x - ONE
    rows = np.empty(nbits, np.int64)
    acc = np.empty(groups, np.uint64)
    total = 0
    for x in small:
        mine = 0
        for j in range(k):
            if (x >> np.uint64(cuts[j])) & ONE:
                mine |= 1 << j
        m = 0
        y = x & ~cutmask
        while y != ZERO:
            rows[m] = trailing_zeros(y) * groups
            m += 1
            y &= y - ONE
        free = (buckets - 1) & ~mine
        s = free
        while True:  # every bucket whose cut bits are disjoint from this partial's
            g0, g1 = first[s], first[s + 1]
            w = g1 - g0
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


def listed(n: int, r0: int, rows: int, allowed: int) -> np.ndarray:
    out = np.empty(1 << 12, np.uint64)
    while (k := partials(n, n // 2, r0, rows, np.uint64(allowed), out)) < 0:
        out = np.empty(2 * out.shape[0], np.uint64)
    return out[:k]


def column_sets(n: int) -> list[tuple[int, int]]:
    """(C, weight): one set of top columns per class under the mirrors that hold."""
    full, h = (1 << n) - 1, n // 2
    mirror = lambda c: int(f"{c:0{n}b}"[::-1], 2)  # noqa: E731
    out = []
    for combo in itertools.combinations(range(n), h):
        c = sum(1 << x for x in combo)
        orbit = {c, mirror(c)} | ({full ^ c, full ^ mirror(c)} if n % 2 == 0 else set())
        if c == min(orbit):
            out.append((c, len(orbit)))
    return out


def join_count(n: int, sample: int = 1, maxcut: int = 8) -> tuple[int, float, float]:
    """(count, seconds listing partials, seconds matching) over every `sample`-th column set
    (times scaled up by `sample`; the count is whole only for sample = 1)."""
    h, full = n // 2, (1 << n) - 1
    total, listing, matched = 0, 0.0, 0.0
    for c, weight in column_sets(n)[::sample]:
        start = time.perf_counter()
        top, bottom = listed(n, 0, h, c), listed(n, h, n - h, full ^ c)
        middle = time.perf_counter()
        if len(top) and len(bottom):
            small, big = (top, bottom) if len(top) <= len(bottom) else (bottom, top)
            total += weight * matching(small, big, 2 * n - 2, maxcut)
        listing += middle - start
        matched += time.perf_counter() - middle
    return total, listing * sample, matched * sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[12, 13, 14, 15, 16])
    parser.add_argument("--sample", type=int, default=1, help="time every K-th column set (large n)")
    args = parser.parse_args()
    join_count(8)  # compile
    nq.count(12, workers=1)  # load the constellations' kernels
    print("n      join s  (listing, matching)  constellations s  join / constellations")
    for n in args.sizes:
        count, listing, matched = join_count(n, args.sample)
        if args.sample == 1:
            assert count == A000170.get(n, count), (n, count)
        start = time.perf_counter()
        reference = nq.count(n, workers=1)
        cons = time.perf_counter() - start
        if args.sample == 1:
            assert count == reference, (n, count, reference)
        took = listing + matched
        print(f"{n:<4} {took:9.2f}  ({listing:7.2f}, {matched:7.2f})  {cons:16.2f}  {took / cons:10.2f}")


if __name__ == "__main__":
    main()
