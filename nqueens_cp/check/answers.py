"""Solutions written by other programs, read back and judged.

Accepted, detected from the text itself:
- a SAT solver's output on our DIMACS export (`s` and `v` lines; see `dimacs`);
- JSON: a solution (a list of columns), a list of them, a board (a list of row strings) or a
  list of boards (LeetCode 51's answer), or one of these per line (JSON Lines);
- boards drawn in text, a row per line ('Q', 'R', 'S' or 'F' for a piece, '.' or 'X' for none),
  boards separated by blank lines (LeetCode style; `nqueens solve -f boards`);
- a list of columns per line: "1 3 0 2", "1,3,0,2" or "[1, 3, 0, 2]" (`-f csv` too).
Columns are 0-based, as everywhere in nqueens_cp, unless `one_based` says otherwise. Every
solution is then judged by the problem's own validator, which names the attacking pair or the
blocked square; duplicates and a claim of "no solution" are reported as such.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..io.dimacs import SquareOfVariable
from ..io.dimacs import read_answers as read_dimacs
from ..model.problem import NQueensError, Problem, Solution, as_problem
from ..model.squares import SQUARES_RULES, SquaresModel, squares_model

PIECE_CHARS = frozenset("QRSFPqrsfp")
EMPTY_CHARS = frozenset(".Xx-_Ww")  # (W: a wall)
#: On a board of pieces anywhere, the letter of a pawn the search placed (a piece's elsewhere).
PAWN_CHARS = frozenset("Pp")
_NUMBERS = re.compile(r"-?\d+")


class AnswerFormatError(NQueensError):
    """The text is not solutions in any format we read."""


@dataclass
class Answer:
    """One solution as read (`solution` None: the text claims there is none), where it was, and
    what is wrong with its shape (`fault`) before the validator looks at it."""

    line: int
    solution: Solution | None
    fault: str | None = None
    #: A SAT model's digest, auxiliary variables included (None in every other format).
    model: int | None = None
    #: Its place among the solutions of one JSON array, counted from 1 (they share a line).
    item: int | None = None

    @property
    def where(self) -> str:
        """Where a person finds it: `line 5`, or `line 1, item 3` in a JSON array."""
        return f"line {self.line}" if self.item is None else f"line {self.line}, item {self.item}"


#: Longer numbers are no column of any board (and Python refuses to read past 4300 digits).
MAX_DIGITS = 18


#: The longest line read (a JSON line of a million-queen solution is 7 MB): a longer one, say
#: `/dev/zero`, is refused when it reaches this length, before it fills the memory.
MAX_LINE = 64 << 20


def _numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    if hasattr(lines, "readline"):  # a file: read a line at a time, each within MAX_LINE
        lines = _bounded(lines)
    return ((i, line.rstrip("\r\n")) for i, line in enumerate(lines, 1))


def _bounded(f: Any) -> Iterator[str]:
    for number in itertools.count(1):
        line = f.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE:
            raise AnswerFormatError(f"line {number} is longer than {MAX_LINE >> 20} MB: not an answer")
        yield line


def read_answers(lines: Iterable[str], problem: Problem, one_based: bool = False) -> Iterator[Answer]:
    """The answers in `lines` (an open file, or a list of strings)."""
    numbered = _numbered(lines)
    head: list[tuple[int, str]] = []
    for number, line in numbered:
        head.append((number, line))
        text = line.strip()
        if text and not text.startswith(("c ", "#", "%")) and text != "c":
            break
    else:
        return
    rest = _chain(head, numbered)
    first = head[-1][1].strip()
    if first.startswith(("s ", "v ")) or first in ("s", "v"):
        yield from (Answer(*a) for a in read_dimacs(rest, problem, _squares_numbering(problem)))
    elif first.startswith(("[", "{")):
        yield from _json(rest, problem, one_based)
    elif set(first) <= PIECE_CHARS | EMPTY_CHARS:
        yield from _boards(rest, problem)
    elif problem.anywhere:
        raise AnswerFormatError(
            'pieces anywhere are read as boards or JSON layouts ({"pieces": [[r, c], ...], "pawns": [...]})'
        )
    else:
        yield from _columns(rest, one_based)


def _squares_numbering(problem: Problem) -> SquaresModel | None:
    """The squares model whose variables a SAT answer on `problem`'s DIMACS export numbers: the
    squares formulation's where the problem needs it (walls, regions, pieces anywhere, pawns:
    `SQUARES_RULES`, what `nqueens export` writes then), None for the permutation's."""
    return squares_model(problem) if problem.rules & SQUARES_RULES else None


