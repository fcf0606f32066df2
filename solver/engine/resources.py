"""The machine resources a search takes, in one place: the transposition table's size
(its default, its check, where the searches find it) and the machine's memory.

A table size enters the library at ``api.solve`` (every solve: the command line, the
resident server, a batch's workers) and ``batch.Batch`` (the size its workers share);
``check_tt_mb`` is its one check (OptionError naming the option ``tt_mb``).  A solve
sets it once for everything it runs (``tables``); a search takes its tables at that
size (``kernel_search.table_for`` reads ``table_mb``), so no search, adapter or
factory between the two carries it.
"""

from __future__ import annotations

import math
import os
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from ..core.errors import NAME, OptionError

DEFAULT_TT_MB = 2048  # 2**26 slots of 24 bytes (1.5 GB): 53.7 M states at the 80% load cap; fits twice in 24 GB
MIN_DEFAULT_TT_MB = 64  # a batch's default never halves below this
TABLES_PER_WORKER = 2  # the main search's table and the second search's (search.drive)


def physical_memory_mb() -> float | None:
    """The machine's memory in MB (None where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (ValueError, OSError, AttributeError):
        return None


def check_tt_mb(tt_mb: float) -> float:
    """``tt_mb`` if it is a table size this machine can hold; else ValueError (one line)."""
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, (int, float)) or not 0 < tt_mb < math.inf:
        raise OptionError("tt_mb", f"invalid {NAME} {tt_mb!r}: must be a number of megabytes more than 0")
    ram = physical_memory_mb()
    if ram is not None and tt_mb > ram:
        raise OptionError("tt_mb", f"{NAME} {tt_mb:,.0f} is more than this machine's memory ({ram:,.0f} MB)")
    return tt_mb


_TABLE_MB: ContextVar[float] = ContextVar("table_mb", default=DEFAULT_TT_MB)


def table_mb() -> float:
    """The table size of the searches made and run here: the innermost ``tables``
    around them (per thread: a context variable), else DEFAULT_TT_MB."""
    return _TABLE_MB.get()


@contextmanager
def tables(tt_mb: float) -> Iterator[float]:
    """Within: every search made or run by this thread takes tables of ``tt_mb``
    megabytes, checked here (``check_tt_mb``)."""
    token = _TABLE_MB.set(check_tt_mb(tt_mb))
    try:
        yield tt_mb
    finally:
        _TABLE_MB.reset(token)


def default_tt_mb(workers: int, tables: int = TABLES_PER_WORKER, workspace_mb: float = 0) -> int:
    """A batch's table size: DEFAULT_TT_MB, halved while the workers' memory would
    exceed half the RAM.

    A worker holds ``tables`` tables (2 for a game with a relaxation or a twin: the main
    search's and the second one's, see search.drive) and ``workspace_mb`` of search stack
    (the game adapter's ``workspace_mb``)."""
    mb = DEFAULT_TT_MB
    total = physical_memory_mb()
    if total is not None:
        while mb > MIN_DEFAULT_TT_MB and workers * (tables * mb + workspace_mb) > total / 2:
            mb //= 2
    return mb
