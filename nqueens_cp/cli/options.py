"""The options commands share, declared once, and what turns them into a Problem.

A command that takes a puzzle declares one parameter `spec: ProblemSpec` and is wrapped by
`problem_options`: the wrapper puts the problem options (`--piece`, `--torus`, `--rows`,
`--model`, and a flag for each set of squares the table of fields declares: `--block`, `--fix`)
in its place, so every command spells and documents them the same way, and the command builds
its Problem with `spec.problem(n)`.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

import typer

from ..backends import BACKENDS
from ..backends.base import Option
from ..model.fields import SQUARE_FIELDS, Field
from ..model.problem import Problem
from . import completion
from .app import UserError

NArg = Annotated[str | None, typer.Argument(metavar="N", help="Board size (may be omitted with --model).")]
PieceOpt = Annotated[
    str | None,
    typer.Option(
        "--piece",
        autocompletion=completion.piece,
        help="queen, rook, superqueen (queen + knight), amazon, empress, or Betza's notation: "
        "RN (rook + knight), RF, RNN (rook + nightrider), QNN... Default: the model file's, else queen.",
    ),
]
TorusOpt = Annotated[
    bool | None,
    typer.Option(
        "--torus/--no-torus", help="The board wraps around (diagonals continue). Default: the model file's, else not."
    ),
]
RowsOpt = Annotated[
    str | None,
    typer.Option(
        "--rows",
        metavar="M",
        help="A rectangular board: M pieces on M rows of N columns (M <= N). count takes a range A..B: a count each.",
    ),
]
PiecesOpt = Annotated[
    str | None,
    typer.Option(
        "--pieces",
        metavar="K",
        help="K pieces on any free squares (no one-a-row rule): K queens on a board, or n+k with --pawns k. "
        "count takes a range A..B (from 1): a count each.",
    ),
]
PawnsOpt = Annotated[
    int | None,
    typer.Option(
        "--pawns", metavar="K", help="K pawns placed by the search with the pieces: each stops the lines through it."
    ),
]


def _squares_option(f: Field) -> Any:
    """A set of squares' repeatable flag (`Field.flag`), as the table of fields declares it."""
    assert f.flag is not None
    return Annotated[list[str] | None, typer.Option(f.flag, metavar="R,C", help=f.flag_help)]


#: The sets of squares the command line adds to, each by its flag, and the parameter it parses into.
SQUARE_FLAGS = {f.flag.lstrip("-").replace("-", "_"): f for f in SQUARE_FIELDS if f.flag}
ModelOpt = Annotated[
    Path | None, typer.Option("--model", help="Instance file: .toml, .param (CSPLib), .lp (ASP), .txt board.")
]
BackendOpt = Annotated[
    str, typer.Option("--backend", "-b", autocompletion=completion.backend, help=f"One of {', '.join(BACKENDS)}.")
]
TimeOpt = Annotated[
    float | None, typer.Option("--time-limit", help="Seconds; reaching it ends with exit 3 (answer unknown).")
]
WorkersOpt = Annotated[int | None, typer.Option("--workers", help="Processes (bitmask count) or CP-SAT workers.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON record (same as --format json).")]
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Say on stderr which algorithm runs and why.")]
OneBasedOpt = Annotated[bool, typer.Option("--one-based", help="Columns are counted from 1.")]


def backends_option(help: str) -> Any:
    """The `--backends A,B` option, completed as a list of backend names, with its command's help."""
    return Annotated[str | None, typer.Option("--backends", autocompletion=completion.backends, help=help)]


