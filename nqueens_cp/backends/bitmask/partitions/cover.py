"""The count of the sets of k pieces that dominate a board cut into numbered work items, the
search's (`kernels.cover`) root cut by the problem's symmetries (`_roots`): it branches on a
square u still to cover, one child an orbit (under the symmetries) of the squares that cover u,
taking that orbit's first square x, the orbits before it ruled out of the whole subtree; each
child is cut again by the branches of its own first node. An item is the pair (the number runs
to the most squares any square has to cover it, so some items hold no branch and count none).
The list is fixed for a problem and k, so item i means the same in every run.

Every set has an image below some child: a set S holds a square y that covers u; where y lies in
the first orbit O that S meets, the symmetry that maps y to x maps S to a set below O's child.
A search for one set (a size refuted) needs nothing more. A count weighs each set T found below
O's child by |O| / |T n O|: the images of a set S below that child are those that hold x, which
are |orbit(S)| |S n O| / |O| of them (each square of O lies in as many images), so the weights
of a class add up to its size. The weights are counted over a common denominator (the least
common multiple of 1 .. the largest orbit: 840 under all eight symmetries) and the items' sum
divided by it. u is the square whose covering squares fall in the fewest orbits: the centre of
an odd square board, 15 on 15 x 15 against 57 squares (docs/benchmarks.md has what it saves)."""

from __future__ import annotations

from collections.abc import Callable
from math import lcm

import numpy as np

from ....model.problem import Problem
from ...base import Deadline
from .base import Counts, Items, Split, fingerprint

#: Items one call counts in this process.
SLICE = 4

#: The cover search's last arguments for its whole tree, each set counted once
#: (`kernels.cover.search`: no work item's branch, no weights).
WHOLE = (-1, np.zeros(1, np.uint64), 0, 0)

#: A child of the root: its square r * n + c, the squares its subtree may take (the orbits
#: before it ruled out, and the square itself), its orbit's squares (a row of bits a row) and
#: how many they are.
Root = tuple[int, np.ndarray, np.ndarray, int]

#: (the problem, the pieces, independent, the search's tables, the root's children, whether an
#: item stops at its first set (a search for one, where the count is not wanted), the
#: denominator of the weights, and how many items a child is cut into (`_widest`)).
Context = tuple[Problem, int, bool, tuple[np.ndarray, ...], list[Root], bool, int, int]


def run(ctx: Context, indices: np.ndarray, stop: np.ndarray, deadline: Deadline | None = None) -> Counts:
    """The sets of items `indices`, weighed over the denominator (a stop leaves what was counted:
    a lower bound)."""
    from ..kernels.cover import search

    problem, k, independent, tables, roots, first, denominator, wide = ctx
    cover, by, attack, need, _, spill, most = tables
    if k == 0 or not need.any():  # nothing to place, or nothing to cover: item 0 holds the one set
        return Counts(int(0 in indices.tolist() and not need.any()) * denominator)
    none = np.zeros((0, k), np.int64)
    total = 0
    for i in indices.tolist():
        j, branch = divmod(i, wide) if k > 1 else (i, -1)
        square, room, orbit, members = roots[j]
        scale = 0 if first else denominator * members
        left, room = _below(tables, independent, square, room)
        if k == 1:
            total += int(not left.any()) * (scale or 1)
            continue
        kernel = (cover, by, attack, left, room, k - 1, independent, spill, most, first, stop, none)
        total += int(search(problem.n, *kernel, branch, orbit, scale, 1))
    return Counts(total)


