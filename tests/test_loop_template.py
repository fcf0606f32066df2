"""The DFS loop template (solver/engine/loop_template.py): what it writes, where, and when.

The kernels' behaviour through it is tested by every game's differential, perft and
verdict tests; here: the generated text is deterministic, named after its digest, written
once (an existing file keeps its mtime, which numba's cache entry depends on), rewritten
under a new name when the template or a slot changes, safe when written by many at once,
and placed outside the package when the cache folder cannot be written."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from solver.engine import loop_template as T
from solver.games.beleaguered_castle import kernel as BC
from solver.games.klondike import kernel as KL
from solver.games.great_wheel import kernel as GW
from solver.games.windmill_welford import kernel as WW


def test_render_is_deterministic_and_fills_every_slot():
    for K in (BC, KL, WW, GW):
        text = T.source(K.__name__, K.LOOP, set(vars(K)))
        assert text == T.source(K.__name__, K.LOOP, set(vars(K)))
        assert "$" not in text
        compile(text, "generated", "exec")


def test_flags_choose_the_functions():
    ring = T.render(BC.LOOP)
    plain = T.render(KL.LOOP)
    assert "def _restore(" in ring and "def _restore(" not in plain
    assert "ckpt" in ring and "ckpt" not in plain
    assert "def keys_of(" in ring and "def keys_of(" not in plain  # Klondike: keys_of=False
    assert "play_safe(child" in plain and "play_safe" not in T.render(WW.LOOP)  # no safe moves there
    assert "lstart[d] = lnext[d]" in plain
    assert "& MOVE_MASK" in ring and "& MOVE_MASK" not in plain  # the masked stack: BC, not Klondike
    assert "def playout_run(" in T.render(GW.LOOP) and "def playout_run(" not in ring


def test_the_kernels_run_the_generated_file():
    for K in (BC, KL, WW):
        path = Path(K.search_run.py_func.__code__.co_filename)
        assert path.read_text() == T.source(K.__name__, K.LOOP, set(vars(K)))
        assert path.stem.endswith(T.digest(path.read_text()))
        assert Path(T.__file__).parent.parent not in path.parents  # outside the package


def test_a_changed_slot_or_template_gives_another_file(tmp_path, monkeypatch):
    names = set(vars(WW))
    base = T.source(WW.__name__, WW.LOOP, names)
    other = T.source(WW.__name__, dataclasses.replace(WW.LOOP, won="is_won($st, rules) and True"), names)
    assert T.digest(base) != T.digest(other)
    monkeypatch.setattr(T, "TEMPLATE", T.TEMPLATE + "\n# changed\n")
    changed = T.source(WW.__name__, WW.LOOP, names)
    assert changed.endswith("# changed\n") and T.digest(changed) != T.digest(base)
    fns = T.build(WW.__name__, WW.LOOP, where=tmp_path)
    written = list(tmp_path.glob("*.py"))
    assert [p.read_text() for p in written] == [changed]
    assert fns[1].py_func.__code__.co_filename == str(written[0])


def test_write_once_leaves_a_good_file_alone(tmp_path):
    path = tmp_path / "x.py"
    T.write_once(path, "a = 1\n")
    os.utime(path, (1_000_000, 1_000_000))
    T.write_once(path, "a = 1\n")
    assert path.stat().st_mtime == 1_000_000
    path.write_text("a = ")  # damaged: replaced
    T.write_once(path, "a = 1\n")
    assert path.read_text() == "a = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.py"]


def test_concurrent_writers_leave_one_whole_file(tmp_path):
    text = "".join(f"v{i} = {i}\n" for i in range(20_000))
    path = tmp_path / "loops" / "g.py"
    start = threading.Barrier(8)
    errors = []

    def write():
        try:
            start.wait()
            T.write_once(path, text)
            assert path.read_text() == text
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=write) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [p.name for p in path.parent.iterdir()] == ["g.py"]


@pytest.mark.parametrize("cache", ["/dev/null/cannot"])
def test_unwritable_cache_folder_writes_elsewhere(cache, tmp_path):
    env = dict(os.environ, PATIENCE_CACHE_DIR=cache, PATIENCE_SERVER="off", TMPDIR=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    code = ("from solver.games.windmill_welford import kernel as K; "
            "print(K.search_run.py_func.__code__.co_filename)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parent.parent)
    path = Path(out.stdout.strip())
    assert path.parent.parent == tmp_path and path.parent.name.startswith("patience-loops-")


def test_the_generated_module_is_printed_for_each_game(capsys):
    """Issue 33: a command prints a game's generated loop (where numba errors point)."""
    from solver.games import loop_source

    for game, K in (("klondike", KL), ("windmill-welford", WW), ("beleaguered-castle", BC), ("great-wheel", GW)):
        assert loop_source.main([game]) == 0
        out, err = capsys.readouterr()
        path = Path(K.search_run.py_func.__code__.co_filename)
        assert out == path.read_text() == T.source(K.__name__, K.LOOP, set(vars(K)))
        assert err.strip() == f"# {path}"
        assert loop_source.main([game, "--path"]) == 0
        assert capsys.readouterr().out.strip() == str(path)
