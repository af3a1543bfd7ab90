"""The compiled join of half-boards: the count of queens as pairs of top and bottom partial
solutions that share no diagonal, matched 64 at a time, instead of a search to the leaves.

Why: the constellation counter walks the whole tree (at the C yardstick's node rate, with 4.4x
fewer nodes), and every refinement of that search measured lost; the fastest published CPU
counter joins partial boards instead. This is a join of our own, in the engine's style:
- Split the board into its top h = n // 2 rows and the other n - h. A solution puts its top
  queens on some set C of h columns and its bottom queens on the rest, so the count is a sum
  over C: a work item is a few such sets (`partitions.join`).
- For each C, every top partial solution (h queens on the top rows and the columns of C, no
  two attacking) and every bottom one is listed. A top and a bottom partial make a solution
  exactly when no diagonal holds a queen of each; only the diagonals that cross both halves
  can, n - 1 of each direction, so a partial is a 2n - 2 bit signature and a pair matches when
  the AND of the two words is zero (one word up to n = 33).
- A half's partials are themselves a join, of its two quarters (its first rows and the rest):
  each quarter's placements are grouped by the columns they use, and pairs from complementary
  groups are kept where their diagonals differ. A search of the half would visit many nodes
  per partial; the quarters' join tries about 11 pairs per partial. A quarter's placements on
  any columns are listed once (quarter_tables), not searched again for each C, where they are
  few enough (MOST_LISTED_ONCE).
- The larger list is stored bit-transposed, a word per group of 64 partials, and only the bits
  set on both sides count. Up to MAX_CUTS "cut" bits, those most often set on both sides,
  split it into buckets, and a partial of the smaller list visits only the buckets whose cut
  bits it does not share (a sieve). The other bits are taken CHUNK at a time: for each chunk,
  a table holds, per pattern of its bits, the words of the partials that lack all of them, so
  a partial ANDs one word per chunk it touches (not one per bit) and counts the ones: 64 pairs
  per AND.
- Symmetry. The left-right mirror maps C onto its mirror image; the reflections in the long
  diagonals map a queen on a long diagonal in the bottom half onto one in the top half; on an
  even board the top-bottom mirror maps C onto its complement (for solutions with no queen on
  a long diagonal only, since it swaps the halves). So one C of each class is counted, bottoms
  with a queen on a long diagonal are left out and tops weigh 2 per long diagonal they hold
  (_count_set): close to 8 solutions for each pair matched, on odd boards as well, where the
  centre, which both reflections keep, may hold a bottom queen.
- The bottom partials of a column set are the top-bottom mirror images of its top partials,
  so each set's top partials are listed once and serve both halves.
Its speed beside the constellation counter and the published quadrant counter, and where its
time goes, are measured in docs/benchmarks.md (benchmarks/bench_join.py, bench_quadrants.py,
profile_join.py). Memory grows with the longest list and is declared to the planner
(`partitions.join.memory`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding, ir
from numba import njit, types
from numba.core import cgutils, config
from numba.extending import intrinsic

from ...watch import FLAG
from .bits import ONE as _ONE
from .bits import ZERO as _ZERO
from .bits import lowbit, popcount, trailing_zeros

#: The most cut bits of the sieve (2^MAX_CUTS buckets); fewer where buckets would be small.
MAX_CUTS = 8
#: The smallest bucket the sieve cuts down to (partials), below which a cut costs more than it saves.
MIN_BUCKET = 256
#: Words ANDed side by side: the matcher's inner loop holds them in one vector (`_run_ones`),
#: one AVX2 register.
BLOCK = 4
#: Signature bits per chunk of the AND tables: a partial ANDs one row per chunk it touches,
#: each row the AND of up to CHUNK bits' rows, made once per list (2^CHUNK rows per chunk).
CHUNK = 5
#: Partials sampled to choose the cut bits (their frequencies on both sides).
SAMPLED = 256
#: Room for partial solutions at first (grown by doubling, so memory follows the largest list).
FIRST_ROOM = 1 << 12

# The same as unsigned numbers, for index arithmetic with no negative-index wrap.
_BLOCK, _CHUNK, _ENTRIES = np.uint64(BLOCK), np.uint64(CHUNK), np.uint64(1 << CHUNK)
_SIX, _SIXTY_THREE = np.uint64(6), np.uint64(63)


_I64 = ir.IntType(64)
_LANES = ir.VectorType(_I64, BLOCK)


def _lanes(builder: ir.IRBuilder, where: ir.Value) -> ir.Value:
    """The BLOCK words at pointer `where`, loaded as one vector (word-aligned)."""
    return builder.load(builder.bitcast(where, _LANES.as_pointer()), align=8)


@intrinsic
def _run_ones(typingctx, table, stride, entry, used, chunks, lo, hi, valid, first, last):
    """The matcher's inner loop in vector code: for each small partial i in lo..hi-1 and each
    block in first..last-1, the ones of valid[block * BLOCK:][:BLOCK] AND
    table[block * stride * BLOCK + entry[i * chunks + j]:][:BLOCK] for every j < used[i], all
    summed (a run of partials of one weight, so the lanes are summed once per run).

    Why an intrinsic: numba compiles that loop to four scalar ANDs a row, each load behind a
    check for negative indices, and never uses the vector unit. Here a row is one BLOCK-lane
    load and AND (one AVX2 instruction) and the ones are counted lane-wise (llvm.ctpop on the
    vector), with the indices known non-negative (the caller's). Blocks are taken two at a
    time, so that each entry read serves two rows."""
    i64 = types.int64
    sig = i64(table, i64, entry, used, i64, i64, i64, valid, i64, i64)

    def codegen(context, builder, signature, args):
        tab, stride, ent, use, chunks, lo, hi, val, first, last = args
        rows = context.make_array(signature.args[0])(context, builder, tab).data
        entries = context.make_array(signature.args[2])(context, builder, ent).data
        uses = context.make_array(signature.args[3])(context, builder, use).data
        valids = context.make_array(signature.args[7])(context, builder, val).data
        width = ir.Constant(_I64, BLOCK)
        one = ir.Constant(_I64, 1)
        wide = builder.mul(stride, width)  # words of a block's table
        counted = ir.FunctionType(_LANES, [_LANES])
        ctpop = cgutils.get_or_insert_function(builder.module, counted, f"llvm.ctpop.v{BLOCK}i64")
        ones = cgutils.alloca_once_value(builder, ir.Constant(_LANES, None))
        accs = [cgutils.alloca_once(builder, _LANES) for _ in range(2)]

        def blocks(block, group, mine, n_used):
            """The ones of `group` blocks from `block` against the partial's entries `mine`."""
            bases = []
            for t in range(group):
                at = builder.add(block, ir.Constant(_I64, t))
                builder.store(_lanes(builder, builder.gep(valids, [builder.mul(at, width)], inbounds=True)), accs[t])
                bases.append(builder.gep(rows, [builder.mul(at, wide)], inbounds=True))
            with cgutils.for_range(builder, n_used, intp=_I64) as loop:
                e = builder.load(builder.gep(mine, [loop.index], inbounds=True))
                for t in range(group):
                    row = _lanes(builder, builder.gep(bases[t], [e], inbounds=True))
                    builder.store(builder.and_(builder.load(accs[t]), row), accs[t])
            for t in range(group):
                builder.store(builder.add(builder.load(ones), builder.call(ctpop, [builder.load(accs[t])])), ones)

        span = builder.sub(last, first)
        pairs = builder.lshr(span, one)
        with cgutils.for_range_slice(builder, lo, hi, one, intp=_I64) as (i, _):
            mine = builder.gep(entries, [builder.mul(i, chunks)], inbounds=True)
            n_used = builder.load(builder.gep(uses, [i], inbounds=True))
            with cgutils.for_range(builder, pairs, intp=_I64) as pair:
                blocks(builder.add(first, builder.shl(pair.index, one)), 2, mine, n_used)
            with builder.if_then(builder.trunc(span, ir.IntType(1))):
                blocks(builder.sub(last, one), 1, mine, n_used)
        summed = builder.load(ones)
        total = builder.extract_element(summed, ir.Constant(ir.IntType(32), 0))
        for lane in range(1, BLOCK):
            total = builder.add(total, builder.extract_element(summed, ir.Constant(ir.IntType(32), lane)))
        return total

    return sig, codegen




def _avx2() -> bool:
    """Whether the code numba makes may use AVX2: this CPU's, or the target named in
    NUMBA_CPU_NAME and NUMBA_CPU_FEATURES (a cache made for other machines)."""
    if config.CPU_NAME:
        return "+avx2" in (config.CPU_FEATURES or "")
    return bool(binding.get_host_cpu_features().get("avx2"))


#: Whether the quarters' scan packs its pairs four at a time (an AVX2 permute).
_PACKS = _avx2()
_I32 = ir.IntType(32)
_DWORDS = ir.VectorType(_I32, 8)


def _pack_order() -> ir.Constant:
    """For each 4-bit mask, the dwords that put its lanes first, in order (an AVX2 permute)."""
    orders = []
    for mask in range(16):
        picked = [d for lane in range(4) if mask >> lane & 1 for d in (2 * lane, 2 * lane + 1)]
        orders.append(ir.Constant(_DWORDS, [ir.Constant(_I32, d) for d in picked + [0] * (8 - len(picked))]))
    return ir.Constant(ir.ArrayType(_DWORDS, 16), orders)


@intrinsic
def _paired_packed(typingctx, a, sa, b, sb, out, k, lo1, hi1, lo2, hi2):
    """_paired in vector code, four pairs of (i, j) at a time: one AND and compare of four
    words, one OR of four, and the matching ones packed to the front with one permute and
    stored together, where the scalar scan takes a load, AND, test, OR and store per pair.
    It may write up to three words past the pairs it keeps (the caller leaves room). Where
    the target has no AVX2 (_PACKS false) it is the scalar scan: LLVM could not compile the
    permute there, even in a branch never taken."""
    i64 = types.int64
    sig = i64(a, sa, b, sb, out, i64, i64, i64, i64, i64)

    def codegen(context, builder, signature, args):
        k, lo1, hi1, lo2, hi2 = args[5:]
        data = [context.make_array(signature.args[t])(context, builder, v).data for t, v in enumerate(args[:5])]
        pa, psa, pb, psb, pout = data
        one = ir.Constant(_I64, 1)
        zero4 = ir.Constant(_LANES, None)
        module = builder.module
        at = cgutils.alloca_once_value(builder, k)
        tail = lo2  # where the scalar scan starts
        if _PACKS:
            table = cgutils.add_global_variable(module, ir.ArrayType(_DWORDS, 16), "nq_pack_order")
            table.initializer = _pack_order()
            table.global_constant = True
            table.linkage = "internal"
            permuted = ir.FunctionType(_DWORDS, [_DWORDS, _DWORDS])
            permd = cgutils.get_or_insert_function(module, permuted, "llvm.x86.avx2.permd")
            ctpop = cgutils.get_or_insert_function(module, ir.FunctionType(_I64, [_I64]), "llvm.ctpop.i64")
            quads = builder.lshr(builder.sub(hi2, lo2), ir.Constant(_I64, 2))
            tail = builder.add(lo2, builder.shl(quads, ir.Constant(_I64, 2)))

        def broadcast(x):
            v = builder.insert_element(zero4, x, ir.Constant(_I32, 0))
            return builder.shuffle_vector(v, zero4, ir.Constant(ir.VectorType(_I32, 4), [0, 0, 0, 0]))

        def packed(x, xs):
            vx, vxs = broadcast(x), broadcast(xs)
            with cgutils.for_range(builder, quads, intp=_I64) as q:
                j = builder.add(lo2, builder.shl(q.index, ir.Constant(_I64, 2)))
                clash = builder.and_(_lanes(builder, builder.gep(pb, [j], inbounds=True)), vx)
                keep = builder.icmp_unsigned("==", clash, zero4)
                mask = builder.zext(builder.bitcast(keep, ir.IntType(4)), _I64)
                joined = builder.or_(_lanes(builder, builder.gep(psb, [j], inbounds=True)), vxs)
                order = builder.load(builder.gep(table, [ir.Constant(_I64, 0), mask], inbounds=True))
                moved = builder.call(permd, [builder.bitcast(joined, _DWORDS), order])
                where = builder.gep(pout, [builder.load(at)], inbounds=True)
                builder.store(builder.bitcast(moved, _LANES), builder.bitcast(where, _LANES.as_pointer()), align=8)
                builder.store(builder.add(builder.load(at), builder.call(ctpop, [mask])), at)

        with cgutils.for_range_slice(builder, lo1, hi1, one, intp=_I64) as (i, _):
            x = builder.load(builder.gep(pa, [i], inbounds=True))
            xs = builder.load(builder.gep(psa, [i], inbounds=True))
            if _PACKS:
                packed(x, xs)
            with cgutils.for_range_slice(builder, tail, hi2, one, intp=_I64) as (j, _):
                y = builder.load(builder.gep(pb, [j], inbounds=True))
                joined = builder.or_(builder.load(builder.gep(psb, [j], inbounds=True)), xs)
                builder.store(joined, builder.gep(pout, [builder.load(at)], inbounds=True))
                free = builder.icmp_unsigned("==", builder.and_(x, y), ir.Constant(_I64, 0))
                builder.store(builder.add(builder.load(at), builder.zext(free, _I64)), at)
        return builder.load(at)

    return sig, codegen


@njit(cache=True, nogil=True)
def _placements(n, r0, rows, allowed, forbid, position, d1o, d2o, po):
    """Every placement of `rows` queens on rows r0.. in distinct columns of `allowed` (less the
    columns forbid[r] in row r), no two attacking, written to d1o, d2o (its / and \\
    diagonals, r + c and r - c + n - 1, as words) and po (the positions within `allowed` of
    its columns, as a mask): their number, or -1 when the arrays are too small."""
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
    avail[0] = allowed & ~forbid[r0]
    while True:
        a = avail[i]
        if a == _ZERO:
            if i == 0:
                return k
            i -= 1
            continue
        bit = lowbit(a)
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
        avail[i] = allowed & ~(nc | nl | nr | forbid[r0 + i])


@njit(cache=True, nogil=True)
def _scratch(space, i, size):
    """space[i] with room for `size` words, grown (to twice the size) when it has less: the
    lists and tables are reused from one column set to the next, not allocated afresh."""
    if space[i].shape[0] < size:
        space[i] = np.empty(2 * size, np.uint64)
    return space[i]


@njit(cache=True, nogil=True)
def new_space():
    """The reusable arrays of count_sets, listed and matching (slots: SLOT_* below)."""
    return [np.empty(0, np.uint64) for _ in range(SLOTS)]


SLOT_TABLE, SLOT_ENTRY, SLOT_ARRANGED, SLOT_PLACED, SLOT_UPPER, SLOT_LOWER, SLOT_TOP, SLOT_UNDER = range(8)
SLOTS = 10  # the last two hold the flipped lists


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
    in increasing order), so that the groups of a quarter need an index only as long as the
    number of column sets it can use."""
    rank, i = 0, 0
    while s != 0:
        rank += binomial[column[trailing_zeros(np.uint64(s))], i + 1]
        i += 1
        s &= s - 1
    return rank


@njit(cache=True, nogil=True)
def _grouped(n, r0, rows, allowed, forbid, seam, most, space, slot):
    """The placements of _placements over the columns `allowed`, grouped by the columns they
    use: (first, seen, sig), the group of the column set of rank i (_rank, the columns numbered
    by their position within `allowed`) being first[i]:first[i + 1] (a counting sort), seen the
    diagonals a placement shares with the rows on the other side of the row `seam` and sig its
    part of the signature (see listed). In space[slot], 2 words each. Empty (first too) when
    there are more than `most` placements."""
    h = np.uint64(n // 2)
    window = (_ONE << np.uint64(n - 1)) - _ONE
    shift = np.uint64(n - 1)
    at_seam = np.uint64(seam)
    position = np.zeros(n, np.int64)
    width = 0
    for c in range(n):
        if (allowed >> np.uint64(c)) & _ONE:
            position[c] = 1 << width
            width += 1
    while True:
        raw = _scratch(space, SLOT_PLACED, 3 << 10)
        room = raw.shape[0] // 3
        d1, d2, pos = raw[:room], raw[room : 2 * room], raw[2 * room : 3 * room].view(np.int64)
        k = _placements(n, r0, rows, allowed, forbid, position, d1, d2, pos)
        if k >= 0:
            break
        if room >= most:
            return np.zeros(0, np.int64), space[slot][:0], space[slot][:0]
        space[SLOT_PLACED] = np.empty(6 * room, np.uint64)
    binomial = _binomials(n)
    numbered = np.arange(n)
    first = np.zeros(binomial[width, rows] + 1, np.int64)
    for i in range(k):
        pos[i] = _rank(pos[i], numbered, binomial)
        first[pos[i] + 1] += 1
    for i in range(first.shape[0] - 1):
        first[i + 1] += first[i]
    at = first[:-1].copy()
    grouped = _scratch(space, slot, 2 * k)
    seen, sig = grouped[:k], grouped[k : 2 * k]
    for i in range(k):
        j = at[pos[i]]
        at[pos[i]] += 1
        seen[j] = ((d1[i] >> at_seam) & window) | (((d2[i] >> at_seam) & window) << shift)
        sig[j] = ((d1[i] >> h) & window) | (((d2[i] >> h) & window) << shift)
    return first, seen, sig


#: The most placements of a quarter listed once for every column set (quarter_tables): 32 MB.
MOST_LISTED_ONCE = 1 << 21
#: No bound on a quarter's placements (one column set's, listed per set).
_UNBOUNDED = 1 << 62


@njit(cache=True, nogil=True)
def _quarters(n):
    """The quarters of the half-boards on an n x n board, as (first row, rows) pairs: the top
    half's two, then (odd n) the bottom half's, whose rows leave the long diagonals (forbid)."""
    h = n // 2
    if n % 2 == 0:
        return np.array([0, h // 2, h // 2, h - h // 2], np.int64), np.zeros(n, np.uint64)
    forbid = np.zeros(n, np.uint64)  # the bottom half (with the middle row) leaves its long diagonals but the centre
    for r in range(h + 1, n):
        forbid[r] = (_ONE << np.uint64(r)) | (_ONE << np.uint64(n - 1 - r))
    b = n - h
    return np.array([0, h // 2, h // 2, h - h // 2, h, b // 2, h + b // 2, b - b // 2], np.int64), forbid


@njit(cache=True, nogil=True)
def quarter_tables(n):
    """The quarters' placements over all n columns, grouped as _grouped groups them, listed
    once for every column set where a quarter has at most MOST_LISTED_ONCE placements (an
    empty table otherwise: that quarter is searched per column set). Listing them once saves
    a search per quarter and column set."""
    rows_of, forbid = _quarters(n)
    full = (_ONE << np.uint64(n)) - _ONE
    tables = []
    for q in range(4):
        first, seen, sig = np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.uint64)
        if 2 * q < rows_of.shape[0]:
            r0, rows = rows_of[2 * q], rows_of[2 * q + 1]
            seam = r0 + rows if q % 2 == 0 else r0
            f, a, b = _grouped(n, r0, rows, full, forbid, seam, MOST_LISTED_ONCE, new_space(), SLOT_UPPER)
            first, seen, sig = f.copy(), a.copy(), b.copy()
        tables.append((first, seen, sig))
    return tables[0], tables[1], tables[2], tables[3]


@njit(cache=True, nogil=True)
def listed(n, r0, rows, allowed, forbid, upper_table, lower_table, space, slot, stop):
    """The signatures of the partial solutions on `rows` rows from r0 in the columns `allowed`
    (as many as rows), less the columns forbid[r] in each row r, in space[slot]. Bits 0..n-2
    are the / diagonals r + c = h..h+n-2 and bits n-1..2n-3 the \\ diagonals r - c + n - 1 in
    the same range, h = n // 2.

    The half is itself a join of two quarters, its first rows // 2 rows and the rest: each is
    grouped by the columns it uses, from its table (quarter_tables) or, where that is empty,
    from a search over all of `allowed`, and a partial is a pair from complementary groups
    whose diagonals differ (only the 2n - 2 that cross the seam between them can be shared:
    one word, `seen`), found by a branch-free scan (about 11 pairs tried per partial at n = 18,
    where a search of the half visits far more nodes per leaf)."""
    upper = rows // 2
    seam = r0 + upper
    column = np.zeros(n, np.int64)  # the columns of `allowed`, in order
    width = 0
    for c in range(n):
        if (allowed >> np.uint64(c)) & _ONE:
            column[width] = c
            width += 1
    numbered = np.arange(n)
    f1, a, sa = upper_table
    column_1 = column
    if f1.shape[0] == 0:
        f1, a, sa = _grouped(n, r0, upper, allowed, forbid, seam, _UNBOUNDED, space, SLOT_UPPER)
        column_1 = numbered
    f2, b, sb = lower_table
    column_2 = column
    if f2.shape[0] == 0:
        f2, b, sb = _grouped(n, seam, rows - upper, allowed, forbid, seam, _UNBOUNDED, space, SLOT_LOWER)
        column_2 = numbered
    binomial = _binomials(n)
    every = (1 << width) - 1
    out = _scratch(space, slot, FIRST_ROOM)
    k = 0
    s = (1 << upper) - 1
    while s <= every:  # every set of `upper` of the columns (Gosper's rule)
        if stop[FLAG] != 0:  # (the caller discards what a stopped call returns)
            return out[:k]
        u = _rank(s, column_1, binomial)
        v = _rank(every ^ s, column_2, binomial)
        s = _next_of_size(s) if s != 0 else every + 1
        lo, hi = f2[v], f2[v + 1]
        if f1[u + 1] == f1[u] or hi == lo:
            continue
        need = k + (f1[u + 1] - f1[u]) * (hi - lo) + 4  # (room for a packed scan's last store)
        if need > out.shape[0]:
            grown = np.empty(2 * need, np.uint64)
            grown[:k] = out[:k]
            space[slot] = out = grown
        k = _paired(a, sa, b, sb, out, k, f1[u], f1[u + 1], lo, hi, _PACKS)
    return out[:k]


@njit(cache=True, nogil=True)
def _paired(a, sa, b, sb, out, k, lo1, hi1, lo2, hi2, packs):
    """The scan of listed: out[k:] gets sa[i] | sb[j] for each pair (i, j) of lo1..hi1 x
    lo2..hi2 whose `a[i] & b[j]` is zero, in order; the new k. Four pairs at a time where
    `packs` (_paired_packed, up to three words written past the last kept); otherwise one at
    a time, with unsigned indices so that numba drops its negative-index wrap on every access."""
    if packs:
        return _paired_packed(a, sa, b, sb, out, k, lo1, hi1, lo2, hi2)
    at = np.uint64(k)
    for i in range(np.uint64(lo1), np.uint64(hi1)):
        x, xs = a[i], sa[i]
        for j in range(np.uint64(lo2), np.uint64(hi2)):
            out[at] = xs | sb[j]
            at += np.uint64((x & b[j]) == _ZERO)
    return np.int64(at)


@njit(cache=True, nogil=True)
def _cut_pattern(x, cuts, k):
    """Which of the k cut bits x holds, as a k-bit number."""
    v = _ZERO
    for j in range(np.uint64(k)):
        v |= ((x >> cuts[j]) & _ONE) << j
    return np.int64(v)


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
    two off-diagonal halves swap, then the quarters within each half, ... down to single bits
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
    level_of = np.full(8, -1, np.int64)
    levels = np.zeros(8, np.int64)
    distinct = 0
    for w in weights:
        if level_of[w] < 0:
            level_of[w] = distinct
            levels[distinct] = w
            distinct += 1
    return level_of, levels, distinct


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
    entries = 1 << CHUNK
    top_bit = 0
    while (rest >> np.uint64(top_bit)) > _ZERO:
        top_bit += 1
    chunks = max((top_bit + CHUNK - 1) // CHUNK, 1)  # over the bit positions as they are
    stride = chunks * entries  # table entries per block
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
        arranged[at] = big[i] & rest
        valid[at >> _SIX] |= _ONE << (at & _SIXTY_THREE)
    table = _scratch(space, SLOT_TABLE, blocks * stride * BLOCK)
    wide = np.uint64(stride * BLOCK)
    for w in range(np.uint64(words)):  # transposed: row[bit] has a 1 for each of the word's partials with it
        row = arranged[w << _SIX : (w + _ONE) << _SIX]
        _transpose(row)
        base = (w // _BLOCK) * wide + w % _BLOCK
        for r in range(np.uint64(chunks * CHUNK)):
            table[base + ((r // _CHUNK) * _ENTRIES + (_ONE << (r % _CHUNK))) * _BLOCK] = ~row[r]
    for e0 in range(_ZERO, np.uint64(blocks * stride), _ENTRIES):
        for e in range(np.uint64(3), _ENTRIES):
            low = lowbit(e)
            if low != e:
                into, a, b = (e0 + e) * _BLOCK, (e0 + (e ^ low)) * _BLOCK, (e0 + low) * _BLOCK
                for lane in range(_BLOCK):
                    table[into + lane] = table[a + lane] & table[b + lane]
    # the small list grouped by cut pattern and weight (group pattern * weighs + weight level),
    # each partial as its table entries (one per chunk it touches, at entry[at * chunks ...])
    # and their number
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
    used = np.zeros(small.shape[0], np.int64)
    many = np.uint64(chunks)
    for i in range(np.uint64(small.shape[0])):
        at = slot[np.uint64(mine[i])]
        slot[np.uint64(mine[i])] = at + _ONE
        y = small[i] & rest
        m = _ZERO
        for c in range(many):  # (an entry written for an untouched chunk is overwritten)
            code = (y >> (c * _CHUNK)) & (_ENTRIES - _ONE)
            entry[at * many + m] = (c * _ENTRIES + code) * _BLOCK  # (words from the block's table)
            m += np.uint64(code != _ZERO)
        used[at] = np.int64(m)
    total = 0
    for b in range(buckets):
        if stop[FLAG] != 0:  # a set flag ends a long match between two buckets (watch.py)
            return total
        if first[b] == first[b + 1]:
            continue
        level = levels[b // patterns]
        free = (patterns - 1) & ~b
        s = free
        while True:  # every group of the small list whose cut bits are disjoint from b's
            for w in range(weighs):
                lo, hi = start[s * weighs + w], start[s * weighs + w + 1]
                if lo < hi:
                    ones = _run_ones(table, stride, entry, used, chunks, lo, hi, valid, first[b], first[b + 1])
                    total += small_levels[w] * level * ones
            if s == 0:
                break
            s = (s - 1) & free
    return total


@njit(cache=True, nogil=True)
def _reversed(x):
    """x's 64 bits in reverse order (swaps of halves, quarters, ... single bits)."""
    x = ((x >> np.uint64(1)) & np.uint64(0x5555555555555555)) | ((x & np.uint64(0x5555555555555555)) << np.uint64(1))
    x = ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)) | ((x & np.uint64(0x3333333333333333)) << np.uint64(2))
    x = ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8))
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))
    return (x >> np.uint64(32)) | (x << np.uint64(32))


