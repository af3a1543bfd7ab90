"""Sets of columns as bit masks: the next set of as many columns (Gosper's rule), the rank of a
set among those of its size (the combinatorial number system), a set's mirror image, and the
top column sets the join counts, one of each class under the mirrors that hold."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import trailing_zeros


@njit(cache=True, nogil=True)
def _next_of_size(s):
    """The next larger number with as many bits set as s > 0 (Gosper's rule)."""
    low = s & -s
    ripple = s + low
    return (((ripple ^ s) >> 2) // low) | ripple


@njit(cache=True, nogil=True)
def _binomials(n):
    """binomial[a, b] = a choose b, for a, b <= n."""
    binomial = np.zeros((n + 1, n + 1), np.int64)
    for a in range(n + 1):
        binomial[a, 0] = 1
        for b in range(1, a + 1):
            binomial[a, b] = binomial[a - 1, b - 1] + binomial[a - 1, b]
    return binomial


@njit(cache=True, nogil=True)
def _rank(s, column, binomial):
    """The rank of the set of columns column[p] for the bits p of s among the sets of as many
    columns (the combinatorial number system: the sum of (c_i choose i + 1) over its columns
    in increasing order), so that the groups of a band need an index only as long as the
    number of column sets it can use."""
    rank, i = 0, 0
    while s != 0:
        rank += binomial[column[trailing_zeros(np.uint64(s))], i + 1]
        i += 1
        s &= s - 1
    return rank


@njit(cache=True, nogil=True)
def _reversed(x):
    """x's 64 bits in reverse order (swaps of halves, bands, ... single bits)."""
    x = ((x >> np.uint64(1)) & np.uint64(0x5555555555555555)) | ((x & np.uint64(0x5555555555555555)) << np.uint64(1))
    x = ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)) | ((x & np.uint64(0x3333333333333333)) << np.uint64(2))
    x = ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8))
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))
    return (x >> np.uint64(32)) | (x << np.uint64(32))


@njit(cache=True, nogil=True)
def _mirror(c, n):
    """The mirror image (column x to n - 1 - x) of the column set c, 1 <= n <= 64."""
    return _reversed(np.uint64(c)) >> np.uint64(64 - n)


@njit(cache=True, nogil=True)
def list_column_sets(n, out_sets, out_weights):
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
        c = _next_of_size(c)
    return k

