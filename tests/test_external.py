"""Verifying against any solver: model export, answers read back, and external programs.

Ground truth comes from outside the code under test: the exported CNF is solved by python-sat
and enumerated with our own blocking loop here, the exported CP-SAT model by OR-tools directly,
and both are compared with the brute force of conftest; external solvers are the examples/
programs, a correct one and one with a known bug."""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.check.answers import AnswerFormatError, judge, read_answers
from nqueens_cp.export import export
from nqueens_cp.io.formats import read_model
from tests.conftest import (
    A000170,
    MODELS,
    brute_force_problem,
    children_of_a_killed_run,
    examples,
    gone,
    interrupt_when,
    problem_strategy,
    run,
    script,
)

ROOT = Path(__file__).resolve().parents[1]
GOOD = f"{sys.executable} {ROOT / 'examples' / 'nqueens_good.py'} {{n}}"
BUGGY = f"{sys.executable} {ROOT / 'examples' / 'nqueens_buggy.py'} {{n}}"


def _cnf_text(p: Problem) -> str:
    import io

    out = io.StringIO()
    export(p, "dimacs", out)
    return out.getvalue()


def _models_of_dimacs(text: str, limit: int = 10_000) -> list[str]:
    """Every model of a DIMACS file as a solver's `v` lines, by python-sat and blocking clauses
    over the square variables named in the header."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    squares = [int(v) for v in re.findall(r"^c var (\d+) = ", text, re.M)]
    outputs = []
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=text).clauses) as s:
        while s.solve() and len(outputs) < limit:
            model = s.get_model()
            outputs.append("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
            s.add_clause([-model[v - 1] for v in squares])
    return outputs


@settings(max_examples=examples(25))
@given(problem_strategy(6))
def test_the_exported_cnf_has_exactly_the_solutions(p):
    text = _cnf_text(p)
    assert re.search(r"^p cnf \d+ \d+$", text, re.M)
    answers = [a for out in _models_of_dimacs(text) for a in read_answers(out.splitlines(True), p)]
    assert all(a.fault is None for a in answers)
    assert {a.solution for a in answers} == brute_force_problem(p)
    assert len(answers) == len(brute_force_problem(p))


@pytest.mark.slow
@pytest.mark.parametrize("p", [Problem(7, torus=True), Problem(10, "superqueen"), Problem(5, "rook", fixed=[(0, 2)])])
def test_the_exported_cnf_of_variants(p):
    answers = [a.solution for out in _models_of_dimacs(_cnf_text(p)) for a in read_answers(out.splitlines(), p)]
    assert sorted(answers) == sorted(brute_force_problem(p))


def test_an_unsatisfiable_cnf_reads_as_a_claim_of_no_solution():
    p = Problem(3)
    assert _models_of_dimacs(_cnf_text(p)) == []
    (a,) = read_answers(["s UNSATISFIABLE"], p)
    assert a.solution is None


CPSAT_CASES = [([str(n)], Problem(n)) for n in range(4, 10)] + [
    (["5", "--torus"], Problem(5, torus=True)),
    (["8", "--block", "0,0", "--fix", "1,2"], Problem(8, blocked=[(0, 0)], fixed=[(1, 2)])),
    (["10", "--piece", "superqueen"], Problem(10, "superqueen")),
]


@pytest.mark.slow
@pytest.mark.parametrize("args, p", CPSAT_CASES)
def test_the_exported_cpsat_model_solves_to_the_same_solutions(tmp_path, args, p):
    from ortools.sat.python import cp_model

    out = tmp_path / "m.txt"
    assert run("export", *args, "--to", "cpsat", "-o", out).exit_code == 0
    model = cp_model.CpModel()
    model.Proto().parse_text_format(out.read_text())
    q = [model.get_int_var_from_proto_index(i) for i in range(p.n)]  # q0..q{n-1} come first
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    found = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            found.add(tuple(self.value(v) for v in q))

    solver.solve(model, Collect())
    assert found == brute_force_problem(p)


def test_the_minizinc_export_is_the_reviewed_model_and_its_data(tmp_path):
    out = tmp_path / "b.mzn"
    r = run(
        "export", "--model", MODELS / "blocked-8.toml", "--piece", "superqueen", "--torus", "--to", "mzn", "-o", out
    )
    assert r.exit_code == 0, r.output
    assert out.read_text() == (Path(__file__).parent / "golden" / "nqueens.mzn").read_text()
    data = {}
    for stmt in out.with_suffix(".dzn").read_text().split(";"):
        stmt = re.sub(r"%.*", "", stmt).strip()
        if stmt:
            key, value = (s.strip() for s in stmt.split("=", 1))
            data[key] = value
    p = read_model(MODELS / "blocked-8.toml")
    assert data["m"] == data["n"] == "8" and data["torus"] == "true"
    # the superqueen on a torus: both diagonal families wrap modulo 8; the knight's leaps are
    # forbidden offsets 1 and 2 rows down (as residues -7..7 of the torus)
    assert sorted(re.findall(r"(-?\d+), (-?\d+), (\d+)", data["lines"])) == [("1", "-1", "8"), ("1", "1", "8")]
    leaps = {(int(a), int(b)) for a, b in re.findall(r"(-?\d+), (-?\d+)", data["forbidden"])}
    assert {(1, 2), (1, -2), (2, 1), (2, -1), (1, 6), (1, -6), (7, 2), (6, 1)} <= leaps
    assert int(data["nforbidden"]) == len(leaps)
    pairs = [tuple(int(v) - 1 for v in m) for m in re.findall(r"(\d+), (\d+)", data["blocked"])]
    assert sorted(pairs) == sorted(p.blocked) and int(data["nblocked"]) == len(p.blocked)
    assert data["nfixed"] == "0" and data["fixed"] == "array2d(1..0, 1..2, [])"
    assert run("export", 4, "--to", "mzn").exit_code == 2


# -- answers read back --------------------------------------------------------------------------


def test_every_answer_format_reads_the_same_solutions(tmp_path):
    p = Problem(6)
    truth = sorted(brute_force_problem(p))
    boards = nq.solve_n_queens(6)  # LeetCode 51
    texts = {
        "columns": "".join(" ".join(map(str, s)) + "\n" for s in truth),
        "commas": "".join(",".join(map(str, s)) + "\n" for s in truth),
        "json": json.dumps([list(s) for s in truth]),
        "jsonl": "".join(json.dumps(list(s)) + "\n" for s in truth),
        "leetcode-json": json.dumps(boards),
        "boards": "\n\n".join("\n".join(b) for b in boards) + "\n",
        "one-based": "".join(" ".join(str(c + 1) for c in s) + "\n" for s in truth),
    }
    for name, text in texts.items():
        j = judge(read_answers(text.splitlines(True), p, one_based=name == "one-based"), p)
        assert sorted(j.valid) == truth and not j.invalid and not j.duplicates, name


@pytest.mark.parametrize(
    "text, why",
    [
        ("0 1 2 3 4 5\n", "pieces (0, 0) and (1, 1) share a diagonal"),
        ("1 3 5 0 2\n", "has 5 rows, expected 6"),
        ("1 3 5 0 2 6\n", "row 5 has column 6, not in 0..5"),
        ("Q.....\n..Q...\n....Q.\n.Q....\n...Q..\n.....Q\n", "share"),
        ("QQ....\n", "board row 0 has 2 pieces"),
        ("s SATISFIABLE\nv 1 2 0\n", "row 0 has 2 pieces"),
    ],
)
def test_an_invalid_answer_is_named_with_its_reason(text, why):
    p = Problem(6)
    j = judge(read_answers(text.splitlines(True), p), p)
    assert len(j.invalid) == 1 and why in j.invalid[0][1]


@pytest.mark.parametrize(
    "text, valid, invalid",
    [
        ("[[0,4,7,5,2,6,1,3], []]\n", 1, 1),  # an array of solutions on one line
        ("[[0,4,7,5,2,6,1,3],\n []]\n", 1, 1),  # the same over lines, parsed whole
        ("[0,4,7,5,2,6,1,3]\n[]\n", 1, 1),  # JSON Lines
        ("[]\n[]\n", 0, 2),
        ('{"solutions": [[0,4,7,5,2,6,1,3], []]}\n', 1, 1),
        ('[["Q......."], []]\n', 0, 2),  # a board of one row, and an empty one
    ],
)
def test_an_empty_solution_is_judged_invalid_never_dropped(text, valid, invalid):
    """`[[0,4,7,5,2,6,1,3], []]` checked as "1 valid", exit 0: the empty array was dropped. Only
    the whole output `[]` is the list of no solutions (a claim that there is none)."""
    p = Problem(8)
    j = judge(read_answers(text.splitlines(True), p), p)
    assert (j.distinct, j.invalid_count, j.no_solution_claims) == (valid, invalid, [])
    alone = judge(read_answers(["[]\n"], p), p)
    assert alone.read == 0 and alone.no_solution_claims == [1]


@pytest.mark.timeout(60)
def test_a_program_printing_empty_solutions_disagrees():
    r = run("verify", 3, "--against", f"{sys.executable} -c \"print('[]'); print('[]')\"")
    assert r.exit_code == 1 and "DISAGREE" in r.stdout and "has 0 rows" in r.stdout, r.output
    r = run("verify", 3, "--against", f"{sys.executable} -c \"print('[]')\"")
    assert r.exit_code == 0, r.output


@pytest.mark.timeout(30)
@pytest.mark.parametrize("filler", [" ", "\t", "[0]", "[0],"])
def test_a_line_the_answer_patterns_do_not_fit_is_refused_in_one_pass(filler):
    """`[[0]`, 50 KB of spaces and `x` took 51 s (the pattern backtracked over every split of the
    spaces); 400 KB would take hours. A pass over it is linear: the timeout ends a regression."""
    p = Problem(8)
    with pytest.raises(AnswerFormatError):
        list(read_answers(["[[0]" + filler * (400_000 // len(filler)) + "x"], p))


@pytest.mark.timeout(60)
def test_an_endless_line_is_refused_before_it_fills_the_memory():
    """`check 8 /dev/zero` read one endless line until memory ran out (a MemoryError traceback)."""
    r = run("check", 8, "/dev/zero")
    assert r.exit_code == 2 and "longer than" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.output


@pytest.mark.timeout(120)
def test_every_disagreement_says_one_line_on_stderr(tmp_path):
    """check, verify --against and fuzz exited 1 with nothing on stderr: the contract is one line."""
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1 2 3 4 5 6 7\n")
    runs = [
        run("check", 8, bad),
        run("verify", 6, "--against", BUGGY),
        run("verify", 8, "--task", "count", "--against", f"{sys.executable} -c print(91)"),
        run("fuzz", "--against", f"{sys.executable} -c print(5)", "--task", "count", "--instances", 20),
    ]
    for r in runs:
        assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1, r.output
        assert r.stderr.startswith("nqueens: ")


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "task, prints",
    [("count", GOOD), ("solve", f"{sys.executable} -c print(92)"), ("first", f"{sys.executable} -c print(92)")],
)
def test_output_of_the_wrong_kind_for_the_task_is_the_user_s_to_fix(task, prints):
    """`verify --task count` against a program that prints solutions exited 1, a disagreement;
    so did a count where solutions were asked for. It is exit 2, as docs/verifying.md says."""
    r = run("verify", 8, "--task", task, "--against", prints)
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1, r.output


def test_check_command(tmp_path):
    sols = tmp_path / "s.txt"
    sols.write_text("1 3 5 0 2 4\n1 3 5 0 2 4\n0 1 2 3 4 5\n")
    r = run("check", 6, sols)
    assert r.exit_code == 1
    assert "invalid, line 3: [0, 1, 2, 3, 4, 5]: pieces (0, 0) and (1, 1) share a diagonal" in r.stdout
    assert "repeated, line 2" in r.stdout
    sols.write_text("v 1 0\n".replace("v 1 0", "s UNSATISFIABLE"))
    r = run("check", "--model", MODELS / "blocked-8.toml", sols)
    assert r.exit_code == 1 and "claims no solution, but" in r.stdout
    r = run("check", 3, sols)
    assert r.exit_code == 0 and "right, there is none" in r.stdout
    blocked = tmp_path / "b.txt"
    blocked.write_text("1 3 0 2\n")
    r = run("check", 4, "--block", "0,1", blocked)
    assert r.exit_code == 1 and "uses blocked square (0, 1)" in r.stdout
    assert run("check", 6, tmp_path / "none.txt").exit_code == 2
    blocked.write_text("hello world\n")
    r = run("check", 6, blocked)
    assert r.exit_code == 2 and "line 1" in r.stderr


# -- external programs --------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_a_correct_program_passes_and_a_buggy_one_is_shown_wrong():
    r = run("verify", 8, "--against", GOOD)
    assert r.exit_code == 0 and f"agree: the same {A000170[7]} solutions" in r.stdout
    r = run("verify", 6, "--against", BUGGY)
    assert r.exit_code == 1 and "DISAGREE" in r.stdout
    # the buggy solver never checks the anti-diagonal: every wrong board is wrong on one
    invalid = re.findall(r"line \d+: \[[\d, ]+\]: (.*)", r.stdout)
    assert invalid and all("share an anti-diagonal" in why for why in invalid)
    assert "invalid: 79" in r.stdout  # 83 printed, 4 right (A000170 for n = 6)


@pytest.mark.timeout(60)
def test_missing_and_extra_solutions_are_named(tmp_path):
    prog = tmp_path / "half.py"
    prog.write_text("print('1 3 0 2')\nprint('1 3 0 2')\n")
    r = run("verify", 4, "--against", f"{sys.executable} {prog}")
    assert r.exit_code == 1
    assert "missing: 1" in r.stdout and "[2, 0, 3, 1]" in r.stdout and "duplicates: 1" in r.stdout


@pytest.mark.slow
@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "command, code, message",
    [
        ("nosuchprogram {n}", 2, "cannot run 'nosuchprogram'"),
        (f"{sys.executable} -c 'import sys; sys.exit(\"boom\")'", 1, "exited with code 1: boom"),
        (f"{sys.executable} -c 'print(\"garbage here\")'", 2, "line 1: expected the columns"),
        (f"{sys.executable} -c 'import time; time.sleep(60)'", 3, "did not finish within 1 s"),
        ("cat {model}", 2, "give the instance with --model"),
        ("'unbalanced", 2, "No closing quotation"),
    ],
)
def test_a_failing_program_is_one_line_and_its_exit_code(command, code, message):
    import time

    start = time.monotonic()
    r = run("verify", 6, "--against", command, "--time-limit", 1)
    assert r.exit_code == code and message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.output
    assert time.monotonic() - start < 15


@pytest.mark.timeout(60)
def test_ctrl_c_stops_verify_against_and_the_program(tmp_path):
    marker = tmp_path / "started"
    prog = f"{sys.executable} -c 'import pathlib, time; pathlib.Path(\"{marker}\").touch(); time.sleep(120)'"
    code, took, err, program = interrupt_when(["verify", 6, "--against", prog], lambda _: marker.exists())
    assert marker.exists() and len(program) == 2, "the program (under its guardian) was not seen running"
    assert code == 130 and took < 10 and err.decode().strip() == "nqueens: interrupted"
    assert gone(program, within=0.2)


@pytest.mark.timeout(120)
def test_verify_against_checks_a_range_of_sizes(tmp_path):
    """A program wrong only at n = 8 passed `verify 6 --against`; a range finds it."""
    prog = tmp_path / "wrong_at_8.py"
    prog.write_text(
        "import sys, itertools\n"
        "n = int(sys.argv[1])\n"
        "for p in itertools.permutations(range(n)):\n"
        "    if len({c + r for r, c in enumerate(p)}) == len({c - r for r, c in enumerate(p)}) == n:\n"
        "        print(list(p))\n"
        "        if n == 8: break\n"
    )
    r = run("verify", "5..7", "--against", f"{sys.executable} {prog} {{n}}")
    assert r.exit_code == 0, r.output
    assert [line for line in r.stdout.splitlines() if line.startswith("n = ")] == ["n = 5:", "n = 6:", "n = 7:"]
    r = run("verify", "6..8", "--against", f"{sys.executable} {prog} {{n}}")
    assert r.exit_code == 1 and "n = 8:" in r.stdout and "missing: 91" in r.stdout


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_verify_against_bounds_our_own_enumeration_too():
    """`verify 22 --against true --time-limit 2` enumerated n = 22 with no bound."""
    start = time.monotonic()
    r = run("verify", 22, "--against", "true", "--time-limit", 1)
    assert r.exit_code == 3 and "time limit" in r.stderr
    assert time.monotonic() - start < 10


@pytest.mark.timeout(60)
def test_the_program_dies_with_verify_killed_outright(tmp_path):
    """`kill -9` of `nqueens verify --against PROG` left PROG running: it now gets a
    parent-death signal, as the harness's workers do."""
    marker = tmp_path / "started"
    prog = f"{sys.executable} -c 'import pathlib, time; pathlib.Path(\"{marker}\").touch(); time.sleep(120)'"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    args = ["verify", 6, "--against", prog]
    program, ended = children_of_a_killed_run(args, lambda _: marker.exists(), 30, tmpdir=scratch)
    assert marker.exists() and len(program) == 2, "the program (under its guardian) was not seen running"
    assert ended, "the program outlived verify killed with SIGKILL"
    assert list(scratch.iterdir()) == [], "the folder of the program's output outlived verify"


