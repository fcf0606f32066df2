"""The results database: one SQLite row per finished deal.

Layout (``PRAGMA user_version`` = 3):

    configs  one row per configuration: game, full rule set (JSON), numbering and
             limits (max_nodes, timeout, tt_mb); ``key`` is the canonical JSON of all
             of them and is UNIQUE, so a configuration has exactly one id.
    deals    one row per (config, seed), UNIQUE: verdict, reason, proof (lost only:
             "search", "relaxed-rules", ..., see search.drive), nodes, seconds,
             length of the winning line, the line itself (JSON moves, as ``--json``
             prints them), verified, stored_states, finished (unix time; ``export`` writes it as ISO
             8601 UTC), version,
             best_cards and best_of (the result's best_progress: the most cards the
             search had on the foundations, of how many; NULL in rows stored before
             schema version 2).  CHECKs refuse a 'won' row that the reference engine did not verify and
             an 'interrupted' one (it must be solved again by the next run).
    results  a view joining the two (what ``patience export`` prints).

Version 1 databases (no best_cards / best_of) are migrated when opened: the two
columns are added (NULL in the old rows) and the view is made again, in one
transaction.  Version 2 databases get Windmill's rules as ``{"rules": NAME}`` (they were
``{"preset": NAME}``), so a batch begun before resumes under the same configuration.

Durability and concurrency:

- WAL journal, ``synchronous=NORMAL``: every row is its own transaction, committed
  before the batch moves on; a process killed at any moment (even ``kill -9``) loses
  only deals not yet committed and never corrupts the file (SQLite's atomic commit;
  the WAL is replayed on the next open).  A power cut may lose the last few commits,
  never the file.
- ``INSERT ... ON CONFLICT (config, seed) DO NOTHING`` on the UNIQUE key: two batches
  writing one database at once never store a seed twice; the first row stays.  (Not
  ``INSERT OR IGNORE``: that would also silently drop a row failing a CHECK, which
  must raise.)  ``busy_timeout`` makes a writer wait for the other's transaction
  instead of failing.
- One connection per Store, used by one thread: a batch writes from its main thread
  only (workers send results back to it).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .result import LOST, UNKNOWN, WON, SolveResult, describe_rules
from .seeds import SeedSpec

SCHEMA_VERSION = 3
BUSY_TIMEOUT_MS = 60_000
DEFAULT_DB_NAME = "patience-results.sqlite"

_SCHEMA = [
    """
