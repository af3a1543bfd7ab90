"""Every count the engine cuts is a list of numbered work items, and all of them run the same
way: one result type (`Counts`), one description of the list (`Items`), one runner
(`count_items`) for this process and the pool, and one hand-over to checkpoints and Dask
(`Items.partition`).

The lists: `rows`, the placements of the first rows (queens, rooks, superqueens);
`pieces`, the first two rows' squares of any other piece and board; `constellations`, classes
of ring constellations under the symmetries that hold; `join`, sets of top columns whose
half-boards are joined; `classes`, the searches that reach every canonical solution. Item i
means the same thing in every run of the same problem (its fingerprint says what), so a
checkpoint of one run resumes in another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....model.problem import Problem
from ...base import BackendError, UnsupportedProblem
from ..planner import Algorithm
from .base import Counts, Items, Split, count_items, item_count

if TYPE_CHECKING:
    from ....run.partition import Partition

__all__ = ["Counts", "Items", "count_items", "followed", "for_count", "item_count"]


#: Rows fixed per item of a row split, wherever it runs (in this process, on the pool, on Dask,
#: into a checkpoint): about n^3/6 items keep every worker busy to the end, and each is small
#: enough that progress moves and a stop is quick.
SPLIT_DEPTH = 3


def for_count(problem: Problem, algorithm: Algorithm, depth: int | None = None) -> Items:
    """The work items of the count the planner chose: sets of top columns for the join, classes
    of constellations where those count, the first two rows' squares for any other piece or a
    wrapped board, else the placements of the first `depth` rows (SPLIT_DEPTH by default)."""
    from .. import planner

    if algorithm == Algorithm.JOIN:
        if depth is not None:
            raise UnsupportedProblem(
                "bitmask: this count is cut into sets of top columns (the join); --depth applies to row splits"
            )
        from . import join

        return join.items(problem)
    if algorithm == Algorithm.CONSTELLATIONS:
        if depth is not None:
            raise UnsupportedProblem(
                f"bitmask: this count is cut into symmetry classes of ring pieces "
                f"({planner.classes_reason(problem)}); --depth applies to row splits"
            )
        from . import constellations

        return constellations.items(problem)
    if algorithm == Algorithm.CANONICAL:
        from . import classes

        return classes.items(problem)
    if algorithm == Algorithm.LAYOUTS:
        if depth is not None:
            raise UnsupportedProblem(
                "bitmask: a count with walls or pieces anywhere is cut by pawns or first squares; "
                "--depth applies to row splits"
            )
        from . import layouts

        return layouts.items(problem)
    compiled = problem.n <= planner.MAX_COMPILED_N and planner.jit_enabled()
    if not compiled:
        wide = problem.n > planner.MAX_COMPILED_N
        why = f"{problem.n} columns" if wide else "numba's JIT is disabled (NUMBA_DISABLE_JIT)"
        raise BackendError(f"bitmask: a partitioned count runs the compiled kernels (up to 64 columns): {why}")
    wrapped = problem.torus or problem.rule.knight  # (a small board's plan is the Python search)
    if algorithm == Algorithm.ANY_PIECE or (algorithm == Algorithm.ROWS_PYTHON and wrapped):
        if depth is not None:
            raise UnsupportedProblem(
                "bitmask: this count is cut at its first two rows; --depth applies to the row split of queens and rooks"
            )
        from . import pieces

        return pieces.items(problem)
    if depth is None:
        depth = SPLIT_DEPTH  # fewer on a board with fewer rows (split stops one row short)
    elif not 1 <= depth < problem.n:
        raise UnsupportedProblem(f"bitmask: --depth must be 1..{problem.n - 1} on {problem.n} rows, got {depth}")
    from . import rows

    return rows.items(problem, depth)


#: The cuts a checkpoint may name that another plan of the same problem could have made: the
#: join and the constellations (the memory budget chooses), rows at any depth (--depth).
FOLLOWED = {
    Split.JOIN: Algorithm.JOIN,
    Split.CONSTELLATIONS: Algorithm.CONSTELLATIONS,
    Split.ROWS: Algorithm.COUNT_SPLIT,
}


def rebuilt(problem: Problem, algorithm: str, depth: int | None, saved: dict[str, Any]) -> Partition:
    """The partition whose fingerprint is `saved`, built again from the problem alone: what a
    Dask worker that joined mid-run builds for itself (`run.partition.Partition.rebuild`)."""
    found = followed(problem, saved, depth)
    items = found[1] if found is not None else for_count(problem, Algorithm(algorithm), depth)
    if items.fingerprint | {"items": items.size} != saved:
        raise UnsupportedProblem("bitmask: this worker cuts the count otherwise than the client (another version?)")
    return items.partition()


def followed(problem: Problem, saved: dict[str, Any], depth: int | None = None) -> tuple[Algorithm, Items] | None:
    """(algorithm, items) of the cut a checkpoint's fingerprint names, where it is one the
    engine makes of this problem (the fingerprint, problem and numbering, is the one these items
    have), else None. A --depth given must be the checkpoint's."""
    from .. import planner

    algorithm = FOLLOWED.get(saved.get("split"))  # type: ignore[arg-type]
    cut = saved.get("depth")
    if algorithm is None or (depth is not None and cut != depth):
        return None
    rows = planner.specialised(problem) and problem.n <= planner.MAX_COMPILED_N and planner.jit_enabled()
    valid = {
        Algorithm.JOIN: planner.joined(problem),
        Algorithm.CONSTELLATIONS: planner.by_constellations(problem),
        Algorithm.COUNT_SPLIT: rows and not (problem.torus or problem.rule.knight) and type(cut) is int,
    }[algorithm]
    if not valid or (algorithm is Algorithm.COUNT_SPLIT and not 1 <= cut < problem.n):
        return None
    items = for_count(problem, algorithm, cut if algorithm is Algorithm.COUNT_SPLIT else None)
    return (algorithm, items) if items.fingerprint | {"items": items.size} == saved else None
