"""Batch runs: many seeds of one configuration, in parallel, stored and resumable.

    >>> import solver
    >>> for r in solver.batch("klondike", "1-1000", draw=3, max_nodes=10**6, db="runs.sqlite"):
    ...     print(r.seed, r.verdict)

``batch()`` yields a SolveResult for every deal as it finishes (in completion order,
not seed order), after writing it to the database (``db``, see solver/runs/store.py) in its
own transaction.  Seeds already stored for the same configuration (game, full rule
set, numbering, caps; not the resources: table size, workers, mode, scheduler) are
skipped, so rerunning the same batch resumes it, with other resources too.

Sharing a database: a seed is claimed in the database before it is queued (a lease,
see solver/runs/lease.py: renewed by a heartbeat thread while the batch runs, dropped with
the result in one transaction), so several batches on one file -- processes or
machines -- share the seeds: each is solved once, and each batch yields and counts only
the deals it solved.  A seed another live batch holds is left to it; once the batch has
nothing else to do it waits for such seeds to be stored, or takes them over when their
lease lapses (an owner killed on this machine is seen at once).  A deal
whose line fails replay (VerificationError) or any other error in a worker stops the
whole batch and is raised here; it is never stored.  Ctrl-C (KeyboardInterrupt) or
closing the generator stops the workers within one search slice (at most about a
third of a second): deals that finished are stored, the ones in flight are dropped (they end as
``unknown: interrupted``, which is never stored) and are solved by the next run.

Parallel model.  ``mode="threads"`` (the default) runs ``workers`` threads over the
``nogil`` kernels: one compile for all, one workspace and table per thread (threading
.local in search.py), results handed to the main thread, which alone writes the
database.  ``mode="processes"`` runs a pool of worker processes instead (forkserver;
each loads the kernel from numba's on-disk cache, which the parent warms first against
numba #4807; Ctrl-C reaches them through an Event; they exit if the parent dies).

Threads or processes: results/batch-throughput.md has the measurements
(benchmarks/bench_batch.py) behind the default.

Why threads: they start sooner (no fork server, no second import of numba and load of
the kernel per worker), pay no pickling of results, and the work they cannot overlap
(the share of a deal's time that holds the GIL) is small for real batches, which are
kernel-bound.  Processes win only for masses of trivial deals on many cores: use
``--mode processes`` there.

Dask (``scheduler="tcp://host:port"`` or a Cluster/Client object): the same batch on a
distributed cluster, see solver/runs/cluster.py.  All three run under one pump
(solver/runs/executors.py), which keeps a window of deals queued and stops them together.  dask is imported only then.

Memory: every worker (thread or process) owns its transposition tables (the main
search's and, for games with a relaxation, the relaxed search's), each growing up to
``tt_mb``, and its search stack (the adapter's ``workspace_mb``); the default
``tt_mb`` is 2048 MB, halved until ``workers x (tables x tt_mb + workspace_mb)`` fits
in half of the machine's memory (``resources.default_tt_mb``).  Each stored deal records its
``tt_mb``; it is not part of the configuration, so a resumed batch may use another.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from .. import api
from .executors import Executor, ProcessExecutor, ThreadExecutor, ensure_warm, pump
from .lease import Heartbeat, new_owner
from ..core.errors import NAME, OptionError, named
from ..core.numbering import PYSOLFC
from ..core.result import INTERRUPTED, LOST, UNKNOWN, WON, SolveResult, VerificationError
from ..engine.resources import DEFAULT_TT_MB, check_tt_mb, default_tt_mb
from ..engine.search import Limits
from ..core.seeds import SeedSpec
from .store import DONE, MINE, Store, config_key
from ..core.version import __version__

MODES = ("threads", "processes")
DEFAULT_MODE = "threads"


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


# --------------------------------------------------------------------------- the batch


class Batch:
    """A batch: validated at construction (bad input raises ValueError at once),
    run by iterating.  ``previous`` counts the verdicts already stored for these seeds,
    ``counts`` all of them (previous plus this run) as the run goes."""

    def __init__(self, game: str, seeds: str | int | SeedSpec | Iterable[int], *, numbering: str = PYSOLFC,
                 max_nodes: int | None = None, timeout: float | None = None, tt_mb: float | None = None,
                 workers: int | None = None, scheduler: Any = None, db: str | os.PathLike | Store | None = None,
                 mode: str | None = None, **rule_options: Any):
        self.seeds = SeedSpec.of(seeds)
        if scheduler is not None and (workers is not None or mode is not None):
            raise OptionError("workers", f"{NAME} and {named('mode')} set up a local batch; with "
                                         f"{named('scheduler')} the cluster's workers decide (the processes and threads "
                                         "each dask worker starts)")
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise OptionError("workers", f"{NAME} must be a whole number of at least 1, not {workers!r}")
        self.workers = workers or default_workers()
        self.mode = mode or DEFAULT_MODE
        if self.mode not in MODES:
            raise ValueError(f"unknown parallel mode {self.mode!r}; choose from {', '.join(MODES)}")
        self.scheduler = scheduler
        # The first and the last seed validate game, rules, numbering and the seed range.
        g, rules, _ = api.make_deal(game, self.seeds.first, numbering=numbering, **rule_options)
        if tt_mb is None:
            second = (g.relaxation is not None and g.relaxation(rules) is not None) or g.twin is not None
            tables = 2 if second else 1
            tt_mb = DEFAULT_TT_MB if scheduler is not None else default_tt_mb(self.workers, tables, g.workspace_mb)
        self.tt_mb = check_tt_mb(tt_mb)  # each worker's table size (a resource, not in the key)
        self.limits = Limits(max_nodes=max_nodes, timeout=timeout)
        api.make_deal(game, self.seeds.last, numbering=numbering, rules=rules)
        self.game = g.name
        self.numbering = numbering
        self.rules = rules.to_json()
        self.options = {"rules": rules}  # made once, carried to every deal (api.make_deal takes them as made)
        self.key = config_key(self.game, self.rules, numbering, max_nodes, timeout)
        self._own_store = db is not None and not isinstance(db, Store)
        self.store = Store(db) if self._own_store else db
        self.owner = new_owner()  # this batch's id in the database's claims
        self._heartbeat: Heartbeat | None = None
        self.client, self._own_client = None, False
        if scheduler is not None:  # connect now: a bad address fails before anything starts
            from .cluster import connect

            try:
                self.client, self._own_client = connect(scheduler)
            except BaseException:
                self.close()
                raise
        self.config_id = self.store.config_id(self.key) if self.store is not None else None
        stored = self.store.rows(self.config_id, self.seeds) if self.store is not None else []
        self._done = {r.seed for r in stored}
        self.previous = {WON: 0, LOST: 0, UNKNOWN: 0}
        for r in stored:
            self.previous[r.verdict] += 1
        self.counts = dict(self.previous)
        self.todo = len(self.seeds) - len(self._done)
        self.solved = 0  # deals solved and stored by this run

    # ---------------------------------------------------------------- running

    def __iter__(self) -> Iterator[SolveResult]:
        return self.run()

    def remaining(self) -> Iterator[int]:
        done = self._done
        return (s for s in self.seeds if s not in done)

    def run(self) -> Iterator[SolveResult]:
        try:
            if self.todo == 0:
                return
            warm = (self.game, self.seeds.first, self.numbering, self.options)
            if self.store is not None:
                self._heartbeat = Heartbeat(self.store.path, self.owner)
            yield from pump(self._executor(warm), self.tasks(), self.record)
        finally:
            self.close()

    def close(self) -> None:
        """Give back the seeds still claimed (the deals in flight of a stopped batch);
        close what the batch opened (its database, its Dask client)."""
        if self._heartbeat is not None:
            self._heartbeat.stop()
            self._heartbeat = None
        if self.store is not None:
            try:
                self.store.release(self.owner)
            except Exception:  # the claims lapse anyway; nothing may hide why the batch stopped
                pass
        if self._own_store and self.store is not None:
            self.store.close()
            self.store = None
        if self._own_client and self.client is not None:
            self.client.close()
            self.client = None

    def task_args(self, seed: int) -> tuple:
        lim = self.limits
        return (self.game, seed, self.numbering, lim.max_nodes, lim.timeout, self.tt_mb, self.options)

    def record(self, result: SolveResult) -> bool:
        """Store a finished deal; False (and nothing stored) for an interrupted one, or
        for one another batch stored first (its claim had lapsed)."""
        if result.verdict == UNKNOWN and result.reason == INTERRUPTED:
            return False
        if result.verdict == WON and not result.verified:
            raise VerificationError(f"BUG: {self.game} {result.seed}: a win without a verified line")
        if self.store is not None:
            if not self.store.add(self.config_id, result, __version__, tt_mb=self.tt_mb, owner=self.owner):
                return False
        self.counts[result.verdict] += 1
        self.solved += 1
        return True

    def tasks(self) -> Iterator[tuple | None]:
        """solve_one's arguments for every seed not yet stored, each claimed first when
        there is a database.  Seeds another batch holds are tried again after the
        others; while only those are left, None says "nothing to start now" (the pump
        then waits a little and asks again)."""
        if self.store is None:
            yield from (self.task_args(seed) for seed in self.remaining())
            return
        seeds: Iterable[int] = self.remaining()
        while True:
            held = []
            for seed in seeds:
                state = self.store.claim(self.config_id, seed, self.owner)
                if state == MINE:
                    yield self.task_args(seed)
                elif state != DONE:
                    held.append(seed)
            if not held:
                return
            seeds = held
            yield None

    def _executor(self, warm: tuple) -> Executor:
        workers = min(self.workers, self.todo)
        if self.scheduler is not None:
            from .cluster import DaskExecutor

            return DaskExecutor(self.client, warm, self.game)
        ensure_warm(*warm)  # in the parent, before any worker starts (numba #4807)
        return ThreadExecutor(workers) if self.mode == "threads" else ProcessExecutor(workers, warm)


def batch(game: str, seeds: str | int | SeedSpec | Iterable[int], *, numbering: str = PYSOLFC,
          max_nodes: int | None = None, timeout: float | None = None, tt_mb: float | None = None,
          workers: int | None = None, scheduler: Any = None, db: str | os.PathLike | Store | None = None,
          mode: str | None = None, **rule_options: Any) -> Iterator[SolveResult]:
    """Solve many seeds of one configuration; yield each SolveResult as it finishes.

    ``seeds``: a spec ("1-1000", "5", "1-10,20-30"), an int, or an iterable of ints.
    ``db``: a SQLite file (or Store); every finished deal is written to it before it is
    yielded, seeds it already holds for this configuration are skipped, and seeds
    another batch on it is solving are left to that batch (see the module docstring).  Without
    ``db`` nothing is stored and nothing is skipped.  ``workers`` defaults to the
    number of cores, ``mode`` to threads (see the module docstring; with "processes",
    a script must guard its batch with ``if __name__ == "__main__":``, as for any
    multiprocessing), ``tt_mb`` to ``resources.default_tt_mb(workers)``.  ``scheduler``: a Dask scheduler address (or a Dask
    Cluster or Client) to run on a cluster instead.  Bad input raises ValueError
    before anything runs.
    """
    return Batch(game, seeds, numbering=numbering, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb,
                 workers=workers, scheduler=scheduler, db=db, mode=mode, **rule_options).run()
