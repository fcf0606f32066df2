"""The resident solver: one process that keeps the search kernels loaded between commands.

A fresh ``patience solve`` spends about half a second in numba before its first node
(importing it, then loading the kernel from its cache: ``results/cli-startup.md``),
for a search that usually takes milliseconds.  ``patience server start`` runs this
module in the background; from then on ``patience solve`` sends its request over a
UNIX socket and prints the answer exactly as if it had solved in its own process, and
imports no numba.  When no server answers (none started, another version of the code,
or busy with another solve) the command solves in its own process as before, so the
server only ever saves time: it never changes a verdict, a line or an exit code.

The socket: ``$PATIENCE_SERVER`` if set (``off``: never use a server), else
``$XDG_RUNTIME_DIR/patience-solver-ID.sock``, else ``~/.cache/patience-solver/server-ID.sock``
(its folder is made private to the user).  ID names the installation (``installation_id``:
the Python environment's prefix and the package's folder), so a server serves only the
commands of the checkout and environment that started it: another checkout or venv of the
same code (a measuring harness, say) finds no server of its own and solves by itself.

Wire protocol: newline-delimited JSON objects on one connection per request.

    | from   | object                                          | meaning                     |
    |--------|-------------------------------------------------|-----------------------------|
    | client | {"call": "solve", "digest", "game", "seed",     | solve as api.solve would    |
    |        |  "numbering", "deal", "options", "max_nodes",   | ("deal": a deal file's JSON |
    |        |  "timeout", "tt_mb", "line"}                    | object, or null for a seed; |
    |        |                                                 | "line": fast or short)      |
    | server | {"accepted": true}                              | the solve has started       |
    | client | {"stop": true} (after "solve")                  | Ctrl-C: end the search      |
    | server | {"progress": {"nodes", "stored", "seconds",     | after slices, at most 4/s   |
    |        |  "best_cards"}}                                 |                             |
    | server | {"result": SolveResult.to_json() + stored_states} | the answer           |
    | server | {"error": KIND, "message": TEXT}                | KIND: usage, verification,  |
    |        | (usage naming an option: also "option": KEY,   | version, busy, internal      |
    |        |  "text": errors.OptionError's text)             |                             |
    | client | {"call": "status"} / {"call": "shutdown"}       | -> {"status": {...}} / exit |

The server solves one request at a time (the kernels' workspaces and tables are per
thread and slot, see kernel_search.table_for); a request that arrives meanwhile, or
while the kernels load, gets "busy" and is solved by its own command.  Each solve runs
in a new thread, so its tables are freed when it ends.  The command never waits on a
server that does not answer: it solves itself when a request is not accepted within
2 s or a running solve goes silent (the server reports after every slice), and after
Ctrl-C it waits 5 s for the interrupted result.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from ..core.digest import source_digest
from ..core.numbering import PYSOLFC

ENV = "PATIENCE_SERVER"
PROGRESS_EVERY = 0.25  # seconds between progress messages


class ServerError(ValueError):
    """Bad input the server found, or a server that cannot start: the command reports it
    as it reports its own bad input (a ValueError: one line, exit 2)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _private_folder(path: Path) -> None:
    """Make the default socket's folder, private to the user.  A folder named by
    ``$PATIENCE_SERVER`` must exist: a typo there should not create folders."""
    if path != _default_path():
        if not path.parent.is_dir():
            raise ServerError("usage", f"no folder {str(path.parent)!r} for the socket {str(path)!r} "
                                       f"(${ENV} names a socket in an existing folder)")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)


def socket_path() -> Path | None:
    """Where the resident solver listens, or None when ``$PATIENCE_SERVER`` is ``off``
    (a relative path is taken from the current folder, once, as an absolute one)."""
    value = os.environ.get(ENV)
    if value:
        return None if value.lower() == "off" else Path(value).absolute()
    return _default_path()