@njit(cache=True, nogil=True)
def flipped(signatures, n, space, slot):
    """The signatures of the top-bottom mirror images (row r to n - 1 - r) of partials of the
    same columns, in space[slot]: a / diagonal d becomes the \\ diagonal 2n - 2 - d and the
    other way round, so the two (n - 1)-bit halves of a signature swap and each is read
    backwards, which is the whole 2n - 2 bits read backwards."""
    out = _scratch(space, slot, signatures.shape[0])[: signatures.shape[0]]
    shift = np.uint64(64 - 2 * (n - 1))
    for i in range(signatures.shape[0]):
        out[i] = _reversed(signatures[i]) >> shift
    return out


@njit(cache=True, nogil=True)
def _mirror(c, n):
    m = _ZERO
    for x in range(n):
        if (c >> np.uint64(x)) & _ONE:
            m |= _ONE << np.uint64(n - 1 - x)
    return m


@njit(cache=True, nogil=True)
def _weighed(top, bottom, diagonals, unoccupied, left_out, space, stop):
    """The pairs of top x bottom that match, where a bottom partial with a bit of `left_out`
    (a queen on a long diagonal) is left out and a top partial weighs 2 per long diagonal it
    occupies (a bit of `diagonals`), or `unoccupied` when it occupies neither (_count_set)."""
    keep = 0
    for x in bottom:
        keep += (x & left_out) == _ZERO
    if keep == 0 or top.shape[0] == 0:
        return 0
    # (the copies are branch-free: each word is written, and kept by moving on past it; one
    # place more than kept takes the last write)
    kept = np.empty(keep + 1, np.uint64)
    j = _ZERO  # (unsigned indices: no negative-index wrap)
    for x in bottom:
        kept[j] = x
        j += np.uint64((x & left_out) == _ZERO)
    kept = kept[:keep]
    weight = np.empty(top.shape[0], np.int64)
    used = 0
    for i in range(np.uint64(top.shape[0])):
        d = popcount(top[i] & diagonals)
        weight[i] = (1 << d) if d else unoccupied
        used += weight[i] != 0
    if used == 0:
        return 0
    tops = np.empty(used + 1, np.uint64)
    weights = np.empty(used + 1, np.int64)
    j = _ZERO
    for i in range(np.uint64(top.shape[0])):
        tops[j], weights[j] = top[i], weight[i]
        j += np.uint64(weight[i] != 0)
    tops, weights = tops[:used], weights[:used]
    ones = np.ones(keep, np.int64)
    if used <= keep:
        return matching(tops, weights, kept, ones, space, stop)
    return matching(kept, ones, tops, weights, space, stop)


