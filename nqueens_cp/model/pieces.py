"""Pieces as data: what a piece attacks, written once, from which every backend builds its model.

A piece is a set of moves, as fairy chess describes them:
- leapers: a jump (a, b), taken with all 8 of its images (the knight is the (1, 2) leaper);
- riders: a slide along (a, b) and its 8 images, any number of steps (the rook rides (0, 1),
  the bishop (1, 1), the nightrider (1, 2));
- lines: a slide along exactly +-(dr, dc), one direction pair only (the anti-diagonals alone
  are the line (1, -1)).
The placement puzzle puts one piece in every row and column, so its piece rides (0, 1) like a
rook, and adds moves (`Piece.rook`; the backends refuse any other for it). Pieces placed
anywhere (K queens on a board, the most pieces, the fewest that cover) may be any piece: the
bishop, the king, the knight. Two pieces attack each other when one reaches the other's square
by a move, whatever stands between: with one piece per row, pieces on one line always include a
pair with nothing between them (walls and pawns, where they stand, cut lines).

On the command line a piece is a name (queen, rook, superqueen, amazon, empress...) or Betza's
notation: atoms W F D N A H C Z G, compounds K (WF), R (WW), B (FF), Q (RB); a doubled atom
rides (NN, the nightrider); letters join. Moves Betza has no letter for, and one-way lines, are
written in a TOML model's [piece] table; the canonical text of such a piece adds `[a,b]` (a
leaper), `[a,b]+` (a rider) and `line(a,b)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from math import gcd

Move = tuple[int, int]

#: Betza's atoms: the leap each letter stands for.
ATOMS: dict[str, Move] = {
    "W": (0, 1),
    "F": (1, 1),
    "D": (0, 2),
    "N": (1, 2),
    "A": (2, 2),
    "H": (0, 3),
    "C": (1, 3),
    "Z": (2, 3),
    "G": (3, 3),
}
LETTER = {move: letter for letter, move in ATOMS.items()}

#: Betza's compounds: (leapers, riders) in atom letters.
COMPOUNDS: dict[str, tuple[str, str]] = {"K": ("WF", ""), "R": ("", "W"), "B": ("", "F"), "Q": ("", "WF")}

#: Names a user may give instead of the notation (the canonical text of the same piece).
NAMES: dict[str, str] = {
    "queen": "Q",
    "rook": "R",
    "superqueen": "QN",
    "amazon": "QN",
    "empress": "RN",
    "chancellor": "RN",
    "marshall": "RN",
    "bishop": "B",
    "king": "K",
    "knight": "N",
    "nightrider": "NN",
}
#: The pieces our compiled row searches know, under the name their canonical text prints as.
BUILT_IN = {"Q": "queen", "R": "rook", "QN": "superqueen"}
#: Every piece whose canonical text prints as a name: those, and pieces placed anywhere.
SHOWN_AS = {**BUILT_IN, "B": "bishop", "K": "king", "N": "knight", "NN": "nightrider"}

ROOK: Move = (0, 1)


class PieceError(ValueError):
    """A piece that cannot be read, or cannot be one of these puzzles' pieces."""


def canonical(move: Move) -> Move:
    """The representative of a move's 8 images: (p, q) with 0 <= p <= q."""
    a, b = sorted((abs(move[0]), abs(move[1])))
    return (a, b)


def images(move: Move) -> frozenset[Move]:
    """The 8 images of a move under the symmetries of the square."""
    a, b = move
    signs = [(x, y) for x in (1, -1) for y in (1, -1)]
    return frozenset({(x * a, y * b) for x, y in signs} | {(x * b, y * a) for x, y in signs})


def oriented(line: Move) -> Move:
    """A one-way line's representative of +-(dr, dc): dr > 0, or dr = 0 and dc > 0."""
    dr, dc = line
    return (dr, dc) if dr > 0 or (dr == 0 and dc > 0) else (-dr, -dc)


