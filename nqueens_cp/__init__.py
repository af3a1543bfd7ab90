"""nqueens_cp: the n-queens family of puzzles, solved by a hand-written bitmask engine and
cross-checked against CP-SAT, python-constraint and SAT (CNF) models of the same Problem.

Names are loaded on first use (PEP 562), so `import nqueens_cp.entry` by the `nqueens` script
costs nothing before its signal handlers are in place.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a type checker sees; at run time each name loads on first use
    from .api import count, count_classes, count_symmetric, draw, first, solve, solve_n_queens, total_n_queens
    from .backends import (
        BACKENDS,
        Optimality,
        Outcome,
        Reason,
        Status,
        TimeLimitReached,
        Unknown,
        UnsupportedProblem,
        get_backend,
    )
    from .check.answers import check
    from .check.verify import Verdict, verify
    from .model.pieces import Piece
    from .model.problem import InvalidProblem, NQueensError, Problem, Rule, Solution

    __version__: str

_WHERE = {
    "check": "check.answers",
    "count": "api",
    "count_classes": "api",
    "count_symmetric": "api",
    "draw": "api",
    "first": "api",
    "solve": "api",
    "solve_n_queens": "api",
    "total_n_queens": "api",
    "Verdict": "check.verify",
    "verify": "check.verify",
    "BACKENDS": "backends",
    "Optimality": "backends",
    "Outcome": "backends",
    "Reason": "backends",
    "Status": "backends",
    "TimeLimitReached": "backends",
    "Unknown": "backends",
    "UnsupportedProblem": "backends",
    "get_backend": "backends",
    "InvalidProblem": "model.problem",
    "Piece": "model.pieces",
    "NQueensError": "model.problem",
    "Problem": "model.problem",
    "Rule": "model.problem",
    "Solution": "model.problem",
}

#: The API (the names of `_WHERE`, written out for the tools that read __all__).
__all__ = [
    "BACKENDS",
    "InvalidProblem",
    "NQueensError",
    "Optimality",
    "Outcome",
    "Piece",
    "Problem",
    "Reason",
    "Rule",
    "Solution",
    "Status",
    "TimeLimitReached",
    "Unknown",
    "UnsupportedProblem",
    "Verdict",
    "check",
    "count",
    "count_classes",
    "count_symmetric",
    "draw",
    "first",
    "get_backend",
    "solve",
    "solve_n_queens",
    "total_n_queens",
    "verify",
]


def __dir__() -> list[str]:
    """The API as well as what is loaded: names load on first use, so dir() would miss them."""
    return sorted({*globals(), *_WHERE})


def version_line() -> str:
    """`nqueens_cp 0.1.0`, from the installed package's metadata (`nqueens --version`)."""
    return f"nqueens_cp {__getattr__('__version__')}"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("nqueens_cp")
        except PackageNotFoundError:  # (run from a source tree that was never installed)
            return "unknown"
    if name not in _WHERE:
        raise AttributeError(f"module 'nqueens_cp' has no attribute {name!r}")
    value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value
