"""Boards whose lines walls cut, pieces placed anywhere, pawns placed by the search: the tables
of `kernels.layouts` built for one set of pawns, and the searches driven from Python.

Pawns are placed first, a set at a time, and the pieces then searched with the pawns as walls:
each layout is found once, under its own pawns. A count takes one set of pawns from each class
under the board's symmetries (`problem_symmetries`: the pieces' count is the same for every
member), weighted by the class's size; with no pawns, a count is cut at its first piece's
square instead. Either way the count is a list of numbered work items (`items`), as every
count of the engine is. Classes of layouts come from the layouts each subgroup of symmetries
fixes (Burnside): orbits of squares placed together (`fixed_count`).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator
from itertools import combinations

import numpy as np

from ...model.pieces import images
from ...model.problem import Problem, Solution, Square
from ...model.symmetry import image_square, problem_symmetries
from ..base import Deadline, Stats
from ..watch import FLAG, NODES
from .searches import MAX_BATCH, SLICE_NODES
from .slots import DONE

#: What one set of pawns leaves the search: (unit_at, unit_size, unit_rows, unit_mask,
#: unit_attack, caps, start), the kernel's arguments.
Tables = tuple[np.ndarray, ...]


def closed(problem: Problem) -> set[Square]:
    """The squares no piece and no pawn may take: blocked squares and walls."""
    return set(problem.blocked) | set(problem.walls)


def pawn_squares(problem: Problem) -> list[Square]:
    """Where a pawn may stand: a free square that holds no pre-placed piece, in row order."""
    shut = closed(problem) | set(problem.fixed)
    return [(r, c) for r in range(problem.rows) for c in range(problem.n) if (r, c) not in shut]


def pawn_sets(problem: Problem) -> Iterator[tuple[Square, ...]]:
    """Every set of the problem's pawns, in a fixed order (none: the empty set alone)."""
    return combinations(pawn_squares(problem), problem.pawns)


@functools.lru_cache(maxsize=4)
def pawn_classes(problem: Problem) -> list[tuple[tuple[Square, ...], int]]:
    """One set of pawns from each class under the problem's symmetries (the smallest), with the
    class's size: the count of a set's layouts is the same for every member of its class. Made
    once a problem: every work item of its count looks its set up here."""
    group = problem_symmetries(problem)
    n, m = problem.n, problem.rows
    out = []
    for pawns in pawn_sets(problem):
        images_ = {tuple(sorted(image_square(g, n, r, c, m) for r, c in pawns)) for g in group}
        if min(images_) == pawns:
            out.append((pawns, len(images_)))
    return out