@dataclass(frozen=True)
class Piece:
    """A piece as its moves (see the module). Build one with `Piece.of(...)`, which checks it."""

    leapers: frozenset[Move] = frozenset()
    riders: frozenset[Move] = frozenset({ROOK})
    lines: frozenset[Move] = frozenset()
    #: A name the user gave it (a TOML model's `name`); not part of what the piece is.
    label: str = field(default="", compare=False)

    @staticmethod
    def of(
        leapers: Iterable[Move] = (),
        riders: Iterable[Move] = (),
        lines: Iterable[Move] = (),
        label: str = "",
    ) -> Piece:
        """A checked piece: moves normalised, those another move covers dropped."""
        def moves(kind: str, given: object) -> list[Move]:
            out = []
            for m in given or ():  # type: ignore[attr-defined]
                pair = isinstance(m, list | tuple) and len(m) == 2
                if not (pair and all(isinstance(v, int) and not isinstance(v, bool) for v in m)):
                    raise PieceError(f"a {kind} move is a pair of integers [a, b], got {m!r}")
                if m[0] == 0 and m[1] == 0:
                    raise PieceError(f"a {kind} move of (0, 0) goes nowhere")
                if max(abs(m[0]), abs(m[1])) > 10_000:
                    raise PieceError(f"a {kind} move of {tuple(m)} is longer than any board here")
                out.append((int(m[0]), int(m[1])))
            return out

        ride = {canonical(m) for m in moves("rider", riders)}
        leap = {canonical(m) for m in moves("leaper", leapers)}
        leap = {m for m in leap if not any(_on(m, r) for r in ride)}
        one_way = {oriented(m) for m in moves("line", lines)}
        one_way = {m for m in one_way if not any(_on(m, r) for r in ride)}
        if not (ride or leap or one_way):
            raise PieceError("a piece needs a move: a leap, a ride or a line")
        return Piece(frozenset(leap), frozenset(ride), frozenset(one_way), label)

    # -- what it is ------------------------------------------------------------------------

    @property
    def text(self) -> str:
        """The canonical text: a built-in name, or Betza's notation (with the extensions)."""
        notation = self.notation
        return SHOWN_AS.get(notation, notation)

    @property
    def notation(self) -> str:
        rook, bishop = ROOK in self.riders, (1, 1) in self.riders
        parts = ["Q" if rook and bishop else "R" if rook else "B" if bishop else ""]
        for move in sorted(self.riders - {ROOK, (1, 1)}, key=_order):
            parts.append(LETTER[move] * 2 if move in LETTER else f"[{move[0]},{move[1]}]+")
        leaps = set(self.leapers)
        if {ROOK, (1, 1)} <= leaps:  # the king's two leaps, one letter
            parts.append("K")
            leaps -= {ROOK, (1, 1)}
        for move in sorted(leaps, key=_order):
            parts.append(LETTER.get(move, f"[{move[0]},{move[1]}]"))
        parts += [f"line({dr},{dc})" for dr, dc in sorted(self.lines)]
        return "".join(parts)

    @property
    def rook(self) -> bool:
        """It rides rows and columns, as every piece of the placement puzzle must (one a row
        and a column); any piece may stand anywhere."""
        return ROOK in self.riders

    @property
    def diagonals(self) -> bool:
        """It rides the diagonals (the queen's moves), the compiled kernels' one extra rule."""
        return (1, 1) in self.riders

    @property
    def knight(self) -> bool:
        """It leaps like a knight (the superqueen's extra rule in the compiled row search)."""
        return (1, 2) in self.leapers

    @property
    def classic(self) -> bool:
        """A rook, queen or superqueen: the pieces our compiled kernels search."""
        return self.notation in BUILT_IN

    def symmetric_under(self, transpose: bool, flip_rows: bool, flip_cols: bool) -> bool:
        """Whether a symmetry of the square (as symmetry.TABLE writes them) maps the piece's
        moves onto themselves: leapers and riders always; one-way lines only some."""

        def moved(line: Move) -> Move:
            dr, dc = (line[1], line[0]) if transpose else line
            return oriented((-dr if flip_rows else dr, -dc if flip_cols else dc))

        return {moved(m) for m in self.lines} == set(self.lines)

    # -- what it attacks -------------------------------------------------------------------

    def offsets(self, dr: int, n: int, torus: bool, rows: int | None = None) -> frozenset[int]:
        """The column offsets dc != 0 at which a piece attacks another `dr` rows away (dr != 0)
        on a board of n columns and `rows` rows (n by default). On a torus, rows count modulo
        `rows` and columns modulo n, and the result holds every dc in -(n-1)..n-1 congruent to
        an attacking one."""
        return _offsets(self, dr, n, torus, True, n if rows is None else rows)

    def leap_offsets(self, dr: int, n: int, torus: bool, rows: int | None = None) -> frozenset[int]:
        """The part of `offsets` that the leapers reach (the slides are modelled as lines)."""
        return _offsets(self, dr, n, torus, False, n if rows is None else rows)

    def attacks(
        self, a: tuple[int, int], b: tuple[int, int], n: int, torus: bool = False, rows: int | None = None
    ) -> bool:
        """Whether pieces on squares a and b of a board of n columns (and `rows` rows, n by
        default) attack each other (a != b)."""
        dr, dc = b[0] - a[0], b[1] - a[1]
        if (dr == 0 or dc == 0) and self.rook:
            return True
        if dr == 0 or dc == 0:  # (along a row or a column, the other moves' multiples)
            shape = (n if rows is None else rows, n)
            moves = [(images(m), True) for m in self.riders] + [(images(m), False) for m in self.leapers]
            moves += [(frozenset({m, (-m[0], -m[1])}), True) for m in self.lines]
            return any(_reaching(dr, dc, steps, shape, torus, ride) is not None for steps, ride in moves)
        return dc in self.offsets(dr, n, torus, rows)

    def move_between(self, dr: int, dc: int, n: int, torus: bool, rows: int | None = None) -> str:
        """The move that reaches (dr, dc), in words, for explanations."""
        m = n if rows is None else rows
        for p, q in sorted(self.riders):
            step = _reaching(dr, dc, images((p, q)), (m, n), torus, ride=True)
            if step is not None:
                if (p, q) == (1, 1):
                    return "share a diagonal" if step[0] == step[1] else "share an anti-diagonal"
                return f"attack along a ({p}, {q}) rider line"
        for p, q in sorted(self.lines):
            if _reaching(dr, dc, {(p, q), (-p, -q)}, (m, n), torus, ride=True) is not None:
                return f"share a ({p}, {q}) line"
        for p, q in sorted(self.leapers):
            if _reaching(dr, dc, images((p, q)), (m, n), torus, ride=False) is not None:
                return "are a knight's move apart" if (p, q) == (1, 2) else f"are a ({p}, {q}) leap apart"
        return "attack each other"


