"""Great Wheel's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial

import numpy as np

from ...engine.kernel_search import (KernelSearch, RingGeometry, perft as kernel_perft, ring_workspace, row_keys,
                              successor_rows as kernel_rows, warm_once)
from ...engine.playouts import PlayoutSearch
from ...engine.search import Restarts
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array, talon_of
from .position import GWPosition, GWRules

# DFS stack (see kernel.py): rows for the last ``window`` levels plus a checkpoint every
# ``block`` levels; a level costs 2 bytes per untried move and 8 bytes of indices.  The
# arrays are zero-filled lazily by the OS: only the levels a search reaches cost memory.
# The DFS stack's shape (kernel_search.RingGeometry), this game's defaults; tests pass others.
Geometry = partial(RingGeometry, window=1 << 14, block=1 << 10, max_depth=16_000_000, move_cap=1 << 28)


# Peak memory of one default workspace (the batch's memory sizing): see RingGeometry.
WORKSPACE_MB = Geometry().megabytes(K.SLEN)


def warm_up() -> None:
    """Compile (or load from the cache) this game's kernel once (kernel_search.warm_once)."""
    from .deals import endgame_deal

    warm_once(K, "Great Wheel", lambda: GWSearch(endgame_deal(1, 6, 2, 2), GWRules("pysolfc"), warm=False))


class GWSearch(KernelSearch):
    """One search of one position; see search.drive for the protocol.  ``narrow`` > 0:
    a narrowed search of the win-finding twin (kernel module doc): its wins are wins,
    its exhaustion proves nothing (``proves_loss`` False)."""

    K = K
    PACKED_BEST = True

    def __init__(self, position: GWPosition, rules: GWRules, *, prune: bool = True,
                 warm: bool = True, geometry: RingGeometry = Geometry(), slot: str = "main", narrow: int = 0):
        if warm:
            warm_up()
        self.proves_loss = narrow == 0
        self.to_moves = partial(log_to_moves, root=position)
        self.setup(encode(position), (talon_of(position),), rules_array(position, rules, prune, narrow),
                   f"great-wheel-{slot}-{'-'.join(map(str, geometry))}", lambda: ring_workspace(K, geometry),
                   slot)


class GWPlayouts(PlayoutSearch):
    """Randomized greedy playouts of one position (kernel.playout_run, solver/engine/playouts.py):
    wins are wins, running out proves nothing.  ``salt`` varies the generator's seed
    (which is otherwise the deal's)."""

    def __init__(self, position: GWPosition, rules: GWRules, salt: int = 0, slot: str = "playouts"):
        super().__init__(GWSearch, encode(position), (talon_of(position),), rules_array(position, rules, True),
                         partial(log_to_moves, root=position), salt, slot=slot)


# The twin's ladder: (narrowing level, node budget), narrowest first.
LADDER = ((2, 1 << 24), (1, 1 << 62))


def narrowed_twin(position: GWPosition, rules: GWRules, ladder=LADDER) -> Restarts:
    """The twin of the main search (search.drive): narrowed searches one after another,
    narrowest first, each until it wins, runs out of moves or spends its budget.  Level 2
    plays every waste top that a foundation takes at once; level 1 only the Twos and
    Threes (kernel module doc).

    Why: on the lost deals measured most of the space is the choice, for each card that
    comes up playable, of playing it or burying it; the narrowed spaces are far smaller,
    so a win inside them turns up far sooner (results/great-wheel-search-space.md).
    It joins after RELAX_AFTER main-search nodes (easy deals never start it) and is
    dropped after its last search, or when a search fills its DFS stack (MEMORY_LIMIT,
    as any twin): none of them proves a loss.  (Batches count its table and stack in
    their memory sizing, so the main search's table may be smaller when memory is tight.)
    """
    warm_up()

    def phase(k: int) -> GWSearch:
        return GWSearch(position, rules, warm=False, slot="twin", narrow=ladder[k][0])

    return Restarts(phase, lambda k: ladder[k][1], phases=len(ladder))


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
