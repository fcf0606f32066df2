"""The package's import graph, read from the source (nothing is imported): no module
imports, directly or through others, a module that imports it back.  Imports inside
functions count too: a lazy import still ties two modules together, and so does a
module named by a string (``"solver.games.klondike.game:Klondike"``), which the package
imports by name (the registry's adapters, an adapter's searcher)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import solver

ROOT = Path(solver.__file__).parent


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(here: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name of ``from <level dots><module> import ...`` in module ``here``."""
    if level == 0:
        return module or ""
    base = here.split(".")
    base = base[: len(base) - level + (1 if is_package else 0)]
    return ".".join(base + ([module] if module else []))


NAMED = re.compile(r"(\w+(?:\.\w+)*)(?::\w+)?")  # a string naming a module, or "module:attribute"


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (a name imported from a package is
    the submodule when one exists by that name, else the package itself; a string that
    is a module's whole name, or "module:attribute", counts as an import of it)."""
    files = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node.level, node.module)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and NAMED.fullmatch(node.value):
                targets = [NAMED.fullmatch(node.value).group(1)]
            else:
                continue
            out.update(t for t in targets if t in files and t != name)
        graph[name] = out
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_circles():
    graph = import_graph()
    assert len(graph) > 30 and "solver.games.base" in graph["solver.games.windmill.game"]
    assert circles(graph) == []


def test_modules_named_by_strings_are_imports():
    """The registry names its adapters and an adapter its searcher as strings (imported
    on first use): the graph has those edges, and the package imports modules by name
    (importlib) only where those strings are read."""
    graph = import_graph()
    assert "solver.games.klondike.game" in graph["solver.games"]
    assert "solver.games.windmill.searcher" in graph["solver.games.windmill.game"]
    by_name = sorted(name for name, path in ((_module_name(p, ROOT), p) for p in ROOT.rglob("*.py"))
                     if "import_module(" in path.read_text())
    assert by_name == ["solver.games", "solver.games.base"]


def test_the_graph_sees_a_string_import(tmp_path):
    """The test above can fail: a module named as "module:Class" in another is an edge,
    and with an ordinary import back it is a circle."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('TABLE = {"a": "pkg.a:A"}\n')
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from . import TABLE\n    return 'not a module name'\n")
    graph = import_graph(pkg)
    assert graph["pkg"] == {"pkg.a"} and graph["pkg.b"] == {"pkg"}
    assert circles(graph) == [["pkg", "pkg.a", "pkg.b"]]


def test_the_circle_finder_sees_a_circle(tmp_path):
    """The test above can fail: two modules importing each other (one of them lazily)
    are found."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for f in ("__init__.py", "sub/__init__.py"):
        (pkg / f).write_text("")
    (pkg / "a.py").write_text("from .sub.b import thing\n")
    (pkg / "sub" / "b.py").write_text("def thing():\n    from .. import a\n")
    (pkg / "c.py").write_text("from . import a\n")
    graph = import_graph(pkg)
    assert graph["pkg.a"] == {"pkg.sub.b"} and graph["pkg.sub.b"] == {"pkg.a"}
    assert circles(graph) == [["pkg.a", "pkg.sub.b"]]


# The package's folders are layers: a module imports only from its own layer or the ones
# below it.  ``solver/__init__.py`` re-exports the library and sits on top.
LAYERS = ("solver.core", "solver.engine", "solver.games", "solver.api", "solver.runs", "solver.interfaces")


def layer_of(module: str) -> int | None:
    for i, prefix in enumerate(LAYERS):
        if module == prefix or module.startswith(prefix + "."):
            return i
    return None


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where a module imports from a layer above its own."""
    found = []
    for module, targets in sorted(graph.items()):
        here = layer_of(module)
        for target in sorted(targets):
            there = layer_of(target)
            if here is not None and there is not None and there > here:
                found.append((module, target))
    return found


def test_every_module_lives_in_a_layer():
    graph = import_graph()
    assert [m for m in graph if layer_of(m) is None] == ["solver", "solver.__main__"]


def test_no_module_imports_from_a_layer_above_its_own():
    assert upward_imports(import_graph()) == []


def test_the_layer_check_sees_an_upward_import(tmp_path):
    """The test above can fail: a core module importing the engine is found."""
    pkg = tmp_path / "solver"
    for sub in ("core", "engine"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "cards.py").write_text("def f():\n    from ..engine import tt\n")
    (pkg / "engine" / "tt.py").write_text("from ..core import cards\n")
    assert upward_imports(import_graph(pkg)) == [("solver.core.cards", "solver.engine.tt")]
