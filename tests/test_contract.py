"""The contract every registered backend keeps, run over the registry (issue 35): a new backend
is held to it by being registered, with no test of its own needed for these points. A backend
this machine cannot run (`missing()`) is skipped with the reason it gives.

Ground truth comes from outside the backends: OEIS A000170 and an independent brute force
(tests/conftest.py); every answer is also checked by the problem's own validator."""

from __future__ import annotations

import dataclasses
import re
import time

import pytest

from nqueens_cp import Piece, Problem, Rule
from nqueens_cp.backends import BACKENDS, BackendError, Capabilities, UnsupportedProblem, backend_class, get_backend
from nqueens_cp.backends.base import TASKS, Plan, Status, Task
from tests.conftest import A000170, backtrack_count, brute_force_problem


def _backend(name: str, **options):
    why = backend_class(name).missing()
    if why:
        pytest.skip(f"{name}: {why}")
    return get_backend(name, **options)


@pytest.fixture(params=BACKENDS)
def name(request) -> str:
    return request.param


def test_it_says_its_version(name):
    _backend(name)
    version = backend_class(name).version()
    assert isinstance(version, str) and version.strip()


def test_it_plans_every_task_or_refuses_it_in_one_line(name):
    b = _backend(name)
    for task in TASKS:
        try:
            plan = b.plan(Problem(6), task)
        except UnsupportedProblem as exc:
            assert str(exc) and "\n" not in str(exc)
            continue
        assert isinstance(plan, Plan) and plan.task == Task(task) and plan.reason and plan.workers >= 1


def test_it_refuses_an_option_it_cannot_honour(name):
    if backend_class(name).missing():
        pytest.skip(f"{name}: {backend_class(name).missing()}")
    with pytest.raises(UnsupportedProblem, match="cannot honour option"):
        get_backend(name, no_such_option=1)


def test_its_sub_solvers_answer_the_same_questions_the_same_way(name):
    """Sub-solvers were named three ways (`sat._solvers()`, `minizinc.solvers()`,
    `cpmpy.installed()`), each backend with its own label and its own check. Now every backend
    answers `subsolvers()` (installed, with versions), `default_subsolver()`, `label`, and the
    base class refuses an unknown one in one line before any plan."""
    cls = backend_class(name)
    b = _backend(name)
    if cls.capabilities.subsolver is None:
        assert cls.subsolvers() == {} and cls.default_subsolver() is None and b.label == name
        return
    installed = cls.subsolvers()
    assert installed and all(isinstance(v, str) for v in installed.values())
    assert cls.default_subsolver() in installed
    for solver in list(installed)[:3]:
        other = get_backend(f"{name}:{solver}")
        assert other.subsolver == solver and other.label == f"{name} ({solver})"
        assert other.takes_subsolver(solver)
    with pytest.raises(BackendError) as refused:
        get_backend(f"{name}:no-such-solver").plan(Problem(6), "count")
    assert "no-such-solver" in str(refused.value) and "\n" not in str(refused.value)


def test_it_counts_what_oeis_publishes(name):
    b = _backend(name)
    for n in (1, 4, 6, 8):
        outcome = b.count(Problem(n))
        assert outcome.status in (Status.SOLVED, Status.NO_SOLUTION) and outcome.count == A000170[n - 1], n


def test_every_solution_it_gives_passes_the_validator_and_none_is_missing(name):
    b = _backend(name)
    problem = Problem(7, blocked=[(0, 1), (3, 3)], fixed=[(1, 4)])
    found = list(b.solutions(problem))
    assert all(problem.explain(s) is None for s in found)  # (the base class checks them too)
    assert len(set(found)) == len(found) == backtrack_count(problem)


@pytest.mark.parametrize(
    "problem",
    [
        Problem(8, blocked=[(3, 3)], fixed=[(3, 3)]),  # a piece pre-placed on a blocked square
        Problem(6, blocked=[(1, 3)], fixed=[(1, 3)]),
        Problem(6, "RN", fixed=[(1, 3), (1, 4)]),  # two pre-placed pieces in one row
        Problem(7, fixed=[(0, 0), (2, 2)]),  # two that attack along a diagonal
    ],
)
def test_its_symmetry_classes_of_a_board_without_solutions_are_none(name, problem):
    """`--unique` answered 4 on the default engine and "wrong answer" on constraint where the
    pre-placed pieces contradict the board, whose count every entry point answers 0: the classes
    hold to the same rule (the brute force agrees there is no solution)."""
    b = _backend(name)
    assert not brute_force_problem(problem)
    try:
        classes = b.count_classes(problem)
    except UnsupportedProblem as exc:
        assert "\n" not in str(exc)
        return
    assert classes.unique == classes.total == 0 and b.count(problem).count == 0


