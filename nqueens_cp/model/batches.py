"""The vectorised checker: a batch of placements judged at numpy speed, so that checking every
answer an enumerator hands out costs a small part of the enumeration.

It reads the rule as the exported models state it (`Problem.line_model`): columns in range,
blocked and fixed squares, at most one piece on each column and on each line of every family of
lines, and the leaps as offsets between rows. Each square r*n + c looks up, in a 64-bit word,
the bit of its line in each family packed into that word; a placement's m lines of a family are
distinct exactly when the OR of their bits has m bits set, so a family costs one lookup and one
OR across the rows. A row it flags is confirmed by `Problem.explain`, which stays the one
authority (the tests hold the two to the same verdicts); boards too large for the tables go to
`explain` row by row.

The work arrays are kept from one batch to the next (a stream's batches share a size): numpy
arrays made anew each time cost more in page faults than the passes that fill them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .board import Board

#: Boards of at most this many rows and squares have their placements checked here; larger
#: ones by `explain` alone (a table entry per square, a bit per line).
VECTOR_ROWS = 64
VECTOR_SQUARES = 1 << 16

#: Rows checked at a time: the work arrays of a chunk stay in the core's cache, beside the
#: enumerator whose batches are checked as they come.
CHUNK_ROWS = 512


@dataclass(frozen=True)
class Tables:
    """What a check looks up, made once per problem, each indexed by square (r*n + c): whether
    it is blocked (None when none is); `words`, the families of lines that hold at most one
    piece (the columns first) packed into 64-bit words, each square setting the bit of its line
    in each family of the word, with the bits a valid placement sets (m per family); `wide`,
    the families of more than 64 lines, the square's line as a number; and `leaps`, for each row
    distance d at which leaps attack, which column differences (shifted by n - 1) they reach."""

    blocked: np.ndarray | None
    words: tuple[tuple[np.ndarray, int], ...]
    wide: tuple[np.ndarray, ...]
    leaps: tuple[tuple[int, np.ndarray], ...]

    @classmethod
    def of(cls, problem: Board) -> Tables:
        n, m = problem.n, problem.rows
        r = np.repeat(np.arange(m, dtype=np.int64), n)
        c = np.tile(np.arange(n, dtype=np.int64), m)
        blocked = None
        if problem.blocked:
            blocked = np.zeros(m * n, dtype=bool)
            blocked[[row * n + col for row, col in problem.blocked]] = True
        families = [(c, n)]  # (each square's line, how many lines)
        lines, forbidden = problem.line_model
        for a, b, g in lines:
            if g:  # a torus's line (a == 1): key (c - b*r) mod g
                families.append(((c - b * r) % g, g))
                continue
            # a*c - b*r, made non-negative, with the row's residue mod a (lines that skip rows)
            low = -b * (m - 1) if b > 0 else 0
            families.append(((a * c - b * r - low) * a + r % a, (a * (n - 1) + abs(b) * (m - 1) + 1) * a))
        words: list[tuple[np.ndarray, int]] = []
        wide = []
        used = 64
        for key, span in families:
            if span > 64:
                wide.append(key)
                continue
            if used + span > 64:
                words.append((np.zeros(m * n, dtype=np.uint64), 0))
                used = 0
            table, expected = words[-1]
            table |= np.left_shift(np.uint64(1), (key + used).astype(np.uint64))
            words[-1] = (table, expected + m)
            used += span
        leaps = []
        for d in sorted({dr for dr, _ in forbidden}):
            reach = np.zeros(2 * n - 1, dtype=bool)
            reach[[dc + n - 1 for dr, dc in forbidden if dr == d]] = True
            leaps.append((d, reach))
        return cls(blocked, tuple(words), tuple(wide), tuple(leaps))


#: The tables of the problems checked lately, made once per problem rather than once per stream.
tables_of = functools.lru_cache(maxsize=32)(Tables.of)


class BatchCheck:
    """`check(placements)`: the first row of a 2-D array (a placement a row) that is no valid
    placement of `problem`, with `explain`'s reason, or None. One per stream: it keeps its work
    arrays between calls (not shared between threads)."""

    def __init__(self, problem: Board) -> None:
        self.problem = problem
        m, n = problem.rows, problem.n
        # (a region map's one piece in each, and lines that walls cut, are `explain`'s alone: such
        # boards are checked a solution at a time)
        whole = not getattr(problem, "regions", ()) and not getattr(problem, "walled", False)
        self.vectorised = m <= VECTOR_ROWS and m * n <= VECTOR_SQUARES and whole
        self.tables = tables_of(problem) if self.vectorised else None
        self.room = 0  # the rows the work arrays hold

    def __call__(self, placements: np.ndarray) -> tuple[int, str] | None:
        p = self.problem
        a = np.asarray(placements)
        shaped = a.ndim == 2 and a.shape[1] == p.rows and a.shape[0] > 0 and a.dtype.kind in "iu"
        if not shaped or self.tables is None:
            for i, row in enumerate(a):
                why = p.explain(tuple(int(c) for c in row) if a.ndim == 2 else row)
                if why:
                    return i, why
            return None
        for start in range(0, a.shape[0], CHUNK_ROWS):
            for i in start + np.flatnonzero(self._suspects(a[start : start + CHUNK_ROWS])):
                why = p.explain(tuple(int(c) for c in a[i]))
                if why:
                    return int(i), why
        return None

    def _suspects(self, a: np.ndarray) -> np.ndarray:
        """Which rows of `a` may be invalid (every invalid one among them)."""
        p, t = self.problem, self.tables
        assert t is not None
        n, m, k = p.n, p.rows, a.shape[0]
        if k > self.room:  # (streams hand out batches that double in size up to a cap)
            self.room = room = max(k, 2 * self.room, CHUNK_ROWS)
            self._squares = np.empty(m * room, dtype=np.intp)
            self._looked_up = np.empty(m * room, dtype=np.uint64)
            self._lines = np.empty(room, dtype=np.uint64)
            self._bits = np.empty(room, dtype=np.uint8)
            self._flag = np.empty(room, dtype=bool)
        bad = np.zeros(k, dtype=bool)
        inside = a
        if a.min() < 0 or a.max() >= n:
            bad |= ((a < 0) | (a >= n)).any(axis=1)
            inside = np.clip(a, 0, n - 1)
        # A row of `squares` per row of the board, so that each pass below runs along one row
        # of the board in every placement at once, and the OR across rows is a pass per row.
        squares = self._squares[: m * k].reshape(m, k)
        np.add(inside.T, np.arange(0, m * n, n, dtype=np.intp)[:, None], out=squares)
        flag = self._flag[:k]
        if t.blocked is not None:
            bad |= t.blocked.take(squares).any(axis=0)
        for r, c in p.fixed:
            bad |= squares[r] != r * n + c
        looked_up = self._looked_up[: m * k].reshape(m, k)
        lines, bits = self._lines[:k], self._bits[:k]
        for table, expected in t.words:
            np.take(table, squares, out=looked_up, mode="clip")  # (every square is in range)
            np.bitwise_or.reduce(looked_up, axis=0, out=lines)
            np.bitwise_count(lines, out=bits)
            np.not_equal(bits, expected, out=flag)
            bad |= flag
        for table in t.wide:
            key = np.sort(table.take(squares), axis=0)
            bad |= (key[1:] == key[:-1]).any(axis=0)
        if t.leaps:
            cols = squares - np.arange(0, m * n, n, dtype=np.intp)[:, None]
            for d, reach in t.leaps:
                bad |= reach.take(cols[d:] - cols[:-d] + n - 1).any(axis=0)
        return bad
