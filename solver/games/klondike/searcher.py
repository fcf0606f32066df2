"""Klondike's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial

import numpy as np

from ...moves import Move
from ...result import LOST, MEMORY_LIMIT, WON
from ...jit import announce_compile
from ...search import KernelSearch, table_for, workspace_for
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array
from .position import KlondikePosition, KlondikeRules

MAX_DEPTH = 60_000  # DFS levels (x 644 bytes of state each)
MOVE_CAP = 1 << 22  # moves stacked along the current path (x 8 bytes)

# Peak bytes of one workspace (zero-filled lazily by the OS, so this is the worst case).
WORKSPACE_MB = ((MAX_DEPTH + 1) * (K.SLEN * 4 + 3 * 8) + MOVE_CAP * 8 + (MAX_DEPTH + 3) * 8) / 2**20

_STATUS = {K.ST_WON: WON, K.ST_LOST: LOST, K.ST_MEMORY: MEMORY_LIMIT, K.ST_PAUSED: None}


class _Workspace:
    def __init__(self) -> None:
        self.states = np.zeros((MAX_DEPTH + 1, K.SLEN), dtype=np.int32)
        self.moves = np.zeros(MOVE_CAP, dtype=np.int64)
        self.lstart = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        self.lend = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        self.lnext = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
        self.ctr = np.zeros(K.CTR_LEN, dtype=np.int64)
        self.best = np.zeros(MAX_DEPTH + 3, dtype=np.int64)  # best progress (kernel.search_init)
        self.key = np.zeros(K.KEY_WORDS, dtype=np.uint64)
        self.codes = np.zeros(8, dtype=np.uint64)


_warm = False


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once, so timings exclude it."""
    global _warm
    if _warm:
        return
    _warm = True
    announce_compile(K.search_run, "Klondike")
    from .deals import klondike_deal

    s = KlondikeSearch(klondike_deal(1, "pysolfc", 3), KlondikeRules(draw=3), 1, warm=False, slot="warm")
    if s.start() is None:
        s.run(64)
    s.line()
    s.tt.clear()


class KlondikeSearch(KernelSearch):
    """One search of one position; see search.drive for the protocol."""

    K = K

    def __init__(self, position: KlondikePosition, rules: KlondikeRules, tt_mb: float, prune: bool = True,
                 warm: bool = True, slot: str = "main"):
        """``slot`` names the workspace and table: concurrent searches need their own."""
        if warm:
            warm_up()
        self.position = position
        self.rules = rules
        self.r = rules_array(rules, position.ranks, len(position.tableau), prune)
        self.root, self.talon, self.ntalon = encode(position, rules)
        self.ws = workspace_for(f"klondike/{slot}", _Workspace)
        self.tt = table_for(tt_mb, K.KEY_WORDS, slot)

    def start(self) -> str | None:
        w = self.ws
        status = K.search_init(
            w.states, w.moves, w.lstart, w.lend, w.lnext, w.ctr, w.best, self.root, self.talon, self.ntalon,
            self.r, self.tt.table, self.tt.ctr, self.tt.touched, w.key, w.codes,
        )
        return WON if status == K.ST_WON else None

    def run(self, budget: int) -> str | None:
        w = self.ws
        status = K.search_run(
            w.states, w.moves, w.lstart, w.lend, w.lnext, w.ctr, w.best, self.talon, self.ntalon, self.r,
            self.tt.table, self.tt.ctr, self.tt.touched, w.key, w.codes, budget,
        )
        return MEMORY_LIMIT if status == K.ST_STACK else _STATUS[int(status)]

    def path(self) -> np.ndarray:
        """The macro moves from the root to the current node."""
        w = self.ws
        d = int(w.ctr[K.C_DEPTH])
        return np.array([w.moves[w.lnext[x] - 1] for x in range(d)], dtype=np.int64)

    def best_path(self) -> np.ndarray:
        """The macro moves from the root to the best position (see kernel.search_init)."""
        b = self.ws.best
        return b[2:2 + int(b[1])].copy()

    def expander(self):
        """path -> Moves (picklable; holds this search's root and rules, not its workspace)."""
        return partial(_expand, self.root, self.talon, self.ntalon, self.r)

    def line(self) -> list[Move]:
        return _expand(self.root, self.talon, self.ntalon, self.r, self.path())


def _expand(root: np.ndarray, talon: np.ndarray, ntalon: int, r: np.ndarray, path: np.ndarray) -> list[Move]:
    """The atomic moves of a path of macro moves from root (safe plays included)."""
    log = np.zeros((64 + 64 * (len(path) + 1) + 1024, 5), dtype=np.int32)
    n = K.expand_line(root, path, talon, ntalon, r, log)
    if n < 0 or n > log.shape[0]:
        raise RuntimeError(f"kernel could not expand its own line (code {n})")
    return log_to_moves(log[:n])


def successors(position: KlondikePosition, rules: KlondikeRules, prune: bool = False) -> list[KlondikePosition]:
    """The kernel's children of a position (for differential tests)."""
    root, talon, ntalon = encode(position, rules)
    r = rules_array(rules, position.ranks, len(position.tableau), prune)
    out = np.zeros((K.MAX_MOVES_PER_NODE, K.SLEN), dtype=np.int32)
    n = K.successors(root, talon, ntalon, r, out)
    return [decode(out[x], talon, ntalon, len(position.tableau), position.ranks) for x in range(n)]


def perft(position: KlondikePosition, rules: KlondikeRules, depth: int) -> int:
    root, talon, ntalon = encode(position, rules)
    r = rules_array(rules, position.ranks, len(position.tableau), False)
    return int(K.perft(root, talon, ntalon, r, depth))
