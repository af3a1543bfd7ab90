"""Shell completion with values: backends and their sub-solvers, pieces, export formats,
completed by the real protocol bash uses (Typer's), loading no solver and no compiled kernel."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from nqueens_cp.backends import BACKENDS
from nqueens_cp.export import formats
from nqueens_cp.model.pieces import NAMES
from tests.conftest import script

HEAVY = ("numba", "ortools", "pysat", "cpmpy", "clingo", "constraint", "distributed", "minizinc")


def _complete(words: str, env: dict[str, str] | None = None) -> tuple[list[str], set[str]]:
    """(the candidates bash would offer for the last word of `words`, the heavy modules loaded)."""
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    code = "import sys; sys.argv[0] = 'nqueens'; from nqueens_cp.entry import main; main()"
    env = {**os.environ, **(env or {}), "_NQUEENS_COMPLETE": "complete_bash", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(cword)
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    loaded = {line.split("|")[-1].strip() for line in r.stderr.splitlines() if "|" in line}
    return r.stdout.split(), {m for m in HEAVY if m in loaded}


@pytest.mark.timeout(120)
def test_backends_pieces_and_formats_complete_without_loading_a_solver(tmp_path):
    cache = {"XDG_CACHE_HOME": str(tmp_path)}
    got, heavy = _complete("nqueens count 8 -b ", cache)
    assert got == list(BACKENDS) and not heavy
    assert _complete("nqueens count 8 --backend cp", cache)[0] == ["cpsat", "cpmpy"]
    assert _complete("nqueens verify 6 --backends bitmask,cp", cache)[0] == ["bitmask,cpsat", "bitmask,cpmpy"]
    assert _complete("nqueens solve 8 --piece su", cache)[0] == sorted(p for p in NAMES if p.startswith("su"))
    got, heavy = _complete("nqueens export 8 --to ", cache)
    assert got == list(formats()) and not heavy
    assert _complete("nqueens report runs.csv --to ", cache)[0] == ["benchexec"]
    # sub-solvers: none known before `nqueens backends` has listed them here; then its list
    assert _complete("nqueens count 8 -b sat:", cache)[0] == []
    r = subprocess.run([script(), "backends"], env={**os.environ, **cache}, capture_output=True, timeout=120)
    assert r.returncode == 0
    got, heavy = _complete("nqueens count 8 -b sat:glucose", cache)
    assert "sat:glucose4" in got and all(g.startswith("sat:glucose") for g in got) and not heavy


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kept", ['{"sat": null}', '{"sat": [1, 2]}', '["sat"]', '{"sat": "glucose4"}', "[" * 5000])
def test_a_kept_list_of_sub_solvers_of_the_wrong_shape_completes_without_them(tmp_path, kept):
    """`{"sat": null}` in the kept list gave a traceback while completing."""
    (tmp_path / "nqueens_cp").mkdir()
    (tmp_path / "nqueens_cp" / "subsolvers.json").write_text(kept)
    assert _complete("nqueens count 8 -b sat:", {"XDG_CACHE_HOME": str(tmp_path)})[0] == []
    assert _complete("nqueens count 8 -b cp", {"XDG_CACHE_HOME": str(tmp_path)})[0] == ["cpsat", "cpmpy"]
