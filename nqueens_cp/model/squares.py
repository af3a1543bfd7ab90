"""The problem as 0/1 variables, one a usable square: the squares formulation, built once here as
plain data that each CP backend translates (CP-SAT's at-most-one, CNF cardinality encodings,
MiniZinc and ASP facts, CPMpy sums).

The permutation formulation (a column variable a row, AllDifferent on q, q+i, q-i) holds only
while every row holds one piece and nothing cuts a line; this one states the rules as they are
written: a piece on a square is a 1, at most one piece on each line (each segment of it, once
something cuts lines), no two on squares a leap apart, exactly one in each row, and as many
pieces as rows. It serves every one-piece-a-row problem today, and problems that the
permutation cannot state: walls, which cut a line into segments, each holding at most one;
pieces anywhere (`Problem.pieces`), where a row is a line like the others and the pieces are K
in all; and pawns the search places, a second 0/1 variable a square: two pieces on one segment
then need a pawn on a square between them (`separated`), both ways round a torus's cycle.
Lines pass blocked squares (they hold no variable); a square a pre-placed piece stands on is
forced to 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .pieces import images
from .problem import Problem, Rule, Square

#: The rules the squares formulation adds to the placement puzzle's (region maps, walls, pieces
#: anywhere, pawns): a backend that compiles it declares them, and a problem with one of them
#: takes it (the backends' formulation, the DIMACS export's numbering and `check`'s reading).
SQUARES_RULES: frozenset[Rule] = frozenset({Rule.REGIONS, Rule.WALLS, Rule.ANYWHERE, Rule.PAWNS})


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
    #: The pawns the search places: pawn variable k stands on square `pawn_at[k]` (a variable
    #: of `squares`, which then holds no piece), and `pawns` of them are 1.
    pawn_at: tuple[int, ...] = ()
    pawns: int = 0
    #: (a, b, between): pieces on squares a and b attack unless a pawn stands on one of the
    #: pawn variables `between` (never empty: two squares with none between are `apart`).
    separated: tuple[tuple[int, int, tuple[int, ...]], ...] = ()

    def solution(self, problem: Problem, ones: Iterable[int], pawns: Iterable[int] = ()) -> tuple[int, ...]:
        """The solution whose pieces stand on the variables `ones` (and pawns on the pawn
        variables `pawns`): the column in each row, or the layout (`Problem.encode`)."""
        return problem.encode([self.squares[i] for i in ones], [self.squares[self.pawn_at[k]] for k in pawns])


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


def _segments(problem: Problem, line: list[Square], cycle: bool) -> list[tuple[list[Square], bool]]:
    """The pieces of `line` between walls, each (its squares, whether it is a whole cycle): a
    cycle with a wall is cut open at its walls."""
    walls = set(problem.walls)
    cuts = [i for i, sq in enumerate(line) if sq in walls]
    if not cuts:
        return [(line, cycle)]
    if cycle:  # start at a wall: the cycle is then a line from wall to wall
        line = line[cuts[0] :] + line[: cuts[0]]
    out: list[tuple[list[Square], bool]] = [([], False)]
    for sq in line:
        if sq in walls:
            out.append(([], False))
        else:
            out[-1][0].append(sq)
    return [seg for seg in out if seg[0]]


def squares_model(problem: Problem) -> SquaresModel:
    """The squares formulation of `problem` (see the module)."""
    m, n = problem.rows, problem.n
    closed = set(problem.blocked) | set(problem.walls)
    squares = tuple((r, c) for r in range(m) for c in range(n) if (r, c) not in closed)
    index = {sq: i for i, sq in enumerate(squares)}
    rows = tuple(tuple(index[(r, c)] for c in range(n) if (r, c) in index) for r in range(m))
    fixed_squares = set(problem.fixed)
    pawn_at = tuple(i for i, sq in enumerate(squares) if sq not in fixed_squares) if problem.pawns else ()
    pawn_of = {squares[i]: k for k, i in enumerate(pawn_at)}
    groups: set[tuple[int, ...]] = set()
    apart: set[tuple[int, int]] = set()
    separated: list[tuple[int, int, tuple[int, ...]]] = []
    for step in _line_steps(problem):
        for whole in _lines(problem, step):
            cycle = problem.torus and len(whole) > 1 and _wraps(problem, whole, step)
            for seg, round_ in _segments(problem, whole, cycle):
                if not problem.pawns:
                    group = tuple(sorted({index[sq] for sq in seg if sq in index}))
                    if len(group) > 1:
                        groups.add(group)
                    continue
                _separate(seg, round_, index, pawn_of, apart, separated)
    leaps = {image for move in problem.rule.leapers for image in images(move)}
    for (r, c), one in index.items():
        for a, b in leaps:
            there = ((r + a) % m, (c + b) % n) if problem.torus else (r + a, c + b)
            two = index.get(there)
            if two is not None and one != two:
                apart.add((min(one, two), max(one, two)))
    fixed = tuple(index[sq] for sq in problem.fixed if sq in index)
    if problem.anywhere:
        rows = ()
        if len(fixed) < len(problem.fixed):  # a piece pre-placed on a blocked square: no solution
            rows = ((),)
    elif len(fixed) < len(problem.fixed):
        rows = (*rows, ())
    by_label: dict[str, list[int]] = {}
    for r, row in enumerate(problem.regions):
        for c, label in enumerate(row):
            by_label.setdefault(label, [])
            if (r, c) in index:
                by_label[label].append(index[(r, c)])
    regions = tuple(tuple(group) for _, group in sorted(by_label.items()))
    return SquaresModel(
        squares,
        rows,
        tuple(sorted(groups)),
        tuple(sorted(apart)),
        fixed,
        problem.pieces or m,
        regions,
        pawn_at,
        problem.pawns,
        tuple(separated),
    )


def _line_steps(problem: Problem) -> list[tuple[int, int]]:
    """The lines' directions, each line once: the riders' images and the one-way lines with
    a > 0, or a = 0 and b > 0 (along rows: only where pieces stand anywhere, the rows of the
    placement being its exactly-one groups); with one piece a row, columns whatever the piece."""
    out = {image for move in problem.rule.riders for image in images(move)}
    out |= {d for dr, dc in problem.rule.lines for d in ((dr, dc), (-dr, -dc))}
    ahead = {(a, b) for a, b in out if a > 0 or (a == 0 and b > 0)}
    if not problem.anywhere:
        ahead = {(a, b) for a, b in ahead if a > 0} | {(1, 0)}
    return sorted(ahead)


def _wraps(problem: Problem, line: list[Square], step: tuple[int, int]) -> bool:
    """Whether a torus's line is a cycle: its last square steps back onto its first."""
    r, c = line[-1]
    return ((r + step[0]) % problem.rows, (c + step[1]) % problem.n) == line[0]


