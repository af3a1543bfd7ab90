"""The join's two loops written in LLVM IR, where numba's own code would not use the vector
unit: the matcher's AND-and-count over a bucket's tables (`_run_ones`), and the bands' scan that
packs the pairs it keeps four at a time (`_paired_packed`, AVX2 only). Each has a plain version
its tests compare it with (`tests/test_join.py`)."""

from __future__ import annotations

from llvmlite import binding, ir
from numba import types
from numba.core import cgutils, config
from numba.extending import intrinsic


def _has(feature: str) -> bool:
    """Whether the code numba makes may use `feature` ("avx2"): this CPU's, or the target named
    in NUMBA_CPU_NAME and NUMBA_CPU_FEATURES (a cache made for other machines)."""
    if config.CPU_NAME:
        return f"+{feature}" in (config.CPU_FEATURES or "")
    return bool(binding.get_host_cpu_features().get(feature))


#: Words ANDed side by side: the matcher's inner loop holds them in one vector (`_run_ones`),
#: one AVX-512 register, or one AVX2 register where there is no AVX-512 (the wider block was the
#: faster, each with its best MIN_BUCKET: docs/benchmarks.md).
BLOCK = 8 if _has("avx512f") else 4


#: Words the bands' packed scan stores at once (one AVX2 register).
PACKED = 4


_I64 = ir.IntType(64)


_LANES = ir.VectorType(_I64, BLOCK)


#: The bands' packed scan's words (an AVX2 permute of eight dwords).
_QUAD = ir.VectorType(_I64, PACKED)


def _lanes(builder: ir.IRBuilder, where: ir.Value, kind: ir.VectorType = _LANES) -> ir.Value:
    """The words of a `kind` vector at pointer `where`, loaded as one vector (word-aligned)."""
    return builder.load(builder.bitcast(where, kind.as_pointer()), align=8)


#: The most chunks a partial's rows are unrolled for (`_run_ones`): the matcher deals a
#: signature's 64 bits at most into this many chunks (matcher.MAX_CHUNK).
UNROLLED = 10


@intrinsic
def _run_ones(typingctx, table, stride, entry, chunks, lo, hi, first, last):
    """The matcher's inner loop in vector code: for each small partial i in lo..hi-1 and each
    block in first..last-1, the ones of the AND of
    table[block * stride * BLOCK + entry[i * chunks + j]:][:BLOCK] over j < chunks, all
    summed (a run of partials of one weight, so the lanes are summed once per run). The first
    chunk's rows hold only the block's partials that exist (a bucket's last block is
    part-filled), so no other mask is read.

    Why an intrinsic: numba compiles that loop to four scalar ANDs a row, each load behind a
    check for negative indices, and never uses the vector unit. Here a row is one BLOCK-lane
    load and AND (one AVX2 instruction) and the ones are counted lane-wise (llvm.ctpop on the
    vector), with the indices known non-negative (the caller's). A partial's entries are read
    once for all the blocks, which are taken two at a time.

    Why every chunk, unrolled: most buckets are one block, and a loop over the chunks a partial
    touches (a different count from one partial to the next) spent more on its own branches
    than on its ANDs; here each count of chunks up to UNROLLED has straight-line code, and a
    chunk a partial does not touch reads its all-ones row."""
    i64 = types.int64
    sig = i64(table, i64, entry, i64, i64, i64, i64, i64)

    def codegen(context, builder, signature, args):
        tab, stride, ent, chunks, lo, hi, first, last = args
        rows = context.make_array(signature.args[0])(context, builder, tab).data
        entries = context.make_array(signature.args[2])(context, builder, ent).data
        one = ir.Constant(_I64, 1)
        wide = builder.mul(stride, ir.Constant(_I64, BLOCK))  # words of a block's table
        counted = ir.FunctionType(_LANES, [_LANES])
        ctpop = cgutils.get_or_insert_function(builder.module, counted, f"llvm.ctpop.v{BLOCK}i64")
        ones = cgutils.alloca_once_value(builder, ir.Constant(_LANES, None))
        span = builder.sub(last, first)
        pairs = builder.lshr(span, one)

        def partials(count):
            """Every partial against every block, with `count` chunks unrolled."""
            with cgutils.for_range_slice(builder, lo, hi, one, intp=_I64) as (i, _):
                mine = builder.gep(entries, [builder.mul(i, chunks)], inbounds=True)
                es = [builder.load(builder.gep(mine, [ir.Constant(_I64, j)], inbounds=True)) for j in range(count)]

                def blocks(block, group):
                    """The ones of `group` blocks from `block` against the partial's rows."""
                    for t in range(group):
                        at = builder.add(block, ir.Constant(_I64, t))
                        base = builder.gep(rows, [builder.mul(at, wide)], inbounds=True)
                        value = _lanes(builder, builder.gep(base, [es[0]], inbounds=True))
                        for e in es[1:]:
                            value = builder.and_(value, _lanes(builder, builder.gep(base, [e], inbounds=True)))
                        builder.store(builder.add(builder.load(ones), builder.call(ctpop, [value])), ones)

                with cgutils.for_range(builder, pairs, intp=_I64) as pair:
                    blocks(builder.add(first, builder.shl(pair.index, one)), 2)
                with builder.if_then(builder.trunc(span, ir.IntType(1))):
                    blocks(builder.sub(last, one), 1)

        done = builder.append_basic_block("run_ones.done")
        widest = builder.append_basic_block(f"run_ones.chunks{UNROLLED}")
        switch = builder.switch(chunks, widest)  # (the matcher passes 1 to UNROLLED)
        for count in range(1, UNROLLED + 1):
            case = widest if count == UNROLLED else builder.append_basic_block(f"run_ones.chunks{count}")
            switch.add_case(ir.Constant(_I64, count), case)
            builder.position_at_end(case)
            partials(count)
            builder.branch(done)
        builder.position_at_end(done)
        summed = builder.load(ones)
        total = builder.extract_element(summed, ir.Constant(ir.IntType(32), 0))
        for lane in range(1, BLOCK):
            total = builder.add(total, builder.extract_element(summed, ir.Constant(ir.IntType(32), lane)))
        return total

    return sig, codegen


#: Whether the bands' scan packs its pairs four at a time (an AVX2 permute).
_PACKS = _has("avx2")


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
        zero4 = ir.Constant(_QUAD, None)
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
                clash = builder.and_(_lanes(builder, builder.gep(pb, [j], inbounds=True), _QUAD), vx)
                keep = builder.icmp_unsigned("==", clash, zero4)
                mask = builder.zext(builder.bitcast(keep, ir.IntType(4)), _I64)
                joined = builder.or_(_lanes(builder, builder.gep(psb, [j], inbounds=True), _QUAD), vxs)
                order = builder.load(builder.gep(table, [ir.Constant(_I64, 0), mask], inbounds=True))
                moved = builder.call(permd, [builder.bitcast(joined, _DWORDS), order])
                where = builder.gep(pout, [builder.load(at)], inbounds=True)
                builder.store(builder.bitcast(moved, _QUAD), builder.bitcast(where, _QUAD.as_pointer()), align=8)
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

