"""The row-by-row bitmask search on Python integers: boards wider than 64 columns, and small
counts where loading the compiled kernels would cost more than the whole search.

It is the compiled row kernel's twin (same masks, same order), written with Python's unbounded
integers; it checks its deadline every CHECK_EVERY placements and, being Python, sees Ctrl-C at
once.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.problem import Problem, Solution
from ..base import Deadline

#: Placements between two looks at the clock: a few milliseconds.
CHECK_EVERY = 4096


def solutions(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    """Every solution in lexicographic order; `stats["nodes"]` counts placements."""
    if not (problem.rule.classic and problem.square):
        return any_piece(problem, deadline, stats)
    return _classic(problem, deadline, stats)


def any_piece(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    """The row search for any piece, from its spec: a piece placed in row r takes, from every
    later row r', the columns its moves reach r' - r rows away (`Piece.offsets`, wrapped on a
    torus). Attacks are symmetric, so looking down from each piece checks every pair."""
    m, masks = problem.rows, problem.row_masks
    reach: dict[int, list[int]] = {}

    def reached(d: int) -> list[int]:  # per column, the mask of columns attacked d rows below
        if d not in reach:
            reach[d] = column_masks(problem, problem.offsets(d))
        return reach[d]

    place = [0] * m
    taken = [[0] * m for _ in range(m + 1)]  # taken[r][r']: columns of row r' ruled out by rows < r
    avail = [0] * m
    avail[0] = masks[0]
    r = nodes = found = 0
    stats["nodes"] = 0
    try:
        while True:
            a = avail[r]
            if not a:
                if r == 0:
                    return
                r -= 1
                continue
            bit = a & -a
            avail[r] = a ^ bit
            c = bit.bit_length() - 1
            place[r] = c
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                deadline.check(found)
            if r == m - 1:
                found += 1
                yield tuple(place)
                continue
            above, below = taken[r], taken[r + 1]
            for r2 in range(r + 1, m):
                below[r2] = above[r2] | bit | reached(r2 - r)[c]
            r += 1
            avail[r] = masks[r] & ~below[r]
    finally:
        stats["nodes"] = nodes


def column_masks(problem: Problem, offsets: frozenset[int]) -> list[int]:
    """Per column c, the mask of the columns c + o (o in `offsets`) on the board, wrapped on a
    torus (where offsets congruent mod n name one column: a set keeps it once)."""
    n, torus = problem.n, problem.torus
    columns = [{(c + o) % n if torus else c + o for o in offsets} for c in range(n)]
    return [sum(1 << x for x in cs if 0 <= x < n) for cs in columns]


def _classic(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    n, masks, rule, torus = problem.n, problem.row_masks, problem.rule, problem.torus
    full = (1 << n) - 1

    def shift(v: int, s: int) -> int:  # columns move by s (wrapping round a torus)
        if torus:
            s %= n
            return ((v << s) | (v >> (n - s))) & full
        return (v << s) & full if s >= 0 else v >> -s

    place, cols, d1, d2, k2, avail = ([0] * n for _ in range(6))
    avail[0] = masks[0]
    r = nodes = found = 0
    stats["nodes"] = 0
    try:
        while True:
            a = avail[r]
            if not a:
                if r == 0:
                    return
                r -= 1
                continue
            bit = a & -a
            avail[r] = a ^ bit
            place[r] = bit.bit_length() - 1
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                deadline.check(found)
            if r == n - 1:
                # knight moves wrapping across the first and last rows are checked at the end
                if not (rule.knight and torus) or problem.is_solution(place):
                    found += 1
                    yield tuple(place)
                continue
            c = cols[r] | bit
            x = shift(d1[r] | bit, 1) if rule.diagonals else 0
            y = shift(d2[r] | bit, -1) if rule.diagonals else 0
            n1 = k2[r] | shift(bit, 2) | shift(bit, -2) if rule.knight else 0
            n2 = shift(bit, 1) | shift(bit, -1) if rule.knight else 0
            r += 1
            cols[r], d1[r], d2[r], k2[r] = c, x, y, n2
            avail[r] = masks[r] & ~(c | x | y | n1)
    finally:
        stats["nodes"] = nodes
