"""The board as the compiled kernels take it, made from a Problem once and shared by every
search and partition of the engine: the row masks, the piece's moves, the attack table, the
ring pieces' masks, and the symmetries a count may fold (the mirror, the translations of a
torus) with the first two rows they leave.

Tables, not code: nothing here is compiled, and nothing here knows which search runs."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...model.pieces import images, slide_directions
from ...model.problem import Problem
from .folds import mirrored, translated
from .pysearch import column_masks


def masks_array(problem: Problem) -> np.ndarray:
    """The problem's row masks (the columns each row may use) as the uint64 array the compiled
    kernels take."""
    return np.array(problem.row_masks, dtype=np.uint64)


def narrowed(masks: np.ndarray, row0: int, row1: int) -> np.ndarray:
    """A copy of `masks` with rows 0 and 1 (where the board has it) kept to the columns given."""
    part = masks.copy()
    part[0] &= np.uint64(row0)
    if part.shape[0] > 1:
        part[1] &= np.uint64(row1)
    return part


@lru_cache(maxsize=16)
def moves(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """The piece's moves as the generic kernel takes them (`kernels.generic`): (slides, reach),
    slides as rows (a, b), and reach[d, c] for d = 1..D (row 0 unused)."""
    m, n = problem.rows, problem.n
    if problem.torus:
        slides: list[tuple[int, int]] = []
        depth = m - 1
        offsets = problem.offsets
    else:
        # a slide that leaves the board in one step never attacks: no shift of 64 or more
        slides = [(a, b) for a, b in slide_directions(problem.rule) if a < m and abs(b) < n]
        leaps = {image for move in problem.rule.leapers for image in images(move) if image[0] > 0}
        depth = max((a for a, _ in leaps if a < m), default=0)

        def offsets(d: int) -> frozenset[int]:
            return problem.rule.leap_offsets(d, n, False, m)

    reach = np.zeros((depth + 1, n), np.uint64)
    for d in range(1, depth + 1):
        reach[d] = column_masks(problem, offsets(d))
    return np.array(slides, np.int64).reshape(-1, 2), reach


@lru_cache(maxsize=16)
def attack_table(problem: Problem) -> np.ndarray:
    """table[dr + n - 1, dc + n - 1]: whether two pieces (dr, dc) apart attack each other, from
    the model's own offsets (any piece, plain or toroidal board, |dr| < rows); False at (0, 0)."""
    n = problem.n
    table = np.zeros((2 * n - 1, 2 * n - 1), bool)
    table[n - 1, :] = table[:, n - 1] = True
    for dr in range(1, problem.rows):
        for dc in problem.offsets(dr):
            table[n - 1 + dr, n - 1 + dc] = table[n - 1 - dr, n - 1 - dc] = True
    table[n - 1, n - 1] = False
    return table


def attacks(problem: Problem, r1, c1, r2, c2) -> np.ndarray:
    """Vectorized Problem.attacks for distinct squares (equal squares: no attack)."""
    n = problem.n
    return attack_table(problem)[r2 - r1 + n - 1, c2 - c1 + n - 1]


def pinned_masks(problem: Problem, ring: int, items: np.ndarray) -> np.ndarray:
    """The row masks of sub-problems `items` (one row of masks each) for any piece and board:
    the four ring pieces pinned, every square one of them attacks (the model's attack table)
    taken out of every other row, and a ring column the constellation leaves empty (-1) out of
    every row. Vectorized, a thousand items at a time."""
    m, n = problem.rows, problem.n
    lo, hi, left, right = ring_lines(m, n, ring)
    table = attack_table(problem)
    rows = np.arange(m)[None, :, None]
    cols = np.arange(n)[None, None, :]
    bits = np.uint64(1) << np.arange(n, dtype=np.uint64)
    out = np.empty((items.shape[0], m), np.uint64)
    for start in range(0, items.shape[0], 1024):
        a, b, c, d = (v[:, None, None] for v in items[start : start + 1024].T)
        free = np.ones((a.shape[0], m, n), bool)
        for pr, pc in ((lo, a), (hi, b), (c, left), (d, right)):
            there = np.asarray(pr) >= 0
            free &= ~(table[rows - np.maximum(pr, 0) + n - 1, cols - pc + n - 1] & there)
            free &= ~(~there & (cols == pc))  # an empty ring column holds no piece
        out[start : start + a.shape[0]] = np.bitwise_or.reduce(free * bits, axis=2)
    return out


def innermost_ring(n: int) -> int:
    """The ring closest to the centre: rows (n-2)//2 and n-1-(n-2)//2 (adjacent for even n, the
    centre row between them for odd n)."""
    return max(0, (n - 2) // 2)


def ring_lines(m: int, n: int, ring: int) -> tuple[int, int, int, int]:
    """(first row, last row, first column, last column) of ring `ring` of an m x n board: on a
    rectangle the rows' ring is `ring` and the columns' the innermost of the columns."""
    k = ring if m == n else innermost_ring(n)
    return ring, m - 1 - ring, k, n - 1 - k


# -- the symmetries a count folds ----------------------------------------------------------

def first_rows(problem: Problem) -> list[tuple[int, int, int]]:
    """The count as parts (columns allowed in row 0, in row 1, weight), by the symmetries that
    hold. On a plain torus, moving every piece one column over (wrapping) maps solutions onto
    solutions, so each solution has exactly one image with its first row's piece in column 0:
    that column alone, weighted n. Where the left-right mirror holds too, c -> -c (mod n) keeps
    column 0 and pairs row 1's columns c and n - c: half of them, weighted 2n. Without a torus,
    the mirror pairs row 0's columns c and n - 1 - c: the left half weighted 2, the middle column
    of an odd board 1."""
    n = problem.n
    every = (1 << n) - 1
    mirror = mirrored(problem)
    if translated(problem):
        if problem.rows == 1 or not mirror:
            return [(1, every, n)]
        left = sum(1 << c for c in range(1, n) if 2 * c < n)
        return [(1, left, 2 * n), (1, 1 << (n // 2) if n % 2 == 0 else 0, n)]
    if not mirror:
        return [(every, every, 1)]
    return [((1 << (n // 2)) - 1, every, 2), (1 << (n // 2) if n % 2 else 0, every, 1)]
