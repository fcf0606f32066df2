"""Windmill's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial

import numpy as np

from ...moves import Move
from ...result import LOST, MEMORY_LIMIT, WON
from ...jit import announce_compile
from ...search import KernelSearch, Restarts, luby, table_for, workspace_for
from . import endgame
from . import kernel as K
from .codec import decode, encode, log_to_moves, rules_array
from .position import WindmillPosition, WindmillRules

MAX_DEPTH = 1 << 15  # levels of the DFS stack (224 bytes each; lazily touched)

_STATUS = {K.ST_WON: WON, K.ST_LOST: LOST, K.ST_MEMORY: MEMORY_LIMIT, K.ST_PAUSED: None}


class _Workspace:
    def __init__(self, depth: int) -> None:
        self.rows = np.zeros((depth + 1, K.SLEN), dtype=np.int8)
        self.moves = np.zeros(K.MOVE_SLOTS * (depth + 1), dtype=np.int16)
        self.lend = np.zeros(depth + 1, dtype=np.int64)
        self.lnext = np.zeros(depth + 1, dtype=np.int64)
        self.ctr = np.zeros(K.CTR_LEN, dtype=np.int64)
        self.best = np.zeros(depth + 3, dtype=np.int64)  # best progress (kernel.search_init)
        self.key = np.zeros(K.KEY_WORDS, dtype=np.uint64)
        self.eg_visit, self.eg_stack, self.egc = endgame.workspace()  # the endgame's loss test


_warm = False


def warm_up() -> None:
    """Compile (or load from the cache) every kernel once, so timings exclude it."""
    global _warm
    if _warm:
        return
    _warm = True
    announce_compile(K.search_run, "Windmill")
    from .deals import windmill_deal

    s = WindmillSearch(windmill_deal(1, ranks=2, cells=2), WindmillRules(), 2, warm=False, slot="warm", noise=1)
    if s.start() is None:
        s.run(64)
    s.line()
    s.tt.clear()


class WindmillSearch(KernelSearch):
    """One depth-first search of one position, with one move order (kernel R_ORDER 0 or
    1, and R_NOISE: 0, or a seed that shuffles the move scores; ordering only, never a
    verdict); see search.drive for the protocol."""

    K = K

    def __init__(self, position: WindmillPosition, rules: WindmillRules, tt_mb: float, prune: bool = True,
                 warm: bool = True, slot: str = "main", depth: int = MAX_DEPTH, order: int = 0, noise: int = 0,
                 endgame: int | None = None):
        if warm:
            warm_up()
        self.r = rules_array(position, rules, prune, order, noise, endgame)
        self.root, self.seq = encode(position, rules)
        self.ws = workspace_for(f"windmill-{slot}-{depth}", lambda: _Workspace(depth))
        self.tt = table_for(tt_mb, K.KEY_WORDS, slot)

    def start(self) -> str | None:
        w = self.ws
        status = K.search_init(w.rows, w.moves, w.lend, w.lnext, w.ctr, w.best, self.root, self.seq, self.r,
                               self.tt.table, self.tt.ctr, self.tt.touched, w.key)
        return WON if status == K.ST_WON else None

    def run(self, budget: int) -> str | None:
        w = self.ws
        status = K.search_run(w.rows, w.moves, w.lend, w.lnext, w.ctr, w.best, self.seq, self.r,
                              self.tt.table, self.tt.ctr, self.tt.touched, w.key,
                              w.eg_visit, w.eg_stack, w.egc, budget)
        return MEMORY_LIMIT if status == K.ST_STACK else _STATUS[int(status)]

    def path(self) -> np.ndarray:
        w = self.ws
        d = int(w.ctr[K.C_DEPTH])
        return w.moves[w.lnext[:d] - 1].astype(np.int64)

    def counters(self) -> dict[str, int]:
        """This thread's running totals of the endgame's loss test (endgame.py): tries,
        states proven lost (not entered), and E's own states."""
        c = self.ws.egc
        return {"endgame_tries": int(c[endgame.E_CALLS]), "endgame_lost": int(c[endgame.E_LOST]),
                "endgame_states": int(c[endgame.E_NODES])}

    def best_path(self) -> np.ndarray:
        """The moves from the root to the best position (kernel.search_init)."""
        b = self.ws.best
        return b[2:2 + int(b[1])].copy()

    def expander(self):
        """path -> Moves (picklable; holds this search's root and rules, not its workspace)."""
        return partial(_expand, self.root, self.seq, self.r)

    def line(self) -> list[Move]:
        return _expand(self.root, self.seq, self.r, self.path())


