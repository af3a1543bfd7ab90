"""Start-up: the light commands load none of the heavy libraries, small counts need no compiled
kernel, and what `--version` and `backends` say is what is installed."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from nqueens_cp.backends import BACKENDS
from nqueens_cp.backends.base import Deadline
from nqueens_cp.backends.bitmask import frontier
from tests.conftest import A000170, attacks, brute_force, examples

HEAVY = ("numba", "llvmlite", "ortools", "distributed", "dask", "cpmpy", "matplotlib")


def _loaded(*argv: str) -> tuple[str, list[str]]:
    """(stdout, the heavy modules loaded) of `nqueens ARGV`."""
    code = (
        "import sys, json\nfrom nqueens_cp.entry import main\n"
        f"sys.argv = ['nqueens', *{list(argv)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    *out, heavy = r.stdout.splitlines()
    return "\n".join(out), json.loads(heavy)


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["--version"], ["count", "--help"], ["count", "8"], ["count", "12"], ["count", "11", "--rows", "9"]],
)
def test_the_light_commands_load_no_heavy_library(argv):
    """`nqueens --help` imported numpy, and `count 12` numba and its cached kernels (0.8 s of a
    0.9 s run): the help, the version and the everyday counts now load none of them."""
    _, heavy = _loaded(*argv)
    assert heavy == []


def test_version_says_the_installed_package():
    out, _ = _loaded("--version")
    assert out == f"nqueens_cp {version('nqueens_cp')}" == nq.version_line()
    assert nq.__version__ == version("nqueens_cp")


def test_backends_lists_every_backend_without_loading_the_kernels():
    out, heavy = _loaded("backends", "--json")
    record = json.loads(out)
    assert record["format"] == "nqueens_cp.backends/2" and record["nqueens_cp"] == version("nqueens_cp")
    assert [b["name"] for b in record["backends"]] == list(BACKENDS)
    for b in record["backends"]:
        assert b["installed"] == (b["missing"] is None) and (b["version"] is None) == (not b["installed"])
        if not b["installed"]:
            assert "install" in b["missing"], b  # the command that installs it
    (engine,) = [b for b in record["backends"] if b["name"] == "bitmask"]
    assert engine["version"] == f"nqueens_cp {version('nqueens_cp')}, numba {version('numba')}"
    assert "kernels" in engine["state"] and "numba" not in heavy and "llvmlite" not in heavy
    sat = [b for b in record["backends"] if b["name"] == "sat" and b["installed"]]
    if sat:  # python-sat's solvers, each with the package's version, the default among them
        names = {s["name"] for s in sat[0]["subsolvers"]}
        assert sat[0]["default_subsolver"] in names
        assert {s["version"] for s in sat[0]["subsolvers"]} == {version("python-sat")}
    text, _ = _loaded("backends")
    assert all(name in text for name in BACKENDS)


def test_small_counts_are_planned_without_the_compiled_kernels():
    engine = nq.get_backend("bitmask")
    for n in range(1, 13):
        plan = engine.plan(nq.Problem(n), "count")
        assert plan.algorithm == "rows-numpy" and plan.memory == frontier.peak_bytes(nq.Problem(n))
        assert nq.count(n) == A000170[n - 1]
    assert engine.plan(nq.Problem(13), "count").algorithm != "rows-numpy"
    assert engine.plan(nq.Problem(8, "superqueen"), "count").algorithm != "rows-numpy"


def _rectangle_count(n: int, rows: int, piece: str, blocked, fixed) -> int:
    """Placements of `rows` pieces, one per row of an n-column board, by the tests' own rules."""
    fixed_at, blocked = dict(fixed), set(blocked)
    total = 0
    for cols in permutations(range(n), rows):
        squares = list(enumerate(cols))
        if any(sq in blocked for sq in squares) or any(fixed_at.get(r, c) != c for r, c in squares):
            continue
        if not any(attacks(piece, a, b, n) for i, a in enumerate(squares) for b in squares[i + 1 :]):
            total += 1
    return total


@st.composite
def _small_boards(draw):
    n = draw(st.integers(1, 7))
    rows = draw(st.integers(1, n))
    piece = draw(st.sampled_from(["queen", "rook"]))
    squares = st.tuples(st.integers(0, rows - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(squares, max_size=5, unique=True))
    fixed = draw(st.lists(squares, max_size=2, unique_by=lambda sq: sq[0]))
    fixed = [sq for sq in fixed if sq not in blocked]
    return n, rows, piece, blocked, fixed


@settings(max_examples=examples(200), deadline=None)
@given(_small_boards())
def test_the_row_at_a_time_count_matches_a_brute_force(board):
    n, rows, piece, blocked, fixed = board
    try:
        p = nq.Problem(n, piece, rows=rows, blocked=blocked, fixed=fixed)
    except nq.InvalidProblem:  # two fixed pieces that attack each other
        return
    expected = _rectangle_count(n, rows, piece, blocked, fixed)
    assert frontier.count(p, Deadline("test", None)) == expected
    if rows == n:
        assert expected == len(brute_force(n, piece, blocked, fixed))


def test_the_declared_peak_bounds_every_row_of_partial_placements():
    """The plan declares the arrays' size before they are made: the most partial placements of
    any number of first rows (counted here by the tests' own brute force) fit in it."""
    for n in range(1, 9):
        peak = max(_rectangle_count(n, k, "queen", (), ()) for k in range(1, n + 1))
        assert frontier.PEAK_ENTRIES[n] >= peak


def test_python_dash_m_runs_the_command_line():
    r = subprocess.run([sys.executable, "-m", "nqueens_cp", "count", "6"], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout.split()) == (0, [str(A000170[5])]), r.stderr


def test_the_api_names_load_and_are_typed():
    """Every name of the API loads on first use; `__all__` lists exactly them; the package says
    it is typed (py.typed, shipped as package data) for the type checkers of its users."""
    from importlib.resources import files

    import nqueens_cp

    assert nqueens_cp.__all__ == sorted(nqueens_cp._WHERE)
    for name in nqueens_cp.__all__:
        assert getattr(nqueens_cp, name) is not None
    assert files("nqueens_cp").joinpath("py.typed").is_file()


def test_a_small_count_cut_into_items_is_cut_as_the_compiled_counts_cut_it():
    """`count 12 --checkpoint` reported the row-at-a-time plan for work items that plan never
    makes: a count cut into items (checkpoints, Dask) is planned without it."""
    engine = nq.get_backend("bitmask")
    part = engine.partition(nq.Problem(12))
    assert part.algorithm == "constellations" and part.size > 1
    from nqueens_cp.api import count_partitioned

    total, plan = count_partitioned(nq.Problem(12), workers=1)
    assert total == A000170[11] and plan.algorithm == "constellations"


def test_nq_check_is_the_api_s_call_whichever_was_imported_first():
    """`nqueens_cp.check` is also the package of the checkers: once it was imported, `nq.check`
    named the package and calling it failed ('module' object is not callable)."""
    code = (
        "import nqueens_cp as nq\nfrom nqueens_cp.check import verify\n"
        "print(nq.check(8, '[0, 4, 7, 5, 2, 6, 1, 3]').distinct, nq.check(4, '[0, 1, 2, 3]').invalid_count)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.split() == ["1", "1"], r.stderr
