"""The package's version (as pyproject.toml gives it), which every stored deal records."""

__version__ = "0.1.0"
