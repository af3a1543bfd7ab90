"""The count of the pairs of two lists of signatures that share no bit: the larger list stored
bit-transposed, 64 partials a word, behind a sieve of a few cut bits, with AND tables per chunk
of bits, so that each partial of the other list tests 64 pairs per AND."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....watch import FLAG
from ..bits import ONE as _ONE
from ..bits import ZERO as _ZERO
from ..bits import lowbit, popcount, trailing_zeros
from .intrinsics import BLOCK, UNROLLED, _run_ones
from .space import SLOT_ARRANGED, SLOT_ENTRY, SLOT_TABLE, _scratch

#: The most cut bits of the sieve (2^MAX_CUTS buckets); fewer where buckets would be small.
MAX_CUTS = 8


#: The smallest bucket the sieve cuts down to (partials), below which a cut costs more than it
#: saves: two blocks of partials. A bucket's last block is part-filled and every visit costs a
#: partial's whole run of rows, so fuller buckets beat the pairs a further cut removes (the
#: settings measured are in docs/benchmarks.md).
MIN_BUCKET = 2 * 64 * BLOCK


#: The most signature bits per chunk of the AND tables: a partial ANDs one row per chunk, each
#: row the AND of its bits' rows in that chunk, made once per bucket (2^bits rows per chunk).
#: The bits left after the cuts are numbered afresh (`_squeezer`) and dealt into as few chunks
#: as take them, of equal size: every chunk costs each visit of a partial to a block one load,
#: and a wider chunk a larger table per block to make and to keep in the cache
#: (docs/benchmarks.md § The matcher's chunks and tables).
MAX_CHUNK = 7
assert -(-64 // MAX_CHUNK) <= UNROLLED  # (the inner loop has straight-line code for each count)


#: A partial's weight is below this (at most 4: 2 per long diagonal a top partial holds, as
#: `symmetry._weighed` weighs them), so the weights' levels fit in arrays of this size.
WEIGHTS = 8
#: Partials sampled to choose the cut bits (their frequencies on both sides).
SAMPLED = 256


# The same as unsigned numbers, for index arithmetic with no negative-index wrap.
_BLOCK = np.uint64(BLOCK)


_SIX, _SIXTY_THREE = np.uint64(6), np.uint64(63)
#: The smallest pattern of a chunk with two bits set (0b11): the rows below it are the empty
#: pattern's (all ones) and the single bits' (the transposed words themselves).
_FIRST_PAIR = np.uint64(3)


@njit(cache=True, nogil=True)
def _cut_pattern(x, cuts, k):
    """Which of the k cut bits x holds, as a k-bit number."""
    v = _ZERO
    for j in range(np.uint64(k)):
        v |= ((x >> cuts[j]) & _ONE) << j
    return np.int64(v)


@njit(cache=True, nogil=True)
def _squeezer(rest):
    """The tables that number the bits of `rest` 0, 1, ... in order (a software pext, a byte at
    a time): squeezed(x) = the OR of table[j, byte j of x] over the 8 bytes of x & rest."""
    table = np.zeros((8, 256), np.uint64)
    at = 0  # the number of the next bit of rest
    for j in range(8):
        for b in range(8):  # each single bit's number, then every byte as the OR of two below it
            if (rest >> np.uint64(8 * j + b)) & _ONE:
                table[j, 1 << b] = _ONE << np.uint64(at)
                at += 1
        for v in range(3, 256):
            table[j, v] = table[j, v & (v - 1)] | table[j, v & -v]
    return table


@njit(cache=True, inline="always")
def _squeezed(x, table):
    """x's bits of `rest` numbered afresh, its other bits dropped (see _squeezer)."""
    out = _ZERO
    for j in range(8):
        out |= table[j, (x >> np.uint64(8 * j)) & np.uint64(255)]
    return out


