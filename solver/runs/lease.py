"""Who holds a seed of a batch: owner ids, their liveness, and the thread that renews leases.

A batch claims each seed before it solves it (``Store.claim``, a row of the ``claims``
table with an owner id and an expiry time), so that batches sharing one database --
processes on one machine, or machines sharing the file -- never solve a seed twice.

- An owner id is ``HOST/PID/TOKEN``: HOST names the machine *and* the process-id
  namespace (hostname, Linux boot id, pid namespace), TOKEN is random (one per batch).
- A claim is live until its expiry.  ``Heartbeat`` renews all of a batch's claims every
  ``RENEW_EVERY`` seconds from its own thread and connection, so a deal may run as long
  as it likes; a claim whose owner died (``kill -9``, a crash, a lost machine) lapses
  ``LEASE_SECONDS`` later at most and is then taken over by another batch.
- On the owner's own machine a dead owner is seen at once (``owner_is_dead``: its pid is
  gone or a zombie), so rerunning a killed batch resumes without waiting for the lease.
  A pid reused by an unrelated process looks alive: the claim then waits for its
  expiry, which is safe (late, never twice).
- Machines sharing one file must agree on the time to well within ``LEASE_SECONDS``
  (NTP does); the lease is the only cross-machine signal.  They also need SQLite's
  locking to work on that file, and the WAL journal the store uses needs every process
  on one host (SQLite: WAL does not work over a network file system); the usual way to
  spread one batch over machines is a Dask cluster, whose client alone writes.
- Why a heartbeat rather than an expiry from the per-deal timeout: a batch need not
  have a timeout, and a deal may run for hours; a renewed short lease bounds how long
  a dead owner's seeds wait, whatever the limits.
"""

from __future__ import annotations

import os
import secrets
import socket
import sqlite3
import threading
import time
from functools import lru_cache
from pathlib import Path

LEASE_SECONDS = 60.0  # a claim not renewed for this long is taken over
RENEW_EVERY = 10.0  # the heartbeat's period: a claim survives five missed renewals


@lru_cache(maxsize=1)
def host_id() -> str:
    """This machine and process-id namespace (pids are comparable only within it)."""
    parts = [socket.gethostname().replace("/", "_")]
    for source, read in (("/proc/sys/kernel/random/boot_id", lambda p: Path(p).read_text().strip()),
                         ("/proc/self/ns/pid", os.readlink)):
        try:
            parts.append(read(source))
        except OSError:
            pass
    return ":".join(parts)


def new_owner() -> str:
    """A fresh owner id for one batch of this process."""
    return f"{host_id()}/{os.getpid()}/{secrets.token_hex(6)}"


def owner_is_dead(owner: str) -> bool:
    """True only when the owner is known to be gone: it ran on this machine (and pid
    namespace) and its process no longer runs.  Owners elsewhere are never judged."""
    try:
        host, pid_text, _token = owner.rsplit("/", 2)
        pid = int(pid_text)
    except ValueError:
        return False
    if host != host_id() or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists, belongs to someone else
        return False
    try:  # killed but not yet reaped by its parent
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state in ("Z", "X")
    except (OSError, IndexError):
        return False


def renew_claims(conn: sqlite3.Connection, owner: str, lease: float = LEASE_SECONDS) -> int:
    """Push back the expiry of every claim of ``owner`` (the store's ``claims`` table);
    how many it holds."""
    return conn.execute("UPDATE claims SET expires = ? WHERE owner = ?", (time.time() + lease, owner)).rowcount


class Heartbeat:
    """Renews an owner's claims every ``every`` seconds, from its own thread and SQLite
    connection, until ``stop``.  A failed renewal (a locked or unreachable file) is
    retried at the next beat; the claims lapse only if every beat fails for a lease."""

    def __init__(self, path: str | os.PathLike, owner: str, lease: float = LEASE_SECONDS,
                 every: float = RENEW_EVERY) -> None:
        self.path, self.owner, self.lease, self.every = path, owner, lease, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="patience-lease", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn = None
        try:
            while not self._stop.wait(self.every):
                try:
                    if conn is None:
                        conn = sqlite3.connect(self.path, timeout=self.every, isolation_level=None)
                    renew_claims(conn, self.owner, self.lease)
                except sqlite3.Error:
                    pass
        finally:
            if conn is not None:
                conn.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
