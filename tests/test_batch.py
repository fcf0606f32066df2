"""Batch runs: storage, resume after SIGINT and SIGKILL, concurrent writers, threads,
processes and a Dask LocalCluster giving the same rows, errors that must stop a batch.

Deals are solved under a node cap (``max_nodes``), so every verdict, reason and node
count is deterministic and rows can be compared with ``solver.solve`` deal by deal.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

import solver
from cli_helpers import one_line_error, patience, patience_here
from solver import batch as batch_fn
from solver.runs.batch import Batch
from solver.engine.resources import default_tt_mb
from solver.core.result import INTERRUPTED, LOST, UNKNOWN, WON, SolveResult, VerificationError
from solver.core.seeds import SeedSpec
from solver.runs.stats import win_rate
from solver.runs.store import Store, config_key

TT = 64
NODES = 20_000  # a few deals of 1-40 hit it: unknown (node-limit) rows too
SEEDS = "1-40"
LONG = "1-150"  # for the interrupted runs: long enough to stop part-way
LONG_NODES = 100_000


def reference(spec: str, max_nodes: int) -> dict[int, tuple]:
    out = {}
    for seed in SeedSpec.of(spec):
        r = solver.solve("klondike", seed, max_nodes=max_nodes, tt_mb=TT)
        out[seed] = (r.verdict, r.reason, r.nodes, len(r.moves), r.proof)
    return out


@pytest.fixture(scope="module")
def ref() -> dict[int, tuple]:
    return reference(SEEDS, NODES)


@pytest.fixture(scope="module")
def ref_long() -> dict[int, tuple]:
    return reference(LONG, LONG_NODES)


def db_rows(path) -> dict[int, tuple]:
    con = sqlite3.connect(path)
    try:
        rows = con.execute("SELECT seed, verdict, reason, nodes, length, proof FROM deals ORDER BY seed").fetchall()
        (n,) = con.execute("SELECT count(*) FROM deals").fetchone()
    finally:
        con.close()
    assert n == len({r[0] for r in rows}), "a seed is stored twice"
    return {r[0]: tuple(r[1:]) for r in rows}


def row_count(path) -> int:
    try:
        con = sqlite3.connect(path, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM deals").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:  # not created yet
        return 0


def integrity(path) -> str:
    con = sqlite3.connect(path)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


# --------------------------------------------------------------------------- the API


def test_reference_has_every_verdict(ref):
    kinds = {v[0] for v in ref.values()}
    assert kinds == {WON, LOST, UNKNOWN}, "pick seeds and a node cap that give won, lost and unknown deals"


@pytest.mark.parametrize("mode", ["threads", "processes"])
def test_batch_yields_every_seed_once_and_stores_it_first(tmp_path, ref, mode):
    db = tmp_path / "r.sqlite"
    seen = []
    for r in batch_fn("klondike", SEEDS, max_nodes=NODES, tt_mb=TT, workers=2, mode=mode, db=db):
        assert isinstance(r, SolveResult)
        assert r.seed in db_rows(db), "a result must be in the database before it is yielded"
        assert (r.verdict, r.reason, r.nodes, len(r.moves), r.proof) == ref[r.seed]
        assert r.verified == (r.verdict == WON)
        seen.append(r.seed)
    assert sorted(seen) == sorted(ref)
    assert db_rows(db) == ref
    # the same batch again: everything is there, nothing is solved
    again = Batch("klondike", SEEDS, max_nodes=NODES, tt_mb=TT, workers=2, mode=mode, db=db)
    assert again.todo == 0 and list(again) == [] and again.solved == 0
    assert sum(again.previous.values()) == len(ref)


def test_stored_line_is_the_winning_line(tmp_path):
    db = tmp_path / "r.sqlite"
    list(batch_fn("klondike", "1", tt_mb=TT, workers=1, mode="threads", db=db))
    con = sqlite3.connect(db)
    verdict, length, line = con.execute("SELECT verdict, length, line FROM deals WHERE seed = 1").fetchone()
    want = solver.solve("klondike", 1, tt_mb=TT)
    assert verdict == WON and length == len(want.moves) > 0
    assert json.loads(line) == [m.to_json() for m in want.moves]


def test_closing_the_generator_then_resuming(tmp_path, ref):
    db = tmp_path / "r.sqlite"
    gen = batch_fn("klondike", SEEDS, max_nodes=NODES, tt_mb=TT, workers=2, mode="threads", db=db)
    first = [next(gen) for _ in range(5)]
    gen.close()
    stored = db_rows(db)
    assert {r.seed for r in first} <= set(stored) and len(stored) < len(ref)
    b = Batch("klondike", SEEDS, max_nodes=NODES, tt_mb=TT, workers=2, mode="threads", db=db)
    assert b.todo == len(ref) - len(stored)
    rest = [r.seed for r in b]
    assert not set(rest) & set(stored), "a seed already stored was solved again"
    assert db_rows(db) == ref


def test_without_db_nothing_is_stored_or_skipped(tmp_path, ref):
    got = {r.seed: (r.verdict, r.reason, r.nodes, len(r.moves), r.proof)
           for r in batch_fn("klondike", range(1, 11), max_nodes=NODES, tt_mb=TT, workers=2, mode="threads")}
    assert got == {s: ref[s] for s in range(1, 11)}
    assert list(tmp_path.iterdir()) == []


def test_configuration_key_covers_rules_numbering_and_caps_not_resources(tmp_path):
    db = tmp_path / "r.sqlite"

    def cid(**kw):
        args = {"max_nodes": NODES, "tt_mb": TT, "workers": 1, "db": db, **kw}
        return Batch("klondike", "1-3", **args).config_id

    base = cid()
    assert cid() == base
    assert cid(timeout=None) == base
    # resources change how fast, not what a result means
    assert cid(tt_mb=TT * 2) == cid(tt_mb=None) == cid(workers=2, tt_mb=None) == cid(mode="processes") == base
    others = [cid(draw=3), cid(passes=3), cid(worry_back=False), cid(numbering="solvitaire"), cid(max_nodes=NODES + 1),
              cid(timeout=60)]
    assert len(set(others)) == len(others) and base not in others
    assert cid(timeout=60.0) == cid(timeout=60)  # normalised
    assert cid(draw=1) == base  # the defaults are the full rule set, given or not
    with Store(db) as store:
        keys = [c for c in store.configs() if c.id == others[0]]
        assert keys[0].rules == {"draw": 3, "passes": "unlimited", "worry_back": True}


def test_interrupted_and_unverified_results_are_never_stored(tmp_path):
    db = tmp_path / "r.sqlite"
    b = Batch("klondike", "1-3", tt_mb=TT, workers=1, db=db)
    cut = SolveResult("klondike", b.rules, "pysolfc", 2, UNKNOWN, INTERRUPTED, 10, 0.1)
    assert b.record(cut) is False
    with pytest.raises(VerificationError):
        b.record(SolveResult("klondike", b.rules, "pysolfc", 3, WON, None, 10, 0.1, verified=False))
    with Store(db) as store:
        assert store.rows(b.config_id) == []
        with pytest.raises(sqlite3.IntegrityError):  # the schema refuses them too
            store.add(b.config_id, cut)
        with pytest.raises(sqlite3.IntegrityError):
            store.add(b.config_id, SolveResult("klondike", b.rules, "pysolfc", 3, WON, None, 10, 0.1))
    b.store.close()


def test_stop_flag_ends_a_search_as_interrupted():
    stop = threading.Event()
    stop.set()
    r = solver.solve("klondike", 12, tt_mb=TT, stop=stop)
    assert (r.verdict, r.reason) == (UNKNOWN, INTERRUPTED)


def test_a_line_that_fails_replay_stops_the_batch_loudly(tmp_path, monkeypatch):
    from solver.games.klondike.game import Klondike

    def reject(position, rules, moves):
        raise ValueError("move 7 is illegal (planted by the test)")

    monkeypatch.setattr(Klondike, "verify", staticmethod(reject))
    db = tmp_path / "r.sqlite"
    with pytest.raises(VerificationError, match="planted by the test"):
        for _ in batch_fn("klondike", SEEDS, max_nodes=NODES, tt_mb=TT, workers=2, mode="threads", db=db):
            pass
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM deals WHERE verdict = 'won'").fetchone()[0] == 0
    con.close()
    r = patience_here("batch", "klondike", "--seeds", "1-5", "--tt-mb", str(TT), "--mode", "threads",
                      "--workers", "1", "--db", str(tmp_path / "cli.sqlite"))
    assert r.returncode == 3 and "BUG" in r.stderr and "planted by the test" in r.stderr


def test_default_tt_mb_fits_the_workers_in_memory(monkeypatch):
    import importlib

    sb = importlib.import_module("solver.engine.resources")  # where the memory probe lives

    monkeypatch.setattr(sb, "physical_memory_mb", lambda: 24 * 1024)  # this machine: 12 GB for tables
    assert default_tt_mb(1) == default_tt_mb(2) == 2048 and default_tt_mb(3) == 2048 and default_tt_mb(4) == 1024 and default_tt_mb(16) == 256
    monkeypatch.setattr(sb, "physical_memory_mb", lambda: 8 * 1024)
    assert default_tt_mb(16) == 128 and default_tt_mb(1000) == 64
    monkeypatch.setattr(sb, "physical_memory_mb", lambda: None)
    assert default_tt_mb(64) == 2048
    # one table and a 1.5 GB stack per worker (Beleaguered Castle), 12 GB to share
    monkeypatch.setattr(sb, "physical_memory_mb", lambda: 24 * 1024)
    assert default_tt_mb(3, 1, 1536) == 2048 and default_tt_mb(4, 1, 1536) == 1024
    assert default_tt_mb(8, 1, 1536) == 64  # the floor: the stacks alone nearly fill the half


def test_batch_counts_the_search_stack_of_beleaguered_castle(monkeypatch):
    import importlib

    from solver.games import get_game

    sb = importlib.import_module("solver.engine.resources")
    monkeypatch.setattr(sb, "physical_memory_mb", lambda: 24 * 1024)
    assert get_game("bc").workspace_mb > 1000
    ws = get_game("bc").workspace_mb  # two stacks: the main search's and its twin's
    assert Batch("bc", "1-2", workers=3).tt_mb == default_tt_mb(3, 2, ws) == 512
    assert Batch("klondike", "1-2", workers=3).tt_mb == 2048  # one table (no looser rules), small stack
    assert Batch("klondike", "1-2", workers=3, draw=3).tt_mb == 1024  # two tables: draw 3 has a relaxation


def test_concurrent_writers_through_the_store(tmp_path):
    db = tmp_path / "r.sqlite"
    key = config_key("klondike", {"draw": 1}, "pysolfc", None, None)
    inserted = []
    errors = []

    def writer():
        try:
            with Store(db) as store:
                cid = store.config_id(key)
                n = 0
                for seed in range(200):
                    n += store.add(cid, SolveResult("klondike", {}, "pysolfc", seed, LOST, None, seed, 0.001))
                inserted.append(n)
        except Exception as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sum(inserted) == 200  # every seed inserted by exactly one writer
    assert len(db_rows(db)) == 200


def test_no_dask_without_a_scheduler():
    code = ("import sys, solver; from solver.interfaces import cli; "
            "rows = list(solver.batch('klondike', '1-3', tt_mb=64, workers=1, mode='threads')); "
            "assert len(rows) == 3; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed', 'matplotlib')]; "
            "assert not bad, bad")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


# --------------------------------------------------------------------------- the command, interrupted


def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out + [g for c in out for g in _children(c)]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig, mode", [
    pytest.param(signal.SIGINT, "processes", id="SIGINT-processes"),
    pytest.param(signal.SIGINT, "threads", id="SIGINT-threads"),
    pytest.param(signal.SIGKILL, "processes", id="SIGKILL-processes"),
])
def test_interrupted_command_resumes_with_every_seed_once(tmp_path, ref_long, sig, mode):
    db = tmp_path / "r.sqlite"
    args = ["batch", "klondike", "--seeds", LONG, "--max-nodes", str(LONG_NODES), "--tt-mb", str(TT),
            "--workers", "2", "--db", str(db)]
    # Ctrl-C as a user at a terminal has it: a suite started in the background (nohup ... &)
    # passes SIGINT on ignored, and Python then raises no KeyboardInterrupt at all
    proc = subprocess.Popen([sys.executable, "-m", "solver", *args, "--mode", mode], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 90
        while row_count(db) < 5 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, f"the batch ended before it could be interrupted: {proc.stderr.read()}"
        family = _children(proc.pid)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if sig == signal.SIGINT:
        assert proc.returncode == 130, err
        assert "interrupted" in err and "resume" in err and "Traceback" not in err
    else:
        assert proc.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 10  # worker processes notice a dead parent and quit
    while any(_alive(p) for p in family) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in family if _alive(p)], "workers outlived the batch"
    assert integrity(db) == "ok"
    stored = db_rows(db)
    assert 5 <= len(stored) < len(ref_long), "interrupted part-way"
    assert stored == {s: ref_long[s] for s in stored}  # what is stored is right
    # the same command again solves exactly the rest
    r = patience(*args, "--mode", "threads")
    assert r.returncode == 0, r.stderr
    assert f"{len(ref_long) - len(stored)} to solve" in r.stderr
    assert f"({len(ref_long) - len(stored)} solved by this run)" in r.stdout
    assert db_rows(db) == ref_long


def test_two_batches_on_one_database_at_once(tmp_path, ref):
    db = tmp_path / "r.sqlite"
    common = ["--max-nodes", str(NODES), "--tt-mb", str(TT), "--workers", "1", "--mode", "threads", "--db", str(db)]
    procs = [subprocess.Popen([sys.executable, "-m", "solver", "batch", "klondike", "--seeds", spec, *common],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for spec in ("1-30", "10-40")]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    assert integrity(db) == "ok"
    assert db_rows(db) == ref


def test_cli_summary_and_resume(tmp_path, ref):
    db = tmp_path / "r.sqlite"
    args = ["batch", "klondike", "--seeds", "1-10", "--max-nodes", str(NODES), "--tt-mb", str(TT),
            "--workers", "2", "--mode", "threads", "--db", str(db)]
    r = patience_here(*args)
    assert r.returncode == 0, r.stderr
    want = [ref[s][0] for s in range(1, 11)]
    won, lost, unknown = want.count(WON), want.count(LOST), want.count(UNKNOWN)
    rate = win_rate(won, lost, unknown)
    assert f"won {won}   lost {lost}   unknown {unknown}" in r.stdout
    interval = f"[{100 * rate.low:.2f}%, {100 * rate.high:.2f}%]"
    if unknown:  # the interval alone, in words, never a point estimate over the decided deals
        assert f"between {100 * rate.low:.2f}% and {100 * rate.high:.2f}%" in r.stdout
    else:
        assert f"{100 * rate.point:.2f}% {interval}" in r.stdout
    assert "(10 solved by this run)" in r.stdout and "median" in r.stdout and "p99" in r.stdout
    r = patience_here(*args[:3], "1-12", *args[4:])
    assert r.returncode == 0 and "2 to solve" in r.stderr and "(2 solved by this run)" in r.stdout


# --------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as c:
        yield c


def test_dask_cluster_gives_the_same_rows_as_a_local_batch(tmp_path, ref, cluster):
    local, remote = tmp_path / "local.sqlite", tmp_path / "dask.sqlite"
    list(batch_fn("klondike", SEEDS, max_nodes=NODES, tt_mb=TT, workers=2, mode="threads", db=local))
    got = list(batch_fn("klondike", SEEDS, max_nodes=NODES, tt_mb=TT, scheduler=cluster, db=remote))
    assert sorted(r.seed for r in got) == sorted(ref)
    assert db_rows(remote) == db_rows(local) == ref
    con_l, con_r = sqlite3.connect(local), sqlite3.connect(remote)
    q = "SELECT seed, line FROM deals ORDER BY seed"
    assert con_l.execute(q).fetchall() == con_r.execute(q).fetchall()  # the same winning lines
    con_l.close()
    con_r.close()


def test_dask_from_the_command_line(tmp_path, ref, cluster):
    db = tmp_path / "r.sqlite"
    address = cluster.scheduler_address
    assert address.startswith("tcp://")
    r = patience_here("batch", "klondike", "--seeds", "1-12", "--max-nodes", str(NODES), "--tt-mb", str(TT),
                      "--scheduler", address, "--db", str(db))
    assert r.returncode == 0, r.stderr
    assert f"Dask cluster {address}" in r.stderr
    assert db_rows(db) == {s: ref[s] for s in range(1, 13)}


def test_bad_scheduler_address_is_one_line(tmp_path):
    pytest.importorskip("distributed")
    line = one_line_error(patience_here("batch", "klondike", "--seeds", "1", "--scheduler", "nonsense://x",
                                        "--db", str(tmp_path / "r.sqlite")))
    assert "cannot reach the Dask scheduler" in line


def test_a_scheduler_without_workers_is_reported_at_once(tmp_path):
    """With no worker the batch would wait silently for one (issue 14): say so first."""
    import select
    import signal
    import time

    distributed = pytest.importorskip("distributed")
    from cli_helpers import ROOT

    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=":0") as empty:
        p = subprocess.Popen([sys.executable, "-m", "solver", "batch", "klondike", "--seeds", "1-3",
                              "--max-nodes", "100", "--scheduler", empty.scheduler_address,
                              "--db", str(tmp_path / "r.sqlite"), "--no-progress"],
                             cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        seen, deadline = "", time.monotonic() + 60
        try:
            while "no workers" not in seen and time.monotonic() < deadline and p.poll() is None:
                ready, _, _ = select.select([p.stderr], [], [], 1)
                if ready:
                    seen += p.stderr.readline()
        finally:
            p.send_signal(signal.SIGINT)
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        assert "has no workers" in seen and "dask worker" in seen, seen