def test_its_first_solution_is_valid_and_an_impossible_board_has_none(name):
    b = _backend(name)
    outcome = b.first(Problem(8))
    assert outcome.status is Status.SOLVED and Problem(8).explain(outcome.solution) is None
    assert b.first(Problem(3)).status is Status.NO_SOLUTION


@pytest.mark.timeout(60)
def test_a_time_limit_gives_an_answer_or_unknown_within_it(name):
    cls = backend_class(name)
    if not cls.capabilities.stoppable:
        _backend(name)
        with pytest.raises(UnsupportedProblem):
            get_backend(name, time_limit=1)
        return
    b = _backend(name, time_limit=0.5)
    start = time.monotonic()
    outcome = b.count(Problem(13))
    took = time.monotonic() - start
    assert outcome.status is Status.UNKNOWN or outcome.count == A000170[12]
    if outcome.status is Status.UNKNOWN:
        assert outcome.count is None or outcome.count <= A000170[12]  # a lower bound, never more
    assert took < 20  # the limit is honoured (with room for a solver's start on a busy machine)


def test_a_bad_time_limit_is_refused(name):
    if not backend_class(name).capabilities.stoppable:
        pytest.skip(f"{name} takes no time limit")
    _backend(name)
    with pytest.raises(BackendError, match="positive finite number"):
        get_backend(name, time_limit=-1)


def test_the_base_class_refuses_a_plan_where_the_machine_lacks_the_backend(name, monkeypatch):
    """missing() is enforced by the base class before any backend's own plan, so a backend
    cannot forget it (clingo and minizinc checked it themselves; the others did not)."""
    cls = backend_class(name)
    if cls.missing():
        pytest.skip(f"{name}: {cls.missing()}")
    b = get_backend(name)
    monkeypatch.setattr(cls, "missing", classmethod(lambda c: f"{c.name}: not installed here (test)"))
    with pytest.raises(BackendError, match="not installed here"):
        b.plan(Problem(6), "count")


@pytest.mark.parametrize("task", TASKS)
def test_a_backend_that_does_not_list_a_task_refuses_it_in_one_line_naming_those_that_do(name, task, monkeypatch):
    """Tasks were an enum and if-chains whose else-branches took any task: now each is declared,
    none by default, and one a backend does not list is refused before any run."""
    cls = backend_class(name)
    b = _backend(name)
    declared = cls.capabilities.tasks
    if Task(task) not in declared:  # (an optimisation this backend does not answer: refused as it is)
        with pytest.raises(UnsupportedProblem, match=f"{name}' does not answer {task} \\(those that do: bitmask"):
            b.plan(Problem(6), task)
        return
    without = dataclasses.replace(cls.capabilities, tasks=declared - {Task(task)})
    monkeypatch.setattr(cls, "capabilities", without)
    with pytest.raises(UnsupportedProblem, match=f"does not answer {task}") as refused:
        b.plan(Problem(6), task)
    said = str(refused.value)
    answering = [b for b in said.partition("those that do: ")[2].rstrip(")").split(", ") if b]  # (none: "no other")
    others = [other for other in BACKENDS if other != name and Task(task) in backend_class(other).capabilities.tasks]
    assert "\n" not in said and answering == others
    assert b.plan(Problem(6), next(t for t in TASKS if t != task and Task(t) in declared))  # the others still planned


def test_a_backend_declares_no_task_by_default():
    assert Capabilities().tasks == frozenset()


