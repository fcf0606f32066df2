"""Beleaguered Castle's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import announce_compile
from ...kernel_search import KernelSearch, Workspace, perft as kernel_perft, row_keys, successor_rows, warm
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array
from .position import BCPosition, BCRules

# The DFS stack (see kernel.py): a line of play rarely repeats a table, so paths get
# very long (each level is a distinct position).  Rows of state are kept for the last
# WINDOW levels plus a checkpoint every BLOCK levels; a level costs 2 bytes per untried
# move (about 7 on average) and 8 bytes of indices.  The arrays are zero-filled lazily
# by the OS: only the levels a search reaches cost memory.
WINDOW = 1 << 16
BLOCK = 1 << 12
MAX_DEPTH = 64_000_000
MOVE_CAP = 1 << 29


class Geometry(NamedTuple):
    window: int = WINDOW
    block: int = BLOCK
    max_depth: int = MAX_DEPTH
    move_cap: int = MOVE_CAP

    def megabytes(self) -> float:
        """Peak memory of a workspace of this shape (the OS zero-fills it lazily, so only
        the levels a search reaches cost memory: this is the worst case)."""
        row = K.SLEN  # int8
        return (self.window * row + (self.max_depth // self.block + 2) * row + 2 * self.move_cap
                + 8 * (self.max_depth + 1)) / 2**20
        # not counted: the best-progress line (``best``, 2 bytes a level), written only
        # up to the depth of the best position, so most of its pages stay untouched;
        # counting its worst case (about 122 MB) would lower the batch default --tt-mb,
        # and with it change the batch key that resumes an existing database


def _best_words(max_depth: int) -> int:
    """Length of the ``best`` array (kernel.search_init: 4 moves per word)."""
    return 2 + (max_depth + 1) // 4 + 2


def _workspace(g: Geometry) -> Workspace:
    if not 2 <= g.block <= g.window:
        raise ValueError("the ring must hold at least one block of levels")
    return Workspace(ring=np.zeros((g.window, K.SLEN), dtype=np.int8),
                     ckpt=np.zeros((g.max_depth // g.block + 2, K.SLEN), dtype=np.int8),
                     moves=np.zeros(g.move_cap, dtype=np.int16),
                     lend=np.zeros(g.max_depth + 1, dtype=np.int32), lnext=np.zeros(g.max_depth + 1, dtype=np.int32),
                     ctr=np.zeros(K.CTR_LEN, dtype=np.int64),
                     best=np.zeros(_best_words(g.max_depth), dtype=np.int64),  # best progress (kernel.search_init)
                     key=np.zeros(K.KEY_WORDS, dtype=np.uint64), block=g.block)


_warm = False


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once, so timings exclude it."""
    global _warm
    if _warm:
        return
    _warm = True
    announce_compile(K.search_run, "Beleaguered Castle")
    from .deals import bc_deal

    warm(BCSearch(bc_deal(1, "solvitaire"), BCRules(), 1, warm=False))


class BCSearch(KernelSearch):
    """One search of one position; see search.drive for the protocol."""

    K = K
    PACKED_BEST = True
    LOG_SHAPE = (1, 53, 3)  # the safe plays after the last move: at most 52 cards
    EXACT_LOG = False
    to_moves = staticmethod(log_to_moves)

    def __init__(self, position: BCPosition, rules: BCRules, tt_mb: float, prune: bool = True,
                 warm: bool = True, geometry: Geometry = Geometry(),
                 order: int = K.ORDER_BASIC, slot: str = "main"):
        """``order``: the kernel's move order (kernel.ORDER_*); ``slot`` names the workspace
        and table: concurrent searches need their own."""
        if warm:
            warm_up()
        root = encode(position)
        self.setup(root, (root,), rules_array(position.ranks, len(position.tableau), prune, order),
                   f"beleaguered-castle/{slot}/{'-'.join(map(str, geometry))}", lambda: _workspace(geometry),
                   tt_mb, slot)


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
