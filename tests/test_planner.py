"""The engine's planner as one table: (problem, task, options) -> (algorithm, workers, memory,
what the reason says), a case or more for every row of the planner's table in docs/backends.md,
and that table's rows all covered. The planner is the most branched function of the project;
its cases were spread over six test files."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.frontier import peak_bytes
from nqueens_cp.backends.bitmask.partitions.join import memory as join_memory
from nqueens_cp.run.parallel import default_workers

DOC = Path(__file__).resolve().parents[1] / "docs" / "backends.md"

#: Workers the plan takes by default for a large count: every core.
ALL = "all"


@dataclass(frozen=True)
class Case:
    row: str  # the start of the board cell of the docs' row it stands for
    problem: Problem
    task: str
    algorithm: str
    workers: int | str = 1
    says: str = ""  # a piece of the plan's reason
    options: dict[str, Any] = field(default_factory=dict)


def _corners(n: int, k: int) -> list[tuple[int, int]]:
    """k x k blocked squares in each corner: over half of a small board unusable."""
    ends = (range(k), range(n - k, n))
    return [(r, c) for rows in ends for r in rows for cols in ends for c in cols]


MiB = 1 << 20

CASES = [
    # first
    Case("plain, with a closed form", Problem(8), "first", "construct", says="closed form"),
    Case("plain, with a closed form", Problem(3), "first", "construct"),  # no solution, by theorem
    Case("plain, with a closed form", Problem(11, torus=True), "first", "construct"),
    Case("plain, with a closed form", Problem(12, "rook"), "first", "construct"),
    Case("blocked or pre-placed squares", Problem(8, blocked=[(0, 0)]), "first", "mrv", says="most constrained"),
    Case("blocked or pre-placed squares", Problem(8, "rook", fixed=[(3, 3)]), "first", "mrv"),
    Case("other variants, or", Problem(8), "first", "rows", options={"lexicographic": True}),
    Case("other variants, or", Problem(10, "superqueen"), "first", "rows"),
    # count
    Case("queens or rooks, n <= 12", Problem(12), "count", "rows-numpy", says="n <= 12"),
    Case("queens or rooks, n <= 12", Problem(12, rows=6, blocked=[(0, 0)]), "count", "rows-numpy"),
    Case("queens or rooks, n <= 12", Problem(9, "rook", fixed=[(2, 2)]), "count", "rows-numpy"),
    Case("other queen-like pieces", Problem(9, "superqueen"), "count", "rows-python", says="n <= 10"),
    Case("a plain torus", Problem(13, torus=True), "count", "any-piece", ALL, "wrapped lines"),
    Case("a plain torus", Problem(13, "RN", torus=True), "count", "any-piece", ALL),
    Case("queens on a plain square board", Problem(16), "count", "join", ALL, "half-boards joined"),
    Case("queens on a plain square board", Problem(20), "count", "join", ALL),
    Case("queens on a plain m x n board", Problem(20, rows=19), "count", "join", ALL, "bottom rows' placements"),
    Case("queens on a plain m x n board", Problem(18, rows=16), "count", "join", ALL),
    Case(
        "plain square board, all 8",
        Problem(16),
        "count",
        "constellations",
        ALL,
        "over the memory budget",
        {"memory": 64 * MiB},
    ),
    Case("plain square board, all 8", Problem(27), "count", "constellations", ALL, "all 8 symmetries"),
    Case("plain square board, all 8", Problem(12, "superqueen"), "count", "constellations", 1),
    Case("plain square board, all 8", Problem(13), "unique", "constellations", ALL),
    Case("plain square board, all 8", Problem(13, torus=True), "unique", "constellations", ALL),
    Case("any other plain board", Problem(12, "RN"), "count", "constellations", 1, "classes of ring pieces"),
    Case("any other plain board", Problem(13, rows=6), "count", "constellations", ALL),
    Case("any other plain board", Problem(18, rows=15), "count", "constellations", ALL),  # the join measured slower
    Case("more than half the board", Problem(13, blocked=_corners(13, 5)), "count", "mrv", says="over half"),
    Case("blocked or fixed squares with", Problem(12, "superqueen", blocked=[(0, 0)]), "count", "any-piece"),
    Case("other queen or rook boards", Problem(13, blocked=[(0, 0)]), "count", "count-split", ALL),
    Case("other queen or rook boards", Problem(13, "rook", fixed=[(2, 2)]), "count", "count-split", ALL),
    # solve, and other pieces
    Case("any", Problem(8), "solve", "rows", says="lexicographic"),
    Case("other pieces, or rectangular", Problem(8, "RN"), "first", "any-piece", says="generic"),
    Case("other pieces, or rectangular", Problem(8, "RN"), "count", "any-piece"),
    Case("other pieces, or rectangular", Problem(8, rows=5), "solve", "any-piece"),
]


def _workers(case: Case) -> int:
    return default_workers() if case.workers == ALL else int(case.workers)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.task}-{c.algorithm}-{c.problem.n}" for c in CASES])
def test_the_plan_of_each_case(case):
    plan = nq.get_backend("bitmask", **case.options).plan(case.problem, case.task)
    assert (plan.algorithm, plan.workers) == (case.algorithm, _workers(case)), plan
    assert case.says in plan.reason, plan.reason
    if plan.algorithm == "join":  # its memory declared, per worker, and kept to the budget
        assert plan.memory == join_memory(case.problem.n, case.problem.rows) * plan.workers
    elif plan.algorithm == "rows-numpy":  # its arrays' size, declared before they are made
        assert plan.memory == peak_bytes(case.problem)
    else:
        assert plan.memory is None


def test_the_join_keeps_to_the_budget_with_fewer_workers():
    need = join_memory(18)
    plan = nq.get_backend("bitmask", workers=2, memory=need + need // 2).plan(Problem(18), "count")
    assert (plan.algorithm, plan.workers, plan.memory) == ("join", 1, need)
    assert "1 of 2 workers under the memory budget" in plan.reason


def _doc_rows() -> list[tuple[str, str, str]]:
    """(task, board, algorithm) of each row of the planner's table in docs/backends.md."""
    rows = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] in {"first", "count", "solve", "any", "count, unique"}:
            algorithm = re.match(r"`([a-z-]+)`", cells[2])
            assert algorithm, line
            rows.append((cells[0], cells[1], algorithm[1]))
    return rows


def _of_row(case: Case, task: str, board: str) -> bool:
    return board.startswith(case.row) and (task == "any" or case.task in task.split(", "))


def test_every_row_of_the_documented_table_has_a_case_and_every_case_a_row():
    rows = _doc_rows()
    assert len(rows) >= 12  # the table itself was found
    for task, board, algorithm in rows:
        mine = [c for c in CASES if _of_row(c, task, board)]
        assert mine, f"no case for the row: {task} | {board[:50]} | {algorithm}"
        assert all(c.algorithm == algorithm for c in mine), (task, board[:50], mine)
    for case in CASES:
        assert any(_of_row(case, task, board) for task, board, _ in rows), f"{case.row!r} names no row of the table"
