"""The solutions a group of symmetries fixes, searched orbit by orbit, for symmetry classes
counted by Burnside's lemma (`model.symmetry.classes_by_orbit`).

A solution that every symmetry of a subgroup K maps onto itself is a union of K's orbits of
squares. So the search places a whole orbit at a time: the lowest row with no piece takes a
column, and the images of that square under K are placed with it, where they fit (distinct
rows and columns, usable, none attacking another, none attacked). With K of 2 or 4 symmetries
it places a half or a quarter of the pieces by choice, so its tree is a small root of the whole
search's: the classes of a piece whose reflections can fix a solution (the region puzzle's
`RF`, rooks, any leaper) cost the count and a few small searches, where testing every solution
for being its class's smallest cost a hundred times the count. Each square's attacks are read
from `Problem.attacks` (the model's one definition), as bits of Python integers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...model.problem import Problem
from ...model.symmetry import image_square
from .regions import conflicts, usable


class Orbits:
    """The board as the search takes it: each square's conflicts (itself, its row and column,
    the squares its piece attacks from it and those that attack it: a one-way line attacks one
    way; the other squares of its region), and the usable squares."""

    def __init__(self, problem: Problem) -> None:
        self.problem, self.n, self.m = problem, problem.n, problem.rows
        self.conflicts = conflicts(problem)  # (a region map's squares conflict with their region's)
        self.usable = usable(problem)

    def placed(self, squares: Iterable[tuple[int, int]]) -> tuple[int, int, int] | None:
        """(their bits, their rows' bits, the bits they conflict with) for pieces on `squares`
        together, or None where two conflict or one stands on a blocked square."""
        n = self.n
        bits = rows = conflicts = 0
        for r, c in sorted(set(squares)):
            bit = 1 << (r * n + c)
            if bit & conflicts or not bit & self.usable:
                return None
            bits, rows, conflicts = bits | bit, rows | 1 << r, conflicts | self.conflicts[r * n + c]
        return bits, rows, conflicts

    def count_fixed(self, group: Iterable[str], stop: Callable[[], None] | None = None) -> int:
        """The solutions that every symmetry of `group` (a subgroup of the problem's) fixes;
        `stop`, if given, is called every 65,536 placements (it may raise to end the search)."""
        n, m = self.n, self.m
        names = tuple(group)
        moves = [self.placed({image_square(g, n, r, c, m) for g in names}) for r in range(m) for c in range(n)]
        start = self.placed(self.problem.fixed)  # a union of orbits: the problem's group keeps them
        if start is None:
            return 0
        _, done_rows, conflicts = start
        full, row_mask = (1 << m) - 1, (1 << n) - 1
        found = nodes = 0
        stack = [(self.usable & ~conflicts, done_rows)]
        while stack:
            free, done_rows = stack.pop()
            if done_rows == full:
                found += 1
                continue
            nodes += 1
            if stop is not None and not nodes & 0xFFFF:
                stop()
            r = (~done_rows & (done_rows + 1)).bit_length() - 1  # the lowest row with no piece
            cols = (free >> (r * n)) & row_mask
            while cols:
                low = cols & -cols
                cols ^= low
                move = moves[r * n + low.bit_length() - 1]
                if move is None:
                    continue
                bits, rows, hits = move
                if bits & free == bits and not rows & done_rows:
                    stack.append((free & ~hits, done_rows | rows))
        return found
