"""Welford Windmill's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

import numpy as np

from ...engine.kernel_search import (KernelSearch, Workspace, perft as kernel_perft, successor_rows, warm_once,
                                     warm_phase_once)
from ...engine.playouts import PlayoutSearch
from ...engine.resources import tables
from ...engine.search import Limits, Restarts, drive, luby
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array
from .position import WelfordPosition

# A line has at most ~470 actions (104 cards placed, 52 king-pile to centre moves,
# 2 x 104 draws, refills that place at least one card each, one redeal).
MAX_DEPTH = 2048
MOVE_CAP = (MAX_DEPTH + 1) * K.MAX_MOVES_PER_NODE


def _workspace() -> Workspace:
    return Workspace(states=np.zeros((MAX_DEPTH + 1, K.SLEN), dtype=np.int8),
                     moves=np.zeros(MOVE_CAP, dtype=np.int32),
                     lend=np.zeros(MAX_DEPTH + 1, dtype=np.int64), lnext=np.zeros(MAX_DEPTH + 1, dtype=np.int64),
                     ctr=np.zeros(K.CTR_LEN, dtype=np.int64),
                     best=np.zeros(MAX_DEPTH + 3, dtype=np.int64),  # best progress (kernel.search_init)
                     key=np.zeros(K.KEY_WORDS, dtype=np.uint64))


def warm_up() -> None:
    """Compile (or load from the cache) this game's kernel once (kernel_search.warm_once)."""
    from .deals import welford_deal

    warm_once(K, "Windmill (welford)",
              lambda: WelfordSearch(welford_deal(1, ranks=3, sails=2), warm=False, slot="warm"))


class WelfordSearch(KernelSearch):
    """One depth-first search of one position with one move ordering (kernel R_ORDER
    0..ORDERS-1, R_NOISE 0 or a seed that shuffles the scores; ordering only, never a
    verdict); see search.drive for the protocol."""

    K = K
    LOG_SHAPE = (8, 8, 4)  # a refill logs one row per card
    EXACT_LOG = False
    to_moves = staticmethod(log_to_moves)

    def __init__(self, position: WelfordPosition, *, prune: bool = True, warm: bool = True,
                 slot: str = "main", order: int = 0, noise: int = 0):
        if warm:
            warm_up()
        root, talon = encode(position)
        self.setup(root, (talon,), rules_array(position, prune, order, noise), f"windmill-welford/{slot}",
                   _workspace, slot)


class WelfordPlayouts(PlayoutSearch):
    """Randomized greedy playouts of one position (kernel.playout_run, solver/engine/playouts.py):
    wins are wins, running out proves nothing.  ``salt`` varies the generator's seed
    (which is otherwise the deal's)."""

    def __init__(self, position: WelfordPosition, salt: int = 0, slot: str = "playouts"):
        root, talon = encode(position)
        super().__init__(WelfordSearch, root, (talon,), rules_array(position, True), log_to_moves, salt, slot=slot,
                         log_shape=WelfordSearch.LOG_SHAPE, exact=WelfordSearch.EXACT_LOG)


RESTART_UNIT = 1 << 16  # nodes per Luby unit of the twin's restarts


def restarts(position: WelfordPosition, *, prune: bool = True, slot: str = "twin",
             unit: int = RESTART_UNIT, playouts: bool = True) -> Restarts:
    """The twin of the main search (ordering 0, kept to the end): restarted searches
    with Luby budgets (``unit`` x 1, 1, 2, 1, 1, 2, 4, ...), search j in ordering
    (j + 1) mod ORDERS with score noise j; it joins at once.  With ``playouts`` (the
    default) each search is followed by a phase of randomized greedy playouts with the
    same budget (``WelfordPlayouts``, salt j): phase 2j is search j, phase 2j + 1 playouts.

    Why: restarts in shuffled orderings win deals that a schedule of fixed orderings
    leaves unknown (docs/measurements.md).  Every search phase is complete on its own
    (search.Restarts).  Playouts
    win many deals the searches leave unknown (results/windmill-welford-playouts.md);
    they never prove anything, so the main search's exhaustion is still the only loss.
    """
    warm_up()

    def search(j: int) -> WelfordSearch:
        return WelfordSearch(position, prune=prune, warm=False, slot=slot, order=(j + 1) % K.ORDERS, noise=j)

    if not playouts:
        return Restarts(search, lambda k: unit * luby(k + 1), join_after=0)
    warm_playouts()

    def phase(k: int):
        return search(k // 2) if k % 2 == 0 else WelfordPlayouts(position, salt=k // 2, slot=f"{slot}-playouts")

    return Restarts(phase, lambda k: unit * luby(k // 2 + 1), join_after=0)


def warm_playouts() -> None:
    """Compile (or load from the cache) the kernel's playouts once per process."""
    from .deals import welford_deal

    warm_phase_once(K, "playouts", lambda: WelfordPlayouts(welford_deal(1, ranks=3, sails=2), slot="warm"))


def successors(position: WelfordPosition, prune: bool = False) -> list[WelfordPosition]:
    """The kernel's children of a position (differential tests)."""
    root, talon = encode(position)
    r = rules_array(position, prune)
    return [decode(row, talon, r) for row in successor_rows(K, root, (talon,), r)]


def perft(position: WelfordPosition, depth: int, prune: bool = False) -> int:
    root, talon = encode(position)
    return kernel_perft(K, root, (talon,), rules_array(position, prune), depth)


def solve(position: WelfordPosition, tt_mb: float = 16, prune: bool = True, max_nodes: int | None = None,
          unit: int | None = None):
    """(verdict, line, nodes) of the ordering-0 search alone, or with ``unit`` of the
    Luby restarts alone, run to the end or to ``max_nodes`` (tests and tools), with
    tables of ``tt_mb``."""
    with tables(tt_mb):
        s = restarts(position, prune=prune, slot="tests", unit=unit) if unit is not None else \
            WelfordSearch(position, prune=prune, slot="tests")
        out = drive(s, Limits(max_nodes=max_nodes))
    return out.verdict, out.line, out.nodes
