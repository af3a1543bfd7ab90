"""Instance files: readers for our TOML format, CSPLib prob080 `.param`, ASP facts and plain
text boards, and a `.param` writer. Every reader returns a validated Problem or raises
ModelFileError naming the file and line.

Our own formats are 0-based like the rest of the package; CSPLib `.param` and ASP files keep
their own 1-based convention and are converted here, at the edge.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

from ..model.fields import BY_KEY, FIELDS, SQUARE_FIELDS
from ..model.problem import MAX_N, InvalidProblem, NQueensError, Problem, Square
from ..run.files import read_regular

#: Instance files larger than this are refused before they are read (the largest real ones,
#: the ASP competition's, are a few hundred kilobytes).
MAX_MODEL_BYTES = 64 << 20


class ModelFileError(NQueensError):
    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line else f"{path}"
        super().__init__(f"{where}: {message}")


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _is_int(v: object) -> bool:
    """An integer, and not a boolean (True would otherwise read as 1)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _check_size(path: Path, line: int | None, n: object, what: str = "board size") -> int:
    """The board size (or the rows), checked before anything is built from it."""
    if not _is_int(n):
        raise ModelFileError(path, line, f"the {what} must be an integer, got {n!r}")
    assert isinstance(n, int)
    if not 1 <= n <= MAX_N:
        raise ModelFileError(path, line, f"{what} {n} is out of range 1..{MAX_N}")
    return n


def _check_one_based(path: Path, line: int | None, n: int, entry: object, what: str) -> Square:
    """A 1-based [row, col] entry of an n x n board, as a 0-based square; messages stay 1-based."""
    if not (isinstance(entry, list | tuple) and len(entry) == 2 and all(_is_int(v) for v in entry)):
        raise ModelFileError(path, line, f"{what} entry {entry!r} is not a 1-based [row, col] pair of integers")
    r, c = entry
    if not (1 <= r <= n and 1 <= c <= n):
        raise ModelFileError(path, line, f"{what} entry [{r}, {c}] is off the {n}x{n} board (rows and columns 1..{n})")
    return (r - 1, c - 1)


def _build(path: Path, line_of_key: Callable[[str], int | None], **spec) -> Problem:
    """Build the Problem; a validation error is reported at the line of the key it concerns."""
    try:
        return Problem(**spec)
    except InvalidProblem as exc:
        msg = str(exc)
        key = "n" if msg.startswith("board size") else msg.split(" ", 1)[0]  # "rows ...", "fixed ..."
        raise ModelFileError(path, line_of_key(key), msg) from None


# -- our TOML format ---------------------------------------------------------------------------

_TOML_KEYS = {f.key for f in FIELDS} | {"description"}


