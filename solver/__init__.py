"""patience-solver: decide by exhaustive search whether a patience deal can be won.

Nothing here loads numba or a kernel (each game imports its search adapter on first
use), so that ``import solver`` and ``patience --help`` stay fast.
"""

from .api import make_deal, solve
from .runs.batch import batch
from .core.result import LOST, UNKNOWN, WON, BestProgress, SolveResult, VerificationError
from .core.version import __version__

__all__ = ["solve", "make_deal", "batch", "SolveResult", "BestProgress", "VerificationError", "WON", "LOST", "UNKNOWN"]