def found_sets(ctx: Context, rows: int, stop: np.ndarray) -> np.ndarray:
    """The sets found below the root's children, at most `rows`, a row each (the child's square,
    then those the search chose below it; r * n + c): every class of sets is among them, each
    set once, since no set lies below two children. A stop leaves those found so far."""
    from ..kernels.cover import search

    problem, k, independent, tables, roots, _, _, _ = ctx
    cover, by, attack, need, _, spill, most = tables
    if k == 0 or not need.any():
        return np.zeros((int(not need.any()), k), np.int64)
    out = np.full((rows, k), -1, np.int64)
    filled = 0
    for square, room, _, _ in roots:
        if filled == rows:
            break
        left, room = _below(tables, independent, square, room)
        if k == 1 or not left.any():
            out[filled : filled + int(not left.any()), 0] = square
            filled += int(not left.any())
            continue
        into = np.full((rows - filled, k - 1), -1, np.int64)
        kernel = (cover, by, attack, left, room, k - 1, independent, spill, most, False, stop, into)
        got = min(int(search(problem.n, *kernel, *WHOLE)), rows - filled)
        out[filled : filled + got, 0] = square
        out[filled : filled + got, 1:] = into[:got]
        filled += got
    return out[:filled]


def _below(tables: tuple[np.ndarray, ...], independent: bool, square: int, room: np.ndarray) -> tuple[np.ndarray, ...]:
    """Below a child of the root that places `square`: what is left to cover, and the squares
    the subtree may take (`room`, less those the piece attacks where independence is asked)."""
    cover, _, attack, need, _, _, _ = tables
    return need & ~cover[square], room & ~attack[square] if independent else room


def _roots(problem: Problem, by: np.ndarray, need: np.ndarray, allow: np.ndarray) -> list[Root]:
    """The children of the search's root (see the module), in square order."""
    from ....model.symmetry import image_square, problem_symmetries

    n, m = problem.n, problem.rows
    squares = np.arange(m * n)
    images = np.array([[r * n + c for r, c in (image_square(g, n, s // n, s % n, m) for s in squares)]
                       for g in problem_symmetries(problem)])  # fmt: skip
    orbit_of = images.min(axis=0)  # (an orbit named by its least square)
    bits = np.unpackbits((by & allow).view(np.uint8), axis=1, bitorder="little")
    takes = bits[:, (squares // n) * 64 + squares % n].astype(bool)  # takes[u, s]: s may cover u
    wanted = np.unpackbits(need.view(np.uint8), bitorder="little")[(squares // n) * 64 + squares % n]

    def choice(u: int) -> tuple[int, int, int]:  # (the fewest orbits, then the fewest squares)
        return len(set(orbit_of[takes[u]].tolist())), int(takes[u].sum()), u

    u = min(squares[wanted.astype(bool)].tolist(), key=choice)
    roots, room, seen = [], allow.copy(), set()
    for s in squares[takes[u]].tolist():
        if orbit_of[s] in seen:
            continue
        seen.add(orbit_of[s])
        mine = room.copy()
        mine[s // n] &= ~(np.uint64(1) << np.uint64(s % n))
        members = squares[orbit_of == orbit_of[s]].tolist()
        orbit = np.zeros(m, np.uint64)
        for t in members:
            orbit[t // n] |= np.uint64(1) << np.uint64(t % n)
        roots.append((s, mine, orbit, len(members)))
        room &= ~orbit
    return roots


def _widest(by: np.ndarray, allow: np.ndarray) -> int:
    """The most allowed squares any square has to cover it: no node has more children."""
    counts = np.unpackbits((by & allow).view(np.uint8), axis=1).sum(axis=1)
    return max(1, int(counts.max()))


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
    item stops at its first set. `load` loads the kernel (`optimise`, which makes the tables,
    counts a small board's items)."""
    _, by, _, need, allow, _, _ = tables
    roots = _roots(problem, by, need, allow) if k > 0 and need.any() else []
    denominator = 1 if first else lcm(*range(1, max((r[3] for r in roots), default=1) + 1))
    wide = _widest(by, allow)
    size = 1 if not roots else len(roots) * (wide if k > 1 else 1)
    cut = {"pieces": k, "independent": independent, "first": first, "orbits": True}
    return Items(
        fingerprint(problem, 0, Split.COVER) | cut,
        size,
        run,
        (problem, k, independent, tables, roots, first, denominator, wide),
        load,
        per_call=SLICE,
        denominator=denominator,
    )
