"""patience-solver: decide by exhaustive search whether a patience deal can be won.

``solve``, ``make_deal`` and ``batch`` are imported on first use, so that ``import
solver`` (and ``patience --help``) does not load numba or a kernel.
"""

from .result import LOST, UNKNOWN, WON, BestProgress, SolveResult, VerificationError

__all__ = ["solve", "make_deal", "batch", "SolveResult", "BestProgress", "VerificationError", "WON", "LOST", "UNKNOWN"]
__version__ = "0.1.0"


def __getattr__(name: str):
    if name in ("solve", "make_deal"):
        from . import api
        return getattr(api, name)
    if name == "batch":
        from .batch import batch
        return batch
    raise AttributeError(f"module 'solver' has no attribute {name!r}")
