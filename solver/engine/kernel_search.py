"""One adapter between the search driver (``search.drive``) and every game's kernel.

Every kernel module ``K`` (``solver/games/*/kernel.py``) has the same calling
convention, so that this module is the only Python code that calls a search:

    | function                                   | returns                         |
    |--------------------------------------------|---------------------------------|
    | K.search_init(ws, root, ctx, rules, tt)    | status (ST_WON or ST_RUNNING)   |
    | K.search_run(ws, ctx, rules, tt, budget)   | status after ``budget`` nodes   |
    | K.expand_line(root, ctx, path, rules, log) | rows of ``log`` written (< 0: a move failed) |
    | K.successors(root, ctx, rules, out)        | children written to ``out``     |
    | K.keys_of(rows, ctx, rules, out)           | (packed keys of rows into out; all but Klondike's kernel) |

- ``ws``: the game's workspace arrays as one tuple, in the order its kernel unpacks
  them (``Workspace.arrays``); it holds at least ``moves``, ``lnext``, ``ctr`` (indices
  C_NODES, C_DEPTH, C_STATUS) and ``best`` (best[0] cards on the foundations, best[1]
  moves of the line to the first position that had them, stored from best[2] on).
- ``root``: the state row of the position searched; ``ctx``: a tuple of what is fixed
  for the whole search (the turn order of the stock, a reference row).
- ``rules``: the game's int64 rules array; ``tt``: the table's (table, ctr, touched).

A game's searcher subclasses ``KernelSearch`` and says how to build these for a position;
start, run, path, line and progress are written here once.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

import numpy as np

from ..core.moves import Move
from ..core.result import LOST, MEMORY_LIMIT, WON
from .codes import C_DEPTH, C_NODES, C_STATUS, ST_LOST, ST_MEMORY, ST_PAUSED, ST_STACK, ST_WON
from .resources import table_mb, tables
from .search import RELAX_AFTER, LazyLine, Progress

if TYPE_CHECKING:
    from .tt import TranspositionTable


_local = threading.local()


def table_for(width: int, slot: str = "main") -> "TranspositionTable":
    """This thread's table for ``slot`` (one per concurrent search), cleared, of the
    size set for the searches run here (``resources.tables``)."""
    megabytes = table_mb()
    held = getattr(_local, "tables", None)
    if held is None:
        held = _local.tables = {}
    tt = held.get(slot)
    if tt is None or (tt.megabytes, tt.width) != (megabytes, width):
        held.pop(slot, None)  # never hold two big tables for one slot
        from .tt import TranspositionTable

        tt = held[slot] = TranspositionTable(megabytes, width)
    else:
        tt.clear()
    return tt


def workspace_for(name: str, factory):
    """This thread's reusable scratch arrays for a kernel (``factory()`` builds them)."""
    spaces = getattr(_local, "spaces", None)
    if spaces is None:
        spaces = _local.spaces = {}
    if name not in spaces:
        spaces[name] = factory()
    return spaces[name]


