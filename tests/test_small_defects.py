"""Issue 24's smaller defects: each test here failed on the code before its fix."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import solver.digest
from cli_helpers import one_line_error, patience, patience_here
from solver import server


# ---------------------------------------------------------------- 1. the resident solver's socket


def test_the_default_socket_is_keyed_to_the_installation(monkeypatch, tmp_path):
    """Another virtual environment or checkout of the same code gets its own server."""
    monkeypatch.delenv("PATIENCE_SERVER", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    here = server.socket_path()
    assert here.parent == tmp_path and here.name.endswith(".sock")
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "other-venv"))
    other_venv = server.socket_path()
    monkeypatch.setattr(solver.digest, "PACKAGE", tmp_path / "other-checkout" / "solver")
    other_checkout = server.socket_path()
    assert len({here, other_venv, other_checkout}) == 3


def test_the_default_socket_without_a_runtime_folder_is_keyed_too(monkeypatch, tmp_path):
    monkeypatch.delenv("PATIENCE_SERVER", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    here = server.socket_path()
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "other-venv"))
    assert server.socket_path() != here and here.parent == tmp_path / "patience-solver"