#: One problem per rule, each needing that rule alone (Problem.rules says which it needs).
RULE_CASES = {
    Rule.TORUS: Problem(5, torus=True),
    Rule.RECTANGLE: Problem(6, rows=4),
    Rule.LEAPS: Problem(10, "superqueen"),
    Rule.ONE_WAY: Problem(6, Piece.of(riders=[(0, 1)], lines=[(1, 1)])),
    Rule.BLOCKED: Problem(6, blocked=[(0, 0)]),
    Rule.FIXED: Problem(6, fixed=[(0, 1)]),
    Rule.REGIONS: Problem(4, regions=["AABB", "AABB", "CCDD", "CCDD"]),
    Rule.WALLS: Problem(6, walls=[(2, 2)]),
    Rule.ANYWHERE: Problem(6, pieces=5),
    Rule.PAWNS: Problem(6, pieces=7, pawns=1),
}
#: The rules a case needs beside its own: pawns stand beside pieces placed anywhere.
ALSO = {Rule.PAWNS: {Rule.ANYWHERE}}


def test_each_rule_case_needs_its_rule_alone():
    needs = {rule: {rule} | ALSO.get(rule, set()) for rule in Rule}
    assert {rule: p.rules for rule, p in RULE_CASES.items()} == needs
    assert Problem(8).rules == frozenset()


@pytest.mark.parametrize("rule", list(Rule))
def test_a_backend_that_lacks_a_rule_refuses_it_in_one_line_and_models_the_rest(name, rule, monkeypatch):
    """A rule could not ship one backend at a time: no backend could refuse one it lacks."""
    cls = backend_class(name)
    b = _backend(name)
    without = dataclasses.replace(cls.capabilities, rules=cls.capabilities.rules - {rule})
    monkeypatch.setattr(cls, "capabilities", without)
    with pytest.raises(UnsupportedProblem, match=re.escape(rule.value)) as refused:
        b.plan(RULE_CASES[rule], "count")
    assert "\n" not in str(refused.value)
    other = next(r for r in Rule if r is not rule)
    assert b.plan(RULE_CASES[other], "count")  # the rules it keeps are still planned


#: A process where `Rule` has a member no backend models (obstacles that block sliding lines), made
#: before any backend is imported, and a problem that needs it: every backend must refuse it.
#: With rules claimed by default (every member of Rule), every backend claimed the new one.
NEW_RULE = """
import enum, json, sys
import nqueens_cp.model.problem as problem
members = {m.name: m.value for m in problem.Rule} | {"OBSTACLES": "obstacles that block sliding lines"}
problem.Rule = enum.StrEnum("Rule", members)
needs = problem.Problem.rules.func  # a cached_property
problem.Problem.rules = property(lambda self: needs(self) | {problem.Rule.OBSTACLES})
from nqueens_cp.backends import BACKENDS, backend_class, get_backend
from nqueens_cp.backends.base import UnsupportedProblem
said = {}
for name in BACKENDS:
    claimed = problem.Rule.OBSTACLES in backend_class(name).capabilities.rules
    try:
        get_backend(name).plan(problem.Problem(6), "count")
        said[name] = "planned" + (" (claimed)" if claimed else "")
    except UnsupportedProblem as exc:
        said[name] = str(exc)
    except Exception as exc:  # a backend this machine lacks says so first
        said[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps(said))
"""


@pytest.mark.slow
def test_a_rule_no_backend_lists_is_refused_by_every_backend():
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", NEW_RULE], capture_output=True, text=True, timeout=120, check=True)
    said = json.loads(out.stdout)
    for name, answer in said.items():
        if backend_class(name).missing() is None:
            assert "obstacles that block sliding lines" in answer, f"{name}: {answer}"


def test_the_template_of_a_new_backend_keeps_the_contract():
    """backends/template.py is what a new backend copies: it must run, count what OEIS
    publishes, stop at its time limit, and refuse what it does not model, as any backend."""
    from nqueens_cp.backends import template

    b = template.BACKEND()
    assert b.name == "template" and b.version()
    for n in (1, 4, 6, 8):
        assert b.count(Problem(n)).count == A000170[n - 1]
    assert template.BACKEND(prune=False).count(Problem(6)).count == A000170[5]
    for p in (Problem(10, "superqueen", blocked=[(0, 1)]), Problem(7, torus=True, blocked=[(0, 1)]),
              Problem(8, fixed=[(0, 2)], blocked=[(3, 3)])):
        assert b.count(p).count == backtrack_count(p) > 0, p
    with pytest.raises(UnsupportedProblem, match="over 12 columns"):
        b.count(Problem(13))
    with pytest.raises(UnsupportedProblem, match="cannot honour option"):
        template.BACKEND(no_such_option=1)
    assert template.BACKEND(time_limit=0.2).count(Problem(12)).status is Status.UNKNOWN