@njit(cache=True, nogil=True)
def _count_set(n, c, weight, tables, space, stop):
    """The solutions of the column set c's class, `weight` sets (see column_sets), counted
    under the long diagonals' symmetries as well as the mirrors:
    - The reflection in the anti-diagonal (r, c) -> (n - 1 - c, n - 1 - r) keeps every square
      of the anti-diagonal and maps the main diagonal's top squares onto its bottom ones; the
      reflection in the main diagonal does the same the other way round. So solutions with a
      queen on a long diagonal in the bottom half are the images of those with it in the top:
      counting only solutions whose bottom half has no queen on a long diagonal (the centre of
      an odd board aside, which both reflections keep), each twice per long diagonal its top
      half holds, counts every solution once.
    - The left-right mirror swaps the two long diagonals and keeps the halves, so it still maps
      c's count onto its mirror image's. The top-bottom mirror swaps the halves, so it holds
      only for solutions with no queen on a long diagonal: on an even board those of c and of
      its complement are counted once, twice, for c (`unoccupied` 2 and 0), or once each when
      the complement is c's own mirror image.
    The top partials of c are the mirror images of the bottom partials of c's columns, so on
    an even board each of c and its complement is listed once and serves both."""
    h = n // 2
    full = (_ONE << np.uint64(n)) - _ONE
    other = full & ~c
    _, forbid = _quarters(n)
    diagonals = (_ONE << np.uint64(n - 1 - h)) | (_ONE << np.uint64(2 * n - 2 - h))
    t0, t1, t2, t3 = tables
    if n % 2 == 1:
        top = listed(n, 0, h, c, forbid, t0, t1, space, SLOT_TOP, stop)
        bottom = listed(n, h, n - h, other, forbid, t2, t3, space, SLOT_UNDER, stop)
        return weight * _weighed(top, bottom, diagonals, 1, _ZERO, space, stop)  # (forbid left them out)
    mirror = _mirror(c, n)
    mine = 1 if mirror == c else 2  # the sets c's mirror image adds
    top = listed(n, 0, h, c, forbid, t0, t1, space, SLOT_TOP, stop)
    under = listed(n, 0, h, other, forbid, t0, t1, space, SLOT_UNDER, stop)
    if other == mirror:  # the complement is in c's own class
        return mine * _weighed(top, flipped(under, n, space, SLOTS - 2), diagonals, 1, diagonals, space, stop)
    both = _weighed(top, flipped(under, n, space, SLOTS - 2), diagonals, 2, diagonals, space, stop)
    both += _weighed(under, flipped(top, n, space, SLOTS - 1), diagonals, 0, diagonals, space, stop)
    return mine * both


@njit(cache=True, nogil=True)
def count_with(n, sets, weights, tables, stop):
    """The weighted solutions over the top column sets `sets`, the quarters listed once in
    `tables` (quarter_tables(n), kept from one call to the next). A set flag (stop[FLAG],
    watch.py) ends the call within a set's listing or matching; the caller then discards what
    it returns."""
    total = 0
    space = new_space()
    for i in range(sets.shape[0]):
        if stop[FLAG] != 0:
            return total
        total += _count_set(n, sets[i], weights[i], tables, space, stop)
    return total


@njit(cache=True, nogil=True)
def count_sets(n, sets, weights, stop):
    """count_with, the quarters listed for this call."""
    return count_with(n, sets, weights, quarter_tables(n), stop)


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
        c = _next_of_size(c)
    return k
