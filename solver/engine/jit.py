"""One place that configures numba for the whole package.

numba's on-disk cache is keyed by the path and mtime of the file that defines a
function, and it does not notice edits to callees in *other* files (measured:
docs/measurements.md).  Kernels here call the transposition table in ``tt.py``, so the
cache directory is named after a digest of every source file of the package: any edit
anywhere gives a fresh directory and a clean compile.  Import ``njit`` from here, never
from numba directly, so that this runs before any jitted module is compiled.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numba

from ..core.digest import source_digest


def cache_dir() -> Path:
    root = os.environ.get("PATIENCE_CACHE_DIR")
    if root:
        base = Path(root)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "patience-solver"
    return base / f"numba-{numba.__version__}-{source_digest()}"


def unwritable(folder: Path) -> str | None:
    """Why compiled kernels cannot be saved in ``folder`` (None: they can), tested as
    numba tests it: make the folder, write a file in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as err:
        return err.strerror or str(err)
    return None


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_dir())
CACHE_DIR = Path(numba.config.CACHE_DIR or cache_dir())
# An unwritable cache folder: numba would quietly fall back to a cache beside the
# sources (or in ~/.cache/numba), which is keyed by each file alone and misses edits
# to callees in other files, or save nothing and compile on every run.  So no cache at
# all then, and announce_compile says where it could not write.
CACHE_PROBLEM = unwritable(CACHE_DIR)


def njit(fn=None, **kw):
    """``numba.njit`` with the project's defaults: cached (unless the cache folder is
    unwritable), GIL released."""
    kw.setdefault("cache", CACHE_PROBLEM is None)
    kw.setdefault("nogil", True)
    if fn is None:
        return lambda f: numba.njit(**kw)(f)
    return numba.njit(**kw)(fn)


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
