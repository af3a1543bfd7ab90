"""The search for boards with a region map (the daily "Queens" puzzle and its kin): each
square's conflicts a bitmask over the whole board (its row and column, the squares its piece
attacks and those that attack it, and the other squares of its region), so placing a piece is
one AND; the next piece goes to the most constrained row, column or region (row after row for
the lexicographically first solution). Solutions are checked as every stream is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import replace

from ...model.problem import Problem, Solution
from ..base import Deadline

#: Placements between two looks at the deadline.
CHECK_EVERY = 1 << 12


def conflicts(problem: Problem) -> list[int]:
    """Each square's conflicts as bits of the board (square r * n + c), itself included: its
    row and column, the squares its piece attacks and those that attack it, and the other
    squares of its region."""
    n = problem.n
    out = list(_piece_conflicts(replace(problem, regions=())))
    masks = region_masks(problem)
    for r, row in enumerate(problem.regions):
        for c, label in enumerate(row):
            out[r * n + c] |= masks[label]
    return out


def region_masks(problem: Problem) -> dict[str, int]:
    """Each region's squares as bits of the board, by its label (none without a map)."""
    n = problem.n
    masks: dict[str, int] = {}
    for r, row in enumerate(problem.regions):
        for c, label in enumerate(row):
            masks[label] = masks.get(label, 0) | 1 << (r * n + c)
    return masks


@functools.lru_cache(maxsize=8)
def _piece_conflicts(problem: Problem) -> tuple[int, ...]:
    """The conflicts of a board without its map, made once for the many maps of one board (a
    generator tries hundreds)."""
    n, m = problem.n, problem.rows
    squares = [(r, c) for r in range(m) for c in range(n)]
    out = []
    for s in squares:
        bits = 0
        for t in squares:
            if t[0] == s[0] or t[1] == s[1] or problem.attacks(s, t) or problem.attacks(t, s):
                bits |= 1 << (t[0] * n + t[1])
        out.append(bits)
    return tuple(out)


def solutions(
    problem: Problem, deadline: Deadline, stats: dict[str, int], lexicographic: bool = False
) -> Iterator[Solution]:
    """Every solution; raises Unknown at the deadline after those found. `stats["nodes"]`
    counts the placements made, `stats["guesses"]` the choices among several squares (a unit
    with one free square left is no choice). Each piece goes to the most constrained unit first
    (the row, column or region with the fewest free squares, as a person solves the puzzle), or,
    for the lexicographically first solution, row after row (`lexicographic`)."""
    if lexicographic:
        return _by_rows(problem, deadline, stats)
    return _by_units(problem, deadline, stats)


def units(problem: Problem) -> list[int]:
    """The squares of each unit that holds exactly one piece, as bits of the board: each row,
    each column of a square board, each region."""
    n, m = problem.n, problem.rows
    out = [((1 << n) - 1) << (r * n) for r in range(m)]
    if m == n:  # as many pieces as columns: each column holds one too
        out += [sum(1 << (r * n + c) for r in range(m)) for c in range(n)]
    return out + list(region_masks(problem).values())


def usable(problem: Problem) -> int:
    """The squares no block takes, as bits of the board."""
    n, m = problem.n, problem.rows
    free = (1 << (m * n)) - 1
    for r, c in problem.blocked:
        free &= ~(1 << (r * n + c))
    return free


def _by_units(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    n, hits, free = problem.n, conflicts(problem), usable(problem)
    placed: list[int] = []
    for r, c in problem.fixed:  # (contradictions among them are answered before any search)
        square = r * n + c
        if not free >> square & 1:
            return
        placed.append(square)
        free &= ~hits[square]
    todo = units(problem)
    nodes = found = guesses = 0
    stack = [(free, placed, sum(1 << sq for sq in placed))]  # (free squares, pieces, their bits)
    try:
        while stack:
            free, placed, occupied = stack.pop()
            best, best_count = -1, 1 << 30
            for unit in todo:
                if unit & occupied:
                    continue  # it holds its piece
                k = (unit & free).bit_count()
                if k < best_count:
                    best, best_count = unit, k
                    if k <= 1:
                        break
            if best < 0:  # every unit holds its piece: a solution
                found += 1
                yield tuple(sq % n for sq in sorted(placed))
                continue
            options = best & free
            guesses += best_count > 1  # (a unit left one square: no choice is made there)
            while options:
                low = options & -options
                options ^= low
                square = low.bit_length() - 1
                nodes += 1
                if not nodes % CHECK_EVERY:
                    deadline.check(found)
                stack.append((free & ~hits[square], [*placed, square], occupied | low))
    finally:
        stats["nodes"] = stats.get("nodes", 0) + nodes
        stats["guesses"] = stats.get("guesses", 0) + guesses


def _by_rows(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    n, m, hits, free = problem.n, problem.rows, conflicts(problem), usable(problem)
    fixed = dict(problem.fixed)
    row_bits = (1 << n) - 1
    cols: list[int] = []
    frees = [free]
    pending = [_choices(frees[0], 0, n, row_bits, fixed)]
    nodes = found = 0
    try:
        while pending:
            options = pending[-1]
            if not options:
                pending.pop()
                frees.pop()
                if cols:
                    cols.pop()
                continue
            c = options.pop(0)
            r = len(cols)
            nodes += 1
            if not nodes % CHECK_EVERY:
                deadline.check(found)
            cols.append(c)
            after = frees[-1] & ~hits[r * n + c]
            if r + 1 == m:
                found += 1
                yield tuple(cols)
                cols.pop()
                continue
            frees.append(after)
            pending.append(_choices(after, r + 1, n, row_bits, fixed))
    finally:
        stats["nodes"] = stats.get("nodes", 0) + nodes


def _choices(free: int, r: int, n: int, row_bits: int, fixed: dict[int, int]) -> list[int]:
    """The columns of row `r` still free, ascending (the pre-placed one alone, where it is free)."""
    row = (free >> (r * n)) & row_bits
    if r in fixed:
        return [fixed[r]] if row >> fixed[r] & 1 else []
    return [c for c in range(n) if row >> c & 1]
