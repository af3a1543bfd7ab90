"""The backends, looked up by name.

Each backend is a module (or package) `nqueens_cp.backends.NAME` that exports its class as
`BACKEND`; the class takes its name from that module, so a name is written once, here. Modules
are imported only when asked for, so a bitmask run never pays for importing OR-tools. To add a
backend: copy `template.py` (a working backend, kept out of the registry), replace its search
with the solver's (and `count`/`first` where it can do better), declare its capabilities, and
add its name below.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from ..model.problem import Rule
from . import base as base_module
from .base import (
    Backend,
    BackendError,
    Capabilities,
    ClassCount,
    Optimality,
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
from .formulations import FORMULATION, FORMULATIONS, formulation_of

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


def answering(task: Task) -> list[str]:
    """The registered backends that declare `task` (what a refusal of it names)."""
    return [name for name in BACKENDS if task in backend_class(name).capabilities.tasks]


def modelling(rules: frozenset[Rule]) -> list[str]:
    """The registered backends that declare every one of `rules` (what a refusal names)."""
    return [name for name in BACKENDS if rules <= backend_class(name).capabilities.rules]


def counting_classes() -> list[str]:
    """The registered backends that count an optimisation's optimal placements by class."""
    return [name for name in BACKENDS if backend_class(name).capabilities.optimum_classes]


base_module.answering = answering
base_module.modelling = modelling
base_module.counting_classes = counting_classes


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


@dataclass(frozen=True, kw_only=True)
class Installed:
    """What this machine has of one backend, as `nqueens backends` lists it: its version (None:
    not installed, and `missing` says what to install, with the command), the sub-solvers it
    runs here with their versions, the one run by default, and what else the backend says of
    itself here (`Backend.state`: where our engine's compiled kernels are cached)."""

    name: str
    version: str | None
    missing: str | None
    subsolvers: dict[str, str]
    default_subsolver: str | None
    state: dict[str, str]
    #: The formulations it compiles (`--formulation`), the default first; none where it has a
    #: model of its own (our engine, python-constraint).
    formulations: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "installed": self.missing is None,
            "version": self.version,
            "missing": self.missing,
            "subsolvers": [{"name": k, "version": v or None} for k, v in sorted(self.subsolvers.items())],
            "default_subsolver": self.default_subsolver,
            "state": self.state,
            "formulations": list(self.formulations),
        }


def installed() -> list[Installed]:
    """Every backend, in BACKENDS order, with what this machine has of it (`Installed`)."""
    found = []
    for name in BACKENDS:
        cls = backend_class(name)
        missing = cls.missing()
        here = missing is None
        found.append(
            Installed(
                name=name,
                version=cls.version() if here else None,
                missing=missing,
                subsolvers=cls.subsolvers() if here else {},
                default_subsolver=cls.default_subsolver() if here else None,
                state=cls.state() if here else {},
                formulations=FORMULATIONS if FORMULATION in cls.capabilities.options else (),
            )
        )
    return found


def installed_record(found: list[Installed] | None = None) -> dict[str, Any]:
    """`nqueens backends --json`: this package's version and every backend (`Installed`)."""
    from .base import package_version

    found = installed() if found is None else found
    return {
        "format": "nqueens_cp.backends/2",
        "nqueens_cp": (package_version("nqueens_cp") or "").removeprefix("nqueens_cp "),
        "backends": [b.as_dict() for b in found],
    }


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
    "Optimality",
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
    "formulation_of",
    "get_backend",
    "installed",
    "installed_record",
    "options_for",
    "oracle_backend",
    "split_name",
]
