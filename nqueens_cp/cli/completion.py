"""Shell completion with values (`nqueens --install-completion`, Typer's): `-b/--backend` and
`--backends` complete the registry's names and, after `NAME:`, that backend's sub-solvers;
`--piece` the named pieces; `export --to` the formats; `report --to` its own.

Completing loads no solver: the backends' names and formats come from their declarations, and
the sub-solvers from the list `nqueens backends` last saw on this machine (kept in the user's
cache folder; listing them asks each solver package, which completing must not do).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from ..backends import BACKENDS
from ..model.pieces import NAMES
from ..run.compiled import cache_dir
from ..run.files import replacing


def _subsolvers_file() -> str:
    return os.path.join(os.path.dirname(cache_dir()), "subsolvers.json")


def remember_subsolvers(found: dict[str, list[str]]) -> None:
    """Keep each backend's sub-solvers for completion (called by `nqueens backends`)."""
    path = Path(_subsolvers_file())
    with contextlib.suppress(OSError):  # a read-only home: completion goes without the sub-solvers
        path.parent.mkdir(parents=True, exist_ok=True)
        with replacing(path) as (out, _):
            out.write(json.dumps(found).encode())


def _subsolvers() -> dict[str, list[str]]:
    """The sub-solvers `nqueens backends` kept, each backend's a list of names; whatever else
    the file holds (another version's layout, an edit, `{"sat": null}`) is left out."""
    try:
        with open(_subsolvers_file()) as f:
            found = json.load(f)
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {
        name: names
        for name, names in found.items()
        if isinstance(names, list) and all(isinstance(s, str) for s in names)
    }


def _matching(words: Iterable[str], incomplete: str) -> list[str]:
    return [w for w in words if w.startswith(incomplete)]


def backend(incomplete: str) -> list[str]:
    """A backend's name, or NAME:SOLVER once the colon is typed."""
    name, colon, _ = incomplete.partition(":")
    if colon:
        return _matching((f"{name}:{s}" for s in _subsolvers().get(name, [])), incomplete)
    return _matching(BACKENDS, incomplete)


def backends(incomplete: str) -> list[str]:
    """The last name of a comma-separated list, completed as `backend` completes one."""
    done, comma, last = incomplete.rpartition(",")
    return [done + comma + word for word in backend(last)]


def among(words: Iterable[str]) -> Callable[[str], list[str]]:
    """A completion of one of `words` (an option's fixed values)."""
    return lambda incomplete: _matching(words, incomplete)


def piece(incomplete: str) -> list[str]:
    return _matching(sorted(NAMES), incomplete.lower())


def export_format(incomplete: str) -> list[str]:
    from ..export import formats

    return _matching(formats(), incomplete)
