"""Beleaguered Castle's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial

import numpy as np

from ...engine.kernel_search import (KernelSearch, RingGeometry, perft as kernel_perft, ring_workspace, row_keys,
                              successor_rows, warm_once)
from ...engine.search import Restarts, luby
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array
from .position import BCPosition, BCRules

# The DFS stack (see kernel.py): a line of play rarely repeats a table, so paths get
# very long (each level is a distinct position).  Rows of state are kept for the last
# the last ``window`` levels plus a checkpoint every ``block`` levels; a level costs 2 bytes per untried
# move (about 7 on average) and 8 bytes of indices.  The arrays are zero-filled lazily
# by the OS: only the levels a search reaches cost memory.
# The DFS stack's shape (kernel_search.RingGeometry), this game's defaults; tests pass others.
Geometry = partial(RingGeometry, window=1 << 16, block=1 << 12, max_depth=64_000_000, move_cap=1 << 29)


# Peak memory of one default workspace (the batch's memory sizing): see RingGeometry.
WORKSPACE_MB = Geometry().megabytes(K.SLEN)


def warm_up() -> None:
    """Compile (or load from the cache) this game's kernel once (kernel_search.warm_once)."""
    from .deals import bc_deal

    warm_once(K, "Beleaguered Castle", lambda: BCSearch(bc_deal(1, "solvitaire"), BCRules(), warm=False))


class BCSearch(KernelSearch):
    """One search of one position; see search.drive for the protocol."""

    K = K
    PACKED_BEST = True
    LOG_SHAPE = (1, 53, 3)  # the safe plays after the last move: at most 52 cards
    EXACT_LOG = False
    to_moves = staticmethod(log_to_moves)

    def __init__(self, position: BCPosition, rules: BCRules, *, prune: bool = True,
                 warm: bool = True, geometry: RingGeometry = Geometry(),
                 order: int = K.ORDER_BASIC, slot: str = "main", noise: int = 0):
        """``order``: the kernel's move order (kernel.ORDER_*); ``noise``: a restart's seed
        that shuffles the move scores (0: none); ``slot`` names the workspace and table:
        concurrent searches need their own."""
        if warm:
            warm_up()
        root = encode(position)
        self.setup(root, (root,), rules_array(position.ranks, len(position.tableau), prune, order, noise),
                   f"beleaguered-castle/{slot}/{'-'.join(map(str, geometry))}", lambda: ring_workspace(K, geometry),
                   slot)


RESTART_UNIT = 1 << 16  # nodes per Luby unit of the twin's restarts


def restarts(position: BCPosition, rules: BCRules, *, prune: bool = True, slot: str = "twin",
             unit: int = RESTART_UNIT, geometry: RingGeometry = Geometry()) -> Restarts:
    """The twin of the main search (ORDER_BASIC, kept to the end): restarted searches
    with Luby budgets (``unit`` x 1, 1, 2, 1, 1, 2, 4, ...); phase k in the unblocking
    order for even k and the basic order for odd k, with score noise k (phase 0 is the
    plain unblocking order).  Every phase is complete on its own (search.Restarts), and
    noise only orders moves, so no phase changes a verdict.

    Why: the hard deals are mostly wins that one fixed order finds late
    (results/bc-bench.md), the case that restarts in shuffled orders help with
    (docs/measurements.md, Windmill's twin)."""
    warm_up()

    def phase(k: int) -> BCSearch:
        order = K.ORDER_UNBLOCK if k % 2 == 0 else K.ORDER_BASIC
        return BCSearch(position, rules, prune=prune, warm=False, geometry=geometry, order=order, slot=slot,
                        noise=k)

    return Restarts(phase, lambda k: unit * luby(k + 1), join_after=0)


def successors(position: BCPosition, prune: bool = False) -> list[BCPosition]:
    """The kernel's children of a position (for differential tests)."""
    root = encode(position)
    r = rules_array(position.ranks, len(position.tableau), prune)
    return [decode(row, len(position.tableau), position.ranks) for row in successor_rows(K, root, (root,), r)]


def keys(positions: list[BCPosition], ref: BCPosition) -> list[tuple[int, int, int]]:
    """The kernel's packed keys of positions, measured against the root ``ref`` (tests)."""
    rows = np.array([encode(p) for p in positions], dtype=np.int8).reshape(len(positions), K.SLEN)
    return row_keys(K, rows, (encode(ref),), rules_array(ref.ranks, len(ref.tableau), True))


def perft(position: BCPosition, depth: int) -> int:
    root = encode(position)
    return kernel_perft(K, root, (root,), rules_array(position.ranks, len(position.tableau), False), depth)
