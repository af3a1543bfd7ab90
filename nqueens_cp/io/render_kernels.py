"""numba kernels that format a batch of solutions (rows of an int array) straight into bytes,
so writing hundreds of thousands of boards costs about what the bytes cost to write."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..run.compiled import use_user_cache

use_user_cache()


@njit(cache=True)
def _put(buf, pos, src):
    for i in range(src.shape[0]):
        buf[pos + i] = src[i]
    return pos + src.shape[0]


@njit(cache=True)
def _put_int(buf, pos, value):
    if value == 0:
        buf[pos] = 48
        return pos + 1
    digits = 0
    v = value
    while v > 0:
        digits += 1
        v //= 10
    v = value
    for i in range(digits - 1, -1, -1):
        buf[pos + i] = 48 + v % 10
        v //= 10
    return pos + digits


@njit(cache=True)
def format_rows(sols, opening, sep, closing, between, first, buf):
    """Each solution as opening + columns joined by sep + closing, solutions joined by
    `between` (also before the first one unless `first`). Returns the bytes written."""
    pos = 0
    for i in range(sols.shape[0]):
        if i > 0 or not first:
            pos = _put(buf, pos, between)
        pos = _put(buf, pos, opening)
        for r in range(sols.shape[1]):
            if r > 0:
                pos = _put(buf, pos, sep)
            pos = _put_int(buf, pos, sols[i, r])
        pos = _put(buf, pos, closing)
    return pos


@njit(cache=True)
def format_boards(sols, width, letter, first, buf):
    """LeetCode-style boards of `width` columns, a blank line between boards (also before the
    first unless `first`)."""
    m = sols.shape[1]
    n = width
    pos = 0
    for i in range(sols.shape[0]):
        if i > 0 or not first:
            buf[pos] = 10
            pos += 1
        for r in range(m):
            c = sols[i, r]
            for j in range(n):
                buf[pos + j] = 46
            buf[pos + c] = letter
            buf[pos + n] = 10
            pos += n + 1
    return pos


def bytes_per_solution(n: int) -> int:
    """The most bytes one solution of a board of at most n rows and n columns takes in any
    format (boards are the largest)."""
    return max(n * (n + 1), n * 22) + 8


def buffer_for(rows: int, n: int) -> np.ndarray:
    """Room for `rows` solutions of a board of at most n x n squares in any format."""
    return np.empty(rows * bytes_per_solution(n), dtype=np.uint8)