def slide_directions(piece: Piece) -> list[Move]:
    """The directions the piece slides along besides rows and columns, each line once: (a, b)
    with a > 0 (riders' images and one-way lines alike), the diagonal before the anti-diagonal."""
    out = {image for move in piece.riders for image in images(move) if image[0] > 0}
    out |= {line for line in piece.lines if line[0] > 0}
    return sorted({(a, b) for a, b in out if b != 0}, key=lambda m: (m[0], -m[1]))  # (a, 0): a column


def _order(move: Move) -> tuple[int, int, int]:
    return (0 if move in LETTER else 1, *move)


def _on(move: Move, rider: Move) -> bool:
    """Whether a canonical move lies on a canonical rider's line (a multiple of one image)."""
    return any(_multiple(move, image) for image in images(rider))


def _multiple(move: Move, step: Move) -> bool:
    (a, b), (p, q) = move, step
    k = a // p if p else b // q if q else 0
    return k >= 1 and (a, b) == (k * p, k * q)


def _reaching(
    dr: int, dc: int, steps: set[Move] | frozenset[Move], shape: tuple[int, int], torus: bool, ride: bool
) -> Move | None:
    """The step (one of `steps`) whose multiples (a rider's, or 1 for a leaper) reach (dr, dc)
    on a board of shape (rows, cols)."""
    m, n = shape
    for a, b in sorted(steps):
        if torus:
            if a and any((d - dc) % n == 0 for d in _torus_reach(a, b, dr, m, n, ride)):
                return (a, b)
            if not a and dr % m == 0 and any((k * b - dc) % n == 0 for k in range(1, (n if ride else 1) + 1)):
                return (a, b)  # (along a row, which wraps after n columns)
        elif any((k * a, k * b) == (dr, dc) for k in range(1, max(m, n) if ride else 2)):
            return (a, b)
    return None


