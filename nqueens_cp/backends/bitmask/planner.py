"""The one place that decides which of the engine's algorithms serves a (problem, task).

The decision depends on the problem, the task and the options only (never on what the process
happens to have imported), and it comes with a reason the user sees (`--json`'s "plan",
`--verbose`). Each threshold names the section of docs/benchmarks.md that measured it.
"""

from __future__ import annotations

import math
import os
from enum import StrEnum
from typing import Any

from ...model.problem import Problem
from ..base import Plan, Task, UnsupportedProblem
from .construct import has_closed_form
from .folds import mirrored, translated

#: Boards up to this many columns fit one uint64 per row and run compiled.
MAX_COMPILED_N = 64

#: The largest board searched on Python integers: its row masks take n^2/8 bytes (3 MB here),
#: and a search beyond it would not end anyway. Larger plain boards get closed forms only.
MAX_PYTHON_SEARCH_N = 5000

#: Queen-like boards up to this size are counted in Python, which costs less than loading the
#: compiled kernels into a fresh process (docs/benchmarks.md § Counting in Python up to n = 10).
PYTHON_COUNT_MAX_N = 10

#: Queen and rook boards up to this size are counted a row at a time on numpy arrays
#: (`frontier`), in less time than loading the compiled kernels takes in a fresh process
#: (docs/benchmarks.md § Counting small boards without the compiled kernels).
FRONTIER_MAX_N = 12

#: A plain count is spread over a process pool from this size (when more than one worker may
#: be used); below it the whole count takes less than starting a pool.
PARALLEL_FROM_N = 13

#: Plain boards are counted by constellations, under the symmetries they keep, from this size
#: (below it the whole count takes milliseconds either way) up to CONSTELLATIONS_MAX_N.
#: Counting queens by joining half-boards (partitions/join.py) from this size
#: (docs/benchmarks.md § The join from n = 16).
JOIN_FROM_N = 16
#: ...up to this size: the column sets to join, C(n, n/2) / 4, are listed before the count.
JOIN_MAX_N = 26
CONSTELLATIONS_FROM_N = 11
CONSTELLATIONS_MAX_N = 32

#: Counting on constrained boards switches to the most-constrained-line search once more than
#: this share of the board is unusable (it pays per solution, the row search does not).
MRV_COUNT_UNUSABLE = 0.5

#: What counts a piece the specialised kernels do not serve (kernels.generated says when each).
SEARCHER = "the generic kernel (or the piece's own, once a large count has compiled it)"


#: The most sets of pawns the layouts search places one by one (each set a search of its own).
MAX_PAWN_SETS = 10_000_000


class Algorithm(StrEnum):
    """The engine's algorithms (the backend runs each through one dispatch table)."""

    CONSTRUCT = "construct"
    MRV = "mrv"
    ROWS = "rows"
    ROWS_PYTHON = "rows-python"
    FRONTIER = "rows-numpy"
    COUNT_SPLIT = "count-split"
    CANONICAL = "canonical"
    FIXED_POINTS = "fixed-points"
    REGIONS = "regions"
    CONSTELLATIONS = "constellations"
    JOIN = "join"
    ANY_PIECE = "any-piece"
    LAYOUTS = "layouts"


def jit_enabled() -> bool:
    """Whether numba compiles the kernels. With NUMBA_DISABLE_JIT they would run as Python on
    numpy's fixed-width scalars, whose overflow the bit tricks do not expect (wrong counts):
    the searches on Python integers serve instead. Read from the environment as numba
    reads it, so that planning never imports numba; `kernels` refuses to load without the
    JIT, for settings made elsewhere."""
    try:
        return int(os.environ.get("NUMBA_DISABLE_JIT") or 0) == 0
    except ValueError:
        return True


def by_constellations(problem: Problem, task: Task = Task.COUNT) -> bool:
    """Counted by symmetry classes of ring constellations under the symmetries the problem keeps:
    a plain board of at least 4 rows, not a torus (its translations do better: tables.first_rows).
    Every plain board keeps the half turn; a square whose piece keeps all 8 symmetries (every
    leaper and rider does) keeps them as a torus too. Symmetry classes of solutions (`unique`)
    are taken under all 8 and need a piece that rides the diagonals, which no reflection can fix
    (constellations.queen_like)."""
    from ...model.symmetry import NAMES, problem_symmetries

    if not (problem.is_plain and problem.rows >= 4 and CONSTELLATIONS_FROM_N <= problem.n <= CONSTELLATIONS_MAX_N):
        return False
    eight = problem.square and problem_symmetries(problem) == NAMES
    if task == Task.UNIQUE:
        return eight and specialised(problem) and problem.rule.diagonals
    return eight or not problem.torus


