"""The problem spec: board shape, piece kind, blocked squares and pre-placed pieces.

This is the one module that knows what "attacks" means. Backends read the rule from here
(`Piece`), and `Problem.explain` checks any placement against it independently of every
backend, so a solution can always be validated without trusting the code that produced it.

Coordinates are 0-based (row, col); a solution is the tuple of the column in each row. A board
has n columns and `rows` rows (n unless given): one piece per row, in distinct columns.

With `pieces` K > 0 the pieces stand anywhere (no one-a-row rule) and a solution is a layout:
the K pieces' squares, then the `pawns`' squares, each as its index r*n + c, each part in
ascending order (`Problem.layout` reads one, `Problem.encode` writes one). A tuple of ints of
one length a problem, it is held in sets, arrays and streams as a placement is.
"""

from __future__ import annotations

import numbers
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from itertools import pairwise
from math import gcd
from typing import TYPE_CHECKING, Any

from .pieces import Piece, PieceError, images, piece_of, slide_directions

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


class Rule(StrEnum):
    """A rule of the puzzle beyond riders on a plain square board: what a backend must model to
    solve a problem that needs it (`Problem.rules`; a backend declares those it models in its
    capabilities, and the base class refuses the others in one line). A new rule can so ship
    one backend at a time. Each value says what the rule is, as a refusal names it."""

    TORUS = "a board that wraps around (--torus)"
    RECTANGLE = "a rectangular board (--rows)"
    LEAPS = "leaping moves (a knight's, say)"
    ONE_WAY = "one-way lines"
    BLOCKED = "blocked squares"
    FIXED = "pre-placed pieces"
    REGIONS = "regions (exactly one piece in each)"
    WALLS = "walls that stop lines (--wall)"
    ANYWHERE = "pieces anywhere (--pieces)"
    PAWNS = "pawns placed by the search (--pawns)"


#: The pieces known by name (any other is written in Betza's notation: see `pieces`).
PIECES = ("queen", "rook", "superqueen")


if TYPE_CHECKING:
    from numpy import ndarray as np_ndarray


def _numpy(name: str) -> tuple[type, ...]:
    """numpy's type `name` where numpy is loaded, else none (a value cannot be one then): the
    model is read by commands that never load numpy (`nqueens --help`)."""
    np = sys.modules.get("numpy")
    return () if np is None else (getattr(np, name),)


def is_integer(v: object) -> bool:
    """An integer of any kind (numpy's too), but not a bool."""
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, *_numpy("bool_")))


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


def _regions(regions: object, m: int, n: int) -> tuple[str, ...]:
    """The region map as a tuple of m strings of n labels each, or () for none."""
    if isinstance(regions, str) or not isinstance(regions, Iterable):
        raise InvalidProblem(f"regions must be a list of {m} strings, one a row, got {regions!r}"[:200])
    rows = tuple(regions)
    if not rows:
        return ()
    if not all(isinstance(row, str) for row in rows):
        raise InvalidProblem("regions must be strings, one a row: each character labels a square")
    if len(rows) != m:
        raise InvalidProblem(f"regions has {len(rows)} rows; the board has {m}")
    for r, row in enumerate(rows):
        if len(row) != n:
            raise InvalidProblem(f"regions row {r} has {len(row)} labels; the board has {n} columns")
        if any(ch.isspace() for ch in row):
            raise InvalidProblem(f"regions row {r} holds a space: a label is a character that shows")
    return rows