def read_toml(path: Path, text: str) -> Problem:
    """`n = 8` (columns), optional `rows = M` (M <= n pieces on an M x n board), `piece` (a name,
    Betza's notation, or a [piece] table), `torus = true|false`, `blocked = [[r, c], ...]`,
    `fixed = [[r, c], ...]` (0-based) and a free-text `description`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = int(m.group(1)) if m else len(text.splitlines())  # "at end of document"
        raise ModelFileError(path, line, f"not valid TOML: {exc}") from None
    except ValueError as exc:  # tomllib's int() past Python's 4300-digit limit
        raise ModelFileError(path, None, f"an integer too large to read ({str(exc).split(':')[0]})") from None
    except RecursionError:  # arrays or tables nested deeper than tomllib's recursion can follow
        raise ModelFileError(path, None, "not a model: values nested too deeply to read") from None

    def line_of_key(key: str) -> int | None:
        m = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", text, re.M)
        return _line_of(text, m.start()) if m else None

    unknown = set(data) - _TOML_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise ModelFileError(path, line_of_key(key), f"unknown key {key!r} (known: {', '.join(sorted(_TOML_KEYS))})")
    if "n" not in data:
        raise ModelFileError(path, None, "missing the board size `n = ...`")
    _check_size(path, line_of_key("n"), data["n"])
    if "rows" in data:
        _check_size(path, line_of_key("rows"), data["rows"], "rows")
    piece: object = data.get("piece", "queen")
    if isinstance(piece, dict):  # a [piece] table: the moves themselves
        extra = set(piece) - {"name", "leapers", "riders", "lines"}
        if extra:
            raise ModelFileError(path, line_of_key("piece"), f"[piece] has unknown key {sorted(extra)[0]!r} "
                                 "(known: leapers, riders, lines, name)")
        try:
            from ..model.pieces import ROOK, Piece

            piece = Piece.of(
                piece.get("leapers", []),
                [list(ROOK), *piece.get("riders", [])],
                piece.get("lines", []),
                str(piece.get("name", "")),
            )
        except (ValueError, TypeError) as exc:
            raise ModelFileError(path, line_of_key("piece"), f"[piece]: {exc}") from None
    elif not isinstance(piece, str):
        raise ModelFileError(path, line_of_key("piece"), f'piece must be a string such as "queen", got {piece!r}')
    torus = data.get("torus", False)
    if not isinstance(torus, bool):
        raise ModelFileError(path, line_of_key("torus"), f"torus must be true or false, got {torus!r}")
    if "description" in data and not isinstance(data["description"], str):
        raise ModelFileError(path, line_of_key("description"), "description must be a string")
    squares = {}
    for f in SQUARE_FIELDS:
        key = f.key
        value = data.get(key, [])
        if not isinstance(value, list):
            raise ModelFileError(path, line_of_key(key), f"{key} must be a list of [row, col] pairs, got {value!r}")
        for sq in value:
            if not (isinstance(sq, list) and len(sq) == 2 and all(_is_int(v) for v in sq)):
                raise ModelFileError(path, line_of_key(key), f"{key} entry {sq!r} is not a [row, col] pair of integers")
        squares[f.name] = [tuple(sq) for sq in value]
    regions = data.get("regions", [])
    if not (isinstance(regions, list) and all(isinstance(row, str) for row in regions)):
        raise ModelFileError(path, line_of_key("regions"), 'regions must be a list of strings, one a row ("AABB")')
    counts = {key: data.get(key, 0) for key in ("pieces", "pawns")}
    for key, value in counts.items():
        if not _is_int(value):
            raise ModelFileError(path, line_of_key(key), f"{key} must be a whole number, got {value!r}")
    return _build(
        path,
        line_of_key,
        n=data["n"],
        rows=data.get("rows"),
        piece=piece,
        torus=torus,
        regions=regions,
        **counts,
        **squares,
    )


def write_toml(problem: Problem, description: str | None = None) -> str:
    """The model file `read_toml` reads back as `problem`: every field (`fields.FIELDS`) that is
    not at its default, the piece always."""
    import json

    lines = [f"# {description}"] if description else []
    for key, value in problem.as_dict().items():
        if key != "piece" and problem.at_default(BY_KEY[key].name):
            continue
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif BY_KEY[key].squares:
            lines.append(f"{key} = [{', '.join(f'[{r}, {c}]' for r, c in value)}]")
        else:
            lines.append(f"{key} = {json.dumps(value)}")  # a TOML string or integer as JSON writes it
    return "\n".join(lines) + "\n"


# -- CSPLib prob080 Essence' parameter files (1-based) ------------------------------------------

_LETTING = re.compile(r"letting\s+(\w+)\s*(?:be\s*|=)\s*", re.I)
_PAIR = re.compile(r"\[[^\[\]]*\]")


def read_param(path: Path, text: str) -> Problem:
    """`letting n = N` and `letting blocks = [[r, c], ...]`, rows and columns from 1. Errors name
    the line of the offending entry, in the file's own 1-based terms."""
    body = re.sub(r"\$.*", "", text)  # Essence comments start with $
    found: dict[str, tuple[object, int, int]] = {}  # name -> (value, start, end of its text)
    starts = list(_LETTING.finditer(body))
    if not starts:
        raise ModelFileError(path, 1, "no `letting NAME = VALUE` statements")
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(body)
        name = m.group(1).lower()
        if name in found:
            first = _line_of(body, found[name][1])
            raise ModelFileError(path, _line_of(body, m.start()), f"{name} is given twice (first on line {first})")
        raw = body[m.end() : end].strip()
        try:
            value = ast.literal_eval(raw) if raw else None
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise ModelFileError(
                path, _line_of(body, m.start()), f"cannot read the value of {m.group(1)}: {raw[:40]!r}"
            ) from None
        found[name] = (value, m.start(), end)
    if "n" not in found:
        raise ModelFileError(path, None, "missing `letting n = N`")
    unknown = set(found) - {"n", "blocks"}
    if unknown:
        name = sorted(unknown)[0]
        raise ModelFileError(path, _line_of(body, found[name][1]), f"unknown parameter {name!r} (expected n, blocks)")
    n = _check_size(path, _line_of(body, found["n"][1]), found["n"][0])
    blocked: list[Square] = []
    if "blocks" in found:
        blocks, start, end = found["blocks"]
        if not isinstance(blocks, list | tuple):
            raise ModelFileError(path, _line_of(body, start), "blocks must be a list of [row, col] pairs")
        # the line of each entry: the k-th innermost [...] within the statement's text
        lines = [_line_of(body, start + m.start()) for m in _PAIR.finditer(body[start:end])]
        for k, entry in enumerate(blocks):
            line = lines[k] if k < len(lines) and len(lines) == len(blocks) else _line_of(body, start)
            blocked.append(_check_one_based(path, line, n, entry, "blocks"))
    return _build(path, lambda key: _line_of(body, found["n"][1]), n=n, blocked=blocked)


