"""The problem spec: board size, piece kind, blocked squares and pre-placed pieces.

This is the one module that knows what "attacks" means. Backends read the rule from here
(`Piece`), and `Problem.explain` checks any placement against it independently of every
backend, so a solution can always be validated without trusting the code that produced it.

Coordinates are 0-based (row, col); a solution is the tuple of the column in each row.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from numpy import bool_ as np_bool
from numpy import ndarray as np_ndarray

Square = tuple[int, int]
Solution = tuple[int, ...]

#: Largest board accepted. The limit keeps a typo (`10**12`) from allocating per-row masks
#: until memory runs out; the constructive placement for huge boards works far below it.
MAX_N = 10_000_000


class NQueensError(Exception):
    """Base of every error this package raises on purpose (the CLI prints these as one line)."""


class InvalidProblem(NQueensError, ValueError):
    """A Problem that cannot be built: the message names the offending value or square."""


class BoardSizeError(InvalidProblem):
    pass


class UnknownPiece(InvalidProblem):
    pass


class SquareOffBoard(InvalidProblem):
    pass


class FixedOnBlocked(InvalidProblem):
    pass


class FixedConflict(InvalidProblem):
    """Two pre-placed pieces share a row or column or attack each other."""


@dataclass(frozen=True)
class Piece:
    """A piece kind as the moves it attacks along. Every piece attacks its row and column
    (one piece per row is what makes a solution a tuple of columns); further kinds add a rule."""

    name: str
    diagonals: bool
    knight: bool = False

    def offsets(self, dr: int, n: int, torus: bool) -> frozenset[int]:
        """The column offsets dc = c' - c at which a piece attacks another `dr` rows away
        (dr != 0), besides its own column. On a torus, offsets count modulo n and the result
        holds every dc in -(n-1)..n-1 congruent to an attacking one."""
        diagonal = {dr, -dr} if self.diagonals else set()
        return self._on_board(diagonal, n, torus) | self.knight_offsets(dr, n, torus)

    def knight_offsets(self, dr: int, n: int, torus: bool) -> frozenset[int]:
        """The part of `offsets` that comes from knight moves."""
        if not self.knight:
            return frozenset()
        hits = set()
        for k in (1, 2):
            if (dr % n in (k % n, -k % n)) if torus else abs(dr) == k:
                hits |= {3 - k, k - 3}
        return self._on_board(hits, n, torus)

    @staticmethod
    def _on_board(hits: set[int], n: int, torus: bool) -> frozenset[int]:
        if torus:
            residues = {d % n for d in hits}
            return frozenset(d for d in range(-(n - 1), n) if d % n in residues and d % n != 0)
        return frozenset(d for d in hits if abs(d) < n)

    def attacks(self, a: Square, b: Square, n: int, torus: bool = False) -> bool:
        """Whether pieces on squares a and b of an n x n board attack each other (a != b)."""
        dr, dc = b[0] - a[0], b[1] - a[1]
        if dr == 0 or dc == 0:
            return True
        return dc in self.offsets(dr, n, torus)


PIECES: dict[str, Piece] = {
    "queen": Piece("queen", diagonals=True),
    "rook": Piece("rook", diagonals=False),
    "superqueen": Piece("superqueen", diagonals=True, knight=True),
}


def is_integer(v: object) -> bool:
    """An integer of any kind (numpy's too), but not a bool."""
    return isinstance(v, numbers.Integral) and not isinstance(v, bool | np_bool)


def _squares(kind: str, squares: Iterable[Sequence[int]]) -> tuple[Square, ...]:
    if isinstance(squares, str | bytes) or not isinstance(squares, Iterable):
        raise InvalidProblem(f"{kind} squares must be a list of (row, col) pairs, got {squares!r}")
    out = set()
    for sq in squares:
        try:
            r, c = sq
        except (TypeError, ValueError):
            raise InvalidProblem(f"{kind} square {sq!r} is not a (row, col) pair") from None
        if not all(is_integer(v) for v in (r, c)):
            raise InvalidProblem(f"{kind} square {sq!r} must have integer coordinates")
        out.add((int(r), int(c)))
    return tuple(sorted(out))


@dataclass(frozen=True)
class Problem:
    """One puzzle instance. Immutable and hashable; validated on construction.

    `blocked` squares may hold no piece; `fixed` squares hold a piece in every solution.
    On a `torus` the board wraps around: diagonals (and knight moves) continue across the edges.
    """

    n: int
    piece: str = "queen"
    blocked: tuple[Square, ...] = field(default=())
    fixed: tuple[Square, ...] = field(default=())
    torus: bool = False

    def __post_init__(self) -> None:
        n = self.n
        if not is_integer(n):
            raise BoardSizeError(f"board size must be an integer, got {n!r}")
        n = int(n)
        object.__setattr__(self, "n", n)
        if not 1 <= n <= MAX_N:
            raise BoardSizeError(f"board size {n} is out of range 1..{MAX_N}")
        if self.piece not in PIECES:
            raise UnknownPiece(f"unknown piece {self.piece!r} (known: {', '.join(PIECES)})")
        blocked = _squares("blocked", self.blocked)
        fixed = _squares("fixed", self.fixed)
        object.__setattr__(self, "blocked", blocked)
        object.__setattr__(self, "fixed", fixed)
        for kind, squares in (("blocked", blocked), ("fixed", fixed)):
            for r, c in squares:
                if not (0 <= r < n and 0 <= c < n):
                    raise SquareOffBoard(f"{kind} square ({r}, {c}) is off the {n}x{n} board")
        blocked_set = set(blocked)
        for sq in fixed:
            if sq in blocked_set:
                raise FixedOnBlocked(f"fixed square {sq} is also blocked")
        if not isinstance(self.torus, bool):
            raise InvalidProblem(f"torus must be True or False, got {self.torus!r}")
        for i, a in enumerate(fixed):
            for b in fixed[i + 1 :]:
                if self.attacks(a, b):
                    raise FixedConflict(f"fixed pieces on {a} and {b} attack each other")

    # -- derived views -------------------------------------------------------------------

    @property
    def rule(self) -> Piece:
        return PIECES[self.piece]

    @property
    def is_plain(self) -> bool:
        """No blocked or fixed squares: the classic puzzle."""
        return not self.blocked and not self.fixed

    def attacks(self, a: Square, b: Square) -> bool:
        return self.rule.attacks(a, b, self.n, self.torus)

    def offsets(self, dr: int) -> frozenset[int]:
        """Column offsets attacked `dr` rows away, besides the same column (see Piece.offsets)."""
        return self.rule.offsets(dr, self.n, self.torus)

    def allowed_columns(self, row: int) -> list[int]:
        """The columns a piece in `row` may use by the spec alone: the fixed column if the row
        has one, else every column that is not blocked. This is the domain the CP models use."""
        fixed = self._fixed_by_row.get(row)
        if fixed is not None:
            return [fixed]
        blocked = self._blocked_by_row.get(row, frozenset())
        return [c for c in range(self.n) if c not in blocked]

    @cached_property
    def row_masks(self) -> tuple[int, ...]:
        """Per row, a bitmask (bit c = column c) of the squares still usable once the fixed
        pieces are placed: blocked squares and squares a fixed piece attacks are removed, and a
        fixed piece's row is pinned. Search backends start from these."""
        full = (1 << self.n) - 1
        masks = []
        for r in range(self.n):
            fixed = self._fixed_by_row.get(r)
            if fixed is not None:
                masks.append(1 << fixed)
                continue
            m = full
            for c in self._blocked_by_row.get(r, ()):
                m &= ~(1 << c)
            for f in self.fixed:
                m &= ~(1 << f[1])
                for d in self.offsets(r - f[0]):
                    if 0 <= f[1] + d < self.n:
                        m &= ~(1 << (f[1] + d))
            masks.append(m)
        return tuple(masks)

    def is_mirror_symmetric(self) -> bool:
        """Whether reflecting columns (c -> n-1-c) maps the problem onto itself, so a search
        may count the left half of the first row twice."""
        n = self.n
        return all(sorted(n - 1 - c for c in self.allowed_columns(r)) == self.allowed_columns(r) for r in range(n))

    @cached_property
    def _fixed_by_row(self) -> dict[int, int]:
        return dict(self.fixed)

    @cached_property
    def _blocked_by_row(self) -> dict[int, frozenset[int]]:
        rows: dict[int, set[int]] = {}
        for r, c in self.blocked:
            rows.setdefault(r, set()).add(c)
        return {r: frozenset(cs) for r, cs in rows.items()}

    # -- validation of placements -------------------------------------------------------

    def explain(self, solution: Sequence[int]) -> str | None:
        """Why `solution` is not a valid placement for this problem, or None if it is.

        Written from the rules alone (O(n) with sets), independent of every backend."""
        n = self.n
        if isinstance(solution, str | bytes) or not isinstance(solution, Sequence | np_ndarray):
            raise InvalidProblem(f"a placement is a sequence of columns, one per row, got {solution!r}")
        if len(solution) != n:
            return f"has {len(solution)} rows, expected {n}"
        for r, c in enumerate(solution):
            if not is_integer(c) or not 0 <= c < n:
                return f"row {r} has column {c!r}, not in 0..{n - 1}"
        blocked = set(self.blocked)
        for sq in enumerate(solution):
            if sq in blocked:
                return f"uses blocked square {sq}"
        for r, c in self.fixed:
            if solution[r] != c:
                return f"misses fixed piece ({r}, {c})"
        cols: dict[int, int] = {}
        for r, c in enumerate(solution):
            if c in cols:
                return f"pieces ({cols[c]}, {c}) and ({r}, {c}) share a column"
            cols[c] = r
        # Diagonals: O(n) with one set per direction (residues mod n on a torus).
        if self.rule.diagonals:
            for kind, sign in (("a diagonal", -1), ("an anti-diagonal", 1)):
                seen: dict[int, int] = {}
                for r, c in enumerate(solution):
                    key = c + sign * r
                    if self.torus:
                        key %= n
                    if key in seen:
                        other = seen[key]
                        return f"pieces ({other}, {solution[other]}) and ({r}, {c}) share {kind}"
                    seen[key] = r
        # Knight moves reach at most two rows away (either way round, on a torus).
        if self.rule.knight:
            for r, c in enumerate(solution):
                for dr, dc in ((1, 2), (1, -2), (2, 1), (2, -1)):
                    r2, c2 = r + dr, c + dc
                    if self.torus:
                        r2, c2 = r2 % n, c2 % n
                    if 0 <= r2 < n and r2 != r and solution[r2] == c2 and 0 <= c2 < n:
                        return f"pieces ({r}, {c}) and ({r2}, {c2}) are a knight's move apart"
        return None

    def is_solution(self, solution: Sequence[int]) -> bool:
        return self.explain(solution) is None

    def with_fixed(self, squares: Iterable[Square]) -> Problem:
        """This problem with more pre-placed pieces (raises InvalidProblem on a conflict)."""
        return replace(self, fixed=(*self.fixed, *squares))


def as_problem(problem: Problem | int) -> Problem:
    """Accept a plain int wherever a Problem is taken: `n` means the classic n-queens."""
    if isinstance(problem, Problem):
        return problem
    return Problem(problem)


def board_rows(solution: Sequence[int]) -> list[str]:
    """LeetCode-style drawing: one string per row, 'Q' for the piece and '.' elsewhere."""
    n = len(solution)
    return ["." * c + "Q" + "." * (n - 1 - c) for c in solution]