@dataclass(frozen=True)
class ProblemSpec:
    """The problem options as given on the command line; None where an option was not given
    (no default value stands for "not given": `--piece queen` overrides a model file's rooks)."""

    piece: str | None = None
    model: Path | None = None
    torus: bool | None = None
    #: --rows and --pieces as given: a number, or (count's tables) a range A..B.
    rows: int | str | None = None
    pieces: int | str | None = None
    pawns: int | None = None
    #: The squares given by each set's flag (`SQUARE_FLAGS`), by its parameter's name.
    squares: dict[str, list[str]] = field(default_factory=dict)

    def problem(self, n: str | None) -> Problem:
        """The problem from N and the options, or from a model file that the options add to
        (the squares' flags: --block, --fix, --wall) or override (--piece, --torus, --rows,
        --pieces, --pawns: whatever value is given); every other field of the model's is kept
        as it is."""
        given = {
            f.name: [square(text, f.flag or f.key) for text in self.squares.get(param) or []]
            for param, f in SQUARE_FLAGS.items()
        }
        rows, pieces = _number(self.rows, "--rows"), _number(self.pieces, "--pieces")
        if pieces == 0:  # (the problem's pieces = 0 is the one-a-row rule: it would be taken silently)
            raise UserError("--pieces 0 places no piece (the empty board: one way); leave it out for one piece a row")
        if self.model is not None:
            from ..io.formats import read_model

            base = read_model(self.model)
            if n is not None and size(n) != base.n:
                raise UserError(f"N = {n} differs from the model's n = {base.n}")
            changed: dict[str, Any] = {name: (*getattr(base, name), *sq) for name, sq in given.items()}
            overrides = {"piece": self.piece, "torus": self.torus, "rows": rows}
            overrides |= {"pieces": pieces, "pawns": self.pawns}
            changed |= {k: v for k, v in overrides.items() if v is not None}
            return replace(base, **changed)
        if n is None:
            raise UserError("give the board size N or --model FILE")
        piece = "queen" if self.piece is None else self.piece
        counts = {"pieces": pieces or 0, "pawns": self.pawns or 0}
        return Problem(size(n), piece, torus=bool(self.torus), rows=rows, **counts, **given)

    def varying(self) -> tuple[str, range] | None:
        """The field a range of --rows or --pieces varies, and its values (count's tables), or
        None where both are single numbers."""
        ranges = [(key, text) for key, text in (("rows", self.rows), ("pieces", self.pieces)) if _ranged(text)]
        if len(ranges) > 1:
            raise UserError("a table varies one thing: give a range of --rows or of --pieces, not both")
        if not ranges:
            return None
        key, text = ranges[0]
        values = size_range(str(text), f"--{key}")
        if values.start < 1:
            said = "the empty board's one way" if key == "pieces" else "no board"
            raise UserError(f"a range of --{key} starts at 1 ({key} 0 is {said}), got {text!r}")
        return key, values


def _ranged(value: int | str | None) -> bool:
    return isinstance(value, str) and ".." in value


def _number(value: int | str | None, flag: str) -> int | None:
    """--rows or --pieces as one number; a range is count's, which builds a problem for each."""
    if value is None or isinstance(value, int):
        return value
    if _ranged(value):
        raise UserError(f"{flag} {value}: a range A..B is count's (a count for each), or one range at a time")
    if not re.fullmatch(r"\s*\d{1,18}\s*", value):
        raise UserError(f"{flag} expects a whole number, got {value[:40]!r}")
    return int(value)


#: The default of a command's `spec` parameter, which `problem_options` replaces.
PROBLEM = ProblemSpec()


