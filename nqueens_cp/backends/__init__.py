"""The backends, looked up by name.

Each backend lives in its own module, imported only when asked for, so `nqueens count 8` on the
bitmask backend never pays for importing OR-tools. Adding a backend is one new module (copy
`constraint.py`, the smallest) plus one line in `_REGISTRY`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .base import (
    Backend,
    BackendError,
    Outcome,
    Status,
    TimeLimitReached,
    UnsupportedProblem,
)

_REGISTRY: dict[str, str] = {
    "bitmask": "bitmask:BitmaskBackend",
    "cpsat": "cpsat:CpSatBackend",
    "constraint": "constraint:ConstraintBackend",
}

BACKENDS: tuple[str, ...] = tuple(_REGISTRY)


def backend_class(name: str) -> type[Backend]:
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise BackendError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})") from None
    module, cls = target.split(":")
    return getattr(import_module(f"{__name__}.{module}"), cls)


def get_backend(name: str | Backend, **options: Any) -> Backend:
    """A backend instance by name (options such as workers or time_limit go to it)."""
    if isinstance(name, Backend):
        if options:
            raise BackendError("options go with a backend name, not an instance")
        return name
    return backend_class(name)(**options)


__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "Outcome",
    "Status",
    "TimeLimitReached",
    "UnsupportedProblem",
    "backend_class",
    "get_backend",
]