def _expand(root: np.ndarray, seq: np.ndarray, r: np.ndarray, path: np.ndarray) -> list[Move]:
    """The moves of a path from root."""
    path = np.asarray(path, dtype=np.int64)
    log = np.zeros((len(path) + 1, 3), dtype=np.int32)
    n = K.expand_line(root, seq, path, r, log)
    if n != len(path):
        raise RuntimeError(f"kernel could not expand its own line (code {n})")
    return log_to_moves(log[:n])


RESTART_UNIT = 1 << 16  # nodes per Luby unit of the twin's restarts


def restarts(position: WindmillPosition, rules: WindmillRules, tt_mb: float, prune: bool = True,
             slot: str = "twin", unit: int = RESTART_UNIT, endgame: int | None = None) -> Restarts:
    """The twin of the main search (order 0, kept to the end): restarted searches with
    Luby budgets (``unit`` x 1, 1, 2, 1, 1, 2, 4, ...), phase k in order (k + 1) mod 2
    with score noise k (phase 0 is plain order 1).

    Why: the orders' run times are heavy-tailed, and restarts in shuffled orders win
    many deals that both plain orders leave unknown (docs/measurements.md).  Every
    phase is complete on its own (search.Restarts).  The twin joins at once
    (``join_after=0``): phase 0 is the plain order 1, which wins some deals early that
    order 0 finds late.
    """
    warm_up()

    def phase(k: int) -> WindmillSearch:
        return WindmillSearch(position, rules, tt_mb, prune, warm=False, slot=slot, order=(k + 1) % 2, noise=k,
                              endgame=endgame)

    return Restarts(phase, lambda k: unit * luby(k + 1), join_after=0)


# ----------------------------------------------------------------- for tests


def successors(position: WindmillPosition, rules: WindmillRules, prune: bool = False) -> list[WindmillPosition]:
    """The kernel's children of a position."""
    root, seq = encode(position, rules)
    r = rules_array(position, rules, prune)
    out = np.zeros((K.MOVE_SLOTS, K.SLEN), dtype=np.int8)
    n = K.successors(root, seq, r, out)
    return [decode(out[x], seq, int(r[K.R_NSEQ]), len(position.cells), position.ranks) for x in range(n)]


def successor_rows(position: WindmillPosition, rules: WindmillRules, prune: bool = False, order: int = 0,
                   noise: int = 0):
    """(root row, seq, rules array, children rows in the order tried) for key and order tests."""
    root, seq = encode(position, rules)
    r = rules_array(position, rules, prune, order, noise)
    out = np.zeros((K.MOVE_SLOTS, K.SLEN), dtype=np.int8)
    n = K.successors(root, seq, r, out)
    return root, seq, r, out[:n].copy()


def row_keys(rows: np.ndarray, seq: np.ndarray, r: np.ndarray) -> list[tuple[int, ...]]:
    out = np.zeros((len(rows), K.KEY_WORDS), dtype=np.uint64)
    K.keys_of(np.ascontiguousarray(rows, dtype=np.int8).reshape(len(rows), K.SLEN), seq, r, out)
    return [tuple(int(w) for w in row) for row in out]


def perft(position: WindmillPosition, rules: WindmillRules, depth: int) -> int:
    root, seq = encode(position, rules)
    return int(K.perft(root, seq, rules_array(position, rules, False), depth))
