"""The search driver: runs a game's resumable kernel in slices under the user's limits.

Kernels cannot read a clock, so they run for a budget of nodes and return; between
slices this driver checks the time limit, the node limit and Ctrl-C.  Slices start
small (easy deals stay cheap) and double up to about a tenth of a second of work.
Workspaces (transposition table, DFS stacks) are allocated once per thread and size
and reused for every later deal: allocation would dominate easy deals.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Protocol

from .moves import Move
from .result import LOST, MEMORY_LIMIT, NODE_LIMIT, TIME_LIMIT, UNKNOWN, WON
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


def table_for(megabytes: float, width: int) -> TranspositionTable:
    """This thread's table of that size, cleared; allocated on first use."""
    tables = getattr(_local, "tables", None)
    if tables is None:
        tables = _local.tables = {}
    tt = tables.get((megabytes, width))
    if tt is None:
        tables.clear()  # one table per thread: never hold two big ones
        tt = tables[(megabytes, width)] = TranspositionTable(megabytes, width)
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


@dataclass
class Outcome:
    verdict: str
    reason: str | None
    nodes: int
    seconds: float
    line: list[Move]


def drive(kernel: Kernel, limits: Limits) -> Outcome:
    t0 = time.perf_counter()
    verdict = kernel.start()
    reason = None
    budget = 4096
    while verdict is None:
        step = budget
        if limits.max_nodes is not None:
            left = limits.max_nodes - kernel.nodes
            if left <= 0:
                verdict, reason = UNKNOWN, NODE_LIMIT
                break
            step = min(step, left)
        before = time.perf_counter()
        verdict = kernel.run(step)
        now = time.perf_counter()
        if verdict == MEMORY_LIMIT:
            if kernel.grow():
                verdict = None
                continue
            verdict, reason = UNKNOWN, MEMORY_LIMIT
        elif verdict is None:
            if limits.timeout is not None and now - t0 >= limits.timeout:
                verdict, reason = UNKNOWN, TIME_LIMIT
            elif now - before < 0.05:
                budget = min(budget * 2, 1 << 22)
    line = kernel.line() if verdict == WON else []
    assert verdict in (WON, LOST, UNKNOWN)
    return Outcome(verdict, reason, kernel.nodes, time.perf_counter() - t0, line)
