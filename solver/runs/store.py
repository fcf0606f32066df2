"""The results database: one SQLite row per finished deal, and the claims of running batches.

Layout (``PRAGMA user_version`` = 4, ``PRAGMA application_id`` = APPLICATION_ID):

    configs  one row per configuration: game, full rule set (JSON), numbering and
             caps (max_nodes, timeout); ``key`` is the canonical JSON of all of them
             and is UNIQUE, so a configuration has exactly one id.  Resources (table
             size, workers, mode, scheduler) are not part of it: they change how fast
             a deal is solved, not what its result means, so a batch resumed with
             other ``--workers`` or ``--tt-mb`` continues the same run.
    deals    one row per (config, seed), UNIQUE: verdict, reason, proof (lost only:
             "search", "relaxed-rules", ..., see search.drive), nodes, seconds,
             length of the winning line, the line itself (JSON moves, as ``--json``
             prints them), verified, stored_states, finished (unix time; ``export``
             writes it as ISO 8601 UTC), version, best_cards and best_of (the
             result's best_progress: the most cards the search had on the
             foundations, of how many; NULL in rows stored before schema version 2),
             tt_mb (the table size it was solved with).  CHECKs refuse a 'won' row
             that the reference engine did not verify and an 'interrupted' one (it
             must be solved again by the next run).
    claims   the seeds being solved now: (config, seed) PRIMARY KEY, owner, expires
             (unix time); see ``claim`` and solver/runs/lease.py.
    results  a view joining configs and deals (what ``patience export`` prints).

Ours, or not: a database we create is marked with ``PRAGMA application_id``.  An
unmarked one is accepted only if it is empty (a new file) or holds the tables of an
earlier version of this project (then it is migrated and marked); any other SQLite file,
and any file that is not SQLite, is refused (StoreError) before anything is written.

Migrations, each in one transaction when the database is opened: version 1 gets
best_cards / best_of (NULL in the old rows); version 2 gets Windmill's rules as
``{"rules": NAME}`` (they were ``{"preset": NAME}``); version 3 loses ``tt_mb`` from the
configuration key: configurations that differed only by it become one (the lowest id),
each deal keeps its table size in ``deals.tt_mb``, and where one seed was stored under
several of them one row stays (a decided verdict before an unknown one, else the
older configuration's).  A batch begun under an older version resumes as the same run.

Durability and concurrency:

- WAL journal, ``synchronous=NORMAL``: every row is its own transaction, committed
  before the batch moves on; a process killed at any moment (even ``kill -9``) loses
  only deals not yet committed and never corrupts the file (SQLite's atomic commit;
  the WAL is replayed on the next open).  A power cut may lose the last few commits,
  never the file.
- Claims: a batch takes a seed with ``claim`` (BEGIN IMMEDIATE: check that no row and
  no live claim of another owner exists, then write its own; two processes or two
  machines sharing the file never both take it), and ``add`` writes the result and
  drops the claim in one transaction.  A claim expires unless its owner renews it
  (solver/runs/lease.py: a heartbeat thread renews them all every few seconds, however long
  a deal runs); an expired claim, or one whose owner is known dead, is taken over.  So
  batches sharing a database share its seeds: each seed is solved once.
- ``INSERT ... ON CONFLICT (config, seed) DO NOTHING`` on the UNIQUE key: should two
  batches still solve one seed (a claim lapsed while its owner was stalled), the first
  row stays and ``add`` tells the second that it stored nothing.  (Not ``INSERT OR
  IGNORE``: that would also silently drop a row failing a CHECK, which must raise.)
  ``busy_timeout`` makes a writer wait for the other's transaction instead of failing.
- One connection per Store, used by one thread: a batch writes from its main thread
  only (workers send results back to it); the lease heartbeat has its own connection.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .lease import LEASE_SECONDS, owner_is_dead
from ..core.result import LOST, UNKNOWN, WON, SolveResult, describe_rules
from ..core.seeds import SeedSpec
from ..core.wholes import shown

SCHEMA_VERSION = 4
APPLICATION_ID = 0x50415443  # "PATC": marks a patience results database (PRAGMA application_id)
SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 60_000
DEFAULT_DB_NAME = "patience-results.sqlite"
KEY_FIELDS = ("game", "rules", "numbering", "max_nodes", "timeout")

# claim() answers
MINE = "mine"  # the seed is ours to solve now
DONE = "done"  # a result is stored already
HELD = "held"  # another live batch is solving it

_CONFIGS = """
CREATE TABLE IF NOT EXISTS {name} (
    id        INTEGER PRIMARY KEY,
    key       TEXT NOT NULL UNIQUE,
    game      TEXT NOT NULL,
    rules     TEXT NOT NULL,
    numbering TEXT NOT NULL,
    max_nodes INTEGER,
    timeout   REAL
)"""

_DEALS = """
CREATE TABLE IF NOT EXISTS deals (
    config        INTEGER NOT NULL REFERENCES configs(id),
    seed          INTEGER NOT NULL,
    verdict       TEXT NOT NULL CHECK (verdict IN ('won', 'lost', 'unknown')),
    reason        TEXT,
    proof         TEXT,
    nodes         INTEGER NOT NULL,
    seconds       REAL NOT NULL,
    length        INTEGER NOT NULL,
    line          TEXT,
    verified      INTEGER NOT NULL,
    stored_states INTEGER,
    finished      REAL NOT NULL,
    version       TEXT,
    best_cards    INTEGER,
    best_of       INTEGER,
    tt_mb         REAL,
    UNIQUE (config, seed),
    CHECK (verdict != 'won' OR verified = 1),
    CHECK ((verdict = 'unknown') = (reason IS NOT NULL)),
    CHECK (reason IS NULL OR reason != 'interrupted')
)"""

_CLAIMS = """
CREATE TABLE IF NOT EXISTS claims (
    config  INTEGER NOT NULL,
    seed    INTEGER NOT NULL,
    owner   TEXT NOT NULL,
    expires REAL NOT NULL,
    PRIMARY KEY (config, seed)
)"""

_VIEW = """
CREATE VIEW IF NOT EXISTS results AS
    SELECT c.game, c.rules, c.numbering, c.max_nodes, c.timeout, d.tt_mb, d.seed, d.verdict, d.reason, d.proof,
           d.nodes, d.seconds, d.length, d.verified, d.stored_states, d.finished, d.version, d.best_cards,
           d.best_of, d.line, d.config
    FROM deals d JOIN configs c ON c.id = d.config"""

# version 1 -> 2: best progress (NULL in the old rows)
_MIGRATE_1 = [
    "ALTER TABLE deals ADD COLUMN best_cards INTEGER",
    "ALTER TABLE deals ADD COLUMN best_of INTEGER",
]

# version 2 -> 3: Windmill's rules are {"rules": NAME} as every game's (they were
# {"preset": NAME}); the configuration key holds them, so both columns are rewritten
_MIGRATE_2 = [
    "UPDATE configs SET rules = replace(rules, '{\"preset\":', '{\"rules\":'), "
    "key = replace(key, '\"rules\":{\"preset\":', '\"rules\":{\"rules\":') WHERE game = 'windmill'",
]

# the tables of the current version, by the columns every reader needs
_TABLES = {
    "configs": {"id", "key", "game", "rules", "numbering", "max_nodes", "timeout"},
    "deals": {"config", "seed", "verdict", "reason", "proof", "nodes", "seconds", "length", "line", "verified",
              "stored_states", "finished", "version", "best_cards", "best_of", "tt_mb"},
    "claims": {"config", "seed", "owner", "expires"},
}

# the tables of versions 1 to 3 (what an earlier release created), by the columns they had then
_EARLIER_TABLES = {
    "configs": {"id", "key", "game", "rules", "numbering", "max_nodes", "timeout", "tt_mb"},
    "deals": {"config", "seed", "verdict", "reason", "proof", "nodes", "seconds", "length", "line", "verified",
              "stored_states", "finished", "version"},
}


def _migrate_3(conn: sqlite3.Connection) -> None:
    """Version 3 -> 4: the table size leaves the configuration key for the deal rows
    (see the module docstring).  Needs foreign keys off (configs is rebuilt)."""
    def columns(table: str) -> set[str]:
        return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}

    if "tt_mb" not in columns("deals"):
        conn.execute("ALTER TABLE deals ADD COLUMN tt_mb REAL")
    if "tt_mb" in columns("configs"):
        conn.execute("UPDATE deals SET tt_mb = (SELECT tt_mb FROM configs WHERE configs.id = deals.config)")
    groups: dict[str, list[int]] = {}
    for cid, game, rules, numbering, max_nodes, timeout in conn.execute(
            "SELECT id, game, rules, numbering, max_nodes, timeout FROM configs ORDER BY id").fetchall():
        key = config_key(game, json.loads(rules), numbering, max_nodes, timeout)
        groups.setdefault(_canonical(key), []).append(cid)
    conn.execute(_CONFIGS.format(name="configs_new"))
    for text, ids in groups.items():
        keep = ids[0]
        conn.execute("INSERT INTO configs_new SELECT id, ?, game, rules, numbering, max_nodes, timeout FROM configs "
                     "WHERE id = ?", (text, keep))
        for other in ids[1:]:
            # one row per seed: a decided verdict before an unknown one, else the older configuration's
            conn.execute("DELETE FROM deals WHERE config = ? AND verdict = 'unknown' AND seed IN "
                         "(SELECT seed FROM deals WHERE config = ? AND verdict != 'unknown')", (keep, other))
            conn.execute("UPDATE OR IGNORE deals SET config = ? WHERE config = ?", (keep, other))
            conn.execute("DELETE FROM deals WHERE config = ?", (other,))
    conn.execute("DROP TABLE configs")
    conn.execute("ALTER TABLE configs_new RENAME TO configs")


def default_db_path() -> Path:
    """``$PATIENCE_DB`` if set, else ``patience-results.sqlite`` in the current directory."""
    return Path(os.environ.get("PATIENCE_DB") or DEFAULT_DB_NAME)


def config_key(game: str, rules: dict, numbering: str, max_nodes: int | None,
               timeout: float | None) -> dict[str, Any]:
    """What a verdict means, normalised (60 and 60.0 are one timeout): the game, its full
    rule set, the numbering and the caps.  Not the resources (table size, workers)."""
    return {
        "game": game,
        "rules": dict(sorted(rules.items())),
        "numbering": numbering,
        "max_nodes": None if max_nodes is None else int(max_nodes),
        "timeout": None if timeout is None else float(timeout),
    }


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Config:
    id: int
    game: str
    rules: dict
    numbering: str
    max_nodes: int | None
    timeout: float | None
    tt_mb: tuple[float, ...] = ()  # the table sizes its deals were solved with (a resource, not in the key)

    def __post_init__(self) -> None:
        if isinstance(self.tt_mb, (int, float)):  # one size given as a number
            object.__setattr__(self, "tt_mb", (float(self.tt_mb),))

    def tt_text(self) -> str:
        """``64`` or ``32/64``: the table sizes (MB) of its deals."""
        return "/".join(f"{t:g}" for t in self.tt_mb)

    def describe(self) -> str:
        rules = describe_rules(self.rules)
        limits = []
        if self.timeout is not None:
            limits.append(f"timeout={self.timeout:g}s")
        if self.max_nodes is not None:
            limits.append(f"max_nodes={self.max_nodes}")
        if self.tt_mb:
            limits.append(f"tt_mb={self.tt_text()}")
        return f"{self.game} ({self.numbering}) {rules}; {', '.join(limits) or 'no limits'}"


@dataclass(frozen=True)
class Row:
    seed: int
    verdict: str
    reason: str | None
    nodes: int
    seconds: float
    length: int
    best_cards: int | None = None  # None: stored before best progress was recorded
    best_of: int | None = None


class StoreError(RuntimeError):
    pass


class Store:
    """A results database.  ``readonly``: for commands that only read (report, export,
    seeds): the file is opened read-only (it may sit in a read-only folder), must exist
    and be ours at the current schema version, and nothing is ever written to it (an
    empty file stays empty).  Otherwise it is created or migrated as needed, and a file
    that cannot be written is refused before any work."""

    def __init__(self, path: str | os.PathLike, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        if self.path.parent and not self.path.parent.exists():
            raise StoreError(f"cannot open database {str(self.path)!r}: folder {str(self.path.parent)!r} does not exist")
        self._refuse_non_sqlite()
        if readonly:
            self.conn = self._open_readonly()
            return
        self._refuse_unwritable()
        # Two batches opening one new file at once race to switch it to WAL and to
        # create the schema; SQLite answers some of those lock upgrades with an
        # immediate "database is locked" (its deadlock rule skips the busy handler),
        # so opening is retried until BUSY_TIMEOUT_MS has passed.
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        delay = 0.01
        while True:
            try:
                self.conn = self._open()
                return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or time.monotonic() > deadline:
                    raise StoreError(f"cannot use database {str(self.path)!r}: {err}") from None
            except sqlite3.DatabaseError as err:
                raise StoreError(f"cannot use database {str(self.path)!r}: {err}") from None
            time.sleep(delay)
            delay = min(delay * 2, 0.5)

    def _refuse_non_sqlite(self) -> None:
        """A file that exists and is not SQLite is refused before SQLite touches it, and
        so is anything that is not a regular file (a device, a FIFO: SQLite would make
        its journal beside it)."""
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            mode = None
        except OSError as err:
            raise StoreError(f"cannot open database {str(self.path)!r}: {err.strerror or err}") from None
        if mode is not None and not stat.S_ISREG(mode):
            raise StoreError(f"{str(self.path)!r} is not a regular file: refusing to use it as the results database")
        try:
            with open(self.path, "rb") as f:
                head = f.read(len(SQLITE_HEADER))
        except FileNotFoundError:
            return
        except OSError as err:
            raise StoreError(f"cannot open database {str(self.path)!r}: {err.strerror or err}") from None
        if head and head != SQLITE_HEADER:
            raise StoreError(f"{str(self.path)!r} is not a SQLite database: refusing to use it as the results "
                             "database")

    def _refuse_unwritable(self) -> None:
        """A batch writes every result: a read-only file, or a folder where SQLite cannot
        make its journal files, is refused before any deal is solved."""
        name = str(self.path)
        folder = str(self.path.parent) or "."
        if self.path.exists() and not os.access(self.path, os.W_OK):
            raise StoreError(f"database {name!r} is read-only: a batch stores its results there "
                             "(report, export and seeds only read it)")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(f"database {name!r}: its folder {folder!r} is read-only (SQLite keeps its journal "
                             "files beside the database)")

    def _open_readonly(self) -> sqlite3.Connection:
        """The database opened read-only and checked (``Store`` docstring); StoreError else."""
        name = str(self.path)
        if not self.path.is_file():
            raise StoreError(f"no results database at {name!r}")
        if self.path.stat().st_size == 0:
            raise StoreError(f"{name!r} is empty: not a patience results database (run 'patience batch' with it)")
        uri = "file:" + quote(str(self.path.resolve())) + "?mode=ro"
        folder = str(self.path.parent) or "."
        conn = None
        try:
            try:
                if os.access(self.path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK):
                    # where it may be written, opened as a batch opens it but query-only: the last
                    # connection to close removes SQLite's -wal and -shm files, as always
                    conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
                    conn.execute("PRAGMA query_only = ON")
                else:
                    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
                conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            except sqlite3.OperationalError:  # a WAL database in a read-only folder: no -shm can be made
                if conn is not None:
                    conn.close()
                wal = Path(str(self.path) + "-wal")
                if wal.exists() and wal.stat().st_size > 0:  # immutable would not see the rows in it
                    raise StoreError(f"cannot read database {name!r}: its folder is read-only and rows are still "
                                     f"in {str(wal)!r} (open it once where it can be written)") from None
                conn = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
            self._check_ours(conn)  # another program's database is refused here, as when writing
            app = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if app != APPLICATION_ID and version == 0:
                raise StoreError(f"{name!r} holds no results yet: not a patience results database")
            if app != APPLICATION_ID:
                raise StoreError(f"{name!r} was made by an earlier version of patience: run 'patience batch' on "
                                 "it once (with write access) to bring it up to date")
            if version != SCHEMA_VERSION:
                raise StoreError(f"database {name!r} has schema version {version}, expected {SCHEMA_VERSION}")
            self._check_schema(conn)
        except sqlite3.DatabaseError as err:
            if conn is not None:
                conn.close()
            raise StoreError(f"cannot read database {name!r}: {err}") from None
        except StoreError:
            conn.close()
            raise
        return conn

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Our tables with their columns, and every seed an integer: a database damaged by
        hand or by another program is refused in one line rather than failing later."""
        name = str(self.path)
        for table, needed in _TABLES.items():
            columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            if not columns:
                raise StoreError(f"database {name!r} is damaged: it has no table {table!r}")
            if not needed <= columns:
                missing = ", ".join(sorted(needed - columns))
                raise StoreError(f"database {name!r} is damaged: table {table!r} lacks {missing}")
        bad = conn.execute("SELECT seed FROM deals WHERE typeof(seed) != 'integer' LIMIT 1").fetchone()
        if bad is not None:
            raise StoreError(f"database {name!r} is damaged: a seed stored as {shown(str(bad[0]))}, not a whole number")
        for cid, rules in conn.execute("SELECT id, rules FROM configs"):
            self._json(rules, f"configuration {cid}'s rules")
        bad = conn.execute("SELECT seed, config FROM deals WHERE line IS NOT NULL AND NOT json_valid(line) "
                           "OR typeof(finished) NOT IN ('integer', 'real') LIMIT 1").fetchone()
        if bad is not None:
            raise StoreError(f"database {name!r} is damaged: the row of seed {bad[0]} (configuration {bad[1]}) "
                             "has a line that is not JSON or a finishing time that is not a number")

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._refuse_foreign(conn)  # before anything is written
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = OFF")  # a migration rebuilds configs
            self._create(conn)
            self._check_schema(conn)
            conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    def _refuse_foreign(self, conn: sqlite3.Connection) -> None:
        """Ours (marked), new (empty) or made by an earlier version; else StoreError.

        The mark, the schema version and the table list are read in one read
        transaction: read one by one, another process creating the schema in
        between would show a file with our tables but no mark yet."""
        conn.execute("BEGIN")
        try:
            self._check_ours(conn)
        finally:
            conn.execute("COMMIT")

    def _check_ours(self, conn: sqlite3.Connection) -> None:
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        if app == APPLICATION_ID:
            return
        name = str(self.path)
        if app != 0:
            raise StoreError(f"{name!r} is another program's SQLite database (application id {app:#x}): refusing to "
                             "use it as the results database")
        objects = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite!_%' "
                                              "ESCAPE '!' ORDER BY name")]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if (not objects and version == 0) or self._made_by_an_earlier_version(conn, objects, version):
            return
        holds = f" (it holds {', '.join(objects[:4])}{', ...' if len(objects) > 4 else ''})" if objects else ""
        raise StoreError(f"{name!r} is not a patience results database{holds}: refusing to add tables to it")

    @staticmethod
    def _made_by_an_earlier_version(conn: sqlite3.Connection, objects: list[str], version: int) -> bool:
        """Versions 1 to 3 left no mark but their schema version and their tables."""
        if version not in (1, 2, 3) or not {"configs", "deals"} <= set(objects) <= {"configs", "deals", "results"}:
            return False
        for table, needed in _EARLIER_TABLES.items():
            columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
            if not needed <= columns:
                return False
        return True

    def _create(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version not in (0, 1, 2, 3):
            raise StoreError(f"database {str(self.path)!r} has schema version {version}, expected {SCHEMA_VERSION}")
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have created or migrated the schema while we waited
            # for the lock.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                conn.execute(_CONFIGS.format(name="configs"))
                conn.execute(_DEALS)
            if version in (1, 2, 3):
                conn.execute("DROP VIEW IF EXISTS results")
            if version == 1:
                for statement in _MIGRATE_1:
                    conn.execute(statement)
            if version in (1, 2):
                for statement in _MIGRATE_2:
                    conn.execute(statement)
            if version in (1, 2, 3):
                _migrate_3(conn)
            if version in (0, 1, 2, 3):
                conn.execute(_CLAIMS)
                conn.execute(_VIEW)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction, taken at once (BEGIN IMMEDIATE): what it reads cannot
        change before it writes."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # ---------------------------------------------------------------- configurations

    def config_id(self, key: dict[str, Any]) -> int:
        """The id of a configuration (from config_key), created if new.  Other fields
        of ``key`` (a table size from an older caller) are not part of it."""
        key = {k: key.get(k) for k in KEY_FIELDS}
        text = _canonical(key)
        self.conn.execute(
            "INSERT OR IGNORE INTO configs (key, game, rules, numbering, max_nodes, timeout) VALUES (?, ?, ?, ?, ?, ?)",
            (text, key["game"], _canonical(key["rules"]), key["numbering"], key["max_nodes"], key["timeout"]),
        )
        return self.conn.execute("SELECT id FROM configs WHERE key = ?", (text,)).fetchone()[0]

    def configs(self) -> list[Config]:
        sizes: dict[int, list[float]] = {}
        for cid, tt_mb in self.conn.execute(
                "SELECT config, tt_mb FROM deals WHERE tt_mb IS NOT NULL GROUP BY config, tt_mb ORDER BY tt_mb"):
            sizes.setdefault(cid, []).append(tt_mb)
        out = []
        for cid, game, rules, numbering, max_nodes, timeout in self.conn.execute(
            "SELECT id, game, rules, numbering, max_nodes, timeout FROM configs ORDER BY id"
        ):
            out.append(Config(cid, game, self._json(rules, f"configuration {cid}'s rules"), numbering, max_nodes,
                              timeout, tuple(sizes.get(cid, ()))))
        return out

    def _json(self, text: Any, what: str) -> Any:
        """``text`` parsed as JSON; a StoreError naming the database and ``what`` if it is not."""
        try:
            return json.loads(text)
        except (TypeError, ValueError):
            raise StoreError(f"database {str(self.path)!r} is damaged: {what} is not JSON") from None

    # ---------------------------------------------------------------- claims

    def claim(self, config: int, seed: int, owner: str, lease: float = LEASE_SECONDS) -> str:
        """Take ``seed`` for ``owner`` unless it is stored (DONE) or another owner's
        claim on it is live (HELD): then MINE, with an expiry ``lease`` seconds on.  An
        expired claim, or one whose owner is known dead (solver/runs/lease.py), is taken over."""
        now = time.time()
        with self._transaction():
            if self.conn.execute("SELECT 1 FROM deals WHERE config = ? AND seed = ?", (config, seed)).fetchone():
                return DONE
            held = self.conn.execute("SELECT owner, expires FROM claims WHERE config = ? AND seed = ?",
                                     (config, seed)).fetchone()
            if held is not None and held[0] != owner and held[1] > now and not owner_is_dead(held[0]):
                return HELD
            self.conn.execute("INSERT OR REPLACE INTO claims (config, seed, owner, expires) VALUES (?, ?, ?, ?)",
                              (config, seed, owner, now + lease))
        return MINE

    def release(self, owner: str) -> None:
        """Drop every claim of ``owner`` (a batch that stops gives back its unfinished seeds)."""
        self.conn.execute("DELETE FROM claims WHERE owner = ?", (owner,))

    def claims(self, config: int) -> dict[int, tuple[str, float]]:
        """The live and expired claims of a configuration: seed -> (owner, expires)."""
        return {s: (o, e) for s, o, e in self.conn.execute(
            "SELECT seed, owner, expires FROM claims WHERE config = ? ORDER BY seed", (config,))}

    # ---------------------------------------------------------------- deals

    def add(self, config: int, result: SolveResult, version: str | None = None, tt_mb: float | None = None,
            owner: str | None = None) -> bool:
        """Store one finished deal, and drop ``owner``'s claim on it, in one transaction;
        False if a row for it was there already (nothing is stored then)."""
        line = _canonical([m.to_json() for m in result.moves]) if result.verdict == WON else None
        best = getattr(result, "best_progress", None)
        with self._transaction():
            cur = self.conn.execute(
                "INSERT INTO deals (config, seed, verdict, reason, proof, nodes, seconds, length, line, verified,"
                " stored_states, finished, version, best_cards, best_of, tt_mb)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (config, seed) DO NOTHING",
                (config, result.seed, result.verdict, result.reason, getattr(result, "proof", None),
                 int(result.nodes), float(result.seconds), len(result.moves), line, int(bool(result.verified)),
                 int(result.stored_states), time.time(), version, None if best is None else int(best.cards),
                 None if best is None else int(best.of), None if tt_mb is None else float(tt_mb)),
            )
            if owner is not None:
                self.conn.execute("DELETE FROM claims WHERE config = ? AND seed = ? AND owner = ?",
                                  (config, result.seed, owner))
        return cur.rowcount == 1

    def rows(self, config: int, seeds: SeedSpec | None = None) -> list[Row]:
        """The stored deals of a configuration (within ``seeds`` if given), by seed."""
        q = "SELECT seed, verdict, reason, nodes, seconds, length, best_cards, best_of FROM deals WHERE config = ?"
        if seeds is None:
            return [Row(*r) for r in self.conn.execute(q + " ORDER BY seed", (config,))]
        out: list[Row] = []
        for a, b in seeds.ranges:
            out.extend(Row(*r) for r in self.conn.execute(q + " AND seed BETWEEN ? AND ? ORDER BY seed", (config, a, b)))
        return out

    def counts(self, config: int, seeds: SeedSpec | None = None) -> dict[str, int]:
        out = {WON: 0, LOST: 0, UNKNOWN: 0}
        for r in self.rows(config, seeds):
            out[r.verdict] += 1
        return out

    def export(self) -> Iterator[dict[str, Any]]:
        """Every stored deal with its configuration, ordered by configuration and seed."""
        cur = self.conn.execute("SELECT * FROM results ORDER BY config, seed")
        names = [d[0] for d in cur.description]
        for values in cur:
            row = dict(zip(names, values))
            what = f"the row of seed {row['seed']} (configuration {row['config']})"
            row["rules"] = self._json(row["rules"], f"configuration {row['config']}'s rules")
            row["line"] = self._json(row["line"], f"the line of {what}") if row["line"] is not None else None
            row["verified"] = bool(row["verified"])
            try:
                row["finished"] = datetime.fromtimestamp(row["finished"], timezone.utc).isoformat(timespec="seconds")
            except (TypeError, ValueError, OverflowError, OSError):
                raise StoreError(f"database {str(self.path)!r} is damaged: the finishing time of {what} is "
                                 f"{shown(str(row['finished']))}") from None
            yield row
