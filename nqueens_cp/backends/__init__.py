"""The backends, looked up by name.

Each backend is a module (or package) `nqueens_cp.backends.NAME` that exports its class as
`BACKEND`; the class takes its name from that module, so a name is written once, here. Modules
are imported only when asked for, so a bitmask run never pays for importing OR-tools. To add a
backend: copy `template.py` (a working backend, kept out of the registry), replace its search
with the solver's (and `count`/`first` where it can do better), declare its capabilities, and
add its name below.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .base import (
    Backend,
    BackendError,
    Capabilities,
    ClassCount,
    Outcome,
    Plan,
    Reason,
    Stats,
    Status,
    Task,
    TimeLimitReached,
    Unknown,
    UnsupportedProblem,
    WrongAnswer,
    counted,
)

BACKENDS: tuple[str, ...] = ("bitmask", "cpsat", "constraint", "sat", "minizinc", "clingo", "cpmpy")

#: The backend used when none is named: our own engine.
DEFAULT_BACKEND = BACKENDS[0]


def split_name(name: str) -> tuple[str, str | None]:
    """`NAME:SOLVER` as (NAME, SOLVER); a plain NAME as (NAME, None)."""
    base, colon, solver = name.partition(":")
    return base, solver if colon else None


def backend_class(name: str) -> type[Backend]:
    """The class of backend `name`, or of NAME in `NAME:SOLVER` (a backend that takes a
    sub-solver: `sat:glucose4`, `minizinc:chuffed`, `cpmpy:choco`)."""
    base, solver = split_name(name)
    if base not in BACKENDS:
        raise BackendError(f"unknown backend {base!r} (known: {', '.join(BACKENDS)})")
    cls = import_module(f"{__name__}.{base}").BACKEND
    if solver is not None and cls.capabilities.subsolver is None:
        raise BackendError(f"backend {base!r} runs one solver: {name!r} names another")
    if solver == "":
        raise BackendError(f"{name!r} names no solver after the colon")
    return cls


def available_backends() -> list[str]:
    """The backends this machine can run (an optional package may be missing), in BACKENDS order."""
    return [name for name in BACKENDS if backend_class(name).missing() is None]


def options_for(name: str, given: dict[str, Any]) -> dict[str, Any]:
    """The options in `given` that backend `name` declares: a run of several backends (verify,
    compare) gives each the options that are its own (`--sat-solver` to sat alone)."""
    names = backend_class(name).capabilities.names
    return {k: v for k, v in given.items() if k in names}


def get_backend(name: str | Backend, **options: Any) -> Backend:
    """A backend instance by name (options such as workers or time_limit go to it)."""
    if isinstance(name, Backend):
        if options:
            raise BackendError("options go with a backend name, not an instance")
        return name
    cls = backend_class(name)
    _, solver = split_name(name)
    if solver is not None:
        key = cls.capabilities.subsolver
        assert key is not None
        given = options.get(key)
        if given is not None and given != solver:
            raise BackendError(f"-b {name} and {key.replace('_', '-')} {given!r} name two solvers")
        options = {**options, key: solver}
    return cls(**options)


def oracle_backend(**options: Any) -> Backend:
    """The backend whose capabilities say `oracle` (our engine), with `options`."""
    (name,) = [name for name in BACKENDS if backend_class(name).capabilities.oracle]
    return get_backend(name, **options)


__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "Backend",
    "BackendError",
    "Capabilities",
    "ClassCount",
    "Outcome",
    "Plan",
    "Reason",
    "Stats",
    "Status",
    "Task",
    "TimeLimitReached",
    "Unknown",
    "UnsupportedProblem",
    "WrongAnswer",
    "available_backends",
    "backend_class",
    "counted",
    "get_backend",
    "options_for",
    "oracle_backend",
    "split_name",
]
