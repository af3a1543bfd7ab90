"""JSON with a contract: every --json record and every JSON line of runs names its format and
version, and is valid against the JSON Schema shipped for that format (nqueens_cp/schemas/,
no field beyond those it lists); each field a schema lists is documented in docs/json.md."""

from __future__ import annotations

import json
import re
import sys
import tempfile
from importlib.resources import files
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import run

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = files("nqueens_cp") / "schemas"
FUZZ_SOLVER = ROOT / "tests" / "data" / "fuzz_solver.py"
MODEL = str(ROOT / "models" / "preplaced-8.txt")
SOLVER = f"{sys.executable} {FUZZ_SOLVER} none {{model}} solve"  # (a bug to order: none)


def _schema(fmt: str) -> dict:
    name, version = re.fullmatch(r"nqueens_cp\.([a-z]+)/(\d+)", fmt).groups()  # type: ignore[union-attr]
    return json.loads((SCHEMAS / f"{name}-{version}.json").read_text())


def _records(*args: object, ok: tuple[int, ...] = (0,)) -> list[dict]:
    """The records `nqueens ARGS` prints (run in this process: what is printed is the same)."""
    r = run(*args)
    assert r.exit_code in ok, (args, r.exit_code, r.stderr)
    text = r.stdout.strip()
    try:
        return [json.loads(text)]  # one record (solve --json spans lines)
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines()]


def _valid(record: dict) -> str:
    fmt = record["format"]
    errors = sorted(Draft202012Validator(_schema(fmt)).iter_errors(record), key=str)
    assert not errors, f"{fmt}: {errors[0].message} at {list(errors[0].absolute_path)}"
    return fmt


def test_the_schemas_are_schemas():
    names = sorted(p.name for p in SCHEMAS.iterdir() if p.name.endswith(".json"))
    assert names and all(re.fullmatch(r"[a-z]+-\d+\.json", n) for n in names)
    for name in names:
        schema = json.loads((SCHEMAS / name).read_text())
        Draft202012Validator.check_schema(schema)
        assert schema["properties"]["format"]["const"] == "nqueens_cp.{}/{}".format(*name[:-5].rsplit("-", 1))


#: Where the case of `generate regions` writes its set, and a model with a region map.
REGIONS_OUT = Path(tempfile.gettempdir()) / "nqueens-schema-regions"
REGION_MODEL = Path(__file__).parent.parent / "models" / "regions-queens-8.toml"

