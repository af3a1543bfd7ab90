"""The problem as 0/1 variables, one a usable square: the squares formulation, built once here as
plain data that each CP backend translates (CP-SAT's at-most-one, CNF cardinality encodings,
MiniZinc and ASP facts, CPMpy sums).

The permutation formulation (a column variable a row, AllDifferent on q, q+i, q-i) holds only
while every row holds one piece and nothing cuts a line; this one states the rules as they are
written: a piece on a square is a 1, at most one piece on each line (each segment of it, once
something cuts lines), no two on squares a leap apart, exactly one in each row, and as many
pieces as rows. It serves every one-piece-a-row problem today, and problems that the
permutation cannot state (pieces anywhere, walls) once they exist. Lines pass blocked squares
(they hold no variable); a square a pre-placed piece stands on is forced to 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from .pieces import slide_directions
from .problem import Problem, Square


@dataclass(frozen=True)
class SquaresModel:
    """`squares[i]` is variable i. Each group lists variables: `exactly_one` a row's, each of
    `at_most_one` a line's (a column, a diagonal, a rider's line; on a torus the whole cycle),
    each of `apart` two squares a leap apart (not both). `fixed` are the variables that are 1,
    `pieces` how many are 1 in all, and each of `regions` holds exactly one."""

    squares: tuple[Square, ...]
    exactly_one: tuple[tuple[int, ...], ...]
    at_most_one: tuple[tuple[int, ...], ...]
    apart: tuple[tuple[int, int], ...]
    fixed: tuple[int, ...]
    pieces: int
    #: Each region's variables, where the board has a region map: exactly one piece in each.
    regions: tuple[tuple[int, ...], ...] = ()

    def solution(self, ones: set[int] | list[int]) -> tuple[int, ...]:
        """The placement whose squares are the variables `ones`: the column in each row."""
        rows = sorted(self.squares[i] for i in ones)
        return tuple(c for _, c in rows)


def _lines(problem: Problem, step: tuple[int, int]) -> list[list[Square]]:
    """Every line of the board along `step` (a rider's move, a > 0, or (1, 0) for a column),
    each square in one line: from the squares with no square before them; on a torus the
    cycles the step makes, rows and columns wrapping."""
    m, n = problem.rows, problem.n
    a, b = step
    seen: set[Square] = set()
    out: list[list[Square]] = []
    for r in range(m):
        for c in range(n):
            if (r, c) in seen:
                continue
            if not problem.torus and 0 <= r - a < m and 0 <= c - b < n:
                continue  # not the start of its line
            line = []
            sq = (r, c)
            while sq not in seen and (problem.torus or (0 <= sq[0] < m and 0 <= sq[1] < n)):
                seen.add(sq)
                line.append(sq)
                sq = ((sq[0] + a) % m, (sq[1] + b) % n) if problem.torus else (sq[0] + a, sq[1] + b)
            out.append(line)
    return out


def squares_model(problem: Problem) -> SquaresModel:
    """The squares formulation of `problem` (see the module)."""
    m, n = problem.rows, problem.n
    blocked = set(problem.blocked)
    squares = tuple((r, c) for r in range(m) for c in range(n) if (r, c) not in blocked)
    index = {sq: i for i, sq in enumerate(squares)}
    rows = tuple(tuple(index[(r, c)] for c in range(n) if (r, c) in index) for r in range(m))
    groups: set[tuple[int, ...]] = set()
    for step in [(1, 0), *slide_directions(problem.rule)]:
        for line in _lines(problem, step):
            group = tuple(sorted({index[sq] for sq in line if sq in index}))
            if len(group) > 1:
                groups.add(group)
    apart: set[tuple[int, int]] = set()
    for r in range(m):
        for dr in range(1, m - r if not problem.torus else m):
            r2 = r + dr
            if r2 >= m and not problem.torus:
                break
            for dc in problem.rule.leap_offsets(dr, n, problem.torus, m):
                for c in range(n):
                    c2 = c + dc
                    if problem.torus:
                        c2 %= n
                    elif not 0 <= c2 < n:
                        continue
                    one, two = index.get((r, c)), index.get((r2 % m, c2))
                    if one is not None and two is not None and one != two:
                        apart.add((min(one, two), max(one, two)))
    fixed = tuple(index[sq] for sq in problem.fixed if sq in index)
    if len(fixed) < len(problem.fixed):  # a piece pre-placed on a blocked square: no solution
        rows = (*rows, ())
    by_label: dict[str, list[int]] = {}
    for r, row in enumerate(problem.regions):
        for c, label in enumerate(row):
            by_label.setdefault(label, [])
            if (r, c) in index:
                by_label[label].append(index[(r, c)])
    regions = tuple(tuple(group) for _, group in sorted(by_label.items()))
    return SquaresModel(squares, rows, tuple(sorted(groups)), tuple(sorted(apart)), fixed, m, regions)
