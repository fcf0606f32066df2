"""Windmill's adapter between the generic search driver and its numba kernel."""

from __future__ import annotations

from functools import partial

import numpy as np

from ...engine.kernel_search import KernelSearch, Workspace, expand, perft as kernel_perft, \
    row_keys as kernel_row_keys, \
    successor_rows as kernel_successor_rows, warm_once, warm_phase_once
from ...engine.playouts import PlayoutSearch
from ...engine.search import LazyLine, Progress, Restarts, luby
from ...core.result import WON
from . import beam as B
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

    warm_once(K, "Windmill", lambda: WindmillSearch(windmill_deal(1, ranks=2, cells=2), WindmillRules(),
                                                    warm=False, slot="warm", noise=1))


class WindmillSearch(KernelSearch):
    """One depth-first search of one position, with one move order (kernel R_ORDER 0 or
    1, and R_NOISE: 0, or a seed that shuffles the move scores; ordering only, never a
    verdict); see search.drive for the protocol."""

    K = K
    to_moves = staticmethod(log_to_moves)

    def __init__(self, position: WindmillPosition, rules: WindmillRules, *, prune: bool = True,
                 warm: bool = True, slot: str = "main", depth: int = MAX_DEPTH, order: int = 0, noise: int = 0,
                 endgame: int | None = None, narrow: int = 0):
        if warm:
            warm_up()
        self.proves_loss = narrow == 0  # narrow 1: a narrowed search (kernel module doc)
        root, seq = encode(position, rules)
        self.setup(root, (seq,), rules_array(position, rules, prune, order, noise, endgame, narrow),
                   f"windmill-{slot}-{depth}", lambda: _workspace(depth), slot)

    def counters(self) -> dict[str, int]:
        """This thread's running totals of the endgame's loss test (endgame.py): tries,
        states proven lost (not entered), and E's own states."""
        return {**super().counters(), **_endgame_counters(self.ws)}


def _endgame_counters(ws: Workspace) -> dict[str, int]:
    c = ws.egc
    return {"endgame_tries": int(c[endgame.E_CALLS]), "endgame_lost": int(c[endgame.E_LOST]),
            "endgame_states": int(c[endgame.E_NODES])}


class WindmillPlayouts(PlayoutSearch):
    """Randomized greedy playouts of one position (kernel.playout_run, solver/engine/playouts.py):
    wins are wins, running out proves nothing.  ``salt`` varies the generator's seed
    (which is otherwise the deal's).  As a phase of the twin it reports the endgame
    counters of the twin's depth-first workspace ``dfs`` (running totals shared by the
    phases: Restarts.counters reads the current phase's)."""

    def __init__(self, position: WindmillPosition, rules: WindmillRules, salt: int = 0,
                 dfs: WindmillSearch | None = None, slot: str = "playouts"):
        root, seq = encode(position, rules)
        super().__init__(WindmillSearch, root, (seq,), rules_array(position, rules, True), log_to_moves, salt,
                         slot=slot)
        self.dfs = dfs

    def counters(self) -> dict[str, int]:
        return {**super().counters(), **(_endgame_counters(self.dfs.ws) if self.dfs is not None else {})}


class WindmillBeam:
    """A phase of the twin that runs the deal's one beam search (beam.py) on: every phase
    made with the same ``Beam`` goes on where the last one stopped, ``budget`` positions
    at a time.  A step is never cut, so a phase may overrun its budget by one step (at
    most the beam's pool rows, about a second's work at the widest): a solve's node limit
    or time limit can be passed by that much.  A beam drops positions, so it never proves
    anything (``proves_loss`` False, no LOST); its win's line is expanded like any kernel
    line and replayed by the caller."""

    proves_loss = False
    join_after = 0
    stored_states = 0  # no table
    tt = None

    def __init__(self, bm: B.Beam, dfs: WindmillSearch | None = None):
        self.bm, self.dfs, self.base = bm, dfs, bm.nodes
        self._expand = partial(expand, WindmillSearch, log_to_moves, WindmillSearch.LOG_SHAPE, WindmillSearch.EXACT_LOG,
                               bm.root, (bm.seq,), bm.r)

    def start(self) -> str | None:
        return WON if self.bm.won is not None else None

    def run(self, budget: int) -> str | None:
        stop = self.bm.nodes + budget
        while self.bm.nodes < stop:
            if self.bm.step():
                return WON
        return None

    def grow(self) -> bool:
        return False

    @property
    def nodes(self) -> int:
        return self.bm.nodes - self.base

    def line(self):
        """The win once won; before, the line to the best position (as a playout's line is
        its current playout)."""
        return self._expand(self.bm.won if self.bm.won is not None else self.bm.best_path)

    def best_cards(self) -> int:
        return self.bm.best_cards

    def progress(self) -> Progress:
        return Progress(self.bm.best_cards, LazyLine(self._expand, self.bm.best_path.copy()))

    def counters(self) -> dict[str, int]:
        return {"tt_dropped": 0, "beam_runs": self.bm.runs, "beam_positions": self.bm.nodes,
                **(_endgame_counters(self.dfs.ws) if self.dfs is not None else {})}


