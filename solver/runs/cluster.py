"""A batch on a Dask distributed cluster (``patience batch ... --scheduler tcp://HOST:PORT``).

Imported only when a scheduler is given: nothing else needs dask.

- Every deal is one task (``solve_one``); a window of twice the cluster's worker
  threads (re-read every few seconds: workers may join later) is kept queued, so the
  client never floods the scheduler and Ctrl-C has little to cancel.
- Each worker process compiles the kernel, or loads it from its machine's numba cache,
  once: its first task calls ``ensure_warm`` (a lock per process, a file lock per
  machine against concurrent cache writes, numba #4807).
- Results stream back to the client, which writes them to its database: the database
  has a single writer, wherever the workers run.
- Stopping (Ctrl-C, an error, the generator closed): queued tasks are cancelled and a
  ``distributed.Event`` tells running searches to stop; each worker checks it at most
  once a second, and only after its deal has run for a second.
- Workers need the same version of this package installed (tasks refer to
  ``solver.runs.cluster.dask_task`` by name).
- ``DaskExecutor`` is one of the batch's executors: the same pump
  (``executors.pump``) drives threads, processes and the cluster.

Starting a cluster (docs/usage.md): ``dask scheduler`` on one machine, then
``dask worker tcp://SCHEDULER:8786 --nworkers 1 --nthreads $(nproc)`` on each machine:
threads over the nogil kernels, as for a local batch (see solver/runs/batch.py), and one
kernel load per machine.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from distributed import Client, Event, wait

from .executors import ensure_warm, solve_one
from ..core.result import SolveResult

CHECK_EVERY = 1.0  # seconds between checks of the stop event by a running task
CONNECT_TIMEOUT = 5  # seconds to reach the scheduler: a live one answers in milliseconds
RESIZE_EVERY = 5.0  # seconds between reads of the cluster's size


class RemoteStop:
    """The stop flag a task passes to the search driver: a distributed.Event, read
    rarely (a scheduler round trip per read), never during the first second."""

    def __init__(self, name: str):
        self.name = name
        self.event = None
        self.next_check = time.monotonic() + CHECK_EVERY
        self.seen = False

    def is_set(self) -> bool:
        if self.seen:
            return True
        now = time.monotonic()
        if now < self.next_check:
            return False
        self.next_check = now + CHECK_EVERY
        try:
            if self.event is None:
                self.event = Event(self.name)
            self.seen = bool(self.event.is_set())
        except Exception:  # scheduler unreachable: keep solving, the client decides
            return False
        return self.seen


def dask_task(args: tuple, warm: tuple, stop_name: str) -> SolveResult:
    ensure_warm(*warm)
    return solve_one(*args, stop=RemoteStop(stop_name))


def connect(scheduler: Any) -> tuple[Client, bool]:
    """A client for an address, a Cluster object or a Client; True if we own it."""
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s"), True
    except (OSError, ValueError, TypeError) as err:  # refused, timed out, bad address
        why = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ConnectionError(f"cannot reach the Dask scheduler at {scheduler} within {CONNECT_TIMEOUT} s "
                              f"(is 'dask scheduler' running there?): {why}") from None


class DaskExecutor:
    """The batch's executor on a Dask cluster (executors.Executor): one task per deal,
    a window of twice the cluster's worker threads, a ``distributed.Event`` to stop."""

    def __init__(self, client: Client, warm: tuple, game: str) -> None:
        self.client, self.warm, self.game = client, warm, game
        self.stop_name = f"patience-stop-{uuid.uuid4().hex}"
        self.event = Event(self.stop_name, client=client)
        self.sized = (0.0, 4)  # when the window was last sized, and its size

    def submit(self, args: tuple):
        return self.client.submit(dask_task, args, self.warm, self.stop_name, pure=False,
                                  key=f"patience-{self.game}-{args[1]}-{uuid.uuid4().hex[:8]}")

    def wait_first(self, pending: set, timeout: float | None = None) -> set:
        try:
            return set(wait(list(pending), timeout=timeout, return_when="FIRST_COMPLETED").done)
        except (TimeoutError, asyncio.TimeoutError):  # none finished within timeout
            return set()

    def window(self) -> int:
        """Twice the cluster's worker threads (workers may join or leave), re-read at
        most every few seconds."""
        now = time.monotonic()
        if now - self.sized[0] > RESIZE_EVERY:
            self.sized = (now, max(4, 2 * sum(self.client.nthreads().values())))
        return self.sized[1]

    def stop(self) -> None:
        try:
            self.event.set()
        except Exception:  # the scheduler may be gone: nothing left to stop then
            pass

    def shutdown(self) -> None:
        """Nothing to wait for: queued deals were cancelled, running ones see the event."""
