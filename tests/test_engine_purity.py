"""The engine (`canasta.rules`) imports only the standard library and itself, and does no I/O."""

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "src" / "canasta" / "rules"
FORBIDDEN_CALLS = {"open", "print", "input"}
FORBIDDEN_MODULES = {"asyncio", "socket", "subprocess", "os", "secrets", "threading", "multiprocessing"}


def _imports(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_engine_imports_only_stdlib_and_itself() -> None:
    files = sorted(RULES.glob("*.py"))
    assert len(files) > 5
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in _imports(tree):
            top = name.split(".")[0]
            if name.startswith("canasta."):
                assert name.startswith("canasta.rules"), f"{path.name} imports {name}"
                continue
            assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"
            assert top not in FORBIDDEN_MODULES, f"{path.name} imports {name}"


def test_engine_does_no_io_and_no_global_randomness() -> None:
    for path in sorted(RULES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}"
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} uses the global random.{node.attr}"


def _engine_imports(tree: ast.AST) -> set[str]:
    """The engine modules a module imports when it runs (a `TYPE_CHECKING` block is not run)."""
    names: set[str] = set()
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skipped.update(id(n) for part in node.body for n in ast.walk(part))
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        if node.module == "canasta.rules":
            names.update(a.name for a in node.names)
        elif node.module.startswith("canasta.rules."):
            names.add(node.module.split(".")[2])
    return names


def test_no_engine_module_imports_one_that_imports_it_back() -> None:
    """The engine's import graph (module level and inside functions) has no cycle."""
    graph = {
        path.stem: _engine_imports(ast.parse(path.read_text(encoding="utf-8"))) - {path.stem}
        for path in RULES.glob("*.py")
        if path.stem != "__init__"
    }
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            assert module != start, f"{start} imports a module that imports {start} back"
            if module not in seen:
                seen.add(module)
                todo.extend(graph.get(module, ()))
