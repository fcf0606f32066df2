"""Test-wide settings: no resident solver answers a test unless the test starts its own
(a developer's running ``patience server`` must not decide what the tests see).  The
tests that tests/fast.txt names are marked ``fast``: the fast tier (``make test-fast``,
``pytest -m fast``)."""

import os
from pathlib import Path

os.environ["PATIENCE_SERVER"] = "off"

FAST_LIST = Path(__file__).with_name("fast.txt")


def fast_prefixes(text: str) -> list[str]:
    """The node-id prefixes a fast-tier list names (comments and blank lines left out)."""
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def named_by(nodeid: str, prefix: str) -> bool:
    """Whether ``prefix`` (a file, a test, or a parametrized case) names test ``nodeid``."""
    return nodeid == prefix or nodeid.startswith(prefix + "::") or nodeid.startswith(prefix + "[")


def pytest_configure(config):
    config.addinivalue_line("markers", "fast: the fast tier, named in tests/fast.txt (make test-fast)")


def pytest_collection_modifyitems(config, items):
    import pytest

    prefixes = fast_prefixes(FAST_LIST.read_text())
    for item in items:
        if any(named_by(item.nodeid, p) for p in prefixes):
            item.add_marker(pytest.mark.fast)
