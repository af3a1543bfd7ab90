"""A count stopped by its time limit says what it found (issue 34, item 4): on the pool, the
solutions of the finished work items are a lower bound (it reported 0, or nothing, while its own
summary said 1.3 G solutions were found), and `count --unique --json` prints its record."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import interrupt_when, script, with_workers

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

#: OEIS A000170, n = 18 and 19.
QUEENS_18 = 666_090_624
QUEENS_19 = 4_968_057_848


def _json(*args: str) -> tuple[int, dict]:
    proc = subprocess.run([script(), *args, "--json"], capture_output=True, text=True, timeout=90)
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.long
def test_a_pool_count_stopped_by_its_limit_gives_a_lower_bound():
    # n = 19, about 30 s of counting: the join counts n = 18 within the limit now
    code, rec = _json("count", "19", "--workers", "2", "--time-limit", "4")
    assert code == 3 and rec["status"] == "unknown" and rec["partial"] is True
    assert rec["plan"]["workers"] == 2
    assert isinstance(rec["count"], int) and 0 < rec["count"] < QUEENS_19, rec


@pytest.mark.long
def test_a_class_count_stopped_by_its_limit_prints_its_record():
    code, rec = _json("count", "18", "--unique", "--time-limit", "2")
    assert code == 3 and rec["status"] == "unknown" and rec["reason"] == "time limit"
    assert rec["count"] is None and rec["partial"] is True
    assert rec["total"] is None or 0 <= rec["total"] < QUEENS_18


@pytest.mark.parametrize("piece", ["queen", "RN", "RNN", "QNN", "RF", "QAA", "RZZ", "QZZ"])
def test_the_wide_board_search_walks_the_compiled_search_s_tree(piece):
    """The Python-integer search of plain boards (over 64 columns) keeps a row's state in a few
    words; on small boards it must give the compiled search's solutions in the same order."""
    import nqueens_cp as nq
    from nqueens_cp import Problem
    from nqueens_cp.backends.base import Deadline
    from nqueens_cp.backends.bitmask import pysearch

    for n, rows in ((7, 7), (8, 6), (9, 9)):
        p = Problem(n, piece, rows=rows, blocked=[(1, 2)], fixed=[(2, 4)] if rows > 6 else [])
        assert list(pysearch.any_piece(p, Deadline("test", None), {})) == list(nq.solve(p)), (piece, n, rows)


@pytest.mark.parametrize(
    "args, codes",
    [
        # a table of every row distance: 15 s and 0.9 GB past a 2 s limit, a MemoryError at 3,000-5,000
        (["first", "5000", "--piece", "QNN", "--time-limit", "1"], (0, 3)),
        (["first", "4000", "--piece", "RN", "--time-limit", "1"], (0, 3)),
        # a torus keeps the tables: refused, in one line, before they are made
        (["first", "3000", "--piece", "RN", "--torus", "--time-limit", "1"], (2,)),
    ],
)
def test_wide_fairy_boards_keep_the_limit_and_bounded_memory(args, codes):
    import resource
    import time

    start = time.monotonic()
    proc = subprocess.run(
        [script(), *args, "-f", "jsonl"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30)),
    )
    assert proc.returncode in codes and len(proc.stderr.strip().splitlines()) <= 1, proc.stderr[-500:]
    assert time.monotonic() - start < 1 + 6


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_checkpointed_count_under_a_time_limit_stops_and_resumes_exact(tmp_path):
    """--checkpoint with --time-limit was refused (with a message that read backwards): it is the
    natural way to bound a long resumable count. A000170(18) = 666,090,624."""
    journal = tmp_path / "c18.jsonl"
    args = [script(), "count", "18", "--checkpoint", str(journal)]
    stopped = subprocess.run([*args, "--time-limit", "1"], capture_output=True, text=True, timeout=120)
    assert stopped.returncode == 3, stopped.stderr
    assert len(stopped.stderr.strip().splitlines()) == 1 and f"saved in {journal}" in stopped.stderr
    assert "the same command resumes" in stopped.stderr and journal.exists()
    resumed = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0 and resumed.stdout.split() == ["666090624"], resumed.stderr
    assert f"resumed {journal}:" in resumed.stderr


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_an_interrupted_checkpointed_count_says_where_its_work_is(tmp_path):
    journal = tmp_path / "c19.jsonl"
    code, _, err, _ = interrupt_when(["count", 19, "--checkpoint", journal], with_workers(2))
    assert code == 130 and err.decode().startswith("nqueens: interrupted: ") and f"saved in {journal}" in err.decode()
