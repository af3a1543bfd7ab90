"""The most pieces and the fewest that cover, by our engine: exact searches with bounds.

- **The most pieces** (`maximum`): a placement found greedily is the first lower bound; then K
  from an upper bound down (each clique of squares that attack each other holds at most one
  piece; a rook's rows and columns at most one a segment between walls), each K searched by
  the layouts search (`layouts`) for one placement of K pieces anywhere: the first K that has
  one is the optimum, every K above it proved to have none. The maximum placements are then
  counted as any count of pieces anywhere is (work items).
- **The fewest that cover** (`fewest`): a dominating set found greedily is the first upper
  bound; then k from the pre-placed pieces up, each searched by `kernels.cover` for a set of k
  pieces, below a root cut by the board's symmetries (`partitions.cover`): the first k that has
  one is the optimum, every k below it proved to have none; the minimum sets are counted by the
  same search run to its end, each set found weighed by its orbit's share.
Under a deadline each answers what it has: the best found, and the bound proved so far.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ...model.problem import Problem, Solution, Square
from ..base import Deadline, Unknown, UnsupportedProblem
from ..watch import watched
from . import layouts
from .partitions import cover as cut
from .partitions.base import Items


@dataclass
class Optimum:
    """What a search proved: the best value found (its solution), and the bound on the optimum."""

    value: int | None
    solution: Solution | None
    bound: int
    count: int | None = None


def anywhere(problem: Problem, k: int) -> Problem:
    """The problem with k pieces anywhere (the pre-placed among them)."""
    return replace(problem, pieces=k, pawns=0)


def _segments(problem: Problem, squares: list[list[Square]]) -> int:
    """The runs between walls of each line of `squares` that hold a free square."""
    walls, shut = set(problem.walls), layouts.closed(problem)
    total = 0
    for line in squares:
        run = False
        for sq in line:
            if sq in walls:
                run = False
            elif sq not in shut and not run:
                total += 1
                run = True
    return total


def _cliques(problem: Problem) -> int:
    """How many cliques (sets of squares every two of which attack each other: each holds at
    most one piece) cover the free squares, made greedily in row order: the king's 2 x 2
    blocks, the bishop's diagonals, the knight's pairs a leap apart."""
    p = anywhere(problem, 1)
    shut = layouts.closed(problem)
    free = [(r, c) for r in range(problem.rows) for c in range(problem.n) if (r, c) not in shut]
    reach = {sq: p._reach(sq) for sq in free}
    left, cliques = set(free), 0
    for sq in free:
        if sq not in left:
            continue
        clique = [sq]
        for other in sorted(reach[sq] & left):
            if all(other in reach[member] for member in clique):
                clique.append(other)
        left -= set(clique)
        cliques += 1
    return cliques


def upper_bound(problem: Problem) -> int:
    """At most one piece a clique of squares (`_cliques`); for a piece that rides rows and
    columns, at most one a segment of each row, and of each column, too."""
    m, n = problem.rows, problem.n
    bound = _cliques(problem)
    if problem.torus or not problem.rule.rook:  # (a wrapped line's runs join across the edge)
        return bound
    rows = [[(r, c) for c in range(n)] for r in range(m)]
    cols = [[(r, c) for r in range(m)] for c in range(n)]
    return min(bound, _segments(problem, rows), _segments(problem, cols))


def _greedy_independent(problem: Problem) -> list[Square]:
    """Pieces placed square by square where nothing placed attacks them (the pre-placed first)."""
    p = anywhere(problem, max(1, len(problem.fixed)))
    placed = list(problem.fixed)
    hit = set(placed).union(*(p._reach(sq) for sq in placed)) if placed else set()
    shut = layouts.closed(problem)
    for r in range(problem.rows):
        for c in range(problem.n):
            sq = (r, c)
            if sq in shut or sq in hit or any(sq in p._reach(o) for o in placed):
                continue
            placed.append(sq)
            hit |= {sq} | p._reach(sq)
    return placed


def maximum(
    problem: Problem, deadline: Deadline, count: bool, counter: Callable[[Problem], int | None]
) -> Optimum | None:
    """The most pieces no two of which attack (see the module), None where the pre-placed
    pieces attack each other. `counter(p)` counts p's layouts (the backend's count, on its work
    items; None where it stopped)."""
    if anywhere(problem, max(1, len(problem.fixed))).contradiction:
        return None
    found = _greedy_independent(problem)
    best = Optimum(len(found), problem.placed(found), upper_bound(problem))
    stats: dict[str, int] = {}
    for k in range(best.bound, len(found), -1):  # (each k refuted lowers the bound to k - 1)
        try:
            first = next(iter(layouts.layouts(anywhere(problem, k), deadline, stats)), None)
        except Unknown:
            return best
        if first is not None:
            best.value, best.solution, best.bound = k, first, k
            break
        best.bound = k - 1
    if count and best.value == best.bound:
        best.count = counter(anywhere(problem, best.bound))
    return best


def _tables(problem: Problem, independent: bool) -> tuple[np.ndarray, ...] | None:
    """(cover, attack, need, allow, spill, most) for the cover search (`kernels.cover`), or None
    where the pre-placed pieces attack each other and independence is asked."""
    n, m = problem.n, problem.rows
    p = anywhere(problem, max(1, len(problem.fixed)))
    cover = layouts.attack_table(p, ())
    attack = cover.copy()
    for s in range(m * n):
        attack[s, s // n] &= ~(np.uint64(1) << np.uint64(s % n))
    free = layouts.open_rows(problem, layouts.closed(problem))
    need, allow = free.copy(), free.copy()
    for r, c in problem.fixed:
        s = r * n + c
        if independent and np.any(attack[s] & layouts._rows_mask(problem, problem.fixed)):
            return None
        need &= ~cover[s]
        allow[r] &= ~(np.uint64(1) << np.uint64(c))
        if independent:
            allow &= ~attack[s]
    rows_of = [s // n for s in range(m * n)]
    spill = max(
        (int(bin(int(cover[s, r])).count("1")) for s in range(m * n) for r in range(m) if r != rows_of[s]), default=0
    )
    most = max(sum(int(bin(int(w)).count("1")) for w in cover[s]) for s in range(m * n))
    return cover, attack, need, allow, np.int64(max(spill, 1)), np.int64(most)


def _greedy_cover(problem: Problem, independent: bool) -> list[Square] | None:
    """A dominating set made greedily: the pre-placed pieces, then each time the square that
    covers most of what is left (where independence allows one)."""
    p = anywhere(problem, max(1, len(problem.fixed)))
    shut = layouts.closed(problem)
    free = [(r, c) for r in range(problem.rows) for c in range(problem.n) if (r, c) not in shut]
    reach = {sq: p._reach(sq) | {sq} for sq in free}
    chosen = list(problem.fixed)
    left = set(free).difference(*(reach[sq] for sq in chosen if sq in reach))
    while left:
        options = [sq for sq in free if sq not in chosen]
        if independent:
            options = [sq for sq in options if not any(sq in reach[o] for o in chosen)]
        if not options:
            return None
        pick = max(options, key=lambda sq: len(reach[sq] & left))
        if not reach[pick] & left:
            return None
        chosen.append(pick)
        left -= reach[pick]
    return chosen


def search_tables(problem: Problem, independent: bool) -> tuple[np.ndarray, ...] | None:
    """The cover search's arguments for `problem`: (cover, by, attack, need, allow, spill, most),
    or None where independence is asked of pre-placed pieces that attack each other."""
    from .kernels.cover import coverers

    t = _tables(problem, independent)
    if t is None:
        return None
    cover, attack, need, allow, spill, most = t
    return cover, coverers(problem.n, cover), attack, need, allow, spill, most


def fewest(problem: Problem, deadline: Deadline, independent: bool, count: bool, workers: int = 1) -> Optimum | None:
    """The fewest pieces that dominate the board (see the module), None where none can (pre-
    placed pieces that attack each other, asked to be independent; no independent set that
    dominates). Each size is searched below the search's root cut by the problem's symmetries
    (`partitions.cover`), for its first set; from `PARALLEL_FROM` pieces, where there are
    workers, it is refuted first on the pool. The minimum sets are counted as numbered work
    items on them."""
    from .partitions import count_items

    n, fixed = problem.n, len(problem.fixed)
    t = search_tables(problem, independent)
    if t is None:
        return None
    greedy = _greedy_cover(problem, independent)
    best = Optimum(None, None, fixed)
    if greedy is not None:
        best = Optimum(len(greedy), problem.placed(greedy), fixed)
    top = problem.rows * n - len(layouts.closed(problem))
    with watched(deadline) as stop:
        for k in range(fixed, (best.value if best.value is not None else top) + 1):
            if k == best.value:  # (every size below refuted: the greedy set is optimal as it is)
                best.bound = k
                break
            parts = cut.items(problem, k - fixed, independent, t, _load_cover, first=True)
            if workers > 1 and k - fixed >= PARALLEL_FROM:
                try:
                    refuted = not _exists(parts, workers, deadline)
                except Unknown:  # (the deadline, on the pool: what is proved stands)
                    return best
                if refuted:
                    best.bound = k + 1  # (every item searched to its end)
                    continue
            found = cut.found_sets(parts.context, 1, stop)
            if stop[0]:
                return best
            if found.shape[0]:
                placed = [*problem.fixed, *(divmod(int(s), n) for s in found[0] if s >= 0)]
                best.value, best.solution = len(placed), problem.placed(placed)
                best.bound = best.value
                break
            best.bound = k + 1
        if best.value is None:  # no dominating set at all (independence can leave none)
            return None
    if count and best.bound == best.value == fixed:  # the pre-placed pieces cover: they are the one set
        best.count = 1
    elif count and best.bound == best.value:
        try:
            best.count = count_items(cover_items(problem, independent, best.value), workers, deadline).count
        except Unknown:
            best.count = None
    return best


def cover_items(problem: Problem, independent: bool, value: int) -> Items:
    """The sets of `value` pieces (the pre-placed among them) that dominate, as numbered work
    items (`partitions.cover`)."""
    t = search_tables(problem, independent)
    if t is None:
        raise UnsupportedProblem("the pre-placed pieces attack each other: no independent set holds them")
    return cut.items(problem, value - len(problem.fixed), independent, t, _load_cover)


#: The pieces (besides the pre-placed) from which a size is refuted on the pool where there
#: are workers: below it a search takes milliseconds, less than starting the workers.
PARALLEL_FROM = 5


def _exists(parts: Items, workers: int, deadline: Deadline) -> bool:
    """Whether some set of the items' pieces dominates (`parts`: `partitions.cover.items` that
    stop at their first set): the items searched for one on the pool, all of them to their end
    where none has one (a size refuted), the run ended at the first found otherwise (the set
    itself is then searched in this process)."""
    from .partitions import count_items

    return count_items(parts, workers, deadline, enough=1).count > 0


def _load_cover() -> None:
    """The cover kernel loaded in this process (before forking the workers that share it): a
    3 x 3 board's items counted."""
    from .partitions.base import warm

    small = Problem(3)
    tables = search_tables(small, False)
    assert tables is not None
    warm(cut.run, cut.items(small, 2, False, tables, _load_cover).context)


def minimum_sets(problem: Problem, deadline: Deadline, independent: bool, value: int, count: int) -> np.ndarray:
    """Sets of `value` pieces that dominate, at least one of each symmetry class (of the `count`
    sets `fewest` found), a row each: the pre-placed pieces' squares then the others', r * n + c
    (`partitions.cover.found_sets`). Raises Unknown at a stop."""
    n = problem.n
    t = search_tables(problem, independent)
    assert t is not None  # (`fewest` found sets)
    parts = cut.items(problem, value - len(problem.fixed), independent, t, _load_cover)
    with watched(deadline) as stop:
        found = cut.found_sets(parts.context, count, stop)
    deadline.check(None)
    given = np.array([r * n + c for r, c in problem.fixed], np.int64)
    return np.hstack([np.tile(given, (found.shape[0], 1)), found])
