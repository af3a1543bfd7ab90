"""Every answer from every backend is checked by `Problem.explain` before it is printed or
counted (issue 34, item 1): fake solvers that lie are caught with one line naming the solver
and exit 1, a solver that repeats a model is caught instead of looping for ever."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends import Backend, Capabilities, WrongAnswer
from nqueens_cp.backends.base import PLACEMENT_TASKS
from tests.conftest import brute_force, examples, script

pytestmark = pytest.mark.timeout(120)

#: An 8-queens solution from the literature (Gauss), the column in each row.
GAUSS = (0, 4, 7, 5, 2, 6, 1, 3)
EIGHT = sorted(brute_force(8))  # the 92 (A000170), from the tests' own brute force


def _program(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _sat_model(placement: tuple[int, ...], n: int) -> str:
    """The 'v' line of a SAT model placing a piece on each (row, placement[row]) of a plain
    n x n board, whose square variables are 1.. row by row."""
    return " ".join(str(r * n + c + 1) for r, c in enumerate(placement)) + " 0"


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([script(), *args], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.slow
def test_a_sat_binary_answering_a_diagonal_is_a_wrong_answer(tmp_path):
    diagonal = _sat_model(tuple(range(8)), 8)
    fake = _program(tmp_path, "liar-sat", f"print('s SATISFIABLE'); print('v {diagonal}')\n")
    for task in ("first", "count", "solve"):
        proc = _cli(task, "8", "-b", "sat", "--sat-solver", f"cmd:{fake} {{cnf}}")
        err = proc.stderr.strip()
        assert proc.returncode == 1, (task, proc.returncode, err)
        assert len(err.splitlines()) == 1 and "wrong answer from sat (cmd:liar-sat)" in err, err
        assert "share a diagonal" in err, err
        assert proc.stdout.strip() == "", "an unchecked answer was printed"


@pytest.mark.slow
def test_a_sat_binary_repeating_its_model_is_caught_not_looped(tmp_path):
    fake = _program(tmp_path, "parrot-sat", f"print('s SATISFIABLE'); print('v {_sat_model(GAUSS, 8)}')\n")
    proc = _cli("count", "8", "-b", "sat", "--sat-solver", f"cmd:{fake}")
    assert proc.returncode == 1, proc.stderr
    assert "was given twice" in proc.stderr and "parrot-sat" in proc.stderr


FAKE_MINIZINC = r"""
import json, sys
args = sys.argv[1:]
if "--solvers-json" in args:
    print(json.dumps([{"id": "org.gecode.gecode", "version": "6.2.0"}]))
elif "--version" in args:
    print("MiniZinc to Finite Zinc converter, version 2.6.4")
else:
    # a solver that ignores the board's blocked squares: every solution of the open board
    for sol in SOLUTIONS:
        print(json.dumps({"type": "solution", "output": {"json": {"q": [c + 1 for c in sol]}}}))
    print(json.dumps({"type": "status", "status": "ALL_SOLUTIONS"}))
"""


@pytest.mark.long
@pytest.mark.slow
def test_a_minizinc_solver_counting_another_board_is_a_wrong_answer(tmp_path):
    import nqueens_cp as nq

    open_board = list(nq.solve(6))  # 4 solutions; with (0, 1) blocked there are fewer
    body = f"SOLUTIONS = {open_board!r}\n" + FAKE_MINIZINC
    _program(tmp_path, "minizinc", body)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    for task in ("count", "solve", "first"):
        proc = _cli(task, "6", "-b", "minizinc", "--block", "0,1", env=env)
        err = proc.stderr.strip()
        assert proc.returncode == 1, (task, err)
        assert "wrong answer from minizinc (gecode)" in err and "blocked square (0, 1)" in err, err
        assert len(err.splitlines()) == 1


class _Liar(Backend):
    """A backend whose search hands out `answers` as they are."""

    name = "liar"
    capabilities = Capabilities(tasks=PLACEMENT_TASKS)

    def __init__(self, answers: list[tuple[int, ...]]) -> None:
        super().__init__()
        self.answers = answers

    def _solutions(self, problem, plan, stats) -> Iterator[tuple[int, ...]]:
        yield from self.answers


def _entry_points(backend: Backend, p: Problem) -> tuple:
    """Every way a backend's answers are read, each a call."""
    return (
        lambda: list(backend.solutions(p)),
        lambda: list(backend.batches(p)),
        lambda: backend.count(p),
        lambda: backend.count_by_enumeration(p),
    )