def installation_id() -> str:
    """8 hex digits naming this installation: ``sys.prefix`` (the virtual environment or
    Python) and the folder the ``solver`` package is imported from."""
    import hashlib

    from ..core.digest import PACKAGE

    where = f"{os.path.realpath(sys.prefix)}\0{PACKAGE}"
    return hashlib.sha256(where.encode()).hexdigest()[:8]


def _default_path() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    name = installation_id()
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / f"patience-solver-{name}.sock"
    return (Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "patience-solver"
            / f"server-{name}.sock")


# ---------------------------------------------------------------- the client side


def _connect(path: Path | None, timeout: float = 2.0) -> socket.socket | None:
    if path is None or not path.exists():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(str(path))
    except OSError:  # a socket file left by a server that died
        sock.close()
        return None
    return sock


def _send(sock: socket.socket, obj: dict) -> None:
    """One message; a closed peer raises OSError, never SIGPIPE (the CLI restores SIGPIPE's
    default action for ``patience ... | head``, which would kill the process)."""
    sock.sendall((json.dumps(obj) + "\n").encode(), getattr(socket, "MSG_NOSIGNAL", 0))


class _Lines:
    """Newline-delimited JSON objects from a socket (None at end of stream)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.buf = sock, b""

    def next(self) -> dict | None:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 16)  # socket.timeout propagates to the caller
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)


def call(obj: dict, path: Path | None = None, timeout: float = 2.0) -> dict | None:
    """One request and its one answer (status, shutdown); None if no server answers."""
    sock = _connect(path if path is not None else socket_path(), timeout)
    if sock is None:
        return None
    try:
        _send(sock, obj)
        return _Lines(sock).next()
    except (OSError, ValueError):
        return None
    finally:
        sock.close()


ACCEPT_WAIT = 2.0  # seconds for the server to take a request before the command solves it itself
SILENCE = 120.0  # seconds without a message: the server is taken for gone (it reports every slice)
STOP_WAIT = 5.0  # seconds after Ctrl-C for the interrupted result before the command gives up


def solve_remote(request: dict, progress: Callable[[Any], None] | None = None,
                 stop: threading.Event | None = None, path: Path | None = None,
                 digest: str | None = None) -> dict | None:
    """Have the resident solver solve ``request`` (the keys of the "solve" row above,
    without call and digest); returns the result's JSON, or None when no server of this
    code is free to (then the caller solves in its own process).  Raises what solving
    here would raise: ServerError (a ValueError) for bad input, VerificationError for a
    line the reference engine rejected; and KeyboardInterrupt when a stopped search's
    answer does not come.  ``digest`` (tests):
    the code version to claim, this code's by default."""
    sock = _connect(path if path is not None else socket_path())
    if sock is None:
        return None
    from ..engine.search import Status

    try:
        _send(sock, {"call": "solve", "digest": digest or source_digest(), **request})
        sock.settimeout(0.1)
        lines = _Lines(sock)
        accepted = False
        stopped_at = None
        heard = time.monotonic()
        while True:
            now = time.monotonic()
            if stop is not None and stop.is_set() and stopped_at is None:
                stopped_at = now
                if accepted:
                    _send(sock, {"stop": True})
            if stopped_at is not None and now - stopped_at > STOP_WAIT:
                raise KeyboardInterrupt  # the server does not answer: give up
            if not accepted and now - heard > ACCEPT_WAIT:
                return None  # a stuck server: solve here
            if accepted and now - heard > SILENCE:
                print("patience: the resident solver stopped answering; solving here", file=sys.stderr)
                return None
            try:
                msg = lines.next()
            except socket.timeout:
                continue
            heard = time.monotonic()
            if msg is None:
                return None  # the server went away: solve here
            if msg.get("accepted"):
                accepted = True
                if stopped_at is not None:
                    _send(sock, {"stop": True})
            elif "progress" in msg:
                if progress is not None:
                    progress(Status(**msg["progress"]))
            elif "result" in msg:
                return msg["result"]
            elif msg.get("error") == "verification":
                from ..core.result import VerificationError

                raise VerificationError(msg.get("message", ""))
            elif msg.get("error") == "usage":
                if msg.get("option") is not None:  # the client names the option its own way
                    from ..core.errors import OptionError

                    raise OptionError(msg["option"], msg.get("text", ""))
                raise ServerError("usage", msg.get("message", ""))
            else:  # version, busy, internal: solve here
                if msg.get("error") == "version":
                    print("patience: the resident solver runs other code (restart it: patience server "
                          "restart); solving here", file=sys.stderr)
                elif msg.get("error") == "internal":
                    print(f"patience: the resident solver failed ({msg.get('message')}); solving here",
                          file=sys.stderr)
                return None
    except (OSError, json.JSONDecodeError):  # a broken connection or line: solve here
        return None
    finally:
        sock.close()


