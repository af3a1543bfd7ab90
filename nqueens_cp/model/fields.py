"""The problem's fields, declared once, as data: what each is, its key in files and records, its
glyph on a drawn board, the rule a backend must model where it is set, and what the square's
symmetries do to it.

Every place that reads or writes a whole problem takes its fields from here (or from
`Problem.as_dict`, `Problem.from_dict` and `dataclasses.replace`), never from a list of its own:
a checkpoint's fingerprint, the model files (TOML, JSON, text boards), the fuzzer's record and
shrinker, the command line's records. A new square set is then one `Field` here and its rule in
`Problem.explain`; a place that forgot it cannot exist, where before a checkpoint resumed on
another layout, or a shrinker dropped the new squares, without a word.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """How a field's value is written: a size, a flag, a piece's text, or a set of squares (a
    list of [row, col] pairs, 0-based)."""

    SIZE = "size"
    FLAG = "flag"
    PIECE = "piece"
    SQUARES = "squares"
    #: a label a square, as a string a row (the region map: `regions = ["AABB", ...]`)
    LABELS = "labels"
    #: how many things the search places (0: none; `pieces` 0 is one piece in each row)
    COUNT = "count"


class Symmetry(Enum):
    """What a symmetry of the square must do to a field for it to be one of the problem's: map
    its squares onto themselves, keep the piece's moves, or nothing (a size, a flag)."""

    NONE = "none"
    SQUARES = "squares"
    PIECE = "piece"
    #: map each region onto a region (the labels may change)
    PARTITION = "partition"


@dataclass(frozen=True)
class Field:
    """One field of `Problem`: `name` its attribute, `key` its key in model files and JSON
    records, `kind` how its value is written, `glyph` the letter that draws its squares on a text
    board (square sets only), `rule` the name of the `Rule` a backend must model where the field
    is set (None: every backend models it), `symmetry` what a symmetry must keep, `help` what it
    is, as a user reads it."""

    name: str
    key: str
    kind: Kind
    help: str
    glyph: str | None = None
    rule: str | None = None
    symmetry: Symmetry = Symmetry.NONE
    brief: bool = False
    #: Left out of every record at its default: a field the records gained after their format
    #: was set (a record of a problem without it is as it was).
    optional: bool = False
    #: How a board's caption counts its squares ("3 blocked"), and the letter that marks them
    #: on a board drawn with a solution, where it differs from `glyph` (a pre-placed piece: F).
    said: str = ""
    solved_glyph: str | None = None
    #: The command line's flag that adds one square to the set (repeatable), and its help.
    flag: str | None = None
    flag_help: str = ""

    @property
    def squares(self) -> bool:
        return self.kind is Kind.SQUARES


#: The fields, in the order files and records write them.
FIELDS: tuple[Field, ...] = (
    Field("n", "n", Kind.SIZE, "columns of the board"),
    Field("rows", "rows", Kind.SIZE, "rows, one piece each (n if not given)", None, "RECTANGLE", brief=True),
    Field("piece", "piece", Kind.PIECE, "the piece: a name or Betza's notation", symmetry=Symmetry.PIECE),
    Field("torus", "torus", Kind.FLAG, "the board wraps around", rule="TORUS"),
    Field(
        "blocked",
        "blocked",
        Kind.SQUARES,
        "squares no piece stands on (attacks pass them)",
        "X",
        "BLOCKED",
        Symmetry.SQUARES,
        said="blocked",
        flag="--block",
        flag_help="Blocked square, 0-based.",
    ),
    Field(
        "fixed",
        "fixed",
        Kind.SQUARES,
        "squares that hold a piece in every answer",
        "Q",
        "FIXED",
        Symmetry.SQUARES,
        said="pre-placed",
        solved_glyph="F",
        flag="--fix",
        flag_help="Pre-placed piece, 0-based.",
    ),
    Field(
        "walls",
        "walls",
        Kind.SQUARES,
        "squares that hold no piece and stop every line that reaches them (leaps pass)",
        "W",
        "WALLS",
        Symmetry.SQUARES,
        optional=True,
        said="walls",
        flag="--wall",
        flag_help="Wall, 0-based: holds no piece and stops every line through it.",
    ),
    Field(
        "pieces",
        "pieces",
        Kind.COUNT,
        "pieces placed on any free squares (0: exactly one in each row)",
        rule="ANYWHERE",
        optional=True,
    ),
    Field(
        "pawns",
        "pawns",
        Kind.COUNT,
        "pawns the search places with the pieces: walls of its own, each layout once",
        rule="PAWNS",
        optional=True,
    ),
    Field(
        "regions",
        "regions",
        Kind.LABELS,
        "a label a square, a string a row: exactly one piece in each region",
        rule="REGIONS",
        symmetry=Symmetry.PARTITION,
        brief=True,
        optional=True,
        said="regions",
    ),
)

#: The fields that are sets of squares.
SQUARE_FIELDS: tuple[Field, ...] = tuple(f for f in FIELDS if f.squares)

BY_KEY = {f.key: f for f in FIELDS}