@dataclass(frozen=True)
class Problem:
    """One puzzle instance. Immutable and hashable; validated on construction.

    `blocked` squares may hold no piece; `fixed` squares hold a piece in every solution.
    On a `torus` the board wraps around: diagonals (and knight moves) continue across the edges.
    `rows` (at most n; n when not given) makes the board rectangular: `rows` pieces on a board
    of `rows` x n squares.
    """

    n: int
    #: The piece: a name, Betza's notation or a `Piece`; kept as its canonical text.
    piece: str = "queen"
    _: KW_ONLY  # the rest by keyword (`Problem(8, "rook", blocked=[...])`)
    blocked: tuple[Square, ...] = field(default=())
    fixed: tuple[Square, ...] = field(default=())
    torus: bool = False
    rows: int = None  # type: ignore[assignment]  # None means n; always an int once built
    #: The region map: a string a row, a label (one character) a square; exactly one piece in
    #: each region (the daily "Queens" puzzle). Empty: no regions.
    regions: tuple[str, ...] = ()
    #: Squares that hold no piece and stop every line that reaches them (leaps pass over).
    walls: tuple[Square, ...] = field(default=())
    #: Pieces placed on any free squares; 0: exactly one in each row (the classic puzzle).
    pieces: int = 0
    #: Pawns the search places with the pieces (walls of its own); needs `pieces`.
    pawns: int = 0
    _rule: Piece = field(init=False, repr=False, compare=False)

    if TYPE_CHECKING:  # what the generated __init__ takes: the fields as given, before they are built

        def __init__(
            self,
            n: int,
            piece: str | Piece = "queen",
            *,
            blocked: Iterable[Sequence[int]] = (),
            fixed: Iterable[Sequence[int]] = (),
            torus: bool = False,
            rows: int | None = None,
            regions: Sequence[str] = (),
            walls: Iterable[Sequence[int]] = (),
            pieces: int = 0,
            pawns: int = 0,
        ) -> None: ...

    def __post_init__(self) -> None:
        n = self.n
        if not is_integer(n):
            raise BoardSizeError(f"board size must be an integer, got {n!r}")
        n = int(n)
        object.__setattr__(self, "n", n)
        if not 1 <= n <= MAX_N:
            raise BoardSizeError(f"board size {n} is out of range 1..{MAX_N}")
        m = n if self.rows is None else self.rows
        if not is_integer(m):
            raise BoardSizeError(f"rows must be an integer, got {m!r}")
        m = int(m)
        if not 1 <= m <= n:
            raise BoardSizeError(f"rows {m} is out of range 1..{n} (one piece per row, in distinct columns)")
        object.__setattr__(self, "rows", m)
        try:
            rule = piece_of(self.piece)
        except PieceError as exc:
            raise UnknownPiece(str(exc)) from None
        object.__setattr__(self, "_rule", rule)
        object.__setattr__(self, "piece", rule.text)
        blocked = _squares("blocked", self.blocked)
        fixed = _squares("fixed", self.fixed)
        walls = _squares("walls", self.walls)
        object.__setattr__(self, "blocked", blocked)
        object.__setattr__(self, "fixed", fixed)
        object.__setattr__(self, "walls", walls)
        for kind, squares in (("blocked", blocked), ("fixed", fixed), ("wall", walls)):
            for r, c in squares:
                if not (0 <= r < m and 0 <= c < n):
                    raise SquareOffBoard(f"{kind} square ({r}, {c}) is off the {m}x{n} board")
        for kind, squares in (("a pre-placed piece", fixed), ("a blocked square", blocked)):
            both = sorted(set(walls) & set(squares))
            if both:
                raise InvalidProblem(f"wall square {both[0]} is also {kind}: a square holds one of them")
        if not isinstance(self.torus, bool):
            raise InvalidProblem(f"torus must be True or False, got {self.torus!r}")
        object.__setattr__(self, "regions", _regions(self.regions, m, n))
        self._check_counts(m * n - len(set(blocked) | set(walls)), len(fixed))

    def _check_counts(self, free: int, fixed: int) -> None:
        """`pieces` and `pawns`: whole numbers that the free squares can hold, pawns beside
        pieces placed anywhere."""
        for name in ("pieces", "pawns"):
            value = getattr(self, name)
            if not is_integer(value) or value < 0:
                raise InvalidProblem(f"{name} must be a whole number of at least 0, got {value!r}")
            object.__setattr__(self, name, int(value))
        k, pawns = self.pieces, self.pawns
        if pawns and not k:
            raise InvalidProblem(
                "pawns are placed with pieces anywhere: give pieces too (9 queens, 1 pawn on 8x8: --pieces 9 --pawns 1)"
            )
        if k > free:
            raise InvalidProblem(f"pieces {k} is more than the {free} free squares can hold")
        if k and k < fixed:
            raise InvalidProblem(f"pieces {k} is fewer than the {fixed} pre-placed (they count among them)")
        if k + pawns > free:
            raise InvalidProblem(f"pawns {pawns} do not fit beside {k} pieces on the {free} free squares")

    @cached_property
    def contradiction(self) -> str | None:
        """Why no placement can satisfy the pre-placed pieces, by the rules alone: one stands on
        a blocked square, or two attack each other. Such a puzzle is well posed and its answer
        is no solution (a count of 0): users looping over generated instances get answers, and
        every backend gives this one without a search (`Backend` checks it first)."""
        blocked = set(self.blocked)
        for sq in self.fixed:
            if sq in blocked:
                return f"the pre-placed piece on {sq} stands on a blocked square"
        labels = {ch for row in self.regions for ch in row}
        if self.regions and len(labels) != (self.pieces or self.rows):
            return f"the map has {len(labels)} regions for {self.pieces or self.rows} pieces (exactly one in each)"
        if self.walls or self.pieces:  # lines cut by walls, rows shared: the squares' own rule
            if not self.pawns:  # (a pawn the search places may yet stand between two of them)
                clash = self._clash(self.fixed, set(self.walls))
                if clash:
                    return f"the pre-placed pieces on {clash[0]} and {clash[1]} attack each other"
            return None
        for i, a in enumerate(self.fixed):
            for b in self.fixed[i + 1 :]:
                line = " (two pieces in one row)" if a[0] == b[0] else " (two in one column)" if a[1] == b[1] else ""
                if line or self.attacks(a, b) or self.attacks(b, a):
                    return f"the pre-placed pieces on {a} and {b} attack each other{line}"
                if self.regions and self.regions[a[0]][a[1]] == self.regions[b[0]][b[1]]:
                    return f"the pre-placed pieces on {a} and {b} stand in one region"
        return None

    # -- derived views -------------------------------------------------------------------

    @property
    def rule(self) -> Piece:
        """The piece's moves (`pieces.Piece`)."""
        return self._rule

    @property
    def square(self) -> bool:
        """As many rows as columns (the classic board; all 8 symmetries of the square apply)."""
        return self.rows == self.n

    @property
    def shape(self) -> str:
        """The board as people write it: "8x8", "5x8" (rows x columns)."""
        return f"{self.rows}x{self.n}"

    @cached_property
    def rules(self) -> frozenset[Rule]:
        """The rules this problem needs a backend to model: each field's, where it is set
        (`fields.FIELDS`), and the piece's leaps and one-way lines."""
        from .fields import FIELDS

        needs = {Rule[f.rule] for f in FIELDS if f.rule is not None and not self.at_default(f.name)}
        needs |= {Rule.LEAPS} if self.rule.leapers else set()
        needs |= {Rule.ONE_WAY} if self.rule.lines else set()
        return frozenset(needs)

    def at_default(self, name: str) -> bool:
        """Whether field `name` has its default value: no squares, no flag, as many rows as
        columns (a size or a piece has none)."""
        value = getattr(self, name)
        if name == "rows":
            return bool(value == self.n)
        if name in ("pieces", "pawns"):
            return bool(value == 0)
        return isinstance(value, bool | tuple) and not value

    def as_dict(self, brief: bool = False) -> dict[str, Any]:
        """The problem as records and model files hold it: every field (`fields.FIELDS`) by its
        key, squares as [row, col] lists, a region map as its rows; a field the records gained
        later (`Field.optional`) only where it is set; `brief` leaves out the fields at their
        default that may be (`Field.brief`: a square board's rows), as checkpoints and files
        always have."""
        from .fields import FIELDS

        out: dict[str, Any] = {}
        for f in FIELDS:
            if (f.optional or (brief and f.brief)) and self.at_default(f.name):
                continue
            value = getattr(self, f.name)
            out[f.key] = [list(sq) for sq in value] if f.squares else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Problem:
        """The problem `as_dict` wrote (keys not given take their defaults)."""
        from .fields import BY_KEY

        unknown = set(data) - set(BY_KEY)
        if unknown:
            raise InvalidProblem(f"unknown field {sorted(unknown)[0]!r} (known: {', '.join(BY_KEY)})")
        given: dict[str, Any] = {
            BY_KEY[k].name: ([tuple(sq) for sq in v] if BY_KEY[k].squares else v) for k, v in data.items()
        }
        return cls(**given)

    @property
    def is_plain(self) -> bool:
        """No squares set apart, no region map, one piece a row and no pawns (every such field
        of `fields.FIELDS` at its default): the classic puzzle, which the engine's special
        searches assume."""
        from .fields import FIELDS, Kind

        kinds = (Kind.SQUARES, Kind.LABELS, Kind.COUNT)
        return all(self.at_default(f.name) for f in FIELDS if f.kind in kinds)

    # -- pieces anywhere and walls -----------------------------------------------------------

    @property
    def anywhere(self) -> bool:
        """Pieces stand on any free squares (`pieces` > 0): a solution is a layout."""
        return self.pieces > 0

    @property
    def walled(self) -> bool:
        """Lines can be cut (walls, pawns) or rows shared (pieces anywhere): the rules of one
        piece a row on lines that run the board's length no longer hold, and a placement is
        judged by walking the lines (`_clash`)."""
        return bool(self.walls) or self.anywhere

    @property
    def width(self) -> int:
        """The length of a solution: the rows (one piece each), or the pieces and the pawns."""
        return self.pieces + self.pawns if self.anywhere else self.rows

    def layout(self, solution: Sequence[int]) -> tuple[tuple[Square, ...], tuple[Square, ...]]:
        """(the pieces' squares, the pawns' squares) of a solution: a layout's indices r*n + c
        read back, or one piece a row's columns as squares."""
        if not self.anywhere:
            return tuple(enumerate(int(c) for c in solution)), ()
        squares = tuple(divmod(int(i), self.n) for i in solution)
        return squares[: self.pieces], squares[self.pieces :]

    def shown(self, solution: Sequence[int]) -> list[int] | dict[str, list[list[int]]]:
        """The solution as records and JSON output write it: its columns, one a row, or a
        layout's squares, {"pieces": [[r, c], ...], "pawns": [...]} (pawns where there are)."""
        if not self.anywhere:
            return [int(c) for c in solution]
        pieces, pawns = self.layout(solution)
        out = {"pieces": [list(sq) for sq in pieces]}
        return out | ({"pawns": [list(sq) for sq in pawns]} if self.pawns else {})

    def said(self, solution: Sequence[int]) -> str:
        """The solution in a line of text, as JSON writes it (`shown`): `[0, 4, 7, ...]`, or a
        layout's `{"pieces": [[0, 2], ...], "pawns": [[1, 2]]}`."""
        import json

        return json.dumps(self.shown(solution))

    def placed(self, pieces: Iterable[Sequence[int]]) -> Solution:
        """The answer of the optimisations (the most pieces, the fewest that cover): `pieces`
        placed anywhere, as a layout of as many pieces writes them (their indices ascending)."""
        return tuple(sorted(int(r) * self.n + int(c) for r, c in pieces))

    def encode(self, pieces: Iterable[Sequence[int]], pawns: Iterable[Sequence[int]] = ()) -> Solution:
        """The solution of squares `pieces` and `pawns` (each in any order): a layout's sorted
        indices, or one piece a row's columns (by row)."""
        if not self.anywhere:
            return tuple(c for _, c in sorted((int(r), int(c)) for r, c in pieces))
        n = self.n
        return (*sorted(int(r) * n + int(c) for r, c in pieces), *sorted(int(r) * n + int(c) for r, c in pawns))

    def steps(self) -> tuple[tuple[int, int], ...]:
        """Every step a line takes from a square (riders' images, one-way lines both ways, the
        rook's included): the directions `_clash` walks, and the engines' lines."""
        rule = self.rule
        out = {image for move in rule.riders for image in images(move)}
        out |= {d for dr, dc in rule.lines for d in ((dr, dc), (-dr, -dc))}
        return tuple(sorted(out))

    def _clash(self, pieces: Sequence[Square], stops: set[Square]) -> tuple[Square, Square, str] | None:
        """Two of `pieces` that attack each other when lines stop at `stops` (walls, pawns), with
        the move in words, or None (`_moves_from` walks each piece's moves). O(pieces x lines x n)."""
        taken = set(pieces)
        for piece in pieces:
            for sq, move in self._moves_from(piece, stops, rows=self.anywhere):
                if sq in taken:
                    return piece, sq, move
        return None

    def _moves_from(self, square: Square, stops: set[Square], rows: bool = True) -> Iterator[tuple[Square, str]]:
        """The squares a piece on `square` reaches, each with its move in words: every line
        walked to the first square of `stops`, the board's edge or (on a torus) back to
        `square` (along rows only with `rows`: one piece a row never shares one), then its
        leaps, which jump. The one walk of the rules that `_clash` (the validator) and `_reach`
        (what a piece covers) both take."""
        m, n, torus = self.rows, self.n, self.torus
        for a, b in self.steps():
            if a == 0 and not rows:
                continue
            sq = square
            for _ in range(m * n):
                sq = ((sq[0] + a) % m, (sq[1] + b) % n) if torus else (sq[0] + a, sq[1] + b)
                if sq == square or sq in stops or not (0 <= sq[0] < m and 0 <= sq[1] < n):
                    break
                yield sq, "share a row" if a == 0 else "attack along a line"
        for a, b in {image for move in self.rule.leapers for image in images(move)}:
            sq = ((square[0] + a) % m, (square[1] + b) % n) if torus else (square[0] + a, square[1] + b)
            if sq != square and 0 <= sq[0] < m and 0 <= sq[1] < n:
                yield sq, "are a leap apart"

    def attacks(self, a: Square, b: Square) -> bool:
        return self.rule.attacks(a, b, self.n, self.torus, self.rows)

    def offsets(self, dr: int) -> frozenset[int]:
        """Column offsets attacked `dr` rows away, besides the same column (see Piece.offsets)."""
        return self.rule.offsets(dr, self.n, self.torus, self.rows)

    @cached_property
    def line_model(self) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...]]:
        """The attacks as the exported models state them: (lines, forbidden). `lines` are the
        families of parallel lines (a, b, g) that hold at most one piece each (g: on a torus the
        modulus of a line's key c - b*r, gcd(rows*b, n); 0 on a plain board, where the key is
        a*c - b*r within a residue class of rows mod a). `forbidden` are the offsets (dr, dc),
        dr >= 1, at which two pieces may not stand: the leaps, and on a torus whose wrapped lines
        skip rows (a > 1, listed as no family), every move."""
        m, n, torus = self.rows, self.n, self.torus
        slides = slide_directions(self.rule)
        families = [(a, b) for a, b in slides if not torus or a == 1]
        skipping = len(families) < len(slides)
        lines = tuple((a, b, gcd(m * b, n) if torus else 0) for a, b in families)
        forbidden = tuple(
            (dr, dc)
            for dr in range(1, m)
            for dc in sorted(self.offsets(dr) if skipping else self.rule.leap_offsets(dr, n, torus, m))
        )
        return lines, forbidden

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
        for r in range(self.rows):
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
        return all(
            sorted(n - 1 - c for c in self.allowed_columns(r)) == self.allowed_columns(r) for r in range(self.rows)
        )

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

        Written from the rules alone (O(n) a move, lines marked in bytearrays), independent of
        every backend."""
        n, m = self.n, self.rows
        if isinstance(solution, str | bytes) or not isinstance(solution, (Sequence, *_numpy("ndarray"))):
            raise InvalidProblem(f"a placement is a sequence of columns, one per row, got {solution!r}")
        if self.walled:
            return self._explain_walled(solution)
        if len(solution) != m:
            return f"has {len(solution)} rows, expected {m}"
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
        why = self._regions_broken(tuple(enumerate(solution)))
        if why:
            return why
        # Lines are marked in bytearrays, a byte a line (dicts of rows cost gigabytes at the
        # largest n: tests/test_reliability.py checks 10^7 columns in 2 GB); the pair that
        # shares one is looked for only once one is found.
        used = bytearray(n)
        for r, c in enumerate(solution):
            if used[c]:
                r0 = next(k for k in range(r) if solution[k] == c)
                return f"pieces ({r0}, {c}) and ({r}, {c}) share a column"
            used[c] = 1
        rule, torus = self.rule, self.torus

        def attack(r: int, r2: int) -> str:
            c, c2 = solution[r], solution[r2]
            return f"pieces ({r}, {c}) and ({r2}, {c2}) {rule.move_between(r2 - r, c2 - c, n, torus, m)}"

        # Slides: squares of one line share a key, O(n) per direction (residues on a torus).
        pairwise = False
        for a, b in slide_directions(rule):
            if torus and a != 1:
                pairwise = True  # a wrapped line that skips rows: checked pair by pair below
                continue
            if a == 1:  # every row meets each line once: key c - b*r, shifted to 0.. (mod g on a torus)
                # On a torus of m rows a line comes back to its row m steps on, m*b columns over:
                # its squares are those with one key c - b*r modulo g = gcd(m*b, n) (n when square).
                g = gcd(m * b, n) if torus else 0
                low = 0 if torus else -abs(b) * (m - 1)
                marks = bytearray(g if torus else n + 2 * abs(b) * (m - 1))
                keys = (((c - b * r) % g if torus else c - b * r - low) for r, c in enumerate(solution))
                for r, key in enumerate(keys):
                    if marks[key]:
                        return attack(_first_on(solution, r, b, g, torus, low), r)
                    marks[key] = 1
                continue
            seen: dict[object, int] = {}
            for r, c in enumerate(solution):
                line = (a * c - b * r, r % a)
                if line in seen:
                    return attack(seen[line], r)
                seen[line] = r
        # Leaps: each piece's targets, O(n) per leap.
        for a, b in sorted({image for move in rule.leapers for image in images(move) if image[0] > 0}):
            for r, c in enumerate(solution):
                r2, c2 = r + a, c + b
                if torus:
                    r2, c2 = r2 % m, c2 % n
                if 0 <= r2 < m and r2 != r and 0 <= c2 < n and solution[r2] == c2:
                    return attack(r, r2)
        if pairwise:
            for r in range(m):
                for r2 in range(r + 1, m):
                    if rule.attacks((r, solution[r]), (r2, solution[r2]), n, torus, m):
                        return attack(r, r2)
        return None

    def uncovered(self, pieces: Sequence[Square], independent: bool = False) -> str | None:
        """Why `pieces` do not dominate the board, or None where they do: each stands on a free
        square (pre-placed ones among them), and every free square holds one or is attacked by
        one (lines pass blocked squares and stop at walls; blocked squares and walls need no
        cover); with `independent`, no two attack each other. Walked from the rules, as
        `explain` is."""
        m, n = self.rows, self.n
        closed = set(self.blocked) | set(self.walls)
        taken = set(pieces)
        if len(taken) != len(pieces):
            return "names a square twice"
        for sq in pieces:
            if not (0 <= sq[0] < m and 0 <= sq[1] < n) or sq in closed:
                return f"puts a piece on {sq}, which no piece may take"
        missing = sorted(set(self.fixed) - taken)
        if missing:
            return f"misses fixed piece {missing[0]}"
        anywhere = replace(self, pieces=max(1, len(pieces), len(self.fixed)), pawns=0)
        if independent:
            clash = anywhere._clash(list(pieces), set(self.walls))
            if clash:
                return f"pieces {clash[0]} and {clash[1]} {clash[2]}"
        seen = set(taken)
        for r, c in pieces:
            seen |= anywhere._reach((r, c))
        for r in range(m):
            for c in range(n):
                if (r, c) not in closed and (r, c) not in seen:
                    return f"leaves square {(r, c)} neither taken nor attacked"
        return None

    def _reach(self, square: Square) -> set[Square]:
        """The squares a piece on `square` attacks: its lines walked to the first wall, the
        edge or (on a torus) back to itself, and its leaps (`_moves_from`)."""
        return {sq for sq, _ in self._moves_from(square, set(self.walls))}

    def _regions_broken(self, pieces: Sequence[Square]) -> str | None:
        """Why `pieces` break the region map (exactly one in each region), or None."""
        if not self.regions:
            return None
        holder: dict[str, Square] = {}
        for r, c in pieces:
            label = self.regions[r][c]
            if label in holder:
                return f"pieces {holder[label]} and {(r, c)} stand in one region ({label!r})"
            holder[label] = (r, c)
        if len({ch for row in self.regions for ch in row}) != len(holder):
            return "leaves a region without a piece"
        return None

    def _explain_walled(self, solution: Sequence[int]) -> str | None:
        """`explain` where walls cut lines or pieces stand anywhere: the squares read, each
        checked to be free, then every piece's lines walked to the first wall or pawn."""
        width, size = self.width, self.rows * self.n
        if len(solution) != width:
            what = f"{self.pieces} pieces and {self.pawns} pawns" if self.anywhere else f"{self.rows} rows"
            return f"has {len(solution)} entries, expected {width} ({what})"
        top = size if self.anywhere else self.n
        for i, v in enumerate(solution):
            if not is_integer(v) or not 0 <= v < top:
                return f"entry {i} is {v!r}, not in 0..{top - 1}"
        pieces, pawns = self.layout(solution)
        if self.anywhere:
            for part, name in ((solution[: self.pieces], "pieces"), (solution[self.pieces :], "pawns")):
                if any(a >= b for a, b in pairwise(part)):
                    return f"lists its {name} out of order or twice (each square once, ascending r*n + c)"
            if set(pieces) & set(pawns):
                return f"puts a piece and a pawn on {sorted(set(pieces) & set(pawns))[0]}"
        blocked, fixed = set(self.blocked), set(self.fixed)
        for sq in (*pieces, *pawns):
            if sq in blocked or sq in self.walls:
                return f"uses {'blocked' if sq in blocked else 'wall'} square {sq}"
        for sq in pawns:
            if sq in fixed:
                return f"puts a pawn on the pre-placed piece {sq}"
        missing = sorted(set(self.fixed) - set(pieces))
        if missing:
            return f"misses fixed piece {missing[0]}"
        why = self._regions_broken(pieces)
        if why:
            return why
        clash = self._clash(pieces, set(self.walls) | set(pawns))
        if clash:
            a, b, move = clash
            return f"pieces {a} and {b} {move}"
        return None

    def first_invalid(self, placements: np_ndarray) -> tuple[int, str] | None:
        """The first row of `placements` (a 2-D array, a placement a row) that is no valid
        placement, with `explain`'s reason; None when every row is valid. Checked at numpy
        speed (`batches`: a stream checks its batches with one `BatchCheck`), each row it flags
        confirmed by `explain`."""
        from .batches import BatchCheck

        return BatchCheck(self)(placements)

    def _repr_svg_(self) -> str | None:
        """The board drawn, for Jupyter (`model.drawing`)."""
        from .drawing import Drawing

        return Drawing(self)._repr_svg_()

    def is_solution(self, solution: Sequence[int]) -> bool:
        return self.explain(solution) is None

    def with_fixed(self, squares: Iterable[Square]) -> Problem:
        """This problem with more pre-placed pieces (raises InvalidProblem on a conflict)."""
        return replace(self, fixed=(*self.fixed, *squares))


def _first_on(solution: Sequence[int], r: int, b: int, g: int, torus: bool, low: int) -> int:
    """The row before `r` whose piece shares row r's line of slope (1, b) (found on a clash only;
    g is the torus's modulus of line keys)."""

    def key(k: int) -> int:
        return (solution[k] - b * k) % g if torus else solution[k] - b * k - low

    return next(k for k in range(r) if key(k) == key(r))


def plural(k: int, noun: str) -> str:
    """`1 solution`, `2 solutions`, `3 classes`, with the thousands marked."""
    return f"{k:,} {noun}" + ("" if k == 1 else "es" if noun.endswith("s") else "s")


def as_problem(problem: Problem | int) -> Problem:
    """Accept a plain int wherever a Problem is taken: `n` means the classic n-queens."""
    if isinstance(problem, Problem):
        return problem
    return Problem(problem)


def board_rows(solution: Sequence[int]) -> list[str]:
    """LeetCode-style drawing: one string per row, 'Q' for the piece and '.' elsewhere."""
    n = len(solution)
    return ["." * c + "Q" + "." * (n - 1 - c) for c in solution]