def write_param(problem: Problem) -> str:
    blocks = ", ".join(f"[{r + 1}, {c + 1}]" for r, c in problem.blocked)
    return f"letting n = {problem.n}\nletting blocks = [{blocks}]\n"


# -- ASP facts (1-based): num(1). ... num(N). or num(1..N).  block(R, C). ----------------------

_FACT = re.compile(r"\s*(\w+)\s*\(([^)]*)\)\s*\.")


def read_asp(path: Path, text: str) -> Problem:
    """`num(1..N).` or one `num(i).` per i, and `block(r, c).`, 1-based. The board size is
    checked before any range is expanded, and every error names its line."""
    spans: list[tuple[int, int, int]] = []  # (lo, hi, line) of each num fact
    blocks: list[tuple[int, int, int]] = []  # (r, c, line)
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("%", 1)[0]
        pos = 0
        while line[pos:].strip():
            m = _FACT.match(line, pos)
            if not m:
                raise ModelFileError(
                    path, lineno, f"expected a fact like num(1). or block(2, 3). at {line[pos:].strip()[:30]!r}"
                )
            name, args = m.group(1), [a.strip() for a in m.group(2).split(",")]
            pos = m.end()
            try:
                if name == "num" and len(args) == 1:
                    lo, _, hi = args[0].partition("..")
                    spans.append((int(lo), int(hi or lo), lineno))
                elif name == "block" and len(args) == 2:
                    r, c = (int(a) for a in args)
                    blocks.append((r, c, lineno))
                else:
                    raise ModelFileError(path, lineno, f"unknown fact {name}/{len(args)} (expected num/1, block/2)")
            except ValueError:
                raise ModelFileError(path, lineno, f"bad arguments in {m.group(0).strip()!r} (integers)") from None
    if not spans:
        raise ModelFileError(path, None, "no num(i). facts giving the board size")
    for lo, hi, lineno in spans:
        if lo < 1 or hi < lo:
            raise ModelFileError(path, lineno, f"num({lo}..{hi}) is not a range of rows from 1")
        _check_size(path, lineno, hi)
    covered = 0  # the nums must cover 1..n exactly: merge the sorted ranges
    for lo, hi, _ in sorted(spans):
        if lo > covered + 1:
            break
        covered = max(covered, hi)
    n = max(hi for _, hi, _ in spans)
    if covered != n:
        raise ModelFileError(path, None, f"num facts must cover 1..{n} exactly (1..{covered} is covered)")
    blocked = [_check_one_based(path, lineno, n, [r, c], "block") for r, c, lineno in blocks]
    return _build(path, lambda key: None, n=n, blocked=blocked)


# -- plain text boards: '.' free, 'X' blocked, 'Q' fixed ----------------------------------------

#: A comment line that says what the squares cannot: `# piece: RN`, `# torus: true`.
_DIRECTIVE = re.compile(r"#\s*(piece|torus|regions|pieces|pawns)\s*:\s*(\S.*?)\s*$", re.I)


