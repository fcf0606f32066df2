"""Great Wheel's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from ...moves import Move
from ...result import LOST, MEMORY_LIMIT, WON
from ...jit import announce_compile
from ...search import KernelSearch, table_for, unpack_moves16, workspace_for
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
        # best progress (kernel.search_init: 4 moves per word)
        self.best = np.zeros(2 + (g.max_depth + 1) // 4 + 2, dtype=np.int64)
        self.key = np.zeros(K.KEY_WORDS, dtype=np.uint64)


_warm = False


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once, so timings exclude it."""
    global _warm
    if _warm:
        return
    _warm = True
    announce_compile(K.search_run, "Great Wheel")
    from .deals import endgame_deal

    s = GWSearch(endgame_deal(1, 6, 2, 2), GWRules("pysolfc"), 1, warm=False)
    if s.start() is None:
        s.run(64)
    s.line()
    s.tt.clear()


class GWSearch(KernelSearch):
    """One search of one position; see search.drive for the protocol."""

    K = K

    def __init__(self, position: GWPosition, rules: GWRules, tt_mb: float, prune: bool = True,
                 warm: bool = True, geometry: Geometry = Geometry(), slot: str = "main"):
        if warm:
            warm_up()
        self.position = position
        self.rules = rules
        self.r = rules_array(position, rules, prune)
        self.talon = talon_of(position)
        self.root = encode(position)
        self.geometry = geometry
        self.ws = workspace_for(f"great-wheel-{slot}-{'-'.join(map(str, geometry))}", lambda: _Workspace(geometry))
        self.tt = table_for(tt_mb, K.KEY_WORDS, slot)

    def start(self) -> str | None:
        w = self.ws
        status = K.search_init(w.ring, w.ckpt, w.moves, w.lend, w.lnext, w.ctr, w.best, self.root, self.talon,
                               self.r, self.tt.table, self.tt.ctr, self.tt.touched, w.key)
        return WON if status == K.ST_WON else None

    def run(self, budget: int) -> str | None:
        w = self.ws
        status = K.search_run(w.ring, w.ckpt, w.moves, w.lend, w.lnext, w.ctr, w.best, self.talon, self.r,
                              self.tt.table, self.tt.ctr, self.tt.touched, w.key, self.geometry.block, budget)
        return MEMORY_LIMIT if status == K.ST_STACK else _STATUS[int(status)]

    def path(self) -> np.ndarray:
        w = self.ws
        d = int(w.ctr[K.C_DEPTH])
        return w.moves[w.lnext[:d] - 1].astype(np.int64)

    def best_path(self) -> np.ndarray:
        """The moves from the root to the best position (int16; kernel.search_init)."""
        return unpack_moves16(self.ws.best)

    def expander(self):
        """path -> Moves (picklable; holds this search's root and rules, not its workspace)."""
        return partial(_expand, self.root, self.talon, self.r, self.position)

    def line(self) -> list[Move]:
        return _expand(self.root, self.talon, self.r, self.position, self.path())


def _expand(root: np.ndarray, talon: np.ndarray, r: np.ndarray, position: GWPosition,
            path: np.ndarray) -> list[Move]:
    """The moves of a path from root."""
    path = np.asarray(path, dtype=np.int64)
    log = np.zeros((len(path) + 1, 3), dtype=np.int32)
    n = K.expand_line(root, path, talon, r, log)
    if n != len(path):
        raise RuntimeError(f"kernel could not expand its own line (code {n})")
    return log_to_moves(log[:n], position)


def _decode(position: GWPosition, row: np.ndarray, talon: np.ndarray, r: np.ndarray) -> GWPosition:
    return decode(row, talon, int(r[K.R_TLEN]), len(position.tableau), position.ranks, position.fill)


def successors(position: GWPosition, rules: GWRules, prune: bool = False) -> list[GWPosition]:
    """The kernel's children of a position (for differential tests)."""
    r = rules_array(position, rules, prune)
    talon = talon_of(position)
    out = np.zeros((K.MAX_MOVES_PER_NODE, K.SLEN), dtype=np.int8)
    n = K.successors(encode(position), talon, r, out)
    return [_decode(position, out[x], talon, r) for x in range(n)]


def successor_rows(position: GWPosition, rules: GWRules, prune: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(children rows, talon) of the kernel, for key tests."""
    r = rules_array(position, rules, prune)
    talon = talon_of(position)
    out = np.zeros((K.MAX_MOVES_PER_NODE, K.SLEN), dtype=np.int8)
    n = K.successors(encode(position), talon, r, out)
    return out[:n].copy(), talon


def keys(rows: np.ndarray, position: GWPosition, rules: GWRules) -> list[tuple[int, ...]]:
    """The kernel's packed keys of state rows searched from ``position``."""
    out = np.zeros((len(rows), K.KEY_WORDS), dtype=np.uint64)
    K.keys_of(rows, rules_array(position, rules, True), out)
    return [tuple(int(w) for w in row) for row in out]


def perft(position: GWPosition, rules: GWRules, depth: int) -> int:
    return int(K.perft(encode(position), talon_of(position), rules_array(position, rules, False), depth))
