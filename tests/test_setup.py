"""``make``'s set-up is quiet (issue 32): the install's own output goes to a log, one line
is printed, and the log is shown only when the install fails.  Run against a stand-in
``python`` that prints what pip prints, so no package is installed."""

from __future__ import annotations

import subprocess

from cli_helpers import ROOT

NOISE = "\n".join(f"WARNING: Location 'file:///opt/x{i}/' is ignored" for i in range(40))


def _fake_venv(tmp_path, status: int):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(f"#!/bin/sh\ncat <<'END'\n{NOISE}\nEND\nexit {status}\n")
    python.chmod(0o755)
    return venv


def _make_setup(venv):
    return subprocess.run(["make", "-s", "-C", str(ROOT), f"VENV={venv}", f"{venv}/.installed-stamp"],
                          capture_output=True, text=True, timeout=60)


def test_a_good_install_prints_one_line_and_keeps_its_log(tmp_path):
    venv = _fake_venv(tmp_path, 0)
    r = _make_setup(venv)
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == 1 and "install.log" in r.stdout, r.stdout
    assert "WARNING" not in r.stdout + r.stderr
    assert (venv / "install.log").read_text().count("WARNING") == 80  # pip upgrade and the install
    assert (venv / ".installed-stamp").exists()


def test_a_failed_install_shows_its_log(tmp_path):
    venv = _fake_venv(tmp_path, 1)
    r = _make_setup(venv)
    assert r.returncode != 0
    assert "WARNING" in r.stdout and "install failed" in r.stdout
    assert not (venv / ".installed-stamp").exists()