@pytest.mark.parametrize(
    "answers, why",
    [
        ([GAUSS, tuple(range(8))], "share a diagonal"),
        ([GAUSS, GAUSS], "was given twice"),
        ([GAUSS, (0, 4, 7, 5, 2, 6, 1)], "has 7 rows"),
        ([GAUSS, (0, 4, 7, 5, 2, 6, 1, 9)], "not in 0..7"),
    ],
)
def test_every_entry_point_checks_what_the_backend_hands_out(answers, why):
    liar = _Liar(answers)
    p = Problem(8)
    for use in (*_entry_points(liar, p), lambda: liar.count_classes(p)):
        with pytest.raises(WrongAnswer, match=why):
            use()
    liar.answers = answers[1:]
    if why != "was given twice":
        with pytest.raises(WrongAnswer, match=why):
            liar.first(p)


def _greedy(p, order):
    placed = []
    for r in range(p.rows):
        clear = [c for c in order if not any(p.attacks((k, q), (r, c)) for k, q in enumerate(placed))]
        free = [c for c in clear if c not in placed]
        placed.append(free[0] if free else next(c for c in order if c not in placed))
    return placed


class _ArrayLiar(_Liar):
    """The liar handing out its answers in arrays, as an enumerator does: its streams are made
    of its arrays, checked an array at a time."""

    name = "array-liar"

    def _batches(self, problem, plan, stats) -> Iterator[np.ndarray]:
        yield np.array(self.answers[:8], dtype=np.int16)  # (GAUSS and its mirror images first)
        yield np.array(self.answers[8:], dtype=np.int16)


@pytest.mark.parametrize("wrong, why", [(tuple(range(8)), "share a diagonal"), (EIGHT[3], "was given twice")])
def test_every_stream_of_an_array_maker_is_checked(wrong, why):
    """`nq.solve` streamed the engine's arrays through `explain` one solution at a time (17x the
    search); now every stream of a backend that makes arrays is checked an array at a time, and
    a wrong row anywhere in them is still found, wherever the stream is read."""
    liar = _ArrayLiar([*EIGHT[:20], wrong, *EIGHT[20:]])
    liar.capabilities = Capabilities(tasks=PLACEMENT_TASKS, repeat_free=False)
    p = Problem(8)
    for use in (*_entry_points(liar, p), lambda: list(nq.solve(p, liar))):
        with pytest.raises(WrongAnswer, match=why):
            use()
    honest = _ArrayLiar(EIGHT)
    assert len(list(honest.solutions(p))) == honest.count(p).count == 92


