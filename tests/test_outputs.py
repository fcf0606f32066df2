"""Outputs never overwrite an input or a results database, are checked before the work,
and are written atomically (solver/core/outputs.py; issue 24, "Nothing lost")."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest
from cli_helpers import one_line_error, patience_here

from solver import api
from solver.interfaces import server
from solver.games import get_game
from solver.games.klondike import dealfile
from solver.games.klondike.deals import klondike_deal
from solver.core.outputs import (OutputError, atomic_open, check_output, check_output_folder, is_sqlite_database,
                            same_file, write_text)
from solver.runs.report import write_report
from solver.core.result import SolveResult
from solver.runs.store import Store, config_key


def _leftovers(folder) -> list[str]:
    """Hidden files a write may have left behind (temporary files, probes)."""
    return sorted(n for n in os.listdir(folder) if n.startswith("."))


@pytest.fixture
def db(tmp_path):
    """A small results database: three Klondike deals (two won, one lost), no search needed."""
    path = tmp_path / "R.sqlite"
    rules = get_game("klondike").make_rules().to_json()
    with Store(path) as store:
        config = store.config_id(config_key("klondike", rules, "pysolfc", None, None))
        for seed, verdict in ((1, "won"), (2, "lost"), (3, "won")):
            store.add(config, SolveResult("klondike", rules, "pysolfc", seed, verdict, None, 1000 * seed, 0.01,
                                          verified=verdict == "won", proof=None if verdict == "won" else "search"))
    return path


def _no_search(monkeypatch):
    """Make any search fail the test: a refusal must come before the work."""
    def searched(*_a, **_k):
        raise AssertionError("the search ran before the output was checked")

    monkeypatch.setattr(api, "solve", searched)
    monkeypatch.setattr(server, "solve_remote", searched)


# --------------------------------------------------------------------------- the module


def test_an_existing_sqlite_database_is_recognised_by_its_first_bytes(tmp_path, db):
    other = tmp_path / "notes.txt"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    assert is_sqlite_database(db) and is_sqlite_database(other)
    plain = tmp_path / "plain.txt"
    plain.write_text("SQLite format 3 is not enough")
    assert not is_sqlite_database(plain) and not is_sqlite_database(tmp_path / "missing")
    assert not is_sqlite_database(tmp_path)
    with pytest.raises(OutputError, match="SQLite database"):
        check_output(other)


def test_an_output_may_not_be_an_input_by_any_name(tmp_path):
    deal = tmp_path / "deal.json"
    deal.write_text("{}")
    sub = tmp_path / "sub"
    sub.mkdir()
    (tmp_path / "link.json").symlink_to(deal)
    (tmp_path / "dirlink").symlink_to(tmp_path)
    os.link(deal, tmp_path / "hard.json")
    names = [deal, str(deal), tmp_path / "link.json", tmp_path / "hard.json", sub / ".." / "deal.json",
             tmp_path / "dirlink" / "deal.json", os.path.relpath(deal)]
    for name in names:
        assert same_file(name, deal)
        with pytest.raises(OutputError, match="it is the input"):
            check_output(name, inputs=[None, "-", deal])
    assert deal.read_text() == "{}"
    assert not same_file(tmp_path / "other.json", deal)


def test_allowed_outputs(tmp_path):
    check_output("-", inputs=["-"])  # standard output
    check_output(tmp_path / "new.csv", inputs=[tmp_path / "deal.json"])
    old = tmp_path / "old.csv"
    old.write_text("a plain file may be replaced")
    check_output(old)
    assert _leftovers(tmp_path) == []  # the probe of the folder is gone


@pytest.mark.parametrize("where, message", [
    ("/proc/x.html", "refuses new files"),
    ("/nonexistent/x.html", "no folder"),
])
def test_an_output_in_a_place_that_takes_no_file_is_refused(where, message):
    with pytest.raises(OutputError, match=message):
        check_output(where)


def test_a_folder_is_no_output_file(tmp_path):
    with pytest.raises(OutputError, match="is a folder"):
        check_output(tmp_path)


def test_report_folders(tmp_path, db):
    check_output_folder(tmp_path / "a" / "b", inputs=[db])  # made with its parents
    assert not (tmp_path / "a").exists()
    with pytest.raises(OutputError, match="it is the input"):
        check_output_folder(db, inputs=[db])
    with pytest.raises(OutputError, match="not a folder"):
        check_output_folder(db)
    with pytest.raises(OutputError, match="not a folder"):
        check_output_folder(db / "inside")
    with pytest.raises(OutputError, match="refuses new files"):
        check_output_folder("/proc/report")


def test_atomic_write_leaves_no_temporary_file(tmp_path):
    f = tmp_path / "out.txt"
    write_text(f, "first\n")
    f.chmod(0o640)
    write_text(f, "second\n")
    assert f.read_text() == "second\n"
    assert stat.S_IMODE(f.stat().st_mode) == 0o640  # the old file's permissions are kept
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("error", [OSError("disk full"), KeyboardInterrupt()])
def test_a_failed_write_keeps_the_old_file(tmp_path, error):
    f = tmp_path / "out.txt"
    f.write_text("old\n")
    with pytest.raises(type(error)):
        with atomic_open(f) as out:
            out.write("half of the new")
            raise error
    assert f.read_text() == "old\n"
    assert _leftovers(tmp_path) == []
    with pytest.raises(OSError):
        with atomic_open(tmp_path / "new.txt") as out:
            raise OSError("no space")
    assert not (tmp_path / "new.txt").exists() and _leftovers(tmp_path) == []


def test_a_symbolic_link_is_followed_and_stays_a_link(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_deal_file_is_never_written_over_a_database(db):
    before = db.read_bytes()
    with pytest.raises(OutputError, match="SQLite database"):
        dealfile.dump_deal(klondike_deal(5), db)
    assert db.read_bytes() == before


def test_write_report_checks_every_file_before_writing_any(tmp_path, db):
    out = tmp_path / "report"
    out.mkdir()
    other = out / "report.md"  # another results database where report.md would go
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    before = other.read_bytes()
    with Store(db) as store, pytest.raises(OutputError, match="SQLite database"):
        write_report(store, out)
    assert other.read_bytes() == before
    assert sorted(os.listdir(out)) == ["report.md"]  # no plot was written either


# --------------------------------------------------------------------------- the commands


@pytest.mark.parametrize("command", [("export",), ("export", "--format", "jsonl"), ("seeds", "klondike"),
                                     ("seeds", "klondike", "--lost")])
def test_an_output_over_the_database_is_refused_and_the_database_survives(db, tmp_path, command):
    before = db.read_bytes()
    (tmp_path / "link.sqlite").symlink_to(db)
    os.link(db, tmp_path / "hard.sqlite")
    for out in (db, tmp_path / "link.sqlite", tmp_path / "hard.sqlite"):
        line = one_line_error(patience_here(*command, "--db", str(db), "--out", str(out)))
        assert "refusing to write" in line and "it is the input" in line
        assert db.read_bytes() == before
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("command", [("export",), ("seeds", "klondike")])
def test_an_output_over_another_database_is_refused(db, tmp_path, command):
    other = tmp_path / "other-results.sqlite"
    other.write_bytes(db.read_bytes())
    line = one_line_error(patience_here(*command, "--db", str(db), "--out", str(other)))
    assert "SQLite database" in line
    assert other.read_bytes() == db.read_bytes()


def test_the_default_database_is_an_input_too(db, monkeypatch):
    monkeypatch.setenv("PATIENCE_DB", str(db))
    before = db.read_bytes()
    for command in (("export",), ("seeds", "klondike")):
        one_line_error(patience_here(*command, "--out", str(db)))
    assert db.read_bytes() == before


def test_outputs_still_go_to_standard_output_and_to_new_files(db, tmp_path):
    r = patience_here("export", "--db", str(db), "--out", "-")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 4, r
    r = patience_here("seeds", "klondike", "--db", str(db))
    assert r.returncode == 0 and [x.split()[0] for x in r.stdout.splitlines() if x[0] != "#"] == ["1", "3"]
    out = tmp_path / "rows.csv"
    out.write_text("an old export\n")
    r = patience_here("export", "--db", str(db), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert len(out.read_text().splitlines()) == 4
    assert _leftovers(tmp_path) == []


def test_an_export_that_fails_half_way_keeps_the_old_file(db, tmp_path, monkeypatch):
    import solver.interfaces.cli

    def half(store, fmt, out):
        out.write("a first row\n")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(solver.interfaces.cli, "_write_export", half)
    out = tmp_path / "rows.csv"
    out.write_text("the old export\n")
    line = one_line_error(patience_here("export", "--db", str(db), "--out", str(out)))
    assert "No space left on device" in line
    assert out.read_text() == "the old export\n"
    assert _leftovers(tmp_path) == []


def test_solve_never_writes_its_page_over_its_deal_file(tmp_path, monkeypatch):
    _no_search(monkeypatch)
    deal = tmp_path / "same.json"
    dealfile.dump_deal(klondike_deal(5), deal)
    before = deal.read_bytes()
    line = one_line_error(patience_here("solve", "klondike", "--deal", str(deal), "--html", str(deal)))
    assert "it is the input" in line
    assert deal.read_bytes() == before


def test_solve_never_writes_its_page_over_a_database(db, monkeypatch):
    _no_search(monkeypatch)
    before = db.read_bytes()
    line = one_line_error(patience_here("solve", "klondike", "1", "--html", str(db)))
    assert "SQLite database" in line
    assert db.read_bytes() == before


@pytest.mark.parametrize("where", ["/proc/x.html", "/nonexistent/x.html"])
def test_solve_refuses_an_unwritable_page_before_the_search(where, monkeypatch):
    _no_search(monkeypatch)  # deal 1 without limits: a long search, were it to start
    line = one_line_error(patience_here("solve", "klondike", "1", "--html", where))
    assert where in line


def test_report_never_writes_over_its_database(db, tmp_path):
    before = db.read_bytes()
    one_line_error(patience_here("report", "--db", str(db), "--out", str(db)))  # click refuses a file already
    inside = tmp_path / "dir"
    inside.mkdir()
    named = inside / "report.md"  # a database named as the report's own file
    named.write_bytes(before)
    line = one_line_error(patience_here("report", "--db", str(named), "--out", str(inside)))
    assert "report.md" in line
    assert db.read_bytes() == before and named.read_bytes() == before
    assert sorted(os.listdir(inside)) == ["report.md"]
    one_line_error(patience_here("report", "--db", str(db), "--out", "/proc/report"))
