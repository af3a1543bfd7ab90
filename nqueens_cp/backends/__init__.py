"""The backends, looked up by name.

Each backend is a module (or package) `nqueens_cp.backends.NAME` that exports its class as
`BACKEND`; the class takes its name from that module, so a name is written once, here. Modules
are imported only when asked for, so a bitmask run never pays for importing OR-tools. To add a
backend: copy `constraint.py` (the smallest), implement `solutions` (and `count`/`first` where it
can do better), declare its capabilities, and add its name below.
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

BACKENDS: tuple[str, ...] = ("bitmask", "cpsat", "constraint", "sat", "minizinc", "clingo")

#: The backend used when none is named: our own engine.
DEFAULT_BACKEND = BACKENDS[0]


def backend_class(name: str) -> type[Backend]:
    if name not in BACKENDS:
        raise BackendError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    return import_module(f"{__name__}.{name}").BACKEND


def available_backends() -> list[str]:
    """The backends this machine can run (an optional package may be missing), in BACKENDS order."""
    return [name for name in BACKENDS if backend_class(name).missing() is None]


def get_backend(name: str | Backend, **options: Any) -> Backend:
    """A backend instance by name (options such as workers or time_limit go to it)."""
    if isinstance(name, Backend):
        if options:
            raise BackendError("options go with a backend name, not an instance")
        return name
    return backend_class(name)(**options)


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
]
