"""benchmarks/bench_versions.py times the tree it is given, wherever it is run from."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import benchmark

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_each_side_runs_its_own_tree_from_inside_a_checkout(tmp_path, monkeypatch):
    """Run from the checkout (as its docstring shows), `python -c` found the checkout's
    package before the other tree's on PYTHONPATH, so both sides timed the same code."""
    bench_versions = benchmark("bench_versions")
    other = tmp_path / "other"
    (other / "nqueens_cp").mkdir(parents=True)
    (other / "nqueens_cp" / "__init__.py").write_text("TREE = 'other'\n")
    monkeypatch.chdir(ROOT)
    code = "import nqueens_cp; print(1.0 if getattr(nqueens_cp, 'TREE', None) == 'other' else 2.0)"
    assert bench_versions.measure(other, code) == 1.0
    assert bench_versions.measure(ROOT, "import nqueens_cp; print(3.0 if hasattr(nqueens_cp, 'TREE') else 4.0)") == 4.0
