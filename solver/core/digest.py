"""A digest of the package's source: names the kernel cache and the resident solver's version.

Any edit of any source file changes it, so a kernel cache or a running resident solver
(``server.py``) built from other code is never mistaken for this one.  It imports no
numba (the resident solver's client must not).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # solver/, this file is solver/core/digest.py


@lru_cache(maxsize=1)
def source_digest() -> str:
    """The first 16 hex digits of SHA-256 over every ``*.py`` file (path and bytes)."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(str(path.relative_to(PACKAGE)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]
