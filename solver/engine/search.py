"""The search driver: runs a game's resumable kernel in slices under the user's limits.

Kernels cannot read a clock, so they run for a budget of nodes and return; between
slices this driver checks the time limit, the node limit and Ctrl-C.  Slices start
small (easy deals stay cheap) and double up to about a third of a second of work.
(The kernels' workspaces and tables, allocated once per thread and reused, are in
kernel_search.py.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Protocol, runtime_checkable

from ..core.errors import NAME, OptionError
from ..core.moves import Move
from ..core.result import INTERRUPTED, LOST, MEMORY_LIMIT, NODE_LIMIT, TIME_LIMIT, UNKNOWN, WON


@runtime_checkable
class Search(Protocol):
    """One kernel search of one position, as ``search.drive`` runs it in slices."""

    nodes: int
    stored_states: int
    join_after: int  # as a second search: main-search nodes before it joins
    proves_loss: bool  # running out of moves proves no line wins (False: it tries only some moves)

    def start(self) -> str | None: ...  # the verdict if decided at the root, else None

    def run(self, budget: int) -> str | None: ...  # WON / LOST / MEMORY_LIMIT, or None (paused)

    def grow(self) -> bool: ...  # after MEMORY_LIMIT: enlarge the table if allowed

    def line(self) -> list[Move]: ...  # the moves to the current node (the win, once won)

    def best_cards(self) -> int: ...

    def progress(self) -> Any: ...  # search.Progress: the best position so far and its line

    def counters(self) -> dict[str, int]: ...  # running totals: tt_dropped and the game's reductions


RELAX_AFTER = 1 << 16  # nodes of main search before a second search (drive) joins in


@dataclass(frozen=True)
class Limits:
    """When ``drive`` stops a search undecided.  (The table size is no limit of the
    driver's: the searches are built with their tables, see resources.py.)"""

    max_nodes: int | None = None
    timeout: float | None = None

    def __post_init__(self) -> None:
        if self.max_nodes is not None and self.max_nodes < 1:
            raise OptionError("max_nodes", f"{NAME} must be at least 1")
        if self.timeout is not None and not 0 < self.timeout < float("inf"):
            raise OptionError("timeout", f"{NAME} must be a positive number of seconds")


class LazyLine:
    """The moves from the root to a recorded position, expanded on first call.

    ``expand(path)`` turns the kernel's packed moves into Moves (a module-level function
    bound with functools.partial to the search's root and rules arrays, never to its
    workspace, so the line stays valid when the workspace is reused and pickles
    cheaply).  Lazy because a Beleaguered Castle line can be millions of moves long.
    """

    def __init__(self, expand: Callable[[Any], list[Move]], path: Any):
        self._expand, self._path, self._moves = expand, path, None

    def __call__(self) -> list[Move]:
        if self._moves is None:
            self._moves = self._expand(self._path)
            self._expand = self._path = None
        return self._moves


@dataclass
class Progress:
    """The most cards a search had on the foundations, and the line to them."""

    cards: int
    line: LazyLine


def better(a: "Progress | None", b: "Progress | None") -> "Progress | None":
    """The one with more cards (``a`` on a tie)."""
    if b is None or (a is not None and a.cards >= b.cards):
        return a
    return b


def luby(i: int) -> int:
    """Term i >= 1 of Luby, Sinclair and Zuckerman's universal restart sequence
    1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...: within a constant factor of the best
    fixed restart budget for any run-time distribution, without knowing it."""
    if i < 1:
        raise ValueError("Luby's sequence starts at term 1")
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


class Restarts:
    """A portfolio in time: a sequence of depth-first searches of one position.

    ``make_phase(k)`` builds phase k's search (its own move order, a cleared table);
    phase k may make ``budget(k)`` nodes, then it is abandoned and phase k + 1 starts
    from the root.  A phase's win is a win (with its line).  A complete phase (every
    legal move tried) that runs out of moves has exhausted the space: LOST.  Abandoning
    a phase proves nothing.  Why: depth-first search times are heavy-tailed in the move
    order, so many short searches in different orders find wins that one long search
    misses (measured per game, see the callers).  A phase whose DFS stack fills (a full
    table evicts, tt.py) ends the restarts with MEMORY_LIMIT (as drive's twin they are
    then dropped and the main search goes on alone).  Every budget must be at least 2
    nodes (the root plus one), so that every phase makes progress.

    A phase may be narrowed (it tries only some moves: ``proves_loss`` False): when it
    runs out of moves, that phase ends as if its budget were spent.  A ladder of narrowed phases (Great Wheel's
    twin) passes ``phases``, their number: after the last one ``run`` says LOST, which
    then means "nothing left to try" (``proves_loss``, the current phase's, is False:
    drive drops it).  Without ``phases`` the phases go on forever, and the first LOST of
    a complete phase is a loss.
    """

    def __init__(self, make_phase: Callable[[int], Any], budget: Callable[[int], int],
                 join_after: int = RELAX_AFTER, phases: int | None = None):
        self.join_after = join_after  # as a twin (drive): main-search nodes before it joins
        self.make_phase = make_phase
        self.budget = budget
        self.phases = phases
        self.phase = 0
        self.done_nodes = 0  # nodes of the abandoned phases
        self.done_dropped = 0  # states their tables did not keep (each phase clears its table)
        self.kept: Progress | None = None  # the best progress of the abandoned phases
        self.current = make_phase(0)

    @property
    def proves_loss(self) -> bool:
        """Whether LOST from run() is a loss: the current phase's (a spent ladder's is not)."""
        return self.current.proves_loss

    @property
    def nodes(self) -> int:
        return self.done_nodes + self.current.nodes

    @property
    def stored_states(self) -> int:
        return self.current.stored_states

    @property
    def tt(self):
        return self.current.tt

    def start(self) -> str | None:
        return self.current.start()  # the root is the same for every phase

    def run(self, budget: int) -> str | None:
        stop = self.nodes + budget
        while True:
            if self.nodes >= stop:  # checked first: a new phase's root counts as a node
                return None
            left = self.budget(self.phase) - self.current.nodes
            if left > 0:
                got = self.current.run(min(left, stop - self.nodes))
                if got == MEMORY_LIMIT and self.current.grow():
                    continue
                if got != LOST or self.proves_loss:
                    if got is not None:
                        return got
                    continue
                # a narrowed phase that ran out of moves ends as a spent one does
            if self.phases is not None and self.phase + 1 >= self.phases:
                if self.current.proves_loss:
                    raise ValueError("only a ladder of narrowed searches ends; complete phases go on")
                return LOST  # the ladder's last phase has ended: nothing left to try
            if self.budget(self.phase + 1) < 2:
                raise ValueError("every restart budget must be at least 2 nodes")
            self.done_nodes += self.current.nodes
            self.done_dropped += self.current.counters().get("tt_dropped", 0)
            # the next phase reuses the workspace: keep this one's best if it is better
            self.kept = better(self.kept, self.current.progress())
            self.phase += 1
            self.current = self.make_phase(self.phase)
            if self.current.start() == WON:  # cannot happen (the root was not won); kept exact
                return WON

    def grow(self) -> bool:
        return False  # each phase grows its own table inside run()

    def line(self) -> list[Move]:
        return self.current.line()

    def counters(self) -> dict[str, int]:
        """The phases' totals: the workspace's counters are shared by every phase (they
        run in one workspace); tables are cleared per phase, so their drops are summed."""
        out = dict(self.current.counters())
        if "tt_dropped" in out:
            out["tt_dropped"] += self.done_dropped
        return out

    def progress(self) -> Progress | None:
        """The best progress over all phases so far (each phase's with its own line;
        the earliest phase on a tie)."""
        return better(self.kept, self.current.progress())

    def best_cards(self) -> int:
        p = self.progress()
        return -1 if p is None else p.cards

    def best_line(self) -> list[Move]:
        p = self.progress()
        return [] if p is None else p.line()


@dataclass
class Outcome:
    verdict: str
    reason: str | None
    nodes: int
    seconds: float
    line: list[Move]
    proof: str | None = None  # for lost: "search" or "relaxed-rules"
    best: Progress | None = None  # most cards on the foundations (main search and twin)


class Status(NamedTuple):
    """Where a running search stands (``drive``'s ``progress`` callback gets one after
    every slice): nodes and stored positions of both searches, seconds, and the most
    cards on the foundations so far."""

    nodes: int
    stored: int
    seconds: float
    best_cards: int


class StopFlag(Protocol):
    """Anything with ``is_set()`` (threading.Event, multiprocessing.Event, ...)."""

    def is_set(self) -> bool: ...


MAX_SLICE = 1 << 19  # nodes: about a third of a second
MIN_SLICE = 1 << 12  # nodes: the first slice, and the least one near a time limit


class _Slicer:
    """Runs one kernel slice by slice.  Slices double from 4096 nodes to MAX_SLICE:
    cheap for easy deals, and fixed in nodes (not time) so node counts stay
    deterministic (the bench signature depends on it)."""

    def __init__(self, kernel: Search):
        self.kernel = kernel
        self.budget = MIN_SLICE

    def step(self, cap: int | None) -> str | None:
        """One slice of ``budget`` nodes (at most ``cap``).  A table that fills up is
        grown and the slice goes on, so where slices end (and with two searches, how
        they interleave) depends on node counts only, never on the size the table had
        when the search began (it keeps the size an earlier deal grew it to)."""
        step = self.budget if cap is None else min(self.budget, cap)
        end = self.kernel.nodes + step
        while True:
            verdict = self.kernel.run(end - self.kernel.nodes)
            if verdict == MEMORY_LIMIT and self.kernel.grow():
                if self.kernel.nodes < end:
                    continue
                verdict = None
            break
        self.budget = min(self.budget * 2, MAX_SLICE)
        return verdict


def drive(kernel: Search, limits: Limits, stop: StopFlag | None = None,
          relaxed: Search | None = None, twin: Search | None = None,
          progress: Callable[[Status], None] | None = None) -> Outcome:
    """Run ``kernel`` to a verdict under ``limits``.

    ``stop`` (checked between slices) lets another thread end the search early: it
    then ends as unknown: interrupted.

    Second searches may run alongside, each joining after RELAX_AFTER nodes of the main
    one (or its own ``join_after``); together they take every other slice (half the
    nodes), in turn; node limits count them all.  Either or both:

    - ``relaxed``: a search of the same position under looser rules, under which every
      line legal under the real rules is legal too (the game adapter proves this for
      the rules it offers).  If it is exhausted without a win, no line wins under the
      real rules either, so the deal is lost: a proof as exact as the main search's
      own (``proof``: the search's ``proof`` attribute, else "relaxed-rules").  If it
      wins, it proves nothing and is dropped.
    - ``twin``: a search of the same position under the same rules that tries moves in
      another order (a portfolio: depth-first search times are heavy-tailed, and two
      orders rarely both go astray).  Its win is a win (its line is returned) and its
      exhaustion a loss (``proof: "search"``), exactly as the main search's -- unless
      it tries only some of the legal moves (``proves_loss`` False, a narrowed
      search): then its exhaustion proves nothing and it is dropped.

    ``Outcome.best``: the most cards on the foundations that the main search or the
    twin (not a relaxed search: its rules are looser) reached, with the line there.
    ``progress`` (optional) is called after every slice with a ``Status``.
    """
    seconds = [s for s in (relaxed, twin) if s is not None]
    t0 = time.perf_counter()
    verdict = kernel.start()
    winner = kernel
    reason = None
    proof = None
    main = _Slicer(kernel)
    waiting = list(seconds)  # not joined yet
    helpers: list[tuple[Search, _Slicer]] = []  # joined and still running
    turn = 0
    helper_turn = 0

    def joined(s: Search) -> bool:
        return s not in waiting

    def total() -> int:
        return kernel.nodes + sum(s.nodes for s in seconds if joined(s))

    while verdict is None:
        cap = None
        if limits.max_nodes is not None:
            cap = limits.max_nodes - total()
            if cap <= 0:
                verdict, reason = UNKNOWN, NODE_LIMIT
                break
        if limits.timeout is not None:
            # near the time limit a slice gets only the nodes the time left allows at the
            # rate so far, so the search ends close to the limit instead of up to a
            # whole slice past it (only a deal decided in that last stretch can show
            # node counts that depend on timing)
            spent = time.perf_counter() - t0
            if spent > 0.05:
                allowed = max(MIN_SLICE, int(total() / spent * (limits.timeout - spent)))
                cap = allowed if cap is None else min(cap, allowed)
        if stop is not None and stop.is_set():
            verdict, reason = UNKNOWN, INTERRUPTED
            break
        joining = next((s for s in waiting if kernel.nodes >= s.join_after), None)
        if joining is not None:
            waiting.remove(joining)
            got = joining.start()
            if got is None:
                helpers.append((joining, _Slicer(joining)))
            elif got == WON and joining is twin:
                verdict, winner = WON, twin
                break
            continue  # its root counted: limits again
        turn += 1
        if helpers and turn % 2 == 0:
            helper_turn += 1
            second, slicer = helpers[helper_turn % len(helpers)]
            got = slicer.step(cap)
            if got == LOST and second.proves_loss:
                verdict = LOST
                proof = getattr(second, "proof", "relaxed-rules") if second is relaxed else "search"
            elif got == WON and second is twin:
                verdict, winner = WON, twin
            elif got is not None:  # a relaxed win or a narrowed exhaustion (prove nothing), or out of memory
                helpers = [h for h in helpers if h[0] is not second]
        else:
            verdict = main.step(cap)
            if verdict == MEMORY_LIMIT:
                verdict, reason = UNKNOWN, MEMORY_LIMIT
            elif verdict == LOST:
                if not kernel.proves_loss:  # a programming error, never a verdict
                    raise ValueError("the main search must try every legal move (its exhaustion is the loss)")
                proof = "search"
        if verdict is None and limits.timeout is not None and time.perf_counter() - t0 >= limits.timeout:
            verdict, reason = UNKNOWN, TIME_LIMIT
        if progress is not None:
            best = kernel.best_cards()
            stored = kernel.stored_states
            if twin is not None and joined(twin):
                best = max(best, twin.best_cards())
                stored += twin.stored_states
            progress(Status(total(), stored, time.perf_counter() - t0, best))
    line = winner.line() if verdict == WON else []
    assert verdict in (WON, LOST, UNKNOWN)
    # Best progress: the main search's and the twin's (same rules), never the relaxed
    # search's (looser rules); a win's is the winner's (every card home).
    if verdict == WON:
        best = winner.progress()
    else:
        best = kernel.progress()
        if twin is not None and joined(twin):
            best = better(best, twin.progress())
    return Outcome(verdict, reason, total(), time.perf_counter() - t0, line, proof, best)
