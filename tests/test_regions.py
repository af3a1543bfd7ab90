"""Region maps (the daily "Queens" puzzle and its kin): exactly one piece in each region, beside
the piece's own rule. Ground truth: a brute force written here from the rules (every
permutation, the moves stepped on the board, the regions counted), against every backend that
declares the rule."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp import InvalidProblem, Problem, Rule
from nqueens_cp.backends import backend_class
from nqueens_cp.check.answers import read_answers
from nqueens_cp.io.formats import read_model
from tests.conftest import run
from tests.test_pieces import brute_force as stepped
from tests.test_walls import _answers

#: The backends that model region maps, as they declare.
MODELLED = [name for name in nq.BACKENDS if Rule.REGIONS in backend_class(name).capabilities.rules]

#: A 6x6 puzzle with exactly one solution for the region puzzle's piece (rook + one diagonal step).
PUZZLE = ["AAAAAD", "ACABDD", "ACABDD", "AEEDDF", "EEEEEF", "EEEEEF"]


def by_the_rules(p: Problem) -> set[tuple[int, ...]]:
    """Every placement of one piece a row that no move attacks (test_pieces' brute force, which
    steps along the moves) and that puts exactly one piece in each region."""
    labels = {ch for row in p.regions for ch in row}
    if len(labels) != p.rows:
        return set()
    placements = stepped(replace(p, regions=()))
    return {perm for perm in placements if {p.regions[r][c] for r, c in enumerate(perm)} == labels}


def random_map(rng: random.Random, rows: int, n: int) -> list[str]:
    """A map of `rows` labels (sometimes one short: no solution), each square's drawn at random."""
    k = rows if rng.random() < 0.85 else max(1, rows - 1)
    labels = "ABCDEFGHIJ"[:k]
    cells = [rng.choice(labels) for _ in range(rows * n)]
    cells[: len(labels)] = list(labels)  # every label on the board
    rng.shuffle(cells)
    return ["".join(cells[r * n : (r + 1) * n]) for r in range(rows)]


def test_the_rule_is_declared_by_our_engine_and_the_squares_backends():
    assert {"bitmask", "cpsat", "sat", "minizinc", "clingo", "cpmpy"} <= set(MODELLED)
    assert Rule.REGIONS not in backend_class("constraint").capabilities.rules


@pytest.mark.slow
@pytest.mark.parametrize("name", MODELLED)
def test_every_backend_that_declares_the_rule_agrees_with_the_rules(name):
    why = backend_class(name).missing()
    if why:
        pytest.skip(f"{name}: {why}")
    rng = random.Random(5)
    for _ in range(12 if name == "bitmask" else 4):
        n = rng.randint(4, 6)
        rows = n if rng.random() < 0.8 else n - 1
        p = Problem(n, rng.choice(["RF", "queen", "rook", "RN"]), regions=random_map(rng, rows, n), rows=rows)
        truth = by_the_rules(p)
        assert set(nq.solve(p, name)) == truth, p
        assert nq.count(p, name) == len(truth)


def test_the_puzzle_has_one_solution_on_every_backend():
    p = Problem(6, "RF", regions=PUZZLE)
    truth = by_the_rules(p)
    assert len(truth) == 1
    for name in MODELLED:
        if backend_class(name).missing() is None:
            assert nq.count(p, name) == 1 and nq.first(p, name) in truth, name


def test_explain_names_two_pieces_in_one_region():
    p = Problem(4, "rook", regions=["AABB", "AABB", "CCDD", "CCDD"])
    assert "stand in one region ('A')" in p.explain((0, 1, 2, 3))
    assert p.explain((0, 2, 1, 3)) is None


def test_a_map_of_another_number_of_regions_has_no_solution_and_says_why(tmp_path):
    model = tmp_path / "three.toml"
    model.write_text('n = 4\npiece = "RF"\nregions = ["AAAA", "AAAA", "BBBB", "CCCC"]\n')
    r = run("count", "--model", model)
    assert r.exit_code == 0 and r.stdout.strip() == "0"
    assert r.stderr.strip() == "nqueens: no solution: the map has 3 regions for 4 pieces (exactly one in each)"


@pytest.mark.parametrize(
    "regions, says",
    [
        (["AAB", "AAB"], "regions has 2 rows"),
        (["AAB", "AABB", "AAB"], "regions row 1 has 4 labels"),
        (["AA B", "AABB", "AABB", "AABB"], "a space"),
        ("AAB", "a list of"),
        ([["A", "A", "B"]] * 3, "must be strings"),
    ],
)
def test_a_bad_map_is_refused_in_one_line(regions, says, tmp_path):
    with pytest.raises(InvalidProblem, match=says):
        Problem(3 if len(regions) != 4 else 4, regions=regions)
    model = tmp_path / "bad.toml"
    model.write_text(f"n = 3\nregions = {json.dumps(regions)}\n")
    r = run("count", "--model", model)
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1


def test_classes_of_a_symmetric_map_match_a_second_backend():
    p = Problem(6, "RF", regions=["AABBCC", "AABBCC", "DDEEFF", "FFEEDD", "CCBBAA", "CCBBAA"])
    assert "rot180" in nq.count_classes(p).group
    assert nq.count_classes(p) == nq.count_classes(p, "cpsat")


