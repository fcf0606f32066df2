"""Where a batch's deals run: one executor layer for threads, processes and Dask.

An executor takes a deal's arguments (``solve_one``'s) and returns a future; ``pump``
keeps a window of deals queued on any executor (a task of None means "none to start
now": seeds another batch holds, see solver/runs/batch.py; the pump then asks again every
``POLL_SECONDS``), hands each finished result to the batch's ``record`` and yields it,
and on a stop (Ctrl-C, an error, the generator closed) sets the executor's stop flag,
cancels what has not started, and keeps the deals that finished anyway.  The Dask executor lives in ``solver/runs/cluster.py`` (dask is imported
only for a batch with a scheduler); it uses the same pump.

The worker side is here too: ``solve_one`` (one deal) and ``ensure_warm`` (load the
kernel once per process, under a file lock against concurrent numba cache writes,
numba #4807).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from typing import Any, Protocol

from .. import api
from ..core.result import SolveResult

POLL_SECONDS = 1.0  # how often the pump asks again for a task after "none to start now"
_END = object()


# --------------------------------------------------------------------------- workers

_warm_lock = threading.Lock()
_warmed: set = set()


def ensure_warm(game: str, seed: int, numbering: str, options: dict) -> None:
    """Compile the game's kernel in this process, or load it from numba's cache, once.

    A tiny solve (one node) of a real deal through the common API: it works for every
    game without knowing its kernels.  A file lock in the cache directory keeps
    several processes of one machine from writing the cache at once (numba #4807):
    the first compiles and writes, the others then load.
    """
    key = (game, numbering, tuple(sorted(options.items())))
    with _warm_lock:
        if key in _warmed:
            return
        with _cache_lock():
            api.solve(game, seed, numbering=numbering, max_nodes=1, tt_mb=1, **options)
        _warmed.add(key)


class _cache_lock:
    def __enter__(self):
        self.fd = None
        try:
            import fcntl

            import numba

            from ..engine import jit  # noqa: F401  (sets numba's cache directory)

            folder = numba.config.CACHE_DIR or jit.cache_dir()
            os.makedirs(folder, exist_ok=True)
            self.fd = os.open(os.path.join(folder, "warm.lock"), os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except (ImportError, OSError):  # no fcntl (Windows) or a read-only cache: go without
            if self.fd is not None:
                os.close(self.fd)
            self.fd = None
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock


def solve_one(game: str, seed: int, numbering: str, max_nodes: int | None, timeout: float | None,
              tt_mb: float, options: dict, stop=None) -> SolveResult:
    """One deal of a batch (runs in a worker thread, process or Dask task)."""
    return api.solve(game, seed, numbering=numbering, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb,
                     stop=stop, **options)


_process_stop = None  # the batch's stop Event, in a worker process


def _process_init(stop, parent: int, warm: tuple) -> None:
    """Worker process start: ignore Ctrl-C (the parent stops us through ``stop``),
    exit if the parent dies (even by SIGKILL), load the kernel."""
    import signal

    global _process_stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _process_stop = stop

    def watch() -> None:
        # With forkserver our OS parent is the fork server; multiprocessing's parent
        # sentinel is a pipe from the batch process itself, readable once it is gone.
        mp_parent = multiprocessing.parent_process()
        if mp_parent is not None:
            mp_parent.join()
        else:
            while os.getppid() == parent:
                time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="patience-parent-watch", daemon=True).start()
    ensure_warm(*warm)


def _process_task(*args) -> SolveResult:
    return solve_one(*args, stop=_process_stop)


# --------------------------------------------------------------------------- executors


class Executor(Protocol):
    """What ``pump`` needs of a place where deals run."""

    def submit(self, args: tuple) -> Any: ...  # a future of solve_one(*args)

    def wait_first(self, pending: set, timeout: float | None = None) -> set: ...  # block until some finish
    # (or ``timeout`` seconds pass); those

    def window(self) -> int: ...  # how many deals to keep queued now

    def stop(self) -> None: ...  # tell running searches to stop (within a slice)

    def shutdown(self) -> None: ...  # cancel queued deals, wait for running ones


class _PoolExecutor:
    """A concurrent.futures pool (threads or processes) and its stop flag."""

    pool: Any
    flag: Any

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def wait_first(self, pending: set, timeout: float | None = None) -> set:
        done, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
        return done

    def window(self) -> int:
        return 2 * self.workers

    def stop(self) -> None:
        self.flag.set()

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class ThreadExecutor(_PoolExecutor):
    """Worker threads over the nogil kernels (one compile, one workspace and table per
    thread)."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.flag = threading.Event()
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="patience-worker")

    def submit(self, args: tuple) -> Future:
        return self.pool.submit(solve_one, *args, self.flag)


class ProcessExecutor(_PoolExecutor):
    """Worker processes (forkserver where there is one), each warmed with ``warm``'s
    deal; Ctrl-C reaches them through an Event, and they exit if the parent dies."""

    def __init__(self, workers: int, warm: tuple) -> None:
        super().__init__(workers)
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                          else "spawn")
        self.flag = ctx.Event()
        self.pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_process_init,
                                        initargs=(self.flag, os.getpid(), warm))

    def submit(self, args: tuple) -> Future:
        return self.pool.submit(_process_task, *args)


def pump(executor: Executor, tasks: Iterator[tuple | None], record: Callable[[SolveResult], bool]
         ) -> Iterator[SolveResult]:
    """Run every task on ``executor``, a window at a time; yield each result that
    ``record`` keeps (in completion order).  A task of None: nothing to start now, ask
    again within POLL_SECONDS.  A task's exception (VerificationError...) stops
    everything and is raised here, as is Ctrl-C; deals that finished meanwhile are
    still recorded."""
    pending: set = set()
    try:
        more = True
        while True:
            idle = False
            while more and len(pending) < executor.window():
                args = next(tasks, _END)
                if args is _END:
                    more = False
                elif args is None:
                    idle = True
                    break
                else:
                    pending.add(executor.submit(args))
            if not pending:
                if not more:
                    break
                time.sleep(POLL_SECONDS)
                continue
            for f in executor.wait_first(pending, POLL_SECONDS if idle else None):
                pending.discard(f)
                result = f.result()
                if record(result):
                    yield result
    except BaseException:
        try:  # nothing here may hide the error that stopped the batch
            executor.stop()
            for f in pending:
                if not f.done():  # a finished one is kept (cancelling a Dask future drops its result)
                    f.cancel()
            executor.shutdown()  # in-flight searches see the stop within one slice
        except Exception:  # e.g. a Dask client already closed
            pass
        for f in pending:
            try:
                if f.done() and not f.cancelled() and f.exception() is None:
                    record(f.result())
            except Exception:  # a second failure while stopping: the first one is reported
                pass
        raise
    executor.shutdown()
