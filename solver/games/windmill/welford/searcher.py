"""Welford Windmill's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial

import numpy as np

from ....moves import Move
from ....result import LOST, MEMORY_LIMIT, WON
from ....jit import announce_compile
from ....search import KernelSearch, Limits, Restarts, drive, luby, table_for, workspace_for
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array
from .position import WelfordPosition

# A line has at most ~470 actions (104 cards placed, 52 king-pile to centre moves,
# 2 x 104 draws, refills that place at least one card each, one redeal).
MAX_DEPTH = 2048
MOVE_CAP = (MAX_DEPTH + 1) * K.MAX_MOVES_PER_NODE

_STATUS = {K.ST_WON: WON, K.ST_LOST: LOST, K.ST_MEMORY: MEMORY_LIMIT, K.ST_PAUSED: None}


class _Workspace:
    def __init__(self) -> None:
        self.states = np.zeros((MAX_DEPTH + 1, K.SLEN), dtype=np.int8)
        self.moves = np.zeros(MOVE_CAP, dtype=np.int32)
        self.lend = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        self.lnext = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        self.ctr = np.zeros(K.CTR_LEN, dtype=np.int64)
        self.best = np.zeros(MAX_DEPTH + 3, dtype=np.int64)  # best progress (kernel.search_init)
        self.key = np.zeros(K.KEY_WORDS, dtype=np.uint64)


_warm = False


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once, so timings exclude it."""
    global _warm
    if _warm:
        return
    _warm = True
    announce_compile(K.search_run, "Windmill (welford)")
    from .deals import welford_deal

    s = WelfordSearch(welford_deal(1, ranks=3, sails=2), 1, warm=False, slot="warm")
    if s.start() is None:
        s.run(64)
    s.line()
    s.tt.clear()


class WelfordSearch(KernelSearch):
    """One depth-first search of one position with one move ordering (kernel R_ORDER
    0..ORDERS-1, R_NOISE 0 or a seed that shuffles the scores; ordering only, never a
    verdict); see search.drive for the protocol."""

    K = K

    def __init__(self, position: WelfordPosition, tt_mb: float, prune: bool = True, warm: bool = True,
                 slot: str = "main", order: int = 0, noise: int = 0):
        if warm:
            warm_up()
        self.root, self.talon = encode(position)
        self.ws = workspace_for(f"windmill-welford/{slot}", _Workspace)
        self.tt = table_for(tt_mb, K.KEY_WORDS, slot)
        self.r = rules_array(position, prune, order, noise)

    def start(self) -> str | None:
        w = self.ws
        status = K.search_init(w.states, w.moves, w.lend, w.lnext, w.ctr, w.best, self.root, self.talon, self.r,
                               self.tt.table, self.tt.ctr, self.tt.touched, w.key)
        return WON if status == K.ST_WON else None

    def run(self, budget: int) -> str | None:
        w = self.ws
        status = K.search_run(w.states, w.moves, w.lend, w.lnext, w.ctr, w.best, self.talon, self.r,
                              self.tt.table, self.tt.ctr, self.tt.touched, w.key, budget)
        return MEMORY_LIMIT if status == K.ST_STACK else _STATUS[int(status)]

    def path(self) -> np.ndarray:
        w = self.ws
        d = int(w.ctr[K.C_DEPTH])
        return w.moves[w.lnext[:d] - 1].astype(np.int64)

    def best_path(self) -> np.ndarray:
        """The actions from the root to the best position (kernel.search_init)."""
        b = self.ws.best
        return b[2:2 + int(b[1])].copy()

    def expander(self):
        """path -> Moves (picklable; holds this search's root and rules, not its workspace)."""
        return partial(_expand, self.root, self.talon, self.r)

    def line(self) -> list[Move]:
        return _expand(self.root, self.talon, self.r, self.path())


def _expand(root: np.ndarray, talon: np.ndarray, r: np.ndarray, path: np.ndarray) -> list[Move]:
    """The single moves of a path of actions from root."""
    path = np.asarray(path, dtype=np.int64)
    log = np.zeros((len(path) * 8 + 8, 4), dtype=np.int32)
    n = K.expand_line(root, path, talon, r, log)
    if n < 0 or n > log.shape[0]:
        raise RuntimeError(f"kernel could not expand its own line (code {n})")
    return log_to_moves(log[:n])


RESTART_UNIT = 1 << 16  # nodes per Luby unit of the twin's restarts


def restarts(position: WelfordPosition, tt_mb: float, prune: bool = True, slot: str = "twin",
             unit: int = RESTART_UNIT) -> Restarts:
    """The twin of the main search (ordering 0, kept to the end): restarted searches
    with Luby budgets (``unit`` x 1, 1, 2, 1, 1, 2, 4, ...), phase k in ordering
    (k + 1) mod ORDERS with score noise k; it joins at once.

    Why: on 20 of the 56 seeds of 1..104 that phases of 4 orderings with budgets growing
    x4 (from 2^20 nodes) left unknown at 60 s, the main search with this twin won 15
    within 20 s.  Every phase is complete on its own (search.Restarts).
    """
    warm_up()

    def phase(k: int) -> WelfordSearch:
        return WelfordSearch(position, tt_mb, prune, warm=False, slot=slot, order=(k + 1) % K.ORDERS, noise=k)

    return Restarts(phase, lambda k: unit * luby(k + 1), join_after=0)


def successors(position: WelfordPosition, prune: bool = False) -> list[WelfordPosition]:
    """The kernel's children of a position (differential tests)."""
    root, talon = encode(position)
    r = rules_array(position, prune)
    out = np.zeros((K.MAX_MOVES_PER_NODE, K.SLEN), dtype=np.int8)
    n = K.successors(root, talon, r, out)
    return [decode(out[x], talon, r) for x in range(n)]


def perft(position: WelfordPosition, depth: int, prune: bool = False) -> int:
    root, talon = encode(position)
    return int(K.perft(root, talon, rules_array(position, prune), depth))


def solve(position: WelfordPosition, tt_mb: float = 16, prune: bool = True, max_nodes: int | None = None,
          unit: int | None = None):
    """(verdict, line, nodes) of the ordering-0 search alone, or with ``unit`` of the
    Luby restarts alone, run to the end or to ``max_nodes`` (tests and tools)."""
    s = restarts(position, tt_mb, prune, slot="tests", unit=unit) if unit is not None else \
        WelfordSearch(position, tt_mb, prune=prune, slot="tests")
    out = drive(s, Limits(max_nodes=max_nodes, tt_mb=tt_mb))
    return out.verdict, out.line, out.nodes
