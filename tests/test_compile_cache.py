"""Issue 33: each kernel's compile cache is keyed on what it is built from (its module, the
loop template, the engine parts it compiles with), not on every source file.  Keys are
computed here from given file texts: no real file is edited."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from solver.core.digest import PACKAGE, build_digest, build_files
from solver.engine import jit

KERNELS = ["klondike", "beleaguered_castle", "great_wheel", "windmill", "windmill_welford"]


def jitted_modules() -> list[Path]:
    """Every file whose functions numba compiles: the package's modules that decorate
    with njit, and each kernel's generated loop."""
    own = [p for p in sorted(PACKAGE.rglob("*.py")) if "@njit" in p.read_text() and p.name != "jit.py"]
    loops = [Path(importlib.import_module(f"solver.games.{g}.kernel").search_run.py_func.__code__.co_filename)
             for g in KERNELS]
    return own + loops


def reader(changed: dict[Path, str]):
    return lambda path: changed.get(Path(path), None) or Path(path).read_text()


def keys(read=None) -> dict[Path, str]:
    return {p: build_digest(p, read) if read else build_digest(p) for p in jitted_modules()}


def test_every_kernel_module_is_found():
    names = {p.relative_to(PACKAGE).as_posix() for p in jitted_modules() if p.is_relative_to(PACKAGE)}
    assert {f"games/{g}/kernel.py" for g in KERNELS} <= names
    assert len([p for p in jitted_modules() if not p.is_relative_to(PACKAGE)]) == len(KERNELS)


def test_editing_the_command_line_changes_no_kernel_key():
    cli = PACKAGE / "interfaces" / "cli.py"
    edited = cli.read_text() + "\n\ndef a_new_command():\n    return 1\n"
    assert keys(reader({cli: edited})) == keys()


def test_editing_docstrings_and_comments_anywhere_changes_no_kernel_key():
    changed = {}
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        if text.startswith('"""'):
            text = '"""Edited. ' + text[3:]
        changed[path] = "# an edited comment\n" + text
    assert len(changed) > 50
    assert keys(reader(changed)) == keys()


@pytest.mark.parametrize("part", ["engine/tt.py", "engine/bestpath.py", "engine/order.py", "engine/loop_template.py",
                                  "engine/jit.py"])
def test_editing_code_of_an_engine_part_changes_every_generated_loop_key(part):
    path = PACKAGE / part
    before = keys()
    after = keys(reader({path: path.read_text() + "\n\nAN_EDIT = 1\n"}))
    loops = [p for p in before if not p.is_relative_to(PACKAGE)]
    assert all(before[p] != after[p] for p in loops)
    assert all(path in build_files(p) for p in loops)


def test_a_kernel_edit_changes_its_own_keys_and_no_other_kernel():
    wm = PACKAGE / "games" / "windmill" / "kernel.py"
    before = keys()
    after = keys(reader({wm: wm.read_text() + "\n\nAN_EDIT = 1\n"}))
    moved = {p for p in before if before[p] != after[p]}
    windmill_loop = Path(importlib.import_module("solver.games.windmill.kernel").search_run.py_func.__code__.co_filename)
    assert {wm, windmill_loop, PACKAGE / "games" / "windmill" / "beam.py"} <= moved
    for g in KERNELS:
        if g != "windmill":
            other = importlib.import_module(f"solver.games.{g}.kernel")
            assert Path(other.__file__) not in moved
            assert Path(other.search_run.py_func.__code__.co_filename) not in moved


def test_a_callee_in_another_file_is_covered():
    """Windmill's kernel calls its endgame module's jitted functions (numba compiles them
    into the kernel's cache entry)."""
    endgame = PACKAGE / "games" / "windmill" / "endgame.py"
    wm = PACKAGE / "games" / "windmill" / "kernel.py"
    assert endgame in build_files(wm)
    assert build_digest(wm, reader({endgame: endgame.read_text() + "\nAN_EDIT = 1\n"})) != build_digest(wm)


def test_each_jitted_function_is_cached_in_its_modules_keyed_folder():
    if jit.CACHE_PROBLEM is not None:
        pytest.skip(f"no kernel cache here: {jit.CACHE_PROBLEM}")
    from solver.engine import tt
    from solver.games.klondike import kernel as K

    for fn in (K.search_run, K.successors, tt.tt_insert):
        folder = jit.module_cache_dir(fn.py_func.__code__.co_filename)
        assert folder.name.endswith(build_digest(Path(fn.py_func.__code__.co_filename)))
        assert Path(fn._cache._cache_path).is_relative_to(folder)


def test_a_function_from_no_file_still_compiles(tmp_path):
    """Code given to ``python -c`` has no file to key on: it compiles (uncached)."""
    import os
    import subprocess
    import sys

    code = "from solver.engine.jit import njit\nf = njit(lambda x: x + 1)\nprint(f(1))"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PATIENCE_CACHE_DIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0 and out.stdout.split() == ["2"], out.stderr
