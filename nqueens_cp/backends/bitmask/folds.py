"""The symmetries a count folds, read from the problem alone: the planner asks them before any
table (or numpy) is loaded, and the tables fold the first rows by them."""

from __future__ import annotations

from ...model.problem import Problem


def translated(problem: Problem) -> bool:
    """A plain torus: moving every piece one column over maps solutions onto solutions (see
    `tables.first_rows`), an n-fold symmetry beside the 8 of the square."""
    return problem.torus and problem.is_plain


def mirrored(problem: Problem) -> bool:
    """Whether reflecting the columns maps the problem (piece, blocked and fixed squares) onto
    itself, so that a count may search half of the first row."""
    from ...model.symmetry import problem_symmetries

    return "flip-cols" in problem_symmetries(problem)
