"""The b-files of new OEIS terms (docs/oeis/): their form (`n a(n)` lines, `#` comments), the
terms OEIS publishes among them, the identities that tie them to published totals, and the new
terms the suite can afford, counted again."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp.model.problem import Problem
from nqueens_cp.run.partition import Checkpoint

from .conftest import benchmark, oeis, run, triangle

OEIS_DIR = Path(__file__).parent.parent / "docs" / "oeis"


def terms(number: str) -> dict[int, int]:
    """A b-file's terms, its form checked: comments first, then `n a(n)` with n consecutive."""
    out: dict[int, int] = {}
    body = False
    for line in (OEIS_DIR / f"b{number[1:]}.txt").read_text().splitlines():
        if line.startswith("#"):
            assert not body, "a comment after the terms"
            continue
        body = True
        n, value = line.split(" ")
        assert not out or int(n) == max(out) + 1
        out[int(n)] = int(value)
    return out


@pytest.mark.parametrize("number", ["A352661", "A352662", "A352663"])
def test_the_superqueen_terms_extend_oeis_s_and_keep_its_identities(number):
    got, published = terms(number), oeis(number)
    assert [got[n] for n in range(1, len(published) + 1)] == published
    a, b, c = terms("A352661"), terms("A352662"), terms("A352663")
    total, classes = oeis("A051223"), oeis("A051224")
    for n in range(2, max(got) + 1):
        assert a[n] + b[n] + c[n] == classes[n - 1], n
        assert 2 * a[n] + 4 * b[n] + 8 * c[n] == total[n - 1], n


@pytest.mark.long  # (4 s; the identities above hold every term to the published totals)
def test_the_first_new_superqueen_terms_counted_again():
    """n = 22: the half turn's solutions (4 s), and the quarter turn's (none: n = 2 mod 4)."""
    assert nq.count_symmetric(Problem(22, "superqueen"), "rot90") == 2 * terms("A352661")[22]
    fixed = nq.count_symmetric(Problem(22, "superqueen"), "rot180")
    assert fixed == 2 * terms("A352661")[22] + 4 * terms("A352662")[22]


def _rows(flat: dict[int, int]) -> list[list[int]]:
    """A b-file's triangle by rows (its first entry row 0's)."""
    return triangle([flat[i] for i in sorted(flat)])


def test_the_rows_of_k_queens_extend_a348129_and_sum_to_a287227():
    rows = _rows(terms("A348129"))
    published = _rows(dict(enumerate(oeis("A348129"))))
    assert rows[: len(published)] == published
    sums = oeis("A287227")
    for n, row in enumerate(rows):
        assert sum(row) == sums[n] and row[0] == 1 and row[1:2] == ([n * n] if n else []), n
    assert rows[11][1:] == [nq.count(Problem(11, pieces=k)) for k in range(1, 12)]  # 1.5 s


def test_the_second_method_of_a348129_gives_the_published_rows_and_the_b_file_s():
    """The row search with empty rows, every k at once, against OEIS's rows 1..10 and the b-file's
    rows 11 and 12 (counted by the layouts search: the first method); 1 s."""
    rows = _rows(terms("A348129"))
    published = _rows(dict(enumerate(oeis("A348129"))))
    recount = benchmark("recount_pieces")  # (the second method of b348129.txt)
    for n in range(1, 13):
        assert recount.row_of(n, 2) == (published[n] if n < len(published) else rows[n]), n