@settings(max_examples=examples(40))
@given(problem_strategy(9))
def test_the_square_of_a_variable_inverts_the_numbering(p):
    from nqueens_cp.io.dimacs import SquareOfVariable, square_variables

    numbering = square_variables(p)
    square = SquareOfVariable(p)
    assert all(square(v) == sq for sq, v in numbering.items())
    assert square(0) is None and square(len(numbering) + 1) is None


@pytest.mark.timeout(60)
def test_reading_a_sat_answer_for_a_large_board_takes_little_memory():
    """`s UNSATISFIABLE` for n = 3000 took 2 GB: the n^2 numbering of squares was built first."""
    import resource

    def one_gigabyte() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    r = subprocess.run(
        [script(), "check", "3000", "-"], input=b"s UNSATISFIABLE\n", capture_output=True, preexec_fn=one_gigabyte
    )
    assert r.returncode == 1 and b"claims no solution, but" in r.stdout, r.stderr[-300:]


def test_json_answers_stream_and_a_large_document_over_lines_is_refused(monkeypatch):
    """A 100 MB answers file took 3.4 GB: JSON Lines and one-line arrays now stream; a document
    spread over lines is read whole only up to a bound."""
    import nqueens_cp.check.answers as answers

    p = Problem(6)
    sols = sorted(nq.solve(p))
    one_line = [json.dumps([list(s) for s in sols])]
    per_line = [json.dumps(list(s)) for s in sols]
    spread = ["[", *(json.dumps(list(s)) + ("," if i < len(sols) - 1 else "") for i, s in enumerate(sols)), "]"]
    for text in (one_line, per_line, spread):
        assert sorted(a.solution for a in read_answers(text, p)) == sols
    monkeypatch.setattr(answers, "MAX_JSON_DOCUMENT", 20)
    with pytest.raises(answers.AnswerFormatError, match="JSON Lines"):
        list(read_answers(spread, p))
    assert len(list(read_answers(per_line, p))) == len(sols)  # streamed: no bound applies