def _moves(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """The lines' steps (`Problem.steps`; one piece a row leaves rows to `whole_rows`) and the
    leaps' images, as (k, 2) int64 arrays."""
    steps = [s for s in problem.steps() if problem.anywhere or s[0] != 0]
    leaps = sorted({image for move in problem.rule.leapers for image in images(move)})
    return np.array(steps, np.int64).reshape(-1, 2), np.array(leaps, np.int64).reshape(-1, 2)


def open_rows(problem: Problem, shut: set[Square]) -> np.ndarray:
    """The columns of each row a piece may take: every square but those `shut`, a mask a row."""
    out = np.zeros(problem.rows, np.uint64)
    for r in range(problem.rows):
        for c in range(problem.n):
            if (r, c) not in shut:
                out[r] |= np.uint64(1) << np.uint64(c)
    return out


def _rows_mask(problem: Problem, squares: set[Square] | list[Square] | tuple[Square, ...]) -> np.ndarray:
    out = np.zeros(problem.rows, np.uint64)
    for r, c in squares:
        out[r] |= np.uint64(1) << np.uint64(c)
    return out


def attack_table(problem: Problem, pawns: tuple[Square, ...]) -> np.ndarray:
    """Each square's attacks with these pawns as walls (`kernels.layouts.attacks`)."""
    from .kernels.layouts import attacks

    steps, leaps = _moves(problem)
    stops = _rows_mask(problem, [*problem.walls, *pawns])
    return attacks(problem.rows, problem.n, problem.torus, steps, leaps, stops, not problem.anywhere)


def caps(problem: Problem, pawns: tuple[Square, ...]) -> np.ndarray:
    """The most pieces each row can hold: one a row; for a piece that rides rows, the row's
    runs of squares between walls and pawns that hold a free square; for one that steps one
    square along them (the king), half of each run of free squares side by side, rounded up;
    for any other, its free squares."""
    if not problem.anywhere:
        return np.ones(problem.rows, np.int64)
    m, n = problem.rows, problem.n
    shut = closed(problem) | set(pawns)
    stops = set(problem.walls) | set(pawns) if problem.rule.rook else shut
    stepping = not problem.rule.rook and (0, 1) in problem.rule.leapers and not problem.torus
    out = np.zeros(m, np.int64)
    for r in range(m):
        runs, run = [], 0
        for c in range(n):
            if (r, c) in stops:
                runs, run = [*runs, run], 0
            elif (r, c) not in shut:
                run += 1
        runs.append(run)
        if problem.rule.rook:
            out[r] = sum(1 for k in runs if k)
        elif stepping:
            out[r] = sum((k + 1) // 2 for k in runs)
        else:
            out[r] = sum(runs)
    return out


def tables(problem: Problem, pawns: tuple[Square, ...], orbits: list[list[Square]] | None = None) -> Tables | None:
    """The kernel's tables for one set of pawns, or None where the pre-placed pieces attack
    each other across them. Units are the squares one by one, or `orbits` (each placed whole;
    an orbit on a closed square, or whose squares attack each other, is left out)."""
    m, n = problem.rows, problem.n
    att = attack_table(problem, pawns)
    shut = closed(problem) | set(pawns)
    free = open_rows(problem, shut)
    for r, c in problem.fixed:
        mine = np.uint64(1) << np.uint64(c)
        others = att[r * n + c].copy()
        others[r] &= ~mine
        if np.any(others & _rows_mask(problem, problem.fixed)):
            return None
        free &= ~att[r * n + c]
    groups = [[sq] for sq in ((r, c) for r in range(m) for c in range(n))] if orbits is None else orbits
    unit_at = np.full(m * n, -1, np.int64)
    size, rows, mask, attack = [], [], [], []
    fixed = set(problem.fixed)
    for group in groups:
        if any(sq in shut or sq in fixed for sq in group):
            continue
        bits = _rows_mask(problem, group)
        hit = np.zeros(m, np.uint64)
        for r, c in group:
            hit |= att[r * n + c]
        alone = all(not np.any((att[r * n + c] & bits) & ~_rows_mask(problem, [(r, c)])) for r, c in group)
        if not alone:
            continue
        first = min(group)
        unit_at[first[0] * n + first[1]] = len(size)
        size.append(len(group))
        rows.append(first[0])
        mask.append(bits)
        attack.append(hit)
    left = (problem.pieces or m) - len(problem.fixed)
    start = np.array([*free.tolist(), left], np.uint64)
    shape = (len(size), m)
    return (
        unit_at,
        np.array(size, np.int64),
        np.array(rows, np.int64),
        np.array(mask, np.uint64).reshape(shape),
        np.array(attack, np.uint64).reshape(shape),
        caps(problem, pawns),
        start,
    )


def _count(problem: Problem, t: Tables, first: int, stop: np.ndarray) -> int:
    """The layouts of one table (those whose first piece is on square `first`, where >= 0),
    counted in slices until the end or stop[FLAG]."""
    from .kernels.layouts import new_state, search

    unit_at, size, rows, mask, attack, cap, start = t
    state = new_state(problem.rows, int(start[-1]), start)
    out = np.empty((0, 1), np.int64)
    total = 0
    while not state[-1][DONE] and not stop[FLAG]:
        total += search(problem.n, unit_at, size, rows, mask, attack, cap, first, *state, out, stop, SLICE_NODES)
    return total


def layouts(problem: Problem, deadline: Deadline, stats: Stats) -> Iterator[Solution]:
    """Every solution, pawn set after pawn set, each set's layouts in order (`Problem.encode`).
    Raises Unknown at the deadline, after those found."""
    from .kernels.layouts import new_state, search

    n = problem.n
    stop = np.zeros(2, np.int64)
    found = 0
    try:
        for pawns in pawn_sets(problem):
            t = tables(problem, pawns)
            if t is None:
                continue
            unit_at, size, rows, mask, attack, cap, start = t
            state = new_state(problem.rows, int(start[-1]), start)
            batch = 1
            while not state[-1][DONE]:
                out = np.empty((batch, max(1, int(start[-1]))), np.int64)
                got = search(n, unit_at, size, rows, mask, attack, cap, -1, *state, out, stop, SLICE_NODES)
                for row in out[:got].tolist():
                    picked = [divmod(s, n) for s in row if s >= 0]
                    yield problem.encode([*problem.fixed, *picked], pawns)
                found += got
                batch = min(batch * 2, MAX_BATCH)
                deadline.check(found)
    finally:
        stats["nodes"] = stats.get("nodes", 0) + int(stop[NODES])


# -- the count as work items -----------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _tables_of(problem: Problem, pawns: tuple[Square, ...]) -> Tables | None:
    return tables(problem, pawns)


def work(problem: Problem) -> np.ndarray:
    """The count's work items as rows (pawn set's number in `pawn_classes`, first square,
    weight): one a class of pawn sets, or with no pawns one a square the first piece takes."""
    if problem.pawns:
        return np.array([(i, -1, w) for i, (_, w) in enumerate(pawn_classes(problem))], np.int64).reshape(-1, 3)
    shut = closed(problem) | set(problem.fixed)
    squares = [r * problem.n + c for r in range(problem.rows) for c in range(problem.n) if (r, c) not in shut]
    if problem.width == len(problem.fixed):  # everything pre-placed: one item, the fixed layout
        squares = [-1]
    return np.array([(0, s, 1) for s in squares], np.int64).reshape(-1, 3)


def count_item(problem: Problem, item: np.ndarray, stop: np.ndarray) -> int:
    """One work item's weighted count."""
    which, first, weight = (int(v) for v in item)
    pawns = pawn_classes(problem)[which][0] if problem.pawns else ()
    t = _tables_of(problem, pawns)
    return 0 if t is None else weight * _count(problem, t, first, stop)


def digest(rows: np.ndarray) -> str:
    """What the numbering means, for checkpoint fingerprints (another list is refused)."""
    return hashlib.sha256(np.ascontiguousarray(rows, np.int64).tobytes()).hexdigest()[:16]


# -- the layouts a subgroup of symmetries fixes ------------------------------------------------


def orbits(problem: Problem, subgroup: frozenset[str]) -> list[list[Square]]:
    """The board's squares in orbits of `subgroup`, each in row order."""
    n, m = problem.n, problem.rows
    seen: set[Square] = set()
    out = []
    for r in range(m):
        for c in range(n):
            if (r, c) in seen:
                continue
            orbit = sorted({image_square(g, n, r, c, m) for g in subgroup})
            seen.update(orbit)
            out.append(orbit)
    return out


def fixed_count(problem: Problem, subgroup: frozenset[str], stop: np.ndarray) -> int:
    """The layouts every symmetry of `subgroup` maps onto themselves: their pawns a union of
    orbits, their pieces too, searched an orbit at a time."""
    board = orbits(problem, subgroup)
    shut = closed(problem) | set(problem.fixed)
    spots = [o for o in board if not any(sq in shut for sq in o)]
    total = 0
    for chosen in _unions(spots, problem.pawns):
        pawns = tuple(sorted(sq for o in chosen for sq in o))
        t = tables(problem, pawns, board)
        if t is not None:
            total += _count(problem, t, -1, stop)
    return total


def _unions(spots: list[list[Square]], k: int, start: int = 0) -> Iterator[list[list[Square]]]:
    """The choices of orbits from `spots[start:]` with k squares in all."""
    if k == 0:
        yield []
        return
    for i in range(start, len(spots)):
        if len(spots[i]) <= k:
            for rest in _unions(spots, k - len(spots[i]), i + 1):
                yield [spots[i], *rest]