def status(path: Path | None = None) -> dict | None:
    """The running server's status (pid, digest, ready, busy, solves, uptime), or None."""
    answer = call({"call": "status"}, path)
    return None if answer is None else answer.get("status")


def log_path(path: Path) -> Path:
    """The server's log, beside its socket."""
    return path.with_name(path.stem + ".log")


def start(path: Path | None = None, wait: float = 900.0, waiting: Callable[[], None] = lambda: None) -> dict:
    """Start a resident solver in the background unless one answers on ``path``, and
    wait until it has loaded every kernel (compiling them the first time: minutes).
    Returns its status; raises ServerError if it cannot start."""
    import subprocess

    path = path if path is not None else socket_path()
    if path is None:
        raise ServerError("usage", f"{ENV}=off: no socket for a server")
    running = status(path)
    if running is not None and running.get("digest") == source_digest():
        return running
    if running is not None:
        raise ServerError("usage", f"a server of other code (pid {running.get('pid')}) listens on {path}: "
                                   f"stop it first (patience server stop)")
    try:
        _private_folder(path)
        log_file = log_path(path)
        before = log_file.stat().st_size if log_file.exists() else 0
        with open(log_file, "ab") as log:
            proc = subprocess.Popen([sys.executable, "-m", "solver.interfaces.server", str(path)], stdin=subprocess.DEVNULL,
                                    stdout=log, stderr=log, start_new_session=True)
    except OSError as err:
        raise ServerError("usage", f"cannot start a server on {path}: {err.strerror or err}") from None
    began = time.monotonic()
    told = False
    while time.monotonic() < began + wait:
        if proc.poll() is not None:
            with open(log_file, "rb") as f:
                f.seek(before)
                tail = f.read().decode(errors="replace").strip().splitlines()[-1:]
            raise ServerError("usage", f"the server exited with code {proc.returncode} "
                                       f"({tail[0] if tail else 'nothing in its log'})")
        running = status(path)
        if running is not None and running.get("ready"):
            return running
        if not told and time.monotonic() > began + 1:  # a compile or a slow machine
            waiting()
            told = True
        time.sleep(0.2)
    raise ServerError("usage", f"the server did not get ready in {wait:.0f} s (log: {log_path(path)})")


def stop(path: Path | None = None, wait: float = 30.0) -> bool:
    """Ask the server on ``path`` to exit; a solve it is running ends as interrupted (its
    command prints that).  False if no server runs."""
    path = path if path is not None else socket_path()
    if call({"call": "shutdown"}, path) is None:
        return False
    deadline = time.monotonic() + wait
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    return True


# ---------------------------------------------------------------- the server side


def warm_all(log: Callable[[str], None]) -> None:
    """Load every game's kernels (compiling them if numba's cache lacks them)."""
    from ..runs.executors import ensure_warm
    from ..games import game_names, get_game

    for name in game_names():
        g = get_game(name)
        for preset in g.presets or (None,):
            options = {"rules": preset} if preset else {}
            t = time.perf_counter()
            ensure_warm(name, 1, PYSOLFC, options)
            log(f"loaded {name}{' ' + preset if preset else ''} in {time.perf_counter() - t:.2f} s")


