"""The counting kernel written for one piece (kernels/generated.py): against the brute force of
test_pieces (moves stepped out on the board), against the generic kernel node for node, the
hand-over from the generic kernel mid-count, a cache folder that cannot be written, and the stop
flag."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from nqueens_cp import Piece, Problem
from nqueens_cp.backends.base import Deadline, TimeLimitReached
from nqueens_cp.backends.bitmask.kernels import generated, generic
from nqueens_cp.backends.bitmask.tables import masks_array, moves
from nqueens_cp.backends.watch import tally
from tests.conftest import count_any, count_parts, examples
from tests.test_pieces import A137774, brute_force

#: Boards that exercise every part of a generated kernel: slides of one and two row steps, a
#: one-way line, leaps of 1 to 3 rows, a torus (every move a leap), rectangles, blocked and
#: fixed squares. A kernel is compiled per piece (not per board), once per machine.
BOARDS = [
    Problem(7, "RNN", blocked=[(2, 3)]),
    Problem(8, "RNN", rows=6, fixed=[(0, 1)]),
    Problem(7, Piece.of(lines=[[1, -1]], riders=[[0, 1]])),
    Problem(8, "RZ", rows=5),
    Problem(7, "RN"),
    Problem(6, "RN", torus=True),
    Problem(7, "QNN", rows=5, blocked=[(0, 0), (4, 6)]),
]


#: OEIS A189876: queen + zebrarider (Betza QZZ: the (2, 3) rider, slides of two and three row
#: steps), n = 1..18.
A189876 = [1, 0, 0, 2, 10, 0, 0, 0, 0, 16, 60, 40, 304, 620, 2512, 8734, 28410, 94312]
#: OEIS A099152: rooks that also attack along the anti-diagonals only (permutations p with the
#: p(i) + i distinct), n = 1..13.
A099152 = [1, 1, 3, 7, 23, 83, 405, 2113, 12657, 82297, 596483, 4698655, 40071743]


def own(p: Problem) -> tuple[int, int]:
    """(count, nodes) by the piece's own kernel, compiled or loaded for the test."""
    slides, reach = moves(p)
    kernel = generated.CACHE.kernel(generated.key(slides, reach, p.rows))
    assert kernel is not None
    stop, out = tally(), np.zeros(1, np.int64)
    kernel(masks_array(p)[None], reach, np.ones(1, np.int64), out, stop)
    return int(out[0]), int(stop[1])


def by_the_generic_kernel(p: Problem) -> tuple[int, int]:
    stop, out = tally(), np.zeros(1, np.int64)
    generic.count_items(masks_array(p)[None], *moves(p), np.ones(1, np.int64), out, stop, 1 << 62)
    return int(out[0]), int(stop[1])


@pytest.mark.parametrize("p", BOARDS, ids=lambda p: f"{p.piece}-{p.shape}{'-torus' * p.torus}")
def test_a_piece_s_own_kernel_counts_what_the_brute_force_finds(p):
    count, nodes = own(p)
    assert count == len(brute_force(p))
    assert (count, nodes) == by_the_generic_kernel(p)  # the same tree, walked node for node


@pytest.mark.slow
def test_published_counts_through_the_piece_s_own_kernel(monkeypatch):
    """Every count below by the pieces' own kernels from the first placement (the count path:
    classes from 11 columns, half or all of the first row below), against OEIS."""
    monkeypatch.setattr(generated, "SPECIALISE_AFTER", 0)
    assert [nq.count(Problem(n, "QZZ"), workers=1) for n in range(1, 19)] == A189876
    line = Piece.of(lines=[[1, -1]], riders=[[0, 1]])
    assert [nq.count(Problem(n, line), workers=1) for n in range(1, 14)] == A099152


@st.composite
def boards(draw):
    """Random boards for a few pieces (one compiled kernel each; a torus's depends on its rows,
    so its boards have 5 rows)."""
    piece = draw(st.sampled_from(["RNN", "RZ", "QNN", "RF", "line"]))
    if piece == "line":
        piece = Piece.of(lines=[[1, 2]], riders=[[0, 1]])
    torus = draw(st.booleans())
    n = draw(st.integers(5, 7))
    rows = 5 if torus else draw(st.integers(3, n))
    squares = st.tuples(st.integers(0, rows - 1), st.integers(0, n - 1))
    blocked = draw(st.lists(squares, max_size=4, unique=True))
    fixed = draw(st.lists(squares, max_size=1))
    if fixed and fixed[0] in blocked:
        fixed = []
    return Problem(n, piece, rows=rows, torus=torus, blocked=blocked, fixed=fixed)


