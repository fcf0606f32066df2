"""Helpers shared by the tests that run the `patience` command (not a test module)."""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def patience(*args: str, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    """The ``patience`` command in a subprocess, as a user runs it (from the project root)."""
    kw.setdefault("cwd", ROOT)
    return subprocess.run([sys.executable, "-m", "solver", *args], capture_output=True, text=True,
                          timeout=timeout, **kw)


def patience_here(*args: str) -> subprocess.CompletedProcess:
    """The same entry point (``solver.interfaces.cli.run``) in this process: cheap, for error cases.
    An exception escaping ``run()`` (a traceback for the user) fails the test."""
    from solver.interfaces.cli import run

    out, err = io.StringIO(), io.StringIO()
    old_argv = sys.argv
    sys.argv = ["patience", *args]
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            run()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = old_argv
    return subprocess.CompletedProcess(["patience", *args], code, out.getvalue(), err.getvalue())


def one_line_error(r: subprocess.CompletedProcess) -> str:
    """Assert exit 2 with exactly one line on stderr and nothing on stdout; return it."""
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip("\n").splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("patience: error: "), lines[0]
    assert "Traceback" not in r.stderr
    assert r.stdout == ""
    return lines[0]
