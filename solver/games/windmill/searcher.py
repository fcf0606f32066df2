"""Windmill's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

import numpy as np

from ...kernel_search import KernelSearch, Workspace, perft as kernel_perft, row_keys as kernel_row_keys, \
    successor_rows as kernel_successor_rows, warm_once
from ...search import Restarts, luby
from . import endgame
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array
from .position import WindmillPosition, WindmillRules

MAX_DEPTH = 1 << 15  # levels of the DFS stack (224 bytes each; lazily touched)


def _workspace(depth: int) -> Workspace:
    eg_visit, eg_stack, egc = endgame.workspace()  # the endgame's loss test
    return Workspace(rows=np.zeros((depth + 1, K.SLEN), dtype=np.int8),
                     moves=np.zeros(K.MOVE_SLOTS * (depth + 1), dtype=np.int16),
                     lend=np.zeros(depth + 1, dtype=np.int64), lnext=np.zeros(depth + 1, dtype=np.int64),
                     ctr=np.zeros(K.CTR_LEN, dtype=np.int64),
                     best=np.zeros(depth + 3, dtype=np.int64),  # best progress (kernel.search_init)
                     key=np.zeros(K.KEY_WORDS, dtype=np.uint64), eg_visit=eg_visit, eg_stack=eg_stack, egc=egc)


def warm_up() -> None:
    """Compile (or load from the cache) this game's kernel once (kernel_search.warm_once)."""
    from .deals import windmill_deal

    warm_once(K, "Windmill", lambda: WindmillSearch(windmill_deal(1, ranks=2, cells=2), WindmillRules(), 2,
                                                    warm=False, slot="warm", noise=1))


class WindmillSearch(KernelSearch):
    """One depth-first search of one position, with one move order (kernel R_ORDER 0 or
    1, and R_NOISE: 0, or a seed that shuffles the move scores; ordering only, never a
    verdict); see search.drive for the protocol."""

    K = K
    to_moves = staticmethod(log_to_moves)

    def __init__(self, position: WindmillPosition, rules: WindmillRules, tt_mb: float, prune: bool = True,
                 warm: bool = True, slot: str = "main", depth: int = MAX_DEPTH, order: int = 0, noise: int = 0,
                 endgame: int | None = None, narrow: int = 0):
        if warm:
            warm_up()
        self.proves_loss = narrow == 0  # narrow 1: the twin's narrowed phase (kernel module doc)
        root, seq = encode(position, rules)
        self.setup(root, (seq,), rules_array(position, rules, prune, order, noise, endgame, narrow),
                   f"windmill-{slot}-{depth}", lambda: _workspace(depth), tt_mb, slot)

    def counters(self) -> dict[str, int]:
        """This thread's running totals of the endgame's loss test (endgame.py): tries,
        states proven lost (not entered), and E's own states."""
        c = self.ws.egc
        return {**super().counters(), "endgame_tries": int(c[endgame.E_CALLS]), "endgame_lost": int(c[endgame.E_LOST]),
                "endgame_states": int(c[endgame.E_NODES])}


RESTART_UNIT = 1 << 16  # nodes per Luby unit of the twin's restarts
NARROW_NODES = 1 << 20  # a budget for the twin's narrowed phase, when one is asked for (off by default)


def restarts(position: WindmillPosition, rules: WindmillRules, tt_mb: float, prune: bool = True,
             slot: str = "twin", unit: int = RESTART_UNIT, endgame: int | None = None,
             narrow_nodes: int = 0) -> Restarts:
    """The twin of the main search (order 0, kept to the end): restarted complete
    searches with Luby budgets (``unit`` x 1, 1, 2, 1, 1, 2, 4, ...), the j-th in order
    (j + 1) mod 2 with score noise j (the first is plain order 1).  With ``narrow_nodes``
    > 0, one narrowed search (kernel R_NARROW: the stock is turned only when no cell or
    waste card can be played) of at most that many nodes comes after the first; it ends
    early if it runs out of moves, and then proves nothing.

    Why: the orders' run times are heavy-tailed, and restarts in shuffled orders win
    many deals that both plain orders leave unknown (docs/measurements.md).  The
    narrowed phase is off by default: it wins a few deals that every complete order
    leaves unknown, but on seeds 1..200 it won none and cost time
    (results/windmill-narrowed-twin.md).  Every complete phase is a complete search on
    its own (search.Restarts).  The twin joins at once (``join_after=0``).
    """
    if 0 < narrow_nodes < 2:
        raise ValueError("the narrowed phase needs a budget of at least 2 nodes (0: none)")
    warm_up()
    narrowed = 1 if narrow_nodes > 0 else -1  # the narrowed phase's index

    def complete(k: int) -> int:
        return k - 1 if narrowed >= 0 and k > narrowed else k  # the k-th phase's index j

    def phase(k: int) -> WindmillSearch:
        if k == narrowed:
            return WindmillSearch(position, rules, tt_mb, prune, warm=False, slot=slot, endgame=endgame, narrow=1)
        j = complete(k)
        return WindmillSearch(position, rules, tt_mb, prune, warm=False, slot=slot, order=(j + 1) % 2, noise=j,
                              endgame=endgame)

    def budget(k: int) -> int:
        return narrow_nodes if k == narrowed else unit * luby(complete(k) + 1)

    return Restarts(phase, budget, join_after=0)


# ----------------------------------------------------------------- for tests


def _kernel_args(position: WindmillPosition, rules: WindmillRules, prune: bool, order: int = 0, noise: int = 0):
    root, seq = encode(position, rules)
    return root, (seq,), rules_array(position, rules, prune, order, noise)


def successors(position: WindmillPosition, rules: WindmillRules, prune: bool = False) -> list[WindmillPosition]:
    """The kernel's children of a position."""
    root, ctx, r = _kernel_args(position, rules, prune)
    return [decode(row, ctx[0], int(r[K.R_NSEQ]), len(position.cells), position.ranks)
            for row in kernel_successor_rows(K, root, ctx, r)]


def successor_rows(position: WindmillPosition, rules: WindmillRules, prune: bool = False, order: int = 0,
                   noise: int = 0):
    """(root row, seq, rules array, children rows in the order tried) for key and order tests."""
    root, ctx, r = _kernel_args(position, rules, prune, order, noise)
    return root, ctx[0], r, kernel_successor_rows(K, root, ctx, r)


def row_keys(rows: np.ndarray, seq: np.ndarray, r: np.ndarray) -> list[tuple[int, ...]]:
    return kernel_row_keys(K, np.asarray(rows, dtype=np.int8), (seq,), r)


def perft(position: WindmillPosition, rules: WindmillRules, depth: int) -> int:
    return kernel_perft(K, *_kernel_args(position, rules, False), depth)