def _chain(head: list[tuple[int, str]], rest: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    yield from head
    yield from rest


def _shift(values: list[int], one_based: bool) -> Solution:
    return tuple(v - 1 for v in values) if one_based else tuple(values)


def _columns(lines: Iterator[tuple[int, str]], one_based: bool) -> Iterator[Answer]:
    for number, line in lines:
        text = line.strip()
        if not text or text.startswith(("#", "%")) or re.fullmatch(r"r0(,r\d+)*", text):
            continue  # blank, a comment, or the header of `nqueens solve -f csv`
        if re.search(r"[^\d\s,;\[\]()\-]", text):
            raise AnswerFormatError(f"line {number}: expected the columns of a solution, got {text[:40]!r}")
        numbers = _NUMBERS.findall(text)
        if any(len(v) > MAX_DIGITS for v in numbers):
            yield Answer(number, (), f"a column of more than {MAX_DIGITS} digits")
            continue
        yield Answer(number, _shift([int(v) for v in numbers], one_based))


def _board(rows: list[str], number: int, problem: Problem) -> Answer:
    if problem.anywhere:  # pieces and pawns wherever they stand
        squares = [(r, c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row.strip())]
        pieces = [(r, c) for r, c, ch in squares if ch in PIECE_CHARS - PAWN_CHARS]
        return Answer(number, problem.encode(pieces, [(r, c) for r, c, ch in squares if ch in PAWN_CHARS]))
    cols: list[int] = []
    for r, row in enumerate(rows):
        placed = [c for c, ch in enumerate(row.strip()) if ch in PIECE_CHARS]
        if len(placed) != 1:
            return Answer(number, tuple(cols), f"board row {r} has {len(placed)} pieces")
        cols.append(placed[0])
    width = {len(row.strip()) for row in rows}
    if width != {problem.n}:
        return Answer(number, tuple(cols), f"the board is {len(rows)} rows of {sorted(width)} squares, not {problem.n}")
    return Answer(number, tuple(cols))


def _boards(lines: Iterator[tuple[int, str]], problem: Problem) -> Iterator[Answer]:
    rows: list[str] = []
    start = 0
    for number, line in lines:
        text = line.strip()
        if not text:
            if rows:
                yield _board(rows, start, problem)
                rows = []
            continue
        if not set(text) <= PIECE_CHARS | EMPTY_CHARS:
            raise AnswerFormatError(f"line {number}: expected a board row of 'Q' and '.', got {text[:40]!r}")
        if not rows:
            start = number
        rows.append(text)
        if len(rows) == problem.rows:  # boards may also follow one another without a blank line
            yield _board(rows, start, problem)
            rows = []
    if rows:
        yield _board(rows, start, problem)


def _loads(text: str, number: int) -> object:
    """json.loads, with what it cannot take (nesting deeper than the interpreter's stack, an
    integer past Python's 4300-digit conversion limit) said as a format error."""
    try:
        return json.loads(text)
    except RecursionError:
        raise AnswerFormatError(f"line {number}: JSON nested too deeply to be an answer") from None
    except ValueError as exc:
        if isinstance(exc, json.JSONDecodeError):
            raise
        raise AnswerFormatError(f"line {number}: {exc}") from None


#: A JSON document spread over several lines is parsed whole; past this size it is refused
#: (JSON Lines, and a document on one line of flat arrays, are read as they stream).
MAX_JSON_DOCUMENT = 64 << 20

#: Possessive throughout (no quantifier gives back what it took): a line the pattern does not
#: fit fails in one pass, where backtracking over `\s*,?\s*` took quadratic time (50 KB of
#: spaces after `[[0]`: 51 s).
_FLAT_ARRAYS = re.compile(r"\s*+\[\s*+(?:\[[-\d,\s]*+\]\s*+,?+\s*+)*+\]\s*+")
_ARRAY = re.compile(r"\[([-\d,\s]*)\]")


def _json(lines: Iterator[tuple[int, str]], problem: Problem, one_based: bool) -> Iterator[Answer]:
    """JSON answers, held in memory no more than one line at a time where the text allows: JSON
    Lines, or one line holding an array of column arrays (`nqueens solve -f json`); a document
    over several lines is parsed whole, up to MAX_JSON_DOCUMENT."""
    lines = iter(lines)
    number, first = next(lines)
    if first.lstrip().startswith("[[") and not problem.anywhere and _FLAT_ARRAYS.fullmatch(first):
        for k, m in enumerate(_ARRAY.finditer(first, first.index("[") + 1), 1):
            values = [v for v in m.group(1).replace(",", " ").split()]
            if any(len(v) > MAX_DIGITS for v in values):
                yield Answer(number, (), f"a column of more than {MAX_DIGITS} digits", item=k)
            else:  # each array is one solution, an empty one too (invalid: it has no rows)
                yield Answer(number, _shift([int(v) for v in values], one_based), item=k)
        rest = [(k, line) for k, line in lines if line.strip()]
        if rest:
            raise AnswerFormatError(f"line {rest[0][0]}: more text after the array of solutions")
        return
    try:
        doc = _loads(first, number)
    except json.JSONDecodeError:
        doc = None
    if doc is not None:  # JSON Lines: a value per line
        following = ((k, line) for k, line in lines if line.strip())
        after = next(following, None)
        yield from _json_value(doc, number, problem, one_based, alone=after is None)
        for k, line in [] if after is None else _chain([after], following):
            try:
                yield from _json_value(_loads(line, k), k, problem, one_based, alone=False)
            except json.JSONDecodeError as exc:
                raise AnswerFormatError(f"line {k}: not JSON ({exc.msg})") from None
        return
    parts, size = [first], len(first)
    for _, line in lines:
        parts.append(line)
        size += len(line) + 1
        if size > MAX_JSON_DOCUMENT:
            raise AnswerFormatError(
                f"a JSON document over {MAX_JSON_DOCUMENT >> 20} MB spread over lines: write JSON Lines "
                "(a solution per line, as `nqueens solve -f jsonl` does)"
            )
    try:
        doc = _loads("\n".join(parts), number)
    except json.JSONDecodeError as exc:
        raise AnswerFormatError(f"line {number + exc.lineno - 1}: not JSON ({exc.msg})") from None
    yield from _json_value(doc, number, problem, one_based, alone=True)


def _json_value(
    doc: object, number: int, problem: Problem, one_based: bool, item: int | None = None, alone: bool = False
) -> Iterator[Answer]:
    """The answers in one JSON value. An empty array is read by where it stands: the whole of
    the output (`alone`: `[]`, `{"solutions": []}`) is a list of no solutions, a claim that
    there is none; anywhere else (a line of JSON Lines, an item of a list) it is one solution
    of no columns, judged invalid, never dropped."""
    if isinstance(doc, dict) and "solutions" in doc:
        doc = doc["solutions"]
    if problem.anywhere and (isinstance(doc, dict) or _pairs(doc)):
        yield _layout(doc, number, problem, one_based, item)
        return
    if doc == [] and alone:
        yield Answer(number, None, item=item)
    elif doc == []:
        yield Answer(number, (), item=item)
    elif isinstance(doc, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in doc):
        yield Answer(number, _shift(doc, one_based), item=item)
    elif isinstance(doc, list) and all(isinstance(v, str) for v in doc):
        board = _board(doc, number, problem)
        board.item = item
        yield board
    elif isinstance(doc, list) and all(isinstance(v, list) for v in doc):
        for k, value in enumerate(doc, 1):
            yield from _json_value(value, number, problem, one_based, k)
    else:
        raise AnswerFormatError(f"line {number}: JSON that is not solutions: {json.dumps(doc)[:40]}")


def _pairs(doc: object) -> bool:
    """A non-empty list of [row, col] pairs: the squares of one layout's pieces."""
    return isinstance(doc, list) and bool(doc) and all(_pair(v) for v in doc)


def _pair(v: object) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)


