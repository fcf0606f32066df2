"""The search driver: runs a game's resumable kernel in slices under the user's limits.

Kernels cannot read a clock, so they run for a budget of nodes and return; between
slices this driver checks the time limit, the node limit and Ctrl-C.  Slices start
small (easy deals stay cheap) and double up to about a third of a second of work.
Workspaces (transposition table, DFS stacks) are allocated once per thread and size
and reused for every later deal: allocation would dominate easy deals.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

from .moves import Move
from .result import INTERRUPTED, LOST, MEMORY_LIMIT, NODE_LIMIT, TIME_LIMIT, UNKNOWN, WON
from .tt import TranspositionTable

DEFAULT_TT_MB = 2048  # 89 M states of 24 bytes at the 80% load cap; fits twice in 24 GB


@dataclass(frozen=True)
class Limits:
    max_nodes: int | None = None
    timeout: float | None = None
    tt_mb: float = DEFAULT_TT_MB

    def __post_init__(self) -> None:
        if self.max_nodes is not None and self.max_nodes < 1:
            raise ValueError("--max-nodes must be at least 1")
        if self.timeout is not None and not 0 < self.timeout < float("inf"):
            raise ValueError("--timeout must be a positive number of seconds")
        if not 0 < self.tt_mb < float("inf"):
            raise ValueError("--tt-mb must be a positive number of megabytes")


class Kernel(Protocol):
    """What a game's search adapter offers the driver."""

    def start(self) -> str | None: ...  # verdict if decided at the root, else None
    def run(self, budget: int) -> str | None: ...  # WON / LOST / MEMORY_LIMIT or None (paused)
    def grow(self) -> bool: ...  # after MEMORY_LIMIT: enlarge the table if allowed
    @property
    def nodes(self) -> int: ...
    def line(self) -> list[Move]: ...


_local = threading.local()


def table_for(megabytes: float, width: int, slot: str = "main") -> TranspositionTable:
    """This thread's table for ``slot`` (one per concurrent search), cleared."""
    tables = getattr(_local, "tables", None)
    if tables is None:
        tables = _local.tables = {}
    tt = tables.get(slot)
    if tt is None or (tt.megabytes, tt.width) != (megabytes, width):
        tables.pop(slot, None)  # never hold two big tables for one slot
        tt = tables[slot] = TranspositionTable(megabytes, width)
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


class KernelSearch:
    """What every game's search adapter shares: the node counter and status in
    ``self.ws.ctr`` (indices ``K.C_NODES``, ``K.C_STATUS`` of the game's kernel module
    ``K``) and the transposition table ``self.tt``."""

    K: Any  # the game's kernel module

    @property
    def nodes(self) -> int:
        return int(self.ws.ctr[self.K.C_NODES])

    @property
    def stored_states(self) -> int:
        return self.tt.count

    def grow(self) -> bool:
        """After MEMORY_LIMIT: enlarge the table, unless the DFS stack is what is full."""
        if self.ws.ctr[self.K.C_STATUS] == self.K.ST_STACK:
            return False
        return self.tt.grow()


@dataclass
class Outcome:
    verdict: str
    reason: str | None
    nodes: int
    seconds: float
    line: list[Move]
    proof: str | None = None  # for lost: "search" or "relaxed-rules"


class StopFlag(Protocol):
    """Anything with ``is_set()`` (threading.Event, multiprocessing.Event, ...)."""

    def is_set(self) -> bool: ...


RELAX_AFTER = 1 << 16  # nodes of main search before the relaxed search joins in
MAX_SLICE = 1 << 19  # nodes: about a third of a second, the granularity of time limits


class _Slicer:
    """Runs one kernel slice by slice.  Slices double from 4096 nodes to MAX_SLICE:
    cheap for easy deals, and fixed in nodes (not time) so node counts stay
    deterministic (the bench signature depends on it)."""

    def __init__(self, kernel: Kernel):
        self.kernel = kernel
        self.budget = 4096

    def step(self, cap: int | None) -> str | None:
        step = self.budget if cap is None else min(self.budget, cap)
        verdict = self.kernel.run(step)
        if verdict == MEMORY_LIMIT and self.kernel.grow():
            return None
        self.budget = min(self.budget * 2, MAX_SLICE)
        return verdict


def drive(kernel: Kernel, limits: Limits, stop: StopFlag | None = None,
          relaxed: Kernel | None = None, twin: Kernel | None = None) -> Outcome:
    """Run ``kernel`` to a verdict under ``limits``.

    ``stop`` (checked between slices) lets another thread end the search early: it
    then ends as unknown: interrupted.

    A second search may run alongside, joining after RELAX_AFTER nodes and taking every
    other slice (half the nodes); node limits count both.  Either (not both):

    - ``relaxed``: a search of the same position under looser rules, under which every
      line legal under the real rules is legal too (the game adapter proves this for
      the rules it offers).  If it is exhausted without a win, no line wins under the
      real rules either, so the deal is lost: a proof as exact as the main search's
      own (``proof: "relaxed-rules"``).  If it wins, it proves nothing and is dropped.
    - ``twin``: a search of the same position under the same rules that tries moves in
      another order (a portfolio: depth-first search times are heavy-tailed, and two
      orders rarely both go astray).  Its win is a win (its line is returned) and its
      exhaustion a loss (``proof: "search"``), exactly as the main search's.
    """
    if relaxed is not None and twin is not None:
        raise ValueError("drive takes a relaxed search or a twin, not both")
    second = relaxed if relaxed is not None else twin
    t0 = time.perf_counter()
    verdict = kernel.start()
    winner = kernel
    reason = None
    proof = None
    main = _Slicer(kernel)
    helper: _Slicer | None = None
    helper_started = False
    turn = 0

    def total() -> int:
        return kernel.nodes + (second.nodes if helper_started and second is not None else 0)

    while verdict is None:
        cap = None
        if limits.max_nodes is not None:
            cap = limits.max_nodes - total()
            if cap <= 0:
                verdict, reason = UNKNOWN, NODE_LIMIT
                break
        if stop is not None and stop.is_set():
            verdict, reason = UNKNOWN, INTERRUPTED
            break
        if second is not None and not helper_started and kernel.nodes >= RELAX_AFTER:
            helper_started = True
            got = second.start()
            if got is None:
                helper = _Slicer(second)
            elif got == WON and twin is not None:
                verdict, winner = WON, twin
                break
        turn += 1
        if helper is not None and turn % 2 == 0:
            got = helper.step(cap)
            if got == LOST:
                verdict, proof = LOST, "relaxed-rules" if relaxed is not None else "search"
            elif got == WON and twin is not None:
                verdict, winner = WON, twin
            elif got is not None:  # a relaxed win (proves nothing) or out of memory
                helper = None
        else:
            verdict = main.step(cap)
            if verdict == MEMORY_LIMIT:
                verdict, reason = UNKNOWN, MEMORY_LIMIT
            elif verdict == LOST:
                proof = "search"
        if verdict is None and limits.timeout is not None and time.perf_counter() - t0 >= limits.timeout:
            verdict, reason = UNKNOWN, TIME_LIMIT
    line = winner.line() if verdict == WON else []
    assert verdict in (WON, LOST, UNKNOWN)
    return Outcome(verdict, reason, total(), time.perf_counter() - t0, line, proof)
