"""A user's script, type-checked strictly in `.ci/run` (mypy, pyproject's [tool.mypy]): each
function returns what the API is declared to give, so a name that reached a type checker as
Any (the package loads its names on first use) fails the check ("Returning Any")."""

from __future__ import annotations

from collections.abc import Iterator

import nqueens_cp as nq


def counted() -> int:
    return nq.count(nq.Problem(8, blocked=[(0, 0)]), "bitmask", time_limit=5.0)


def streamed() -> Iterator[nq.Solution]:
    return nq.solve(8, limit=3)


def found() -> nq.Solution | None:
    return nq.first(nq.Problem(6, "rook"))


def outcome() -> nq.Outcome:
    return nq.get_backend("bitmask").count(nq.Problem(6))


def agreed() -> bool:
    return nq.verify(6, ["bitmask", "cpsat"]).agree


def judged() -> int:
    return nq.check(8, "[0, 4, 7, 5, 2, 6, 1, 3]").distinct


def version() -> str:
    return nq.__version__
