"""Bit tricks the compiled kernels share, on uint64 words (one bit a column).

Every value stays uint64 (or is made int64 on purpose): numba turns a uint64/int64 mix into
float64, which would silently lose bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...run.compiled import use_user_cache

use_user_cache()

ONE = np.uint64(1)
ZERO = np.uint64(0)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def popcount(x):
    """The set bits of x, as an int64 (numba has no population count of its own)."""
    x = x - ((x >> ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))