@st.composite
def _boards_and_placements(draw):
    n = draw(st.integers(2, 9))
    rows = draw(st.integers(1, n))
    piece = draw(st.sampled_from(["queen", "rook", "superqueen", "RN", "RF", "QAA", "RNN", "QZZ"]))
    torus = draw(st.booleans()) and rows == n
    squares = st.tuples(st.integers(0, rows - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(squares, max_size=4, unique=True))
    try:
        p = Problem(n, piece, rows=rows, torus=torus, blocked=blocked)
    except Exception:
        p = Problem(n, piece, rows=rows, torus=torus)
    # Any columns; rows in distinct columns; and rows placed greedily clear of every attack, where
    # a forced clash can be any one move at any distance, and many rows are valid.
    anything = st.lists(st.integers(-1, n), min_size=rows, max_size=rows)
    distinct = st.permutations(range(n)).map(lambda cols: cols[:rows])
    greedy = st.permutations(range(n)).map(partial(_greedy, p))
    batch = draw(st.lists(anything | distinct | greedy, min_size=1, max_size=20))
    return p, np.array(batch, dtype=draw(st.sampled_from([np.int64, np.int16])))


@settings(max_examples=examples(300))
@given(_boards_and_placements())
def test_the_batch_check_finds_exactly_what_explain_finds(case):
    p, batch = case
    expected = next(
        ((i, why) for i, row in enumerate(batch.tolist()) if (why := p.explain(tuple(row)))),
        None,
    )
    assert p.first_invalid(batch) == expected


@pytest.mark.slow
def test_a_sat_binary_claiming_no_solution_is_refuted_by_our_engine(tmp_path):
    """`count 8 -b sat` printed 0, "solved", and `first` "no solution", for a binary that says
    UNSATISFIABLE: nothing was handed over to check. 8-queens has 92 solutions (A000170)."""
    fake = _program(tmp_path, "unsat-sat", "print('s UNSATISFIABLE'); raise SystemExit(20)\n")
    for task in ("first", "count", "solve"):
        proc = _cli(task, "8", "-b", "sat", "--sat-solver", f"cmd:{fake} {{cnf}}")
        err = proc.stderr.strip()
        assert proc.returncode == 1, (task, proc.returncode, err)
        assert len(err.splitlines()) == 1 and "wrong answer from sat (cmd:unsat-sat)" in err, err
        assert "is a solution, where it says there is none" in err, err
        assert proc.stdout.strip() in ("", "0") and "no solution" not in proc.stdout


def test_a_confirmed_claim_of_no_solution_says_so():
    """A board with none (n = 3): the claim stands, and the record says our engine confirmed it."""
    from nqueens_cp.backends import get_backend
    from nqueens_cp.backends.claims import checked_claim

    p = Problem(3)
    cpsat = get_backend("cpsat")
    assert checked_claim(p, cpsat, cpsat.first(p)).stats["confirmed"] == 1
    assert nq.count(p, backend="cpsat") == 0 and nq.first(p, backend="constraint") is None


def _flagged(p, batch):
    """The rows `first_invalid` flags, found by asking again past each one it names."""
    flagged, start = [], 0
    while (bad := p.first_invalid(batch[start:])) is not None:
        flagged.append(start + bad[0])
        start += bad[0] + 1
    return flagged


@pytest.mark.parametrize("piece", ["queen", "superqueen", "RN", "QAA", "RNN", "QZZ", "RFA"])
@pytest.mark.parametrize("torus", [False, True])
def test_the_batch_check_flags_every_permutation_explain_rejects(piece, torus):
    """Every placement of distinct columns on boards of 5 and 6, in one batch: the rows flagged
    are exactly those `explain` rejects (a clash a single move at any distance makes included)."""
    for n in (5, 6):
        p = Problem(n, piece, torus=torus)
        batch = np.array(list(permutations(range(n))), dtype=np.int16)
        assert _flagged(p, batch) == [i for i, row in enumerate(batch.tolist()) if p.explain(row)]


def test_the_engine_s_streams_are_checked_an_array_at_a_time(monkeypatch):
    """`nq.solve(Problem(12))` spent 1.7 s of 1.9 s in `explain`, called once a solution: every
    stream of the engine is now checked by the vectorised checker, and `explain` runs only on
    a row that checker flags (none here). 10-queens has 724 solutions (A000170)."""
    calls = []
    monkeypatch.setattr(Problem, "explain", lambda self, s: calls.append(s))
    p = Problem(10)
    engine = nq.get_backend("bitmask")
    assert sum(1 for _ in nq.solve(p)) == 724
    assert engine.count_by_enumeration(p).count == 724
    assert sum(len(b) for b in engine.batches(p)) == 724
    assert calls == []