def _layout(doc: object, number: int, problem: Problem, one_based: bool, item: int | None) -> Answer:
    """A layout of pieces anywhere: {"pieces": [[r, c], ...], "pawns": [...]}, or the pieces'
    list alone; its squares in any order (`Problem.encode` sorts them)."""
    parts: dict[str, Any] = doc if isinstance(doc, dict) else {"pieces": doc}
    unknown = set(parts) - {"pieces", "pawns"}
    if unknown:
        raise AnswerFormatError(f"line {number}: a layout has pieces and pawns, not {sorted(unknown)[0]!r}")
    squares = [parts.get("pieces", []), parts.get("pawns", [])]
    if not all(isinstance(s, list) and all(_pair(v) for v in s) for s in squares):
        raise AnswerFormatError(f"line {number}: a layout's squares are [row, col] pairs of integers")
    shift = 1 if one_based else 0
    pieces, pawns = ([(int(r) - shift, int(c) - shift) for r, c in s] for s in squares)
    off = [sq for sq in (*pieces, *pawns) if not (0 <= sq[0] < problem.rows and 0 <= sq[1] < problem.n)]
    if off:
        return Answer(number, (), f"square {off[0]} is off the board", item=item)
    return Answer(number, problem.encode(pieces, pawns), item=item)


#: Invalid and repeated answers kept to be shown (the rest are counted): a file of millions of
#: wrong lines is judged in the memory of its distinct valid solutions alone.
KEPT = 20


