"""Digests of the package's source: one names the resident solver's version, the other
names a kernel's compile cache.

``source_digest`` covers every source file, so a running resident solver (``server.py``)
built from other code is never mistaken for this one.  ``build_digest`` covers only what
one module's compiled code comes from, so that an edit elsewhere (the command line, a
report) leaves every compiled kernel in place (``engine/jit.py``).  It imports no numba
(the resident solver's client must not).
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Callable

PACKAGE = Path(__file__).resolve().parents[1]  # solver/, this file is solver/core/digest.py


@lru_cache(maxsize=1)
def source_digest() -> str:
    """The first 16 hex digits of SHA-256 over every ``*.py`` file (path and bytes)."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(str(path.relative_to(PACKAGE)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _read(path: Path) -> str:
    return path.read_text()


def _module_file(name: str, package: Path) -> Path | None:
    """The file of the package's module ``name`` (dotted, from the package's own name),
    or None when it is not one of the package's modules."""
    top = package.name
    if name != top and not name.startswith(top + "."):
        return None
    rel = Path(*name.split(".")[1:])
    for path in (package / rel.with_suffix(".py") if rel.parts else None, package / rel / "__init__.py"):
        if path is not None and path.is_file():
            return path
    return None


def _module_name(path: Path, package: Path) -> str | None:
    """The dotted name of ``path`` inside the package, None for a file outside it."""
    try:
        rel = path.relative_to(package)
    except ValueError:
        return None
    parts = [package.name, *rel.with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(tree: ast.AST, name: str | None, is_package: bool, package: Path) -> set[Path]:
    """The files of the package's modules that ``tree`` (module ``name``, None outside the
    package) imports anywhere, lazy imports included: ``from X import a`` counts X and,
    when ``X.a`` is a module, that too."""
    found: set[Path] = set()
    here = (name if is_package else name.rpartition(".")[0]) if name else ""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if not here:
                    continue
                base = ".".join(here.split(".")[: len(here.split(".")) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module
            targets = [target] + [f"{target}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            path = _module_file(target, package)
            if path is not None:
                found.add(path)
    return found


def code_text(source: str) -> str:
    """What of a module's source becomes code: its syntax tree without docstrings (and
    so without comments or layout)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def build_files(path: Path, read: Callable[[Path], str] = _read, package: Path = PACKAGE) -> list[Path]:
    """The files module ``path`` is built from: itself and, transitively, every module of
    the package it imports (numba compiles a callee into its caller's cache entry, so a
    jitted function's code comes from any of them)."""
    path = Path(path)
    seen = {path}
    todo = [path]
    while todo:
        here = todo.pop()
        tree = ast.parse(read(here))
        for dep in imported_modules(tree, _module_name(here, package), here.name == "__init__.py", package):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def build_digest(path: Path, read: Callable[[Path], str] = _read, package: Path = PACKAGE) -> str:
    """The first 16 hex digits of SHA-256 over the code of every file module ``path`` is
    built from (``build_files``; docstrings and comments are not code, so editing them
    changes nothing).  ``read`` gives a file's text (tests give other texts)."""
    h = hashlib.sha256()
    for dep in build_files(path, read, package):
        name = _module_name(dep, package) or dep.name
        h.update(name.encode() + b"\0" + code_text(read(dep)).encode() + b"\0")
    return h.hexdigest()[:16]