PROFILE = "nqueens_cp.profile/1"
CASES = [
    (["count", "8", "--json"], (0,), "nqueens_cp.count/1"),
    (["count", "14", "--json", "--backend", "cpsat", "--time-limit", "0.05"], (3,), "nqueens_cp.count/1"),
    (["count", "13", "--json", "--workers", "2"], (0,), "nqueens_cp.count/1"),
    (["count", "7", "--unique", "--json"], (0,), "nqueens_cp.unique/1"),
    (["count", "12", "--piece", "superqueen", "--symmetric", "rot90", "--json"], (0,), "nqueens_cp.symmetric/1"),
    (["count", "8", "--profile", "--json"], (0,), "nqueens_cp.profile/1"),
    (["count", "6", "--pieces", "6", "--profile", "--json"], (0,), "nqueens_cp.profile/1"),
    # pre-placed pieces that attack each other: no root, a profile of zeros
    (["count", "4", "--pieces", "3", "--fix", "0,0", "--fix", "0,1", "--profile", "--json"], (0,), PROFILE),
    (["first", "8", "--json", "--block", "0,0"], (0,), "nqueens_cp.first/1"),
    (["first", "3", "--json"], (0,), "nqueens_cp.first/1"),
    (["solve", "6", "--json"], (0,), "nqueens_cp.solve/1"),
    (["solve", "15", "--json", "--time-limit", "0.05"], (3,), "nqueens_cp.solve/1"),  # 2.28 million: not in 0.05 s
    (["verify", "6", "--json", "--backends", "bitmask,cpsat"], (0,), "nqueens_cp.verify/1"),
    (["verify", "7", "--json", "--backends", "bitmask,cpsat", "--depth", "2"], (0,), "nqueens_cp.verify/1"),
    (["verify", "--model", MODEL, "--json", "--against", SOLVER], (0,), "nqueens_cp.verify/1"),
    (["verify", "--model", MODEL, "--json", "--against", SOLVER.replace("none", "fixed")], (1,), "nqueens_cp.verify/1"),
    (["fuzz", "--json", "--instances", "10", "--against", SOLVER], (0,), "nqueens_cp.fuzz/1"),
    (["fuzz", "--json", "--max-n", "10", "--against", SOLVER.replace("none", "bits8")], (1,), "nqueens_cp.fuzz/1"),
    (["backends", "--json"], (0,), "nqueens_cp.backends/2"),
    (["generate", "regions", "--n", "6", "--count", "2", "--out", str(REGIONS_OUT), "--force", "--json"], (0,),
     "nqueens_cp.regions/1"),
    (["count", "--model", str(REGION_MODEL), "--json"], (0,), "nqueens_cp.count/1"),
    (["count", "8", "--pieces", "9", "--pawns", "1", "--json"], (0,), "nqueens_cp.count/1"),
    (["count", "8", "--pieces", "9", "--pawns", "1", "--unique", "--json"], (0,), "nqueens_cp.unique/1"),
    (["first", "8", "--pieces", "9", "--pawns", "1", "--json"], (0,), "nqueens_cp.first/1"),
    (["solve", "6", "--pieces", "7", "--pawns", "1", "--json"], (0,), "nqueens_cp.solve/1"),
    (["verify", "6", "--wall", "2,2", "--json", "--backends", "bitmask,cpsat"], (0,), "nqueens_cp.verify/1"),
    (["max", "6", "--wall", "2,2", "--count", "--json"], (0,), "nqueens_cp.max/1"),
    (["dominate", "6", "--independent", "--json"], (0,), "nqueens_cp.dominate/1"),
    (["dominate", "14", "--json", "--time-limit", "0.2"], (3,), "nqueens_cp.dominate/1"),
    (["verify", "6", "--task", "dominate", "--json", "--backends", "bitmask,cpsat"], (0,), "nqueens_cp.optima/1"),
    (["fuzz", "--json", "--instances", "10", "--walls", "--pawns", "--backends", "cpsat"], (0,), "nqueens_cp.fuzz/1"),
]


@pytest.mark.parametrize("args, ok, expected", CASES, ids=[" ".join(c[0][:3]) for c in CASES])
def test_every_json_record_says_its_format_and_keeps_to_its_schema(args, ok, expected):
    (record,) = _records(*args, ok=ok)
    assert next(iter(record)) == "format"  # the first key: a reader knows what follows
    assert _valid(record) == expected


def test_a_table_s_records_keep_to_count_s_schema_a_term_each():
    """A table of pieces counted in one search (the profile's entries) writes count records."""
    records = _records("count", "5", "--pieces", "2..4", "--json")
    assert [_valid(r) for r in records] == ["nqueens_cp.count/1"] * 3
    assert [r["pieces"] for r in records] == [2, 3, 4]


def test_compare_s_json_lines_and_results_files_keep_to_theirs(tmp_path):
    lines = _records("compare", "--n", "4..6", "--backends", "bitmask,cpsat", "--json", "-o", tmp_path / "r.jsonl")
    assert [_valid(r) for r in lines] == ["nqueens_cp.run/1"] * 6 + ["nqueens_cp.summary/1"]
    kept = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [_valid(r) for r in kept] == ["nqueens_cp.run/1"] * 6
    resumed = ("--json", "--resume", "-o", tmp_path / "r.jsonl")
    again = _records("compare", "--n", "4..7", "--backends", "bitmask", *resumed)
    assert len(again) == 2  # the file, format lines and all, is read back and resumed: one new run


def test_every_field_of_every_schema_is_documented():
    doc = (ROOT / "docs" / "json.md").read_text()
    for path in SCHEMAS.iterdir():
        if not path.name.endswith(".json"):
            continue
        schema = json.loads(path.read_text())
        fmt = schema["properties"]["format"]["const"]
        assert f"`{fmt}`" in doc, f"docs/json.md does not document {fmt}"
        section = doc.split(f"`{fmt}`", 1)[1].split("\n## ", 1)[0]
        missing = [name for name in schema["properties"] if f"`{name}`" not in section]
        assert not missing, f"docs/json.md, {fmt}: {missing} undocumented"
