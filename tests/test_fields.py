"""The problem's fields are declared once (`model/fields.py`), and every place that reads or
writes a whole problem derives them from there. Each test here builds a problem with every
field set, then changes one field at a time: every view (the checkpoint's fingerprint, the model
files, the fuzzer's record and shrinker, the command line's records, the symmetries) must tell
the two apart or hand the problem back whole. A field left out of any of them fails here: a
checkpoint would resume on another layout, a shrinker drop the squares, without a word."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from nqueens_cp import Problem
from nqueens_cp.backends.bitmask.partitions.base import fingerprint
from nqueens_cp.check import fuzz as fz
from nqueens_cp.cli.output import described
from nqueens_cp.io.formats import read_model, write_board, write_toml
from nqueens_cp.model.fields import FIELDS, SQUARE_FIELDS, Kind
from nqueens_cp.model.symmetry import problem_symmetries

#: Every field away from its default, on squares the text board can hold (one mark a square).
EVERY = Problem(
    7,
    "RN",
    blocked=[(0, 1), (5, 6)],
    fixed=[(2, 3)],
    torus=True,
    rows=6,
    regions=["AAABBBB", "AACCCBB", "DDCCEEE", "DDCCEEE", "FFFFEEE", "FFFFFFF"],
    walls=[(3, 0), (1, 6)],
    pieces=6,
    pawns=1,
)

#: Another value for each field (by its name), away from the default (a set of another size).
OTHER = {
    "n": 8,
    "rows": 7,
    "piece": "RF",
    "torus": False,
    "blocked": [(1, 1)],
    "fixed": [(3, 5), (4, 0)],
    "regions": ["ABCDEFA", "ABCDEFA", "ABCDEFA", "ABCDEFA", "ABCDEFA", "ABCDEFA"],
    "walls": [(3, 3)],
    "pieces": 7,
    "pawns": 2,
}


def test_every_field_has_another_value_here():
    """A new field needs its other value here, so that every test below covers it."""
    assert {f.name for f in FIELDS} == set(OTHER)


@pytest.fixture(params=[f.name for f in FIELDS])
def changed(request) -> tuple[str, Problem]:
    name = request.param
    fitted = {}  # the region map follows a board's new shape (a column, or a row, more)
    if name == "n":
        fitted = {"regions": [row + row[-1] for row in EVERY.regions]}
    elif name == "rows":
        fitted = {"regions": [*EVERY.regions, EVERY.regions[-1]]}
    return name, replace(EVERY, **{name: OTHER[name]}, **fitted)


def test_the_checkpoint_fingerprint_names_every_field(changed):
    name, other = changed
    assert fingerprint(EVERY, 3) != fingerprint(other, 3), name


@pytest.mark.parametrize("suffix, write", [(".toml", write_toml), (".txt", write_board)])
def test_every_file_format_hands_back_every_field(tmp_path: Path, changed, suffix, write):
    name, other = changed
    for p in (EVERY, other):
        path = tmp_path / f"p{suffix}"
        path.write_text(write(p))
        assert read_model(path) == p, (name, path.read_text())


def test_the_json_record_hands_back_every_field(changed):
    name, other = changed
    for p in (EVERY, other):
        assert Problem.from_dict(p.as_dict()) == p and Problem.from_dict(p.as_dict(brief=True)) == p, name


def test_the_command_line_record_names_every_field(changed):
    name, other = changed
    f = next(f for f in FIELDS if f.name == name)
    assert f.key in described(EVERY, squares=True) and described(EVERY, True) != described(other, True)
    if f.kind is not Kind.SQUARES:
        assert described(EVERY)[f.key] == getattr(EVERY, name)


def test_the_fuzzer_s_record_hands_back_every_field(changed):
    name, other = changed
    for p in (EVERY, other):
        found = fz.Shrunk(p, fz.Finding("wrong count", ["x"]), 0, True)
        example = fz.Campaign(found=found).record(0)["counterexample"]
        assert isinstance(example, dict)
        kept = {k: v for k, v in example.items() if k not in ("verdict", "detail", "minimal")}
        assert Problem.from_dict(kept) == p, name


def test_the_shrinker_keeps_every_field_and_drops_each_square_alone():
    smaller = list(fz.smaller(EVERY, fz.Families(blocked=True, fixed=True, rectangles=True, max_n=8)))
    for f in SQUARE_FIELDS:
        squares = getattr(EVERY, f.name)
        for sq in squares:  # each square of each set is left out once, the rest kept whole
            without = replace(EVERY, **{f.name: tuple(s for s in squares if s != sq)})
            assert without in smaller, (f.name, sq)
    cut = [p for p in smaller if p.n < EVERY.n]
    assert cut and all(p.piece == EVERY.piece and p.torus == EVERY.torus for p in cut)
    for f in SQUARE_FIELDS:  # a cut board keeps the squares that stay on it
        assert any(getattr(p, f.name) for p in cut), f.name


def test_the_symmetries_keep_every_set_of_squares():
    for f in SQUARE_FIELDS:
        one = replace(Problem(6), **{f.name: [(0, 1)]})
        assert problem_symmetries(one) == ("identity",), f.name
        both = replace(Problem(6), **{f.name: [(0, 1), (5, 4)]})
        assert "rot180" in problem_symmetries(both), f.name