def _separate(
    seg: list[Square],
    cycle: bool,
    index: dict[Square, int],
    pawn_of: dict[Square, int],
    apart: set[tuple[int, int]],
    separated: list[tuple[int, int, tuple[int, ...]]],
) -> None:
    """The pairs of one segment when pawns may cut it: two pieces need a pawn between them (on
    a cycle, on each of the two arcs); where no square between can hold one, they are apart."""
    var = [index.get(sq) for sq in seg]
    pawn = [pawn_of.get(sq) for sq in seg]
    size = len(seg)
    for i in range(size):
        for j in range(i + 1, size):
            a, b = var[i], var[j]
            if a is None or b is None:
                continue
            arcs = [range(i + 1, j)] + ([[*range(j + 1, size), *range(0, i)]] if cycle else [])
            for arc in arcs:
                between = tuple(k for k in (pawn[t] for t in arc) if k is not None)
                if between:
                    separated.append((a, b, between))
                else:
                    apart.add((min(a, b), max(a, b)))


def optimum_model(problem: Problem, cover: bool) -> tuple[SquaresModel, list[list[int]]]:
    """What every CP backend states for the most pieces or the fewest that cover, as plain
    data: the squares model of the board with pieces anywhere (its variables the free squares;
    its `at_most_one` lines and `apart` leaps keep no two attacking, where that is asked; its
    `fixed` the pre-placed pieces), and with `cover`, for each square to cover, the variables
    that cover it: itself and the squares that attack it (lines stop at walls)."""
    from dataclasses import replace

    anywhere = replace(problem, pieces=max(1, len(problem.fixed)), pawns=0)
    sm = squares_model(anywhere)
    covered: list[list[int]] = []
    if cover:
        index = {sq: i for i, sq in enumerate(sm.squares)}
        reach = {sq: anywhere._reach(sq) for sq in sm.squares}
        covered = [[index[sq], *(index[t] for t in sm.squares if sq in reach[t])] for sq in sm.squares]
    return sm, covered
