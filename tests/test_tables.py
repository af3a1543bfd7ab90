"""Tables of counts for one board: a range of --rows (A269133's rows), of --pieces (A348129's),
and the profile of the row search's tree (A319284, its sums A319283), each held to OEIS and to
a second method: the profile's entry k is the count of the board's first k rows alone, made by
the engine's counting searches, and a brute force written here for the small boards. The
profile of the squares search (pieces anywhere), whose entry k is the count of k pieces, is
held to A348129, to the brute force of tests/test_walls.py and to a count a term."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings

import nqueens_cp as nq
from nqueens_cp.model.problem import Problem

from .conftest import examples, gone, interrupt_when, oeis, row_by_row, run, script, tree, triangle
from .test_partition import _forged
from .test_walls import _sees, problems


def test_the_profile_is_oeis_s_and_its_sum_too():
    rows = triangle(oeis("A319284"), 0)
    sums = oeis("A319283")
    for n in range(1, len(rows)):
        result = run("count", str(n), "--profile")
        assert result.exit_code == 0, result.stderr
        assert result.stdout.strip() == ", ".join(map(str, rows[n])), n
    rec = json.loads(run("count", "13", "--profile", "--json").stdout)
    assert (rec["nodes"], rec["count"]) == (sums[13], 73712)


def _brute_depths(p: Problem) -> list[int]:
    """For each k, the placements of the first k rows no two of which attack (the model's attack
    relation is the rule; two in one column attack), by `row_by_row`."""
    found = [0] * (p.rows + 1)
    for cols in row_by_row(p.n, p.rows, p.blocked, p.fixed, lambda a, b: a[1] == b[1] or p.attacks(a, b)):
        found[len(cols)] += 1
    return found


CASES = [
    Problem(6),
    Problem(7, "superqueen"),
    Problem(6, "RN", blocked=[(0, 1), (2, 3), (5, 5)]),
    Problem(7, "RF", fixed=[(3, 2)]),
    Problem(6, "rook", rows=4),
    Problem(5, torus=True),
]


@pytest.mark.parametrize("p", CASES, ids=str)
def test_each_depth_holds_the_placements_of_its_rows(p):
    profile = nq.get_backend("bitmask").profile(p)
    assert profile[0] == 1 and len(profile) == p.rows + 1
    assert profile == _brute_depths(p)
    for k in range(1, p.rows + 1):
        if not p.torus:  # (a torus of k rows wraps at k: not the first k rows of this one)
            top = Problem(
                p.n, p.piece, rows=k, blocked=[s for s in p.blocked if s[0] < k], fixed=[s for s in p.fixed if s[0] < k]
            )
            assert profile[k] == nq.count(top), k


def test_a_larger_profile_matches_the_counts_of_its_rows():
    """n = 13: each depth's nodes against the engine's count of that many rows (its other
    searches: constellations, the join, the rectangle counts)."""
    profile = nq.get_backend("bitmask").profile(Problem(13))
    assert profile[1:] == [nq.count(Problem(13, rows=k)) for k in range(1, 14)]


def test_a_range_of_rows_prints_the_rectangles_counts_as_oeis_rows():
    """A269133's row n is T(n, m) for m = 1..n (m queens on an m x n board): A319284's row n
    without its first entry."""
    rows = triangle(oeis("A319284"), 0)
    for n in (8, 11):
        result = run("count", str(n), "--rows", f"1..{n}")
        assert result.exit_code == 0, result.stderr
        assert result.stdout.strip() == ", ".join(map(str, rows[n][1:]))
    result = run("count", "6", "--rows", "2..4", "-f", "bfile")
    assert result.stdout.splitlines() == [f"{m} {rows[6][m]}" for m in (2, 3, 4)]


def test_a_range_of_pieces_prints_a348129_s_row_and_its_sum_is_a287227():
    rows = triangle(oeis("A348129"), 0)
    sums = oeis("A287227")
    for n in (6, 8):
        result = run("count", str(n), "--pieces", f"1..{n}")
        assert result.exit_code == 0, result.stderr
        terms = [int(t) for t in result.stdout.split(",")]
        assert terms == rows[n][1:]
        assert 1 + sum(terms) == sums[n]  # (T(n, 0) = 1: the empty board)
    lines = run("count", "5", "--pieces", "1..3", "--json").stdout.splitlines()
    assert [json.loads(line)["pieces"] for line in lines] == [1, 2, 3]


def test_tables_of_one_board_refuse_in_one_line():
    for args, said in (
        (["8", "--pieces", "0..3"], "a range of --pieces starts at 1"),
        (["6..7", "--pieces", "1..2"], "a table varies one thing"),
        (["6", "--pieces", "1..2", "--rows", "2..3"], "a table varies one thing"),
        (["6", "--pieces", "1..40"], "is more than the 36 free squares can hold"),
        (["8", "--profile", "--unique"], "a profile counts nodes in one search"),
        (["8", "--profile", "--symmetric", "rot90"], "(--profile, or a --pieces table): no --unique or --symmetric"),
        (["8", "--profile", "--depth", "4", "--checkpoint", "x.jsonl"], "--depth does not apply"),
        (["8", "--pieces", "1..8", "--depth", "4", "--checkpoint", "x.jsonl"], "--depth does not apply"),
        (["8", "--profile", "-b", "cpsat"], "does not answer profile (those that do: bitmask)"),
        (["6", "--pieces", "6", "--pawns", "1", "--profile"], "not of pawns or regions"),
    ):
        result = run("count", *args)
        assert result.exit_code == 2, (args, result.stdout)
        assert said in result.stderr and result.stderr.count("\n") == 1, result.stderr
    result = run("solve", "6", "--pieces", "1..3")
    assert result.exit_code == 2 and "a range A..B is count's" in result.stderr
    for command in ("count", "first", "max"):  # (pieces 0 is the problem's one-a-row rule: count 8 gave 92)
        result = run(command, "8", "--pieces", "0")
        assert result.exit_code == 2 and "--pieces 0 places no piece" in result.stderr, (command, result.output)


def test_a_table_keeps_a_checkpoint_a_term_and_resumes_term_by_term(tmp_path):
    """--checkpoint c.jsonl with a range: c-n13.jsonl, c-pieces5.jsonl..., one journal a term;
    the same command resumes each (a term's journal cut short is counted on from where it was)."""
    journal = tmp_path / "c.jsonl"
    first = run("count", "12..14", "--checkpoint", journal)
    assert first.exit_code == 0 and first.stdout.strip() == "14200, 73712, 365596"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c-n12.jsonl", "c-n13.jsonl", "c-n14.jsonl"]
    lines = (tmp_path / "c-n14.jsonl").read_text().splitlines()
    (tmp_path / "c-n14.jsonl").write_text("\n".join(lines[: len(lines) // 3]) + "\n")
    again = run("count", "12..14", "--checkpoint", journal, "-f", "bfile")
    assert again.exit_code == 0 and again.stdout.splitlines() == ["12 14200", "13 73712", "14 365596"]
    assert again.stderr.count("nqueens: resumed") == 3
    pawns = run("count", "6", "--pieces", "6..7", "--pawns", "1", "--checkpoint", journal)  # (no profile of pawns)
    assert pawns.stdout.strip().endswith(f", {oeis('A103330')[6 - 1]}") and (tmp_path / "c-pieces6.jsonl").exists()


def test_a_profile_stops_at_its_limit_and_says_it_is_unknown(tmp_path):
    result = run("count", "20", "--profile", "--time-limit", "0.3")
    assert result.exit_code == 3 and result.stdout == ""
    assert "a profile is whole or unknown" in result.stderr and "would take" not in result.stderr  # (no notice)
    journal = tmp_path / "p.jsonl"  # (cut into items: how far it got, as a stop's line says too)
    cut = run("count", "19", "--profile", "--checkpoint", journal, "--time-limit", "0.3")
    assert cut.exit_code == 3 and cut.stdout == ""
    items = json.loads(journal.read_text().split("\n", 1)[0])["fingerprint"]["items"]
    kept = rf"; \d+ of {items} sub-problems counted, saved in {re.escape(str(journal))}: the same command resumes\n$"
    assert re.search("a profile is whole or unknown" + kept, cut.stderr), cut.stderr


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kept", [False, True], ids=["threads", "checkpoint"])
def test_a_profile_that_would_take_hours_says_so_at_once_and_stops_clean(tmp_path, kept):
    """`count 21 --profile` (about a day here) said nothing on stderr off a terminal until it
    ended, where a count that long says how long at once; SIGTERM then ends it, nothing left."""
    said = tmp_path / "stderr"
    args = ["count", "21", "--profile", *(["--checkpoint", tmp_path / "p.jsonl", "--workers", "2"] if kept else [])]
    with said.open("w") as err:
        proc = subprocess.Popen([script(), *map(str, args)], stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and "would take" not in said.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        below = tree(proc.pid)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 143 and gone(below), said.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    notice, stop = said.read_text().strip().splitlines()[-2:]
    assert "this count would take about" in notice and " h " in notice, notice
    assert stop.startswith("nqueens: terminated: a profile is whole or unknown"), stop


def test_the_plan_of_a_long_profile_estimates_it_and_no_other():
    backend = nq.get_backend("bitmask")
    assert backend.plan(Problem(21), "profile").seconds > 3600
    assert backend.plan(Problem(12), "profile").seconds is None  # (seconds: no word)
    assert backend.plan(Problem(21, "superqueen"), "profile").seconds is None  # (no measured run to scale)
    assert backend.plan(Problem(21, pieces=5), "profile").seconds is None


def test_the_open_queens_kernel_and_the_attack_table_kernel_agree():
    """Queens on an open board take the classic search's kernel over half the first row (the
    mirror's trees are the same shape); every other board the attack table's, over all of it."""
    import numpy as np

    from nqueens_cp.backends.bitmask.kernels.profile import profile as walk
    from nqueens_cp.backends.bitmask.profile import tables

    for n, m in ((1, 1), (2, 2), (5, 5), (9, 9), (11, 11), (11, 6), (12, 3)):
        p = Problem(n, rows=m)
        attack, free = tables(p)
        out = np.zeros(m + 1, np.int64)
        out[0] = 1  # (the root)
        for first in range(n):  # every column of the first row, each walked with the attack table
            assert walk(m, n, attack, free, np.int64(first), np.zeros(2, np.int64), out)
        assert nq.get_backend("bitmask").profile(p) == out.tolist(), (n, m)


def test_a_profile_keeps_a_checkpoint_of_its_items_and_resumes(tmp_path):
    """--profile --checkpoint: its items (the first two rows' nodes) recorded as they finish,
    each a vector written as one integer; a journal cut short resumes to the same profile,
    whose sum is A319283's."""
    journal = tmp_path / "p.jsonl"
    first = run("count", "14", "--profile", "--checkpoint", journal)
    assert first.exit_code == 0, first.output
    profile = [int(t) for t in first.stdout.split(",")]
    assert sum(profile) == oeis("A319283")[14] and profile[-1] == 365596
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    again = run("count", "14", "--profile", "--checkpoint", journal, "--workers", "2")
    assert again.exit_code == 0 and [int(t) for t in again.stdout.split(",")] == profile
    assert "nqueens: resumed" in again.stderr and "solutions" not in again.stderr
    other = run("count", "9", "--profile", "--block", "0,0", "--checkpoint", tmp_path / "b.jsonl")
    assert other.stdout == run("count", "9", "--profile", "--block", "0,0").stdout


def test_a_profile_s_journal_is_checked_and_recounted_as_a_count_s(tmp_path):
    """A b-file gives its journals' digests: --check re-sums a finished profile journal, running
    nothing and leaving the file as it was; --recount K counts K of its items again. A record
    forged with its CRC made anew passes --check (as documented for a count) and a recount of
    every item catches it; a journal not finished is refused."""
    journal = tmp_path / "p.jsonl"
    first = run("count", "13", "--profile", "--checkpoint", journal)
    assert first.exit_code == 0 and sum(int(t) for t in first.stdout.split(",")) == oeis("A319283")[13]
    kept = journal.read_bytes()
    checked = run("count", "13", "--profile", "--checkpoint", journal, "--check")
    assert checked.exit_code == 0 and checked.stdout == first.stdout and journal.read_bytes() == kept
    again = run("count", "13", "--profile", "--checkpoint", journal, "--recount", 3)
    assert again.exit_code == 0 and again.stdout == first.stdout and "3 of them chosen at random" in again.stderr
    forged = _forged(journal)
    assert run("count", "13", "--profile", "--checkpoint", journal, "--check").stdout != first.stdout
    caught = run("count", "13", "--profile", "--checkpoint", journal, "--recount", 100000)
    assert caught.exit_code == 1 and f"item {forged} is recorded as" in caught.stderr and not caught.stdout
    head, *records = journal.read_text().splitlines()
    journal.write_text("\n".join([head, *records[:-2]]) + "\n")
    begun = run("count", "13", "--profile", "--checkpoint", journal, "--check")
    assert begun.exit_code == 2 and "not recorded yet" in begun.stderr
    limited = run("count", "13", "--profile", "--checkpoint", journal, "--check", "--time-limit", 5)
    assert limited.exit_code == 2 and "--check runs nothing" in limited.stderr
    table = tmp_path / "t.jsonl"  # a --pieces table from one search: its journal the file itself
    made = run("count", "8", "--pieces", "1..8", "--checkpoint", table)
    assert run("count", "8", "--pieces", "1..8", "--checkpoint", table, "--check").stdout == made.stdout


@pytest.mark.timeout(120)
def test_a_profile_on_the_pool_stops_on_ctrl_c_and_leaves_no_process(tmp_path):
    """Its items run on fresh processes that hand their vectors back as messages: Ctrl-C ends
    them all within about a second, the finished items kept."""
    journal = tmp_path / "p.jsonl"
    code, seconds, stderr, below = interrupt_when(
        ["count", "18", "--profile", "--checkpoint", journal, "--workers", "2"],
        lambda pid: journal.exists() and len(journal.read_text().splitlines()) >= 2,
    )
    assert code == 130 and seconds < 3, (code, seconds, stderr)
    assert gone(below), below
    kept = len(journal.read_text().splitlines()) - 1
    assert kept >= 1 and "Traceback" not in stderr.decode()
    said = stderr.decode().strip().splitlines()[-1]  # the stop says where the work is kept, as a count's does
    assert "a profile is whole or unknown;" in said and f"saved in {journal}: the same command resumes" in said, said


# -- the squares search's profile: k pieces anywhere, every k from one search ------------------


def _brute_by_pieces(p: Problem) -> list[int]:
    """The placements of k = 0..p.pieces pieces anywhere that hold the pre-placed ones, no two
    attacking (tests/test_walls.py's rule, walls stopping lines), by trying every set of free
    squares."""
    shut = set(p.blocked) | set(p.walls)
    free = [(r, c) for r in range(p.rows) for c in range(p.n) if (r, c) not in shut]
    stops = set(p.walls)
    sees = {(a, b) for a in free for b in free if a != b and _sees(p, a, b, stops)}
    out = [0] * (p.pieces + 1)
    for k in range(p.pieces + 1):
        for pieces in combinations(free, k):
            if set(p.fixed) <= set(pieces) and not any((a, b) in sees for a in pieces for b in pieces):
                out[k] += 1
    return out


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(anywhere=True))
def test_the_squares_search_profile_is_the_brute_force_s_count_by_pieces(p: Problem) -> None:
    assume(p.pieces)  # (a board with no free square draws no pieces: one a row)
    p = replace(p, pawns=0)
    assert nq.get_backend("bitmask").profile(p) == _brute_by_pieces(p)


def test_the_open_queens_squares_profile_is_a348129_and_stops_at_its_pieces():
    """Open queens take the rows kernel (a row holds one queen or none; the left half's squares
    counted twice), every other board the attack table's: both held to OEIS's rows and to the
    brute force on rectangles, and cut at the pieces asked for."""
    rows = triangle(oeis("A348129"), 0)
    b = nq.get_backend("bitmask")
    for n in range(1, 10):
        assert b.profile(Problem(n, pieces=n)) == rows[n], n
    assert b.profile(Problem(9, pieces=4)) == rows[9][:5]
    for n, m, k in ((4, 1, 2), (4, 2, 3), (5, 3, 4), (5, 4, 2), (6, 3, 5), (3, 3, 1)):
        p = Problem(n, rows=m, pieces=k)
        assert b.profile(p) == _brute_by_pieces(p), (n, m, k)


def test_a_range_of_pieces_is_one_search_and_agrees_with_a_count_a_term():
    """The bitmask backend counts a --pieces table from one profile (its plan says so); a backend
    without a profile (CP-SAT) counts each term, and the two agree, walls and knights included."""
    lines = run("count", "7", "--pieces", "2..7", "--json").stdout.splitlines()
    recs = [json.loads(line) for line in lines]
    assert [r["count"] for r in recs] == triangle(oeis("A348129"), 0)[7][2:]
    assert all(r["format"] == "nqueens_cp.count/1" and r["plan"]["task"] == "count" for r in recs)
    assert all("from that one search" in r["plan"]["reason"] for r in recs)
    for args in (["5", "--pieces", "1..5"], ["4", "--pieces", "3..8", "--piece", "knight", "--wall", "1,1"]):
        ours, cpsat = run("count", *args), run("count", *args, "-b", "cpsat")
        assert ours.exit_code == cpsat.exit_code == 0, (ours.stderr, cpsat.stderr)
        assert ours.stdout == cpsat.stdout, args
    assert run("count", "8", "--pieces", "8", "--profile").stdout.strip() == ", ".join(
        map(str, triangle(oeis("A348129"), 0)[8])
    )


def test_a_one_search_table_keeps_its_checkpoint_resumes_and_stops_whole_or_unknown(tmp_path):
    journal = tmp_path / "c.jsonl"
    first = run("count", "10", "--pieces", "1..10", "--checkpoint", journal, "-f", "bfile")
    row = triangle(oeis("A348129"), 0)[10]
    assert first.exit_code == 0 and first.stdout.splitlines() == [f"{k} {row[k]}" for k in range(1, 11)]
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    again = run("count", "10", "--pieces", "1..10", "--checkpoint", journal, "-f", "bfile")
    assert again.exit_code == 0 and again.stdout == first.stdout and "nqueens: resumed" in again.stderr
    stopped = run("count", "17", "--pieces", "1..17", "--time-limit", "0.3")
    assert stopped.exit_code == 3 and stopped.stdout == ""
    assert "a profile is whole or unknown" in stopped.stderr and stopped.stderr.count("\n") == 1
