"""``python -m solver``: the ``patience`` command."""

from .interfaces.cli import run

run()