@njit(cache=True, nogil=True)
def _frequencies(items, both):
    """How often each bit of `both` is set, over a sample of at most SAMPLED items (the counts
    only choose the sieve's cut bits)."""
    counts = np.zeros(64, np.int64)
    step = np.uint64(max(items.shape[0] // SAMPLED, 1))
    for i in range(_ZERO, np.uint64(items.shape[0]), step):
        y = items[i] & both
        while y != _ZERO:
            counts[np.uint64(trailing_zeros(y))] += 1
            y &= y - _ONE
    return counts


@njit(cache=True, nogil=True)
def _transpose(m):
    """The 64 x 64 bit matrix m (row i is m[i], column j its bit j) transposed in place: the
    two off-diagonal halves swap, then the bands within each half, ... down to single bits
    (Hacker's Delight 7-3), 6 x 32 steps where setting each partial's bits one by one took a
    step per bit."""
    j = np.uint64(32)
    mask = np.uint64(0x00000000FFFFFFFF)
    while j != _ZERO:
        for base in range(_ZERO, np.uint64(64), j + j):
            for k in range(base, base + j):  # (a run of j rows: the compiler vectorizes it)
                t = (m[k] ^ (m[k + j] << j)) & ~mask
                m[k] ^= t
                m[k + j] ^= t >> j
        j >>= _ONE
        mask ^= mask << j
    return m


@njit(cache=True, nogil=True)
def _levels(weights):
    """The distinct weights (below 8) in the order met: (level of each weight, weight of each
    level, how many)."""
    level_of = np.full(WEIGHTS, -1, np.int64)
    levels = np.zeros(WEIGHTS, np.int64)
    distinct = 0
    for w in weights:
        if level_of[w] < 0:
            level_of[w] = distinct
            levels[distinct] = w
            distinct += 1
    return level_of, levels, distinct


@njit(cache=True, nogil=True)
def _bucket_tables(arranged, valid, table, block0, blocks, width, bits, stride):
    """The AND tables of `blocks` blocks from block0 (a bucket's), at table[0:]: entry (block,
    chunk c, pattern e) is BLOCK words with a 1 for each partial of the block that lacks every
    bit of e in chunk c, at table[((block * stride) + c * 2^bits + e) * BLOCK]; the first
    chunk's rows hold only the block's partials that exist (`valid`: a bucket's last block is
    part-filled). Made for one bucket just before its visits, so they stay in the nearest
    caches while they are read (the whole list's tables would not fit there)."""
    entries = np.uint64(1 << bits)
    _bits = np.uint64(bits)
    wide = np.uint64(stride * BLOCK)
    w0 = np.uint64(block0) * _BLOCK
    for w in range(np.uint64(blocks) * _BLOCK):  # transposed: row[bit] has a 1 for each of the word's partials with it
        row = arranged[(w0 + w) << _SIX : (w0 + w + _ONE) << _SIX]
        _transpose(row)
        base = (w // _BLOCK) * wide + w % _BLOCK
        for r in range(np.uint64(width)):  # (a pattern with a bit above them is never asked for)
            table[base + ((r // _bits) * entries + (_ONE << (r % _bits))) * _BLOCK] = ~row[r]
    for e0 in range(_ZERO, np.uint64(blocks * stride), entries):
        lanes = w0 + e0 // np.uint64(stride) * _BLOCK  # the block's words of `valid`
        if e0 % np.uint64(stride) == _ZERO:  # the first chunk's rows hold only the block's partials
            for lane in range(_BLOCK):  # the empty pattern: every partial that exists lacks it
                table[e0 * _BLOCK + lane] = valid[lanes + lane]
            for r in range(_bits):  # (the single bits' rows: the others are made from them below)
                for lane in range(_BLOCK):
                    table[(e0 + (_ONE << r)) * _BLOCK + lane] &= valid[lanes + lane]
        else:
            for lane in range(_BLOCK):  # the empty pattern: every partial lacks it
                table[e0 * _BLOCK + lane] = ~_ZERO
        for e in range(_FIRST_PAIR, entries):  # the rows of two bits or more, each from two below it
            low = lowbit(e)
            if low != e:
                into, a, b = (e0 + e) * _BLOCK, (e0 + (e ^ low)) * _BLOCK, (e0 + low) * _BLOCK
                for lane in range(_BLOCK):
                    table[into + lane] = table[a + lane] & table[b + lane]


@njit(cache=True, nogil=True)
def _visited(start, free, weighs):
    """Whether a group of the small list has cut bits within `free` (a bucket's tables are
    made only where some partial visits them)."""
    s = free
    while True:
        if start[s * weighs] < start[(s + 1) * weighs]:
            return True
        if s == 0:
            return False
        s = (s - 1) & free


@njit(cache=True, nogil=True)
def matching(small, small_weight, big, big_weight, space, stop):
    """The pairs of small x big whose signatures share no bit, each counted as the product of
    its partials' weights (below 8). The big list is stored in blocks of BLOCK words
    (64 partials a word) per bucket, a bucket per cut pattern and weight; the small list is
    grouped by its cut bits, and each bucket is visited by every compatible group in turn, so
    its tables stay in the cache while they are read. `space` holds reusable arrays."""
    seen_small, seen_big = _ZERO, _ZERO
    for x in small:
        seen_small |= x
    for x in big:
        seen_big |= x
    both = seen_small & seen_big  # a bit set on one side only can never clash
    k = 0
    while k < MAX_CUTS and (big.shape[0] >> (k + 1)) >= MIN_BUCKET:
        k += 1
    score = _frequencies(small, both) * _frequencies(big, both)
    cuts = np.zeros(k, np.uint64)
    cutmask = _ZERO
    for j in range(k):
        best = np.argmax(score)
        if score[best] <= 0:
            k = j
            break
        cuts[j] = np.uint64(best)
        score[best] = -1
        cutmask |= _ONE << np.uint64(best)
    rest = both & ~cutmask
    squeeze = _squeezer(rest)
    width = popcount(rest)
    chunks = max((width + MAX_CHUNK - 1) // MAX_CHUNK, 1)
    bits = max((width + chunks - 1) // chunks, 1)  # per chunk, as even as they go
    entries = 1 << bits
    stride = chunks * entries  # table entries per block
    _bits, _entries = np.uint64(bits), np.uint64(entries)
    level_of, levels, distinct = _levels(big_weight)
    patterns = 1 << k
    buckets = patterns * distinct  # bucket = level * patterns + cut pattern
    # (the loops over partials index with unsigned numbers: numba then drops its negative-index wrap)
    bucket = np.empty(big.shape[0], np.uint64)
    sizes = np.zeros(buckets, np.int64)
    for i in range(np.uint64(big.shape[0])):
        b = np.uint64(level_of[np.uint64(big_weight[i])] * patterns + _cut_pattern(big[i], cuts, k))
        bucket[i] = b
        sizes[b] += 1
    first = np.zeros(buckets + 1, np.int64)  # each bucket's blocks
    for b in range(buckets):
        first[b + 1] = first[b] + (sizes[b] + 64 * BLOCK - 1) // (64 * BLOCK)
    blocks = first[buckets]
    # entry (block, chunk c, pattern e): BLOCK words with a 1 for each partial of the block that
    # lacks every bit of e in chunk c, at table[((block * stride) + c * entries + e) * BLOCK]
    words = blocks * BLOCK
    arranged = _scratch(space, SLOT_ARRANGED, 64 * words)  # bucket order, word w's 64 partials
    arranged[: 64 * words] = _ZERO  # (a bucket's last word has empty places)
    valid = np.zeros(words, np.uint64)
    placed = np.empty(buckets, np.uint64)  # where each bucket's next partial goes
    for b in range(buckets):
        placed[b] = np.uint64(first[b] * BLOCK * 64)
    for i in range(np.uint64(big.shape[0])):
        at = placed[bucket[i]]
        placed[bucket[i]] = at + _ONE
        arranged[at] = _squeezed(big[i], squeeze)
        valid[at >> _SIX] |= _ONE << (at & _SIXTY_THREE)
    # the small list grouped by cut pattern and weight (group pattern * weighs + weight level),
    # each partial as its table entries (one per chunk, at entry[at * chunks ...]; a chunk it
    # does not touch names the empty pattern's row)
    small_level, small_levels, weighs = _levels(small_weight)
    start = np.zeros(patterns * weighs + 1, np.int64)
    mine = np.empty(small.shape[0], np.int64)
    for i in range(small.shape[0]):
        mine[i] = _cut_pattern(small[i], cuts, k) * weighs + small_level[small_weight[i]]
        start[mine[i] + 1] += 1
    for b in range(patterns * weighs):
        start[b + 1] += start[b]
    slot = start[:-1].astype(np.uint64)
    entry = _scratch(space, SLOT_ENTRY, small.shape[0] * chunks)
    many = np.uint64(chunks)
    for i in range(np.uint64(small.shape[0])):
        at = slot[np.uint64(mine[i])]
        slot[np.uint64(mine[i])] = at + _ONE
        y = _squeezed(small[i], squeeze)
        for c in range(many):
            code = (y >> (c * _bits)) & (_entries - _ONE)
            entry[at * many + c] = (c * _entries + code) * _BLOCK  # (words from the block's table)
    most = 0  # blocks of the largest bucket
    for b in range(buckets):
        most = max(most, first[b + 1] - first[b])
    table = _scratch(space, SLOT_TABLE, most * stride * BLOCK)
    total = 0
    for b in range(buckets):
        if stop[FLAG] != 0:  # a set flag ends a long match between two buckets (watch.py)
            return total
        free = (patterns - 1) & ~b
        if first[b] == first[b + 1] or not _visited(start, free, weighs):
            continue
        _bucket_tables(arranged, valid, table, first[b], first[b + 1] - first[b], width, bits, stride)
        level = levels[b // patterns]
        s = free
        while True:  # every group of the small list whose cut bits are disjoint from b's
            for w in range(weighs):
                lo, hi = start[s * weighs + w], start[s * weighs + w + 1]
                if lo < hi:
                    ones = _run_ones(table, stride, entry, chunks, lo, hi, 0, first[b + 1] - first[b])
                    total += small_levels[w] * level * ones
            if s == 0:
                break
            s = (s - 1) & free
    return total

