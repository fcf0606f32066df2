"""Great Wheel's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from ...jit import announce_compile
from ...kernel_search import KernelSearch, Workspace, perft as kernel_perft, row_keys, successor_rows as kernel_rows, \
    warm
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array, talon_of
from .position import GWPosition, GWRules

# DFS stack (see kernel.py): rows for the last WINDOW levels plus a checkpoint every
# BLOCK levels; a level costs 2 bytes per untried move and 8 bytes of indices.  The
# arrays are zero-filled lazily by the OS: only the levels a search reaches cost memory.
WINDOW = 1 << 14
BLOCK = 1 << 10
MAX_DEPTH = 16_000_000
MOVE_CAP = 1 << 28


class Geometry(NamedTuple):
    window: int = WINDOW
    block: int = BLOCK
    max_depth: int = MAX_DEPTH
    move_cap: int = MOVE_CAP


def _workspace(g: Geometry) -> Workspace:
    if not 2 <= g.block <= g.window:
        raise ValueError("the ring must hold at least one block of levels")
    return Workspace(ring=np.zeros((g.window, K.SLEN), dtype=np.int8),
                     ckpt=np.zeros((g.max_depth // g.block + 2, K.SLEN), dtype=np.int8),
                     moves=np.zeros(g.move_cap, dtype=np.int16),
                     lend=np.zeros(g.max_depth + 1, dtype=np.int32), lnext=np.zeros(g.max_depth + 1, dtype=np.int32),
                     ctr=np.zeros(K.CTR_LEN, dtype=np.int64),
                     # best progress (kernel.search_init: 4 moves per word)
                     best=np.zeros(2 + (g.max_depth + 1) // 4 + 2, dtype=np.int64),
                     key=np.zeros(K.KEY_WORDS, dtype=np.uint64), block=g.block)


_warm = False


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once, so timings exclude it."""
    global _warm
    if _warm:
        return
    _warm = True
    announce_compile(K.search_run, "Great Wheel")
    from .deals import endgame_deal

    warm(GWSearch(endgame_deal(1, 6, 2, 2), GWRules("pysolfc"), 1, warm=False))


class GWSearch(KernelSearch):
    """One search of one position; see search.drive for the protocol."""

    K = K
    PACKED_BEST = True

    def __init__(self, position: GWPosition, rules: GWRules, tt_mb: float, prune: bool = True,
                 warm: bool = True, geometry: Geometry = Geometry(), slot: str = "main"):
        if warm:
            warm_up()
        self.to_moves = partial(log_to_moves, root=position)
        self.setup(encode(position), (talon_of(position),), rules_array(position, rules, prune),
                   f"great-wheel-{slot}-{'-'.join(map(str, geometry))}", lambda: _workspace(geometry), tt_mb, slot)


def _kernel_args(position: GWPosition, rules: GWRules, prune: bool):
    return encode(position), (talon_of(position),), rules_array(position, rules, prune)


def successors(position: GWPosition, rules: GWRules, prune: bool = False) -> list[GWPosition]:
    """The kernel's children of a position (for differential tests)."""
    root, ctx, r = _kernel_args(position, rules, prune)
    return [decode(row, ctx[0], int(r[K.R_TLEN]), len(position.tableau), position.ranks, position.fill)
            for row in kernel_rows(K, root, ctx, r)]


def successor_rows(position: GWPosition, rules: GWRules, prune: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(children rows, talon) of the kernel, for key tests."""
    root, ctx, r = _kernel_args(position, rules, prune)
    return kernel_rows(K, root, ctx, r), ctx[0]


def keys(rows: np.ndarray, position: GWPosition, rules: GWRules) -> list[tuple[int, ...]]:
    """The kernel's packed keys of state rows searched from ``position``."""
    _root, ctx, r = _kernel_args(position, rules, True)
    return row_keys(K, np.asarray(rows, dtype=np.int8), ctx, r)


def perft(position: GWPosition, rules: GWRules, depth: int) -> int:
    return kernel_perft(K, *_kernel_args(position, rules, False), depth)