def test_the_profile_rows_extend_a319284_and_a269133_and_sum_to_a319283():
    profile, rectangles, sums = _rows(terms("A319284")), terms("A269133"), terms("A319283")
    published = _rows(dict(enumerate(oeis("A319284"))))
    assert profile[: len(published)] == published
    assert [sums[n] for n in range(len(oeis("A319283")))] == oeis("A319283")
    queens = oeis("A000170")
    whole = [row for n, row in enumerate(profile) if len(row) == n + 1]  # (the last row may be begun only)
    assert profile[: len(whole)] == whole and len(profile) - len(whole) <= 1 and profile[-1][0] == 1
    assert sorted(sums) == list(range(len(whole)))
    for n, row in enumerate(whole):  # a row past the published sums: its last entry is published
        assert row[0] == 1 and sum(row) == sums[n] and row[-1] == queens[n], n
    flat = [v for row in profile[1:] for v in row[1:]]  # A269133's row n: A319284's without its root
    assert [rectangles[i] for i in sorted(rectangles)] == flat and min(rectangles) == 1
    assert nq.get_backend("bitmask").profile(Problem(13)) == profile[13]
    n, begun = len(profile) - 1, profile[-1]  # a row begun: its first entries counted again, as rectangles
    assert all(nq.count(Problem(n, rows=m)) == begun[m] for m in range(1, min(len(begun), 9)))


#: A002568's terms for n = 16..18 as the live entry gives them (added October 2024), which the
#: stored copy of the OEIS data (tests/data/oeis.tsv, to n = 15) lacks.
A002568_LIVE = {16: 128, 17: 12, 18: 224}


def test_the_independent_domination_terms_are_oeis_s():
    got, published = terms("A002568"), oeis("A002568")
    assert [got[n] for n in range(1, len(published) + 1)] == published
    assert max(got) > len(published) and all(got[n] == A002568_LIVE[n] for n in got if n > len(published))


@pytest.mark.long  # (80 s: the b-file's first new term)
def test_the_first_new_independent_domination_term_counted_again():
    """n = 16: 9 queens (A075324), the sets counted below the root cut by the symmetries, and
    their classes, which OEIS publishes (A002567(16) = 16)."""
    found = nq.get_backend("bitmask").optimum(Problem(16), "dominate", independent=True, unique=True)
    assert (found.value, found.count, found.classes) == (oeis("A075324")[15], terms("A002568")[16], oeis("A002567")[15])


JOURNALS = OEIS_DIR / "journals"


def _queens_placements(n: int, placed: tuple[int, ...], rows: int) -> int:
    """The ways to put a queen in each of the next `rows` rows below `placed` (a column a row,
    from the top) that attack none: a brute force from the rules alone."""
    if not rows:
        return 1
    r = len(placed)
    return sum(
        _queens_placements(n, (*placed, c), rows - 1)
        for c in range(n)
        if all(c != q and abs(c - q) != r - k for k, q in enumerate(placed))
    )


@cache  # (each journal is read by its own test and by the progress test: once)
def _journal(path: Path) -> tuple[dict, dict[int, int]]:
    """A kept journal's fingerprint (its first line) and its records, read as a checkpoint (every
    record's check verified, a torn line refused)."""
    saved = json.loads(path.read_text().split("\n", 1)[0])["fingerprint"]
    return saved, Checkpoint(path, saved, read_only=True).done


def _depths(packed: int, n: int) -> list[int]:
    """A profile record's nodes at depths 0..n: one 64-bit field a depth, packed into one integer."""
    return [packed >> (64 * k) & ((1 << 64) - 1) for k in range(n + 1)]


