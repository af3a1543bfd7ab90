"""Model export, so that any solver can be run on the puzzle: DIMACS CNF (the sat backend's
encoding), the CP-SAT model (the cpsat backend's, protobuf text) and a MiniZinc model with its
data file. A format written from a backend's own model is found by what the backend declares
(`capabilities.exports`), never by its name."""

from __future__ import annotations

from typing import TextIO

from .backends import BACKENDS, backend_class, formulation_of, get_backend
from .io.minizinc import data_text, model_text, squares_data_text
from .model.problem import NQueensError, Problem

#: The format written here rather than from a backend's own model.
MINIZINC = "mzn"


def formats() -> tuple[str, ...]:
    """Every format: the backends' own (`capabilities.exports`: dimacs, cpsat) and MiniZinc."""
    return (*sorted(f for name in BACKENDS for f in backend_class(name).capabilities.exports), MINIZINC)


def check_format(fmt: str) -> None:
    if fmt not in formats():
        raise NQueensError(f"--to must be one of {', '.join(formats())}, not {fmt!r}")


def export(problem: Problem, fmt: str, out: TextIO, data: TextIO | None = None) -> None:
    """Write `problem` in `fmt` to `out`; for MiniZinc the model goes to `out` and the data
    file to `data`."""
    check_format(fmt)
    if fmt == MINIZINC:
        if data is None:
            raise NQueensError("a MiniZinc export is two files: the model and its data")
        formulation = formulation_of({}, problem)  # (a region map takes the squares)
        out.write(model_text(formulation))
        data.write(squares_data_text(problem) if formulation == "squares" else data_text(problem))
        return
    for name in BACKENDS:
        if fmt in backend_class(name).capabilities.exports:
            get_backend(name).export(problem, fmt, out)
            return
    raise NQueensError(f"no backend writes {fmt!r}")  # pragma: no cover - formats() lists only those written