@pytest.mark.slow
@settings(max_examples=examples(40))
@given(boards())
def test_random_boards_count_alike_on_the_piece_s_kernel_and_the_brute_force(p):
    count, nodes = own(p)
    assert count == len(brute_force(p))
    assert (count, nodes) == by_the_generic_kernel(p)


def test_the_generic_kernel_hands_over_mid_count_and_the_count_stays_exact(monkeypatch, tmp_path):
    """The generic kernel starts, gives up the item under way after its budget, and the
    piece's kernel counts that item again from its start: nothing counted twice or lost."""
    cache = generated.KernelCache(tmp_path, specialise_after=500)  # nothing on disk
    monkeypatch.setattr(generated, "CACHE", cache)
    p = Problem(10, "RN")
    stats: dict[str, int] = {}
    assert count_any(p, Deadline("t", None), stats) == A137774[9]
    assert generated.key(*moves(p), p.rows) in cache.loaded
    assert stats["nodes"] > by_the_generic_kernel(p)[1] // 2  # half the first row, plus what was searched twice


def test_a_cache_folder_that_cannot_be_written_leaves_the_count_to_the_generic_kernel(monkeypatch, tmp_path):
    (tmp_path / "file").write_text("")
    cache = generated.KernelCache(tmp_path / "file" / "pieces", specialise_after=10)
    monkeypatch.setattr(generated, "CACHE", cache)
    assert nq.count(Problem(9, "RN"), workers=1) == A137774[8]
    assert not cache.loaded and cache.unavailable


def test_a_write_that_fails_leaves_no_temporary_file(monkeypatch, tmp_path):
    def full(*_):
        raise OSError(28, "No space left on device")

    cache = generated.KernelCache(tmp_path / "pieces")
    monkeypatch.setattr(generated.os, "replace", full)
    p = Problem(6, "RNN")
    assert cache.kernel(generated.key(*moves(p), p.rows)) is None
    assert list((tmp_path / "pieces").iterdir()) == []


@pytest.mark.parametrize("kernel", ["own", "generic"])
def test_a_count_stops_at_the_deadline_with_the_solutions_found_as_lower_bound(kernel, monkeypatch):
    """Both kernels stop mid-item within the deadline's second, and keep what they found: the
    part finished (weighted) and the stopped part's solutions so far."""
    p = Problem(17, "RN")  # minutes of search
    slides, reach = moves(p)
    if kernel == "own":
        assert generated.CACHE.kernel(generated.key(slides, reach, p.rows)) is not None  # compiled first
    else:
        monkeypatch.setattr(generated, "key", lambda *_: None)
    masks = np.stack([masks_array(p)] * 2)
    solution = nq.first(p)
    masks[0] = [1 << c for c in solution]  # part 0: that solution alone, counted before the long one
    start = time.monotonic()
    with pytest.raises(TimeLimitReached) as info:
        count_parts(masks, slides, reach, np.array([5, 1]), {}, Deadline("t", 0.3))
    assert time.monotonic() - start < 1.5
    assert info.value.partial > 5  # part 0's solution, weighted 5, and some of part 1's


def test_no_compile_starts_near_the_deadline(monkeypatch, tmp_path):
    """A compile cannot be stopped: within COMPILE_SECONDS of the deadline the generic kernel
    keeps the count (here to its end), and the piece's kernel is not written."""
    asked = []
    cache = generated.KernelCache(tmp_path, specialise_after=100)  # nothing on disk
    monkeypatch.setattr(cache, "kernel", lambda k: asked.append(k))
    monkeypatch.setattr(generated, "CACHE", cache)
    p = Problem(9, "RN")
    assert count_any(p, Deadline("t", generated.COMPILE_SECONDS / 2), {}) == A137774[8]
    assert not asked
    assert count_any(p, Deadline("t", None), {}) == A137774[8]  # no deadline: it would compile
    assert asked


def test_a_new_generator_or_a_changed_helper_makes_a_new_kernel_file(monkeypatch):
    """numba's cache notices a change of the generated file only: a kernel's file name covers
    the generator's version and the helpers it imports, so neither can serve stale code."""
    p = Problem(7, "RN")
    k = generated.key(*moves(p), p.rows)
    before = generated._written(k)[1]
    for change in ("generator", "helpers"):
        generated._written.cache_clear()
        with monkeypatch.context() as m:
            if change == "generator":
                m.setattr(generated, "GENERATOR", generated.GENERATOR + 1)
            else:
                m.setattr(generated, "_helpers_digest", lambda: b"another helper")
            assert generated._written(k)[1] != before, change
    generated._written.cache_clear()
    assert generated._written(k)[1] == before