@pytest.mark.parametrize("path", sorted(JOURNALS.glob("profile-*.jsonl")), ids=lambda p: p.name)
def test_a_kept_profile_journal_is_sound_and_its_records_start_right(path):
    """A long profile's journal kept beside the b-files (resumed across stops, row 21's) reads as
    a checkpoint (every record's check, no torn line), the b-files name it, and each record's
    first levels are what a brute force from the rules finds for its item: the two queens of
    the first two rows the module's docstring describes (the first in the left half, a middle
    column once, any other twice for its mirror image), the nodes at depths 2..5 below them. A
    record filed under another item, or packed otherwise, would not be."""
    saved, done = _journal(path)
    n = saved["n"]
    assert saved["split"] == "profile-two-rows" and saved["piece"] == "queen" and saved["depth"] == 2
    items = [(c0, c1, 2 if 2 * c0 + 1 < n else 1) for c0 in range((n + 1) // 2) for c1 in range(n) if abs(c1 - c0) > 1]
    assert saved["items"] == len(items)
    assert path.name in (OEIS_DIR / "b319284.txt").read_text()
    assert done, "a kept journal holds records"
    for i, packed in done.items():
        c0, c1, weight = items[i]
        vector = _depths(packed, n)
        assert packed >> (64 * (n + 1)) == 0 and vector[:2] == [0, 0], i
        assert vector[2:6] == [weight * _queens_placements(n, (c0, c1), k) for k in range(4)], i


@cache  # (read once for all of its rows' journals)
def _profile_row(n: int) -> list[int] | None:
    """Row n of A319284 from depth 2 on, summed from its kept profile journal's records alone (a
    record is the vector of an item's nodes by depth, its weight in it; the items are the first
    two rows' queens, so depths 0 and 1, the root and the first row, are in none: 0 here), or
    None while the journal is not whole."""
    path = JOURNALS / f"profile-{n}.jsonl"
    if not path.exists():
        return None
    saved, done = _journal(path)
    if len(done) < saved["items"]:
        return None
    return [sum(column) for column in zip(*(_depths(packed, n) for packed in done.values()), strict=True)]


@pytest.mark.parametrize("path", sorted(JOURNALS.glob("rows-*.jsonl")), ids=lambda p: p.name)
def test_a_kept_rows_journal_is_sound_and_a_whole_one_sums_to_the_node_counts_entry(path):
    """The second method's journals (the count of a board's first m rows, a journal a term:
    rows-N-rowsM.jsonl) read as checkpoints, the b-files name them, and a whole one re-sums
    (`--check`) to entry m of the first method's row, summed here from its own journal: two
    algorithms, two journals, one number. A journal filed under another board would not."""
    saved, done = _journal(path)
    n, m = saved["n"], saved["rows"]
    assert path.name == f"rows-{n}-rows{m}.jsonl" and saved["piece"] == "queen" and 1 <= m < n
    assert f"rows-{n}-rowsM.jsonl" in (OEIS_DIR / "b319284.txt").read_text()
    assert done, "a kept journal holds records"
    row = _profile_row(n)
    if len(done) < saved["items"] or row is None:
        return
    r = run("count", n, "--rows", m, "--checkpoint", path, "--check", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["count"] == (row[m] if m >= 2 else n)  # (one queen in a row of n: n ways)


_PROGRESS = re.compile(r"rows 1\.\.(\d+) whole(?:.*?row (\d+) at ([\d,]+) of ([\d,]+) items)?", re.S)


def test_the_docs_state_the_second_counts_progress_as_its_journals_stand():
    """The b-files' comments and the benchmarks' row say how far the second method of row 21's
    kept journals go ("rows 1..K whole", "row K+1 at X of Y
    items"): K must be the whole journals' run from row 1, X and Y the next one's records and
    items, so a journal committed without its prose, or prose without its journal, fails here."""
    progress = {}
    for path in JOURNALS.glob("rows-21-rows*.jsonl"):
        saved, done = _journal(path)
        progress[saved["rows"]] = (len(done), saved["items"])
    whole = 0
    while whole + 1 in progress and progress[whole + 1][0] == progress[whole + 1][1]:
        whole += 1
    texts = [OEIS_DIR / "b319284.txt", OEIS_DIR / "b269133.txt", OEIS_DIR.parent / "benchmarks.md"]
    for path in texts:
        text = " ".join(line.lstrip("# ") for line in path.read_text().splitlines())
        found = _PROGRESS.search(text)
        assert found, path.name
        assert int(found[1]) == whole, path.name
        if whole + 1 in progress:
            stated = (int(found[3].replace(",", "")), int(found[4].replace(",", ""))) if found[2] else None
            assert found[2] and int(found[2]) == whole + 1 and stated == progress[whole + 1], path.name