#: A measured count the estimate of a long one starts from: `count 21` on 2 workers, 385 s
#: (docs/benchmarks.md § Today's figures).
MEASURED_N, MEASURED_SECONDS, MEASURED_WORKERS = 21, 385.0, 2
#: Where the estimate starts: smaller counts end in seconds.
ESTIMATE_FROM_N = 18


#: A measured profile the estimate of a long one starts from: `count 19 --profile` on 2 threads,
#: 1,128 s (docs/benchmarks.md: the backtrack tree's profile).
MEASURED_PROFILE_N, MEASURED_PROFILE_SECONDS = 19, 1128.0


def estimated_seconds(problem: Problem, workers: int, profile: bool = False) -> float | None:
    """The seconds a count (or, with `profile`, a profile) of plain n-queens takes here, roughly:
    the measured run above, scaled by the growth of the number of solutions, Q(n) ~ (0.1434 n)^n
    (Simkin, 2021), whose ratio between 21 and 23 is 74 against the true 77, and by the workers.
    The backtrack tree's nodes grow as its leaves do (A319283's ratio from 19 to 20 is 8.2,
    A000170's 7.9). For a warning that a run would take hours or years, not for a promise; None
    for other problems."""
    n = problem.n
    if not (problem.is_plain and problem.square and not problem.torus and problem.rule.notation == "Q"):
        return None
    if n < ESTIMATE_FROM_N:
        return None
    base, seconds = (MEASURED_PROFILE_N, MEASURED_PROFILE_SECONDS) if profile else (MEASURED_N, MEASURED_SECONDS)
    growth = n * math.log(0.1434 * n) - base * math.log(0.1434 * base)
    return seconds * math.exp(growth) * MEASURED_WORKERS / max(1, workers)


def queen_like_classes(problem: Problem, classic: bool) -> bool:
    """Classes counted from the canonical solutions alone (`partitions.classes`, constellations):
    all 8 symmetries hold and the piece rides the diagonals, so no reflection fixes a solution
    and the orbit sizes tell the symmetric ones. Any other board's classes come from the
    solutions each subgroup fixes."""
    from ...model.symmetry import NAMES, problem_symmetries

    return classic and problem.rule.diagonals and problem_symmetries(problem) == NAMES


def classes_reason(problem: Problem) -> str:
    """The plan's reason for a count by classes: which symmetries hold."""
    from ...model.symmetry import NAMES, problem_symmetries

    group = problem_symmetries(problem)
    if group == NAMES:
        return "all 8 symmetries hold"
    return f"{len(group)} symmetries hold ({', '.join(group[1:])} and the identity)"


def count_symmetries(problem: Problem) -> str:
    """What the generic count's first two rows make of the symmetries, for the plan's reason."""
    mirror = mirrored(problem)
    if translated(problem):
        turned = ", the mirror c -> -c halves row 1" if mirror and problem.rows > 1 else ""
        return f"; a plain torus: the first row's piece in column 0, counted {problem.n} times{turned}"
    return (
        "; the left-right mirror holds: half the first row, counted twice"
        if mirror
        else "; no left-right mirror: the whole first row"
    )


def mib(size: int) -> str:
    """A size in bytes as people read it (MiB up to 10 GiB, then GiB)."""
    return f"{size / 2**20:,.0f} MiB" if size < 10 << 30 else f"{size / 2**30:,.1f} GiB"


def specialised(problem: Problem) -> bool:
    """A rook, queen or superqueen on a square board: the pieces and shape the specialised
    kernels are written for (every other piece and shape runs the generic search)."""
    return problem.rule.classic and problem.square


