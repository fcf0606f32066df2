"""The package's version, which every stored deal records: written once, in
pyproject.toml, and read from the installed package's metadata (from pyproject.toml
itself when the source is run without being installed)."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "patience-solver"


def pyproject_version(text: str) -> str | None:
    """The ``version`` of the ``[project]`` table of a pyproject.toml's text."""
    project = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    found = project and re.search(r'^version\s*=\s*"([^"]+)"', project.group(1), re.M)
    return found.group(1) if found else None


def package_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        try:
            text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
        except OSError:
            text = ""
        return pyproject_version(text) or "0+unknown"


__version__ = package_version()