CREATE TABLE IF NOT EXISTS configs (
    id        INTEGER PRIMARY KEY,
    key       TEXT NOT NULL UNIQUE,
    game      TEXT NOT NULL,
    rules     TEXT NOT NULL,
    numbering TEXT NOT NULL,
    max_nodes INTEGER,
    timeout   REAL,
    tt_mb     REAL NOT NULL
)""",
    """
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
    UNIQUE (config, seed),
    CHECK (verdict != 'won' OR verified = 1),
    CHECK ((verdict = 'unknown') = (reason IS NOT NULL)),
    CHECK (reason IS NULL OR reason != 'interrupted')
)""",
]

_VIEW = """
CREATE VIEW IF NOT EXISTS results AS
    SELECT c.game, c.rules, c.numbering, c.max_nodes, c.timeout, c.tt_mb, d.seed, d.verdict, d.reason, d.proof,
           d.nodes, d.seconds, d.length, d.verified, d.stored_states, d.finished, d.version, d.best_cards,
           d.best_of, d.line, d.config
    FROM deals d JOIN configs c ON c.id = d.config"""

# version 1 -> 2: best progress (NULL in the old rows)
_MIGRATE_1 = [
    "ALTER TABLE deals ADD COLUMN best_cards INTEGER",
    "ALTER TABLE deals ADD COLUMN best_of INTEGER",
    "DROP VIEW IF EXISTS results",
]

# version 2 -> 3: Windmill's rules are {"rules": NAME} as every game's (they were
# {"preset": NAME}); the configuration key holds them, so both columns are rewritten
_MIGRATE_2 = [
    "UPDATE configs SET rules = replace(rules, '{\"preset\":', '{\"rules\":'), "
    "key = replace(key, '\"rules\":{\"preset\":', '\"rules\":{\"rules\":') WHERE game = 'windmill'",
]


def default_db_path() -> Path:
    """``$PATIENCE_DB`` if set, else ``patience-results.sqlite`` in the current directory."""
    return Path(os.environ.get("PATIENCE_DB") or DEFAULT_DB_NAME)


def config_key(game: str, rules: dict, numbering: str, max_nodes: int | None, timeout: float | None,
               tt_mb: float) -> dict[str, Any]:
    """The configuration a verdict depends on, normalised (60 and 60.0 are one timeout)."""
    return {
        "game": game,
        "rules": dict(sorted(rules.items())),
        "numbering": numbering,
        "max_nodes": None if max_nodes is None else int(max_nodes),
        "timeout": None if timeout is None else float(timeout),
        "tt_mb": float(tt_mb),
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
    tt_mb: float

    def describe(self) -> str:
        rules = describe_rules(self.rules)
        limits = [f"tt_mb={self.tt_mb:g}"]
        if self.max_nodes is not None:
            limits.insert(0, f"max_nodes={self.max_nodes}")
        if self.timeout is not None:
            limits.insert(0, f"timeout={self.timeout:g}s")
        return f"{self.game} ({self.numbering}) {rules}; {', '.join(limits)}"


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
    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            raise StoreError(f"cannot open database {str(self.path)!r}: folder {str(self.path.parent)!r} does not exist")
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

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            self._create(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _create(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version not in (0, 1, 2):
            raise StoreError(f"database {str(self.path)!r} has schema version {version}, expected {SCHEMA_VERSION}")
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have created or migrated the schema while we waited
            # for the lock.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                for statement in _SCHEMA:
                    conn.execute(statement)
            if version == 1:
                for statement in _MIGRATE_1:
                    conn.execute(statement)
            if version in (1, 2):
                for statement in _MIGRATE_2:
                    conn.execute(statement)
            if version in (0, 1):
                conn.execute(_VIEW)
            if version in (0, 1, 2):
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

    # ---------------------------------------------------------------- configurations

    def config_id(self, key: dict[str, Any]) -> int:
        """The id of a configuration (from config_key), created if new."""
        text = _canonical(key)
        self.conn.execute(
            "INSERT OR IGNORE INTO configs (key, game, rules, numbering, max_nodes, timeout, tt_mb) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (text, key["game"], _canonical(key["rules"]), key["numbering"], key["max_nodes"], key["timeout"],
             key["tt_mb"]),
        )
        return self.conn.execute("SELECT id FROM configs WHERE key = ?", (text,)).fetchone()[0]

    def configs(self) -> list[Config]:
        out = []
        for cid, game, rules, numbering, max_nodes, timeout, tt_mb in self.conn.execute(
            "SELECT id, game, rules, numbering, max_nodes, timeout, tt_mb FROM configs ORDER BY id"
        ):
            out.append(Config(cid, game, json.loads(rules), numbering, max_nodes, timeout, tt_mb))
        return out

    # ---------------------------------------------------------------- deals

    def add(self, config: int, result: SolveResult, version: str | None = None) -> bool:
        """Store one finished deal in its own transaction; False if it was already there."""
        line = _canonical([m.to_json() for m in result.moves]) if result.verdict == WON else None
        best = getattr(result, "best_progress", None)
        cur = self.conn.execute(
            "INSERT INTO deals (config, seed, verdict, reason, proof, nodes, seconds, length, line, verified,"
            " stored_states, finished, version, best_cards, best_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (config, seed) DO NOTHING",
            (config, result.seed, result.verdict, result.reason, getattr(result, "proof", None), int(result.nodes), float(result.seconds),
             len(result.moves), line, int(bool(result.verified)), int(result.stored_states), time.time(), version,
             None if best is None else int(best.cards), None if best is None else int(best.of)),
        )
        return cur.rowcount == 1

    def done_seeds(self, config: int, seeds: SeedSpec | None = None) -> set[int]:
        return {r.seed for r in self.rows(config, seeds)} if seeds is not None else {
            s for (s,) in self.conn.execute("SELECT seed FROM deals WHERE config = ?", (config,))}

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
            row["rules"] = json.loads(row["rules"])
            row["line"] = json.loads(row["line"]) if row["line"] is not None else None
            row["verified"] = bool(row["verified"])
            row["finished"] = datetime.fromtimestamp(row["finished"], timezone.utc).isoformat(timespec="seconds")
            yield row
