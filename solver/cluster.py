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
  ``solver.batch.solve_one`` by name).

Starting a cluster (see the README): ``dask scheduler`` on one machine, then
``dask worker tcp://SCHEDULER:8786 --nworkers 1 --nthreads $(nproc)`` on each machine:
threads over the nogil kernels, as for a local batch (see solver/batch.py), and one
kernel load per machine.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from distributed import Client, Event, as_completed

from .batch import ensure_warm, solve_one
from .result import SolveResult

if TYPE_CHECKING:
    from .batch import Batch

CHECK_EVERY = 1.0  # seconds between checks of the stop event by a running task
CONNECT_TIMEOUT = "30s"
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
        return Client(scheduler, timeout=CONNECT_TIMEOUT), True
    except (OSError, ValueError, TypeError) as err:  # refused, timed out, bad address
        raise ConnectionError(f"cannot reach the Dask scheduler at {scheduler}: {err}".splitlines()[0]) from None


def run_dask(batch: "Batch", warm: tuple) -> Iterator[SolveResult]:
    """Run the batch's remaining seeds on its client's cluster (the caller closes it)."""
    client = batch.client
    stop_name = f"patience-stop-{uuid.uuid4().hex}"
    stop = Event(stop_name, client=client)
    pending: dict = {}
    sized = [0.0, 4]  # when the window was last sized, and its size

    def window() -> int:
        """Twice the cluster's worker threads (workers may join or leave), re-read
        at most every few seconds."""
        now = time.monotonic()
        if now - sized[0] > RESIZE_EVERY:
            sized[:] = [now, max(4, 2 * sum(client.nthreads().values()))]
        return sized[1]

    try:
        seeds = batch.remaining()
        queue = as_completed()

        def submit_next() -> bool:
            seed = next(seeds, None)
            if seed is None:
                return False
            f = client.submit(dask_task, batch.task_args(seed), warm, stop_name, pure=False,
                              key=f"patience-{batch.game}-{seed}-{uuid.uuid4().hex[:8]}")
            pending[f.key] = f
            queue.add(f)
            return True

        more = True
        while more and len(pending) < window():
            more = submit_next()
        for f in queue:
            del pending[f.key]
            result = f.result()  # re-raises a task's exception (VerificationError...) here
            while more and len(pending) < window():
                more = submit_next()
            if batch.record(result):
                yield result
    except BaseException:
        finished = [f for f in pending.values() if f.status == "finished"]
        try:
            stop.set()
            client.cancel([f for f in pending.values() if f.status != "finished"])
        except Exception:  # the scheduler may be gone: nothing left to stop then
            pass
        for f in finished:  # deals that finished anyway are kept
            try:
                batch.record(f.result())
            except Exception:
                pass
        raise