class SolutionSet:
    """Distinct solutions held compactly: each as the bytes of its columns where the board has
    at most 256 columns (49 bytes for n = 16, against a tuple's 184)."""

    def __init__(self, columns: int) -> None:
        self._packed = columns <= 256
        self._items: set[bytes | Solution] = set()

    def _key(self, sol: Solution) -> bytes | Solution:
        return bytes(sol) if self._packed else tuple(sol)

    def add(self, sol: Solution) -> None:
        self._items.add(self._key(sol))

    def discard(self, sol: Solution) -> None:
        self._items.discard(self._key(sol))

    def __contains__(self, sol: object) -> bool:
        return self._key(sol) in self._items  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Solution]:
        return (tuple(item) for item in self._items)


@dataclass
class Judgement:
    """What a set of answers holds: the distinct valid solutions, the invalid ones with the
    reason and the repeats (the first KEPT of each, and how many), and the lines that claim
    there is no solution."""

    valid: SolutionSet
    invalid: list[tuple[Answer, str]] = field(default_factory=list)
    invalid_count: int = 0
    duplicates: list[Answer] = field(default_factory=list)
    duplicate_count: int = 0
    no_solution_claims: list[int] = field(default_factory=list)
    read: int = 0
    #: The distinct valid solutions (`valid` may be consumed by a comparison).
    distinct: int = 0
    #: Invalid answers that are valid with every column counted from 1.
    one_based_fits: int = 0
    #: SAT models read, and the models of a placement already read that differ from every model
    #: before them only in auxiliary variables: distinct models of the CNF, not repeats.
    models: int = 0
    aux_only_count: int = 0
    #: The usable squares of the board (SAT output numbers them 1.. row by row).
    squares: int = 0

    def hint(self) -> str | None:
        """A word for the user where every invalid answer is valid counted from 1, or where
        every SAT model is invalid as this board numbers its squares."""
        if self.invalid_count and self.one_based_fits == self.invalid_count:
            return "every invalid answer is valid with its columns counted from 1: add --one-based"
        if self.models and self.invalid_count == self.read:
            return (
                f"no model is a valid placement with this board's numbering (its {self.squares} usable squares are "
                "variables 1.. row by row): SAT output for another board (size, blocked squares, fixed pieces) "
                "numbers them otherwise; check it against the board its CNF was exported from"
            )
        return None

    def aux_note(self) -> str | None:
        """What the models that differ only in auxiliary variables are (not an error)."""
        if not self.aux_only_count:
            return None
        return (
            f"{self.aux_only_count:,} models differ from one before them only in auxiliary variables (the CNF's "
            "at-most-one counters): the same placements, not repeats; `nqueens export --to dimacs-pairwise` "
            "writes a CNF whose models are exactly the placements"
        )


def judge(answers: Iterable[Answer], problem: Problem, known: Collection[Solution] = ()) -> Judgement:
    """The answers judged by the problem's validator; an answer in `known` (solutions an oracle
    gave, each checked already) is valid without being validated again."""
    j = Judgement(SolutionSet(problem.rows * problem.n if problem.anywhere else problem.n))
    seen = j.valid
    models: set[int] = set()  # the digests of the valid SAT models read
    for a in answers:
        if a.solution is None:
            if len(j.no_solution_claims) < KEPT:
                j.no_solution_claims.append(a.line)
            continue
        j.read += 1
        j.models += a.model is not None
        why = a.fault or (None if a.solution in known else problem.explain(a.solution))
        if why is not None:
            j.invalid_count += 1
            if a.fault is None and min(a.solution, default=0) >= 1:
                j.one_based_fits += problem.explain(tuple(c - 1 for c in a.solution)) is None
            if len(j.invalid) < KEPT:
                j.invalid.append((a, why))
        elif a.solution in seen and a.model is not None and a.model not in models:
            j.aux_only_count += 1
            models.add(a.model)
        elif a.solution in seen:
            j.duplicate_count += 1
            if len(j.duplicates) < KEPT:
                j.duplicates.append(a)
        else:
            seen.add(a.solution)
            if a.model is not None:
                models.add(a.model)
    j.distinct = len(seen)
    if j.models:  # only for SAT output: the numbering's own count, row starts and not squares
        j.squares = SquareOfVariable(problem).end - 1
    return j


def check(problem: Problem | int, answers: str | Iterable[str], one_based: bool = False) -> Judgement:
    """Another program's solutions judged by the problem's own validator: `answers` is its
    output (the text, or its lines), in any format `nqueens check` reads (SAT v-lines, JSON,
    drawn boards, lists of columns, 0-based unless `one_based`). The judgement holds the
    distinct valid solutions, each invalid one with the reason, the repeats and the claims of
    no solution; whether the set is complete is `verify`'s question."""
    p = as_problem(problem)
    lines = answers.splitlines() if isinstance(answers, str) else answers
    return judge(read_answers(lines, p, one_based), p)
