"""Welford Windmill's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

import numpy as np

from ...moves import Move
from ...result import LOST, MEMORY_LIMIT, WON
from ...search import KernelSearch, Restarts, table_for, workspace_for
from . import welford_kernel as K
from .welford_codec import decode, encode, log_to_moves, rules_array
from .welford_position import WelfordPosition

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
        self.key = np.zeros(K.KEY_WORDS, dtype=np.uint64)


_warm = False


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once, so timings exclude it."""
    global _warm
    if _warm:
        return
    _warm = True
    from .welford_deals import welford_deal

    s = WelfordSearch(welford_deal(1, ranks=3, sails=2), 1, warm=False, slot="warm")
    if s.start() is None:
        s.run(64)
    s.line()
    s.tt.clear()


FIRST_PHASE = 1 << 20  # nodes of the first phase; each round of ORDERS phases x 4


class WelfordDFS(KernelSearch):
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
        status = K.search_init(w.states, w.moves, w.lend, w.lnext, w.ctr, self.root, self.talon, self.r,
                               self.tt.table, self.tt.ctr, self.tt.touched, w.key)
        return WON if status == K.ST_WON else None

    def run(self, budget: int) -> str | None:
        w = self.ws
        status = K.search_run(w.states, w.moves, w.lend, w.lnext, w.ctr, self.talon, self.r,
                              self.tt.table, self.tt.ctr, self.tt.touched, w.key, budget)
        return MEMORY_LIMIT if status == K.ST_STACK else _STATUS[int(status)]

    def path(self) -> np.ndarray:
        w = self.ws
        d = int(w.ctr[K.C_DEPTH])
        return w.moves[w.lnext[:d] - 1].astype(np.int64)

    def line(self) -> list[Move]:
        path = self.path()
        log = np.zeros((len(path) * 8 + 8, 4), dtype=np.int32)
        n = K.expand_line(self.root, path, self.talon, self.r, log)
        if n < 0 or n > log.shape[0]:
            raise RuntimeError(f"kernel could not expand its own line (code {n})")
        return log_to_moves(log[:n])


def WelfordSearch(position: WelfordPosition, tt_mb: float, prune: bool = True, warm: bool = True,
                  slot: str = "main", first_phase: int = FIRST_PHASE) -> Restarts:
    """The searcher: restarts (search.Restarts) in phases; phase k uses move ordering
    k mod ORDERS and may make ``first_phase * 4**(k // ORDERS)`` nodes.  The budgets grow
    without bound, so a finite space is always exhausted eventually: nothing is lost by
    restarting but the nodes of the abandoned phases (at most about 1/3 extra per round
    plus the other orderings' share), while deals that one ordering wins quickly and
    another not at all (common: measured on full deals) get every ordering early."""
    if warm:
        warm_up()

    def phase(k: int) -> WelfordDFS:
        return WelfordDFS(position, tt_mb, prune, warm=False, slot=slot, order=k % K.ORDERS)

    return Restarts(phase, lambda k: first_phase * 4 ** (k // K.ORDERS))


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
          first_phase: int = FIRST_PHASE):
    """(verdict, line, nodes) of one search, run to the end (tests and tools)."""
    s = WelfordSearch(position, tt_mb, prune=prune, slot="tests", first_phase=first_phase)
    verdict = s.start()
    while verdict is None:
        verdict = s.run(1 << 20)
        if verdict == MEMORY_LIMIT and s.grow():
            verdict = None
        if max_nodes is not None and verdict is None and s.nodes >= max_nodes:
            return "unknown", [], s.nodes
    return verdict, (s.line() if verdict == WON else []), s.nodes
