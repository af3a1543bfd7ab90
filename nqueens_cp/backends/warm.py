"""Boards to warm a backend on before a run is timed: its kernels loaded, its libraries
imported, so that the time measured is the run's own. `compare` warms each kind of run in its
workers, `verify` each backend before its enumeration."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..model.fields import SQUARE_FIELDS
from ..model.problem import Problem
from .base import Backend, BackendError

#: Warm-up boards start at this size: large enough to reach the compiled paths...
WARM_N = 8
#: ...and grow up to this one where the run's plan takes another algorithm (counts of n >= 13
#: go by constellations, whose kernels a board of 8 never loads: the first such count in a
#: worker took 0.83 s against 0.013 s later, and the fastest engine looked the slowest).
WARM_MAX_N = 13


def shrunk(p: Problem, k: int) -> Problem:
    """A board of k columns of `p`'s kind (p itself when it is no larger)."""
    if p.n <= k:
        return p
    rows = k if p.square else k - 1  # a rectangle runs the generic search: warm that one
    # each set of squares the problem has (`fields.SQUARE_FIELDS`) keeps one, a square of its own
    # where the board has room: the kernels of a board with that kind of square run
    squares: dict[str, list[tuple[int, int]]] = {}
    taken: set[tuple[int, int]] = set()
    for i, f in enumerate(SQUARE_FIELDS):
        sq = (i % rows, (2 * i + 3) % k)
        keep = bool(getattr(p, f.name)) and sq not in taken
        squares[f.name] = [sq] if keep else []
        taken |= {sq} if keep else set()
    return replace(p, n=k, rows=rows, **squares)


def algorithm(b: Backend, p: Problem, task: str) -> str | None:
    try:
        return b.plan(p, task).algorithm
    except BackendError:
        return None


def board_of_plan(b: Backend, p: Problem, task: str, wanted: str | None, sizes: Iterable[int]) -> Problem | None:
    """The first board of `p`'s kind, of one of `sizes` columns, whose plan takes `wanted`."""
    return next((small for k in sizes if algorithm(b, small := shrunk(p, k), task) == wanted), None)


def warm_board(b: Backend, p: Problem, task: str, wanted: str | None) -> Problem:
    """A small board of `p`'s kind whose plan takes the run's own algorithm (`wanted`) where
    one up to WARM_MAX_N columns does, so that the run finds its kernels loaded."""
    return board_of_plan(b, p, task, wanted, range(WARM_N, WARM_MAX_N + 1)) or shrunk(p, WARM_N)
