"""Our comparison runs as BenchExec result files, read by BenchExec's own table-generator (the
`benchexec` package): the table it writes holds every run with its status, category, times and
memory, as our results file says them."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import compared, run

TABLE_GENERATOR = shutil.which("table-generator", path=str(Path(sys.executable).parent)) or shutil.which(
    "table-generator"
)
needs_benchexec = pytest.mark.skipif(
    TABLE_GENERATOR is None, reason="benchexec is not installed (pip install -e '.[test]')"
)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A real comparison's results: one answer made wrong and one run timed out, as compare
    records them."""

    def wrong_and_timed_out(rows: list[dict[str, str]]) -> None:
        assert len(rows) == 8
        rows[2]["answer"], rows[2]["check"] = "11", "disagree: cpsat gave another count"  # queen-5, bitmask
        rows[7].update(status="unknown", reason="time limit", answer="", check="")  # queen-7, cpsat

    return compared(tmp_path_factory.mktemp("benchexec"), "4..7", "bitmask,cpsat", wrong_and_timed_out)


def _table(folder: Path, *files: Path) -> list[list[str]]:
    r = subprocess.run(
        [TABLE_GENERATOR, *map(str, files), "--outputpath", str(folder), "--format", "csv", "--name", "t"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    (table,) = [t for t in folder.glob("*.csv") if not t.name.endswith(".diff.csv")]  # (named by how many it merged)
    with table.open() as f:
        return list(csv.reader(f, delimiter="\t"))


@needs_benchexec
@pytest.mark.timeout(300)
def test_table_generator_reads_our_runs_as_they_are(results, tmp_path):
    target = tmp_path / "runs.xml"
    r = run("report", results, "--to", "benchexec", "-o", target)
    assert r.exit_code == 0, r.stderr
    files = [tmp_path / "runs.bitmask.xml", tmp_path / "runs.cpsat.xml"]
    assert all(f.exists() for f in files) and not target.exists()  # a file per backend: one run set each
    table = _table(tmp_path / "table", *files)
    _tools, sets, header, *body = table
    assert sets[1:] == ["bitmask"] * 7 + ["cpsat"] * 7
    assert header[1:8] == ["status", "category", "cputime (s)", "walltime (s)", "memory (MB)", "answer", "check"]
    rows = {line[0]: line[1:] for line in body}
    assert sorted(rows) == ["queen-4", "queen-5", "queen-6", "queen-7"]
    ours = {(row["instance"], row["backend"]): row for row in csv.DictReader(results.open())}
    for (instance, backend), row in ours.items():
        cells = rows[instance][:7] if backend == "bitmask" else rows[instance][7:]
        status, category, cpu, wall, memory, answer, _check = cells
        assert float(cpu) == pytest.approx(float(row["cpu_seconds"]), abs=1e-6)
        assert float(wall) == pytest.approx(float(row["seconds"]), abs=1e-6)
        assert float(memory) == pytest.approx(float(row["peak_mb"]) * 2**20 / 1e6, rel=1e-3)  # SI MB, as BenchExec
        if row["status"] == "unknown":
            assert (status, category, answer) == ("TIMEOUT", "unknown", "")
        elif row["check"].startswith("disagree"):
            assert (status, category, answer) == ("solved", "wrong", "11")
        else:
            assert (status, category, answer) == ("solved", "correct", row["answer"])


@needs_benchexec
@pytest.mark.timeout(300)
def test_compare_writes_benchexec_results_as_it_ends(tmp_path):
    target = tmp_path / "one.xml"
    r = run("compare", "--n", "4..6", "--backends", "bitmask", "--benchexec", target)
    assert r.exit_code == 0, r.stderr
    body = _table(tmp_path / "table", target)[3:]
    assert [line[0] for line in body] == ["queen-4", "queen-5", "queen-6"]
    assert [line[6] for line in body] == ["2", "10", "4"]  # A000170
    assert run("compare", "--n", "4", "--backends", "bitmask", "--benchexec", tmp_path / "x.csv").exit_code == 2


def test_report_refuses_what_it_cannot_write(results, tmp_path):
    for args in (["--to", "benchexec"], ["--to", "latex", "-o", tmp_path / "a.xml"], ["-o", tmp_path / "a.xml"]):
        r = run("report", results, *args)
        assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
