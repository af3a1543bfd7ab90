"""What is installed: `nqueens --version`, and `nqueens backends` (every backend with its
sub-solvers and their versions, what to install for those missing, and where our engine's
compiled kernels are cached). Versions are read from package metadata where it says them;
listing a backend's sub-solvers asks its solver package (which `backends` loads, and
`--version` does not); neither loads numba."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from .. import version_line
from ..backends import installed, installed_record
from .app import app
from .completion import remember_subsolvers
from .output import echo

JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON record (format nqueens_cp.backends/2).")]


def _say_version(value: bool) -> None:
    if value:
        echo(version_line())
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_say_version, is_eager=True, help="The version of nqueens_cp, and exit."),
    ] = False,
) -> None:
    """Solve and cross-check the n-queens family of puzzles."""


@app.command("backends")
def backends_command(as_json: JsonOpt = False) -> None:
    """Every backend: its version and sub-solvers here, or what to install."""
    found = installed()
    remember_subsolvers({b.name: sorted(b.subsolvers) for b in found if b.subsolvers})  # (for completion)
    if as_json:
        echo(json.dumps(installed_record(found)))
        return
    lines = [version_line()]
    for b in found:
        if b.missing is not None:
            lines.append(f"{b.name:<11} not installed: {b.missing}")
            continue
        lines.append(f"{b.name:<11} {b.version or '(version unknown)'}")
        if b.subsolvers:
            by_version: dict[str, list[str]] = {}
            for name, version in sorted(b.subsolvers.items()):
                by_version.setdefault(version, []).append(name)
            listed = "; ".join(f"{', '.join(names)}" + (f" {v}" if v else "") for v, names in by_version.items())
            lines.append(f"{'':<11} sub-solvers (-b {b.name}:NAME; default {b.default_subsolver}): {listed}")
        if b.formulations:
            said = ", ".join(f"{f} (default)" if i == 0 else f for i, f in enumerate(b.formulations))
            lines.append(f"{'':<11} formulations (--formulation): {said}")
        lines += [f"{'':<11} {key}: {text}" for key, text in b.state.items()]
    echo("\n".join(lines))