def _torus_reach(a: int, b: int, dr: int, m: int, n: int, ride: bool) -> Iterator[int]:
    """The column offsets k*b (k >= 1 steps, 1 for a leaper) of the steps (a, b) that end dr
    rows away on a torus of m rows and n columns, one per residue class mod n: the k with
    k*a = dr (mod m) are k0 + t*(m/g), g = gcd(a, m), and their offsets repeat mod n after
    n / gcd(b*m/g, n) of them, so the loop is O(n) whatever the shape."""
    if not ride:
        if (a - dr) % m == 0:
            yield b
        return
    g = gcd(a, m)
    if dr % g:
        return
    mg = m // g
    k0 = (dr // g) * pow(a // g, -1, mg) % mg if mg > 1 else 0
    k0 = k0 or mg
    for t in range(n // gcd(b * mg, n)):
        yield (k0 + t * mg) * b


@cache
def _offsets(piece: Piece, dr: int, n: int, torus: bool, slides_too: bool, m: int) -> frozenset[int]:
    hits: set[int] = set()
    moves = [(image, False) for move in piece.leapers for image in images(move)]  # (step, rides)
    if slides_too:
        moves += [(image, True) for move in piece.riders for image in images(move)]
        moves += [((a, b), True) for p, q in piece.lines for a, b in ((p, q), (-p, -q))]
    for (a, b), ride in moves:
        if a == 0:
            continue
        if torus:
            hits.update(_torus_reach(a, b, dr, m, n, ride))
        elif dr % a == 0 and (dr // a >= 1 if ride else dr == a):
            hits.add(dr // a * b)
    if torus:
        residues = {d % n for d in hits} - {0}
        return frozenset(d for d in range(-(n - 1), n) if d % n in residues)
    return frozenset(d for d in hits if 0 < abs(d) < n)


_TOKEN = re.compile(r"\[(-?\d+),(-?\d+)\](\+?)|line\((-?\d+),(-?\d+)\)|[A-Z]|.", re.S)


@cache
def parse(text: object) -> Piece:
    """A piece from a name or Betza's notation (see the module); PieceError says what is wrong,
    a value that is no string included."""
    if not isinstance(text, str) or not text.strip():
        raise PieceError(f"a piece is a name or Betza's notation, got {text!r}")
    spec = NAMES.get(text.strip().lower(), text.strip())
    if spec.isalpha() and spec.islower():
        names = ", ".join(sorted(NAMES))
        raise PieceError(f"unknown piece {text!r} (names: {names}; or Betza's notation, such as RN)")
    leapers: list[Move] = []
    riders: list[Move] = []
    lines: list[Move] = []
    tokens = [m for m in _TOKEN.finditer(spec)]
    i = 0
    while i < len(tokens):
        m = tokens[i]
        word = m.group(0)
        if m.group(1) is not None:
            (riders if m.group(3) else leapers).append((int(m.group(1)), int(m.group(2))))
        elif m.group(4) is not None:
            lines.append((int(m.group(4)), int(m.group(5))))
        elif word in COMPOUNDS:
            if i + 1 < len(tokens) and tokens[i + 1].group(0) == word:  # QQ read as Q, while KK was refused
                raise PieceError(
                    f"piece {text!r}: {word}{word} doubles a compound; a doubled letter rides an atom "
                    "(NN, the nightrider), and R, B and Q ride already (K is WF: riding both is WWFF, the queen)"
                )
            leaps, rides = COMPOUNDS[word]
            leapers += [ATOMS[x] for x in leaps]
            riders += [ATOMS[x] for x in rides]
        elif word in ATOMS:
            if i + 1 < len(tokens) and tokens[i + 1].group(0) == word:
                riders.append(ATOMS[word])
                i += 1
            else:
                leapers.append(ATOMS[word])
        elif word.isalpha() and word.islower():
            raise PieceError(
                f"piece {text!r}: Betza's modifiers ({word!r}...) are not taken; "
                "one-way moves go in a TOML model's [piece] table as lines"
            )
        else:
            known = ", ".join(sorted(set(NAMES) | set(BUILT_IN.values())))
            raise PieceError(
                f"piece {text!r}: {word!r} is no Betza letter (atoms W F D N A H C Z G, compounds "
                f"K R B Q; a doubled atom rides) and the text is no name ({known})"
            )
        i += 1
    return Piece.of(leapers, riders, lines)


def piece_of(value: object) -> Piece:
    """A Piece from a Piece, a name or Betza's notation."""
    if isinstance(value, Piece):
        return Piece.of(value.leapers, value.riders, value.lines, value.label)
    return parse(value)