def _param(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


_PROBLEM_PARAMETERS = (
    _param("piece", PieceOpt, None),
    *(_param(param, _squares_option(f), None) for param, f in SQUARE_FLAGS.items()),
    _param("model", ModelOpt, None),
    _param("torus", TorusOpt, None),
    _param("rows", RowsOpt, None),
    _param("pieces", PiecesOpt, None),
    _param("pawns", PawnsOpt, None),
)


def _spec(values: dict[str, Any]) -> ProblemSpec:
    squares = {param: values.pop(param) for param in SQUARE_FLAGS}
    return ProblemSpec(**values, squares=squares)


def _in_place_of(
    name: str, parameters: tuple[inspect.Parameter, ...], collect: Callable[[dict[str, Any]], Any]
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A decorator that puts `parameters` in place of the command's parameter `name` (for typer
    to parse) and hands the command `collect(values given to them)` as that parameter."""

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        spliced: list[inspect.Parameter] = []
        for p in signature.parameters.values():
            if p.name == name:
                spliced += parameters
            else:
                spliced.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))
        names = [p.name for p in parameters]

        @functools.wraps(command)
        def run(**given: Any) -> None:
            return command(**{name: collect({k: given.pop(k) for k in names})}, **given)

        run.__signature__ = signature.replace(parameters=spliced)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in spliced} | {"return": None}
        return run

    return decorate


def problem_options(command: Callable[..., None]) -> Callable[..., None]:
    """The command with the problem options in place of its `spec` parameter (see the module)."""
    return _in_place_of("spec", _PROBLEM_PARAMETERS, _spec)(command)


#: The default of a command's `solver` parameter, which `backend_options` replaces: the options
#: given, by keyword, for the backends to take (each refuses those it cannot honour).
SOLVER_OPTIONS: dict[str, Any] = {}


def declared_options(tasks: Iterable[str] = ()) -> list[Option]:
    """The options with a flag that the registered backends declare, once per keyword, that
    apply to one of `tasks` (to any task when none are named)."""
    from ..backends import backend_class

    wanted = set(tasks)
    found: dict[str, Option] = {}
    for name in BACKENDS:
        for option in backend_class(name).capabilities.options:
            if option.flag is None or option.name in found:
                continue
            if wanted and option.tasks is not None and not wanted & set(option.tasks):
                continue
            found[option.name] = option
    return list(found.values())


#: A backend option's parameter is named apart from the command's own (verify has a --seed).
_PREFIX = "backend_option_"


def _typer_parameter(option: Option) -> inspect.Parameter:
    name = _PREFIX + option.name
    if option.kind is bool:
        return _param(name, Annotated[bool, typer.Option(option.flag, help=option.help)], False)
    extra: dict[str, Any] = {"metavar": option.metavar} if option.metavar else {}
    if option.parse is not None:
        parse = option.parse

        def parser(text: str) -> Any:
            try:
                return parse(text)
            except ValueError as exc:
                raise typer.BadParameter(str(exc)) from None

        extra["parser"] = parser
    kind = Annotated[option.kind | None, typer.Option(option.flag, help=option.help, **extra)]  # type: ignore[operator]
    return _param(name, kind, None)


def backend_options(*tasks: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The command with a flag for each option the backends declare (`declared_options`) in
    place of its `solver` parameter, which receives those given: a new backend option is
    declared once, in its backend, and every command that runs backends offers it."""
    parameters = tuple(_typer_parameter(o) for o in declared_options(tasks))
    return _in_place_of("solver", parameters, _given)


def refuse_untaken(given: dict[str, Any], names: Iterable[str], task: str | None = None) -> None:
    """A backend option that no backend of a run of several takes (for the run's `task`, where
    one is named) is refused in one line: `verify --mzn-solver chuffed --backends bitmask,sat`
    dropped it silently."""
    from ..backends import backend_class

    names = list(names)
    for key in given:
        takes = [
            n
            for n in names
            for o in backend_class(n).capabilities.options
            if o.name == key and (task is None or o.tasks is None or task in o.tasks)
        ]
        if not takes:
            flag = next((o.flag for o in declared_options() if o.name == key), key)
            where = f" with --task {task}" if task else ""
            raise UserError(f"{flag} applies to no backend of this run{where} ({', '.join(names)})")


def _given(values: dict[str, Any]) -> dict[str, Any]:
    return {k.removeprefix(_PREFIX): v for k, v in values.items() if v is not None and v is not False}


def square(text: str, flag: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(-?\d{1,18})\s*,\s*(-?\d{1,18})\s*", text)
    if not m:
        raise UserError(f"{flag} expects R,C (0-based integers), got {text[:40]!r}")
    return int(m.group(1)), int(m.group(2))


def size(text: str) -> int:
    if not re.fullmatch(r"\s*[+-]?\d{1,18}\s*", text):
        raise UserError(f"N must be an integer (at most 18 digits), got {text[:40]!r}")
    return int(text)


#: The most board sizes one range may name: each becomes a run, checked before the first starts.
MAX_SIZES = 10_000


def size_range(text: str, what: str = "--n") -> range:
    m = re.fullmatch(r"\s*(\d{1,18})\s*(?:(?:\.\.|-)\s*(\d{1,18})\s*)?", text)
    if not m:
        raise UserError(f"{what} expects N or A..B, got {text!r}")
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if lo > hi:
        raise UserError(f"{what} range {text!r} is empty")
    if hi - lo + 1 > MAX_SIZES:
        raise UserError(f"the range {text!r} names {hi - lo + 1} sizes; at most {MAX_SIZES} go in one run")
    return range(lo, hi + 1)


def int_list(text: str, flag: str) -> list[int]:
    words = [v.strip() for v in text.split(",") if v.strip()]
    if not all(re.fullmatch(r"[+-]?\d{1,18}", v) for v in words):
        raise UserError(f"{flag} expects integers (at most 18 digits) separated by commas, got {text[:40]!r}")
    values = [int(v) for v in words]
    if not values:
        raise UserError(f"{flag} is empty")
    return values


def backend_names(text: str | None) -> list[str] | None:
    """`--backends a,b` as a list (None when not given); an unknown name is refused before any work."""
    if text is None:
        return None
    from ..backends import backend_class

    names = [b.strip() for b in text.split(",") if b.strip()]
    for name in names:
        backend_class(name)
    return names
