"""Beleaguered Castle's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from ...moves import Move
from ...result import LOST, MEMORY_LIMIT, WON
from ...jit import announce_compile
from ...search import KernelSearch, table_for, unpack_moves16, workspace_for
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


_STATUS = {K.ST_WON: WON, K.ST_LOST: LOST, K.ST_MEMORY: MEMORY_LIMIT, K.ST_PAUSED: None}


class _Workspace:
    def __init__(self, g: Geometry) -> None:
        if not 2 <= g.block <= g.window:
            raise ValueError("the ring must hold at least one block of levels")
        self.ring = np.zeros((g.window, K.SLEN), dtype=np.int8)
        self.ckpt = np.zeros((g.max_depth // g.block + 2, K.SLEN), dtype=np.int8)
        self.moves = np.zeros(g.move_cap, dtype=np.int16)
        self.lend = np.zeros(g.max_depth + 1, dtype=np.int32)
        self.lnext = np.zeros(g.max_depth + 1, dtype=np.int32)
        self.ctr = np.zeros(K.CTR_LEN, dtype=np.int64)
        self.best = np.zeros(_best_words(g.max_depth), dtype=np.int64)  # best progress (kernel.search_init)
        self.key = np.zeros(K.KEY_WORDS, dtype=np.uint64)


_warm = False


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once, so timings exclude it."""
    global _warm
    if _warm:
        return
    _warm = True
    announce_compile(K.search_run, "Beleaguered Castle")
    from .deals import bc_deal

    s = BCSearch(bc_deal(1, "solvitaire"), BCRules(), 1, warm=False)
    if s.start() is None:
        s.run(64)
    s.line()
    s.tt.clear()


class BCSearch(KernelSearch):
    """One search of one position; see search.drive for the protocol."""

    K = K

    def __init__(self, position: BCPosition, rules: BCRules, tt_mb: float, prune: bool = True,
                 warm: bool = True, geometry: Geometry = Geometry(),
                 order: int = K.ORDER_BASIC, slot: str = "main"):
        """``order``: the kernel's move order (kernel.ORDER_*); ``slot`` names the workspace
        and table: concurrent searches need their own."""
        if warm:
            warm_up()
        self.position = position
        self.rules = rules
        self.r = rules_array(position.ranks, len(position.tableau), prune, order)
        self.root = encode(position)
        self.geometry = geometry
        self.ws = workspace_for(f"beleaguered-castle/{slot}/{'-'.join(map(str, geometry))}",
                                lambda: _Workspace(geometry))
        self.tt = table_for(tt_mb, K.KEY_WORDS, slot)

    @property
    def depth(self) -> int:
        return int(self.ws.ctr[K.C_DEPTH])

    def start(self) -> str | None:
        w = self.ws
        status = K.search_init(w.ring, w.ckpt, w.moves, w.lend, w.lnext, w.ctr, w.best, self.root, self.root,
                               self.r, self.tt.table, self.tt.ctr, self.tt.touched, w.key)
        return WON if status == K.ST_WON else None

    def run(self, budget: int) -> str | None:
        w = self.ws
        status = K.search_run(w.ring, w.ckpt, w.moves, w.lend, w.lnext, w.ctr, w.best, self.root, self.r,
                              self.tt.table, self.tt.ctr, self.tt.touched, w.key, self.geometry.block, budget)
        return MEMORY_LIMIT if status == K.ST_STACK else _STATUS[int(status)]

    def path(self) -> np.ndarray:
        """The moves from the root to the current node."""
        w = self.ws
        d = int(w.ctr[K.C_DEPTH])
        return w.moves[w.lnext[:d] - 1].astype(np.int64)

    def best_path(self) -> np.ndarray:
        """The moves from the root to the best position (int16; kernel.search_init)."""
        return unpack_moves16(self.ws.best)

    def expander(self):
        """path -> Moves (picklable; holds this search's root and rules, not its workspace)."""
        return partial(_expand, self.root, self.r)

    def line(self) -> list[Move]:
        return _expand(self.root, self.r, self.path())


def _expand(root: np.ndarray, r: np.ndarray, path: np.ndarray) -> list[Move]:
    """Every move of a path from root (the safe plays included)."""
    path = np.asarray(path, dtype=np.int64)
    cap = len(path) + 52 + 1
    log = np.zeros((cap, 3), dtype=np.int32)
    n = K.expand_line(root, path, r, log)
    if n < 0 or n > cap:
        raise RuntimeError(f"kernel could not expand its own line (code {n})")
    return log_to_moves(log[:n])


def successors(position: BCPosition, prune: bool = False) -> list[BCPosition]:
    """The kernel's children of a position (for differential tests)."""
    root = encode(position)
    r = rules_array(position.ranks, len(position.tableau), prune)
    out = np.zeros((K.MAX_MOVES_PER_NODE, K.SLEN), dtype=np.int8)
    n = K.successors(root, r, out)
    return [decode(out[x], len(position.tableau), position.ranks) for x in range(n)]


def keys(positions: list[BCPosition], ref: BCPosition) -> list[tuple[int, int, int]]:
    """The kernel's packed keys of positions, measured against the root ``ref`` (tests)."""
    rows = np.array([encode(p) for p in positions], dtype=np.int8).reshape(len(positions), K.SLEN)
    out = np.zeros((len(positions), K.KEY_WORDS), dtype=np.uint64)
    K.keys_of(rows, encode(ref), rules_array(ref.ranks, len(ref.tableau), True), out)
    return [tuple(int(w) for w in row) for row in out]


def perft(position: BCPosition, depth: int) -> int:
    return int(K.perft(encode(position), rules_array(position.ranks, len(position.tableau), False), depth))