def unpack_moves16(best: np.ndarray) -> np.ndarray:
    """The path of a ``best`` array that packs four 16-bit move codes per int64 word
    (move x in bits 16 * (x % 4) of best[2 + x // 4]; best[1] moves), as int16."""
    n = int(best[1])
    words = np.asarray(best[2:2 + (n + 3) // 4], dtype=np.int64)
    lanes = (words[:, None] >> np.array([0, 16, 32, 48], dtype=np.int64)) & 0xFFFF
    return lanes.reshape(-1)[:n].astype(np.int16)


class Workspace:
    """A kernel's reusable arrays, by name (``ws.ctr``), and as the tuple its kernel
    unpacks (``ws.arrays``, in the order given)."""

    def __init__(self, **named: Any) -> None:
        self.__dict__.update(named)
        self.arrays = tuple(named.values())


class RingGeometry(NamedTuple):
    """The shape of a deep DFS stack (Beleaguered Castle's and Great Wheel's kernels):
    state rows for the last ``window`` levels plus a checkpoint row every ``block``
    levels, ``max_depth`` levels of move indices, ``move_cap`` stacked 16-bit moves.
    The OS zero-fills the arrays lazily: only the levels a search reaches cost memory."""

    window: int
    block: int
    max_depth: int
    move_cap: int

    def megabytes(self, row_bytes: int) -> float:
        """Peak memory of a workspace of this shape (the worst case).  Not counted: the
        best-progress line (2 bytes a level, written only up to the best position's
        depth, so most of its pages stay untouched)."""
        return (self.window * row_bytes + (self.max_depth // self.block + 2) * row_bytes + 2 * self.move_cap
                + 8 * (self.max_depth + 1)) / 2**20


def ring_workspace(K: Any, g: RingGeometry) -> Workspace:
    """The workspace of a kernel with a ring-and-checkpoint stack, in its kernel's order
    (ring, ckpt, moves, lend, lnext, ctr, best, key, block); ``best`` packs four 16-bit
    moves a word (``PACKED_BEST``)."""
    if not 2 <= g.block <= g.window:
        raise ValueError("the ring must hold at least one block of levels")
    return Workspace(ring=np.zeros((g.window, K.SLEN), dtype=np.int8),
                     ckpt=np.zeros((g.max_depth // g.block + 2, K.SLEN), dtype=np.int8),
                     moves=np.zeros(g.move_cap, dtype=np.int16),
                     lend=np.zeros(g.max_depth + 1, dtype=np.int32), lnext=np.zeros(g.max_depth + 1, dtype=np.int32),
                     ctr=np.zeros(K.CTR_LEN, dtype=np.int64),
                     best=np.zeros(2 + (g.max_depth + 1) // 4 + 2, dtype=np.int64),
                     key=np.zeros(K.KEY_WORDS, dtype=np.uint64), block=g.block)


def expand(searcher: type, to_moves: Callable[[np.ndarray], list[Move]], log_shape: tuple[int, int, int],
           exact: bool, root: np.ndarray, ctx: tuple, rules: np.ndarray, path: np.ndarray) -> list[Move]:
    """The moves of a path of kernel moves from ``root`` (module-level and picklable, so
    that a batch worker can send a line home unexpanded).  ``searcher``: a game's
    KernelSearch class, whose ``K`` is the kernel (a class pickles by reference: its
    module, which imports the kernel, is imported where it is unpickled; the engine names
    no game module).  ``log_shape`` = (rows per move, extra rows, columns); ``exact``: one
    log row per path move."""
    K = searcher.K
    path = np.asarray(path, dtype=np.int64)
    per, extra, width = log_shape
    log = np.zeros((per * len(path) + extra, width), dtype=np.int32)
    n = K.expand_line(root, ctx, path, rules, log)
    if n < 0 or n > log.shape[0] or (exact and n != len(path)):
        raise RuntimeError(f"kernel could not expand its own line (code {n})")
    return to_moves(log[:n])


def kernel_owner(cls: type) -> type:
    """The class of ``cls``'s line (itself or a base) that declares its kernel ``K``: the
    one ``expand`` is handed (a subclass made in a test or a function cannot be pickled)."""
    return next(c for c in cls.__mro__ if "K" in vars(c))


class KernelSearch:
    """One depth-first search of one position in a game's kernel; see search.drive.

    A subclass sets ``K`` (the kernel module), ``LOG_SHAPE``/``EXACT_LOG`` (see
    ``expand``), ``PACKED_BEST`` (the best line packs four 16-bit moves a word), and in
    ``__init__`` calls ``setup(root, ctx, rules, ws_name, ws_factory, slot)`` and
    sets ``to_moves`` (log rows -> Moves; picklable)."""

    K: Any
    join_after = RELAX_AFTER  # as a relaxed second search (search.drive)
    proves_loss = True  # every legal move is tried (a narrowed search sets False)
    LOG_SHAPE = (1, 1, 3)
    EXACT_LOG = True
    PACKED_BEST = False
    to_moves: Callable[[np.ndarray], list[Move]]

    def setup(self, root: np.ndarray, ctx: tuple, rules: np.ndarray, ws_name: str,
              ws_factory: Callable[[], Workspace], slot: str) -> None:
        self.root, self.ctx, self.r = root, ctx, rules
        self.ws = workspace_for(ws_name, ws_factory)
        self.tt = table_for(self.K.KEY_WORDS, slot)

    def counters(self) -> dict[str, int]:
        """Running totals of this search's counters: the entries its table evicted
        (tt.py), and a game's reduction counters (a subclass adds them); solve()
        reports their change over one search."""
        return {"tt_dropped": self.tt.dropped}

    def best_cards(self) -> int:
        """The most cards this search has had on the foundations (after start())."""
        return int(self.ws.best[0])

    def best_line(self) -> list[Move]:
        """The moves from the root to the first position with best_cards() cards."""
        return self.expander()(self.best_path())

    def progress(self) -> Progress:
        """best_cards() and its line (copied now, expanded when asked)."""
        return Progress(self.best_cards(), LazyLine(self.expander(), self.best_path()))

    @property
    def nodes(self) -> int:
        return int(self.ws.ctr[C_NODES])

    @property
    def stored_states(self) -> int:
        return self.tt.count

    def grow(self) -> bool:
        """After MEMORY_LIMIT: enlarge the table, unless the DFS stack is what is full."""
        if self.ws.ctr[C_STATUS] == ST_STACK:
            return False
        return self.tt.grow()

    def _status(self, status: int) -> str | None:
        """The verdict of a kernel status; None when paused.  Any other status is a
        kernel bug (KeyError), never "paused"."""
        return {ST_WON: WON, ST_LOST: LOST, ST_MEMORY: MEMORY_LIMIT, ST_STACK: MEMORY_LIMIT,
                ST_PAUSED: None}[int(status)]

    def _tt(self) -> tuple:
        return (self.tt.table, self.tt.ctr, self.tt.touched)

    def start(self) -> str | None:
        status = self.K.search_init(self.ws.arrays, self.root, self.ctx, self.r, self._tt())
        return WON if status == ST_WON else None

    def run(self, budget: int) -> str | None:
        return self._status(self.K.search_run(self.ws.arrays, self.ctx, self.r, self._tt(), budget))

    @property
    def depth(self) -> int:
        return int(self.ws.ctr[C_DEPTH])

    def path(self) -> np.ndarray:
        """The kernel moves from the root to the current node."""
        w = self.ws
        return w.moves[w.lnext[:self.depth] - 1].astype(np.int64)

    def best_path(self) -> np.ndarray:
        """The kernel moves from the root to the best position (kernel search_init)."""
        b = self.ws.best
        return unpack_moves16(b) if self.PACKED_BEST else b[2:2 + int(b[1])].copy()

    def expander(self):
        """path -> Moves (picklable; holds this search's root and rules, not its workspace)."""
        return partial(expand, kernel_owner(type(self)), self.to_moves, self.LOG_SHAPE, self.EXACT_LOG,
                       self.root, self.ctx, self.r)

    def line(self) -> list[Move]:
        return self.expander()(self.path())


_warmed: set[str] = set()
WARM_MB = 1  # the table of the tiny warm-up search


def warm_once(K: Any, label: str, make: Callable[[], KernelSearch]) -> None:
    """Compile kernel ``K`` (or load it from numba's cache) once per process, so that
    timings exclude it: say so on stderr when it is a compile (``label`` names the
    game), then run the tiny search ``make()`` to the end of its first slice and expand
    its line, which calls every kernel function a solve uses."""
    if K.__name__ in _warmed:
        return
    _warmed.add(K.__name__)
    from .jit import announce_compile

    announce_compile(K.search_run, label)
    with tables(WARM_MB):
        _run_tiny(make()).tt.clear()


def warm_phase_once(K: Any, phase: str, make: Callable[[], Any]) -> None:
    """Compile (or load from the cache) the code of a twin's ``phase`` (its playouts, a
    beam...) in kernel ``K``'s game once per process: run the tiny phase ``make()`` as
    warm_once runs a search (start, a first slice, its line)."""
    if f"{K.__name__}:{phase}" in _warmed:
        return
    _warmed.add(f"{K.__name__}:{phase}")
    with tables(WARM_MB):
        _run_tiny(make())


def _run_tiny(search: Any) -> Any:
    """Run a search or playouts to the end of its first slice and expand its line."""
    if search.start() is None:
        search.run(64)
    search.line()
    return search


# ----------------------------------------------------------------- for tests


def successor_rows(K: Any, root: np.ndarray, ctx: tuple, rules: np.ndarray) -> np.ndarray:
    """The kernel's children of a state row, in the order it tries them."""
    out = np.zeros((K.MAX_MOVES_PER_NODE, K.SLEN), dtype=root.dtype)
    n = K.successors(root, ctx, rules, out)
    return out[:n].copy()


def perft(K: Any, root: np.ndarray, ctx: tuple, rules: np.ndarray, depth: int) -> int:
    """Move sequences of length ``depth`` from a state row, by the kernel's moves."""
    if depth == 0:
        return 1
    children = successor_rows(K, root, ctx, rules)
    if depth == 1:
        return len(children)
    return sum(perft(K, row, ctx, rules, depth - 1) for row in children)


def row_keys(K: Any, rows: np.ndarray, ctx: tuple, rules: np.ndarray) -> list[tuple[int, ...]]:
    """The kernel's packed keys of state rows."""
    rows = np.ascontiguousarray(rows).reshape(len(rows), K.SLEN)
    out = np.zeros((len(rows), K.KEY_WORDS), dtype=np.uint64)
    K.keys_of(rows, ctx, rules, out)
    return [tuple(int(w) for w in row) for row in out]