def read_board(path: Path, text: str) -> Problem:
    """One line a row, top to bottom, a character a square (spaces between them are free):
    '.' free, 'X' blocked, 'Q' a pre-placed piece; as many columns as the rows are long, and
    fewer rows than columns for a rectangle. Comment lines `# piece: NAME` and `# torus: true`
    say what the squares cannot; any other text after '#' is a comment."""
    rows: list[tuple[int, str]] = []
    spec: dict[str, object] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        directive = _DIRECTIVE.match(line.strip())
        if directive:
            key, value = directive[1].lower(), directive[2]
            if key == "torus":
                if value.lower() not in ("true", "false"):
                    raise ModelFileError(path, lineno, f"torus must be true or false, got {value!r}")
                spec["torus"] = value.lower() == "true"
            elif key == "regions":  # the map, its rows separated by '/'
                spec["regions"] = value.split("/")
            elif key in ("pieces", "pawns"):
                if not value.isdigit():
                    raise ModelFileError(path, lineno, f"{key} must be a whole number, got {value!r}")
                spec[key] = int(value)
            else:
                spec["piece"] = value
            continue
        line = "".join(line.split("#", 1)[0].split())  # spaces and tabs separate squares
        if line:
            rows.append((lineno, line))
    if not rows:
        raise ModelFileError(path, None, "empty board")
    n = len(rows[0][1])
    _check_size(path, rows[0][0], n)
    by_glyph = {f.glyph.lower(): f.name for f in SQUARE_FIELDS if f.glyph}
    squares: dict[str, list[Square]] = {f.name: [] for f in SQUARE_FIELDS}
    for r, (lineno, line) in enumerate(rows):
        if len(line) != n:
            raise ModelFileError(path, lineno, f"row {r} has {len(line)} squares; the first row has {n}")
        for c, ch in enumerate(line):
            if ch.lower() in by_glyph:
                squares[by_glyph[ch.lower()]].append((r, c))
            elif ch != ".":
                glyphs = " ".join(f.glyph for f in SQUARE_FIELDS if f.glyph)
                raise ModelFileError(path, lineno, f"unexpected {ch!r} at column {c} (use . {glyphs})")
    if len(rows) > n:
        raise ModelFileError(path, rows[n][0], f"{len(rows)} rows of {n} squares: a board has at most as many rows")
    first = rows[0][0]
    return _build(path, lambda key: first, n=n, rows=len(rows), **squares, **spec)


def write_board(problem: Problem) -> str:
    """The instance as `read_board` reads it back: the same problem, piece and torus included.
    A square both blocked and pre-placed is refused: a square of the file holds one of X and Q,
    and writing either one would read back as another problem (`show` wrote Q, dropping the
    block, so the board read back had solutions where the problem has none)."""
    from ..model.drawing import draw

    for i, f in enumerate(SQUARE_FIELDS):
        for g in SQUARE_FIELDS[i + 1 :]:
            both = sorted(set(getattr(problem, f.name)) & set(getattr(problem, g.name)))
            if both:
                raise InvalidProblem(
                    f"square {both[0]} is both {f.said} and {g.said}: a board file holds one of {f.glyph} and "
                    f"{g.glyph} a square (the problem has no solution)"
                )

    lines = [] if problem.piece == "queen" else [f"# piece: {problem.piece}"]
    if problem.torus:
        lines.append("# torus: true")
    if problem.regions:
        lines.append(f"# regions: {'/'.join(problem.regions)}")
    lines += [f"# {name}: {getattr(problem, name)}" for name in ("pieces", "pawns") if getattr(problem, name)]
    return "\n".join([*lines, *draw(problem)]) + "\n"


READERS: dict[str, Callable[[Path, str], Problem]] = {
    ".toml": read_toml,
    ".param": read_param,
    ".lp": read_asp,
    ".asp": read_asp,
    ".txt": read_board,
    ".board": read_board,
}


def read_model(path: str | Path) -> Problem:
    """Read an instance file, choosing the reader by its extension."""
    path = Path(path)
    if path.is_dir():
        raise ModelFileError(path, None, "a folder, not an instance file (compare --model takes folders)")
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise ModelFileError(path, None, f"unknown model file type {path.suffix!r} (known: {', '.join(READERS)})")
    try:
        text = read_regular(path, MAX_MODEL_BYTES).decode("utf-8-sig")  # a byte-order mark is not text
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelFileError(path, None, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    return reader(path, text)
