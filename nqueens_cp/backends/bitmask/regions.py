"""The search for boards with a region map (the daily "Queens" puzzle and its kin): a row at a
time, each square's conflicts a bitmask over the whole board (its row and column, the squares
its piece attacks and those that attack it, and the other squares of its region), so placing a
piece is one AND and the last row's choice is the only one left. A map's constraint prunes more
than the lines do: a 12x12 puzzle is searched in a few thousand placements. Solutions come in
lexicographic order (the first is the lexicographically first), checked as every stream is.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model.problem import Problem, Solution
from ..base import Deadline

#: Placements between two looks at the deadline.
CHECK_EVERY = 1 << 12


def conflicts(problem: Problem) -> list[int]:
    """Each square's conflicts as bits of the board (square r * n + c), itself included."""
    n, m = problem.n, problem.rows
    squares = [(r, c) for r in range(m) for c in range(n)]
    label = {(r, c): problem.regions[r][c] for r, c in squares} if problem.regions else {}
    out = []
    for s in squares:
        bits = 0
        for t in squares:
            if (
                t[0] == s[0]
                or t[1] == s[1]
                or problem.attacks(s, t)
                or problem.attacks(t, s)
                or (label and label[s] == label[t])
            ):
                bits |= 1 << (t[0] * n + t[1])
        out.append(bits)
    return out


def solutions(problem: Problem, deadline: Deadline, stats: dict[str, int]) -> Iterator[Solution]:
    """Every solution in lexicographic order; raises Unknown at the deadline after those found.
    `stats["nodes"]` counts the placements made."""
    n, m = problem.n, problem.rows
    hits = conflicts(problem)
    free = (1 << (m * n)) - 1
    for r, c in problem.blocked:
        free &= ~(1 << (r * n + c))
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
