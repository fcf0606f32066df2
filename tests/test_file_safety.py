"""Nothing a user types breaks a file (issue 32, section 4): outputs that are devices or
FIFOs are written into, never replaced; SQLite's side files, block devices and ``-``
where no standard output is meant are refused; a database that is read-only, empty,
not a regular file or damaged gets one line and exit 2, and nothing is written."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import threading

import pytest
from cli_helpers import one_line_error, patience_here

from test_outputs import db  # noqa: F401  (the fixture: three stored Klondike deals)

from solver.core.outputs import OutputError, atomic_open, check_output
from solver.runs.store import Store, StoreError

ROOT_USER = os.geteuid() == 0


def _null_device(path):
    """A character device like /dev/null (major 1, minor 3) at ``path``: root only."""
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return path


needs_root = pytest.mark.skipif(not ROOT_USER, reason="making a device node (mknod) needs root")


# --------------------------------------------------------------------------- devices and FIFOs


@needs_root
@pytest.mark.parametrize("command", [("export",), ("seeds", "klondike")])
def test_a_device_output_is_written_into_not_replaced(db, tmp_path, command):
    dev = _null_device(tmp_path / "null")
    link = tmp_path / "to-null"
    link.symlink_to(dev)
    for out in (dev, link):
        r = patience_here(*command, "--db", str(db), "--out", str(out))
        assert r.returncode == 0, r.stderr
        assert stat.S_ISCHR(os.stat(dev).st_mode), "the device was replaced by a regular file"
    assert link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["R.sqlite", "null", "to-null"]


@needs_root
def test_the_replay_page_goes_into_a_device(tmp_path):
    dev = _null_device(tmp_path / "null")
    r = patience_here("solve", "klondike", "1", "--tt-mb", "16", "--line", "fast", "--html", str(dev))
    assert r.returncode == 0, r.stderr
    assert stat.S_ISCHR(os.stat(dev).st_mode)


def test_a_fifo_is_written_into(db, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    r = patience_here("export", "--db", str(db), "--out", str(fifo))
    reader.join(10)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert len(got[0].splitlines()) == 4  # the header and three rows


def test_atomic_open_never_renames_over_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    with atomic_open(fifo, "wb") as f:
        f.write(b"abc")
    reader.join(10)
    assert got == [b"abc"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe"]


def test_a_socket_is_refused(tmp_path):
    import socket

    path = tmp_path / "s.sock"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    try:
        with pytest.raises(OutputError, match="socket"):
            check_output(path)
    finally:
        s.close()


# --------------------------------------------------------------------------- names that are not outputs


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
def test_a_side_file_of_a_database_is_refused(db, suffix):
    side = str(db) + suffix
    line = one_line_error(patience_here("export", "--db", str(db), "--out", side))
    assert "SQLite keeps beside the database" in line


def test_html_dash_is_no_file_named_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_line_error(patience_here("solve", "klondike", "1", "--html", "-"))
    assert "'-'" in line
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("command", [("export",), ("report",), ("seeds", "klondike"),
                                     ("batch", "klondike", "--seeds", "1", "--max-nodes", "10")])
def test_an_empty_db_name_is_refused(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    line = one_line_error(patience_here(*command, "--db", ""))
    assert "--db" in line and "empty" in line
    assert os.listdir(tmp_path) == []


# --------------------------------------------------------------------------- databases


@needs_root
def test_batch_refuses_a_device_as_its_database(tmp_path):
    dev = _null_device(tmp_path / "null")
    line = one_line_error(patience_here("batch", "klondike", "--seeds", "1", "--max-nodes", "10", "--db", str(dev),
                                        "--no-progress"))
    assert "not a regular file" in line
    assert os.listdir(tmp_path) == ["null"]  # no null-journal beside it


def _read_only(path):
    """Make ``path`` unwritable for this user: chattr +i as root (mode bits do not bind
    root), chmod otherwise.  Returns the undo."""
    if ROOT_USER:
        r = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
        if r.returncode != 0:
            pytest.skip(f"chattr +i is not available here: {r.stderr.decode().strip()}")
        return lambda: subprocess.run(["chattr", "-i", str(path)], check=True)
    mode = os.stat(path).st_mode
    os.chmod(path, 0o444)
    return lambda: os.chmod(path, mode)


def test_batch_on_a_read_only_database_is_one_line(db):
    with Store(db):  # checkpointed and closed: only the file itself remains
        pass
    before = db.read_bytes()
    undo = _read_only(db)
    try:
        line = one_line_error(patience_here("batch", "klondike", "--seeds", "4", "--max-nodes", "10",
                                            "--db", str(db), "--no-progress", "--workers", "1", "--tt-mb", "16"))
        assert "read-only" in line
        r = patience_here("export", "--db", str(db))  # reading still works
        assert r.returncode == 0 and len(r.stdout.splitlines()) == 4, r.stderr
    finally:
        undo()
    assert db.read_bytes() == before


def test_the_reading_commands_work_in_a_read_only_folder(db, tmp_path):
    with Store(db):
        pass
    folder = tmp_path / "ro"
    folder.mkdir()
    copy = folder / "R.sqlite"
    copy.write_bytes(db.read_bytes())
    undo = _read_only(folder)
    try:
        assert patience_here("export", "--db", str(copy)).returncode == 0
        r = patience_here("seeds", "klondike", "--db", str(copy))
        assert r.returncode == 0 and [x.split()[0] for x in r.stdout.splitlines() if x[0] != "#"] == ["1", "3"]
        r = patience_here("report", "--db", str(copy), "--out", str(tmp_path / "rep"))
        assert r.returncode == 0, r.stderr
    finally:
        undo()
    assert sorted(os.listdir(folder)) == ["R.sqlite"]


@pytest.mark.parametrize("command", [("report",), ("export",), ("seeds", "klondike")])
def test_reading_an_empty_file_leaves_it_empty(tmp_path, command):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    line = one_line_error(patience_here(*command, "--db", str(empty), "--out", str(tmp_path / "out")))
    assert "empty" in line
    assert empty.stat().st_size == 0 and sorted(os.listdir(tmp_path)) == ["empty.sqlite"]


DAMAGES = {
    "rules not JSON": "UPDATE configs SET rules = '{draw: 1'",
    "line not JSON": "UPDATE deals SET line = '[{\"src\": ' WHERE seed = 3",
    "no deals table": "DROP VIEW results; DROP TABLE deals",
    "seed as text": "UPDATE deals SET seed = 'three' WHERE seed = 3",
}


@pytest.mark.parametrize("damage", list(DAMAGES))
@pytest.mark.parametrize("command", [("report",), ("export",), ("seeds", "klondike"),
                                     ("batch", "klondike", "--seeds", "1-4", "--max-nodes", "10", "--no-progress",
                                      "--workers", "1", "--tt-mb", "16")])
def test_a_damaged_database_is_one_line(db, tmp_path, damage, command):
    with sqlite3.connect(db) as conn:
        conn.executescript(DAMAGES[damage])
    conn.close()
    with sqlite3.connect(db) as conn:  # the WAL checkpointed into the file: what "before" reads
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = db.read_bytes()
    out = tmp_path / "out"
    args = [*command, "--db", str(db)] + ([] if command[0] == "batch" else ["--out", str(out)])
    line = one_line_error(patience_here(*args))
    assert str(db) in line and "damaged" in line, line
    assert db.read_bytes() == before
    assert not out.exists()


def test_the_store_reads_a_damaged_line_as_a_store_error(db):
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE deals SET line = 'x' WHERE seed = 3")
    conn.close()
    with pytest.raises(StoreError, match="damaged"):
        Store(db, readonly=True)
