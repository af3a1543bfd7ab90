"""The most pieces and the fewest that cover, held to what the code under test cannot shape: the
OEIS rows of queen domination (A075458), its minimum sets (A002564), independent domination
(A075324, A002568), closed forms for rooks, a brute force over every set of squares on small
boards with walls, holes and pre-placed pieces, and a second backend."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import combinations
from math import factorial

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nqueens_cp.backends import get_backend
from nqueens_cp.backends.base import Status, UnsupportedProblem
from nqueens_cp.model.problem import Problem

from .conftest import examples, oeis, run
from .test_walls import _sees, problems

#: OEIS A075458 (the domination number of the n x n queen graph), n = 1..
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13]
#: OEIS A002564 (minimum dominating sets of queens), n = 1..
A002564 = [1, 4, 1, 12, 186, 4, 86, 4860, 114, 8, 2, 8, 288, 4632, 205832, 2968, 124, 16, 84]
#: OEIS A075324 (independent domination number of the queen graph), n = 1..
A075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8, 9, 9, 9, 10]
#: OEIS A002568 (minimum independent dominating sets of queens), n = 1..
A002568 = [1, 4, 1, 16, 16, 120, 8, 728, 92, 8, 2, 840, 24, 436, 10188]


def bitmask():
    return get_backend("bitmask")


@pytest.mark.parametrize("n", [*range(1, 14), pytest.param(14, marks=pytest.mark.long)])
def test_queen_domination_a075458(n: int):
    assert bitmask().optimum(Problem(n), "dominate").value == A075458[n - 1]


@pytest.mark.parametrize("n", [*range(1, 13), pytest.param(13, marks=pytest.mark.long)])
def test_minimum_dominating_sets_a002564(n: int):
    assert bitmask().optimum(Problem(n), "dominate", count=True).count == A002564[n - 1]


@pytest.mark.parametrize("n", [*range(1, 14), pytest.param(14, marks=pytest.mark.long)])
def test_independent_domination_a075324_its_sets_a002568_and_their_classes_a002567(n: int):
    """The count weighed below the root cut by the symmetries, and the classes named by the
    least image of the sets found there (whose sizes the backend checks against that count)."""
    found = bitmask().optimum(Problem(n), "dominate", independent=True, unique=True)
    assert (found.value, found.count, found.classes) == (A075324[n - 1], A002568[n - 1], oeis("A002567")[n - 1])


@pytest.mark.parametrize("n", range(1, 7))
def test_rooks_closed_forms(n: int):
    """n rooks at most, in n! ways; n at least to cover, in 2 n^n - n! ways (every row holds
    one, or every column: a row and a column both empty leave their square uncovered)."""
    most = bitmask().optimum(Problem(n, "rook"), "max", count=True)
    fewest = bitmask().optimum(Problem(n, "rook"), "dominate", count=True)
    assert (most.value, most.count) == (n, factorial(n))
    assert (fewest.value, fewest.count) == (n, 2 * n**n - factorial(n))


#: OEIS A006075 (the domination number of the n x n knight graph), n = 1..
A006075 = [1, 4, 4, 4, 5, 8, 10, 12, 14, 16]
#: OEIS A018807 (n^2 nonattacking kings on a 2n x 2n board), n = 1..
A018807 = [4, 79, 3600, 281571]


@pytest.mark.parametrize("n", [*range(2, 8), pytest.param(8, marks=pytest.mark.long)])
def test_bishops_kings_and_knights_closed_forms(n: int):
    """Placed anywhere, any piece: bishops 2n - 2 at most in 2^n ways, and n to cover; kings
    ceil(n/2)^2 at most (on an even board in A018807's ways; on an odd one, one way), and
    ceil(n/3)^2 to cover; knights ceil(n^2/2) at most from n = 3 (on an even board from 6, two ways: the
    squares of one colour), and A006075 to cover."""
    ours = bitmask()
    bishops = ours.optimum(Problem(n, "bishop"), "max", count=True)
    assert (bishops.value, bishops.count) == (2 * n - 2, 2**n)
    assert ours.optimum(Problem(n, "bishop"), "dominate").value == n
    kings = ours.optimum(Problem(n, "king"), "max", count=True)
    assert kings.value == ((n + 1) // 2) ** 2
    assert kings.count == (A018807[n // 2 - 1] if n % 2 == 0 else 1)
    assert ours.optimum(Problem(n, "king"), "dominate").value == ((n + 2) // 3) ** 2
    knights = ours.optimum(Problem(n, "knight"), "max", count=True)
    assert knights.value == ((n * n + 1) // 2 if n > 2 else 4)  # (on 2 x 2 no knight reaches another)
    if n % 2 == 0 and n >= 6:
        assert knights.count == 2
    assert ours.optimum(Problem(n, "knight"), "dominate").value == A006075[n - 1]


def test_a_piece_that_rides_no_row_stands_anywhere_and_nowhere_else():
    """One piece a row and a column needs the rook's lines; pieces anywhere take any piece,
    on every backend that models them (A018807: 9 kings on 6 x 6 in 3,600 ways)."""
    for name in ("bitmask", "cpsat", "sat", "clingo"):
        with pytest.raises(UnsupportedProblem, match="a bishop does not ride rows and columns"):
            get_backend(name).count(Problem(8, "bishop"))
        assert get_backend(name).count(Problem(6, "king", pieces=9)).count == A018807[2]


# -- a brute force over every set of squares -------------------------------------------------------


def brute(p: Problem, task: str, independent: bool = False) -> tuple[int | None, int, int]:
    """(the optimum, how many sets reach it, in how many symmetry classes) by trying every set
    of free squares, the sets of each size in turn (the largest first for max)."""
    m, n = p.rows, p.n
    shut = set(p.blocked) | set(p.walls)
    free = [(r, c) for r in range(m) for c in range(n) if (r, c) not in shut]
    walls = set(p.walls)
    if not free:  # nothing to take and nothing to cover: the empty set, once
        return 0, 1, 1
    line = replace(p, pieces=max(1, len(p.fixed)))
    # (what each free square's piece sees, walked once a pair: the sets below ask it again and
    # again, and a knight's 5 x 5 domination tries some 50,000 sets of 5)
    sees = {a: {b for b in free if b != a and _sees(line, a, b, walls)} for a in free}

    def quiet(s: tuple) -> bool:
        return not any(b in sees[a] for a in s for b in s)

    def covers(s: tuple) -> bool:
        seen = set(s).union(*(sees[a] for a in s))
        return all(sq in seen for sq in free)

    sizes = range(len(free), -1, -1) if task == "max" else range(0, len(free) + 1)
    for k in sizes:
        good = [
            s
            for s in combinations(free, k)
            if set(p.fixed) <= set(s)
            and (quiet(s) if task == "max" or independent else True)
            and (task == "max" or covers(s))
        ]
        if good:
            return k, len(good), len({_least(p, sets) for sets in good})
    return None, 0, 0


#: The 8 symmetries of an m x n board, written out: (r, c) -> its image (the transposing four
#: only where m = n).
IMAGES = {
    "identity": lambda r, c, m, n: (r, c),
    "rot90": lambda r, c, m, n: (c, n - 1 - r),
    "rot180": lambda r, c, m, n: (m - 1 - r, n - 1 - c),
    "rot270": lambda r, c, m, n: (n - 1 - c, r),
    "flip-cols": lambda r, c, m, n: (r, n - 1 - c),
    "flip-rows": lambda r, c, m, n: (m - 1 - r, c),
    "transpose": lambda r, c, m, n: (c, r),
    "anti-transpose": lambda r, c, m, n: (n - 1 - c, m - 1 - r),
}


def _least(p: Problem, squares: tuple) -> tuple:
    """A set's class name: the least of its images under the symmetries that map the board,
    its piece and its squares onto themselves (found here by trying each on them)."""
    m, n = p.rows, p.n
    kept = []
    for name, f in IMAGES.items():
        if m != n and name in ("rot90", "rot270", "transpose", "anti-transpose"):
            continue
        moved = {key: sorted(f(r, c, m, n) for r, c in getattr(p, key)) for key in ("blocked", "fixed", "walls")}
        if all(moved[key] == sorted(getattr(p, key)) for key in moved) and _piece_kept(p, f):
            kept.append(f)
    return min(tuple(sorted(f(r, c, m, n) for r, c in squares)) for f in kept)


def _piece_kept(p: Problem, f) -> bool:
    """Whether the symmetry maps the piece's moves onto themselves (leaps and rides take all 8
    images; one-way lines need not): a move's image is f's linear part, f(a, b) - f(0, 0)."""
    lines = {(a, b) for a, b in p.rule.lines} | {(-a, -b) for a, b in p.rule.lines}
    o = f(0, 0, 9, 9)
    return {(f(a, b, 9, 9)[0] - o[0], f(a, b, 9, 9)[1] - o[1]) for a, b in lines} == lines


def boards() -> st.SearchStrategy[Problem]:
    """Small boards with walls, holes, pre-placed pieces, a torus or rectangles, and several
    pieces (bishops, kings, knights among them): test_walls' draw, one piece a row (what max
    and dominate then place anywhere)."""
    return problems(anywhere=False, any_piece=True)


def _answer(name: str, p: Problem, task: str, independent: bool = False) -> tuple[int | None, int]:
    outcome = get_backend(name).optimum(p, task, independent=independent, count=True)
    if outcome.status is Status.NO_SOLUTION:
        return None, 0
    assert outcome.status is Status.SOLVED
    return outcome.value, outcome.count or 0


def _brute(p: Problem, task: str, independent: bool = False) -> tuple[int | None, int]:
    return brute(p, task, independent)[:2]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from(["max", "dominate", "independent"]))
def test_the_engine_matches_the_brute_force(p: Problem, goal: str) -> None:
    """The optimum, the optimal sets and their symmetry classes."""
    task, independent = ("dominate", True) if goal == "independent" else (goal, False)
    outcome = get_backend("bitmask").optimum(p, task, independent=independent, unique=True)
    found = (None, 0, 0) if outcome.status is Status.NO_SOLUTION else (outcome.value, outcome.count, outcome.classes)
    assert found == brute(p, task, independent)


@st.composite
def symmetric_boards(draw: st.DrawFn) -> Problem:
    """Square boards whose walls, holes and pre-placed pieces are unions of orbits under a few
    of the symmetries the test writes out (`IMAGES`): the search for one set cuts its root by
    whichever symmetries the board keeps."""
    n = draw(st.integers(3, 5))
    names = draw(st.lists(st.sampled_from(sorted(IMAGES)), max_size=3))
    squares = [(r, c) for r in range(n) for c in range(n)]

    def orbits(count: int) -> list[tuple[int, int]]:
        seeds = draw(st.lists(st.sampled_from(squares), max_size=count))
        got = set(seeds)
        while True:  # (closed under the drawn symmetries and their products)
            more = got | {IMAGES[g](r, c, n, n) for g in names for r, c in got}
            if more == got:
                return sorted(got)
            got = more

    walls = orbits(1)
    blocked = [sq for sq in orbits(2) if sq not in walls]
    fixed = [sq for sq in orbits(1) if sq not in walls and sq not in blocked][:4]
    piece = draw(st.sampled_from(["queen", "rook", "king", "bishop", "knight"]))
    return Problem(n, piece, torus=draw(st.booleans()), walls=walls, blocked=blocked, fixed=fixed)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(symmetric_boards(), boards()), st.booleans())
def test_the_search_cut_by_the_symmetries_finds_one_set_from_the_optimum_and_weighs_each_to_its_count(
    p: Problem, independent: bool
):
    """Some set of k pieces (besides the pre-placed) dominates exactly from the brute force's
    optimum up: the root's children one an orbit of the squares covering one square, the orbits
    before each ruled out, lose no set but an image of another; and the sets found, each weighed
    by its orbit's share, add up to the brute force's count of the minimum sets."""
    from nqueens_cp.backends.base import Deadline
    from nqueens_cp.backends.bitmask.optimise import _exists, search_tables
    from nqueens_cp.backends.bitmask.partitions import cover

    optimum, sets, _ = brute(p, "dominate", independent)
    if optimum is not None and optimum > len(p.fixed):
        assert bitmask().optimum(p, "dominate", independent=independent, count=True).count == sets
    if optimum is None or len(p.walls) + len(p.blocked) == p.rows * p.n:  # (no set, or no square)
        return
    tables = search_tables(p, independent)
    if tables is None:
        return
    fixed = len(p.fixed)
    for k in range(optimum - fixed + 2):
        parts = cover.items(p, k, independent, tables, lambda: None, first=True)
        assert _exists(parts, 1, Deadline("bitmask", None)) == (k >= optimum - fixed), k


def test_the_minimum_sets_are_counted_as_work_items_in_this_process_or_on_the_pool():
    """The items below the root cut by the symmetries: 1 worker or 2, the same count (A002564,
    A002568)."""
    for workers in (1, 2):
        b = get_backend("bitmask", workers=workers)
        assert b.plan(Problem(9), "dominate").workers == workers
        assert b.optimum(Problem(9), "dominate", count=True).count == A002564[8]
        assert b.optimum(Problem(10), "dominate", independent=True, count=True).count == A002568[9]
        assert b.optimum(Problem(6, fixed=[(0, 0), (2, 4), (4, 2)]), "dominate", count=True).count == 1


@pytest.mark.parametrize(
    "p, independent, known",
    [
        (Problem(8), False, (A075458[7], A002564[7])),
        (Problem(9), True, (A075324[8], A002568[8])),
        (Problem(6, blocked=[(2, 2)], walls=[(1, 4), (3, 0)]), False, None),
        (Problem(5, "king"), False, None),
    ],
)
def test_the_work_items_split_the_sets_once_each(p: Problem, independent: bool, known: tuple[int, int] | None):
    """Every item counted on its own (an item an orbit of the root's branches under the board's
    symmetries, and a branch of its child's): the items' weighed counts add up to the whole
    search's, which is OEIS's count of the minimum sets (A002564(8) = 4,860; A002568(9) = 92)
    or the brute force's."""
    from nqueens_cp.backends.bitmask.kernels.cover import search
    from nqueens_cp.backends.bitmask.optimise import search_tables
    from nqueens_cp.backends.bitmask.partitions import cover
    from nqueens_cp.backends.bitmask.partitions.cover import WHOLE

    k, sets = known if known is not None else brute(p, "dominate", independent)[:2]
    tables = search_tables(p, independent)
    assert tables is not None and k is not None
    stop = np.zeros(4, np.int64)
    none = np.zeros((0, k), np.int64)
    c, by, attack, need, allow, spill, most = tables
    whole = search(p.n, c, by, attack, need, allow, k, independent, spill, most, False, stop, none, *WHOLE)
    items = cover.items(p, k, independent, tables, lambda: None)
    parts = [int(items.run(items.context, np.array([i]), stop).count) for i in range(items.size)]
    assert sum(parts) == whole * items.denominator and whole == sets
    assert sets == 1 or sum(1 for got in parts if got) > 1  # (the sets spread over the items)


def test_the_optimal_count_resumes_from_its_checkpoint(tmp_path):
    """dominate and max --count --checkpoint: the items recorded as they finish; a count cut
    short (the journal's later half dropped) resumes where it was and ends at A002564's term;
    a journal of another problem is refused; on Dask, the same count."""
    journal = tmp_path / "d9.jsonl"
    first = run("dominate", "9", "--count", "--checkpoint", journal)
    assert first.exit_code == 0 and first.stdout.startswith("5 (optimal), 114 minimum sets"), first.output
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    again = run("dominate", "9", "--count", "--checkpoint", journal, "--workers", "2")
    assert again.exit_code == 0 and again.stdout.startswith("5 (optimal), 114 minimum sets"), again.output
    assert f"resumed {journal}: {len(lines) // 2 - 1} of {len(lines) - 1} sub-problems were done before" in again.stderr
    other = run("dominate", "9", "--count", "--independent", "--checkpoint", journal)
    assert other.exit_code == 2 and "different problem or partition" in other.stderr
    most = run("max", "7", "--count", "--checkpoint", tmp_path / "m7.jsonl", "--json")
    assert json.loads(most.stdout)["count"] == 40  # A000170(7): 7 queens, at most one a row
    on_dask = run("dominate", "8", "--count", "--dask", "local", "--workers", "2")
    assert on_dask.exit_code == 0 and on_dask.stdout.startswith("5 (optimal), 4,860 minimum sets"), on_dask.output
    refused = run("dominate", "9", "--checkpoint", tmp_path / "x.jsonl")
    assert refused.exit_code == 2 and "give --count" in refused.stderr
    for command in (["dominate", "6", "--count"], ["count", "6"]):  # (a backend that cuts no count)
        uncut = run(*command, "-b", "cpsat", "--checkpoint", tmp_path / "y.jsonl")
        assert uncut.exit_code == 2 and uncut.stderr == (
            "nqueens: error: backend 'cpsat' cannot cut a count into sub-problems (--dask, --checkpoint)\n"
        )


def test_a_checkpointed_optimal_count_takes_a_time_limit_for_the_whole_run(tmp_path, monkeypatch):
    """`dominate --count --checkpoint F --time-limit T` was refused whatever T ("options go with a
    backend name, not an instance": the limit went to a backend already made with it). The
    limit now bounds the proof, then the count in what is left of it; a count it stops says the
    optimum, its placements so far (a lower bound, "partial") and where they are kept."""
    from types import SimpleNamespace

    from nqueens_cp import api
    from nqueens_cp.backends.base import TimeLimitReached

    journal = tmp_path / "d9.jsonl"
    whole = run("dominate", "9", "--count", "--checkpoint", journal, "--time-limit", "600")
    assert whole.exit_code == 0 and whole.stdout.startswith("5 (optimal), 114 minimum sets"), whole.output
    given = []

    def counted(part, b, workers, dask, dask_wait, checkpoint, progress, time_limit):
        given.append(time_limit)
        progress.update(7, part.size, 0)
        raise TimeLimitReached(b.name, time_limit, 42)

    clock = iter([0.0, 590.0])  # the proof took 590 s of the 600
    monkeypatch.setattr(api, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    monkeypatch.setattr(api, "_run_partition", counted)
    stopped = run("dominate", "9", "--count", "--checkpoint", journal, "--time-limit", "600", "--json")
    assert stopped.exit_code == 3 and given == [10.0], stopped.output
    rec = json.loads(stopped.stdout)
    assert (rec["status"], rec["value"], rec["optimal"], rec["partial"], rec["count"]) == ("unknown", 5, True, True, 42)
    assert stopped.stderr == (
        "nqueens: unknown: bitmask: time limit reached: 5 (optimal), at least 42 minimum sets (the count did "
        f"not finish); 7 of {whole_items(journal)} sub-problems counted, saved in {journal}: the same command resumes\n"
    )


def whole_items(journal) -> int:
    """The items a checkpoint's header says its count has."""
    return json.loads(journal.read_text().split("\n", 1)[0])["fingerprint"]["items"]


def test_a_checkpointed_optimal_count_stopped_by_sigterm_says_where_its_items_are_kept(
    tmp_path, monkeypatch, terminating
):
    """SIGTERM in `dominate --count --checkpoint F` ended with the bare "nqueens: terminated";
    it now says, as count's stop does, how far the count got and that the command resumes (here
    the stop comes back as another error, as one raised in a pool's clean-up does)."""
    import signal

    from nqueens_cp import api
    from nqueens_cp.run import interrupts

    def stopped(part, b, workers, dask, dask_wait, checkpoint, progress, time_limit):
        progress.update(3, part.size, 0)
        interrupts.note(signal.SIGTERM)  # the handler ran; its exception became another one
        raise RuntimeError("a pool's clean-up failed")

    monkeypatch.setattr(api, "_run_partition", stopped)
    journal = tmp_path / "d9.jsonl"
    r = run("dominate", "9", "--count", "--checkpoint", journal)
    assert r.exit_code == 143, r.output
    assert r.stderr.startswith("nqueens: terminated: 3 of ") and len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.endswith(f"sub-problems counted, saved in {journal}: the same command resumes\n"), r.stderr


def test_a_backend_that_does_not_count_classes_refuses_unique_naming_those_that_do():
    with pytest.raises(UnsupportedProblem, match=r"not counted by this backend \(those that count it: bitmask\)"):
        get_backend("cpsat").optimum(Problem(6), "dominate", unique=True)


def test_a_time_limit_gives_the_best_found_and_the_bound():
    outcome = get_backend("bitmask", time_limit=0.3).optimum(Problem(15), "dominate")
    assert outcome.status is Status.UNKNOWN and outcome.value is not None
    assert A075458[14] <= outcome.value and outcome.bound is not None and outcome.bound <= A075458[14]


def test_what_chooses_its_own_number_of_pieces_takes_none():
    with pytest.raises(UnsupportedProblem, match="chooses how many pieces"):
        bitmask().optimum(Problem(8, pieces=8), "max")
    with pytest.raises(UnsupportedProblem, match="does not answer dominate"):
        get_backend("constraint").optimum(Problem(8), "dominate")


def test_a_board_with_no_free_square_has_the_empty_placement_as_its_one_optimum(tmp_path):
    """Every square blocked or a wall: the most pieces and the fewest that cover are both 0, met
    by the one empty placement (it covers nothing, and nothing needs cover), on every path of
    the command line: text, JSON, the count, by class, and cut into items with a checkpoint."""
    board = ["2", "--rows", "1", "--block", "0,0", "--wall", "0,1"]
    for task in ("max", "dominate"):
        r = run(task, *board, "--count", "--unique")
        assert r.exit_code == 0 and r.stdout.splitlines() == [
            f"0 (optimal), 1 {MINIMAL[task]} in 1 symmetry class",
            "X W",
        ]
        r = run(task, *board, "--count", "--json")
        rec = json.loads(r.stdout)
        assert (rec["value"], rec["optimal"], rec["count"], rec["solution"]) == (0, True, 1, {"pieces": []})
        r = run(task, *board, "--count", "--checkpoint", tmp_path / f"{task}.jsonl")
        assert r.exit_code == 0 and r.stdout.startswith(f"0 (optimal), 1 {MINIMAL[task]}\n"), r.stderr
        r = run("verify", *board, "--task", task, "--backends", "bitmask,cpsat")  # (once "1 optimal placements")
        assert r.exit_code == 0 and r.stdout.startswith("bitmask: 0 (optimal), 1 optimal placement in "), r.output


MINIMAL = {"max": "maximum placement", "dominate": "minimum set"}


# -- a second backend ---------------------------------------------------------------------------

OPTIMISERS = ("cpsat", "sat", "cpmpy", "clingo", "minizinc")


@pytest.mark.parametrize("name", OPTIMISERS)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=boards(), goal=st.sampled_from(["max", "dominate", "independent"]))
def test_each_optimiser_matches_the_brute_force(name: str, p: Problem, goal: str) -> None:
    task, independent = ("dominate", True) if goal == "independent" else (goal, False)
    assert _answer(name, p, task, independent) == _brute(p, task, independent)


@pytest.mark.long  # (the property test above checks each optimiser on smaller boards)
@pytest.mark.parametrize("name", OPTIMISERS)
def test_each_optimiser_agrees_with_ours_on_queens(name: str) -> None:
    for n, task, independent in ((7, "dominate", False), (6, "dominate", True), (6, "max", False)):
        p = Problem(n, walls=[(2, 2)])
        assert _answer(name, p, task, independent) == _answer("bitmask", p, task, independent), (n, task)


def test_verify_compares_the_optima_and_their_counts():
    from .conftest import run

    r = run("verify", "6", "--wall", "2,2", "--task", "max", "--backends", "bitmask,cpsat,sat")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.count("(optimal)") == 3 and r.stdout.rstrip().endswith("agree")
    refused = run("verify", "6", "--task", "dominate", "--depth", "2")
    assert refused.exit_code == 2 and "no --against and no --depth" in refused.stderr


def test_fuzz_judges_the_optima_of_our_backends():
    from .conftest import run

    r = run("fuzz", "--backends", "cpsat,sat", "--task", "dominate", "--max-n", "5", "--instances", "12", "--walls")
    assert r.exit_code == 0 and "no disagreement in 12 instances" in r.stdout, r.stderr
    refused = run("fuzz", "--against", "true", "--task", "max")
    assert refused.exit_code == 2 and "not a program's answers" in refused.stderr
