"""The count of the sets of k pieces that dominate a board cut into numbered work items: the
search's (`kernels.cover`) root branches on the squares that could cover one square, and each
child again on another's; an item is a branch of the root and one of its child's (the second
number runs to the most squares any square has to cover it, so some items hold no branch and
count none). The list is fixed for a problem and k, so item i means the same in every run.

A search for one set (a size refuted, or its first set found) needs only one image of each set
under the problem's symmetries, so its root is cut by them (`_roots`): it branches on a square u
still to cover, one child an orbit (under the symmetries) of the squares that cover u, taking
that orbit's first square, the orbits before it ruled out of the whole subtree. A set S holds a
square y that covers u; where y lies in the first orbit S meets, the symmetry that maps y to
that orbit's first square maps S to a set the orbit's child finds. u is the square whose
covering squares fall in the fewest orbits (the centre of an odd square board: 15 on 15 x 15,
against 57 squares to try)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ....model.problem import Problem
from ...base import Deadline
from .base import Counts, Items, Split, fingerprint

#: Items one call counts in this process.
SLICE = 4

#: A child of a search for one set's root: its square r * n + c, and the squares the subtree
#: may take (the orbits before it ruled out, and the square itself).
Root = tuple[int, np.ndarray]

#: (the problem, the pieces, independent, the search's tables, the root's children where an
#: item stops at its first set (a search for one, where the count is not wanted), else None).
Context = tuple[Problem, int, bool, tuple[np.ndarray, ...], list[Root] | None]


def run(ctx: Context, indices: np.ndarray, stop: np.ndarray, deadline: Deadline | None = None) -> Counts:
    """The sets of items `indices` (a stop leaves what was counted: a lower bound)."""
    from ..kernels.cover import search

    problem, k, independent, (cover, by, attack, need, allow, spill, most), roots = ctx
    if k == 0:  # the pre-placed pieces alone: item 0 holds their one set where they cover
        return Counts(int(0 in indices.tolist() and not need.any()))
    none = np.zeros((0, max(1, k)), np.int64)
    wide = _widest(by, allow)

    def found(left: np.ndarray, room: np.ndarray, pieces: int, path: tuple[int, int]) -> int:
        kernel = (cover, by, attack, left, room, pieces, independent, spill, most, roots is not None, stop, none)
        return int(search(problem.n, *kernel, np.array(path, np.int64)))

    total = 0
    for i in indices.tolist():
        j, branch = divmod(i, wide) if k > 1 else (i, -1)
        if roots is None:
            total += found(need, allow, k, (j, branch))
            continue
        square, room = roots[j]
        left = need & ~cover[square]
        if k == 1:
            total += int(not left.any())
            continue
        total += found(left, room & ~attack[square] if independent else room, k - 1, (branch, -1))
    return Counts(total)


def _roots(problem: Problem, by: np.ndarray, need: np.ndarray, allow: np.ndarray) -> list[Root]:
    """The children of a search for one set's root (see the module), in square order."""
    from ....model.symmetry import image_square, problem_symmetries

    n, m = problem.n, problem.rows
    group = problem_symmetries(problem)

    def orbit(r: int, c: int) -> frozenset[tuple[int, int]]:
        return frozenset(image_square(g, n, r, c, m) for g in group)

    def takes(u: int) -> list[tuple[int, int]]:
        return [(r, c) for r in range(m) for c in range(n) if int(by[u, r] & allow[r]) >> c & 1]

    uncovered = [r * n + c for r in range(m) for c in range(n) if int(need[r]) >> c & 1]
    u = min(uncovered, key=lambda u: (len({orbit(*sq) for sq in takes(u)}), len(takes(u)), u))
    roots, room, seen = [], allow.copy(), set()
    for r, c in takes(u):
        if (r, c) in seen:
            continue
        mine = room.copy()
        mine[r] &= ~(np.uint64(1) << np.uint64(c))
        roots.append((r * n + c, mine))
        seen |= orbit(r, c)
        for rr, cc in orbit(r, c):
            room[rr] &= ~(np.uint64(1) << np.uint64(cc))
    return roots


def _widest(by: np.ndarray, allow: np.ndarray) -> int:
    """The most allowed squares any square has to cover it: no node has more children."""
    counts = np.unpackbits((by & allow).view(np.uint8), axis=1).sum(axis=1)
    return max(1, int(counts.max()))


def size(problem: Problem, k: int, tables: tuple[np.ndarray, ...], roots: list[Root] | None = None) -> int:
    """How many items: the root's branches (`roots` for a search for one), by the most any
    child can have where k > 1."""
    from ..kernels.cover import root_choices

    _, by, _, need, allow, _, _ = tables
    root = len(roots) if roots is not None else int(root_choices(problem.n, by, need, allow))
    return root * _widest(by, allow) if k > 1 else root


def items(
    problem: Problem,
    k: int,
    independent: bool,
    tables: tuple[np.ndarray, ...],
    load: Callable[[], None],
    first: bool = False,
) -> Items:
    """The sets of k pieces besides the pre-placed ones that dominate `problem`, as the items
    of the module (those whose squares the search never takes count none); with `first`, each
    item stops at its first set, and the root is cut by the problem's symmetries (`_roots`).
    `load` loads the kernel (`optimise`, which makes the tables, counts a small board's items)."""
    _, by, _, need, allow, _, _ = tables
    roots = _roots(problem, by, need, allow) if first and k > 0 and need.any() else None
    return Items(
        fingerprint(problem, 0, Split.COVER) | {"pieces": k, "independent": independent, "first": first},
        size(problem, k, tables, roots),
        run,
        (problem, k, independent, tables, roots),
        load,
        per_call=SLICE,
    )