RESTART_UNIT = 1 << 16  # nodes per Luby unit of the twin's restarts


def restarts(position: WindmillPosition, rules: WindmillRules, *, prune: bool = True,
             slot: str = "twin", unit: int = RESTART_UNIT, endgame: int | None = None,
             playouts: bool = True, beam: bool = True) -> Restarts:
    """The twin of the main search (order 0, kept to the end): restarted searches with
    Luby budgets (``unit`` x 1, 1, 2, 1, 1, 2, 4, ...), search j in order (j + 1) mod 2
    with score noise j (search 0 is plain order 1).  Each search j is followed, with the
    same budget, by a phase of randomized greedy playouts (``WindmillPlayouts``, salt j)
    if ``playouts``, then by a phase of the deal's one beam search (``WindmillBeam``,
    going on where the last beam phase stopped) if ``beam`` (both on by default): phase
    k is the (k mod n)-th of the n kinds on, in round k div n.

    Why: the orders' run times are heavy-tailed, and restarts in shuffled orders win
    many deals that both plain orders leave unknown (docs/measurements.md).  Every
    phase is complete on its own (search.Restarts).  The twin joins at once
    (``join_after=0``): phase 0 is the plain order 1, which wins some deals early that
    order 0 finds late.  (A narrowed phase, kernel R_NARROW, was measured here and won
    nothing: results/windmill-narrowed-twin.md.)  Why playouts: they
    win many deals that the searches leave unknown (results/windmill-playouts.md); a
    playout phase never proves anything, so every search phase is still complete and
    the main search's exhaustion is still the only loss.  Why the beam: it spreads its
    effort over the turns of the stock, where the searches spend theirs below their
    first choices, and wins many deals both leave unknown (results/windmill-beam.md);
    like the playouts it proves nothing.
    """
    warm_up()
    searches: list[WindmillSearch] = []

    def search(j: int) -> WindmillSearch:
        s = WindmillSearch(position, rules, prune=prune, warm=False, slot=slot, order=(j + 1) % 2, noise=j,
                           endgame=endgame)
        searches.append(s)
        return s

    kinds = ["search"] + ["playouts"] * playouts + ["beam"] * beam
    if playouts:
        warm_playouts()
    if beam:
        warm_beam()
    bm = B.Beam(*encode(position, rules), rules_array(position, rules, True)) if beam else None

    def phase(k: int):
        j, kind = divmod(k, len(kinds))
        if kinds[kind] == "search":
            return search(j)
        if kinds[kind] == "playouts":
            return WindmillPlayouts(position, rules, salt=j, dfs=searches[0], slot=f"{slot}-playouts")
        return WindmillBeam(bm, searches[0])

    return Restarts(phase, lambda k: unit * luby(k // len(kinds) + 1), join_after=0)


def warm_beam() -> None:
    """Compile (or load from the cache) the beam's functions once per process, so that no
    solve's time includes it."""
    from .deals import windmill_deal

    def tiny() -> WindmillBeam:  # won at its second step: closure, selection, turn and line all run
        position, rules = windmill_deal(1, ranks=2, cells=1), WindmillRules()
        root, seq = encode(position, rules)
        return WindmillBeam(B.Beam(root, seq, rules_array(position, rules, True), pool_rows=1 << 10, hash_bits=11))

    warm_phase_once(K, "beam", tiny)


def warm_playouts() -> None:
    """Compile (or load from the cache) the kernel's playouts once per process."""
    from .deals import windmill_deal

    warm_phase_once(K, "playouts",
                    lambda: WindmillPlayouts(windmill_deal(1, ranks=2, cells=2), WindmillRules(), slot="warm"))


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
