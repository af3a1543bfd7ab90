"""The package's shape, checked from its source: layers that import only downwards, no import
cycle (lazy imports included), generic machinery that imports no backend, and no backend named
outside nqueens_cp/backends/. docs/architecture.md draws the same layers."""

import ast
from pathlib import Path

import pytest

import nqueens_cp
from nqueens_cp.backends import BACKENDS

ROOT = Path(nqueens_cp.__file__).parent
GENERIC = ("nqueens_cp.run", "nqueens_cp.bench.sandbox")

#: The layers, lowest first: a module may import its own layer and those below, never above.
#: The package's __init__ (the public API, loaded lazily) stands above them all.
LAYERS = (
    ("model",),
    ("run",),
    ("io",),
    ("backends",),
    ("api", "export"),
    ("check",),
    ("bench",),
    ("cli",),
    ("entry", "__main__"),
)


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None
    for level, tops in enumerate(LAYERS):
        if parts[1] in tops:
            return level
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS and docs/architecture.md")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ROOT.rglob("*.py")}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every package module `name` imports, at module level or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            stem = node.module if node.level == 0 else ".".join(filter(None, [base, node.module]))
            targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem for a in node.names]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    return {name: _imports(name, path, set(mods)) for name, path in mods.items()}


def test_every_module_imports_only_its_own_layer_and_those_below():
    for name, targets in _graph().items():
        level = _layer(name)
        if level is None:
            continue
        for target in targets:
            other = _layer(target)
            assert other is None or other <= level, f"{name} ({LAYERS[level]}) imports {target} ({LAYERS[other]})"


def test_the_layers_name_every_subpackage():
    for path in ROOT.iterdir():
        if path.name.startswith("_") or path.name == "__pycache__" or not (path.is_dir() or path.suffix == ".py"):
            continue
        if path.is_dir() and not (path / "__init__.py").exists():
            continue
        _layer(f"nqueens_cp.{path.stem}")


def test_the_import_graph_has_no_cycle():
    graph = _graph()
    state: dict[str, int] = {}  # 1 on the current path, 2 finished

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = [*path[path.index(nxt) :], nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])


def test_generic_machinery_imports_no_backend():
    graph = _graph()
    generic = [m for m in graph if any(m == g or m.startswith(g + ".") for g in GENERIC)]
    assert generic
    for name in generic:
        reach, todo = set(), [name]
        while todo:
            for nxt in graph[todo.pop()] - reach:
                reach.add(nxt)
                todo.append(nxt)
        assert not {m for m in reach if m.startswith("nqueens_cp.backends")}, name


ENGINE = "nqueens_cp.backends.bitmask"


