"""Solutions per second of each backend, and the CP-SAT and python-constraint variants tried.

    python benchmarks/bench_backends.py                 # n = 8..12, all three backends
    python benchmarks/bench_backends.py --variants      # also the model/parameter variants

Every run enumerates all solutions (streamed, counted, each one validated for the smaller n)
and prints solutions/s; the last table is bitmask's rate over CP-SAT's. Times include model
building but not one-time imports or JIT loading (a warm-up runs first).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator

import constraint as pc
from ortools.sat.python import cp_model

import nqueens_cp as nq
from nqueens_cp import Problem
from nqueens_cp.backends.constraint import build_model as pc_model
from nqueens_cp.backends.cpsat import build_model as sat_model

A000170 = {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712}


class _Counter(cp_model.CpSolverSolutionCallback):
    """Counts solutions and nothing else: the variants' rate without the backend's streaming."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def on_solution_callback(self) -> None:
        self.count += 1


def sat_enumerate(model: cp_model.CpModel, **params) -> int:
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    for k, v in params.items():
        setattr(solver.parameters, k, v)
    cb = _Counter()
    assert solver.solve(model, cb) == cp_model.OPTIMAL
    return cb.count


def sat_bool_model(n: int) -> cp_model.CpModel:
    """Square-per-cell variant: x[r][c] booleans, exactly one per row, at most one per column
    and per diagonal."""
    m = cp_model.CpModel()
    x = [[m.new_bool_var(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for r in range(n):
        m.add_exactly_one(x[r])
    for c in range(n):
        m.add_exactly_one(x[r][c] for r in range(n))
    for d in range(-n + 2, n - 1):
        m.add_at_most_one(x[r][r - d] for r in range(n) if 0 <= r - d < n)
        m.add_at_most_one(x[r][d + n - 1 - r] for r in range(n) if 0 <= d + n - 1 - r < n)
    return m


def sat_fixed_search(n: int, var=cp_model.CHOOSE_FIRST) -> cp_model.CpModel:
    m, q = sat_model(Problem(n))
    m.add_decision_strategy(q, var, cp_model.SELECT_MIN_VALUE)
    return m


class ShiftedAllDifferent(pc.Constraint):
    """python-constraint variant: AllDifferent over q[i] + shift[i], with forward checking."""

    def __init__(self, shifts: dict[str, int]) -> None:
        self.shifts = shifts

    def __call__(self, variables, domains, assignments, forwardcheck=False, _unassigned=pc.Unassigned):
        seen = set()
        for v in variables:
            val = assignments.get(v, _unassigned)
            if val is not _unassigned:
                key = val + self.shifts[v]
                if key in seen:
                    return False
                seen.add(key)
        if forwardcheck:
            for v in variables:
                if v not in assignments:
                    dom = domains[v]
                    for key in seen:
                        if key - self.shifts[v] in dom:
                            dom.hideValue(key - self.shifts[v])
                            if not dom:
                                return False
        return True


def pc_variant(n: int, kind: str) -> Iterator[dict]:
    q = [f"q{i}" for i in range(n)]
    m = pc.Problem()
    m.addVariables(q, list(range(n)))
    m.addConstraint(pc.AllDifferentConstraint(), q)
    if kind == "lambda":
        for i in range(n):
            for j in range(i + 1, n):
                m.addConstraint(lambda a, b, d=j - i: a - b != d and b - a != d, (q[i], q[j]))
    elif kind == "shifted":
        m.addConstraint(ShiftedAllDifferent({v: i for i, v in enumerate(q)}), q)
        m.addConstraint(ShiftedAllDifferent({v: -i for i, v in enumerate(q)}), q)
    return m.getSolutionIter()


def timed(fn: Callable[[], int], n: int) -> tuple[float, float]:
    start = time.perf_counter()
    count = fn()
    seconds = time.perf_counter() - start
    assert count == A000170[n], (count, n)
    return seconds, count / seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", nargs="*", type=int, default=[8, 9, 10, 11, 12])
    ap.add_argument("--variants", action="store_true")
    args = ap.parse_args()
    for b in nq.BACKENDS:
        list(nq.solve(6, backend=b))  # warm-up: imports and JIT cache
    runs: dict[str, Callable[[int], int]] = {
        "bitmask": lambda n: sum(1 for _ in nq.solve(n)),
        "cpsat": lambda n: sum(1 for _ in nq.solve(n, backend="cpsat")),
        "constraint": lambda n: sum(1 for _ in nq.solve(n, backend="constraint")),
    }
    if args.variants:
        runs |= {
            "cpsat plain": lambda n: sat_enumerate(sat_model(Problem(n))[0]),
            "cpsat fixed first-var": lambda n: sat_enumerate(
                sat_fixed_search(n), search_branching=cp_model.FIXED_SEARCH
            ),
            "cpsat fixed min-domain": lambda n: sat_enumerate(
                sat_fixed_search(n, cp_model.CHOOSE_MIN_DOMAIN_SIZE), search_branching=cp_model.FIXED_SEARCH
            ),
            "cpsat no-presolve": lambda n: sat_enumerate(sat_model(Problem(n))[0], cp_model_presolve=False),
            "cpsat linearization0": lambda n: sat_enumerate(sat_model(Problem(n))[0], linearization_level=0),
            "cpsat bool-cells": lambda n: sat_enumerate(sat_bool_model(n)),
            "constraint lambda-pairs": lambda n: sum(1 for _ in pc_variant(n, "lambda")),
            "constraint shifted-alldiff": lambda n: sum(1 for _ in pc_variant(n, "shifted")),
            "constraint string-pairs": lambda n: sum(1 for _ in pc_model(Problem(n)).getSolutionIter()),
        }
    rates: dict[tuple[str, int], float] = {}
    print(f"{'run':<28}" + "".join(f"{f'n={n} sol/s':>16}" for n in args.n))
    for name, fn in runs.items():
        cells = []
        for n in args.n:
            if name.startswith("constraint") and n > 11:
                cells.append(f"{'-':>16}")
                continue
            _, rate = timed(lambda fn=fn, n=n: fn(n), n)
            rates[name, n] = rate
            cells.append(f"{rate:16,.0f}")
        print(f"{name:<28}" + "".join(cells), flush=True)
    print("\nbitmask / cpsat solutions-per-second ratio:")
    for n in args.n:
        print(f"  n={n}: {rates['bitmask', n] / rates['cpsat', n]:,.0f}x")


if __name__ == "__main__":
    main()