@pytest.mark.slow
def test_generated_puzzles_have_exactly_one_solution_by_a_second_backend_and_come_again_from_their_seed(tmp_path):
    """Each map the generator writes has one solution: by CP-SAT's squares model and by the brute
    force here; the same seed writes the same files; the grades are what --json says."""
    out = tmp_path / "set"
    r = run("generate", "regions", "--n", 7, "--count", 6, "--seed", 3, "--out", out, "--json")
    assert r.exit_code == 0, r.output
    listed = json.loads(r.stdout)["puzzles"]
    assert len(listed) == 6
    for entry in listed:
        p = read_model(entry["file"])
        assert p.piece == "RF" and len({ch for row in p.regions for ch in row}) == 7
        truth = by_the_rules(p)
        assert len(truth) == 1 and nq.count(p, "cpsat") == 1 and set(nq.solve(p, "cpsat")) == truth
        assert entry["grade"] in ("easy", "medium", "hard")
    again = tmp_path / "again"
    assert run("generate", "regions", "--n", 7, "--count", 6, "--seed", 3, "--out", again).exit_code == 0
    assert [f.read_text() for f in sorted(out.iterdir())] == [f.read_text() for f in sorted(again.iterdir())]
    r = run("generate", "regions", "--n", 4, "--out", tmp_path / "one")
    assert r.stdout.startswith(f"wrote 1 region puzzle of 4x4 to {tmp_path / 'one'} ("), r.output
    r = run("generate", "regions", "--n", 7, "--count", 2, "--seed", 3, "--out", tmp_path / "hard",
            "--difficulty", "hard", "--json")
    assert all(x["grade"] == "hard" for x in json.loads(r.stdout)["puzzles"])


@pytest.mark.parametrize(
    "args, says",
    [
        (["--n", "7"], "give --out DIR"),
        (["--n", "7", "--out", "x", "--difficulty", "brutal"], "--difficulty must be one of"),
        (["--n", "7", "--out", "x", "--piece", "nope"], "nope"),
        # no placement at all, said at once (it was "none ... in 500 maps", after trying them)
        (["--n", "3", "--out", "x"], "no 3x3 region puzzle exists for the piece RF: no 3 of it fit"),
        (["--n", "3", "--out", "x", "--piece", "queen"], "no 3x3 region puzzle exists for the piece queen"),
    ],
)
def test_generate_regions_refuses_bad_input_in_one_line(args, says, tmp_path):
    r = run("generate", "regions", *[a.replace("x", str(tmp_path / "x")) if a == "x" else a for a in args])
    assert r.exit_code == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.output


def test_every_export_states_the_regions_or_refuses_them(tmp_path):
    """The MiniZinc export wrote the permutation's model, without the map: a puzzle of one
    solution exported as one of many."""
    model = Path(__file__).parent.parent / "models" / "regions-queens-8.toml"
    r = run("export", "--model", model, "--to", "mzn", "-o", tmp_path / "p.mzn")
    assert r.exit_code == 0 and "region" in (tmp_path / "p.dzn").read_text()
    r = run("export", "--model", model, "--to", "dimacs")  # (refused, "no regions", before the squares CNF)
    assert r.exit_code == 0 and "a region map; the squares formulation" in r.stdout
    (model_of_it,) = _answers(r.stdout)  # every model, by python-sat: the puzzle's one solution
    judged = run("check", "--model", model, "-", input=model_of_it)
    assert judged.stdout.startswith("1 solution read: 1 valid and distinct"), judged.output
    (answer,) = read_answers(model_of_it.splitlines(), read_model(model))
    assert [answer.solution] == list(nq.solve(read_model(model), "cpsat"))
    for fmt in ("lp", "cpsat"):
        r = run("export", "--model", model, "--to", fmt)
        assert r.exit_code == 0 and ("in(" in r.stdout if fmt == "lp" else "x0_" in r.stdout), fmt


def test_a_solved_map_is_drawn_with_its_regions():
    p = Problem(4, "rook", regions=["AABB", "AABB", "CCDD", "CCDD"])
    assert str(nq.draw(p, (0, 2, 1, 3))).splitlines()[0] == "R a b b"
    svg = nq.draw(p, (0, 2, 1, 3))._repr_svg_()
    assert svg is not None and svg.count('data-region="A"') == 4


@pytest.mark.slow
def test_the_fuzzer_draws_region_maps_and_our_backends_agree_on_them():
    from nqueens_cp.check import fuzz as fz

    families = fz.Families(pieces=("queen", "RF"), max_n=6, regions=True)
    rng = random.Random(2)
    drawn = [fz.draw(rng, families) for _ in range(200)]
    maps = [p for family, p in drawn if family == "regions"]
    assert len(maps) > 20 and all(p.regions for p in maps)
    r = run("fuzz", "--backends", "cpsat,sat", "--regions", "--piece", "RF", "--instances", 60, "--max-n", 6, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["families"].get("regions", 0) > 0, r.output


def test_a_terminal_sees_each_region_on_its_colour(capsys):
    from nqueens_cp.cli.solving import coloured
    from nqueens_cp.model.drawing import draw, region_colours

    p = Problem(4, "rook", regions=["AABB", "AABB", "CCDD", "CCDD"])
    coloured(p, draw(p, (0, 2, 1, 3)))
    shown = capsys.readouterr().out.splitlines()
    assert [line.split() for line in shown] == [row.split() for row in draw(p, (0, 2, 1, 3))]
    assert len(set(region_colours(p).values())) == 4
