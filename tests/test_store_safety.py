"""The results database keeps every result and only ours (issue 24, "Nothing lost").

- Batches sharing one database share its seeds: a seed is claimed (a lease in the
  ``claims`` table) before it is solved, so each is solved once, by one batch, and
  each batch reports only what it solved.  Leases: a live one is respected, an
  expired one or one whose owner died is taken over.
- A database that is not ours (another program's SQLite file, or not SQLite at all)
  is refused with one line, untouched.
- The table size is a resource, not part of a result's configuration: a database made
  by the old code, whose keys held it, reads and resumes as one run.
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_helpers import ROOT, one_line_error, patience_here
from solver.runs.batch import Batch
from solver.runs.lease import Heartbeat, host_id, new_owner, owner_is_dead
from solver.core.result import LOST, SolveResult
from solver.runs.store import APPLICATION_ID, DONE, HELD, MINE, SCHEMA_VERSION, Store, config_key

FIXTURE = Path(__file__).parent / "fixtures" / "store-v3-two-table-sizes.sql"
KEY = config_key("klondike", {"draw": 1, "passes": "unlimited", "worry_back": True}, "pysolfc", 1000, None)


def _lost(seed: int) -> SolveResult:
    return SolveResult("klondike", {}, "pysolfc", seed, LOST, None, 10, 0.01)


# --------------------------------------------------------------------------- two batches, one database

# ``patience`` with a log of every deal it solves (not only those it stores): the
# evidence that no seed was solved twice, whatever the database kept.
LOGGED_PATIENCE = """
import sys
import solver.runs.executors as executors
log = sys.argv.pop(1)
solve = executors.solve_one
def logged(*args, **kw):
    result = solve(*args, **kw)
    if result.reason != "interrupted":
        with open(log, "a") as f:
            f.write(f"{args[1]}\\n")
    return result
