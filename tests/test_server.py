"""The resident solver (solver/interfaces/server.py): same answers as a solve in process, never a
different verdict, and every way it can be unavailable falls back to solving here."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cli_helpers import ROOT, patience
from solver.interfaces import server
from solver.core.result import SolveResult


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """A server in a thread of this process, with the kernels the timed waits below use
    loaded first (a compile inside a solve would outlast them)."""
    from solver.runs.executors import ensure_warm

    for game in ("windmill", "klondike"):
        ensure_warm(game, 1, "pysolfc", {})
    path = Path(tmp_path_factory.mktemp("srv")) / "s.sock"
    srv = server.Server(path)
    thread = threading.Thread(target=srv.serve, kwargs={"warm": False}, daemon=True)
    thread.start()
    for _ in range(100):
        if server.status(path) is not None:
            break
        time.sleep(0.05)
    yield srv, path
    srv.closing.set()
    thread.join(10)
    assert not path.exists(), "the socket is removed on exit"


def _env(path) -> dict:
    return {**os.environ, "PATIENCE_SERVER": str(path)}


def _same(a: dict, b: dict) -> None:
    a, b = dict(a), dict(b)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


@pytest.mark.parametrize("args", [["klondike", "1", "--draw", "3", "--line", "fast"], ["bc", "5", "--max-nodes", "20000"],
                                  ["windmill", "1", "--rules", "strict", "--max-nodes", "3000"]])
def test_json_through_the_server_equals_the_solve_in_process(running, args):
    srv, path = running
    before = srv.solves
    here = patience("solve", *args, "--json")
    there = patience("solve", *args, "--json", env=_env(path))
    assert here.returncode == there.returncode == 0, there.stderr
    assert srv.solves == before + 1, "the server answered"
    _same(json.loads(here.stdout), json.loads(there.stdout))


def test_the_line_mode_goes_through_the_server(running):
    srv, path = running
    before = srv.solves
    there = json.loads(patience("solve", "klondike", "15", "--json", "--line", "short", env=_env(path)).stdout)
    assert srv.solves == before + 1, "the server answered"
    assert there["line"] == "short" and len(there["moves"]) < there["line_found_length"]
    fast = json.loads(patience("solve", "klondike", "15", "--json", "--line", "fast", env=_env(path)).stdout)
    assert fast["line"] == "fast" and len(fast["moves"]) == fast["line_found_length"] == there["line_found_length"]


def test_text_output_and_deal_file_through_the_server(running, tmp_path):
    srv, path = running
    deal = tmp_path / "gw.json"
    assert patience("deal", "great-wheel", "3", "--json").returncode == 0
    deal.write_text(patience("deal", "great-wheel", "3", "--json").stdout)
    before = srv.solves
    here = patience("solve", "great-wheel", "--deal", str(deal), "--line", "fast")
    there = patience("solve", "great-wheel", "--deal", str(deal), "--line", "fast", env=_env(path))
    assert srv.solves == before + 1
    drop = lambda text: [ln for ln in text.splitlines() if not ln.startswith("nodes:")]  # noqa: E731
    assert drop(here.stdout) == drop(there.stdout) and "verdict: won" in there.stdout


def test_a_solve_through_the_server_imports_no_numba(running):
    srv, path = running
    code = ("import sys\nfrom solver.interfaces.cli import main\n"
            "try:\n    main(['solve', 'klondike', '1', '--json'])\nexcept SystemExit as e:\n    assert not e.code\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n")
    before = srv.solves
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(path), cwd=ROOT,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["verdict"] == "won" and srv.solves == before + 1


LONG = {"game": "windmill", "seed": 2, "numbering": "pysolfc", "deal": None, "options": {},
        "max_nodes": None, "timeout": 60, "tt_mb": 64}


def _wait(predicate, seconds=30.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_stop_interrupts_and_a_busy_server_sends_the_next_request_home(running):
    srv, path = running
    stop = threading.Event()
    out: dict = {}
    t = threading.Thread(target=lambda: out.update(server.solve_remote(LONG, stop=stop, path=path) or {}))
    t.start()
    assert _wait(lambda: (server.status(path) or {}).get("busy"))
    quick = dict(LONG, game="klondike", seed=1, timeout=None)
    assert server.solve_remote(quick, path=path) is None, "busy: solve it in the command's own process"
    stop.set()
    t.join(30)
    result = SolveResult.from_json(out)
    assert (result.verdict, result.reason) == ("unknown", "interrupted")
    assert _wait(lambda: not server.status(path)["busy"])


def test_a_client_that_goes_away_ends_its_search(running):
    srv, path = running
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(path))
    sock.sendall((json.dumps({"call": "solve", "digest": server.source_digest(), **LONG}) + "\n").encode())
    assert _wait(lambda: server.status(path)["busy"])
    sock.close()
    assert _wait(lambda: not server.status(path)["busy"]), "the search stops when its client is gone"


def test_other_code_or_bad_requests_are_refused(running, capsys):
    srv, path = running
    assert server.call({"call": "solve", "digest": "0" * 16, **LONG}, path)["error"] == "version"
    assert server.call({"call": "nonsense"}, path)["error"] == "usage"
    with pytest.raises(server.ServerError) as err:
        server.solve_remote(dict(LONG, game="no-such-game"), path=path)
    assert err.value.kind == "usage"
    assert server.solve_remote(LONG, path=path, digest="f" * 16) is None  # the command solves it itself
    assert "resident solver runs other code" in capsys.readouterr().err


def test_no_server_means_solving_here(tmp_path, monkeypatch):
    stale = tmp_path / "stale.sock"
    stale.write_text("")  # a socket file whose server died
    assert server.solve_remote(LONG, path=stale) is None
    assert server.solve_remote(LONG, path=tmp_path / "absent.sock") is None
    monkeypatch.setenv("PATIENCE_SERVER", "off")
    assert server.socket_path() is None
    r = patience("solve", "klondike", "1", env={**os.environ, "PATIENCE_SERVER": str(stale)})
    assert r.returncode == 0 and "verdict: won" in r.stdout


def test_start_status_stop_commands(tmp_path):
    env = _env(tmp_path / "cmd.sock")
    r = patience("server", "start", env=env, timeout=900)
    assert r.returncode == 0, r.stderr
    try:
        st = patience("server", "status", env=env)
        assert st.returncode == 0 and "this code, ready, idle" in st.stdout
        assert patience("server", "start", env=env).returncode == 0  # already running: fine
        solved = patience("solve", "klondike", "2", env=env)
        assert solved.returncode == 0
        assert "1 solve in" in patience("server", "status", env=env).stdout
    finally:
        assert patience("server", "stop", env=env).stdout.strip() == "stopped"
    gone = patience("server", "status", env=env)
    assert gone.returncode == 1 and "no resident solver" in gone.stdout


def test_writing_to_a_client_that_left_raises_instead_of_killing(tmp_path):
    """With SIGPIPE at its default action (as cli.run sets it), a send to a closed peer
    must be an OSError, not the end of the process."""
    import signal

    a, b = socket.socketpair()
    b.close()
    previous = signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        with pytest.raises(OSError):
            for _ in range(3):
                server._send(a, {"progress": {}})
    finally:
        signal.signal(signal.SIGPIPE, previous)
        a.close()


def test_a_malformed_request_gets_an_error_and_the_server_goes_on(running):
    srv, path = running
    for raw in (b"[1]\n", b"not json\n", b"{}\n"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(str(path))
        sock.sendall(raw)
        sock.settimeout(5)
        try:
            sock.recv(4096)
        finally:
            sock.close()
    assert server.status(path)["ready"]


def _serve_in_thread(srv):
    thread = threading.Thread(target=srv.serve, daemon=True)
    thread.start()
    assert _wait(lambda: server.status(srv.path) is not None)
    return thread


def test_while_the_kernels_load_it_answers_and_sends_solves_home(tmp_path, monkeypatch):
    gate = threading.Event()
    monkeypatch.setattr(server, "warm_all", lambda log: gate.wait(30))
    srv = server.Server(tmp_path / "w.sock")
    thread = _serve_in_thread(srv)
    try:
        assert server.status(srv.path)["ready"] is False
        t = time.monotonic()
        assert server.solve_remote(dict(LONG, game="klondike", seed=1, timeout=None), path=srv.path) is None
        assert time.monotonic() - t < 2, "a loading server says busy at once"
        gate.set()
        assert _wait(lambda: server.status(srv.path)["ready"])
    finally:
        gate.set()
        assert server.stop(srv.path)
        thread.join(10)


def test_stopping_the_server_interrupts_its_solve_and_answers_it(tmp_path):
    srv = server.Server(tmp_path / "s2.sock")
    thread = threading.Thread(target=srv.serve, kwargs={"warm": False}, daemon=True)
    thread.start()
    assert _wait(lambda: (server.status(srv.path) or {}).get("ready"))
    out: dict = {}
    t = threading.Thread(target=lambda: out.update(server.solve_remote(LONG, path=srv.path) or {}))
    t.start()
    assert _wait(lambda: server.status(srv.path)["busy"])
    assert server.stop(srv.path)
    t.join(30)
    thread.join(30)
    assert (out.get("verdict"), out.get("reason")) == ("unknown", "interrupted")
    assert not srv.path.exists()


def test_a_server_that_never_answers_is_left_after_two_seconds(tmp_path):
    path = tmp_path / "mute.sock"
    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mute.bind(str(path))
    mute.listen(1)  # accepts (in the kernel's backlog) and never reads or writes
    try:
        t = time.monotonic()
        assert server.solve_remote(LONG, path=path) is None
        assert time.monotonic() - t < 5
    finally:
        mute.close()


def test_a_file_that_is_not_a_socket_is_never_replaced(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("mine")
    with pytest.raises(SystemExit):
        server.Server(path).serve(warm=False)
    assert path.read_text() == "mine"
