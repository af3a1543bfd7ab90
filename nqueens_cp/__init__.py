"""nqueens_cp: the n-queens family of puzzles, solved by a hand-written bitmask backtracker
and cross-checked against CP-SAT and python-constraint models of the same Problem."""

from .api import count, first, solve, solve_n_queens, total_n_queens
from .backends import BACKENDS, Outcome, Status, TimeLimitReached, UnsupportedProblem, get_backend
from .problem import InvalidProblem, NQueensError, Problem, Solution

__all__ = [
    "BACKENDS",
    "InvalidProblem",
    "NQueensError",
    "Outcome",
    "Problem",
    "Solution",
    "Status",
    "TimeLimitReached",
    "UnsupportedProblem",
    "count",
    "first",
    "get_backend",
    "solve",
    "solve_n_queens",
    "total_n_queens",
]
