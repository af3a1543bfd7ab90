"""Any SAT solver binary (`--sat-solver cmd:...`), run on the exported DIMACS: Debian's cadical
and picosat where installed (`.ci/run` installs them), shell stand-ins for the failures."""

import io
import shutil
import time

import pytest

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.export import export
from tests.conftest import A000170, gone, watched_run

pytestmark = pytest.mark.timeout(120)

def _binary(cmd: str, *marks: pytest.MarkDecorator):
    program = cmd.split()[0]
    missing = shutil.which(program) is None
    why = f"{program} is not installed (apt-get install {program})"
    return pytest.param(cmd, marks=[pytest.mark.skipif(missing, reason=why), *marks])


#: Seconds each: run by `pytest --full` (the quick line checks a SAT binary's answers in
#: test_answers_checked.py).
BINARIES = [_binary("cadical -q {cnf}", pytest.mark.long), _binary("picosat", pytest.mark.long)]


@pytest.mark.slow
@pytest.mark.parametrize("binary", BINARIES)
def test_a_solver_binary_decides_and_counts_like_the_others(binary):
    option = {"sat_solver": f"cmd:{binary}"}
    assert nq.count(8, "sat", **option) == A000170[7]
    p = Problem(8, blocked=[(0, 0), (3, 4)], fixed=[(1, 6)])
    assert p.is_solution(nq.first(p, "sat", **option))
    assert nq.first(3, "sat", **option) is None
    assert nq.count(Problem(6, "RN"), "sat", **option) == nq.count(Problem(6, "RN"))


@pytest.mark.parametrize(
    "command, code, says",
    [
        ("cmd:no-such-solver {cnf}", 2, "not found"),
        ("cmd:echo hello", 2, "no SAT-competition answer"),
        ("cmd:sh -c 'echo s SATISFIABLE; echo v 1 2 3 0'", 1, "wrong answer from sat (cmd:sh): a model that is no"),
        ("cmd:sh -c 'sleep 60.0417'", 3, "time limit"),
    ],
)
def test_a_bad_binary_is_one_line_and_leaves_no_process(command, code, says):
    start = time.monotonic()
    proc, seen = watched_run(["first", "8", "-b", "sat", "--sat-solver", command, "--time-limit", "1"])
    err = proc.stderr.decode().strip()
    assert proc.returncode == code and says in err and len(err.splitlines()) == 1, err
    assert time.monotonic() - start < 15
    assert gone(seen), "the binary outlived the run"  # only the processes this run started


@pytest.mark.parametrize(
    "problem",
    [Problem(3, blocked=[(0, 0)]), Problem(3, walls=[(1, 1)]), Problem(4, pieces=6, pawns=1)],
    ids=["one a row", "walls", "pawns"],
)
def test_the_cnf_a_binary_is_given_is_the_one_export_writes(tmp_path, problem):
    """A user reads the file their solver was given as an exported one: the same header (each
    variable's square, the pawns' variables) and clauses. A board that takes the squares
    formulation was given its CNF under the permutation's header, naming the wrong squares.
    Boards without a placement, so that the stand-in's answer (none) is true."""
    given = tmp_path / "given.cnf"
    solver = f"cmd:sh -c 'cp \"$0\" {given}; echo s UNSATISFIABLE; exit 20' {{cnf}}"
    assert nq.first(problem, "sat", sat_solver=solver) is None
    exported = io.StringIO()
    export(problem, "dimacs", exported)
    assert given.read_text() == exported.getvalue()
