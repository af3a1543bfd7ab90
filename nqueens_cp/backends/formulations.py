"""The two formulations the CP backends compile, as one option and one way of declaring it: the
permutation (a column a row, AllDifferent on lines), the default for one piece a row, and the
squares (a 0/1 variable a square, built once in `model/squares.py`), which states what a
permutation cannot (a region map). A backend that compiles both declares `formulated(...)`."""

from __future__ import annotations

from typing import Any

from ..model.problem import Problem
from ..model.squares import SQUARES_RULES
from .base import PLACEMENT_RULES, PLACEMENT_TASKS, TIME_LIMIT, Capabilities, Option, Task, UnsupportedProblem

#: The two formulations a CP backend compiles (`model/squares.py`): the permutation (a column a
#: row, AllDifferent on lines), the default for one piece a row, and the squares (a 0/1
#: variable a square, at most one piece a line).
FORMULATIONS = ("permutation", "squares")


def _formulation(text: str) -> str:
    if text not in FORMULATIONS:
        raise ValueError(f"--formulation must be one of {', '.join(FORMULATIONS)}, got {text!r}")
    return text


FORMULATION = Option(
    "formulation",
    str,
    "The model: permutation (a column a row, AllDifferent; the default) or squares (a 0/1 variable a square).",
    flag="--formulation",
    metavar="NAME",
    parse=_formulation,
)



def formulation_of(settings: dict[str, Any], problem: Problem) -> str:
    """The formulation a backend's options name (the permutation where none is named); an
    unknown one is refused, from the library as from the command line. A problem that needs a
    rule only the squares state (`SQUARES_RULES`: a region map, walls, pieces anywhere, pawns)
    takes the squares, and refuses the permutation named for it."""
    named = settings.get("formulation")
    beyond = problem.rules & SQUARES_RULES
    if beyond:
        if named == "permutation":
            said = " or ".join(sorted(rule.value for rule in beyond))
            raise UnsupportedProblem(f"the permutation formulation has no {said}: --formulation squares states them")
        return "squares"
    return _formulation(str(named or "permutation"))


def formulated(*options: Option, tasks: frozenset[Task] = frozenset(), **more: Any) -> Capabilities:
    """The capabilities of a CP backend that compiles both formulations (`model/squares.py`):
    the placement puzzle's tasks and `tasks` (the optimisations it answers), its rules and the
    squares formulation's, a time limit and `--formulation` beside the backend's own `options`,
    and `more` (its largest board, its exports, its sub-solver's option)."""
    return Capabilities(
        options=(TIME_LIMIT, *options, FORMULATION),
        tasks=PLACEMENT_TASKS | tasks,
        rules=PLACEMENT_RULES | SQUARES_RULES,
        **more,
    )