def test_messages_a_user_can_act_on(tmp_path):
    """A mistyped program was a disagreement printed twice; an unknown placeholder passed through;
    1-based output got 92 lines without a hint; an empty answer file passed; "1 solutions"."""
    r = run("verify", 6, "--against", "./no-such-program {n}")
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and "no-such-program" in r.stderr
    r = run("verify", 6, "--against", "echo {x}")
    assert r.exit_code == 2 and "unknown placeholder {x}" in r.stderr
    one_based = tmp_path / "one-based.txt"
    one_based.write_text("".join(f"{[c + 1 for c in s]}\n" for s in nq.solve(6)))
    r = run("check", 6, one_based)
    assert r.exit_code == 1 and "add --one-based" in r.stdout
    assert run("check", 6, one_based, "--one-based").exit_code == 0
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    r = run("check", 6, empty)
    assert r.exit_code == 2 and "nothing to check" in r.stderr
    single = tmp_path / "single.txt"
    single.write_text("[1, 3, 5, 0, 2, 4]\n")
    r = run("verify", 6, "--against", f"cat {single}")
    assert r.exit_code == 1 and "gave 1 solution in" in r.stdout


# -- models against placements (issue 34, item 12) -----------------------------------------------


def _every_model(text: str) -> list[list[int]]:
    """Every model of a DIMACS text over all its variables, auxiliary ones included (what a
    solver's --all gives), by python-sat with a blocking clause over every variable."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf = CNF(from_string=text)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        models = list(s.enum_models())
    return [m + [-v for v in range(len(m) + 1, cnf.nv + 1)] for m in models]


PAIRWISE_CASES = [Problem(6, blocked=[(1, 1)]), Problem(5, "rook", fixed=[(0, 2)]), Problem(5, torus=True)]


@pytest.mark.parametrize("p", PAIRWISE_CASES)
def test_the_pairwise_cnf_has_one_model_per_placement(p):
    import io

    out = io.StringIO()
    export(p, "dimacs-pairwise", out)
    models = _every_model(out.getvalue())
    squares = len(re.findall(r"^c var \d+ = ", out.getvalue(), re.M))
    assert all(len(m) == squares for m in models)  # no auxiliary variable
    placements = [a.solution for m in models for a in read_answers([f"v {' '.join(map(str, m))} 0"], p)]
    assert sorted(placements) == sorted(brute_force_problem(p))


def test_check_tells_models_that_differ_only_in_auxiliary_variables_from_repeats(tmp_path):
    """Every model of the exported CNF of n = 5 (more models than its 10 placements, through the
    counters' auxiliary variables) used to be called repeats, exit 1."""
    models = _every_model(_cnf_text(Problem(5)))
    assert len(models) > 10
    output = tmp_path / "all.txt"
    output.write_text("".join(f"s SATISFIABLE\nv {' '.join(map(str, m))} 0\n" for m in models))
    r = run("check", "5", output)
    assert r.exit_code == 0, r.output
    assert "10 valid and distinct" in r.stdout and f"{len(models) - 10} models differ" in r.stdout
    assert "dimacs-pairwise" in r.stdout
    output.write_text(output.read_text() + f"s SATISFIABLE\nv {' '.join(map(str, models[0]))} 0\n")
    r = run("check", "5", output)
    assert r.exit_code == 1 and "repeated, line" in r.stdout  # the very same model again


def test_check_says_sat_output_of_another_board_is_numbered_otherwise(tmp_path):
    """SAT output for a board with a blocked square, checked against the plain board, was a list
    of invalid rows with no word of why."""
    blocked = Problem(6, blocked=[(0, 1), (2, 3)])
    models = _models_of_dimacs(_cnf_text(blocked))
    output = tmp_path / "other.txt"
    output.write_text("".join(models))
    assert run("check", "6", "--block", "0,1", "--block", "2,3", output).exit_code == 0
    r = run("check", "6", output)
    assert r.exit_code == 1 and "numbering" in r.stdout and "36 usable squares" in r.stdout


def test_export_help_names_every_format():
    from nqueens_cp.cli.files import FORMATS_HELP
    from nqueens_cp.export import formats

    assert all(re.search(rf"(^|\s){re.escape(f)} \(", FORMATS_HELP) for f in formats())


def test_a_pairwise_cnf_too_large_is_refused_before_it_is_built():
    r = run("export", "400", "--to", "dimacs-pairwise")
    assert r.exit_code == 2 and "clauses" in r.stderr and "--to dimacs" in r.stderr


def test_one_solution_agreeing_reads_as_one():
    """It read "the same 1 solutions"."""
    r = run("verify", 1, "--against", f"{sys.executable} -c print(0)")
    assert r.exit_code == 0 and "agree: the same solution, each valid" in r.stdout, r.output


def test_answers_of_one_json_line_are_named_by_their_place_in_it():
    """Every answer of `[[...], [...]]` was "line 1"."""
    r = run("check", 4, "-", input="[[1, 3, 0, 2], [0, 1, 2, 3], [1, 3, 0, 2]]\n")
    assert "line 1, item 2: [0, 1, 2, 3]" in r.stdout and "line 1, item 3: [1, 3, 0, 2]" in r.stdout, r.output


def test_verify_over_a_range_ends_with_the_sizes_that_disagreed():
    buggy = MODELS.parent / "examples" / "nqueens_buggy.py"
    r = run("verify", "4..6", "--against", f"{sys.executable} {buggy} {{n}}")
    assert r.exit_code == 1 and "overall: disagree at n = 4, 5, 6" in r.stdout, r.output
    r = run("verify", "4..6", "--backends", "bitmask,cpsat")
    assert r.exit_code == 0 and "overall: every size agrees (n = 4..6)" in r.stdout, r.output


@pytest.mark.parametrize(
    "p",
    [
        Problem(4, blocked=[(0, 0)], fixed=[(2, 0), (2, 1)]),  # two in one row: the CNF export raised KeyError
        Problem(6, fixed=[(0, 0), (1, 1)]),
        Problem(5, blocked=[(1, 1)], fixed=[(1, 1)]),
    ],
)
def test_the_exports_of_contradictory_pre_placed_pieces_have_no_solution(tmp_path, p):
    from ortools.sat.python import cp_model

    assert brute_force_problem(p) == set()
    assert _models_of_dimacs(_cnf_text(p)) == []
    out = tmp_path / "m.txt"
    fixes = [a for sq in p.fixed for a in ("--fix", f"{sq[0]},{sq[1]}")]
    blocks = [a for sq in p.blocked for a in ("--block", f"{sq[0]},{sq[1]}")]
    assert run("export", p.n, *fixes, *blocks, "--to", "cpsat", "-o", out).exit_code == 0
    model = cp_model.CpModel()
    model.Proto().parse_text_format(out.read_text())
    assert cp_model.CpSolver().solve(model) == cp_model.INFEASIBLE  # two in one row kept only one before
