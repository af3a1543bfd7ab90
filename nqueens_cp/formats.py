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

from .problem import InvalidProblem, NQueensError, Problem, Square


class ModelFileError(NQueensError):
    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line else f"{path}"
        super().__init__(f"{where}: {message}")


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _build(path: Path, line_of_key: Callable[[str], int | None], **spec) -> Problem:
    """Build the Problem; a validation error is reported at the line of the key it concerns."""
    try:
        return Problem(**spec)
    except InvalidProblem as exc:
        msg = str(exc)
        key = "n" if msg.startswith("board size") else msg.split(" ", 1)[0]
        raise ModelFileError(path, line_of_key(key), msg) from None


# -- our TOML format ---------------------------------------------------------------------------

_TOML_KEYS = {"n", "piece", "blocked", "fixed", "torus", "description"}


def read_toml(path: Path, text: str) -> Problem:
    """`n = 8`, optional `piece = "queen"|"rook"|"superqueen"`, `torus = true|false`,
    `blocked = [[r, c], ...]`, `fixed = [[r, c], ...]` (0-based) and a free-text `description`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        line = int(m.group(1)) if m else len(text.splitlines())  # "at end of document"
        raise ModelFileError(path, line, f"not valid TOML: {exc}") from None

    def line_of_key(key: str) -> int | None:
        m = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", text, re.M)
        return _line_of(text, m.start()) if m else None

    unknown = set(data) - _TOML_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise ModelFileError(path, line_of_key(key), f"unknown key {key!r} (known: {', '.join(sorted(_TOML_KEYS))})")
    if "n" not in data:
        raise ModelFileError(path, None, "missing the board size `n = ...`")
    return _build(
        path,
        line_of_key,
        n=data["n"],
        piece=data.get("piece", "queen"),
        blocked=[tuple(sq) if isinstance(sq, list) else sq for sq in data.get("blocked", [])],
        fixed=[tuple(sq) if isinstance(sq, list) else sq for sq in data.get("fixed", [])],
        torus=data.get("torus", False),
    )


def write_toml(problem: Problem, description: str | None = None) -> str:
    lines = [f"# {description}"] if description else []
    lines += [f"n = {problem.n}", f'piece = "{problem.piece}"']
    if problem.torus:
        lines.append("torus = true")
    for key in ("blocked", "fixed"):
        squares = getattr(problem, key)
        if squares:
            lines.append(f"{key} = [{', '.join(f'[{r}, {c}]' for r, c in squares)}]")
    return "\n".join(lines) + "\n"


# -- CSPLib prob080 Essence' parameter files (1-based) ------------------------------------------

_LETTING = re.compile(r"letting\s+(\w+)\s*(?:be\s*|=)\s*", re.I)


def _one_based(path: Path, text: str, offset: int, pairs: object, what: str) -> list[Square]:
    """1-based [row, col] pairs to 0-based squares (0 or a negative value is an error)."""
    if not isinstance(pairs, list | tuple):
        raise ModelFileError(path, _line_of(text, offset), f"{what} must be a list of [row, col] pairs")
    out = []
    for p in pairs:
        if not isinstance(p, list | tuple) or len(p) != 2 or not all(isinstance(v, int) and v >= 1 for v in p):
            raise ModelFileError(path, _line_of(text, offset), f"{what} entry {p!r} is not a 1-based [row, col]")
        out.append((p[0] - 1, p[1] - 1))
    return out


def read_param(path: Path, text: str) -> Problem:
    """`letting n = N` and `letting blocks = [[r, c], ...]`, rows and columns from 1."""
    body = re.sub(r"\$.*", "", text)  # Essence comments start with $
    found: dict[str, tuple[object, int]] = {}
    starts = list(_LETTING.finditer(body))
    if not starts:
        raise ModelFileError(path, 1, "no `letting NAME = VALUE` statements")
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(body)
        raw = body[m.end() : end].strip()
        try:
            value = ast.literal_eval(raw) if raw else None
        except (ValueError, SyntaxError):
            raise ModelFileError(
                path, _line_of(body, m.start()), f"cannot read the value of {m.group(1)}: {raw[:40]!r}"
            ) from None
        found[m.group(1).lower()] = (value, m.start())
    if "n" not in found:
        raise ModelFileError(path, None, "missing `letting n = N`")
    unknown = set(found) - {"n", "blocks"}
    if unknown:
        name = sorted(unknown)[0]
        raise ModelFileError(path, _line_of(body, found[name][1]), f"unknown parameter {name!r} (expected n, blocks)")
    blocks, offset = found.get("blocks", ([], 0))
    return _build(
        path,
        lambda key: _line_of(body, found.get("blocks" if key == "blocked" else "n", (None, 0))[1]),
        n=found["n"][0],
        blocked=_one_based(path, body, offset, blocks, "blocks"),
    )


def write_param(problem: Problem) -> str:
    blocks = ", ".join(f"[{r + 1}, {c + 1}]" for r, c in problem.blocked)
    return f"letting n = {problem.n}\nletting blocks = [{blocks}]\n"


# -- ASP facts (1-based): num(1). ... num(N). or num(1..N).  block(R, C). ----------------------

_FACT = re.compile(r"\s*(\w+)\s*\(([^)]*)\)\s*\.")


def read_asp(path: Path, text: str) -> Problem:
    nums: set[int] = set()
    blocks: list[list[int]] = []
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
                    nums.update(range(int(lo), int(hi or lo) + 1))
                elif name == "block" and len(args) == 2:
                    r, c = (int(a) for a in args)
                    if r < 1 or c < 1:
                        raise ValueError
                    blocks.append([r, c])
                else:
                    raise ModelFileError(path, lineno, f"unknown fact {name}/{len(args)} (expected num/1, block/2)")
            except ValueError:
                raise ModelFileError(
                    path, lineno, f"bad arguments in {m.group(0).strip()!r} (1-based integers)"
                ) from None
    if not nums:
        raise ModelFileError(path, None, "no num(i). facts giving the board size")
    n = max(nums)
    if nums != set(range(1, n + 1)):
        raise ModelFileError(path, None, f"num facts must cover 1..{n} exactly")
    return _build(path, lambda key: None, n=n, blocked=[(r - 1, c - 1) for r, c in blocks])


# -- plain text boards: '.' free, 'X' blocked, 'Q' fixed ----------------------------------------


def read_board(path: Path, text: str) -> Problem:
    rows: list[tuple[int, str]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].replace(" ", "").strip()
        if line:
            rows.append((lineno, line))
    if not rows:
        raise ModelFileError(path, None, "empty board")
    n = len(rows)
    blocked, fixed = [], []
    for r, (lineno, line) in enumerate(rows):
        if len(line) != n:
            raise ModelFileError(path, lineno, f"row {r} has {len(line)} squares; a {n}-row board needs {n}")
        for c, ch in enumerate(line):
            if ch in "Xx":
                blocked.append((r, c))
            elif ch in "Qq":
                fixed.append((r, c))
            elif ch != ".":
                raise ModelFileError(path, lineno, f"unexpected {ch!r} at column {c} (use . X Q)")
    return _build(path, lambda key: None, n=n, blocked=blocked, fixed=fixed)


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
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise ModelFileError(path, None, f"unknown model file type {path.suffix!r} (known: {', '.join(READERS)})")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelFileError(path, None, f"cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    return reader(path, text)