def _imports_numba(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        if any(n == "numba" or n.startswith("numba.") for n in names):
            return True
    return False


def test_the_engines_compiled_code_is_all_in_its_kernels_package():
    """The engine by role (issue 35): a module of the bitmask engine that compiles anything is
    in `kernels/`; every other one loads numba only by calling into a kernel, so planning every
    algorithm (the join's declared memory included) loads none."""
    import subprocess
    import sys

    mods = _modules()
    compiling = {name for name, path in mods.items() if name.startswith(ENGINE) and _imports_numba(path)}
    assert compiling and all(name.startswith(f"{ENGINE}.kernels") for name in compiling), compiling
    code = (
        "import sys, nqueens_cp as nq\n"
        "from nqueens_cp import Problem\n"
        "b = nq.get_backend('bitmask')\n"
        "boards = [Problem(n) for n in (8, 13, 15, 16, 21)] + [Problem(13, 'RN'), Problem(13, torus=True)]\n"
        "boards += [Problem(12, blocked=[(0, 1)]), Problem(40)]\n"
        "plans = {b.plan(p, t).algorithm for p in boards for t in ('count', 'solve', 'first')}\n"
        "print(len(plans), 'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    kinds, numba_loaded = out.stdout.split()
    assert int(kinds) >= 5 and numba_loaded == "False", out.stdout


def test_the_graph_sees_lazy_imports():
    """Guards the walker itself: a function-level import is an edge."""
    assert "nqueens_cp.backends.bitmask.kernels.queens" in _graph()["nqueens_cp.backends.bitmask.searches"]


#: What code outside backends/ may import from it: the registry, the interface, and the modules
#: that serve every backend alike (claims of no solution searched again, warm-up boards).
SHARED_BY_BACKENDS = ("backends", "backends.base", "backends.claims", "backends.warm")


def test_no_backend_is_named_outside_the_backends_package():
    for name, path in _modules().items():
        if name.startswith("nqueens_cp.backends"):
            continue
        tree = ast.parse(path.read_text())
        docstrings = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body and isinstance(n.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in BACKENDS and id(node) not in docstrings:
                raise AssertionError(f"{path.name}:{node.lineno} names backend {node.value!r}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and ".backends." in f".{node.module}.":
                assert node.module.endswith(SHARED_BY_BACKENDS), f"{path.name}:{node.lineno} reaches into {node.module}"


def _backend_options() -> list:
    from nqueens_cp.backends import backend_class
    from nqueens_cp.backends.base import PROGRESS, TIME_LIMIT, WORKERS

    common = (TIME_LIMIT, WORKERS, PROGRESS)
    return [o for name in BACKENDS for o in backend_class(name).capabilities.options if o not in common]


def test_no_backend_option_is_spelled_outside_the_backends_package():
    """Options were spelled out in the CLI (`--sat-solver` on 17 lines of cli/): a backend's own
    options are declared in it, and every command builds its flags from those declarations."""
    options = [o for o in _backend_options() if o.flag]  # those without one are the library's alone
    for name, path in _modules().items():
        if name.startswith("nqueens_cp.backends"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            spelled = node.value  # a flag anywhere; in the CLI, a name as a key too (`{"sat_solver": ...}`)
            for option in options:
                if spelled == option.flag or (spelled == option.name and name.startswith("nqueens_cp.cli")):
                    raise AssertionError(f"{path.name}:{node.lineno} spells backend option {spelled!r}")


@pytest.mark.parametrize("command", ["count", "solve", "first", "verify", "compare"])
def test_every_command_that_runs_a_backend_offers_its_declared_flags(command):
    from nqueens_cp.backends.base import Task
    from tests.conftest import run

    shown = run(command, "--help").stdout
    several = {"verify": {Task.SOLVE, Task.COUNT}, "compare": set(Task)}
    tasks = several[command] if command in several else {Task(command)}
    for option in _backend_options():
        if option.flag and (option.tasks is None or tasks & set(option.tasks)):
            assert option.flag in shown, f"{command} lacks {option.flag}"
        elif option.flag:
            assert option.flag not in shown, f"{command} offers {option.flag}, which does not apply to it"


def test_ci_runs_every_test():
    """The README's line leaves the long tests out; .ci/run must not (conftest's --full fails a
    run that left any collected test out)."""
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    runs = [line for line in ci.splitlines() if "-m pytest" in line and not line.lstrip().startswith("#")]
    assert runs and all("--full" in line and " -m " not in line.split("pytest", 1)[1] for line in runs), runs


@pytest.mark.long
@pytest.mark.slow
def test_the_full_run_fails_when_a_test_is_left_out():
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    base = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q", "--full"]
    left_out = subprocess.run(
        [*base, "tests/test_problem.py", "--deselect", "tests/test_problem.py::test_unknown_piece"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert left_out.returncode != 0 and "left out 1 collected tests" in left_out.stdout, left_out.stdout[-500:]
    narrowed = subprocess.run(
        [*base, "tests/test_problem.py", "-m", "not slow"], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert narrowed.returncode != 0 and "--full runs every test" in narrowed.stderr, narrowed.stderr[-500:]
    # on xdist's workers each collects and deselects out of the check's sight: refused
    spread = subprocess.run(
        [*base, "tests/test_problem.py", "-n", "2"], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert spread.returncode != 0 and "--full runs in one process" in spread.stderr, spread.stderr[-500:]
