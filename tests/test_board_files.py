"""What `show` writes reads back as the same problem (issue 34, item 2): the piece, the torus
and the number of rows were dropped without a word (`show 6 --piece RN --fix 0,0 --block 1,1`
read back counted 0, not 12), and a rectangle written by `show` was refused by `--model`."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nqueens_cp import Problem
from nqueens_cp.io.formats import ModelFileError, read_model
from tests.conftest import A000170, MODELS, attacks, examples, run


def _same(a: Problem, b: Problem) -> bool:
    key = lambda p: (p.n, p.rows, p.piece, p.torus, sorted(p.blocked), sorted(p.fixed))  # noqa: E731
    return key(a) == key(b)


def _shown(tmp_path, *args) -> Problem:
    r = run("show", *args)
    assert r.exit_code == 0, r.output
    path = tmp_path / "board.txt"
    path.write_text(r.stdout)
    return read_model(path)


def test_the_issues_example_reads_back_and_counts_the_same(tmp_path):
    args = ("6", "--piece", "RN", "--fix", "0,0", "--block", "1,1")
    back = _shown(tmp_path, *args)
    assert _same(back, Problem(6, "RN", fixed=[(0, 0)], blocked=[(1, 1)]))
    assert run("count", "--model", tmp_path / "board.txt").stdout.strip() == "12"


@settings(max_examples=examples(40))
@given(
    n=st.integers(4, 9),
    shrink=st.integers(0, 3),
    piece=st.sampled_from(["queen", "rook", "superqueen", "RN", "QAA", "RNN"]),
    torus=st.booleans(),
    data=st.data(),
)
def test_every_shown_board_reads_back_as_the_same_problem(tmp_path_factory, n, shrink, piece, torus, data):
    rows = n if torus else max(1, n - shrink)
    squares = st.tuples(st.integers(0, rows - 1), st.integers(0, n - 1))
    blocked = data.draw(st.lists(squares, max_size=3, unique=True))
    try:
        p = Problem(n, piece, rows=rows, torus=torus, blocked=blocked)
    except Exception:
        return
    args = [str(n), "--piece", piece, "--rows", str(rows)]
    args += ["--torus"] if torus else []
    for r, c in blocked:
        args += ["--block", f"{r},{c}"]
    assert _same(_shown(tmp_path_factory.mktemp("b"), *args), p)


def test_a_rectangle_counts_as_the_brute_force_says(tmp_path):
    back = _shown(tmp_path, "6", "--rows", "4", "--block", "0,0")
    assert (back.rows, back.n) == (4, 6)
    expected = sum(  # every placement of 4 queens in distinct columns, by the rules written out again
        1
        for cols in permutations(range(6), 4)
        if cols[0] != 0 and not any(attacks("queen", a, b) for a, b in combinations(enumerate(cols), 2))
    )
    assert int(run("count", "--model", tmp_path / "board.txt").stdout) == expected


@pytest.mark.parametrize(
    "text, says",
    [
        ("# torus: maybe\n. .\n. .\n", "torus must be true or false"),
        (". . .\n. .\n", "row 1 has 2 squares"),
        (". .\n. .\n. .\n", "at most as many rows"),
        ("# piece: nonsense\n. .\n. .\n", "piece"),
    ],
)
def test_a_bad_board_file_says_what_is_wrong(tmp_path, text, says):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(ModelFileError, match=says):
        read_model(path)


@pytest.mark.parametrize(
    ("model", "given", "expected"),
    [
        ("rooks-8.toml", ["--piece", "queen"], A000170[7]),  # was 40320: the file's rooks stood
        ("queens-8.toml", ["--piece", "rook"], 40320),
        ("torus-7.toml", ["--no-torus"], A000170[6]),
        ("queens-8.toml", ["--torus"], 0),  # no toroidal solution when 2 divides n (A007705)
        ("queens-8.toml", ["--rows", "5"], 568),  # OEIS A269133
    ],
)
def test_an_option_given_with_a_model_file_overrides_it_whatever_its_value(model, given, expected):
    r = run("count", "--model", MODELS / model, *given)
    assert r.exit_code == 0 and r.stdout.split() == [str(expected)], r.output


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--model", "{model}", "-o", "{model}"],
        ["export", "--model", "{model}", "--to", "lp", "-o", "{link}"],
        ["export", "--model", "{model}", "--to", "mzn", "-o", "{mzn}"],
    ],
)
def test_an_output_never_replaces_the_run_s_own_input(tmp_path, args):
    """`solve --model m.toml -o m.toml` replaced the instance with its solutions."""
    model = tmp_path / "m.toml"
    model.write_text((MODELS / "queens-8.toml").read_text())
    (tmp_path / "link.toml").symlink_to(model)
    (tmp_path / "m.dzn").symlink_to(model)  # --to mzn -o m.mzn writes m.dzn beside it
    given = [a.format(model=model, link=tmp_path / "link.toml", mzn=tmp_path / "m.mzn") for a in args]
    before = model.read_text()
    r = run(*given)
    assert r.exit_code == 2 and "this run's own input" in r.stderr, r.output
    assert model.read_text() == before


def test_a_square_both_blocked_and_pre_placed_is_refused_not_written_as_another_board(tmp_path):
    """`show` wrote Q for such a square, dropping the block: the board read back had a solution
    where the problem has none."""
    assert run("count", 4, "--block", "1,3", "--fix", "1,3").stdout.strip() == "0"
    r = run("show", 4, "--block", "1,3", "--fix", "1,3")
    assert r.exit_code == 2 and "both blocked and pre-placed" in r.stderr and not r.stdout.strip(), r.output
