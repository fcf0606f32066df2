"""One place that configures numba for the whole package.

numba's on-disk cache is keyed by the file that defines a function, and it does not
notice edits to callees in *other* files (measured: docs/measurements.md): a callee is
compiled into its caller's cache entry.  So every module's jitted functions are cached
in a folder of their own named after ``digest.build_digest`` of that module: its code
and that of every package module it imports, transitively (the generated DFS loops
import their kernel and the engine's table, paths and move order).  An edit to any of
those gives a fresh folder and a clean compile; an edit anywhere else (the command
line, a report, a docstring or a comment) compiles nothing.  Import ``njit`` from here,
never from numba directly, so that every jitted function gets its folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

import numba

from ..core.digest import build_digest


def cache_dir() -> Path:
    """The root of the kernel caches: numba's ``NUMBA_CACHE_DIR``, else
    ``PATIENCE_CACHE_DIR``, else the user's cache folder; one folder per numba version
    below it."""
    root = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("PATIENCE_CACHE_DIR")
    if root:
        base = Path(root)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "patience-solver"
    return base / f"numba-{numba.__version__}"


@lru_cache(maxsize=None)
def module_cache_dir(path: str) -> Path:
    """Where the jitted functions defined in file ``path`` are cached (module doc)."""
    p = Path(path)
    return CACHE_DIR / f"{p.parent.name}.{p.stem}-{build_digest(p)}"


def unwritable(folder: Path) -> str | None:
    """Why compiled kernels cannot be saved in ``folder`` (None: they can), tested as
    numba tests it: make the folder, write a file in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as err:
        return err.strerror or str(err)
    return None


CACHE_DIR = cache_dir()
# numba's own setting names the root too (a batch's warm-up lock is kept there); each
# function's folder is set while it is decorated (njit).
numba.config.CACHE_DIR = str(CACHE_DIR)
# An unwritable cache folder: numba would quietly fall back to a cache beside the
# sources (or in ~/.cache/numba), which is keyed by each file alone and misses edits
# to callees in other files, or save nothing and compile on every run.  So no cache at
# all then, and announce_compile says where it could not write.
CACHE_PROBLEM = unwritable(CACHE_DIR)
_DECORATING = threading.Lock()  # numba reads its CACHE_DIR setting as a function is decorated


def njit(fn=None, **kw):
    """``numba.njit`` with the project's defaults: cached (unless the cache folder is
    unwritable) in the folder of the defining module's build digest, GIL released."""
    kw.setdefault("cache", CACHE_PROBLEM is None)
    kw.setdefault("nogil", True)

    def decorate(f):
        if not kw["cache"] or not os.path.isfile(f.__code__.co_filename):  # code from no file: nothing to key on
            return numba.njit(**{**kw, "cache": False})(f)
        with _DECORATING:
            numba.config.CACHE_DIR = str(module_cache_dir(f.__code__.co_filename))
            try:
                return numba.njit(**kw)(f)
            finally:
                numba.config.CACHE_DIR = str(CACHE_DIR)

    return decorate if fn is None else decorate(fn)


def announce_compile(fn, label: str) -> bool:
    """Say on stderr that ``fn``'s kernel is about to be compiled, if numba's cache has
    no entry for it (the first run after an install or an edit of the package): the
    compile takes tens of seconds, and silence looks like a hang.  Returns whether it
    said so.  Reads numba's cache locator (not public API); on any doubt it stays quiet.
    With an unwritable cache folder every run compiles, and it says why."""
    if CACHE_PROBLEM is not None:
        print(f"patience: compiling the {label} search kernel (about 10-20 s) on every run: the kernel cache "
              f"{CACHE_DIR} cannot be written ({CACHE_PROBLEM}); set PATIENCE_CACHE_DIR to a writable folder",
              file=sys.stderr, flush=True)
        return True
    try:
        if os.path.exists(fn._cache._cache_file._index_path):
            return False
    except Exception:
        return False
    print(f"patience: compiling the {label} search kernel (first run after an install or an update: "
          f"about 10-20 s; cached afterwards)", file=sys.stderr, flush=True)
    return True
