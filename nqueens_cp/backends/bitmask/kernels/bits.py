"""Bit tricks the compiled kernels share, on uint64 words (one bit a column).

Every value stays uint64 (or is made int64 on purpose): numba turns a uint64/int64 mix into
float64, which would silently lose bits. Population count and trailing zeros are LLVM's own
intrinsics (numba has neither): one instruction each where the CPU has it (popcnt, tzcnt), and
LLVM's portable expansion where it does not.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

ONE = np.uint64(1)
ZERO = np.uint64(0)


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))  # defined at 0 too (64)

    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def popcount(x):
    """The set bits of x, as an int64."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(cache=True, inline="always")
def trailing_zeros(x):
    """The index of the lowest set bit of x (64 for x = 0), as an int64."""
    return np.int64(_cttz(np.uint64(x)))


@njit(cache=True, inline="always")
def lowbit(a):
    """The lowest set bit of a (0 for a = 0): peeling it off walks the columns in order."""
    return a & (~a + ONE)


@njit(cache=True, inline="always")
def full(n):
    """All n columns set (a shift by 64 is undefined, hence the special case)."""
    return ~ZERO if n == 64 else (ONE << np.uint64(n)) - ONE