class Server:
    """Accepts connections on ``path`` and answers them (see the module docstring).

    It answers status and shutdown at once, also while it loads the kernels (``ready``
    is False then, and a solve gets "busy"); a malformed request gets an error and the
    server goes on."""

    def __init__(self, path: Path, log: Callable[[str], None] = lambda s: None) -> None:
        self.path, self.log = path, log
        self.started = time.time()
        self.ready = False
        self.solves = 0
        self.running = False  # a solve is under way (set and cleared by this class only)
        self.current_stop: threading.Event | None = None
        self.worker: threading.Thread | None = None
        self.closing = threading.Event()

    def _bind(self) -> socket.socket:
        """Listen on the path: only a dead socket file there is replaced, never a file."""
        import stat

        try:
            _private_folder(self.path)
        except ServerError as err:
            raise SystemExit(f"patience: {err}") from None
        if _connect(self.path) is not None:
            raise SystemExit(f"patience: a server already listens on {self.path}")
        if self.path.exists() or self.path.is_symlink():
            if not stat.S_ISSOCK(self.path.lstat().st_mode):
                raise SystemExit(f"patience: {self.path} exists and is not a socket")
            self.path.unlink()  # left by a server that died
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o077)  # private from the start: no window before a chmod
        try:
            listener.bind(str(self.path))
        finally:
            os.umask(old)
        self.inode = self.path.stat().st_ino
        listener.listen(16)
        listener.settimeout(0.5)
        return listener

    def serve(self, warm: bool = True) -> None:
        listener = self._bind()
        self.log(f"listening on {self.path} (pid {os.getpid()}, code {source_digest()})")

        def load() -> None:
            try:
                if warm:
                    warm_all(self.log)
                self.ready = True
                self.log("ready")
            except Exception as err:  # noqa: BLE001 - reported, and the server stops
                self.log(f"loading the kernels failed: {err!r}")
                self.closing.set()

        threading.Thread(target=load, daemon=True).start()
        try:
            while not self.closing.is_set():
                try:
                    conn, _ = listener.accept()
                except socket.timeout:
                    continue
                except OSError as err:  # e.g. out of file descriptors: wait and go on
                    self.log(f"accept failed: {err}")
                    time.sleep(0.5)
                    continue
                try:
                    self._dispatch(conn)
                except Exception as err:  # noqa: BLE001 - one bad request never ends the server
                    self.log(f"request failed: {err!r}")
                    self._reply(conn, {"error": "internal", "message": str(err) or repr(err)})
        finally:
            listener.close()
            try:
                if self.path.stat().st_ino == self.inode:  # ours, not a newer server's
                    self.path.unlink()
            except OSError:
                pass
            if self.current_stop is not None:
                self.current_stop.set()  # a solve under way ends as interrupted ...
            if self.worker is not None:
                self.worker.join(30)  # ... and its client gets that answer
            self.log("stopped")

    def _dispatch(self, conn: socket.socket) -> None:
        conn.settimeout(5.0)
        lines = _Lines(conn)
        try:
            msg = lines.next()
        except (OSError, ValueError):
            conn.close()
            return
        if not isinstance(msg, dict):
            self._reply(conn, {"error": "usage", "message": "a request is one JSON object"})
            return
        call_ = msg.get("call")
        if call_ == "status":
            self._reply(conn, {"status": {"pid": os.getpid(), "digest": source_digest(), "ready": self.ready,
                                          "busy": self.running, "solves": self.solves,
                                          "uptime": round(time.time() - self.started, 1)}})
        elif call_ == "shutdown":
            self.closing.set()
            self._reply(conn, {"status": {"stopping": True}})
        elif call_ == "solve":
            if msg.get("digest") != source_digest():
                self._reply(conn, {"error": "version", "message": f"the server runs code {source_digest()}"})
            elif self.running or not self.ready:
                self._reply(conn, {"error": "busy", "message": "another solve is running, or the kernels load"})
            else:
                self.solves += 1
                self.running = True
                self.current_stop = threading.Event()
                _send(conn, {"accepted": True})
                self.worker = threading.Thread(target=self._solve, args=(conn, lines, msg, self.current_stop),
                                               daemon=True)
                self.worker.start()
        else:
            self._reply(conn, {"error": "usage", "message": f"unknown call {call_!r}"})

    @staticmethod
    def _reply(conn: socket.socket, obj: dict) -> None:
        try:
            _send(conn, obj)
            conn.shutdown(socket.SHUT_RDWR)  # also wakes a thread blocked reading it
        except OSError:
            pass
        conn.close()

    def _solve(self, conn: socket.socket, lines: _Lines, msg: dict, stop: threading.Event) -> None:
        lock = threading.Lock()
        answer: dict = {"error": "internal", "message": "the solve did not finish"}
        try:
            def watch() -> None:  # a stop message, or the client gone, ends the search
                try:
                    while not stop.is_set():
                        m = lines.next()
                        if m is None or (isinstance(m, dict) and m.get("stop")):
                            break
                except (OSError, ValueError):
                    pass
                stop.set()

            last = [time.perf_counter()]

            def progress(s: Any) -> None:
                now = time.perf_counter()
                if now - last[0] < PROGRESS_EVERY:
                    return
                last[0] = now
                with lock:
                    try:
                        _send(conn, {"progress": s._asdict()})
                    except OSError:
                        stop.set()

            conn.settimeout(None)
            threading.Thread(target=watch, daemon=True).start()
            t = time.perf_counter()
            try:
                answer = {"result": self._result(msg, stop, progress)}
            except Exception as err:  # noqa: BLE001 - every failure goes back to the client
                from ..core.errors import OptionError
                from ..core.result import VerificationError

                kind = ("verification" if isinstance(err, VerificationError)
                        else "usage" if isinstance(err, ValueError) else "internal")
                answer = {"error": kind, "message": str(err) or repr(err)}
                if isinstance(err, OptionError):
                    answer.update(option=err.option, text=err.text)
            verdict = answer["result"]["verdict"] if "result" in answer else answer["error"]
            self.log(f"solved {_request_name(msg)}: {verdict} in {time.perf_counter() - t:.3f} s")
        finally:
            with lock:
                stop.set()
                self._reply(conn, answer)
            self.running = False

    @staticmethod
    def _result(msg: dict, stop: threading.Event, progress: Callable[[Any], None]) -> dict:
        from .. import api
        from ..games import adapter_for, get_game

        options = dict(msg.get("options") or {})  # the rules as data (Rules.to_json), made once here
        if msg.get("deal") is not None:
            front = get_game(msg["game"])
            rules = front.make_rules(**options)
            g = adapter_for(front.name, rules)
            where = {"dealt": (g, rules, g.deal_from_json(msg["deal"], rules))}
        else:
            where = {"game": msg["game"], "seed": msg.get("seed"), **options}
        result = api.solve(numbering=msg.get("numbering") or PYSOLFC, max_nodes=msg.get("max_nodes"),
                           timeout=msg.get("timeout"), tt_mb=msg["tt_mb"], stop=stop, progress=progress,
                           line=msg.get("line", "fast"), **where)
        return {**result.to_json(), "stored_states": result.stored_states}


def _request_name(msg: dict) -> str:
    """A solve request in the log: "klondike 15 (pysolfc)", or "klondike (a deal file)"."""
    game = msg.get("game")
    if msg.get("seed") is None:
        return f"{game} (a deal file)" if msg.get("deal") is not None else f"{game} (no seed)"
    return f"{game} {msg['seed']} ({msg.get('numbering') or PYSOLFC})"


def main(argv: list[str] | None = None) -> None:
    """``python -m solver.interfaces.server [SOCKET]``: serve in the foreground, logging to stderr."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else socket_path()
    if path is None:
        raise SystemExit(f"patience: {ENV}=off: no socket to serve on")

    def log(text: str) -> None:
        print(f"{time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)

    Server(path, log).serve()


if __name__ == "__main__":
    main()
