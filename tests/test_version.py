"""The version is written once (pyproject.toml); the package reads it (issue 33)."""

from pathlib import Path

import solver
from solver.core.version import pyproject_version

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_the_package_version_is_pyprojects():
    assert pyproject_version(PYPROJECT.read_text()) == solver.__version__


def test_the_version_is_read_from_the_project_table_only():
    text = '[build-system]\nversion = "9"\n\n[project]\nname = "x"\nversion = "1.2.3"\n\n[tool.x]\nversion = "7"\n'
    assert pyproject_version(text) == "1.2.3"
    assert pyproject_version('[tool.x]\nversion = "7"\n') is None