def joined(problem: Problem) -> bool:
    """Queens on a plain board in the join's range (partitions/join.py): a square of
    JOIN_FROM_N to JOIN_MAX_N columns, or a board of fewer rows than columns that the join's
    table of rectangles lists (where it was measured faster than constellations: docs/benchmarks.md
    § The join on rectangles)."""
    from .partitions.join import RECTANGLES

    rule = problem.rule
    queen = rule.diagonals and not rule.knight and not rule.leapers and rule.classic
    if not (queen and problem.is_plain and not problem.torus):
        return False
    if problem.square:
        return JOIN_FROM_N <= problem.n <= JOIN_MAX_N
    return (problem.rows, problem.n) in RECTANGLES


def _join_plan(problem: Problem, task: Task, settings: dict[str, Any], workers: int) -> tuple[Plan | None, str]:
    """The join's plan where it serves and fits the memory budget, with as many workers as fit;
    else None, and why the join does not fit the budget ("" where it does not serve)."""
    if not joined(problem):
        return None, ""
    from ...run.parallel import default_memory
    from .partitions.join import memory

    m, n = problem.rows, problem.n
    need, budget = memory(n, m), settings.get("memory") or default_memory()
    fits = min(workers, budget // need)
    why = f"queens on a board of {JOIN_FROM_N} to {JOIN_MAX_N} columns: half-boards joined (faster here)"
    if m < n:
        why = f"queens on {m} x {n}: each top set's partials joined with the bottom rows' placements (faster here)"
    if fits >= 1:
        why += f"; up to {mib(need)} per worker"
        if fits < workers:
            why += f", so {fits} of {workers} workers under the memory budget of {mib(budget)}"
        return Plan(task, Algorithm.JOIN, why, fits, memory=need * fits), ""
    return None, f"the join would hold {mib(need)}, over the memory budget of {mib(budget)}: "


def constrained(problem: Problem) -> bool:
    """Blocked or fixed squares on a queen or rook board the compiled kernels take: the
    most-constrained-line search applies."""
    plain, n, rule = problem.is_plain, problem.n, problem.rule
    kernel = specialised(problem) and not rule.knight and n <= MAX_COMPILED_N and jit_enabled()
    return not plain and not problem.torus and kernel


def _unusable_share(problem: Problem) -> float:
    return 1 - sum(m.bit_count() for m in problem.row_masks) / problem.n**2


def optimum_plan(problem: Problem, task: Task, settings: dict[str, Any], default_workers: int) -> Plan:
    """The exact searches of the most pieces and the fewest that cover (`optimise`): the optimum
    in this process, the optimal placements counted as work items on the workers."""
    if problem.regions:
        raise UnsupportedProblem(f"bitmask: {task} on a region map is not searched here")
    if not (problem.n <= MAX_COMPILED_N and jit_enabled()):
        raise UnsupportedProblem(f"bitmask: {task} runs compiled kernels, up to {MAX_COMPILED_N} columns")
    workers = settings.get("workers") or default_workers
    if task == Task.MAX:
        why = "a placement found greedily, then from the cliques' bound down, each size searched for one"
        return Plan(task, "max-descending", why, workers)
    why = "a set found greedily, then from the pre-placed pieces up, each size branched on the square fewest cover"
    return Plan(task, "cover-ascending", why, workers)


def symmetric_plan(problem: Problem, settings: dict[str, Any]) -> Plan:
    """The solutions a symmetry fixes: placed an orbit of squares at a time (`fixed_points`;
    `layouts.fixed_count` where walls cut lines or pieces stand anywhere), in one process."""
    if settings.get("workers") not in (None, 1):
        raise UnsupportedProblem("bitmask: the symmetric solutions are searched in one process; --workers is count's")
    why = "an orbit of squares under the symmetry's powers placed at a time: the symmetric solutions alone"
    return Plan(Task.SYMMETRIC, Algorithm.FIXED_POINTS, why)


def profile_plan(problem: Problem, settings: dict[str, Any], default_workers: int) -> Plan:
    """The tree's nodes by depth: a compiled row search (or, for pieces anywhere, a squares
    search) that counts each node where it stands, the first piece's places on threads."""
    if not (problem.n <= MAX_COMPILED_N and jit_enabled()):
        raise UnsupportedProblem(f"bitmask: the profile runs a compiled kernel, up to {MAX_COMPILED_N} columns")
    why = "a piece a row, top to bottom, each node counted at its depth; the first row's columns on threads"
    if problem.anywhere:
        why = (
            f"pieces anywhere a square at a time, in reading order, up to {problem.pieces}: each placement "
            "a node, counted by its pieces; the first piece's squares on threads"
        )
    workers = settings.get("workers") or default_workers
    seconds = None if problem.anywhere else estimated_seconds(problem, workers, profile=True)
    return Plan(Task.PROFILE, "profile", why, workers, seconds=seconds)


def plan(problem: Problem, task: Task, settings: dict[str, Any], default_workers: int, cut: bool = False) -> Plan:
    """The algorithm for `task` (the table in docs/backends.md). With `cut`, a count that is to
    be cut into numbered work items (checkpoints, Dask): the row-at-a-time count makes none."""
    n = problem.n
    jit = jit_enabled()
    classic = specialised(problem)
    compiled = n <= MAX_COMPILED_N and jit and classic
    wide = "over 64 columns" if jit else "numba's JIT is disabled (NUMBA_DISABLE_JIT)"
    generic = None  # the compiled search for any piece and shape, when it is the one that serves
    if not classic:
        what = f"piece {problem.piece}" if problem.square else f"a {problem.shape} board"
        if n <= MAX_COMPILED_N and jit:
            why = f"{what}: the generic search reads the moves from the spec"
            if task == Task.COUNT:
                why = f"{what}: {SEARCHER} counts it" + count_symmetries(problem)
            generic = Plan(task, Algorithm.ANY_PIECE, why)
        wide = f"{what}: the generic row search on Python integers reads the moves from the spec, {wide}"
    workers = settings.get("workers")
    parallel = default_workers if n >= PARALLEL_FROM_N else 1  # a count's or a class count's workers by default
    searchable = n <= MAX_PYTHON_SEARCH_N
    if not searchable and not (task == Task.FIRST and has_closed_form(problem) and not settings.get("lexicographic")):
        raise UnsupportedProblem(
            f"bitmask: {task} on a {n}x{n} board needs a search, which stops at {MAX_PYTHON_SEARCH_N} columns "
            "(first on a plain board has a closed form at any size)"
        )
    if workers not in (None, 1) and task not in (Task.COUNT, Task.UNIQUE):
        raise UnsupportedProblem(f"bitmask: {task} runs in one process; --workers applies to count")
    if problem.walled:
        if problem.regions:
            raise UnsupportedProblem(
                "bitmask: a region map with walls or pieces anywhere is not searched here: "
                "the squares formulation of the CP backends states both"
            )
        if not (n <= MAX_COMPILED_N and jit):
            raise UnsupportedProblem(f"bitmask: walls and pieces anywhere are searched by a compiled kernel: {wide}")
        spots = problem.rows * n - len(set(problem.blocked) | set(problem.walls) | set(problem.fixed))
        sets = math.comb(spots, problem.pawns)
        if sets > MAX_PAWN_SETS:
            raise UnsupportedProblem(
                f"bitmask: {problem.pawns} pawns on {spots} squares make {sets:,} sets, over the "
                f"{MAX_PAWN_SETS:,} this search places one by one (the CP backends state the pawns as variables)"
            )
        if task == Task.UNIQUE:
            why = "the count, and the layouts each group of symmetries fixes, an orbit of squares at a time (Burnside)"
            return Plan(task, Algorithm.FIXED_POINTS, why, workers or parallel)
        if workers not in (None, 1) and task != Task.COUNT:
            raise UnsupportedProblem(f"bitmask: {task} runs in one process; --workers applies to count")
        why = "walls, pieces anywhere or pawns: a piece at a time in row order, each square's attacks cut at the walls"
        if problem.pawns:
            why += "; the pawns placed first, a set a class of symmetry"
        return Plan(task, Algorithm.LAYOUTS, why, (workers or parallel) if task == Task.COUNT else 1)
    if problem.regions and task != Task.UNIQUE:  # (its classes: the fixed points below, their search the same)
        if workers not in (None, 1):
            raise UnsupportedProblem("bitmask: a board with a region map is searched in one process (no --workers)")
        return Plan(task, Algorithm.REGIONS, "a region map: a row at a time, each square's conflicts its region's too")

    if task == Task.FIRST:
        if settings.get("lexicographic"):
            if generic:
                return generic
            if not compiled:
                return Plan(task, Algorithm.ROWS_PYTHON, f"the lexicographically first solution, {wide}")
            return Plan(task, Algorithm.ROWS, "the lexicographically first solution was asked for")
        if has_closed_form(problem):
            return Plan(task, Algorithm.CONSTRUCT, "a closed form covers this plain board")
        if constrained(problem):
            return Plan(task, Algorithm.MRV, "blocked or fixed squares: branch on the most constrained line")
        if generic:
            return generic
        if not compiled:
            return Plan(task, Algorithm.ROWS_PYTHON, f"{wide}, and no closed form")
        return Plan(task, Algorithm.ROWS, "a variant with no closed form for this n")

    small = n <= FRONTIER_MAX_N and problem.rule.notation in ("Q", "R") and not problem.torus
    if task == Task.COUNT and small and not cut:
        from .frontier import peak_bytes

        why = f"n <= {FRONTIER_MAX_N}: a row at a time on numpy arrays, cheaper than loading the compiled kernels"
        return Plan(task, Algorithm.FRONTIER, why, memory=peak_bytes(problem))
    if task == Task.UNIQUE and n <= MAX_COMPILED_N and jit and not queen_like_classes(problem, classic):
        why = (
            "the count, and the solutions each group of symmetries fixes, searched an orbit of squares at a "
            "time: classes by Burnside's lemma"
        )
        return Plan(task, Algorithm.FIXED_POINTS, why, workers or parallel)
    if generic:
        if task == Task.COUNT:  # the join, symmetry classes, or sub-problems of two pinned rows (partitions.pieces)
            w = workers or parallel
            joint, over = _join_plan(problem, task, settings, w)
            if joint is not None:
                return joint
            if by_constellations(problem) and not translated(problem):
                why = f"{over}{what}: {classes_reason(problem)}: classes of ring pieces, each searched by {SEARCHER}"
                return Plan(task, Algorithm.CONSTELLATIONS, why, w)
            return Plan(task, generic.algorithm, generic.reason, w)
        return generic
    if task == Task.SOLVE:
        if not compiled:
            return Plan(task, Algorithm.ROWS_PYTHON, wide)
        return Plan(task, Algorithm.ROWS, "streams every solution in lexicographic order")

    if task == Task.UNIQUE:
        if not compiled:
            return Plan(task, Algorithm.ROWS_PYTHON, f"{wide}: every solution tested in Python")
        w = workers or parallel
        if by_constellations(problem, task):
            return Plan(task, Algorithm.CONSTELLATIONS, "all 8 symmetries hold: classes of ring queens", w)
        return Plan(task, Algorithm.CANONICAL, "one search per first-row column, then the canonical test", w)

    # count
    if not compiled:
        return Plan(task, Algorithm.ROWS_PYTHON, wide)
    if n <= PYTHON_COUNT_MAX_N and problem.rule.diagonals:  # (classic here: compiled is False otherwise)
        return Plan(task, Algorithm.ROWS_PYTHON, f"n <= {PYTHON_COUNT_MAX_N}: cheaper than loading the compiled kernel")
    w = workers or parallel
    if translated(problem):
        why = f"{SEARCHER} counts wrapped lines" + count_symmetries(problem)
        return Plan(task, Algorithm.ANY_PIECE, why, w)
    joint, over = _join_plan(problem, task, settings, w)  # over: why the join does not fit the budget
    if joint is not None:
        return joint
    if by_constellations(problem):
        why = over + "all 8 symmetries hold: classes of ring pieces, under 1/8 of the search"
        return Plan(task, Algorithm.CONSTELLATIONS, why, w)
    if constrained(problem) and _unusable_share(problem) > MRV_COUNT_UNUSABLE:
        return Plan(task, Algorithm.MRV, "over half the board unusable: the most-constrained-line search prunes more")
    if problem.rule.knight or problem.torus:
        why = f"knight moves or wrapped lines: {SEARCHER} counts them" + count_symmetries(problem)
        return Plan(task, Algorithm.ANY_PIECE, why, w)
    why = "sub-problems on a process pool" if w > 1 else "sub-problems in this process"
    return Plan(task, Algorithm.COUNT_SPLIT, why, w)