executors.solve_one = logged
from solver.interfaces.cli import run
sys.argv[0] = "patience"
run()
"""


def test_two_processes_on_one_database_solve_each_seed_once(tmp_path):
    db = tmp_path / "r.sqlite"
    # a few deals of 1-60 run into the node cap after seconds: the two batches overlap
    args = ["batch", "klondike", "--seeds", "1-60", "--max-nodes", "2000000", "--tt-mb", "64", "--workers", "1",
            "--mode", "threads", "--db", str(db), "--no-progress"]
    logs = [tmp_path / f"solved-{i}.txt" for i in range(2)]
    procs = [subprocess.Popen([sys.executable, "-c", LOGGED_PATIENCE, str(log), *args], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for log in logs]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        outs.append(out)
    solved = [[int(x) for x in log.read_text().split()] if log.exists() else [] for log in logs]
    every = sorted(solved[0] + solved[1])
    assert every == list(range(1, 61)), "a seed was solved twice, or not at all"
    assert solved[0] and solved[1], "the two batches did not overlap (the test proves nothing then)"
    said = [int(re.search(r"\((\d+) solved by this run\)", out).group(1)) for out in outs]
    assert said == [len(solved[0]), len(solved[1])] and sum(said) == 60
    for out in outs:  # each waited for the other's seeds: both summaries cover all 60
        assert "seeds 1-60: 60 deals" in out
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*), count(DISTINCT seed) FROM deals").fetchone() == (60, 60)
        assert con.execute("SELECT count(*) FROM claims").fetchone() == (0,)  # every claim went with its result


# --------------------------------------------------------------------------- leases


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()  # reaped: the pid now names no process
    return p.pid


def test_a_live_lease_is_kept_and_an_expired_one_taken_over(tmp_path):
    elsewhere = "another-machine/4242/abcd"  # never judged dead from here: only its lease counts
    mine = new_owner()
    with Store(tmp_path / "r.sqlite") as store:
        cid = store.config_id(KEY)
        assert store.claim(cid, 1, elsewhere) == MINE
        assert store.claim(cid, 1, mine) == HELD  # live
        assert store.claim(cid, 1, elsewhere) == MINE  # its owner may claim it again (renewal)
        assert store.claim(cid, 2, elsewhere, lease=-1) == MINE  # already expired
        assert store.claim(cid, 2, mine) == MINE  # taken over
        assert store.claims(cid)[2][0] == mine
        # an owner of this machine whose process is gone: taken over at once, lease or not
        dead = f"{host_id()}/{_dead_pid()}/dead"
        assert owner_is_dead(dead) and not owner_is_dead(elsewhere) and not owner_is_dead(mine)
        assert store.claim(cid, 3, dead) == MINE
        assert store.claim(cid, 3, mine) == MINE
        # a live owner of this machine (another batch of this very process) is respected
        assert store.claim(cid, 4, new_owner()) == MINE
        assert store.claim(cid, 4, mine) == HELD
        # the result goes in with its claim gone, in one transaction; a stored seed is done
        assert store.add(cid, _lost(2), owner=mine)
        assert 2 not in store.claims(cid) and store.claim(cid, 2, elsewhere) == DONE
        # a result that lost its claim to another owner is stored, but leaves that owner's claim alone
        assert store.add(cid, _lost(1), owner=mine) and store.claims(cid)[1][0] == elsewhere
        assert not store.add(cid, _lost(1), owner=elsewhere)  # stored already: nothing
        store.release(mine)
        assert mine not in {owner for owner, _ in store.claims(cid).values()}


def test_the_heartbeat_renews_the_leases_of_its_owner(tmp_path):
    path = tmp_path / "r.sqlite"
    owner, other = new_owner(), "another-machine/1/x"
    with Store(path) as store:
        cid = store.config_id(KEY)
        store.claim(cid, 1, owner, lease=-1)  # expired: anyone could take it
        store.claim(cid, 2, other, lease=-1)
        beat = Heartbeat(path, owner, lease=3600, every=0.01)
        try:
            deadline = time.monotonic() + 60
            while store.claims(cid)[1][1] < time.time() and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            beat.stop()
        assert store.claims(cid)[1][1] > time.time() + 1000  # renewed: live again
        assert store.claims(cid)[2][1] < time.time()  # another owner's claim is not touched
        assert store.claim(cid, 1, other) == HELD


def test_a_stopped_batch_gives_back_its_claims(tmp_path):
    db = tmp_path / "r.sqlite"
    b = Batch("klondike", "1-40", max_nodes=20_000, tt_mb=64, workers=2, mode="threads", db=db)
    gen = iter(b)
    next(gen)
    with Store(db) as store:
        assert set(store.claims(b.config_id).values()) and all(o == b.owner for o, _ in
                                                               store.claims(b.config_id).values())
        gen.close()  # as Ctrl-C or a break out of the loop: the seeds in flight go back at once
        assert store.claims(b.config_id) == {}


# --------------------------------------------------------------------------- not our database


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        con.execute("INSERT INTO notes (text) VALUES ('keep me')")
    con.close()


def _schema(path: Path) -> list:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall() + [
            con.execute("PRAGMA journal_mode").fetchone(), con.execute("PRAGMA application_id").fetchone()]
    finally:
        con.close()


COMMANDS = [
    ("batch", "klondike", "--seeds", "1", "--max-nodes", "100", "--workers", "1", "--tt-mb", "64", "--db"),
    ("report", "--db"),
    ("export", "--db"),
    ("seeds", "klondike", "--db"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_another_programs_sqlite_file_is_refused_untouched(tmp_path, command):
    path = tmp_path / "theirs.sqlite"
    _foreign(path)
    before, size = _schema(path), path.stat().st_size
    line = one_line_error(patience_here(*command, str(path)))
    assert "not a patience results database" in line and "notes" in line
    assert _schema(path) == before and path.stat().st_size == size
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.sqlite"]  # no WAL, no journal left


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path, command):
    path = tmp_path / "notes.txt"
    path.write_text("my notes, not a database\n" * 10)
    line = one_line_error(patience_here(*command, str(path)))
    assert "not a SQLite database" in line
    assert path.read_text() == "my notes, not a database\n" * 10


def test_a_sqlite_file_of_another_application_is_refused(tmp_path):
    path = tmp_path / "theirs.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA application_id = 1234")
    con.close()
    line = one_line_error(patience_here("export", "--db", str(path)))
    assert "another program's SQLite database" in line


def test_a_new_database_is_marked_as_ours(tmp_path):
    path = tmp_path / "r.sqlite"
    path.touch()  # an empty file is an empty database: ours to create
    Store(path).close()
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == {
            "configs", "deals", "claims"}
    con.close()
    Store(path).close()  # and accepted again


def test_many_openers_of_one_new_database_all_accept_it(tmp_path):
    """Opening races creating: a reader that saw the tables before the mark refused our
    own database (CI, two batches on one new file).  Without one read snapshot this
    failed in most of 200 rounds of six threads."""
    import threading

    for round_ in range(40):
        path = tmp_path / f"r{round_}.sqlite"
        errors: list[Exception] = []

        def opener():
            try:
                Store(path).close()
            except Exception as err:  # reported below
                errors.append(err)

        threads = [threading.Thread(target=opener) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [], f"round {round_}: {errors[0]}"


# --------------------------------------------------------------------------- the table size is not in the key


def _old_database(path: Path) -> None:
    """The committed fixture: a version-3 database made by the old code, whose two
    configurations differ only by tt_mb (64: seeds 1-3; 32: seeds 2-5)."""
    con = sqlite3.connect(path)
    con.executescript(FIXTURE.read_text())
    con.close()


def test_an_old_database_with_table_sizes_in_its_keys_is_one_run(tmp_path):
    path = tmp_path / "old.sqlite"
    _old_database(path)
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM configs").fetchone() == (2,)
    con.close()
    with Store(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        [config] = store.configs()
        assert config.tt_mb == (32.0, 64.0) and "tt_mb" not in store.conn.execute(
            "SELECT key FROM configs").fetchone()[0]
        assert [r.seed for r in store.rows(config.id)] == [1, 2, 3, 4, 5]
        tables = dict(store.conn.execute("SELECT seed, tt_mb FROM deals"))
        assert tables == {1: 64.0, 2: 64.0, 3: 64.0, 4: 32.0, 5: 32.0}  # seeds stored twice keep the older row
        assert store.conn.execute("PRAGMA foreign_key_check").fetchall() == []
    # resumed with yet another table size: the same run, only seed 6 is new
    r = patience_here("batch", "klondike", "--seeds", "1-6", "--max-nodes", "45", "--tt-mb", "16", "--workers", "2",
                      "--db", str(path), "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "1 to solve" in r.stderr and "(1 solved by this run)" in r.stdout and "seeds 1-6: 6 deals" in r.stdout
    r = patience_here("report", "--db", str(path), "--out", str(tmp_path / "report"))
    assert r.returncode == 0, r.stderr
    rows = [x for x in r.stdout.splitlines() if x.startswith("| 1 ")]
    assert len(rows) == 1 and "tt 16/32/64 MB" in rows[0] and "| 6 |" in rows[0]
    assert not [x for x in r.stdout.splitlines() if x.startswith("| 2 ")]
    r = patience_here("export", "--db", str(path), "--format", "jsonl")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 6


def test_changing_workers_resumes_the_same_run(tmp_path):
    db = tmp_path / "r.sqlite"
    common = ["batch", "klondike", "--max-nodes", "20000", "--mode", "threads", "--db", str(db), "--no-progress"]
    r = patience_here(*common, "--seeds", "1-4", "--workers", "1", "--tt-mb", "64")
    assert r.returncode == 0, r.stderr
    r = patience_here(*common, "--seeds", "1-6", "--workers", "2", "--tt-mb", "32")
    assert r.returncode == 0 and "2 to solve" in r.stderr and "seeds 1-6: 6 deals (2 solved by this run)" in r.stdout
