"""Randomized greedy playouts: a win-finder beside the exhaustive search.

A playout starts at the root and plays one move after another, each chosen by the
kernel's own move generator and its scores plus a random term (foundation plays first,
most of the time), until the deal is won or no move is left (or a depth cap); then it
starts again from the root.  Deals that the depth-first search leaves unknown are
often won this way (results/windmill-playouts.md).

``PlayoutSearch`` has the interface ``search.drive`` and ``search.Restarts`` use for a
second search (start, run(budget), nodes, line, progress), so a game can put it into
its twin's schedule.  It never proves anything: ``proves_loss`` is False and ``run``
never says LOST.  A won playout's moves are expanded like a depth-first search's line
(``kernel_search.expand``), and the caller replays every won line in the reference
engine as for any other search.  Each move and each restart counts as a node, so
budgets compare with the other searches'.  The generator is seeded from the deal and
the caller's ``salt``: a run is reproducible.

Kernel calling convention (a game's kernel.py):

    | function                                    | returns                     |
    |---------------------------------------------|-----------------------------|
    | K.playout_init(pw, root, ctx, rules)        | ST_WON or ST_RUNNING        |
    | K.playout_run(pw, root, ctx, rules, budget) | ST_WON or ST_PAUSED         |

``pw`` = (cur, path, best, pctr, rng): the current state row, the current playout's
moves, the best progress (best[0] cards, best[1] moves in best[2:]), the counters
(K.P_NODES, K.P_DEPTH, K.P_PLAYOUTS...) and the uint64 generator state.
"""

from __future__ import annotations

import zlib
from functools import partial
from typing import Any, Callable

import numpy as np

from .codes import ST_WON
from .kernel_search import Workspace, expand, workspace_for
from ..core.moves import Move
from ..core.result import WON
from .search import LazyLine, Progress


def deal_seed(root: np.ndarray, ctx: tuple, salt: int) -> int:
    """A generator seed from a deal (its root row and fixed arrays) and a salt."""
    h = zlib.crc32(np.ascontiguousarray(root).tobytes())
    for a in ctx:
        h = zlib.crc32(np.ascontiguousarray(a).tobytes(), h)
    return (h << 32) ^ (salt * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF) or 1


def _workspace(K: Any) -> Workspace:
    return Workspace(cur=np.zeros(K.SLEN, dtype=np.int8), path=np.zeros(K.PLAYOUT_DEPTH, dtype=np.int64),
                     best=np.zeros(K.PLAYOUT_DEPTH + 2, dtype=np.int64),
                     pctr=np.zeros(K.PCTR_LEN, dtype=np.int64), rng=np.zeros(1, dtype=np.uint64))


class PlayoutSearch:
    """Playouts of one position in kernel ``K`` (see the module doc); a twin phase."""

    proves_loss = False  # a playout tries only some lines: running out proves nothing
    join_after = 0
    stored_states = 0  # no table
    tt = None

    def __init__(self, searcher: type, root: np.ndarray, ctx: tuple, rules: np.ndarray,
                 to_moves: Callable[[np.ndarray], list[Move]], salt: int = 0, slot: str = "playouts",
                 log_shape: tuple[int, int, int] = (1, 1, 3), exact: bool = True):
        """``searcher``: the game's KernelSearch class; its ``K`` is the kernel whose
        playouts these are (kernel_search.expand)."""
        K = searcher.K
        self.K, self.root, self.ctx, self.r = K, root, ctx, rules
        self.ws = workspace_for(f"{K.__name__}-{slot}", lambda: _workspace(K))
        self.seed = deal_seed(root, ctx, salt)
        self._expand = partial(expand, searcher, to_moves, log_shape, exact, root, ctx, rules)

    def start(self) -> str | None:
        self.ws.rng[0] = np.uint64(self.seed)
        return WON if self.K.playout_init(self.ws.arrays, self.root, self.ctx, self.r) == ST_WON else None

    def run(self, budget: int) -> str | None:
        status = self.K.playout_run(self.ws.arrays, self.root, self.ctx, self.r, budget)
        return WON if status == ST_WON else None  # never LOST: playouts prove nothing

    def grow(self) -> bool:
        return False  # no table

    @property
    def nodes(self) -> int:
        return int(self.ws.pctr[self.K.P_NODES])

    @property
    def playouts(self) -> int:
        """Playouts started so far (the current one included)."""
        return int(self.ws.pctr[self.K.P_PLAYOUTS])

    def path(self) -> np.ndarray:
        """The kernel moves of the current playout (the win, once won)."""
        return self.ws.path[:int(self.ws.pctr[self.K.P_DEPTH])].copy()

    def line(self) -> list[Move]:
        return self._expand(self.path())

    def best_cards(self) -> int:
        return int(self.ws.best[0])

    def progress(self) -> Progress:
        b = self.ws.best
        return Progress(int(b[0]), LazyLine(self._expand, b[2:2 + int(b[1])].copy()))

    def counters(self) -> dict[str, int]:
        return {"tt_dropped": 0}
